#pragma once
// Best War Supply commitment (NT 8.2-8.3, SS 10.2-10.3). The attacker commits first; the
// defender sees it and replies. For each attacker commitment we find the defender's reply that
// minimises the attacker's objective, then the commitment that maximises it (a sequential
// zero-sum game). Ties go to the smaller commitment: supplies left over are worth keeping.
#include <string>
#include <vector>

#include "calc/supply_lines/battle.hpp"

namespace musket::supply_lines {

enum class commit_objective {
  dislodge,    // P(defender retreats or surrenders): the area changes hands
  victory,     // P(attacker Victory): stands, retreats or surrenders
  net_losses,  // E[defender units lost] - E[attacker units lost]
};
commit_objective parse_objective(const std::string& text, const std::string& field);
std::string to_string(commit_objective o);

template <class Probability>
Probability objective_value(const battle_result<Probability>& result, commit_objective objective);

struct commitment_row {
  int attacker_war = 0;
  int defender_best_reply = 0;
  double value = 0;
  std::vector<double> value_by_reply;  // [defender war 0..V]
};

struct commitment_table {
  std::vector<commitment_row> rows;  // legal attacker commitments (at least one die), ascending
  int best_attacker_war = 0;
  int best_defender_war = 0;
  double best_value = 0;
  rational best_value_exact{0};
};

// `setup`'s war supplies are ignored: each cell sets its own.
commitment_table best_commitment(const rule_set& rules, const battle_setup& setup, int attacker_available,
                                 int defender_available, commit_objective objective);

}  // namespace musket::supply_lines
