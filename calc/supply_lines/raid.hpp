#pragma once
// Raid (SS 8.3): remove one Militia piece, roll a d6 and add the Militia pieces still in the
// Colony's box (+1 for the Swamp Fox); 6 or more succeeds.
#include "calc/supply_lines/rule_set.hpp"
#include "core/rational.hpp"

namespace musket::supply_lines {

rational raid_success(const rule_set& rules, int militia_remaining, bool swamp_fox);

}  // namespace musket::supply_lines
