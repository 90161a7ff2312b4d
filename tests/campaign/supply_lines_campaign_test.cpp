#include "calc/campaign/supply_lines_campaign.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "calc/supply_lines/battle.hpp"
#include "core/invalid_input.hpp"
#include "tests/campaign/supply_lines_plan_support.hpp"

namespace musket::campaign {
namespace {

namespace sl = musket::supply_lines;
using nlohmann::json;
using testing::error_field;
using testing::exact_of;
using testing::run_plan;

// Two Crown attacks in a row (NT, at Points), composed by hand from single battles.
//
// Army: 3 units, 1 leader, 4 War, 2 Food; track at 5 (no bounds).
// Attack 1: commits 2 War against 1 Patriot unit (no leader) rolling 1 die.
//   The defender's die hits (1-2) with 1/3: the Crown loses a unit; one loss costs no dice
//   (one die fewer per two lost), so the Crown's 2 dice are rolled either way. Any Crown hit (1-3)
//   eliminates the lone defender, who surrenders (P 3/4); with none the Crown still wins 3-4 v 1 and
//   the morale check at a Point fails outright, so the defender retreats. Attack 1 is always won,
//   and its attacker losses and its track shift come from independent rolls: the joint law is the
//   product of resolve_battle's marginals.
// Attack 2: the remaining 2 War against 2 Patriot units rolling 1 die, with 3 - a units where a is
//   attack 1's loss. Food: ceil(3/4) = ceil(2/4) = 1 per attack, 2 in all.
// So P(won 2) = sum_a P(a) * P(victory 2 | 3 - a units), and the final track is
// 5 + shift1 + shift2 with shift1 independent of a:
//   P(track = t) = sum_a P(a) sum_s P(shift1 = s) P(shift2 = t - 5 - s | 3 - a units).
TEST(SupplyLinesCampaign, TwoAttacksComposeFromSingleBattles) {
  const json plan = {{"game", "nt"},
                     {"side", "crown"},
                     {"army", {{"units", 3}, {"leaders", 1}, {"war", 4}, {"food", 2}}},
                     {"track", {{"position", 5}}},
                     {"steps",
                      {{{"kind", "attack"}, {"war", 2}, {"enemy", {{"units", 1}, {"war", 1}}}, {"stop_if", "lost"}},
                       {{"kind", "attack"}, {"war", "all"}, {"enemy", {{"units", 2}, {"war", 1}}}}}}};
  const campaign_result r = run_plan(plan, "nt");
  ASSERT_EQ(r.steps.size(), 2u);

  const auto& rules = sl::northern_theater();
  sl::battle_setup first;
  first.attacker = sl::side::crown;
  first.attacker_units = 3;
  first.attacker_war_supplies = 2;
  first.defender_units = 1;
  first.defender_war_supplies = 1;
  const auto b1 = sl::resolve_battle<rational>(rules, first);
  ASSERT_EQ(b1[sl::battle_outcome::defender_surrenders], rational(3, 4));
  ASSERT_EQ(b1[sl::battle_outcome::defender_retreats], rational(1, 4));
  ASSERT_EQ(b1.attacker_losses[1], rational(1, 3));

  rational won2 = 0;
  pmf track = pmf::empty();
  for (int a = 0; a <= 1; ++a) {
    sl::battle_setup second = first;
    second.attacker_units = 3 - a;
    second.defender_units = 2;
    const auto b2 = sl::resolve_battle<rational>(rules, second);
    won2 += b1.attacker_losses[a] *
            (1 - b2[sl::battle_outcome::defender_victory] - b2[sl::battle_outcome::attacker_surrenders]);
    add_scaled(track, transform(convolve(b1.track_shift, b2.track_shift), [](int s) { return 5 + s; }),
               b1.attacker_losses[a]);
  }
  EXPECT_EQ(exact_of(r.steps[0].won), rational(1));
  EXPECT_EQ(exact_of(r.steps[1].reached), rational(1));
  EXPECT_EQ(exact_of(r.steps[1].won), won2);
  const pmf_double& final_track = r.steps[1].track;
  for (int t = track.lowest(); t <= track.highest(); ++t) EXPECT_NEAR(final_track[t], to_double(track[t]), 1e-15);
  // Units after both: 3 - a1 - a2; its mean is 3 - E[a1] - E[a2].
  EXPECT_EQ(r.steps[1].food[0], 1.0);
  EXPECT_EQ(r.steps[1].war[0], 1.0);
}

TEST(SupplyLinesCampaign, StopRuleEndsTheChain) {
  // One Patriot die against a 1-unit Crown attacker with 1 leader at a Point: the attacker is
  // eliminated (and surrenders) with 1/3; otherwise it wins. "stop_if lost" leaves 1/3 behind.
  const json plan = {{"game", "nt"},
                     {"side", "crown"},
                     {"army", {{"units", 1}, {"leaders", 1}, {"war", 6}, {"food", 4}}},
                     {"steps",
                      {{{"kind", "attack"}, {"war", 3}, {"enemy", {{"units", 1}, {"war", 1}}}, {"stop_if", "lost"}},
                       {{"kind", "march"}}}}};
  const campaign_result r = run_plan(plan, "nt");
  EXPECT_EQ(exact_of(r.steps[0].won), rational(2, 3));
  EXPECT_EQ(exact_of(r.steps[1].reached), rational(2, 3));
}

TEST(SupplyLinesCampaign, FoodRunsOutAndStalls) {
  // Five units cost 2 Food per March (one per four, rounded up): 3 Food pays once, then stalls.
  const json plan = {{"game", "ss"},
                     {"side", "patriot"},
                     {"army", {{"units", 5}, {"leaders", 1}, {"food", 3}}},
                     {"steps", {{{"kind", "march"}}, {{"kind", "march"}}, {{"kind", "dig_in"}}}}};
  const campaign_result r = run_plan(plan, "ss");
  EXPECT_EQ(exact_of(r.steps[0].performed), rational(1));
  EXPECT_EQ(r.steps[0].food[1], 1.0);
  EXPECT_EQ(exact_of(r.steps[1].stalled), rational(1));
  EXPECT_EQ(exact_of(r.steps[2].reached), rational(0));
}

json long_plan() {
  return {{"game", "ss"},
          {"side", "crown"},
          {"army", {{"units", 8}, {"leaders", 2}, {"war", 14}, {"food", 8}, {"crown_commander", true}}},
          {"track", {{"position", 5}}},
          {"steps",
           {{{"kind", "march"}},
            {{"kind", "attack"},
             {"terrain", "city"},
             {"war", {{"field", "war"}, {"at_most", 5}}},
             {"enemy", {{"units", 3}, {"leaders", 1}, {"war", 2}}},
             {"stop_if", {"lost", {{"field", "units"}, {"below", 3}}}}},
            {{"kind", "attack"},
             {"terrain", "point"},
             {"war", {{"field", "war"}, {"at_most", 4}}},
             {"enemy", {{"units", 2}, {"leaders", 1}, {"war", 2}}}},
            {{"kind", "dig_in"}, {"skip_if", {{"field", "food"}, {"below", 2}}}},
            {{"kind", "defend"},
             {"terrain", "city"},
             {"war", "all"},
             {"enemy", {{"units", 4}, {"leaders", 1}, {"war", 4}}}}}}};
}

TEST(SupplyLinesCampaign, ExactAndSimulatedAgreeWithinFourSigma) {
  const auto exact = run_plan(long_plan(), "ss", "exact");
  constexpr std::uint64_t n = 200000;
  const auto sim = run_plan(long_plan(), "ss", "sim", 100000, n);
  ASSERT_EQ(exact.steps.size(), sim.steps.size());
  auto close = [](double p, double q) {
    return std::fabs(p - q) <= 4 * std::sqrt(std::max(p * (1 - p), 1e-6) / static_cast<double>(n)) + 1e-9;
  };
  for (std::size_t i = 0; i < exact.steps.size(); ++i) {
    EXPECT_EQ(sim.steps[i].method, "simulation");
    EXPECT_TRUE(close(exact.steps[i].won.value, sim.steps[i].won.value)) << "step " << i;
    EXPECT_TRUE(close(exact.steps[i].reached.value, sim.steps[i].reached.value)) << "step " << i;
    for (int u = 0; u <= 8; ++u) EXPECT_TRUE(close(exact.steps[i].units[u], sim.steps[i].units[u])) << i << " " << u;
  }
  for (std::size_t e = 0; e < exact.end.size(); ++e)
    EXPECT_TRUE(close(exact.end[e].probability.value, sim.end[e].probability.value)) << exact.end[e].name;
}

TEST(SupplyLinesCampaign, StateLimitSwitchesToSimulationAndSaysWhere) {
  const auto r = run_plan(long_plan(), "ss", "auto", 4);
  ASSERT_TRUE(r.switched_at.has_value());
  EXPECT_EQ(r.steps[0].method, "exact");
  EXPECT_EQ(r.steps.back().method, "simulation");
  EXPECT_TRUE(r.steps.back().won.interval.has_value());
  EXPECT_THROW(run_plan(long_plan(), "ss", "exact", 4), invalid_input);
}

TEST(SupplyLinesPlan, ErrorsNameTheStepAndJsonPath) {
  json plan = {{"side", "crown"},
               {"army", {{"units", 4}, {"leaders", 1}, {"war", 4}, {"food", 4}}},
               {"steps", {{{"kind", "march"}}, {{"kind", "parley"}}}}};
  EXPECT_EQ(error_field(plan), "plan.json: /steps/1/kind");
  plan["steps"][1] = {{"kind", "attack"}, {"war", {{"field", "cannons"}}}, {"enemy", {{"units", 2}}}};
  EXPECT_EQ(error_field(plan), "plan.json: /steps/1/war/field");
  plan["steps"][1] = {{"kind", "march"}, {"skip_if", {{"field", "morale"}, {"below", 2}}}};
  EXPECT_EQ(error_field(plan), "plan.json: /steps/1/skip_if/field");
  // A step after an unconditional stop can never be reached.
  plan["steps"] = {{{"kind", "march"}, {"stop_if", "always"}}, {{"kind", "march"}}};
  EXPECT_EQ(error_field(plan), "plan.json: /steps/1");
  // A jump back is a cycle.
  plan["steps"] = {{{"kind", "march"}, {"id", "a"}}, {{"kind", "march"}, {"next", "a"}}};
  EXPECT_EQ(error_field(plan), "plan.json: /steps/1/next");
  // A jump over a step leaves it unreachable.
  plan["steps"] = {{{"kind", "march"}, {"next", "c"}}, {{"kind", "march"}}, {{"kind", "march"}, {"id", "c"}}};
  EXPECT_EQ(error_field(plan), "plan.json: /steps/1");
  // An impossible battle is caught before anything runs, against its step.
  plan["steps"] = {{{"kind", "attack"}, {"terrain", "point"}, {"war", 2}, {"enemy", {{"units", 0}}}}};
  EXPECT_EQ(error_field(plan), "plan.json: /steps/0/enemy/units");
  plan["steps"] = {{{"kind", "skirmish"}, {"war", 2}, {"enemy", {{"units", 2}}}}};
  EXPECT_EQ(error_field(plan), "plan.json: /steps/0/kind");  // a Crown army cannot skirmish
  EXPECT_EQ(error_field(json::array()), "plan.json: /");
}

TEST(SupplyLinesPlan, ConditionalJumpKeepsBothBranchesReachable) {
  const json plan = {
      {"side", "patriot"},
      {"army", {{"units", 2}, {"leaders", 1}, {"war", 6}, {"food", 6}}},
      {"steps",
       {{{"kind", "skirmish"}, {"war", 2}, {"enemy", {{"units", 1}}}, {"jump_if", {{"when", "won"}, {"to", "rest"}}}},
        {{"kind", "skirmish"}, {"war", 2}, {"enemy", {{"units", 1}}}},
        {{"kind", "march"}, {"id", "rest"}}}}};
  const campaign_result r = run_plan(plan, "nt");
  // Skirmish: 2 dice at 1-2 against one Crown unit: P(won) = 1 - (2/3)^2 = 5/9; the second
  // skirmish is reached only when the first failed (4/9).
  EXPECT_EQ(exact_of(r.steps[0].won), rational(5, 9));
  EXPECT_EQ(exact_of(r.steps[1].reached), rational(4, 9));
  EXPECT_EQ(exact_of(r.steps[2].reached), rational(1));
}

// One construction of a step's battle for validation and run: roles follow the step's kind, and
// our Dug-In marker counts only in a City or Fort (NT 7.5), never at a Point.
TEST(SupplyLinesCampaign, BattleForSwapsRolesAndKeepsDigInToCitiesAndForts) {
  supply_lines_plan plan;
  plan.army_side = sl::side::crown;
  plan_step step;
  step.kind = step_kind::defend;
  step.where = sl::terrain::point;
  step.enemy_units = 4;
  step.enemy_leaders = 1;
  step.enemy_war = 3;
  step.enemy_dug_in = true;  // an attack's field: ignored when we defend
  const army_at_battle ours{5, 2, 1, true};

  sl::battle_setup b = battle_for(plan, step, ours);
  EXPECT_EQ(b.attacker, sl::side::patriot);
  EXPECT_EQ(b.attacker_units, 4);
  EXPECT_EQ(b.attacker_leaders, 1);
  EXPECT_EQ(b.attacker_war_supplies, 3);
  EXPECT_EQ(b.defender_units, 5);
  EXPECT_EQ(b.defender_leaders, 2);
  EXPECT_EQ(b.defender_war_supplies, 1);
  EXPECT_FALSE(b.dug_in);  // a Point
  step.where = sl::terrain::fort;
  EXPECT_TRUE(battle_for(plan, step, ours).dug_in);

  step.kind = step_kind::attack;
  b = battle_for(plan, step, ours);
  EXPECT_EQ(b.attacker, sl::side::crown);
  EXPECT_EQ(b.attacker_units, 5);
  EXPECT_EQ(b.attacker_war_supplies, 1);
  EXPECT_EQ(b.defender_units, 4);
  EXPECT_EQ(b.defender_war_supplies, 3);
  EXPECT_TRUE(b.dug_in);  // the enemy's marker
}

}  // namespace
}  // namespace musket::campaign
