// End to end: `musket gl ...` as a user's script runs it.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "run_musket.hpp"

using nlohmann::json;

namespace {

json run_json(const std::string& arguments) {
  const auto r = run_musket(arguments + " --format json");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return json::parse(r.out);
}

std::string write_temp(const std::string& name, const std::string& text) {
  const std::string path = ::testing::TempDir() + name;
  std::ofstream(path) << text;
  return path;
}

}  // namespace

TEST(GreatLakesCli, BattleJsonContract) {
  // One 1-SP 1-die block each: P(attacker wins) = (5/36) / (11/36) = 5/11 (defender fires first).
  const json j = run_json("gl battle --att A:regular:1/1:6:1 --def D:regular:1/1:6:1 --method exact");
  EXPECT_EQ(j["game"], "gl");
  EXPECT_EQ(j["command"], "battle");
  EXPECT_EQ(j["method"]["name"], "exact");
  EXPECT_TRUE(j["method"].contains("states"));
  EXPECT_TRUE(j["method"].contains("seconds"));
  EXPECT_EQ(j["method"]["pruned_mass"], 0.0);
  EXPECT_NEAR(j["outcomes"]["attacker_wins"].get<double>(), 5.0 / 11, 1e-12);
  for (const char* k : {"attacker_wins", "defender_holds", "stalemate"}) EXPECT_TRUE(j["outcomes"].contains(k));
  for (const char* k : {"defender_eliminated", "defender_forced_retreat", "defender_voluntary_retreat",
                        "attacker_eliminated", "attacker_forced_retreat", "attacker_voluntary_retreat", "stalemate"})
    EXPECT_TRUE(j["ends"].contains(k)) << k;
  EXPECT_EQ(j["attacker_sp_lost"].size(), 2u);
  EXPECT_EQ(j["defender_sp_lost"].size(), 2u);
  EXPECT_NEAR(j["rounds"]["mean"].get<double>(), 36.0 / 11, 1e-9);
  EXPECT_NEAR(j["rounds"]["distribution"][0].get<double>(), 11.0 / 36, 1e-12);
  ASSERT_EQ(j["units"].size(), 2u);
  for (const char* k : {"name", "side", "survives", "expected_sp", "fails_morale"})
    EXPECT_TRUE(j["units"][0].contains(k));
  EXPECT_TRUE(j.contains("garrison_eliminated"));
  EXPECT_TRUE(j["notes"].is_array());
}

// The exact solve on one thread or on two (--threads): the same numbers to the last digit.
TEST(GreatLakesCli, ExactSolveGivesTheSameNumbersOnOneThreadOrTwo) {
  const std::string battle =
      "gl battle --att A:regular:3/3:4:2 --att B:militia:2/2:3:2 --def D:regular:3/3:4:3 --fort 1:2:4 --method exact";
  json one = run_json(battle + " --threads 1"), two = run_json(battle + " --threads 2");
  EXPECT_EQ(one["method"]["threads"], 1);
  EXPECT_EQ(two["method"]["threads"], 2);
  for (json* j : {&one, &two}) {
    j->at("method").erase("threads");
    (*j)["method"].erase("seconds");
    (*j)["method"].erase("memory_mb");  // a run's peak, like its seconds: how far one stage ran ahead
    j->erase("inputs");                 // echoes the options, --threads included
  }
  EXPECT_EQ(one, two);
  EXPECT_GT(one["method"]["states"].get<int>(), 1);
}

TEST(GreatLakesCli, SimulationCarriesIntervals) {
  const json j = run_json("gl battle --att A:regular:1/1:6:1 --def D:regular:1/1:6:1 --method sim --trials 20000");
  EXPECT_EQ(j["method"]["name"], "simulation");
  EXPECT_EQ(j["method"]["trials"], 20000);
  const auto ci = j["intervals"]["outcomes.attacker_wins"];
  EXPECT_LE(ci["low"].get<double>(), j["outcomes"]["attacker_wins"].get<double>());
  EXPECT_GE(ci["high"].get<double>(), j["outcomes"]["attacker_wins"].get<double>());
  EXPECT_EQ(ci["level"], 0.95);
  for (const char* end : {"defender_eliminated", "defender_forced_retreat", "defender_voluntary_retreat",
                          "attacker_eliminated", "attacker_forced_retreat", "attacker_voluntary_retreat", "stalemate"})
    EXPECT_TRUE(j["intervals"].contains(std::string("ends.") + end)) << end;
  for (const char* unit : {"units.0.survives", "units.1.survives", "units.0.fails_morale", "units.1.fails_morale"})
    EXPECT_TRUE(j["intervals"].contains(unit)) << unit;
  EXPECT_EQ(j["intervals"]["attacker_sp_lost"]["low"].size(), j["attacker_sp_lost"].size());
}

TEST(GreatLakesCli, ScenarioFileAndGarrison) {
  // The garrison-alone case (see battle_test): defender always eliminated, garrison fails 1/2.
  const std::string path = write_temp("gl_garrison.json", R"({
    "attacker": {"side": "british", "units": [{"name": "A", "type": "regular", "sp": 1, "morale": 6, "dice": 1}]},
    "defender": {"side": "american", "units": [], "fort": {"dice": 0, "sp": 2, "morale": 3}}})");
  const json j = run_json("gl battle --scenario " + path);
  EXPECT_NEAR(j["ends"]["defender_eliminated"].get<double>(), 1.0, 1e-12);
  EXPECT_NEAR(j["garrison_eliminated"].get<double>(), 1.0, 1e-12);
  EXPECT_NEAR(j["units"][1]["fails_morale"].get<double>(), 0.5, 1e-12);
}

TEST(GreatLakesCli, BadInputIsOneLineAndExitTwo) {
  const std::string path = write_temp("gl_bad.json", R"({
    "attacker": {"side": "british", "units": [{"name": "A", "type": "regular", "sp": 1, "morale": 9, "dice": 1}]},
    "defender": {"side": "american", "units": [], "fort": {"dice": 0, "sp": 2, "morale": 3}}})");
  auto r = run_musket("gl battle --scenario " + path);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err.rfind("musket: " + path + ": /attacker/units/0/morale: ", 0), 0u) << r.err;  // no "--": a file
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  r = run_musket("gl battle --att A:regular:5/4:5:3 --def D:regular:1/1:6:1");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--att"), std::string::npos) << r.err;
  r = run_musket("gl battle --att A:regular:1/1:6:1 --def D:regular:1/1:6:1 --def-retreat sometimes");
  EXPECT_EQ(r.exit_code, 2);
  r = run_musket("gl battle --att A:regular:1/1:6:1 --def D:regular:1/1:6:1 --att-hits spread");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--att-hits"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("rulings, concentrate"), std::string::npos) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  r = run_musket("gl battle --att A:regular:1/1:6:1 --def D:regular:1/1:6:1 --def-reroll sometimes");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("first, never, largest_unit"), std::string::npos) << r.err;
  r = run_musket(
      "gl battle --att A:regular:1/1:6:1 --att B:regular:1/1:6:1 --def D:regular:4/4:3:3 --method exact "
      "--state-limit 1000 "  // (1,596 folded states)
      "--def D2:militia:4/4:3:3 --def D3:militia:3/3:3:3 --att C:regular:4/4:3:3 --att E:regular:4/4:3:3");
  EXPECT_EQ(r.exit_code, 2) << r.out;
  EXPECT_NE(r.err.find("state-limit"), std::string::npos) << r.err;
  r = run_musket("gl turn --british erie=intercept --american ontario=supply");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("erie-dice"), std::string::npos) << r.err;
}

// A missing data folder is an environment problem (exit 3) found before any solving: the battle
// past its state limit would be refused with exit 2 by the solve, so the 3 shows nothing ran.
TEST(GreatLakesCli, MissingGameDataIsFoundBeforeTheSolve) {
  const auto r = run_musket(
      "gl battle --att A:regular:1/1:6:1 --att B:regular:1/1:6:1 --def D:regular:4/4:3:3 --method exact "
      "--state-limit 1000 --def D2:militia:4/4:3:3 --def D3:militia:3/3:3:3 --att C:regular:4/4:3:3 "
      "--att E:regular:4/4:3:3",
      "MUSKET_DATA_DIR=/nonexistent-musket-data");
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_NE(r.err.find("MUSKET_DATA_DIR=/nonexistent-musket-data"), std::string::npos) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
}

TEST(GreatLakesCli, AutoFallsBackToSimulationPastTheLimit) {
  const json j = run_json(
      "gl battle --att A:regular:4/4:3:3 --att B:regular:4/4:3:3 --att C:militia:3/3:3:2 --def D:regular:4/4:3:3 "
      "--def E:militia:4/4:3:3 --def F:militia:3/3:3:2 --state-limit 1000 --trials 2000");  // (1,156 folded states)
  EXPECT_EQ(j["method"]["name"], "simulation");
  EXPECT_NE(j["method"]["why"].get<std::string>().find("1000"), std::string::npos);
}

// Issue 20: auto predicts the exact solve's cost before solving and simulates when the prediction
// is past --time-budget (the decision, not wall time: a budget far below any solve's fixed cost).
TEST(GreatLakesCli, AutoSimulatesWhenThePredictedCostIsPastTheTimeBudget) {
  const std::string battle = "gl battle --att A:regular:2/2:5:1 --def D:regular:2/2:5:1 --trials 2000";
  json j = run_json(battle + " --time-budget 0.001");
  EXPECT_EQ(j["method"]["name"], "simulation");
  std::string why = j["method"]["why"].get<std::string>();
  EXPECT_NE(why.find("predicted exact cost"), std::string::npos) << why;
  EXPECT_NE(why.find("--time-budget of 0.001 s"), std::string::npos) << why;
  j = run_json(battle + " --time-budget 60");
  EXPECT_EQ(j["method"]["name"], "exact");
  why = j["method"]["why"].get<std::string>();
  EXPECT_NE(why.find("within the --time-budget of 60 s"), std::string::npos) << why;
  // Past the memory bound: auto simulates, exact refuses before solving.
  // (Issue 20's 6 v 6, swept: 381,892 predicted states at 900 B, about 344 MB.)
  const std::string big =
      "gl battle --att 11th:regular:4/4:5:3 --att 21st:regular:4/4:5:3 --att NYMil:militia:3/4:3:2 "
      "--att Art:artillery:2/3:5:4 --att Drag:dragoon:2/2:4:2 --def 100th:regular:4/4:5:4 "
      "--def 41st:regular:4/4:5:3 --def Glengarry:militia:3/3:4:2 --def Mohawk:native:2/3:4:2 --fort 2:2:4 "
      "--att X:regular:4/4:5:3 --def Y:regular:4/4:5:3 "
      "--att-leader Brown --def-leader Drummond --trials 2000 --memory-mb 64 --time-budget 3600";
  j = run_json(big);
  EXPECT_EQ(j["method"]["name"], "simulation");
  EXPECT_NE(j["method"]["why"].get<std::string>().find("--memory-mb 64"), std::string::npos);
  const auto r = run_musket(big + " --method exact");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--memory-mb"), std::string::npos) << r.err;
  for (const char* bad : {"-1", "0", "abc", "1s", "nan"}) {
    const auto e = run_musket(battle + " --time-budget " + bad);
    EXPECT_EQ(e.exit_code, 2) << bad;
    EXPECT_NE(e.err.find("--time-budget"), std::string::npos) << e.err;
    EXPECT_EQ(std::count(e.err.begin(), e.err.end(), '\n'), 1) << e.err;
    EXPECT_TRUE(e.out.empty());
  }
}

TEST(GreatLakesCli, OtherCommands) {
  // 2 dice v 1: 25/36 (worked in turn_test).
  json j = run_json("gl ship-battle --dice 2 --vs 1");
  EXPECT_EQ(j["exact"]["a_wins"], "25/36");
  EXPECT_EQ(j["exact"]["b_wins"], "11/36");
  j = run_json("gl war-end");
  EXPECT_EQ(j["exact"]["last_turn"]["20"], "125/729");
  j = run_json("gl turn --british ontario=transport,erie=transport --american ontario=transport,erie=transport");
  EXPECT_EQ(j["exact"]["americans_first"], "1/3");
  j = run_json("gl missions --erie-dice 2,2");
  EXPECT_TRUE(j.contains("british_strategy"));
  EXPECT_TRUE(j.contains("american_strategy"));
}

TEST(GreatLakesCli, PoliciesFromFlagsAreEchoed) {
  const json j = run_json(
      "gl battle --att A:regular:1/1:6:1 --def D:regular:1/1:6:1 --method exact --def-hits concentrate "
      "--att-reroll never");
  EXPECT_EQ(j["inputs"]["battle"]["defender"]["hit_allocation"]["policy"], "concentrate");
  EXPECT_EQ(j["inputs"]["battle"]["attacker"]["hit_allocation"]["policy"], "rulings");
  EXPECT_EQ(j["inputs"]["battle"]["attacker"]["rerolls"]["policy"], "never");
  EXPECT_EQ(j["inputs"]["battle"]["defender"]["rerolls"]["policy"], "first");
}

TEST(GreatLakesCli, WarEndStatsFollowTheRoll) {
  // GL 15.1: the war ends after turns 14-16 on a 6, after 17-19 on a 5-6, always after 20.
  // P(last turn >= t) is the chance every earlier roll let the war go on.
  std::map<int, double> at_least{{14, 1.0}};
  for (int t = 15; t <= 20; ++t) at_least[t] = at_least[t - 1] * (t - 1 <= 16 ? 5.0 / 6.0 : 2.0 / 3.0);
  double mean = 14;
  for (int t = 15; t <= 20; ++t) mean += at_least[t];
  const json j = run_json("gl war-end");
  const auto& stats = j["stats"]["last_turn"];
  EXPECT_NEAR(stats["mean"].get<double>(), mean, 1e-12);
  for (const auto& [t, p] : at_least) EXPECT_NEAR(stats["at_least"][std::to_string(t)].get<double>(), p, 1e-12) << t;
  // (5/6)^3 (2/3)^3 = 125/729 reach turn 20.
  EXPECT_EQ(j["exact"]["stats"]["last_turn"]["at_least"]["20"], "125/729");
  EXPECT_EQ(stats["min"], 14);
  EXPECT_EQ(stats["max"], 20);
  EXPECT_EQ(stats["median"], 17);  // P(<= 16) = 1 - 125/216 < 1/2 <= P(<= 17)
}

TEST(GreatLakesCli, OptimalPlayOfAOneOnOneDuelIsTheDefault) {
  // One 1-SP 1-die block each: no hit has a choice of unit, no leader rerolls, and on the win
  // objective a retreat loses, so optimal play is the default: P(attacker wins) = 5/11 as above.
  const json doc = run_json("gl battle --att A:regular:1/1:6:1 --def D:regular:1/1:6:1 --play optimal");
  EXPECT_NEAR(doc["outcomes"]["attacker_wins"].get<double>(), 5.0 / 11, 1e-12);
  const json& game = doc["optimal_play"];
  EXPECT_EQ(game["objective"], "win");
  EXPECT_NEAR(game["value"].get<double>(), 5.0 / 11, 1e-12);
  EXPECT_NEAR(game["value_default_play"].get<double>(), 5.0 / 11, 1e-12);
  EXPECT_NEAR(game["gain_attacker"].get<double>(), 0.0, 1e-12);
  EXPECT_NEAR(game["gain_defender"].get<double>(), 0.0, 1e-12);
  EXPECT_EQ(doc["advice"]["attacker"]["retreat"]["rule"], "never retreats");
  EXPECT_EQ(doc["method"]["name"], "exact");
}

TEST(GreatLakesCli, OptimalPlayValueIsWhatItsOutcomeIsWorth) {
  // The value objective's value (W x win - attacker SP lost + defender SP lost) is the solved
  // play's outcome document weighed by that formula.
  const json doc = run_json(
      "gl battle --att A:regular:2/2:3:2 --att B:regular:1/1:6:1 --def D:regular:2/2:6:1 --play optimal "
      "--objective value --win-value 1.5");
  double value = 1.5 * doc["outcomes"]["attacker_wins"].get<double>();
  const auto& att = doc["attacker_sp_lost"];
  const auto& def = doc["defender_sp_lost"];
  for (std::size_t k = 0; k < att.size(); ++k) value -= static_cast<double>(k) * att[k].get<double>();
  for (std::size_t k = 0; k < def.size(); ++k) value += static_cast<double>(k) * def[k].get<double>();
  EXPECT_NEAR(doc["optimal_play"]["value"].get<double>(), value, 1e-9);
  EXPECT_EQ(doc["optimal_play"]["win_value"], 1.5);
  EXPECT_GE(doc["optimal_play"]["gain_attacker"].get<double>(), -1e-12);
  EXPECT_GE(doc["optimal_play"]["gain_defender"].get<double>(), -1e-12);
  EXPECT_FALSE(doc["advice"]["plain"].empty());
}

TEST(GreatLakesCli, OptimalPlayBadInputIsOneLineAndExitTwo) {
  const std::string battle = "gl battle --att A:regular:2/2:4:1 --def D:regular:2/2:4:1 ";
  for (const std::string bad :
       {"--play optimal --objective value --win-value -1", "--play optimal --objective value --win-value lots",
        "--play optimal --objective value", "--play optimal --objective score", "--play optimal --method sim",
        "--att-hits optimal --method sim", "--play always", "--objective value --win-value 2"}) {
    const auto r = run_musket(battle + bad);
    EXPECT_EQ(r.exit_code, 2) << bad;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << bad << ": " << r.err;
  }
  const auto r = run_musket(battle + "--play optimal --method sim");
  EXPECT_NE(r.err.find("exactly only"), std::string::npos) << r.err;
}

// Issue 17/20: auto predicts optimal play's cost from the round outcomes its exploration lists and
// refuses, before solving, a game predicted past --time-budget; --method exact runs it anyway.
TEST(GreatLakesCli, OptimalPlayPastTheTimeBudgetRefusesNamingThePrediction) {
  const std::string battle =
      "gl battle --att A:regular:2/2:3:2 --att B:regular:1/1:6:1 --def D:regular:2/2:6:1 --play optimal";
  // Far below the cost of listing the first round's outcomes (hundreds of ns each).
  const auto r = run_musket(battle + " --time-budget 0.000001");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_NE(r.err.find("predicted to take at least"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("--time-budget of 1e-06 s"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("--method exact"), std::string::npos) << r.err;
  EXPECT_TRUE(r.out.empty());
  json j = run_json(battle);  // the default budget, 1 s
  EXPECT_EQ(j["method"]["name"], "exact");
  std::string why = j["method"]["why"].get<std::string>();
  EXPECT_NE(why.find("within the --time-budget of 1 s; predicted"), std::string::npos) << why;
  j = run_json(battle + " --time-budget 0.000001 --method exact");
  EXPECT_EQ(j["method"]["name"], "exact");
}

TEST(GreatLakesCli, OptimalPlayAdviceNamesTheCaseWhereAnotherAllocationIsBest) {
  // The battle of GreatLakesOptimalPlay.DefenderAllocationAdviceIsForTheHitsTheAttackerTook, whose
  // brute force finds the defender's lone hit best on D1 before any hit and on D2 (killing it)
  // once A has taken one: the JSON names that case, and the words say it.
  const json doc = run_json(
      "gl battle --att A:regular:2/2:4:1 --def D1:regular:2/2:5:2 --def D2:regular:1/1:6:1 --def-hits optimal");
  const json& hits = doc["advice"]["defender"]["hits"];
  ASSERT_EQ(hits.size(), 1u);
  EXPECT_EQ(hits[0]["hits"], 1);
  EXPECT_EQ(hits[0]["optimal"]["D1"], 1);
  ASSERT_EQ(hits[0]["otherwise"].size(), 1u);
  const json& other = hits[0]["otherwise"][0];
  EXPECT_EQ(other["when"]["hits"]["attacker"]["A"], 1);
  EXPECT_EQ(other["optimal"]["D2"], 1);
  EXPECT_EQ(doc["advice"]["plain"][0],
            "defender taking 1 hit in round 1: D1 1 (as the rulings), but D2 1 after hits on A 1");
}

// One meaning per mark. A battle without a fort has no garrison: JSON null, and "no fort" in the
// table and the CSV (it once read "unknown", and "-" would claim an impossible outcome). With a
// fort, the garrison is a number: 1 SP and 1 die against a 1-SP defender and a 1-SP attacker.
TEST(GreatLakesCli, NoGarrisonReadsNoFortInEveryFormat) {
  const std::string battle = "gl battle --att A:regular:1/1:6:1 --def D:regular:1/1:6:1 --method exact";
  EXPECT_TRUE(run_json(battle)["garrison_eliminated"].is_null());
  auto run = run_musket(battle);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find("\ngarrison eliminated  no fort\n"), std::string::npos) << run.out;
  EXPECT_EQ(run.out.find("unknown"), std::string::npos);
  run = run_musket(battle + " --format csv");
  EXPECT_NE(run.out.find("\ngarrison_eliminated,no fort,,\n"), std::string::npos) << run.out;
  EXPECT_TRUE(run_json(battle + " --fort 1:1:4")["garrison_eliminated"].is_number());
}

// A sweep point the command refuses reads "illegal" (table, --csv file, --format csv; JSON: null
// with the reason in "illegal"); "-" stays an impossible outcome: with no fort a 1-SP block
// against a 1-SP block never stalls, P(stalemate) = 0 exactly, and a point without a fort reads
// "no fort" for the garrison.
TEST(GreatLakesCli, SweepMarksIllegalPointsApartFromImpossibleOnes) {
  const std::string sweep = "gl sweep battle --att A:regular:1/1:6:1 --def D:regular:1/1:6:1 --method exact";
  const std::string csv_path = write_temp("gl_illegal_sweep.csv", "");
  auto run = run_musket(sweep + " --fort 1:1:4 --vary fort.sp=0..1 --metric garrison_eliminated --csv " + csv_path);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find("\n        0  P(garrison eliminated)  illegal\n"), std::string::npos) << run.out;
  std::ifstream in(csv_path);
  std::string header, illegal, legal;
  std::getline(in, header);
  std::getline(in, illegal);
  std::getline(in, legal);
  EXPECT_EQ(header, "game,command,fort.sp,metric,value");
  EXPECT_EQ(illegal, "gl,battle,0,garrison_eliminated,illegal");
  EXPECT_EQ(legal.rfind("gl,battle,1,garrison_eliminated,0.", 0), 0u) << legal;
  run = run_musket(sweep + " --fort 1:1:4 --vary fort.sp=0..1 --metric garrison_eliminated --format csv");
  EXPECT_NE(run.out.find("\npoints.0.value,illegal,,\n"), std::string::npos) << run.out;
  const json doc = run_json(sweep + " --fort 1:1:4 --vary fort.sp=0..1 --metric garrison_eliminated");
  EXPECT_TRUE(doc["points"][0]["value"].is_null());
  EXPECT_NE(doc["points"][0]["illegal"].get<std::string>().find("--fort"), std::string::npos);
  EXPECT_FALSE(doc["points"][1].contains("illegal"));
  EXPECT_EQ(doc["method"]["legal_points"], 1);

  run = run_musket(sweep + " --vary fort=none,1:1:4 --metric outcomes.stalemate --metric garrison_eliminated");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find("\n  none   P(stalemate)                  -\n"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("\n  none   P(garrison eliminated)  no fort\n"), std::string::npos) << run.out;
  EXPECT_EQ(run.out.find("illegal"), std::string::npos);
}

// The missions game with Lake Erie's dice 3 v 2 has a saddle point (turn_test works it by hand):
// each side's optimal strategy is pure, and an exact 1 prints 100%, never ">99.9999%".
TEST(GreatLakesCli, APureMissionStrategyReadsOneHundredPercent) {
  const json doc = run_json("gl missions --erie-dice 3,2");
  EXPECT_EQ(doc["british_strategy"], json({{"ontario=supply,erie=supply", 1.0}}));
  EXPECT_EQ(doc["american_strategy"], json({{"ontario=supply,erie=supply", 1.0}}));
  const auto run = run_musket("gl missions --erie-dice 3,2");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(run.out.find(">99.9999%"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("american strategy\n  ontario=supply,erie=supply  100%"), std::string::npos) << run.out;
}
