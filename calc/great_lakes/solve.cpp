#include "calc/great_lakes/solve.hpp"

#include <atomic>
#include <chrono>

#include "calc/great_lakes/exact/side_states.hpp"
#include "calc/great_lakes/rules/round.hpp"
#include "core/invalid_input.hpp"
#include "core/markov_chain.hpp"
#include "core/memory_meter.hpp"

namespace musket::great_lakes {

std::string to_string(solve_method m) {
  return std::string(name_of(names_of_solve_method, m));
}

solve_method parse_solve_method(const std::string& text, const std::string& field) {
  if (const auto m = value_of(names_of_solve_method, text)) return *m;
  throw invalid_input(field, "'" + text + "' is not a method; allowed: " + names_list(names_of_solve_method));
}

namespace {

using clock = std::chrono::steady_clock;

// auto's simulation, stopped (between chunks of trials: the answer covers whole chunks, and says
// it was cut short) once `deadline` passes, so auto answers within its time budget whatever the
// battle's size; the caller's own cancel flag (the dashboard's) still stops it too.
battle_result simulate_until(const battle& b, simulation_options sim, clock::time_point deadline, bool& ran_out) {
  sim.chunk_trials = 1u << 12;  // the deadline is seen between chunks: a quarter of the usual, for big battles
  sim.deadline = deadline;      // (no watching thread: the web build has none)
  battle_result res = simulate(b, sim);
  ran_out = res.method.cancelled && !(sim.cancel && sim.cancel->load());
  return res;
}

exact_options exact_options_of(const solve_options& o) {
  exact_options exact;
  exact.state_limit = o.state_limit;  // the one limit, whichever engine answers (battle.hpp)
  exact.memory_limit = o.memory_limit;
  exact.cancel = o.simulation.cancel;    // the same Cancel stops an exact solve
  exact.threads = o.simulation.threads;  // the same answer to the last bit on one thread or two
  return exact;
}

// Issue 20: the exact solve's cost predicted before solving (exact/cost.hpp), from each side listed
// alone as the column sweep lists it; the sweep then plays those lists.
struct predicted_solve {
  sweep::battle_sides listed;
  exact_cost cost;
};
predicted_solve predict(const battle& b) {
  const round::battle_rules rules = round::compile(b);
  predicted_solve p;
  p.listed = sweep::list_battle_sides(rules, predicted_side_limit, move_limit);
  p.cost = predict_exact_cost(rules, p.listed);
  return p;
}

}  // namespace

solved_battle solve(const battle& b, const solve_options& o) {
  const auto started = clock::now();
  solved_battle out;
  out.why.asked = o.method;
  const exact_options exact = exact_options_of(o);

  // Issue 17: optimal play is a game, solved exactly (simulation does not play the solved strategy).
  if (plays_optimally(b)) {
    if (o.method == solve_method::sim) throw optimal_play_not_simulated();
    if (!has_choice(b, o.game.goal)) {
      // Only retreats `optimal`, on the win objective: the default play, solved exactly as optimal
      // play is (under auto refused past the budget, never simulated), without a game (whose pairs
      // and chains cost several times the sweep: the Niagara 5 v 4 was refused under auto).
      const battle played = default_play(b);
      const predicted_solve p = predict(played);
      out.why.predicted = p.cost;
      if (!memory_meter(o.memory_limit).fits(p.cost.bytes)) throw exact_over_memory(p.cost.bytes, o.memory_limit);
      if (o.method == solve_method::automatic && !(p.cost.seconds <= o.time_budget))
        throw game_over_budget(p.cost.seconds, o.time_budget, false);
      out.game = game_of_default_play(b, o.game, solve_exact(played, exact, &p.listed));
      out.result = out.game->outcome;
      out.why.reason = solve_reason::optimal_play;
      return out;
    }
    game_options game = o.game;
    // auto answers within the time budget or says why not; exact asked for runs however long.
    game.time_budget = o.method == solve_method::automatic ? o.time_budget : 0;
    out.game = solve_optimal_play(b, game, exact);
    out.result = out.game->outcome;
    out.why.reason = solve_reason::optimal_play;
    return out;
  }
  if (o.method == solve_method::sim) {
    out.result = simulate(b, o.simulation);
    out.why.reason = solve_reason::asked;
    return out;
  }

  const predicted_solve p = predict(b);
  const sweep::battle_sides& listed = p.listed;
  const exact_cost& cost = p.cost;
  out.why.predicted = cost;
  const memory_meter meter(o.memory_limit);
  const bool fits_memory = meter.fits(cost.bytes);
  if (o.method == solve_method::exact && !fits_memory) throw exact_over_memory(cost.bytes, o.memory_limit);
  if (o.method == solve_method::automatic && !(fits_memory && cost.seconds <= o.time_budget)) {
    out.why.reason = fits_memory ? solve_reason::predicted_over_budget : solve_reason::predicted_over_memory;
    // Stopped at three quarters of the budget: the chunk of trials in flight and the report still
    // have to finish within it.
    const auto deadline =
        started + std::chrono::duration_cast<clock::duration>(std::chrono::duration<double>(0.75 * o.time_budget));
    out.result = simulate_until(b, o.simulation, deadline, out.why.budget_ran_out);
    return out;
  }
  out.why.reason = o.method == solve_method::exact ? solve_reason::asked : solve_reason::predicted_fits;
  try {
    out.result = solve_exact(b, exact, &listed);
  } catch (const state_limit_exceeded&) {
    if (o.method == solve_method::exact) throw;
    out.why.reason = solve_reason::state_limit;
    out.result = simulate(b, o.simulation);
  } catch (const memory_limit_exceeded& e) {
    // Issue 19: the solve counts its memory as it grows and stops before the bound.
    if (o.method == solve_method::exact) throw;
    out.why.reason = solve_reason::memory_counted;
    out.why.counted_bytes = e.counted();
    out.why.counted_states = e.states();
    out.result = simulate(b, o.simulation);
  }
  return out;
}

}  // namespace musket::great_lakes
