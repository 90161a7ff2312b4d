#include "calc/revolution/combat.hpp"

#include <algorithm>

#include "calc/revolution/fort.hpp"
#include "core/invalid_input.hpp"

namespace musket::revolution {

odds compute_odds(const battle_setup& setup) {
  if (setup.attacker.owner == setup.defender.owner)
    throw invalid_input("defender", "attacker and defender are both " + to_string(setup.attacker.owner) +
                                        "; give the other side's letters (British B,T; American C,M,F,SF)");
  if (setup.fort && setup.besieging)
    throw invalid_input("besieging", "a group is either in a Fort (--fort) or besieging one (--besieging), not both");
  if (setup.fort) check_american_fort(setup.defender, "defender");  // Combat F
  odds o;
  o.attacker = setup.attacker.total();
  o.defender = setup.defender.total();
  if (o.attacker < 1) throw invalid_input("attacker", "needs at least 1 Strength Point");
  if (o.defender < 1) throw invalid_input("defender", "needs at least 1 Strength Point");
  o.multiplier = setup.fort ? 3 : setup.besieging ? 2 : 1;  // Combat D
  o.defender_effective = o.defender * o.multiplier;
  const int ratio = o.attacker / o.defender_effective;  // rounded in the defender's favour
  if (ratio < 1)
    throw invalid_input("attacker", std::to_string(o.attacker) + " against " + std::to_string(o.defender_effective) +
                                        (o.multiplier > 1 ? " (defender x" + std::to_string(o.multiplier) + ")" : "") +
                                        " is below 1:1; attacks need at least 1:1 (Combat A)");
  o.column = std::min(ratio, crt_columns);  // above 4:1 is 4:1
  return o;
}

result_outcome apply_result(const battle_setup& setup, crt_result r) {
  result_outcome out;
  out.result = r;
  const int defender = setup.defender.total();
  const int half = (defender + 1) / 2;  // fractions are rounded up
  out.defender_loss = r == crt_result::De ? defender : half;
  out.attacker_loss = r == crt_result::HalfEx ? std::min(half, setup.attacker.total()) : 0;
  out.defender_lost = allocate_losses(setup.defender, out.defender_loss, setup.policy);
  out.attacker_lost = allocate_losses(setup.attacker, out.attacker_loss, setup.policy);
  if (setup.attacker.owner == side::american && r != crt_result::HalfEx) {
    out.british_regulars_eliminated = out.defender_lost[static_cast<std::size_t>(unit_type::regular)];
    out.major_success = out.british_regulars_eliminated >= 5;        // Major Success, general rule
    out.partial_withdrawal = out.british_regulars_eliminated >= 15;  // the same rule's second sentence
  }
  return out;
}

battle_result resolve_battle(const crt_table& table, const battle_setup& setup) {
  battle_result res;
  res.o = compute_odds(setup);
  for (int die = 1; die <= 6; ++die) {
    const auto& cell = table.at(res.o.column, die);
    if (cell.result)
      ++res.faces[static_cast<std::size_t>(*cell.result)];
    else
      ++res.unknown_faces;
  }
  for (auto r : all_crt_results) res.outcomes[static_cast<std::size_t>(r)] = apply_result(setup, r);
  return res;
}

probability_bounds battle_result::major_success() const {
  return probability_of([](const result_outcome& o) { return o.major_success; });
}

probability_bounds battle_result::partial_withdrawal() const {
  return probability_of([](const result_outcome& o) { return o.partial_withdrawal; });
}

namespace {

template <class Points>
std::vector<loss_bound> loss_bounds(const battle_result& result, Points points) {
  std::vector<int> values;
  for (auto r : all_crt_results) {
    const bool possible = result.faces[static_cast<std::size_t>(r)] > 0 || result.unknown_faces > 0;
    if (possible) values.push_back(points(result.outcome(r)));
  }
  std::sort(values.begin(), values.end());
  values.erase(std::unique(values.begin(), values.end()), values.end());
  std::vector<loss_bound> out;
  for (int v : values)
    out.push_back({v, result.probability_of([&](const result_outcome& o) { return points(o) == v; })});
  return out;
}

}  // namespace

std::vector<loss_bound> defender_loss_bounds(const battle_result& result) {
  return loss_bounds(result, [](const result_outcome& o) { return o.defender_loss; });
}

std::vector<loss_bound> attacker_loss_bounds(const battle_result& result) {
  return loss_bounds(result, [](const result_outcome& o) { return o.attacker_loss; });
}

}  // namespace musket::revolution
