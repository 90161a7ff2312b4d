#include "calc/campaign/great_lakes_campaign.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "calc/great_lakes/turn/missions.hpp"
#include "calc/great_lakes/turn/war_end.hpp"
#include "core/invalid_input.hpp"

namespace musket::campaign {
namespace {

namespace gl = musket::great_lakes;
using nlohmann::json;

const gl::game_data& data() {
  static const gl::game_data d = gl::load_game_data(std::string(MUSKET_SOURCE_DIR) + "/data/gl");
  return d;
}

json armies() {
  return {{"american",
           {{"units",
             {{{"name", "Scott"}, {"type", "regular"}, {"sp", 4}, {"morale", 5}, {"dice", 4}},
              {{"name", "Porter"}, {"type", "militia"}, {"sp", 3}, {"morale", 3}, {"dice", 2}}}}}},
          {"british",
           {{"units", {{{"name", "Royal Scots"}, {"type", "regular"}, {"sp", 4}, {"morale", 5}, {"dice", 4}}}}}}};
}

bool within_four_sigma(double p, double estimate, std::uint64_t n) {
  return std::fabs(p - estimate) <= 4 * std::sqrt(std::max(p * (1 - p), 1e-6) / static_cast<double>(n)) + 1e-9;
}

// One battle at turn 10 (the war cannot end before 14): the simulated chain's P(attacker wins)
// must match the exact battle engine on the same battle within 4 sigma; the location changes
// hands exactly when the attack wins (an American regular or militia always survives a win here).

// The field an invalid plan is refused for ("gl.json: /steps/0/from"), or "(accepted)".
std::string great_lakes_plan_refusal(const json& plan) {
  try {
    parse_great_lakes_plan(plan, "gl.json", data());
  } catch (const invalid_input& e) {
    return e.field();
  }
  return "(accepted)";
}

TEST(GreatLakesCampaign, OneBattleMatchesTheExactEngine) {
  const json plan = {
      {"armies", armies()},
      {"control", {{"Ft. Erie", "british"}}},
      {"steps", {{{"kind", "battle"}, {"turn", 10}, {"location", "Ft. Erie"}, {"attacker", "american"}}}}};
  const auto p = parse_great_lakes_plan(plan, "gl.json", data());
  const double exact = gl::solve_exact(p.steps[0].template_battle).attacker_wins;
  chain_simulation_options o;
  o.simulation.trials = 40000;
  const auto r = run_great_lakes_campaign(p, data(), o);
  EXPECT_EQ(r.steps[0].fought.estimate, 1.0);
  EXPECT_TRUE(within_four_sigma(exact, r.steps[0].attacker_wins.estimate, o.simulation.trials))
      << exact << " v " << r.steps[0].attacker_wins.estimate;
  for (const auto& l : r.locations)
    if (l.location == "Ft. Erie") {
      EXPECT_EQ(l.american.estimate, r.steps[0].attacker_wins.estimate);
    }
}

// The campaign plays its battles with the one battle loop (calc/great_lakes/simulation/battle_loop.hpp), as
// `gl battle --method sim` does, to the end. A duel worked by hand: a 1-SP, 1-die regular on each
// side, morale 6. Each round the British defender fires first, then the American attacker if it
// survived (GL 11.19), each hitting on a 6: the attacker wins a round with (5/6)(1/6), loses it with
// 1/6, else they fight on, so P(attacker wins) = (5/36) / (11/36) = 5/11, and the survivor's SP
// after the battle average 5/11 (American) and 6/11 (British).
TEST(GreatLakesCampaign, ADuelWorkedByHandThroughTheOneBattleLoop) {
  const json duel_armies = {
      {"american", {{"units", {{{"name", "A"}, {"type", "regular"}, {"sp", 1}, {"morale", 6}, {"dice", 1}}}}}},
      {"british", {{"units", {{{"name", "D"}, {"type", "regular"}, {"sp", 1}, {"morale", 6}, {"dice", 1}}}}}}};
  const json plan = {
      {"armies", duel_armies},
      {"control", {{"Ft. Erie", "british"}}},
      {"steps", {{{"kind", "battle"}, {"turn", 10}, {"location", "Ft. Erie"}, {"attacker", "american"}}}}};
  const auto p = parse_great_lakes_plan(plan, "gl.json", data());
  chain_simulation_options o;
  o.simulation.trials = 40000;
  o.simulation.seed = 3;
  const auto r = run_great_lakes_campaign(p, data(), o);
  EXPECT_EQ(r.steps[0].fought.estimate, 1.0);
  EXPECT_TRUE(within_four_sigma(5.0 / 11, r.steps[0].attacker_wins.estimate, o.simulation.trials))
      << r.steps[0].attacker_wins.estimate;
  const double sigma = std::sqrt(5.0 / 11 * 6.0 / 11 / static_cast<double>(o.simulation.trials));
  EXPECT_NEAR(r.steps[0].mean_sp[0], 5.0 / 11, 4 * sigma);  // [american, british]
  EXPECT_NEAR(r.steps[0].mean_sp[1], 6.0 / 11, 4 * sigma);
  EXPECT_NEAR(r.steps[0].mean_sp[0] + r.steps[0].mean_sp[1], 1.0, 1e-12);  // exactly one unit survives
  // Seeded: the same plan and seed give the same campaign.
  const auto again = run_great_lakes_campaign(p, data(), o);
  EXPECT_EQ(again.steps[0].attacker_wins.estimate, r.steps[0].attacker_wins.estimate);
}

// GL 12.6: a battle the attacker does not win leaves it where it came from, so a second attack
// the same turn that needs it to have advanced is fought in exactly the trials where the first
// was won; the location stays with the defender. On the next turn the army can move again.
TEST(GreatLakesCampaign, AFailedAttackLeavesTheArmyWhereItCameFrom) {
  const json plan = {{"armies", armies()},
                     {"control", {{"Ft. Erie", "british"}, {"Chippawa", "british"}}},
                     {"steps",
                      {{{"kind", "battle"}, {"turn", 10}, {"location", "Ft. Erie"}, {"attacker", "american"}},
                       {{"kind", "battle"}, {"turn", 10}, {"location", "Chippawa"}, {"attacker", "american"}},
                       {{"kind", "battle"}, {"turn", 11}, {"location", "Chippawa"}, {"attacker", "american"}}}}};
  const auto p = parse_great_lakes_plan(plan, "gl.json", data());
  chain_simulation_options o;
  o.simulation.trials = 20000;
  const auto r = run_great_lakes_campaign(p, data(), o);
  EXPECT_GT(r.steps[0].attacker_wins.estimate, 0.0);
  EXPECT_LT(r.steps[0].attacker_wins.estimate, 1.0);
  EXPECT_EQ(r.steps[1].fought.estimate, r.steps[0].attacker_wins.estimate);
  // Not there: thrown back with survivors (an army with none left has nothing to attack with).
  EXPECT_GT(r.steps[1].not_there.estimate, 0.0);
  EXPECT_LE(r.steps[1].not_there.estimate, 1.0 - r.steps[0].attacker_wins.estimate);
  EXPECT_EQ(r.steps[2].not_there.estimate, 0.0);  // a new turn: it can move again (GL 10)
  for (const auto& l : r.locations)
    if (l.location == "Ft. Erie") {
      EXPECT_EQ(l.american.estimate, r.steps[0].taken.estimate);
    }
}

// GL 12.6 across turns, with the armies' positions followed: the Americans at Buffalo, the British
// at Ft. Erie. Turn 10: the Americans attack Ft. Erie from Buffalo; a beaten British army goes to
// Chippawa. Turn 11: the Americans attack Chippawa from Ft. Erie, so only where turn 10 was won
// (a failed attack left them at Buffalo, and they stay there). Turn 12: the British attack Ft. Erie
// from Chippawa: only where they stand at Chippawa, i.e. turn 11 was fought and not won by the
// Americans (a beaten British army goes somewhere the plan does not follow).
TEST(GreatLakesCampaign, PositionsPersistIntoLaterTurns) {
  const json plan = {
      {"armies", armies()},
      {"positions", {{"american", "Buffalo"}, {"british", "Ft. Erie"}}},
      {"control", {{"Ft. Erie", "british"}, {"Chippawa", "british"}}},
      {"steps",
       {{{"kind", "battle"},
         {"turn", 10},
         {"location", "Ft. Erie"},
         {"from", "Buffalo"},
         {"attacker", "american"},
         {"defender_retreats_to", "Chippawa"}},
        {{"kind", "battle"}, {"turn", 11}, {"location", "Chippawa"}, {"from", "Ft. Erie"}, {"attacker", "american"}},
        {{"kind", "battle"}, {"turn", 12}, {"location", "Ft. Erie"}, {"from", "Chippawa"}, {"attacker", "british"}}}}};
  const auto p = parse_great_lakes_plan(plan, "gl.json", data());
  chain_simulation_options o;
  o.simulation.trials = 20000;
  const auto r = run_great_lakes_campaign(p, data(), o);
  const double n = static_cast<double>(o.simulation.trials);
  auto count = [&](const proportion_interval& v) { return std::llround(v.estimate * n); };
  ASSERT_GT(count(r.steps[0].attacker_wins), 0);
  ASSERT_LT(count(r.steps[0].attacker_wins), o.simulation.trials);
  // Turn 11 is fought exactly where turn 10 was won (a winning army always has survivors).
  EXPECT_EQ(count(r.steps[1].fought), count(r.steps[0].attacker_wins));
  // Thrown back on turn 10 with survivors: still at Buffalo on turn 11 (the old rule forgot it).
  EXPECT_GT(count(r.steps[1].not_there), 0);
  EXPECT_LE(count(r.steps[1].fought) + count(r.steps[1].not_there), o.simulation.trials);
  // Turn 12: the British stand at Chippawa only where they held it on turn 11.
  EXPECT_EQ(count(r.steps[2].fought), count(r.steps[1].fought) - count(r.steps[1].attacker_wins));
}

TEST(GreatLakesCampaign, PositionsNeedFromOnEveryBattle) {
  const auto field = great_lakes_plan_refusal;
  const json battle = {{"kind", "battle"}, {"turn", 10}, {"location", "York"}, {"attacker", "american"}};
  json from = battle;
  from["from"] = "Ft. George";
  const json where = {{"american", "Ft. George"}, {"british", "York"}};
  EXPECT_EQ(field({{"armies", armies()}, {"positions", where}, {"steps", {from}}}), "(accepted)");
  EXPECT_EQ(field({{"armies", armies()}, {"steps", {from}}}), "gl.json: /steps/0/from");
  EXPECT_EQ(field({{"armies", armies()}, {"positions", where}, {"steps", {battle}}}), "gl.json: /steps/0/from");
  EXPECT_EQ(field({{"armies", armies()}, {"positions", {{"american", "Ft. George"}}}, {"steps", {from}}}),
            "gl.json: /positions/british");
}

// A battle on turn 20 is fought only when the war lasts to the end: P = P(last turn = 20) from
// the war-end table (GL 15.1): (5/6)^3 (4/6)^3 from turn 14.
TEST(GreatLakesCampaign, WarEndDecidesWhetherLateBattlesAreFought) {
  const json plan = {{"armies", armies()},
                     {"from_turn", 14},
                     {"steps", {{{"kind", "battle"}, {"turn", 20}, {"location", "York"}, {"attacker", "american"}}}}};
  const auto p = parse_great_lakes_plan(plan, "gl.json", data());
  chain_simulation_options o;
  o.simulation.trials = 40000;
  const auto r = run_great_lakes_campaign(p, data(), o);
  const double last = to_double(gl::resolve_war_end(data(), 14).last_turn[20]);
  EXPECT_NEAR(last, 125.0 / 216 * 8.0 / 27, 1e-12);
  EXPECT_TRUE(within_four_sigma(last, r.steps[0].fought.estimate, o.simulation.trials));
}

TEST(GreatLakesCampaign, BadPlansNameTheStep) {
  const auto field = great_lakes_plan_refusal;
  EXPECT_EQ(field({{"armies", armies()}, {"steps", {{{"kind", "parley"}}}}}), "gl.json: /steps/0/kind");
  // Replacement SP are bought with a turn's CAP (GL 9.1), never handed out by the plan.
  EXPECT_EQ(field({{"armies", armies()}, {"steps", {{{"kind", "replacements"}, {"turn", 10}, {"american", 2}}}}}),
            "gl.json: /steps/0/kind");
  // Types and ranges: never a JSON type error, never a wrapped number.
  const json battle = {{"kind", "battle"}, {"turn", 10}, {"location", "York"}, {"attacker", "american"}};
  EXPECT_EQ(field({{"armies", armies()}, {"name", 1}, {"steps", {battle}}}), "gl.json: /name");
  EXPECT_EQ(field({{"armies", armies()}, {"from_turn", "ten"}, {"steps", {battle}}}), "gl.json: /from_turn");
  json bad = battle;
  bad["turn"] = json::parse("4294967306");  // 2^32 + 10 must not read as 10
  EXPECT_EQ(field({{"armies", armies()}, {"steps", {bad}}}), "gl.json: /steps/0/turn");
  bad = battle;
  bad["niagara"] = 1;
  EXPECT_EQ(field({{"armies", armies()}, {"steps", {bad}}}), "gl.json: /steps/0/niagara");
  bad = battle;
  bad["id"] = 7;
  EXPECT_EQ(field({{"armies", armies()}, {"steps", {bad}}}), "gl.json: /steps/0/id");
  EXPECT_EQ(field({{"armies", armies()},
                   {"steps",
                    {{{"kind", "battle"}, {"turn", 12}, {"location", "York"}, {"attacker", "american"}},
                     {{"kind", "battle"}, {"turn", 11}, {"location", "York"}, {"attacker", "american"}}}}}),
            "gl.json: /steps/1/turn");
  EXPECT_EQ(field({{"armies", armies()}, {"steps", {{{"kind", "battle"}, {"location", "York"}}}}}),
            "gl.json: /steps/0/attacker");
  // The size cap: at most 200 steps.
  json many = json::array();
  for (int i = 0; i < max_great_lakes_steps + 1; ++i) many.push_back(battle);
  EXPECT_EQ(field({{"armies", armies()}, {"steps", many}}), "gl.json: /steps");
  many.erase(many.begin());
  EXPECT_EQ(field({{"armies", armies()}, {"steps", many}}), "(accepted)");
}

// --- turn steps: missions, CAP, replacements bought with CAP (GL 5, 7, 8, 9) -------------------

// One reduced unit a side: a regular at 1 SP of 4, so up to 3 SP can be replaced.
json reduced_armies() {
  return {
      {"american",
       {{"units", {{{"name", "Scott"}, {"type", "regular"}, {"sp", 1}, {"max_sp", 4}, {"morale", 5}, {"dice", 4}}}}}},
      {"british",
       {{"units",
         {{{"name", "Royal Scots"}, {"type", "regular"}, {"sp", 1}, {"max_sp", 4}, {"morale", 5}, {"dice", 4}}}}}}};
}

json one_turn(const json& missions, const json& extra = json::object()) {
  json step = {{"kind", "turn"}, {"turn", 3}, {"missions", missions}};
  for (auto it = extra.begin(); it != extra.end(); ++it) step[it.key()] = it.value();
  return {{"armies", reduced_armies()}, {"from_turn", 3}, {"steps", {step}}};
}

// By hand from GL 5.4-5.7 and 7.5: the British roll 7 + Drummond (1-3: +1, 4-6: +2) and a
// successful Lake Ontario supply mission adds 2 (no intercept, so it succeeds): 10 or 11, each
// 1/2, mean 10.5. The Americans roll 6 + Brown (1-2: +1, 3-6: +2): 7 with 1/3, 8 with 2/3, mean
// 23/3. The British always have more, so the Americans never move first (GL 8.2).
// Replacements (GL 9.1, 2 CAP per SP, at most 2): the British keep 7 CAP for movement, leaving
// 3 or 4: 1 or 2 SP, mean 1.5; the Americans keep 5, leaving 2 or 3: 1 SP always.
TEST(GreatLakesCampaign, OneTurnsCapAndReplacementsByHand) {
  const json plan =
      one_turn({{"british", {{"ontario", "supply"}, {"erie", "transport"}}},
                {"american", {{"ontario", "transport"}, {"erie", "transport"}}}},
               {{"replacements", {{"british", 2}, {"american", 2}}}, {"keep_cap", {{"british", 7}, {"american", 5}}}});
  const auto p = parse_great_lakes_plan(plan, "gl.json", data());
  chain_simulation_options o;
  o.simulation.trials = 40000;
  const auto r = run_great_lakes_campaign(p, data(), o);
  ASSERT_EQ(r.turns.size(), 1u);
  const auto& t = r.turns[0];
  const auto& british = t.odds.cap[1];
  const auto& american = t.odds.cap[0];
  EXPECT_NEAR(british[10], 0.5, 1e-12);
  EXPECT_NEAR(british[11], 0.5, 1e-12);
  EXPECT_NEAR(mean(british), 10.5, 1e-12);
  EXPECT_NEAR(american[7], 1.0 / 3, 1e-12);
  EXPECT_NEAR(american[8], 2.0 / 3, 1e-12);
  EXPECT_NEAR(mean(american), 23.0 / 3, 1e-12);
  EXPECT_NEAR(t.odds.americans_first, 0.0, 1e-12);
  EXPECT_EQ(t.orders[1], "ontario=supply,erie=transport");
  // Turn 3 is always played (the war-end roll starts after turn 14).
  EXPECT_EQ(r.steps[0].fought.estimate, 1.0);
  EXPECT_DOUBLE_EQ(t.mean_replacement_sp[0], 1.0);
  EXPECT_DOUBLE_EQ(r.steps[0].mean_sp[0], 2.0);
  // British SP bought: 1 or 2 with 1/2 each; standard deviation 1/2.
  const double sigma = 0.5 / std::sqrt(static_cast<double>(o.simulation.trials));
  EXPECT_NEAR(t.mean_replacement_sp[1], 1.5, 4 * sigma);
  EXPECT_NEAR(r.steps[0].mean_sp[1], 2.5, 4 * sigma);
}

// No supply missions: British 8 or 9 (1/2 each), Americans 7 (1/3) or 8 (2/3). The Americans move
// first only on 8 v 8 (ties go to them, GL 8.2): 1/2 * 2/3 = 1/3. With nothing kept, 7+ CAP buy
// the full 2 SP (GL 9.1 caps it), so each side's unit ends at 3 SP.
TEST(GreatLakesCampaign, TiesInCapGoToTheAmericans) {
  const json plan = one_turn({{"british", {{"ontario", "transport"}}}, {"american", {{"erie", "support"}}}},
                             {{"replacements", {{"british", 2}, {"american", 2}}}});
  const auto p = parse_great_lakes_plan(plan, "gl.json", data());
  chain_simulation_options o;
  o.simulation.trials = 2000;
  const auto r = run_great_lakes_campaign(p, data(), o);
  ASSERT_EQ(r.turns.size(), 1u);
  EXPECT_NEAR(r.turns[0].odds.americans_first, 1.0 / 3, 1e-12);
  EXPECT_NEAR(mean(r.turns[0].odds.cap[1]), 8.5, 1e-12);
  EXPECT_DOUBLE_EQ(r.turns[0].mean_replacement_sp[0], 2.0);
  EXPECT_DOUBLE_EQ(r.turns[0].mean_replacement_sp[1], 2.0);
  EXPECT_DOUBLE_EQ(r.steps[0].mean_sp[0], 3.0);
}

// Intercept v intercept on Lake Ontario (GL 7.1: British 4 dice, Americans 3): each keeps its
// highest die, ties reroll (GL 7.8); the loser loses 1 CAP. P(British win) by the closed form
// P(max of n d6 <= k) = (k/6)^n, conditioned on no tie.
TEST(GreatLakesCampaign, LostInterceptBattleCostsOneCap) {
  const json plan = one_turn({{"british", {{"ontario", "intercept"}}}, {"american", {{"ontario", "intercept"}}}});
  const auto p = parse_great_lakes_plan(plan, "gl.json", data());
  auto max_is = [](int n, int k) { return std::pow(k / 6.0, n) - std::pow((k - 1) / 6.0, n); };
  double british_higher = 0, american_higher = 0;
  for (int x = 1; x <= 6; ++x)
    for (int y = 1; y <= 6; ++y) {
      if (x > y) british_higher += max_is(4, x) * max_is(3, y);
      if (y > x) american_higher += max_is(4, x) * max_is(3, y);
    }
  const double w = british_higher / (british_higher + american_higher);
  const auto& odds = p.steps[0].odds;
  // British: 8 or 9 (1/2 each), one less when they lose.
  EXPECT_NEAR(odds.cap[1][7], (1 - w) * 0.5, 1e-12);
  EXPECT_NEAR(mean(odds.cap[1]), 8.5 - (1 - w), 1e-12);
  // Americans: 7 (1/3) or 8 (2/3), one less when they lose.
  EXPECT_NEAR(odds.cap[0][6], w / 3, 1e-12);
  EXPECT_NEAR(mean(odds.cap[0]), 23.0 / 3 - w, 1e-12);
}

// "optimal" on both sides plays the missions game's equilibrium: P(British move first) is the
// game's value, which `gl missions` reports.
TEST(GreatLakesCampaign, OptimalMissionsGiveTheGamesValue) {
  const json plan = one_turn({{"british", "optimal"}, {"american", "optimal"}}, {{"erie_dice", {3, 2}}});
  const auto p = parse_great_lakes_plan(plan, "gl.json", data());
  std::array<std::array<int, 2>, 2> dice{};
  dice[gl::ontario] = {4, 3};
  dice[gl::erie] = {3, 2};
  const auto game = gl::solve_missions(data(), dice, gl::mission_objective::first);
  EXPECT_NEAR(1 - p.steps[0].odds.americans_first, game.value, 1e-9);
  double total = 0;
  for (int v = p.steps[0].odds.cap[1].lowest(); v <= p.steps[0].odds.cap[1].highest(); ++v)
    total += p.steps[0].odds.cap[1][v];
  EXPECT_NEAR(total, 1.0, 1e-12);
}

TEST(GreatLakesCampaign, BadTurnStepsNameTheJsonPath) {
  auto field = [](const json& plan) {
    try {
      parse_great_lakes_plan(plan, "gl.json", data());
    } catch (const invalid_input& e) {
      return e.field() + " | " + e.what();
    }
    return std::string("(accepted)");
  };
  auto starts = [](const std::string& text, const std::string& prefix) { return text.rfind(prefix, 0) == 0; };
  // Lake Erie's squadron dice are not in the rules: an Erie intercept needs them from the plan.
  const std::string erie = field(one_turn({{"british", {{"erie", "intercept"}}}, {"american", json::object()}}));
  EXPECT_TRUE(starts(erie, "gl.json: /steps/0/erie_dice | ")) << erie;
  EXPECT_NE(erie.find("not in our rules text"), std::string::npos) << erie;
  EXPECT_TRUE(
      starts(field(one_turn({{"british", "optimal"}, {"american", "optimal"}})), "gl.json: /steps/0/erie_dice"));
  EXPECT_EQ(
      field(one_turn({{"british", {{"erie", "intercept"}}}, {"american", json::object()}}, {{"erie_dice", {3, 2}}})),
      "(accepted)");
  EXPECT_TRUE(starts(field(one_turn({{"british", {{"erie", "raid"}}}, {"american", json::object()}})),
                     "gl.json: /steps/0/missions/british/erie | unknown mission 'raid'"));
  EXPECT_TRUE(starts(field(one_turn({{"british", {{"huron", "supply"}}}, {"american", json::object()}})),
                     "gl.json: /steps/0/missions/british/huron"));
  EXPECT_TRUE(starts(field(one_turn({{"british", json::object()}})), "gl.json: /steps/0/missions/american"));
  EXPECT_TRUE(starts(field(one_turn({{"british", json::object()}, {"american", json::object()}},
                                    {{"replacements", {{"british", 3}}}})),
                     "gl.json: /steps/0/replacements/british | 3 is not allowed; 0..2"));
  EXPECT_TRUE(
      starts(field(one_turn({{"british", json::object()}, {"american", json::object()}}, {{"erie_dice", {3, 13}}})),
             "gl.json: /steps/0/erie_dice"));
  // The CAP roll comes before the turn's battles (GL 6.1).
  json late = one_turn({{"british", json::object()}, {"american", json::object()}});
  late["steps"].insert(late["steps"].begin(),
                       json{{"kind", "battle"}, {"turn", 3}, {"location", "York"}, {"attacker", "american"}});
  EXPECT_TRUE(starts(field(late), "gl.json: /steps/1/turn")) << field(late);
}

// Who wins the game (GL 14.1, 14.4), by hand. The British army stands at Kingston, away from every
// battle, so each American attack is on an undefended location and takes it (an American regular
// survives). The British hold Buffalo (2 VP) and Ft. Schlosser (1 VP): 3 VP. From turn 14 the
// Americans take Ft. Erie (2 VP) on turn 14, always fought (the first war-end roll comes after
// it), Beaver Dam (1 VP) on turn 15, fought unless the war ended after 14 (1/6, GL 15.1), and York
// (3 VP) on turn 20, fought with q = P(the game lasts to turn 20) = (5/6)^3 (4/6)^3. Ft. George
// stays British, so no automatic victory (GL 14.4). British VP - American VP:
//   the game ends after 14 (1/6):           3 - 2 = +1, British ahead;
//   after 15 to 19 (1 - 1/6 - q):            3 - 3 =  0, tied: the British win (GL 14.1);
//   after 20 (q):                            3 - 6 = -3, the Americans win.
json three_takes() {
  auto take = [](int turn, const char* location, const char* from) {
    return json{{"kind", "battle"}, {"turn", turn}, {"location", location}, {"from", from}, {"attacker", "american"}};
  };
  return {
      {"armies", armies()},
      {"from_turn", 14},
      {"positions", {{"american", "Buffalo"}, {"british", "Kingston"}}},
      {"control", {{"Buffalo", "british"}, {"Ft. Schlosser", "british"}, {"Ft. Erie", "british"}}},
      {"steps", {take(14, "Ft. Erie", "Buffalo"), take(15, "Beaver Dam", "Ft. Erie"), take(20, "York", "Beaver Dam")}}};
}

TEST(GreatLakesCampaign, ATieGoesToTheBritish) {
  const auto p = parse_great_lakes_plan(three_takes(), "gl.json", data());
  chain_simulation_options o;
  o.simulation.trials = 40000;
  const auto r = run_great_lakes_campaign(p, data(), o);
  const double q = 125.0 / 216 * 8.0 / 27, n = static_cast<double>(o.simulation.trials);
  ASSERT_NEAR(to_double(gl::resolve_war_end(data(), 14).last_turn[20]), q, 1e-12);
  EXPECT_EQ(r.steps[0].taken.estimate, 1.0);
  EXPECT_TRUE(within_four_sigma(5.0 / 6, r.steps[1].taken.estimate, o.simulation.trials));
  EXPECT_TRUE(within_four_sigma(q, r.steps[2].taken.estimate, o.simulation.trials));
  // The law of the margin: -3, 0, +1 and nothing else.
  ASSERT_EQ(r.vp_margin_lowest, -3);
  ASSERT_EQ(r.vp_margin.size(), 5u);  // -3 .. +1
  EXPECT_EQ(r.vp_margin[1], 0.0);
  EXPECT_EQ(r.vp_margin[2], 0.0);
  EXPECT_TRUE(within_four_sigma(q, r.vp_margin[0], o.simulation.trials));
  EXPECT_TRUE(within_four_sigma(1 - 1.0 / 6 - q, r.vp_margin[3], o.simulation.trials));
  EXPECT_TRUE(within_four_sigma(1.0 / 6, r.vp_margin[4], o.simulation.trials));
  double sum = 0;
  for (double v : r.vp_margin) sum += v;
  EXPECT_NEAR(sum, 1.0, 1e-12);
  // The same trials: York taken is exactly margin -3; ahead is +1, tied is 0.
  EXPECT_EQ(std::llround(r.vp_margin[0] * n), std::llround(r.steps[2].taken.estimate * n));
  EXPECT_EQ(r.vp_margin[4], r.british_ahead.estimate);
  EXPECT_EQ(r.vp_margin[3], r.tied.estimate);
  // GL 14.1: british_wins = P(ahead) + P(tied); american_wins the rest.
  EXPECT_EQ(std::llround(r.british_wins.estimate * n),
            std::llround(r.british_ahead.estimate * n) + std::llround(r.tied.estimate * n));
  EXPECT_EQ(std::llround(r.american_wins.estimate * n), std::llround(n) - std::llround(r.british_wins.estimate * n));
  EXPECT_TRUE(within_four_sigma(1 - q, r.british_wins.estimate, o.simulation.trials));
  EXPECT_TRUE(within_four_sigma(q, r.american_wins.estimate, o.simulation.trials));
  EXPECT_EQ(r.british_automatic.estimate, 0.0);
  EXPECT_EQ(r.american_automatic.estimate, 0.0);
  EXPECT_LE(r.british_wins.lower, r.british_wins.estimate);
  EXPECT_GE(r.british_wins.upper, r.british_wins.estimate);
}

// GL 14.4: the Americans take all four Canadian VP locations (York 3, Ft. George 1, Ft. Erie 2,
// Beaver Dam 1: 7 VP) on turn 10, undefended; the British hold Ft. Niagara, Batavia, Buffalo and
// Ft. Schlosser (7 VP) but not Erie. When turn 10 ends the Americans hold every VP location on the
// British side of the border: an automatic American victory, though the VP are tied (GL 14.1
// would give the tie to the British). The game ends there, so the British attack on Erie on turn
// 11, which would have given them every American location too, is never fought.
TEST(GreatLakesCampaign, HoldingAllTheEnemysVpLocationsWinsAtTheTurnsEnd) {
  auto take = [](int turn, const char* location, const char* from, const char* attacker) {
    return json{{"kind", "battle"}, {"turn", turn}, {"location", location}, {"from", from}, {"attacker", attacker}};
  };
  json plan = {{"armies", armies()},
               {"from_turn", 10},
               {"positions", {{"american", "Buffalo"}, {"british", "Kingston"}}},
               {"control",
                {{"Ft. Niagara", "british"},
                 {"Batavia", "british"},
                 {"Buffalo", "british"},
                 {"Ft. Schlosser", "british"},
                 {"York", "british"},
                 {"Ft. George", "british"},
                 {"Ft. Erie", "british"},
                 {"Beaver Dam", "british"}}},
               {"steps",
                {take(10, "Ft. Erie", "Buffalo", "american"), take(10, "Beaver Dam", "Ft. Erie", "american"),
                 take(10, "Ft. George", "Beaver Dam", "american"), take(10, "York", "Ft. George", "american"),
                 take(11, "Erie", "Kingston", "british")}}};
  chain_simulation_options o;
  o.simulation.trials = 2000;
  auto r = run_great_lakes_campaign(parse_great_lakes_plan(plan, "gl.json", data()), data(), o);
  EXPECT_EQ(r.steps[3].taken.estimate, 1.0);
  EXPECT_EQ(r.steps[4].fought.estimate, 0.0);  // the game ended with turn 10
  EXPECT_EQ(r.american_automatic.estimate, 1.0);
  EXPECT_EQ(r.american_wins.estimate, 1.0);
  EXPECT_EQ(r.british_wins.estimate, 0.0);
  EXPECT_EQ(r.tied.estimate, 1.0);
  ASSERT_EQ(r.vp_margin_lowest, 0);
  ASSERT_EQ(r.vp_margin.size(), 1u);
  EXPECT_EQ(r.vp_margin[0], 1.0);
  // Without York (the fourth step left out) no automatic victory: the British take Erie on turn 11
  // and hold all five American locations (8 VP v 4): then the British win at the end of turn 11.
  plan["steps"].erase(3);
  r = run_great_lakes_campaign(parse_great_lakes_plan(plan, "gl.json", data()), data(), o);
  EXPECT_EQ(r.steps[3].fought.estimate, 1.0);
  EXPECT_EQ(r.british_automatic.estimate, 1.0);
  EXPECT_EQ(r.british_wins.estimate, 1.0);
  ASSERT_EQ(r.vp_margin_lowest, 4);
  EXPECT_EQ(r.vp_margin[0], 1.0);
}

}  // namespace
}  // namespace musket::campaign
