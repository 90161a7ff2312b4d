#include "calc/supply_lines/skirmish.hpp"

#include "calc/supply_lines/battle.hpp"
#include "core/dice.hpp"
#include "core/invalid_input.hpp"

namespace musket::supply_lines {

namespace {
// The skirmish as a battle setup, so surrender shifts come from the one shared rule.
battle_setup as_battle(const skirmish_setup& s) {
  battle_setup b;
  b.attacker = side::patriot;
  b.attacker_units = s.patriot_units;
  b.attacker_leaders = 0;
  b.defender_units = s.crown_units;
  b.defender_leaders = s.crown_leaders;
  b.crown_commander = s.crown_commander;
  return b;
}
}  // namespace

void validate(const rule_set& rules, const skirmish_setup& s) {
  const bool ss = rules.which == game::southern_strategy;
  if (s.attacker != side::patriot)
    throw invalid_input("attacker", std::string("only a Patriot army may Skirmish (") + (ss ? "SS 9.5" : "NT 7.4") +
                                        "); allowed: patriot");
  require_in_range("patriot-units", s.patriot_units, 1, 2,
                   std::string("a Skirmish uses one or two Units, ") + (ss ? "SS 9.5" : "NT 7.4"));
  require_in_range("war", s.war_supplies, 1, max_war_supplies,
                   "one die per War Supply; at least one die, at most the cube limit");
  require_in_range("crown-units", s.crown_units, 1, max_units);
  require_in_range("crown-leaders", s.crown_leaders, 0, rules.max_leaders_per_army);
  if (!ss && s.crown_commander)
    throw invalid_input("crown-commander", "only The Southern Strategy (ss) has an overall Crown commander");
  if (s.crown_commander && s.crown_leaders < 1)
    throw invalid_input("crown-commander",
                        "Cornwallis is a leader: give --crown-leaders 1 or more with --crown-commander");
  if (ss && !s.crown_commander && s.crown_leaders > 1)
    throw invalid_input("crown-leaders", "a Crown army without Cornwallis has at most 1 leader (SS 9.2); allowed 0..1");
}

skirmish_result resolve_skirmish(const rule_set& rules, const skirmish_setup& s) {
  validate(rules, s);
  const pmf hits = binomial_successes<rational>(s.war_supplies, 2);  // 8.8: each 1-2 hits
  skirmish_result result;
  result.crown_units_eliminated = transform(hits, [&](int h) { return std::min(h, s.crown_units); });
  result.crown_units_eliminated.cover(0, s.crown_units);
  result.crown_army_surrenders = at_least(hits, s.crown_units);  // 8.7: all units gone, it surrenders
  const battle_setup as = as_battle(s);
  result.track_shift = pmf::empty();
  result.track_shift.add_mass(0, 1 - result.crown_army_surrenders);
  result.track_shift.add_mass(army_surrender_shift(rules, as, side::crown), result.crown_army_surrenders);
  if (rules.crown_commander_instant_win && s.crown_commander) result.instant_victory = result.crown_army_surrenders;
  return result;
}

}  // namespace musket::supply_lines
