// What a battle leaves behind in a Supply Lines campaign (NT 8.6-8.7, SS 10.6-10.7; RULINGS.md
// "Supply Lines campaigns: what a battle leaves behind"). Every expected value is worked by hand
// in the comment above it.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>

#include "calc/campaign/supply_lines_campaign.hpp"
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

rational outcome(const step_result& r, step_outcome o) {
  return exact_of(r.outcomes[static_cast<std::size_t>(o)]);
}

// The tiny battle used throughout: 3 Crown units and a leader attack a City held by 1 Patriot
// unit with no leader and no War, committing 2 War (a City: 2/2 = 1 die, NT Crown rounds up).
// The defender rolls nothing, so the Crown loses nothing. The Crown die hits on 1-3 (1/2): the
// lone unit is eliminated and surrenders. On a miss (1/2) it is 4 v 1, an attacker Victory;
// morale: the difference is 3, one check passes on 3-6 (2/3), and a Patriot defender makes two
// (NT 8.7): both pass 4/9 -> stands; else retreats 5/9. So:
//   surrendered 1/2, stood 1/2 * 4/9 = 2/9, retreated 1/2 * 5/9 = 5/18, repulsed 0;
//   taken = 1/2 + 5/18 = 7/9, won = 1.
json city_attack() {
  return {{"kind", "attack"},
          {"id", "a"},
          {"terrain", "city"},
          {"war", 2},
          {"enemy", {{"units", 1}, {"leaders", 0}, {"war", 0}, {"supplies", {{"food", 3}, {"war", 3}}}}}};
}

json crown_plan(int war, int food, const json& steps, const std::string& game = "nt") {
  return {{"game", game},
          {"side", "crown"},
          {"army", {{"units", 3}, {"leaders", 1}, {"war", war}, {"food", food}}},
          {"track", {{"position", 5}}},
          {"steps", steps}};
}

TEST(SupplyLinesTaken, OneAttackTakesItsAreaOnlyWhenTheDefenderLeaves) {
  const campaign_result r = run_plan(crown_plan(4, 3, json::array({city_attack()})), "nt");
  const step_result& a = r.steps[0];
  EXPECT_EQ(exact_of(a.reached), rational(1));
  EXPECT_EQ(exact_of(a.won), rational(1));
  EXPECT_EQ(exact_of(a.taken), rational(7, 9));
  EXPECT_EQ(outcome(a, step_outcome::surrendered), rational(1, 2));
  EXPECT_EQ(outcome(a, step_outcome::stood), rational(2, 9));
  EXPECT_EQ(outcome(a, step_outcome::retreated), rational(5, 18));
  EXPECT_EQ(outcome(a, step_outcome::repulsed), rational(0));
  EXPECT_EQ(outcome(a, step_outcome::attacker_surrendered), rational(0));
  EXPECT_EQ(outcome(a, step_outcome::none), rational(0));
  // The battle calculator (tested on its own in tests/supply_lines) agrees: taken is exactly
  // defender_retreats + defender_surrenders.
  sl::battle_setup b;
  b.attacker = sl::side::crown;
  b.where = sl::terrain::city;
  b.attacker_units = 3;
  b.attacker_leaders = 1;
  b.attacker_war_supplies = 2;
  b.defender_units = 1;
  const auto battle = sl::resolve_battle<rational>(sl::northern_theater(), b);
  EXPECT_EQ(exact_of(a.taken),
            battle[sl::battle_outcome::defender_retreats] + battle[sl::battle_outcome::defender_surrenders]);
  // Stood: the default if_not_taken stops the plan; the plan is completed only when taken.
  EXPECT_EQ(exact_of(a.stopped), rational(2, 9));
  EXPECT_EQ(exact_of(r.end[0].probability), rational(7, 9));  // completed_plan
  // Supplies: Food 3 - 1 (ceil(3/4)) = 2, War 4 - 2 = 2 spent either way. Stood: it keeps them.
  // Taken: the defender abandons 3 Food and 3 War in a City, which stores at most 8 (NT 5.3):
  // room 8 - 4 = 4 takes the 3 Food first (War is discarded before Food, NT 5.5), then 1 War.
  EXPECT_DOUBLE_EQ(a.food[2], 2.0 / 9);
  EXPECT_DOUBLE_EQ(a.food[5], 7.0 / 9);
  EXPECT_DOUBLE_EQ(a.war[2], 2.0 / 9);
  EXPECT_DOUBLE_EQ(a.war[3], 7.0 / 9);
}

// Attack A as above, then attack B, a second City held by 1 unit, with all the War left. B runs
// only where A was taken: reached(B) = P(A taken) = 7/9, when the army has 5 Food and 3 War.
// B: 3 War -> 2 dice; no hit (1/4) -> stands 4/9 as before; so P(B taken | reached) = 1 - 1/9.
// At the end: A stood (2/9): Food 2, War 2; A taken (7/9): Food 5 - 1 = 4, War 0.
TEST(SupplyLinesTaken, TheNextAttackRunsOnlyWhereTheFirstTookItsArea) {
  json b = {{"kind", "attack"}, {"id", "b"}, {"terrain", "city"}, {"war", "all"}, {"enemy", {{"units", 1}}}};
  const campaign_result r = run_plan(crown_plan(4, 3, json::array({city_attack(), b})), "nt");
  const step_result& second = r.steps[1];
  EXPECT_EQ(exact_of(second.reached), exact_of(r.steps[0].taken));
  EXPECT_EQ(exact_of(second.reached), rational(7, 9));
  EXPECT_EQ(exact_of(second.taken), rational(7, 9) * rational(8, 9));
  EXPECT_EQ(outcome(second, step_outcome::stood), rational(7, 9) * rational(1, 9));
  EXPECT_EQ(second.from_area, "a");
  EXPECT_DOUBLE_EQ(second.war[2], 2.0 / 9);
  EXPECT_DOUBLE_EQ(second.war[0], 7.0 / 9);
  EXPECT_DOUBLE_EQ(second.food[2], 2.0 / 9);
  EXPECT_DOUBLE_EQ(second.food[4], 7.0 / 9);

  // With "continue", a stood A leaves the army at the start; B needs it in A, so B is skipped
  // (and says so), never fought as if the army had advanced.
  json a = city_attack();
  a["if_not_taken"] = "continue";
  const campaign_result c = run_plan(crown_plan(4, 3, json::array({a, b})), "nt");
  EXPECT_EQ(exact_of(c.steps[1].reached), rational(7, 9));
  EXPECT_EQ(exact_of(c.steps[1].skipped_away), rational(2, 9));
  EXPECT_EQ(exact_of(c.end[0].probability), rational(7, 9) * rational(8, 9));  // completed_plan
  // A step taken from where the army attacked from runs exactly when A was not taken.
  json fallback = {{"kind", "march"}, {"id", "home"}, {"from", "start"}};
  const campaign_result f = run_plan(crown_plan(4, 3, json::array({a, b, fallback})), "nt");
  EXPECT_EQ(exact_of(f.steps[2].reached), rational(2, 9));
}

// Repulsed: 1 Crown unit and a leader attack a Point held by 2 Patriot units with 1 War: the
// Patriot die eliminates the Crown unit on 1-2 (1/3) and the Crown surrenders. Otherwise the Crown
// die (1 War at a Point) hits on 1-3: 2 v 1, the check fails at a Point, the defender retreats
// (2/3 * 1/2 = 1/3); on a miss 2 v 2 is a tie, the attacker is repulsed (1/3).
// Food 1 pays the activation (ceil(1/4) = 1), War 2 - 1 = 1. Repulsed: the carried Food and War
// go to the defender: 0 and 0. Taken: 1 + 1 Units = 2 at a Point, so of the abandoned 5 Food and
// 5 War only 1 Food fits: Food 1, War 1.
TEST(SupplyLinesTaken, RepulsedArmiesLoseTheirCarriedSupplies) {
  json attack = {{"kind", "attack"},
                 {"terrain", "point"},
                 {"war", 1},
                 {"enemy", {{"units", 2}, {"war", 1}, {"supplies", {{"food", 5}, {"war", 5}}}}}};
  json plan = crown_plan(2, 1, json::array({attack}));
  plan["army"]["units"] = 1;
  const campaign_result r = run_plan(plan, "nt");
  const step_result& a = r.steps[0];
  EXPECT_EQ(outcome(a, step_outcome::attacker_surrendered), rational(1, 3));
  EXPECT_EQ(outcome(a, step_outcome::retreated), rational(1, 3));
  EXPECT_EQ(outcome(a, step_outcome::repulsed), rational(1, 3));
  EXPECT_EQ(exact_of(a.taken), rational(1, 3));
  // Food and War: 0 after the surrender (the army is gone) and after the repulse.
  EXPECT_DOUBLE_EQ(a.food[0], 2.0 / 3);
  EXPECT_DOUBLE_EQ(a.food[1], 1.0 / 3);
  EXPECT_DOUBLE_EQ(a.war[0], 2.0 / 3);
  EXPECT_DOUBLE_EQ(a.war[1], 1.0 / 3);
}

// Retry: each attempt of the City attack is independent (nobody loses units unless the Area
// falls) and costs 1 Food and 2 War. With K retries and supplies for them all, the attack fails
// only if all K + 1 attempts stand: taken = 1 - (2/9)^(K+1); attempts = k with (2/9)^(k-1) 7/9
// for k <= K, and (2/9)^K for k = K + 1.
TEST(SupplyLinesTaken, RetriesMatchTheClosedForm) {
  json a = city_attack();
  a["enemy"].erase("supplies");
  a["if_not_taken"] = {{"retry", 2}};
  const campaign_result r = run_plan(crown_plan(6, 3, json::array({a})), "nt");
  const rational q(2, 9);
  const step_result& s = r.steps[0];
  EXPECT_EQ(exact_of(s.taken), 1 - q * q * q);
  ASSERT_EQ(s.attempts.size(), 3u);
  EXPECT_EQ(exact_of(s.attempts[0]), rational(7, 9));
  EXPECT_EQ(exact_of(s.attempts[1]), q * rational(7, 9));
  EXPECT_EQ(exact_of(s.attempts[2]), q * q);
  EXPECT_EQ(outcome(s, step_outcome::stood), q * q * q);
  EXPECT_EQ(exact_of(r.end[2].probability), q * q * q);  // stopped_not_taken
  // Only 4 War: a third attempt cannot be paid, so at most two are fought.
  const campaign_result short_of_war = run_plan(crown_plan(4, 3, json::array({a})), "nt");
  EXPECT_EQ(exact_of(short_of_war.steps[0].taken), 1 - q * q);
  EXPECT_EQ(exact_of(short_of_war.steps[0].attempts[2]), rational(0));
}

// SS siege (SS 11.1): the besieged defender that fails its morale check cannot retreat and
// surrenders. SS makes one check (SS 10.7) and rounds the City dice up: the same 1 die. A miss
// (1/2) leaves 4 v 1: passes 2/3 -> stood 1/3; fails -> surrendered 1/6. Surrendered 1/2 + 1/6.
TEST(SupplyLinesTaken, SiegeTurnsARetreatIntoASurrender) {
  json a = city_attack();
  a["siege"] = true;
  const campaign_result r = run_plan(crown_plan(4, 3, json::array({a}), "ss"), "ss");
  const step_result& s = r.steps[0];
  EXPECT_EQ(outcome(s, step_outcome::surrendered), rational(2, 3));
  EXPECT_EQ(outcome(s, step_outcome::retreated), rational(0));
  EXPECT_EQ(outcome(s, step_outcome::stood), rational(1, 3));
  EXPECT_EQ(exact_of(s.taken), rational(2, 3));
  a.erase("siege");
  const campaign_result open = run_plan(crown_plan(4, 3, json::array({a}), "ss"), "ss");
  EXPECT_EQ(outcome(open.steps[0], step_outcome::retreated), rational(1, 6));
  EXPECT_EQ(exact_of(open.steps[0].taken), rational(2, 3));
}

// Defending: the army holds unless it retreats or surrenders; a retreat takes it elsewhere with
// no Supplies, and the steps after it (which need it in its Area) do not run.
// 1 Crown unit, 1 leader, defends a Point with 0 War against 3 Patriot units, 1 leader, 1 War:
// the Patriot die hits on 1-2 (1/3): the lone Crown unit is eliminated and surrenders; on a miss
// 4 v 2 is a Patriot Victory and at a Point the check fails: the Crown retreats (2/3).
TEST(SupplyLinesTaken, ADefenderThatRetreatsLeavesThePlan) {
  json plan = crown_plan(0, 2,
                         json::array({{{"kind", "defend"},
                                       {"terrain", "point"},
                                       {"war", 0},
                                       {"enemy", {{"units", 3}, {"leaders", 1}, {"war", 1}}}},
                                      {{"kind", "march"}}}));
  plan["army"]["units"] = 1;
  const campaign_result r = run_plan(plan, "nt");
  EXPECT_EQ(exact_of(r.steps[0].taken), rational(1));
  EXPECT_EQ(exact_of(r.steps[0].held), rational(0));
  EXPECT_EQ(outcome(r.steps[0], step_outcome::retreated), rational(2, 3));
  EXPECT_EQ(exact_of(r.steps[1].skipped_away), rational(2, 3));
  EXPECT_EQ(exact_of(r.steps[1].reached), rational(0));
  EXPECT_DOUBLE_EQ(r.steps[0].food[0], 1.0);  // abandoned (2/3) or surrendered with it (1/3)
}

// Exact and simulated runs of every example plan agree within 4 standard errors on every step's
// probabilities (reached, won, taken, each outcome) and every end.
TEST(SupplyLinesTaken, ExactAndSimulatedAgreeOnEveryExamplePlan) {
  for (const std::string game : {"nt", "ss"}) {
    std::ifstream in(std::string(MUSKET_EXAMPLES_DIR) + "/" + game + "-campaign.json");
    const json plan = json::parse(in);
    constexpr std::uint64_t n = 100000;
    const auto exact = run_plan(plan, game, "exact");
    const auto sim = run_plan(plan, game, "sim", 100000, n);
    auto close = [](const probability_value& p, const probability_value& q) {
      return std::fabs(p.value - q.value) <=
             4 * std::sqrt(std::max(p.value * (1 - p.value), 1e-6) / static_cast<double>(n)) + 1e-9;
    };
    ASSERT_EQ(exact.steps.size(), sim.steps.size());
    for (std::size_t i = 0; i < exact.steps.size(); ++i) {
      const auto &e = exact.steps[i], &s = sim.steps[i];
      EXPECT_TRUE(close(e.reached, s.reached)) << game << " step " << i;
      EXPECT_TRUE(close(e.won, s.won)) << game << " step " << i;
      EXPECT_TRUE(close(e.taken, s.taken)) << game << " step " << i;
      for (std::size_t k = 0; k < e.outcomes.size(); ++k)
        EXPECT_TRUE(close(e.outcomes[k], s.outcomes[k])) << game << " step " << i << " outcome " << k;
    }
    for (std::size_t k = 0; k < exact.end.size(); ++k)
      EXPECT_TRUE(close(exact.end[k].probability, sim.end[k].probability)) << game << " " << exact.end[k].name;
  }
}

TEST(SupplyLinesTaken, BadPlansNameTheStepAndPath) {
  json a = city_attack();
  a["if_not_taken"] = {{"retry", -1}};
  EXPECT_EQ(error_field(crown_plan(4, 3, json::array({a}))), "plan.json: /steps/0/if_not_taken/retry");
  a["if_not_taken"] = {{"retry", 13}};  // above max_retries
  EXPECT_EQ(error_field(crown_plan(4, 3, json::array({a}))), "plan.json: /steps/0/if_not_taken/retry");
  a["if_not_taken"] = {{"retry", json::parse("18446744073709551615")}};  // never wrapped to -1
  EXPECT_EQ(error_field(crown_plan(4, 3, json::array({a}))), "plan.json: /steps/0/if_not_taken/retry");
  a["if_not_taken"] = "advance";
  EXPECT_EQ(error_field(crown_plan(4, 3, json::array({a}))), "plan.json: /steps/0/if_not_taken");
  a["if_not_taken"] = 3;
  EXPECT_EQ(error_field(crown_plan(4, 3, json::array({a}))), "plan.json: /steps/0/if_not_taken");
  json march = {{"kind", "march"}, {"if_not_taken", "continue"}};
  EXPECT_EQ(error_field(crown_plan(4, 3, json::array({march}))), "plan.json: /steps/0/if_not_taken");
  // A step from the Area the army attacked from runs only if the attack can fail and go on:
  // with the default (stop) it can never be reached.
  json fallback = {{"kind", "march"}, {"id", "home"}, {"from", "start"}};
  EXPECT_EQ(error_field(crown_plan(4, 3, json::array({city_attack(), fallback}))), "plan.json: /steps/1");
  a["if_not_taken"] = "continue";
  EXPECT_EQ(error_field(crown_plan(4, 3, json::array({a, fallback}))), "(accepted)");
  fallback["from"] = "nowhere";
  EXPECT_EQ(error_field(crown_plan(4, 3, json::array({a, fallback}))), "plan.json: /steps/1/from");
  // Types and ranges: a number where a string belongs, a huge number where a small one does.
  json bad = crown_plan(4, 3, json::array({city_attack()}));
  bad["name"] = 7;
  EXPECT_EQ(error_field(bad), "plan.json: /name");
  bad = crown_plan(4, 3, json::array({city_attack()}));
  bad["steps"][0]["id"] = 5;
  EXPECT_EQ(error_field(bad), "plan.json: /steps/0/id");
  bad = crown_plan(4, 3, json::array({city_attack()}));
  bad["steps"][0]["war"] = json::parse("1e30");
  EXPECT_EQ(error_field(bad), "plan.json: /steps/0/war");
  bad = crown_plan(4, 3, json::array({city_attack()}));
  bad["steps"][0]["war"] = json::parse("4294967298");  // 2^32 + 2 must not wrap to 2
  EXPECT_EQ(error_field(bad), "plan.json: /steps/0/war");
  bad = crown_plan(4, 3, json::array({city_attack()}));
  bad["army"]["units"] = json::parse("18446744073709551615");
  EXPECT_EQ(error_field(bad), "plan.json: /army/units");
  bad = crown_plan(4, 3, json::array({city_attack()}));
  bad["steps"][0]["enemy"]["supplies"] = {{"food", "three"}};
  EXPECT_EQ(error_field(bad), "plan.json: /steps/0/enemy/supplies/food");
}

}  // namespace
}  // namespace musket::campaign
