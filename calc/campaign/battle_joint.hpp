#pragma once
// The joint law of one Supply Lines battle: (outcome, attacking units lost, defending units lost).
// resolve_battle reports the marginals; a campaign needs the joint, because the units an army
// carries into its next step depend on how this battle ended. The procedure is composed from the
// rule helpers battle.hpp exports (dice, hit faces, morale checks, surrender on failure), so a
// ruling still changes in one place; tests check the marginals against resolve_battle.
#include <vector>

#include "calc/supply_lines/battle.hpp"

namespace musket::campaign {

template <class Probability>
struct battle_cell {
  supply_lines::battle_outcome outcome;
  int attacker_lost = 0;
  int defender_lost = 0;
  Probability probability{0};
};

// Every cell with non-zero probability; validates the setup first (invalid_input on failure).
template <class Probability>
std::vector<battle_cell<Probability>> joint_battle(const supply_lines::rule_set& rules,
                                                   const supply_lines::battle_setup& setup);

extern template std::vector<battle_cell<rational>> joint_battle<rational>(const supply_lines::rule_set&,
                                                                          const supply_lines::battle_setup&);
extern template std::vector<battle_cell<double>> joint_battle<double>(const supply_lines::rule_set&,
                                                                      const supply_lines::battle_setup&);

}  // namespace musket::campaign
