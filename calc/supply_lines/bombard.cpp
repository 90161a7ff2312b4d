#include "calc/supply_lines/bombard.hpp"

#include "core/dice.hpp"
#include "core/invalid_input.hpp"

namespace musket::supply_lines {

void validate(const rule_set& rules, const bombard_setup& s) {
  if (rules.which != game::northern_theater)
    throw invalid_input("command", "Bombard exists only in The Northern Theater (NT 7.6)");
  if (s.attacker != side::crown) throw invalid_input("attacker", "only the Crown may Bombard (NT 7.6); allowed: crown");
  require_in_range("war", s.war_supplies, 1, max_war_supplies, "one die per War Supply in the Sea Box");
  require_in_range("patriot-units", s.patriot_units, 1, max_units);
}

bombard_result resolve_bombard(const rule_set& rules, const bombard_setup& s) {
  validate(rules, s);
  const pmf hits = binomial_successes<rational>(s.war_supplies, 1);  // 7.6: each 1 eliminates
  bombard_result result;
  result.patriot_units_eliminated = transform(hits, [&](int h) { return std::min(h, s.patriot_units); });
  result.patriot_units_eliminated.cover(0, s.patriot_units);
  return result;
}

}  // namespace musket::supply_lines
