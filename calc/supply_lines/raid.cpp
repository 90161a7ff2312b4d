#include "calc/supply_lines/raid.hpp"

#include "core/dice.hpp"
#include "core/invalid_input.hpp"

namespace musket::supply_lines {

rational raid_success(const rule_set& rules, int militia_remaining, bool swamp_fox) {
  if (rules.which != game::southern_strategy)
    throw invalid_input("command", "Raids exist only in The Southern Strategy (SS 8.3)");
  require_in_range("militia-remaining", militia_remaining, 0, max_units,
                   "Militia pieces left in the box after the raider is removed");
  const int bonus = militia_remaining + (swamp_fox ? 1 : 0);
  return die_at_least<rational>(6 - bonus);
}

}  // namespace musket::supply_lines
