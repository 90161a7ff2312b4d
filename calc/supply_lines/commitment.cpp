#include "calc/supply_lines/commitment.hpp"

#include "core/invalid_input.hpp"

namespace musket::supply_lines {

commit_objective parse_objective(const std::string& text, const std::string& field) {
  if (text == "dislodge") return commit_objective::dislodge;
  if (text == "victory") return commit_objective::victory;
  if (text == "net-losses") return commit_objective::net_losses;
  throw invalid_input(field, "'" + text + "' is not an objective; allowed: dislodge, victory, net-losses");
}

std::string to_string(commit_objective o) {
  switch (o) {
    case commit_objective::dislodge:
      return "dislodge";
    case commit_objective::victory:
      return "victory";
    case commit_objective::net_losses:
      return "net-losses";
  }
  return "?";
}

template <class P>
P objective_value(const battle_result<P>& r, commit_objective objective) {
  switch (objective) {
    case commit_objective::dislodge:
      return r[battle_outcome::defender_retreats] + r[battle_outcome::defender_surrenders];
    case commit_objective::victory:
      return r[battle_outcome::defender_stands] + r[battle_outcome::defender_retreats] +
             r[battle_outcome::defender_surrenders];
    case commit_objective::net_losses:
      return mean(r.defender_losses) - mean(r.attacker_losses);
  }
  return P(0);
}
template rational objective_value<rational>(const battle_result<rational>&, commit_objective);
template double objective_value<double>(const battle_result<double>&, commit_objective);

commitment_table best_commitment(const rule_set& rules, const battle_setup& base, int attacker_available,
                                 int defender_available, commit_objective objective) {
  require_in_range("att-war-available", attacker_available, 0, max_war_supplies, "the War Supply cube limit");
  require_in_range("def-war-available", defender_available, 0, max_war_supplies, "the War Supply cube limit");
  commitment_table table;
  battle_setup s = base;
  for (int a = 0; a <= attacker_available; ++a) {
    s.attacker_war_supplies = a;
    if (attacker_dice(rules, s) == 0) continue;  // 8.2: an Attack needs at least one die
    commitment_row row;
    row.attacker_war = a;
    for (int d = 0; d <= defender_available; ++d) {
      s.defender_war_supplies = d;
      const double v = objective_value(resolve_battle<double>(rules, s), objective);
      row.value_by_reply.push_back(v);
      // The defender replies to minimise the attacker's value; ties keep the cheaper reply.
      if (d == 0 || v < row.value - 1e-12) row.value = v, row.defender_best_reply = d;
    }
    if (table.rows.empty() || row.value > table.best_value + 1e-12) {
      table.best_value = row.value;
      table.best_attacker_war = a;
      table.best_defender_war = row.defender_best_reply;
    }
    table.rows.push_back(std::move(row));
  }
  if (table.rows.empty()) {
    // Reuse the battle's own message for why no commitment earns a die.
    s.attacker_war_supplies = attacker_available;
    s.defender_war_supplies = 0;
    try {
      validate(rules, s);
    } catch (const invalid_input& e) {
      throw invalid_input("att-war-available", e.what());
    }
  }
  s.attacker_war_supplies = table.best_attacker_war;
  s.defender_war_supplies = table.best_defender_war;
  table.best_value_exact = objective_value(resolve_battle<rational>(rules, s), objective);
  return table;
}

}  // namespace musket::supply_lines
