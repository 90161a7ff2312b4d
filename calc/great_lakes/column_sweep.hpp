#pragma once
// Issue 20's next exact engine, its first part: who wins a Great Lakes battle, exactly, from each
// side played alone and one sweep over pairs of side states held in dense arrays.
//
// A round's two halves each move one side only (folded_solver.cpp): the defender's fire moves the
// attacker, and reads the defender only through its fire dice; the attacker's fire, with the dice
// it had before its morale checks (GL 11.18), moves the defender and reads the attacker only
// through those dice. So each side is played alone once, for every count of hits it can take
// (round.hpp's allocation, morale checks and rerolls, GL 11.23-11.27), and the pairs are never
// keyed or hashed: the sweep takes the defender's folded parts one at a time by line SP, highest
// first (a column), and within a column the attacker's parts the same way; the attacker's moves
// stay inside the column, and the defender's go to lower columns as whole vectors over the
// attacker. Line SP falls in every move but a round where neither side hits, the self-loop, summed
// in closed form (divide by 1 - p). The mass is carried twice, once per side beside that side's
// unfolded state (each unit's SP and status), as the folded engine's labels are, so that the
// carries the full engine will need are timed with the rest (docs/benchmarks.md).
//
// Not yet played (the function says so rather than answer): reinforcements (GL 13), a first round
// that differs (GL 11.8), voluntary retreat (a policy other than never), a choice solved as a
// game. What the full document needs beyond who wins (each end, SP lost, rounds, units) is still
// solve_exact's.
#include <cstddef>
#include <optional>

#include "calc/great_lakes/battle.hpp"

namespace musket::great_lakes {

struct sweep_outcomes {
  double attacker_wins = 0;
  double defender_holds = 0;
  double stalemate = 0;
  std::size_t attacker_parts = 0, defender_parts = 0;    // folded side states
  std::size_t attacker_states = 0, defender_states = 0;  // unfolded
  double multiply_adds = 0;                              // the sweep's carries
};

// nullopt where the battle uses a rule the sweep does not play yet (above). Throws invalid_input as
// round::compile does.
std::optional<sweep_outcomes> sweep_battle_outcomes(const battle& b);

}  // namespace musket::great_lakes
