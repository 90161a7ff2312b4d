#pragma once
// Great Lakes battles solved exactly by a column sweep (issue 20): each side played alone
// (exact/side_states.hpp), then one sweep over pairs of side states held in dense arrays.
//
// A round's two halves each move one side only (folded_solver.cpp): the defender's fire moves the
// attacker and reads the defender only through its fire dice; the attacker's fire, with the dice
// it had before its morale checks (GL 11.18), moves the defender and reads the attacker only
// through those dice. So no pair is keyed, hashed or numbered: the sweep takes the defender's
// folded parts one at a time by line SP, highest first (a column), and within a column the
// attacker's the same way; the attacker's moves stay inside the column, and the defender's go to
// lower columns as whole vectors over the attacker. Line SP falls in every move but a round where
// neither side hits, the self-loop, summed in closed form (divide by 1 - p). The mass is carried
// twice, once beside each side's unfolded state (its units' SP and status), so each side's end
// is known where the battle ends; those ends are summed by what they depend on (the side's state
// and the other side's dice) and played once after the sweep (retreat fire, GL 12.2-12.3). The
// rounds' distribution comes from stepping the folded pairs a round at a time; their mean from the
// sweep's visits.
//
// Plays the battles the folded engine plays but for reinforcements (GL 13), voluntary retreat (a
// policy other than never) and choices solved as a game: for those it answers nullopt and
// solve_exact uses the folded engine. A first round that differs (GL 11.22) is played from the
// start apart.
#include <optional>

#include "calc/great_lakes/battle.hpp"
#include "calc/great_lakes/rules/round.hpp"

namespace musket::great_lakes {

// Whether the sweep plays a battle of these rules (above; a side too large to play alone is found
// only by solving).
bool column_sweep_plays(const round::battle_rules& r);

// Throws invalid_input as round::compile does, memory_limit_exceeded past options.memory_limit,
// state_limit_exceeded past options.state_limit (pairs of side parts), solve_cancelled.
std::optional<battle_result> solve_by_column_sweep(const battle& b, const exact_options& options = {});

}  // namespace musket::great_lakes
