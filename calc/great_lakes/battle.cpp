#include "calc/great_lakes/battle.hpp"

#include <set>
#include <string>

#include "calc/great_lakes/rules/state.hpp"
#include "core/invalid_input.hpp"
#include "core/suggest.hpp"

namespace musket::great_lakes {

std::string to_string(nation n) {
  return std::string(name_of(names_of_nation, n));
}

std::string to_string(unit_type t) {
  return std::string(name_of(names_of_unit_type, t));
}

std::string to_string(crossing c) {
  return std::string(name_of(names_of_crossing, c));
}

std::string to_string(retreat_kind k) {
  return std::string(name_of(names_of_retreat_kind, k));
}

std::string to_string(hit_allocation_kind k) {
  return std::string(name_of(names_of_hit_allocation_kind, k));
}

std::string to_string(reroll_kind k) {
  return std::string(name_of(names_of_reroll_kind, k));
}

std::string to_string(battle_end e) {
  return std::string(name_of(names_of_battle_end, e));
}

namespace {

void validate_unit(const unit& u, const std::string& path) {
  if (u.name.empty()) throw invalid_input(path + "/name", "a unit needs a name");
  require_in_range(path + "/max_sp", u.max_sp, 1, 15, "GL 4.8 strength points");
  require_in_range(path + "/sp", u.sp, 1, u.max_sp, "current SP is at least 1 and at most max_sp");
  require_in_range(path + "/morale", u.morale, 1, 6, "GL 4.7 morale is a die face");
  require_in_range(path + "/dice", u.dice, 0, 12, "GL 4.7 battle dice");
  if (u.type == unit_type::garrison)
    throw invalid_input(path + "/type", "a garrison is given as the defender's fort, not as a unit");
}

void validate_army(const army& a, const std::string& side, bool is_attacker, std::set<std::string>& names) {
  for (std::size_t i = 0; i < a.units.size(); ++i) {
    const std::string path = side + "/units/" + std::to_string(i);
    validate_unit(a.units[i], path);
    if (!is_attacker && a.units[i].crossed != crossing::none)
      throw invalid_input(path + "/crossing", "only attacking units cross a river or land (GL 11.13)");
    if (!names.insert(lowercase(a.units[i].name)).second)
      throw invalid_input(path + "/name", "duplicate unit name '" + a.units[i].name + "'");
  }
  for (std::size_t i = 0; i < a.reinforcements.size(); ++i) {
    const std::string path = side + "/reinforcements/" + std::to_string(i) + "/unit";
    validate_unit(a.reinforcements[i].u, path);
    if (a.reinforcements[i].u.crossed != crossing::none)
      throw invalid_input(path + "/crossing", "a reinforcement never fights in round 1, so it has no crossing");
    if (!names.insert(lowercase(a.reinforcements[i].u.name)).second)
      throw invalid_input(path + "/name", "duplicate unit name '" + a.reinforcements[i].u.name + "'");
  }
  check_leaders(a.leaders, side + "/leaders");
  require_in_range(side + "/ship_dice", a.ship_dice, 0, 12, "GL 7.11 a squadron's combat value");
  require_in_range(side + "/reinforcement_rating", a.reinforcement_rating, 0, 6, "GL 13.3");
  if (a.retreat.kind == retreat_kind::line_sp_at_most)
    require_in_range(side + "/retreat/k", a.retreat.k, 0, 1000, "line SP threshold");
  if (a.fortification) {
    if (is_attacker) throw invalid_input(side + "/fort", "only the defender has a fort (GL 11.11)");
    const fort& f = *a.fortification;
    require_in_range(side + "/fort/dice", f.dice, 0, 12, "the fort's battle number");
    require_in_range(side + "/fort/sp", f.sp, 1, 15, "the garrison's SP");
    require_in_range(side + "/fort/morale", f.morale, 1, 6, "the garrison's morale");
    if (!f.destroyed && !names.insert("garrison").second)
      throw invalid_input(side + "/fort", "a unit named 'garrison' clashes with the fort's garrison");
  }
  int dice = a.ship_dice;
  for (const auto& u : a.units) dice += u.dice;
  for (const auto& r : a.reinforcements) dice += r.u.dice;
  if (a.fortification && !a.fortification->destroyed) dice += a.fortification->dice;
  require_in_range(side, dice, 0, 200, "total battle dice of one side");
}

using round::battle_rules;
using round::battle_state;

}  // namespace

void check_leaders(const std::vector<std::string>& leaders, const std::string& path) {
  if (leaders.size() > max_leaders)
    throw invalid_input(path, std::to_string(leaders.size()) + " leaders; an army names at most " +
                                  std::to_string(max_leaders) + ", each once");
  std::set<std::string> seen;
  for (std::size_t i = 0; i < leaders.size(); ++i)
    if (!seen.insert(lowercase(leaders[i])).second)
      throw invalid_input(path + "/" + std::to_string(i), "the leader '" + leaders[i] + "' is named twice");
}

int morale_rerolls(const army& a) {
  int count = 0;
  for (const auto& name : a.leaders) {
    const std::string n = lowercase(name);
    if (a.side == nation::british && (n == "drummond" || n == "riall")) ++count;  // GL 11.26
    if (a.side == nation::american && (n == "brown" || n == "scott")) ++count;    // GL 11.27
  }
  return count;
}

void validate(const battle& b) {
  std::set<std::string> names;
  validate_army(b.attacker, "attacker", true, names);
  validate_army(b.defender, "defender", false, names);
  if (b.attacker.side == b.defender.side)
    throw invalid_input("defender/side", "both sides are " + to_string(b.attacker.side));
  if (b.attacker.units.empty()) throw invalid_input("attacker/units", "the attacker needs at least one unit");
  const bool garrison = b.defender.fortification && !b.defender.fortification->destroyed;
  if (b.defender.units.empty() && !garrison)
    throw invalid_input("defender/units", "the defender has no units and no undestroyed fort");
  const std::size_t count = b.attacker.units.size() + b.attacker.reinforcements.size() + b.defender.units.size() +
                            b.defender.reinforcements.size() + (garrison ? 1 : 0);
  require_in_range("units", static_cast<long long>(count), 2, round::max_units, "units in one battle");
}

// Optimal play is a game (optimal/game.hpp solves it); these engines play fixed policies only.
void require_fixed_play(const battle& b, const std::string& engine) {
  for (const auto& [a, side] : {std::pair{&b.attacker, "attacker"}, std::pair{&b.defender, "defender"}}) {
    std::string field;
    if (a->retreat.kind == retreat_kind::optimal) field = "retreat";
    if (a->hit_allocation.kind == hit_allocation_kind::optimal) field = "hit_allocation";
    if (a->rerolls.kind == reroll_kind::optimal) field = "rerolls";
    if (!field.empty())
      throw invalid_input(std::string(side) + "/" + field,
                          "optimal play is solved exactly as a game (solve_optimal_play), not by " + engine);
  }
}

}  // namespace musket::great_lakes
