#pragma once
// The game of optimal play (optimal/game.hpp) solved over pairs of side states (issue 37). A
// round's fire moves only the side it hits and reads the firing side only through its dice, and
// each side's choices (where its hits fall, which failed die its leader rerolls) change only its
// own units, so the round's value splits at the points where one side's part of it is done: the
// value of a pair (attacker, defender) at a round's start, of a pair of hit states (each side's
// units after a fire's hits, with the hits it took this round) before the morale checks, of a
// post-morale attacker beside a hit defender, and of a post-morale pair at the voluntary
// retreats. Each side's options (per hit count its allocations, per hit state its morale checks
// and rerolls as a small decision tree, per state its reinforcement) are listed once for the
// side alone; the stages are max / min / expectations over those lists for each state of the
// other side. pair_values.cpp says how.
#include <array>
#include <cstddef>
#include <functional>

#include "calc/great_lakes/exact/cost.hpp"
#include "calc/great_lakes/optimal/game.hpp"

namespace musket::great_lakes::optimal {

struct pair_solution {
  double value = 0;       // to the attacker, both sides playing as solved
  battle_result outcome;  // with_outcome: under the solved play
  std::array<side_advice, 2> advice;
  std::size_t pairs = 0;                     // round-start pairs valued
  std::array<std::size_t, 2> side_states{};  // each side's states (round start and after morale)
  std::array<std::size_t, 2> hit_states{};   // each side's states after a fire's hits
  double work = 0;                           // the cost model's count (pair_seconds_per_work)
  double chain_outcomes = 0;                 // the outcome chain's round outcomes
  double chain_predicted = 0;                // with_outcome: those predicted before the solve
  double predicted_seconds = 0;              // with_outcome: the whole solve's, before it
  bool swept = false;                        // the outcome document by the column sweep (swept_document)
  std::size_t kept_rows = 0;  // the bytes held for MA kept by defender hit state (0: each column worked its own)
};

// Whether the outcome document under the solved play is the column sweep's (exact/column_sweep.hpp):
// only the attacker's hits are chosen, on the win objective, whose game states are the sweep's
// folded parts. The solved allocation then reads the round's start pair alone, where the
// defender's allocation, either side's rerolls and retreats read the other side mid-round (the
// outcome chains play those).
bool swept_document(const battle& b, const game_options& g);

// Seconds per unit of `work` (pair_game::list_sides counts it from the sides' lists before the
// solve: the attacker's morale outcomes against each defender hit state, and the defender's against
// each attacker state), and per round outcome of the outcome chains (each cell gathered, successor,
// end or self-loop a round reaches, its choices looked up or worked out), times the build's
// slowdown (6 in the web build, exact/cost.hpp). The chains' rate and counts were fitted on the
// 2-core machine to the whole solve's time (both sides' and one side's choices, both objectives,
// the Niagara 2 v 2 to 4 v 3, two threads); the pairs' rate refitted once MA was kept by defender
// hit state, by least worst ratio over the Niagara 2 v 2 to 5 v 4's solves over 0.1 s
// (docs/benchmarks.md, "How the time guard is fitted").
inline constexpr double pair_seconds_per_work = 8e-9 * build_slowdown;
inline constexpr double chain_seconds_per_outcome = 17e-9 * build_slowdown;
// The outcome chains' round outcomes predicted before the solve, per pair of the unfolded sides'
// valued states, by [value objective][who decides: one side, no hits; one side, its hits among its
// choices; both sides]: fitted to the whole solve's time less the pairs' part, at
// chain_seconds_per_outcome (the Niagara 2 v 2 to 5 v 4, docs/benchmarks.md). The chains play only
// the pairs the solved play reaches, and a side's table lists the states every option of its
// choices reaches: fewer of them are played where a side allocates its hits, fewer still where both
// sides choose. (The value objective's row was fitted when its one chain played the full states
// of both sides; its three chains now play a fifth to three quarters of that count on the
// Niagara 3 v 2 and 3 v 3, so it is generous.)
inline constexpr double chain_outcomes_per_pair[2][3] = {{100, 27, 8}, {230, 80, 27}};

// Work the caller has beside a game with its outcome (the default play, each side's game alone),
// given the options to solve it under: their memory bound what the game's bound leaves it, and a
// flag that stops it (solve_cancelled) where the game needs that memory back. Run beside the
// longer outcome chain where two threads are usable; what it leaves undone (past that bound,
// stopped, or on one thread) the caller does once the game has returned.
using beside_chains = std::function<void(const exact_options&)>;

// The game's value, and with `with_outcome` its outcome document and advice. Throws as
// solve_optimal_play does: game_over_budget before any pair is valued where the prediction from
// the sides' lists (the pairs' work, and with `with_outcome` the chains' outcomes predicted) passes
// g.time_budget, and (partial) once the chains' outcomes as played take the pairs' work past it.
pair_solution solve_over_pairs(const battle& b, const game_options& g, const exact_options& options, bool with_outcome,
                               const beside_chains& beside = {});

}  // namespace musket::great_lakes::optimal
