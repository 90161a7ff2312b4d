#include "calc/campaign/battle_joint.hpp"

#include <gtest/gtest.h>

namespace musket::campaign {
namespace {

namespace sl = musket::supply_lines;

// The joint law must agree with resolve_battle's marginals exactly, setup by setup.
TEST(BattleJoint, MarginalsEqualResolveBattle) {
  int checked = 0;
  for (const auto* rules : {&sl::northern_theater(), &sl::southern_strategy()})
    for (auto attacker : {sl::side::crown, sl::side::patriot})
      for (auto where : {sl::terrain::point, sl::terrain::city, sl::terrain::fort})
        for (int units : {1, 3})
          for (int war : {2, 5})
            for (int def_war : {0, 3})
              for (bool dug_in : {false, true})
                for (bool retreat : {true, false}) {
                  if (dug_in && where == sl::terrain::point) continue;
                  sl::battle_setup s;
                  s.attacker = attacker;
                  s.where = where;
                  s.attacker_units = units + 1;
                  s.attacker_leaders = 1;
                  s.attacker_war_supplies = war;
                  s.defender_units = units;
                  s.defender_leaders = 1;
                  s.defender_war_supplies = def_war;
                  s.dug_in = dug_in;
                  s.retreat_available = retreat;
                  const auto exact = sl::resolve_battle<rational>(*rules, s);
                  const auto joint = joint_battle<rational>(*rules, s);
                  std::array<rational, 5> outcomes{};
                  pmf att = pmf::empty(), def = pmf::empty();
                  rational total = 0;
                  for (const auto& c : joint) {
                    outcomes[static_cast<std::size_t>(c.outcome)] += c.probability;
                    att.add_mass(c.attacker_lost, c.probability);
                    def.add_mass(c.defender_lost, c.probability);
                    total += c.probability;
                  }
                  ASSERT_EQ(total, rational(1));
                  for (auto o : sl::all_battle_outcomes) ASSERT_EQ(outcomes[static_cast<std::size_t>(o)], exact[o]);
                  for (int a = 0; a <= s.attacker_units; ++a) ASSERT_EQ(att[a], exact.attacker_losses[a]);
                  for (int d = 0; d <= s.defender_units; ++d) ASSERT_EQ(def[d], exact.defender_losses[d]);
                  ++checked;
                }
  EXPECT_GT(checked, 300);
}

TEST(BattleJoint, DoubleMatchesRational) {
  sl::battle_setup s;
  s.attacker = sl::side::crown;
  s.where = sl::terrain::city;
  s.attacker_units = 6;
  s.attacker_war_supplies = 5;
  s.defender_units = 4;
  s.defender_leaders = 1;
  s.defender_war_supplies = 3;
  const auto r = joint_battle<rational>(sl::northern_theater(), s);
  const auto d = joint_battle<double>(sl::northern_theater(), s);
  ASSERT_EQ(r.size(), d.size());
  for (std::size_t i = 0; i < r.size(); ++i) EXPECT_NEAR(to_double(r[i].probability), d[i].probability, 1e-12);
}

}  // namespace
}  // namespace musket::campaign
