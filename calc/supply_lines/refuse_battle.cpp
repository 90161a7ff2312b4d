#include "calc/supply_lines/refuse_battle.hpp"

#include <algorithm>

#include "core/invalid_input.hpp"

namespace musket::supply_lines {

refuse_result refuse_battle(const rule_set& rules, const refuse_setup& s) {
  const bool ss = rules.which == game::southern_strategy;
  require_in_range("units", s.units, 1, max_units);
  require_in_range("leaders", s.leaders, 0, rules.max_leaders_per_army);
  require_in_range("supplies", s.supplies, 0, max_army_supplies, "every Supply cube in the game");
  if (!ss && s.under_siege) throw invalid_input("siege", "sieges exist only in The Southern Strategy (ss)");
  refuse_result r;
  if (s.dug_in) {
    r.reason = std::string("a Dug-In army cannot Refuse Battle (") + (ss ? "SS 9.6" : "NT 7.5") + ")";
  } else if (s.under_siege) {
    r.reason = "an army under Siege cannot Refuse Battle (SS 11.1)";
  } else if (!s.retreat_area) {
    r.reason =
        std::string("no adjacent friendly or unoccupied Area to move into (") + (ss ? "SS 10.1" : "NT 8.1") + ")";
  } else {
    r.can_refuse = true;
    // 8.1 / 10.1: with a Leader, half the Units (rounded down; Leaders not counted) in Supplies.
    r.supplies_taken = s.leaders > 0 ? std::min(s.supplies, s.units / 2) : 0;
    r.supplies_abandoned = s.supplies - r.supplies_taken;
  }
  return r;
}

}  // namespace musket::supply_lines
