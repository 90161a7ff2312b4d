#pragma once
// One way in: a Great Lakes battle answered by the method asked for (exact, sim or auto), within a
// time budget, a memory bound and a state limit, cancellable. The one place that decides between
// the exact engines and the simulation (the CLI's `gl battle`, and through it the dashboard and the
// sweeps, call this and hold no policy of their own):
//   optimal play (any `optimal` policy)  a game, solved exactly (solve_optimal_play); under auto
//                                        within the time budget its own prediction allows; but
//                                        only retreats `optimal` on the win objective (no choice:
//                                        has_choice) the default play, by the exact engine, exact
//                                        only and under auto refused past the budget
//   exact                                the fixed-policy exact engine (solve_exact), refused when the
//                                        predicted memory alone passes the bound
//   sim                                  the simulation (simulate)
//   auto                                 the exact cost predicted first (predict_exact_cost): within
//                                        the time budget and the memory bound, solved exactly (and
//                                        simulated after all should the solve pass the state limit or
//                                        its counted memory the bound); past either, simulated, the
//                                        simulation stopped at three quarters of the budget.
// `why` says which and from what facts, for a front end to word (calc never prints).
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>

#include "calc/great_lakes/battle.hpp"
#include "calc/great_lakes/exact/cost.hpp"
#include "calc/great_lakes/optimal/game.hpp"
#include "core/enum_names.hpp"
#include "core/monte_carlo.hpp"

namespace musket::great_lakes {

enum class solve_method { exact, sim, automatic };
inline constexpr enum_names<solve_method, 3> names_of_solve_method{
    {{solve_method::exact, "exact"}, {solve_method::sim, "sim"}, {solve_method::automatic, "auto"}}};
std::string to_string(solve_method m);
// Throws invalid_input(field, "'X' is not a method; allowed: exact, sim, auto").
solve_method parse_solve_method(const std::string& text, const std::string& field);

struct solve_options {
  solve_method method = solve_method::automatic;
  double time_budget = 1;               // seconds: auto's budget (an exact solve predicted past it is simulated)
  std::size_t memory_limit = 0;         // bytes the exact solve may hold, predicted before and counted during; 0: none
  std::size_t state_limit = 2'000'000;  // battle positions an exact engine may hold (battle_method::states)
  // Trials, seed, threads, progress; its cancel stops an exact solve too (solve_cancelled).
  simulation_options simulation;
  game_options game;  // optimal play's objective (its time_budget is set here from the method)
};

// Why the answer came from the engine it came from: facts, worded by the front end.
enum class solve_reason {
  asked,                  // the method asked for (exact or sim)
  optimal_play,           // optimal play: a game solved exactly, the only method for it
  predicted_fits,         // auto: the predicted cost fits the budget and the bound; solved exactly
  predicted_over_budget,  // auto: predicted past the time budget; simulated
  predicted_over_memory,  // auto: predicted past the memory bound; simulated
  state_limit,            // auto: the exact solve passed the state limit; simulated
  memory_counted,         // auto: the exact solve's counted memory passed the bound; simulated
};

struct solve_why {
  solve_method asked = solve_method::automatic;
  solve_reason reason = solve_reason::asked;
  std::optional<exact_cost> predicted;  // the fixed-policy exact cost, where it was predicted (exact, auto)
  std::size_t counted_bytes = 0;        // memory_counted: what the exact solve had counted, and
  std::size_t counted_states = 0;       // the positions it held, when it stopped
  bool budget_ran_out = false;          // predicted_over_*: the simulation stopped at the deadline
};

struct solved_battle {
  battle_result result;             // result.method: the engine's name, states, ...
  std::optional<game_result> game;  // optimal play: the game's values and advice (result is its outcome)
  solve_why why;
};

// Thrown by solve for method exact when the predicted memory alone passes the bound.
class exact_over_memory : public std::runtime_error {
 public:
  exact_over_memory(double predicted_bytes, std::size_t limit)
      : std::runtime_error("the exact solve is predicted to pass its memory bound"),
        predicted_(predicted_bytes),
        limit_(limit) {}
  double predicted_bytes() const noexcept { return predicted_; }
  std::size_t limit() const noexcept { return limit_; }

 private:
  double predicted_;
  std::size_t limit_;
};

// Thrown by solve for method sim with optimal play (simulation does not play a solved strategy).
class optimal_play_not_simulated : public std::runtime_error {
 public:
  optimal_play_not_simulated() : std::runtime_error("optimal play is solved exactly only") {}
};

// Throws invalid_input for an impossible battle, solve_cancelled once the cancel flag is set
// during an exact solve, exact_over_memory and optimal_play_not_simulated as above, and for
// method exact (and optimal play, which has no other) the engines' state_limit_exceeded and
// memory_limit_exceeded, and game_over_budget (optimal play under auto past the time budget).
solved_battle solve(const battle& b, const solve_options& options);

}  // namespace musket::great_lakes
