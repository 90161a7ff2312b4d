#include "calc/campaign/revolution_campaign.hpp"

#include <gtest/gtest.h>

#include "core/dice.hpp"
#include "core/invalid_input.hpp"
#include "core/pmf.hpp"

namespace musket::campaign {
namespace {

namespace ar = musket::revolution;
using nlohmann::json;

ar::crt_table table() {
  return ar::load_crt({std::string(MUSKET_SOURCE_DIR) + "/data/ar/crt.json", ""});
}

// The Variable Forces options and the Errata's goals by period (data/ar/options.json).
const ar::options_data& options() {
  static const ar::options_data data = ar::load_options({std::string(MUSKET_SOURCE_DIR) + "/data/ar/options.json", ""});
  return data;
}

rational major_of(const ar::crt_table& t, const std::string& attacker, const std::string& defender) {
  ar::battle_setup b;
  b.attacker = ar::parse_force(attacker, "attacker");
  b.defender = ar::parse_force(defender, "defender");
  const auto m = ar::resolve_battle(t, b).major_success();
  EXPECT_TRUE(m.exact());
  return m.min;
}

// Two independent attacks: the Major Success count is the convolution of two Bernoulli laws,
// each p_i = P(Major Success) of the single combat (resolve_battle). With the British holding
// enough Victory Points, two successes do not end the game, so nothing stops the second attack.

// The field an invalid plan is refused for ("ar.json: /steps/0/from"), or "(accepted)".
std::string revolution_plan_refusal(const json& plan) {
  try {
    parse_revolution_plan(plan, "ar.json", options());
  } catch (const invalid_input& e) {
    return e.field();
  }
  return "(accepted)";
}

TEST(RevolutionCampaign, MajorSuccessCountIsAConvolution) {
  const auto t = table();
  const json plan = {{"british_vp", 40},
                     {"attacks",
                      {{{"turn", 2}, {"attacker", "12C"}, {"defender", "6B"}},
                       {{"turn", 4}, {"attacker", "16C,4M"}, {"defender", "8B,2T"}}}}};
  const auto r = run_revolution_campaign(t, parse_revolution_plan(plan, "ar.json", options()));
  const rational p1 = major_of(t, "12C", "6B"), p2 = major_of(t, "16C,4M", "8B,2T");
  ASSERT_GT(p1, 0);
  ASSERT_GT(p2, 0);
  const pmf count = convolve(pmf(0, {1 - p1, p1}), pmf(0, {1 - p2, p2}));
  EXPECT_TRUE(r.exact);
  EXPECT_EQ(r.at_least[1].low, at_least(count, 1));
  EXPECT_EQ(r.at_least[2].low, at_least(count, 2));
  EXPECT_EQ(r.at_least[3].low, rational(0));
  EXPECT_EQ(r.american_victory.low, rational(0));  // 2 successes with 40 VP >= 25: the game goes on
  // French Arrival: triggered by turn 2 with p1, by turn 4 with 1 - (1-p1)(1-p2); the Permanent
  // Reinforcements six turns after the first success.
  EXPECT_EQ(r.french_triggered_by[0].low, p1);  // turns[0] = 2
  EXPECT_EQ(r.french_triggered_by[2].low, at_least(count, 1));
  EXPECT_EQ(r.french_permanent_by[6].low, p1);  // turn 8 = 2 + 6
}

// Turns 2, 4 and 5 are Summer 1775, Winter 1775 and Spring 1776: the Errata's goal is 41, so
// after two Major Successes the British need floor(41 / 2) = 20 to continue; they hold 19.
TEST(RevolutionCampaign, TwoSuccessesWinWhenTheBritishAreShort) {
  const auto t = table();
  const json plan = {{"british_vp", 19},
                     {"attacks",
                      {{{"turn", 2}, {"attacker", "12C"}, {"defender", "6B"}},
                       {{"turn", 4}, {"attacker", "12C"}, {"defender", "6B"}},
                       {{"turn", 5}, {"attacker", "12C"}, {"defender", "6B"}}}}};
  const auto r = run_revolution_campaign(t, parse_revolution_plan(plan, "ar.json", options()));
  const rational p = major_of(t, "12C", "6B");
  // Victory at the second success: P(at least 2 of 3) = 3p^2(1-p) + p^3.
  EXPECT_EQ(r.american_victory.low, 3 * p * p * (1 - p) + p * p * p);
  // The third attack is made only if the game is still on: not two successes already.
  EXPECT_EQ(r.attacks[2].reached.low, 1 - p * p);
}

// Case K: each of 3 Areas fails on 1-2, so one group arrives with (2/3)^3 = 8/27 and at least
// one of two groups with 1 - (19/27)^2 = 368/729.
TEST(RevolutionCampaign, BritishMovesByCaseK) {
  const json plan = {{"attacks", {{{"turn", 2}, {"attacker", "12C"}, {"defender", "6B"}}}},
                     {"british_moves", {{{"id", "howe"}, {"turn", 2}, {"areas", 3}, {"groups", 2}}}}};
  const auto r = run_revolution_campaign(table(), parse_revolution_plan(plan, "ar.json", options()));
  ASSERT_EQ(r.british_moves.size(), 1u);
  EXPECT_EQ(r.british_moves[0].arrive, rational(8, 27));
  EXPECT_EQ(r.british_moves[0].at_least_one_arrives, rational(368, 729));
}

TEST(RevolutionCampaign, BadPlansNameTheAttack) {
  const auto field = revolution_plan_refusal;
  EXPECT_EQ(field({{"attacks", {{{"attacker", "10C"}, {"defender", "6X"}}}}}), "ar.json: /attacks/0/defender");
  // Types and ranges: never a JSON type error, never a wrapped number.
  EXPECT_EQ(field({{"name", 3}, {"attacks", {{{"attacker", "10C"}, {"defender", "6B"}}}}}), "ar.json: /name");
  EXPECT_EQ(field({{"attacks", {{{"attacker", "10C"}, {"defender", "6B"}, {"fort", "yes"}}}}}),
            "ar.json: /attacks/0/fort");
  EXPECT_EQ(field({{"british_vp", json::parse("18446744073709551615")},
                   {"attacks", {{{"attacker", "10C"}, {"defender", "6B"}}}}}),
            "ar.json: /british_vp");
  EXPECT_EQ(field({{"attacks", {{{"turn", json::parse("4294967299")}, {"attacker", "10C"}, {"defender", "6B"}}}}}),
            "ar.json: /attacks/0/turn");
  EXPECT_EQ(field({{"attacks", {{{"attacker", "6B"}, {"defender", "6B"}}}}}), "ar.json: /attacks/0/attacker");
  EXPECT_EQ(field({{"attacks",
                    {{{"turn", 5}, {"attacker", "10C"}, {"defender", "6B"}},
                     {{"turn", 3}, {"attacker", "10C"}, {"defender", "6B"}}}}}),
            "ar.json: /attacks/1/turn");
  EXPECT_EQ(field({{"attacks", {{{"attacker", "5C"}, {"defender", "6B"}}}}}), "ar.json: /attacks/0/attacker");
  EXPECT_EQ(field({{"attacks", {{{"attacker", "10C"}, {"defender", "6B"}}}}, {"british_moves", {{{"areas", 7}}}}}),
            "ar.json: /british_moves/0/areas");
}

// Region control (Control and American Militia), worked by hand. 12C attack 6B at 2:1, whose
// column is De on 1-2, 1/2De on 3-4, 1/2Ex on 5-6 (row 6 by RULINGS.md): De leaves no British;
// 1/2De leaves 3B and all 12C; 1/2Ex leaves 3B and 9C (the Americans lose as many as the British).
// New Jersey is worth 8 VP, so the British need 8 + the open Continentals left.
json control_plan(int british_elsewhere, int militia_elsewhere, const std::string& region = "New Jersey") {
  json attack = {{"turn", 1},
                 {"attacker", "12C"},
                 {"defender", "6B"},
                 {"region", region},
                 {"british_elsewhere", british_elsewhere}};
  if (militia_elsewhere > 0) attack["militia_elsewhere"] = militia_elsewhere;
  return {{"british_vp", 40},
          {"regions", {{{"name", region}, {"victory_points", region == "Canada" ? 10 : 8}}}},
          {"attacks", {attack}}};
}

TEST(RevolutionCampaignControl, TheSurvivorsAndTheGarrisonDecide) {
  const auto t = table();
  auto run = [&](const json& plan) {
    return run_revolution_campaign(t, parse_revolution_plan(plan, "ar.json", options()));
  };
  // No other British in the Region: De leaves none (American, Control A); after 1/2De or 1/2Ex
  // 3B stay against 8 + 12 or 8 + 9: disputed (Control B).
  auto r = run(control_plan(0, 0));
  EXPECT_EQ(r.attacks[0].american_control.low, rational(1, 3));
  EXPECT_EQ(r.attacks[0].british_control.low, rational(0));
  // 15 more British: De 15 < 8 + 12, 1/2De 18 < 20 (disputed); 1/2Ex 18 >= 8 + 9 (British).
  r = run(control_plan(15, 0));
  EXPECT_EQ(r.attacks[0].british_control.low, rational(1, 3));
  EXPECT_EQ(r.attacks[0].american_control.low, rational(0));
  EXPECT_TRUE(r.exact);
  // 30 more British would keep it after every result, but one Militia point left in the Region
  // denies British control (procedure, condition 1): disputed whatever the die.
  r = run(control_plan(30, 0));
  EXPECT_EQ(r.attacks[0].british_control.low, rational(1));
  r = run(control_plan(30, 1));
  EXPECT_EQ(r.attacks[0].british_control.low, rational(0));
  EXPECT_EQ(r.attacks[0].american_control.low, rational(0));
  // Canada goes to the side with more points, a tie to the British (Control A, exception):
  // 10 more British: De 10 < 12 (American), 1/2De 13 >= 12 and 1/2Ex 13 >= 9 (British).
  r = run(control_plan(10, 0, "Canada"));
  EXPECT_EQ(r.attacks[0].british_control.low, rational(2, 3));
  EXPECT_EQ(r.attacks[0].american_control.low, rational(1, 3));
}

// Fortified points never count toward control (Control, general rule): 12C against 2B in a Fort
// (x3 = 6, 2:1) leaves at most 1B, fortified, so no open British point is left: American always.
TEST(RevolutionCampaignControl, FortifiedSurvivorsDoNotHoldTheRegion) {
  const json plan = {
      {"british_vp", 40},
      {"regions", {{{"name", "New York"}, {"victory_points", 10}}}},
      {"attacks", {{{"turn", 1}, {"attacker", "12C"}, {"defender", "2B"}, {"fort", true}, {"region", "New York"}}}}};
  const auto r = run_revolution_campaign(table(), parse_revolution_plan(plan, "ar.json", options()));
  EXPECT_EQ(r.attacks[0].american_control.low, rational(1));
}

// A blank CRT cell opens the interval: 18C against 6B is 3:1, De on 1-3, 1/2De on 4-5, row 6
// blank. De leaves no British (American); 1/2De and 1/2Ex leave 3B (disputed). The blank cell as
// 1/2Ex gives 3/6, as De 4/6.
TEST(RevolutionCampaignControl, TheBlankCellGivesARange) {
  const json plan = {{"british_vp", 40},
                     {"regions", {{{"name", "New Jersey"}, {"victory_points", 8}}}},
                     {"attacks", {{{"turn", 1}, {"attacker", "18C"}, {"defender", "6B"}, {"region", "New Jersey"}}}}};
  const auto r = run_revolution_campaign(table(), parse_revolution_plan(plan, "ar.json", options()));
  EXPECT_EQ(r.attacks[0].american_control.low, rational(1, 2));
  EXPECT_EQ(r.attacks[0].american_control.high, rational(2, 3));
  EXPECT_FALSE(r.exact);
}

// Control judged at the end of turn 1 sets the Victory Points every later step uses. British 30
// VP, goal 51 (floor(goal / 2) = 25), New Jersey (8 VP) British with 15 more British points there.
// Turn 1, 12C against 6B there: De (1/3, a Major Success) and 1/2De (1/3) leave it disputed, so
// the British fall to 22 VP; 1/2Ex (1/3) keeps it (30 VP). Turns 2 and 3: the same attack outside
// any followed Region, each a Major Success with p = 1/3 (De). Victory needs a second success
// with the British under 25: after De, either later attack, 1/3 (1 - (2/3)^2) = 5/27; after
// 1/2De, both, 1/3 * 1/9 = 1/27; after 1/2Ex never (30 VP, and three successes need De first).
// 6/27 = 2/9, between 1/27 at a constant 30 VP and 7/27 at a constant 22.
TEST(RevolutionCampaignControl, LostControlLowersTheVictoryPointsFromTheNextTurn) {
  const json attack = {{"attacker", "12C"}, {"defender", "6B"}};
  json first = attack;
  first["turn"] = 1;
  first["region"] = "New Jersey";
  first["british_elsewhere"] = 15;
  json second = attack, third = attack;
  second["turn"] = 2;
  third["turn"] = 3;
  // The plan's own goal, 51 on every turn (1775's Errata goal would be 41: see below).
  const json plan = {{"british_vp", 30},
                     {"british_goal", 51},
                     {"regions", {{{"name", "New Jersey"}, {"victory_points", 8}}}},
                     {"attacks", {first, second, third}}};
  const auto r = run_revolution_campaign(table(), parse_revolution_plan(plan, "ar.json", options()));
  EXPECT_EQ(r.american_victory.low, rational(2, 9));
  EXPECT_EQ(r.american_victory.high, rational(2, 9));
  // The third attack is not made once the Americans have won: De then a success, 1/9.
  EXPECT_EQ(r.attacks[2].reached.low, rational(8, 9));
}

TEST(RevolutionCampaignControl, BadRegionsNameTheStep) {
  const auto field = revolution_plan_refusal;
  const json nj = {{{"name", "New Jersey"}, {"victory_points", 8}}};
  const json a = {{"turn", 1}, {"attacker", "12C"}, {"defender", "6B"}, {"region", "New Jersey"}};
  EXPECT_EQ(field({{"british_vp", 8}, {"regions", nj}, {"attacks", {a}}}), "(accepted)");
  EXPECT_EQ(field({{"british_vp", 7}, {"regions", nj}, {"attacks", {a}}}), "ar.json: /british_vp");
  EXPECT_EQ(field({{"british_vp", 8}, {"attacks", {a}}}), "ar.json: /attacks/0/region");
  EXPECT_EQ(field({{"british_vp", 8}, {"regions", nj}, {"attacks", {a, a}}}), "ar.json: /attacks/1/region");
  EXPECT_EQ(field({{"british_vp", 8},
                   {"regions", nj},
                   {"attacks", {{{"attacker", "12C"}, {"defender", "6B"}, {"british_elsewhere", 3}}}}}),
            "ar.json: /attacks/0/region");
  EXPECT_EQ(field({{"british_vp", 8}, {"regions", {{{"name", "New Jersey"}}}}, {"attacks", {a}}}),
            "ar.json: /regions/0/victory_points");
  // The size cap: at most 200 attacks.
  json many = json::array();
  for (int i = 0; i < max_revolution_attacks + 1; ++i) many.push_back({{"attacker", "12C"}, {"defender", "6B"}});
  EXPECT_EQ(field({{"attacks", many}}), "ar.json: /attacks");
  many.erase(many.begin());
  EXPECT_EQ(field({{"attacks", many}}), "(accepted)");
}

// The British goal of a Game-Turn (Errata, Victory Conditions; RULINGS.md "American Revolution
// victory"): Game-Turn 1 is Spring 1775, four a year, Winter named for its year; 41 for
// 1775-1776 (turns 1-8), 51 for 1777-1778 (9-16), 61 for 1779-1783 (17-36), each plus the net
// Variable Forces adjustment; a goal the plan states holds on every turn instead.
TEST(RevolutionCampaignGoal, TheGoalFollowsTheGameTurnsPeriod) {
  revolution_goals goals;
  goals.period_goals = options().period_goals;
  const std::pair<int, int> expected[] = {{1, 41}, {8, 41}, {9, 51}, {16, 51}, {17, 61}, {36, 61}};
  for (const auto& [turn, goal] : expected) EXPECT_EQ(british_goal_on_turn(goals, turn), goal) << turn;
  EXPECT_EQ(ar::date_text(8), "Winter 1776");
  EXPECT_EQ(ar::date_text(9), "Spring 1777");
  EXPECT_EQ(ar::date_text(36), "Winter 1783");
  goals.adjustment = 12;  // D (+9) and H (+3)
  EXPECT_EQ(british_goal_on_turn(goals, 8), 53);
  EXPECT_EQ(british_goal_on_turn(goals, 9), 63);
  goals.stated = 51;
  EXPECT_EQ(british_goal_on_turn(goals, 1), 63);
  EXPECT_EQ(british_goal_on_turn(goals, 36), 63);
  goals.adjustment = 0;
  EXPECT_EQ(british_goal_on_turn(goals, 1), 51);
}

// 12C against 6B is 2:1: De on 1-2 eliminates all 6 Regulars, a Major Success, p = 1/3 (1/2De
// eliminates 3). Two attacks, Fall and Winter 1776, with the British holding 22 VP: the goal is
// 41, half of it 20, so a second success does not end the game in 1776. From Spring 1777 the goal
// is 51 and the British need 25: at the end of that Game-Turn two successes win. P(two) = 1/9.
TEST(RevolutionCampaignGoal, TwoSuccessesIn1776WinOnlyOnce1777Begins) {
  const auto t = table();
  json plan = {{"british_vp", 22},
               {"last_turn", 8},
               {"attacks",
                {{{"turn", 7}, {"attacker", "12C"}, {"defender", "6B"}},
                 {{"turn", 8}, {"attacker", "12C"}, {"defender", "6B"}}}}};
  ASSERT_EQ(major_of(t, "12C", "6B"), rational(1, 3));
  auto run = [&](const json& p) { return run_revolution_campaign(t, parse_revolution_plan(p, "ar.json", options())); };
  auto r = run(plan);
  EXPECT_EQ(r.american_victory.low, rational(0));
  EXPECT_EQ(r.attacks[1].british_goal, 41);
  EXPECT_EQ(r.attacks[1].reached.low, rational(1));
  plan["last_turn"] = 9;
  r = run(plan);
  EXPECT_EQ(r.american_victory.low, rational(1, 9));
  ASSERT_EQ(r.goal_by_turn.size(), 3u);  // turns 7, 8, 9
  EXPECT_EQ(r.goal_by_turn[2], 51);
  // The plan's own goal of 51 on every turn: the second success wins at once.
  plan["last_turn"] = 8;
  plan["british_goal"] = 51;
  r = run(plan);
  EXPECT_EQ(r.american_victory.low, rational(1, 9));
  EXPECT_EQ(r.attacks[1].british_goal, 51);
  // A net adjustment of -4: 41 - 4 = 37, half 18 <= 22, still no win in 1776; +10 makes 51, half
  // 25 > 22: the second success wins.
  plan.erase("british_goal");
  auto adjusted = parse_revolution_plan(plan, "ar.json", options());
  adjusted.goals.adjustment = 10;
  EXPECT_EQ(run_revolution_campaign(t, adjusted).american_victory.low, rational(1, 9));
  adjusted.goals.adjustment = -4;
  EXPECT_EQ(run_revolution_campaign(t, adjusted).american_victory.low, rational(0));
}

// The British win by controlling the goal's Victory Points at the end of a Game-Turn (Victory
// Conditions): 45 VP reach 1776's 41 at the end of turn 7, so the turn-8 attack is never made;
// in 1777 (goal 51) the same 45 VP win nothing.
TEST(RevolutionCampaignGoal, TheBritishWinWithTheTurnsGoal) {
  const auto t = table();
  auto plan_at = [](int turn) {
    return json{{"british_vp", 45},
                {"attacks",
                 {{{"turn", turn}, {"attacker", "12C"}, {"defender", "6B"}},
                  {{"turn", turn + 1}, {"attacker", "12C"}, {"defender", "6B"}}}}};
  };
  auto r = run_revolution_campaign(t, parse_revolution_plan(plan_at(7), "ar.json", options()));
  EXPECT_EQ(r.british_victory.low, rational(1));
  EXPECT_EQ(r.attacks[1].reached.low, rational(0));
  EXPECT_EQ(r.american_victory.low, rational(0));
  r = run_revolution_campaign(t, parse_revolution_plan(plan_at(9), "ar.json", options()));
  EXPECT_EQ(r.british_victory.low, rational(0));
  EXPECT_EQ(r.attacks[1].reached.low, rational(1));
}

// A Game-Turn past Winter 1783 (36) is not in the game.
TEST(RevolutionCampaignGoal, TurnsStayInsideTheGame) {
  EXPECT_EQ(revolution_plan_refusal({{"attacks", {{{"turn", 37}, {"attacker", "10C"}, {"defender", "6B"}}}}}),
            "ar.json: /attacks/0/turn");
  EXPECT_EQ(revolution_plan_refusal(
                {{"last_turn", 37}, {"attacks", {{{"turn", 30}, {"attacker", "10C"}, {"defender", "6B"}}}}}),
            "ar.json: /last_turn");
}

// Variable Forces options that say how forces change, applied to the plan's attacks. G: 15M,8C
// against 3T,8B is 23 v 11, 2:1; a third of 15 Militia is 5 and of 3 Tories 1 (losses rounded
// up), leaving 10M,8C = 18 against 2T,8B = 10: 1:1, as `ar options --battle` shows.
TEST(RevolutionCampaignOptions, OptionGShrinksMilitiaAndToriesInEveryAttack) {
  const auto t = table();
  const json plan = {{"british_vp", 30},
                     {"attacks", {{{"id", "a"}, {"turn", 9}, {"attacker", "15M,8C"}, {"defender", "3T,8B"}}}}};
  auto p = parse_revolution_plan(plan, "ar.json", options());
  const auto effects = apply_variable_forces(p, {'G'});
  ASSERT_EQ(effects.size(), 1u);
  EXPECT_TRUE(effects[0].applied);
  ASSERT_EQ(effects[0].attacks_changed.size(), 1u);
  EXPECT_EQ(effects[0].attacks_changed[0], "a: 8C,15M v 8B,3T -> 8C,10M v 8B,2T");
  EXPECT_EQ(ar::compute_odds(p.attacks[0].battle).column, 1);
  const json by_hand = {{"british_vp", 30},
                        {"attacks", {{{"turn", 9}, {"attacker", "10M,8C"}, {"defender", "2T,8B"}}}}};
  EXPECT_EQ(run_revolution_campaign(t, p).at_least[1].low,
            run_revolution_campaign(t, parse_revolution_plan(by_hand, "ar.json", options())).at_least[1].low);
  // Options whose changes the plan's forces cannot show are reported, never applied.
  auto q = parse_revolution_plan(plan, "ar.json", options());
  const auto others = apply_variable_forces(q, {'A', 'D', 'F', 'H'});
  for (const auto& e : others) {
    EXPECT_FALSE(e.applied) << e.option;
    EXPECT_NE(e.what.find("not applied"), std::string::npos) << e.option;
  }
  EXPECT_EQ(q.attacks[0].battle.attacker.points, ar::parse_force("15M,8C", "a").points);
}

// E: French Permanent 12 -> 18 and Seasonal 6 -> 10, a part scaled alike and rounded down: 6F ->
// 9F, 4SF -> 6SF. K: the Permanent French eliminated; an attack left with fewer points than the
// defender is no combat (Combat, case A errata), refused naming --use; and the Permanent
// Reinforcements never arrive.
TEST(RevolutionCampaignOptions, OptionsEAndKChangeTheFrench) {
  const auto t = table();
  const json plan = {{"attacks", {{{"id", "a"}, {"turn", 9}, {"attacker", "12C,6F,4SF"}, {"defender", "6B"}}}}};
  auto e = parse_revolution_plan(plan, "ar.json", options());
  apply_variable_forces(e, {'E'});
  EXPECT_EQ(e.attacks[0].battle.attacker.points, ar::parse_force("12C,9F,6SF", "a").points);
  auto k = parse_revolution_plan(plan, "ar.json", options());
  apply_variable_forces(k, {'K'});
  EXPECT_EQ(k.attacks[0].battle.attacker.points, ar::parse_force("12C,4SF", "a").points);
  const auto r = run_revolution_campaign(t, k);
  EXPECT_GT(r.french_triggered_by.back().low, 0);
  EXPECT_EQ(r.french_permanent_by.back().high, rational(0));
  auto short_of = parse_revolution_plan(
      {{"attacks", {{{"id", "b"}, {"turn", 9}, {"attacker", "6F,4C"}, {"defender", "8B"}}}}}, "ar.json", options());
  try {
    apply_variable_forces(short_of, {'K'});
    ADD_FAILURE() << "4C against 8B was accepted";
  } catch (const invalid_input& err) {
    EXPECT_EQ(err.field(), "use");
    EXPECT_NE(std::string(err.what()).find("/attacks/0"), std::string::npos) << err.what();
  }
}

}  // namespace
}  // namespace musket::campaign
