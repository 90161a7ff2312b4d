// End-to-end: `musket <game> sweep` over lists, switches and fields inside structured options
// (--vary terrain=..., fort.sp=..., def.0.sp=..., att-continentals=..., use=...), the work budget,
// interval columns and `sweep <command> --help`.
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "run_musket.hpp"

namespace {

using nlohmann::json;

json sx_json(const std::string& arguments) {
  const auto run = run_musket(arguments + " --format json");
  EXPECT_EQ(run.exit_code, 0) << arguments << "\n" << run.err;
  return run.exit_code == 0 ? json::parse(run.out) : json();
}

// The value of a flattened key ("outcomes.defender_retreats") in a single command's JSON.
json sx_at(const json& doc, const std::string& key) {
  const json* node = &doc;
  std::istringstream parts(key);
  std::string part;
  while (std::getline(parts, part, '.')) {
    if (!node->contains(part)) return json();
    node = &node->at(part);
  }
  return *node;
}

void sx_expect_one_line_refusal(const musket_run& run, const std::string& needle) {
  EXPECT_EQ(run.exit_code, 2) << run.err;
  EXPECT_TRUE(run.out.empty()) << run.out;
  EXPECT_EQ(std::count(run.err.begin(), run.err.end(), '\n'), 1) << run.err;
  EXPECT_NE(run.err.find(needle), std::string::npos) << run.err;
}

const std::string sx_nt = "--attacker crown --att-units 4 --att-war 3 --def-units 3 --def-leaders 1";
const std::string sx_gl_att = " --att \"11th:regular:3/4:5:3\"";

}  // namespace

TEST(SweepAxes, AListOverTerrainEqualsTheSeparateRuns) {
  const json doc =
      sx_json("nt sweep battle " + sx_nt + " --vary terrain=point,City,fort --metric outcomes.defender_retreats");
  const auto& points = doc.at("points");
  ASSERT_EQ(points.size(), 3u);
  const std::vector<std::string> terrains{"point", "city", "fort"};  // City matches as on the command line
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(points[i].at("terrain"), terrains[i]);  // a list value is a string
    EXPECT_FALSE(points[i].contains("low"));          // exact: no interval columns
    const json one = sx_json("nt battle " + sx_nt + " --terrain " + terrains[i]);
    EXPECT_EQ(points[i].at("value"), sx_at(one, "outcomes.defender_retreats")) << terrains[i];
  }
  // City and fort halve the attacker's dice (NT 8.3): the defender retreats less often than in the open.
  EXPECT_LT(points[1].at("value").get<double>(), points[0].at("value").get<double>());
}

TEST(SweepAxes, FortSpEqualsTwoSeparateFortRuns) {
  const std::string fixed = "gl sweep battle" + sx_gl_att + " --def \"104th:regular:2/4:5:4\" --method exact";
  const json doc = sx_json(fixed + " --fort 2:3:4 --vary fort.sp=1..2 --metric outcomes.attacker_wins");
  const auto& points = doc.at("points");
  ASSERT_EQ(points.size(), 2u);
  for (int sp = 1; sp <= 2; ++sp) {
    const auto& p = points[static_cast<std::size_t>(sp - 1)];
    EXPECT_EQ(p.at("fort.sp"), sp);  // a range value is a number
    const json one = sx_json("gl battle" + sx_gl_att +
                             " --def \"104th:regular:2/4:5:4\" --method exact --fort 2:" + std::to_string(sp) + ":4");
    EXPECT_EQ(p.at("value"), sx_at(one, "outcomes.attacker_wins")) << sp;
  }
  // The fixed --fort is echoed as given; the sweep edits only its SP.
  EXPECT_EQ(doc.at("inputs").at("fixed").at("fort"), "2:3:4");
}

TEST(SweepAxes, TheFirstDefendersSpEqualsRunsWithTheUnitWrittenOut) {
  const json doc = sx_json("gl sweep battle" + sx_gl_att +
                           " --def \"104th:regular:4/4:5:4\" --method exact --vary def.0.sp=1..2 --metric "
                           "outcomes.attacker_wins");
  for (int sp = 1; sp <= 2; ++sp) {
    // The MAX written stays: 1/4 and 2/4, not 1/1 and 2/2.
    const json one =
        sx_json("gl battle" + sx_gl_att + " --def \"104th:regular:" + std::to_string(sp) + "/4:5:4\" --method exact");
    EXPECT_EQ(doc.at("points")[static_cast<std::size_t>(sp - 1)].at("value"), sx_at(one, "outcomes.attacker_wins"));
  }
}

TEST(SweepAxes, ContinentalsInAnAmericanRevolutionForceEqualRunsWithTheForceWrittenOut) {
  const json doc =
      sx_json("ar sweep battle --attacker 15M,8C --defender 3T,8B --vary att-continentals=6..7 --metric results.De");
  const auto& points = doc.at("points");
  ASSERT_EQ(points.size(), 2u);
  for (const int c : {6, 7}) {
    const json one = sx_json("ar battle --attacker 15M," + std::to_string(c) + "C --defender 3T,8B");
    EXPECT_EQ(points[static_cast<std::size_t>(c - 6)].at("value"), sx_at(one, "results.De"));
  }
  // 15 + 6 = 21 against 11 is 1:1 (21/11 rounds down); 15 + 7 = 22 is 2:1.
  const json columns =
      sx_json("ar sweep battle --attacker 15M,8C --defender 3T,8B --vary att-continentals=6..7 --metric column");
  EXPECT_EQ(columns.at("points")[0].at("value"), "1:1");
  EXPECT_EQ(columns.at("points")[1].at("value"), "2:1");
  // 0 drops the type: 15M alone against 11 is 1:1.
  const json none =
      sx_json("ar sweep battle --attacker 15M,8C --defender 3T,8B --vary att-continentals=0..0 --metric column");
  EXPECT_EQ(none.at("points")[0].at("value"), "1:1");
}

TEST(SweepAxes, OptionSetsWithNoneAndACommaInsideAValue) {
  const std::string csv = ::testing::TempDir() + "sweep_use.csv";
  const json doc = sx_json("ar sweep campaign --file " + std::string(MUSKET_EXAMPLES_DIR) +
                           "/ar-campaign.json --vary use=none,D,H,D+H --metric options.net_adjustment --csv " + csv);
  const auto& points = doc.at("points");
  ASSERT_EQ(points.size(), 4u);
  EXPECT_EQ(points[0].at("use"), "none");
  EXPECT_EQ(points[3].at("use"), "D,H");
  // --use takes "none" itself (the historical game), so the baseline has its value: no adjustment.
  // D +9, H +3, D and H +12 (data/ar/options.json, the options' headings).
  EXPECT_EQ(points[0].at("value"), 0);
  EXPECT_EQ(points[1].at("value"), 9);
  EXPECT_EQ(points[2].at("value"), 3);
  EXPECT_EQ(points[3].at("value"), 12);
  // RFC 4180: the value holding a comma is quoted.
  EXPECT_NE(slurp(csv).find("ar,campaign,\"D,H\",options.net_adjustment,12\n"), std::string::npos) << slurp(csv);
}

// `ar sweep options`: the baseline (none, the historical game) has net 0; A with B is incompatible
// on the Option Compatibility Chart (row A), so that point is illegal, with its reason, and has no
// value; D with E is a pair the transcribed chart does not settle: its value (9 - 6 = 3) is kept
// but the point is counted of unknown legality, never legal.
TEST(SweepAxes, OptionSetsTheBaselineIllegalAndUnknownPoints) {
  const json doc = sx_json("ar sweep options --vary use=none,D,H,D+H,A+B,D+E --metric net_adjustment");
  const auto& points = doc.at("points");
  ASSERT_EQ(points.size(), 6u);
  EXPECT_EQ(points[0].at("value"), 0);
  EXPECT_EQ(points[1].at("value"), 9);
  EXPECT_EQ(points[2].at("value"), 3);
  EXPECT_EQ(points[3].at("value"), 12);
  EXPECT_TRUE(points[4].at("value").is_null()) << points[4];
  EXPECT_EQ(points[5].at("value"), 3);
  EXPECT_EQ(doc.at("method").at("legal_points"), 4);
  EXPECT_EQ(doc.at("method").at("unknown_legality_points"), 1);
  const std::string notes = doc.at("notes").dump();
  EXPECT_NE(notes.find("no value at use=A,B: the option set is illegal: A-B are incompatible"), std::string::npos)
      << notes;
  EXPECT_NE(notes.find("legality unknown at use=D,E: D-E compatibility is unknown"), std::string::npos) << notes;
  // The table's verdict counts them apart.
  const auto table = run_musket("ar sweep options --vary use=none,D,H,D+H,A+B,D+E --metric net_adjustment");
  ASSERT_EQ(table.exit_code, 0) << table.err;
  EXPECT_NE(table.out.find("6 points (4 legal, 1 of unknown legality)"), std::string::npos) << table.out;
  // `ar options --use none` is the historical game itself: legal, net 0, goal 51.
  const json none = sx_json("ar options --use none");
  EXPECT_EQ(none.at("net_adjustment"), 0);
  EXPECT_EQ(none.at("legality"), "legal");
}

// --british-goal is the goal of every Game-Turn, in place of the Errata's by period: the sweep's
// points equal separate runs, and each attack row carries the goal used.
TEST(SweepAxes, TheBritishGoalOverridesThePeriodGoals) {
  const std::string plan = "--file " + std::string(MUSKET_EXAMPLES_DIR) + "/ar-campaign.json";
  const json doc =
      sx_json("ar sweep campaign " + plan +
              " --vary british-goal=41,51 --metric summary.american_victory_min --metric attacks.0.british_goal");
  const auto& points = doc.at("points");
  ASSERT_EQ(points.size(), 4u);
  for (const int goal : {41, 51}) {
    const json one = sx_json("ar campaign " + plan + " --british-goal " + std::to_string(goal));
    const std::size_t row = goal == 41 ? 0 : 2;
    EXPECT_EQ(points[row].at("value"), sx_at(one, "summary.american_victory_min"));
    EXPECT_EQ(points[row + 1].at("value"), goal);
  }
}

TEST(SweepAxes, ASimulatedSweepCarriesLowAndHighOnEveryRow) {
  const std::string csv = ::testing::TempDir() + "sweep_sim.csv";
  const json doc = sx_json("nt sweep battle " + sx_nt +
                           " --terrain city --method sim --trials 2000 --vary def-war=0..1 --metric "
                           "outcomes.defender_retreats --csv " +
                           csv);
  // The work, counted before the first point: 2 points x 2000 trials.
  EXPECT_EQ(doc.at("method").at("trials_at_most"), 4000);
  EXPECT_EQ(doc.at("method").at("simulated_points"), 2);
  for (const auto& p : doc.at("points")) {
    ASSERT_TRUE(p.at("low").is_number());
    EXPECT_LE(p.at("low").get<double>(), p.at("value").get<double>());
    EXPECT_GE(p.at("high").get<double>(), p.at("value").get<double>());
    // A 95% Wilson interval on 2000 trials is at most 2 * 1.96 * sqrt(1/(4*2000)) ~ 0.044 wide.
    EXPECT_LT(p.at("high").get<double>() - p.at("low").get<double>(), 0.044);
  }
  const std::string text = slurp(csv);
  EXPECT_EQ(text.substr(0, text.find('\n')), "game,command,def-war,metric,value,low,high");
}

TEST(SweepAxes, PastTheWorkBudgetTheSweepAsksForYes) {
  // 15 points x 100,000,000 trials at 0.1 us a trial of `nt battle` (cli/work_budget.cpp) is
  // 150 s, past the 120 s budget. The points are illegal (War Supplies 41..55 > 40), so with --yes
  // the sweep states its work, passes the budget and stops at them.
  const std::string sweep = "nt sweep battle " + std::string("--attacker crown --att-units 4 --def-units 3 ") +
                            "--terrain city --method sim --trials 100000000 --vary att-war=41..55";
  sx_expect_one_line_refusal(run_musket(sweep),
                             "--yes: sweep of nt battle would run 15 points, 15 of them simulated with up to "
                             "100000000 trials each: up to 1500000000 trials, about 150 s: past the work budget of "
                             "120 s; give --yes to run it");
  const auto yes = run_musket(sweep + " --yes");
  EXPECT_EQ(yes.exit_code, 2);
  EXPECT_NE(yes.err.find("no point of the sweep is legal"), std::string::npos) << yes.err;
  EXPECT_NE(yes.err.find("musket: sweep of nt battle: 15 points, 15 of them simulated"), std::string::npos) << yes.err;
}

TEST(SweepAxes, BadVaryGrammarIsOneLineNamingWhatIsAllowed) {
  const std::string gl = "gl sweep battle" + sx_gl_att + " --def \"104th:regular:2/4:5:4\"";
  sx_expect_one_line_refusal(run_musket("nt sweep battle " + sx_nt + " --vary terrain=point,,fort"),
                             "has an empty value");
  sx_expect_one_line_refusal(run_musket("nt sweep battle " + sx_nt + " --vary terrain=point,hill"),
                             "'hill' is not a value of --terrain; allowed: point, city, fort");
  sx_expect_one_line_refusal(run_musket("nt sweep battle " + sx_nt + " --terrain city --vary dug-in=1..2"),
                             "is a switch; vary it as dug-in=yes,no");
  sx_expect_one_line_refusal(run_musket("nt sweep battle " + sx_nt + " --vary terrain"), "is not NAME=A..B");
  sx_expect_one_line_refusal(run_musket(gl + " --fort 2:2:4 --vary fort.sp=1,2"), "give a range fort.sp=A..B");
  sx_expect_one_line_refusal(run_musket(gl + " --vary fort.sp=1..2"), "edits --fort, which is not given");
  sx_expect_one_line_refusal(run_musket(gl + " --vary def.3.sp=1..2"),
                             "--def is given 1 time(s), so its index is 0..0");
  sx_expect_one_line_refusal(run_musket(gl + " --vary fort.hp=1..2"),
                             "nor one of its fields (fort.dice, fort.sp, fort.morale, att.N.sp");
}

TEST(SweepAxes, ASwitchVariesAsYesAndNo) {
  const json doc =
      sx_json("nt sweep battle " + sx_nt + " --terrain city --vary dug-in=no,yes --metric outcomes.defender_retreats");
  const json plain = sx_json("nt battle " + sx_nt + " --terrain city");
  const json dug = sx_json("nt battle " + sx_nt + " --terrain city --dug-in");
  EXPECT_EQ(doc.at("points")[0].at("value"), sx_at(plain, "outcomes.defender_retreats"));
  EXPECT_EQ(doc.at("points")[1].at("value"), sx_at(dug, "outcomes.defender_retreats"));
}

TEST(SweepAxes, HelpListsTheSweepsOptionsAndTheSweptCommandsOnly) {
  const auto help = run_musket("nt sweep battle --help");
  ASSERT_EQ(help.exit_code, 0);
  for (const char* present : {"--vary", "--metric", "--yes", "--att-war", "--terrain", "--trials"})
    EXPECT_NE(help.out.find(present), std::string::npos) << present;
  // Options of the other nt commands (campaign) are not listed.
  for (const char* absent : {"--file", "--army-units", "--state-limit"})
    EXPECT_EQ(help.out.find(absent), std::string::npos) << absent;
  const auto gl = run_musket("gl sweep battle --help");
  EXPECT_NE(gl.out.find("fort.sp"), std::string::npos);
  EXPECT_NE(gl.out.find("def.N.sp"), std::string::npos);
  const auto none = run_musket("ar sweep --help");
  EXPECT_NE(none.out.find("commands to sweep: battle, move"), std::string::npos) << none.out;
  EXPECT_EQ(none.out.find("attacking Strength Points"), std::string::npos);  // ar battle's --attacker
}
