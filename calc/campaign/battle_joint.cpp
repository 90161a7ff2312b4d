#include "calc/campaign/battle_joint.hpp"

#include <algorithm>
#include <map>
#include <tuple>

#include "calc/supply_lines/morale.hpp"
#include "core/dice.hpp"

namespace musket::campaign {

using namespace supply_lines;

template <class Probability>
std::vector<battle_cell<Probability>> joint_battle(const rule_set& rules, const battle_setup& s) {
  validate(rules, s);
  const int A = s.attacker_units, D = s.defender_units;
  const int dice = attacker_dice(rules, s);
  const int checks = defender_morale_checks(rules, s);
  const bool surrender_on_fail = failed_check_surrenders(rules, s);
  const auto defender_roll = binomial_successes<Probability>(s.defender_war_supplies, defender_hit_faces);

  std::map<std::tuple<int, int, int>, Probability> cells;
  auto add = [&](battle_outcome o, int lost_a, int lost_d, const Probability& p) {
    if (p == Probability(0)) return;
    cells[{static_cast<int>(o), lost_a, lost_d}] += p;
  };
  for (int h = 0; h <= s.defender_war_supplies; ++h) {
    const Probability p_h = defender_roll[h];
    const int lost_a = std::min(h, A);  // each 1-2 eliminates one attacking unit
    if (lost_a == A) {                  // all gone: the attacker surrenders and does not roll
      add(battle_outcome::attacker_surrenders, A, 0, p_h);
      continue;
    }
    const int rolled = std::max(0, dice - lost_a / 2);  // one die fewer per two units lost
    const auto attacker_roll = binomial_successes<Probability>(rolled, attacker_hit_faces(s.attacker));
    for (int g = 0; g <= rolled; ++g) {
      const Probability p = p_h * attacker_roll[g];
      const int lost_d = std::min(s.dug_in ? std::max(0, g - 1) : g, D);  // dug in: first hit ignored
      if (lost_d == D) {
        add(battle_outcome::defender_surrenders, lost_a, D, p);
        continue;
      }
      const int attacker_strength = A - lost_a + s.attacker_leaders;
      const int defender_strength = D - lost_d + s.defender_leaders;
      if (attacker_strength <= defender_strength) {  // tie to the defender
        add(battle_outcome::defender_victory, lost_a, lost_d, p);
        continue;
      }
      Probability pass(0);
      if (checks > 0) {
        const Probability one =
            Probability(morale_passing_faces(attacker_strength - defender_strength)) / Probability(6);
        pass = checks == 1 ? one : one * one;
      }
      add(battle_outcome::defender_stands, lost_a, lost_d, p * pass);
      if (surrender_on_fail)
        add(battle_outcome::defender_surrenders, lost_a, D, p * (Probability(1) - pass));
      else
        add(battle_outcome::defender_retreats, lost_a, lost_d, p * (Probability(1) - pass));
    }
  }
  std::vector<battle_cell<Probability>> out;
  out.reserve(cells.size());
  for (const auto& [key, p] : cells)
    out.push_back({static_cast<battle_outcome>(std::get<0>(key)), std::get<1>(key), std::get<2>(key), p});
  return out;
}

template std::vector<battle_cell<rational>> joint_battle<rational>(const rule_set&, const battle_setup&);
template std::vector<battle_cell<double>> joint_battle<double>(const rule_set&, const battle_setup&);

}  // namespace musket::campaign
