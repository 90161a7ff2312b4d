#include "calc/supply_lines/commitment.hpp"

#include <gtest/gtest.h>

using namespace musket::supply_lines;
using musket::rational;

TEST(Commitment, SmallGameByHand) {
  // NT Crown 1 unit + leader at a point v 1 Patriot unit; attacker has 2 War, defender 1.
  // Defender commits 0: the Crown always wins (a hit wipes the unit out; a miss is 2 v 1).
  // Defender commits 1: its die hits 1/3 and the lone attacker surrenders: Victory 2/3.
  // Either attacker commitment gives 2/3 after the best reply; ties keep the smaller (1, 1).
  battle_setup s;
  s.attacker = side::crown;
  s.where = terrain::point;
  s.attacker_units = 1;
  s.attacker_leaders = 1;
  s.defender_units = 1;
  const auto t = best_commitment(northern_theater(), s, 2, 1, commit_objective::victory);
  ASSERT_EQ(t.rows.size(), 2u);
  EXPECT_EQ(t.rows[0].defender_best_reply, 1);
  EXPECT_NEAR(t.rows[0].value, 2.0 / 3.0, 1e-12);
  EXPECT_EQ(t.best_attacker_war, 1);
  EXPECT_EQ(t.best_defender_war, 1);
  EXPECT_EQ(t.best_value_exact, rational(2, 3));
}

TEST(Commitment, IsTheSequentialMinimax) {
  // Brute force: every row's value is the minimum over replies, the best the maximum over rows.
  battle_setup s;
  s.attacker = side::patriot;
  s.where = terrain::city;
  s.attacker_units = 5;
  s.attacker_leaders = 1;
  s.defender_units = 3;
  s.defender_leaders = 1;
  for (auto objective : {commit_objective::dislodge, commit_objective::victory, commit_objective::net_losses}) {
    const auto t = best_commitment(northern_theater(), s, 8, 5, objective);
    EXPECT_EQ(t.rows.front().attacker_war, 2);  // a Patriot needs 2 War for a die at a city
    double best = -1e9;
    for (const auto& row : t.rows) {
      double worst = 1e9;
      for (int d = 0; d <= 5; ++d) {
        battle_setup cell = s;
        cell.attacker_war_supplies = row.attacker_war;
        cell.defender_war_supplies = d;
        worst = std::min(worst, objective_value(resolve_battle<double>(northern_theater(), cell), objective));
      }
      EXPECT_NEAR(row.value, worst, 1e-12);
      best = std::max(best, worst);
    }
    EXPECT_NEAR(t.best_value, best, 1e-12);
  }
}
