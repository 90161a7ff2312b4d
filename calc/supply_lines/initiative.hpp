#pragma once
// Initiative (NT 6.0, SS 6.0): each side rolls a d6, the high roll goes first. Ties go to the
// Crown (NT: to the Patriot once Independence is Declared, 11.1) and put the Pass Marker on
// 5-6; otherwise the marker starts on the high roll's space (1, 2, 3, 4, 5-6).
#include "calc/supply_lines/rule_set.hpp"
#include "core/pmf.hpp"

namespace musket::supply_lines {

struct initiative_result {
  rational crown_first{0};
  rational patriot_first{0};
  pmf pass_marker;  // space 1..5, where 5 is the "5-6" space
};

initiative_result resolve_initiative(const rule_set& rules, bool declared_independence);

}  // namespace musket::supply_lines
