#pragma once
// Refusing Battle (NT 8.1, SS 10.1): no dice. The army moves away whole; it abandons its
// Supplies, except that an army with a Leader takes floor(units / 2) of them along.
// A Dug-In army (NT 7.5, SS 9.6) or, in SS, an army under Siege (11.1) cannot refuse.
#include <string>

#include "calc/supply_lines/rule_set.hpp"

namespace musket::supply_lines {

struct refuse_setup {
  int units = 1;
  int leaders = 0;
  int supplies = 0;  // Food and War Supplies with the army
  bool dug_in = false;
  bool under_siege = false;
  bool retreat_area = true;  // an adjacent friendly or empty Area other than the attacker's
};

struct refuse_result {
  bool can_refuse = false;
  std::string reason;  // why not, when it cannot
  int supplies_taken = 0;
  int supplies_abandoned = 0;
};

refuse_result refuse_battle(const rule_set& rules, const refuse_setup& setup);
inline constexpr int max_army_supplies = 100;  // every cube in the game (60 Food + 40 War)

}  // namespace musket::supply_lines
