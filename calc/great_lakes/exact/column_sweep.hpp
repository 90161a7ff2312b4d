#pragma once
// Great Lakes battles solved exactly by a column sweep (issue 20): each side played alone
// (exact/side_states.hpp), then one sweep over pairs of side states held in dense arrays.
//
// A round's two halves each move one side only: the defender's fire moves the attacker and reads
// the defender only through its fire dice; the attacker's fire, with the dice it had before its
// morale checks (GL 11.18), moves the defender and reads the attacker only through those dice. So
// no pair is keyed, hashed or numbered: the sweep takes the defender's folded parts (units out of
// the line just `out`) one at a time by units waiting, then line SP, highest first (a column),
// and within a column the attacker's the same way; the attacker's moves stay inside the column,
// and the defender's go to lower columns as whole vectors over the attacker. Line SP falls in
// every move but a round where neither side hits and nobody enters, the self-loop, summed in
// closed form (divide by 1 - p). The mass is carried twice, once beside each side's unfolded
// state (its units' SP and status), so each side's end is known where the battle ends; those ends
// are summed by what they depend on (the side's state and the other side's dice) and played once
// after the sweep (retreat fire, GL 12.2-12.3). A retreat policy (GL 12.2 step 4) reads the pair a
// round ends on before the reinforcement (GL 13.3) lets anyone enter. The rounds' distribution
// comes from stepping the folded pairs a round at a time; their mean from the sweep's visits. A
// first round that differs (GL 11.22) is played from the start apart.
#include <cstdint>
#include <functional>

#include "calc/great_lakes/battle.hpp"
#include "calc/great_lakes/rules/round.hpp"

namespace musket::great_lakes::sweep {
struct battle_sides;  // exact/side_states.hpp
}

namespace musket::great_lakes {

// The exact engine that answers a battle (solve_exact, and predict_exact_cost's model): the plain
// chain (exact/plain_chain.hpp) where no unit can fail morale (no unit ever leaves the line holding
// SP, so there is nothing to fold), the column sweep everywhere else.
enum class exact_engine { plain_chain, column_sweep };
exact_engine choose_engine(const round::battle_rules& r);

// The attacker's hits allocated as optimal play solved them (GL 11.23; optimal/pair_values.cpp):
// the option of round::hit_options that the attacker's folded part `a` takes for `hits` hits
// against the defender's folded part `d` (side_states' part indices), or in round 1 where it is
// played apart (`first`, GL 11.22). It reads only the pair at the round's start, so the sweep's
// halves stay as they are (the defender's choices read the attacker mid-round, and do not).
using attacker_allocation = std::function<int(std::uint32_t a, std::uint32_t d, int hits, bool first)>;

// Any battle of fixed policies (optimal ones play as `never` here). Throws invalid_input as
// round::compile does, memory_limit_exceeded past options.memory_limit, state_limit_exceeded
// where a side alone has more states than options.state_limit or the pairs of side parts pass
// it, solve_cancelled.
// `listed`: both sides already listed alone (list_battle_sides, by the cost prediction); where
// null or incomplete, the sweep lists them.
// `allocation`: the attacker's hits allocated so (`listed` then lists each allocation it takes).
battle_result solve_by_column_sweep(const battle& b, const exact_options& options = {},
                                    const sweep::battle_sides* listed = nullptr,
                                    const attacker_allocation* allocation = nullptr);

}  // namespace musket::great_lakes
