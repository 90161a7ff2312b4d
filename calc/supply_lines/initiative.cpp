#include "calc/supply_lines/initiative.hpp"

#include <algorithm>

#include "core/invalid_input.hpp"

namespace musket::supply_lines {

initiative_result resolve_initiative(const rule_set& rules, bool declared) {
  if (declared && rules.which != game::northern_theater)
    throw invalid_input("declared", "the Declaration of Independence is a Northern Theater rule (NT 11.1)");
  initiative_result result;
  result.pass_marker = pmf::empty();
  const rational one_roll(1, 36);
  for (int crown = 1; crown <= 6; ++crown)
    for (int patriot = 1; patriot <= 6; ++patriot) {
      if (crown == patriot) {
        (declared ? result.patriot_first : result.crown_first) += one_roll;
        result.pass_marker.add_mass(5, one_roll);  // a tie always starts on 5-6
        continue;
      }
      (crown > patriot ? result.crown_first : result.patriot_first) += one_roll;
      result.pass_marker.add_mass(std::min(std::max(crown, patriot), 5), one_roll);
    }
  return result;
}

}  // namespace musket::supply_lines
