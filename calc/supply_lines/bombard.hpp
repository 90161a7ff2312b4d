#pragma once
// Bombard (NT 7.6): a Crown army with a Leader spends every War Supply in the Sea Box, one die
// each; each 1 eliminates a Patriot unit in the target. Dug-In has no effect. The rules say
// nothing of leaders or surrender here, so only the units lost are reported.
#include "calc/supply_lines/rule_set.hpp"
#include "core/pmf.hpp"

namespace musket::supply_lines {

struct bombard_setup {
  side attacker = side::crown;
  int war_supplies = 1;   // in the Sea Box
  int patriot_units = 1;  // in the target Port City
};

struct bombard_result {
  pmf patriot_units_eliminated;  // 0..patriot_units
};

void validate(const rule_set& rules, const bombard_setup& setup);
bombard_result resolve_bombard(const rule_set& rules, const bombard_setup& setup);

}  // namespace musket::supply_lines
