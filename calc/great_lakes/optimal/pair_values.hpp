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
};

// Seconds per unit of `work` (pair_values.cpp counts it from the sides' lists before the solve:
// for each pair, its hit states' pairs times the attacker's morale outcomes), and per round outcome
// of the outcome chains (each cell gathered, successor, end or self-loop a round reaches, its
// choices looked up or worked out), times the build's slowdown (6 in the web build,
// exact/cost.hpp): fitted on the 2-core machine to the whole solve's time (both sides' and one
// side's choices, both objectives, the Niagara 2 v 2 to 4 v 3, on two threads, two runs each:
// docs/benchmarks.md), each prediction within 0.53x-1.89x of the time.
inline constexpr double pair_seconds_per_work = 4e-9 * build_slowdown;
inline constexpr double chain_seconds_per_outcome = 17e-9 * build_slowdown;

// The game's value, and with `with_outcome` its outcome document and advice. Throws as
// solve_optimal_play does: game_over_budget before any pair is valued where the prediction from
// the sides' lists passes g.time_budget, and (partial) once the chain's outcomes take it past.
pair_solution solve_over_pairs(const battle& b, const game_options& g, const exact_options& options, bool with_outcome);

}  // namespace musket::great_lakes::optimal
