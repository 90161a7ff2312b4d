#pragma once
// Small Great Lakes battles for the tests: a unit and a one-on-one duel, American attacking.
#include <string>

#include "calc/great_lakes/battle.hpp"

namespace musket::great_lakes::testing {

inline unit make_unit(const std::string& name, int sp, int dice, int morale = 6, unit_type type = unit_type::regular) {
  unit u;
  u.name = name;
  u.type = type;
  u.sp = u.max_sp = sp;
  u.dice = dice;
  u.morale = morale;
  return u;
}

inline battle duel(unit a, unit d) {
  battle b;
  b.attacker.side = nation::american;
  b.defender.side = nation::british;
  b.attacker.units.push_back(std::move(a));
  b.defender.units.push_back(std::move(d));
  return b;
}

}  // namespace musket::great_lakes::testing
