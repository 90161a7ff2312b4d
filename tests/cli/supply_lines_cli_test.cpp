// End to end: the `musket` binary for nt and ss, parsed as a user's script would.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "run_musket.hpp"

using nlohmann::json;

namespace {
json run_json(const std::string& arguments) {
  const auto run = run_musket(arguments + " --format json");
  EXPECT_EQ(run.exit_code, 0) << run.err;
  return json::parse(run.out);
}

int lines(const std::string& text) {
  return static_cast<int>(std::count(text.begin(), text.end(), '\n'));
}
}  // namespace

TEST(CliSupplyLines, BattleJsonContract) {
  // Crown 1 unit + leader, 1 die at a point v 1 Patriot unit: surrender 1/2, retreat 1/2 (by
  // hand: the die hits on 1-3; a miss still wins 2 v 1 and a point's morale check fails).
  const json j = run_json(
      "nt battle --attacker crown --terrain point --att-units 1 --att-leaders 1 --att-war 1 "
      "--def-units 1 --def-leaders 0 --def-war 0");
  EXPECT_EQ(j["game"], "nt");
  EXPECT_EQ(j["command"], "battle");
  EXPECT_EQ(j["method"]["name"], "exact");
  EXPECT_DOUBLE_EQ(j["outcomes"]["defender_surrenders"].get<double>(), 0.5);
  EXPECT_DOUBLE_EQ(j["outcomes"]["defender_retreats"].get<double>(), 0.5);
  EXPECT_EQ(j["exact"]["defender_surrenders"], "1/2");
  EXPECT_EQ(j["exact"]["attacker_surrenders"], "0/1");
  ASSERT_EQ(j["attacker_losses"].size(), 2u);
  ASSERT_EQ(j["defender_losses"].size(), 2u);
  EXPECT_DOUBLE_EQ(j["defender_losses"][1].get<double>(), 0.5);  // only a hit removes the unit
  EXPECT_DOUBLE_EQ(j["track_shift"]["-1"].get<double>(), 0.5);
  EXPECT_FALSE(j.contains("instant_victory"));  // an SS-only key
  for (const char* key :
       {"attacker_surrenders", "defender_victory", "defender_stands", "defender_retreats", "defender_surrenders"})
    EXPECT_TRUE(j["outcomes"].contains(key)) << key;
}

TEST(CliSupplyLines, SouthernBattleReportsInstantVictory) {
  // Patriot 1 unit + leader, 1 die (1-2) v Cornwallis and 1 unit: captured 1/3.
  const json j = run_json(
      "ss battle --attacker patriot --terrain point --att-units 1 --att-leaders 1 --att-war 1 "
      "--def-units 1 --def-leaders 1 --def-war 0 --crown-commander");
  EXPECT_NEAR(j["instant_victory"].get<double>(), 1.0 / 3.0, 1e-15);
  EXPECT_EQ(j["exact"]["instant_victory"], "1/3");
}

TEST(CliSupplyLines, TableHasVerdictPercentagesAndFractions) {
  const auto run = run_musket(
      "nt battle --attacker crown --terrain point --att-units 1 --att-leaders 1 --att-war 1 "
      "--def-units 1 --def-war 0");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find("Crown dislodges the defender 100%"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("50.0%  1/2"), std::string::npos) << run.out;
}

TEST(CliSupplyLines, CsvIsLongFormat) {
  const auto run = run_musket(
      "nt battle --attacker crown --terrain point --att-units 1 --att-leaders 1 --att-war 1 "
      "--def-units 1 --def-war 0 --format csv");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(run.out.rfind("key,value,exact_num,exact_den\n", 0), 0u);
  EXPECT_NE(run.out.find("outcomes.defender_surrenders,0.5,1,2\n"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("defender_losses.1,0.5,1,2\n"), std::string::npos) << run.out;
}

TEST(CliSupplyLines, EveryCommandAnswersInEveryFormat) {
  const std::vector<std::string> commands{
      "nt battle --attacker patriot --terrain fort --att-units 5 --att-leaders 1 --att-war 6 --def-units 3 "
      "--def-leaders 1 --def-war 2 --dug-in",
      "ss battle --attacker crown --terrain city --att-units 8 --att-leaders 1 --att-war 4 --def-units 4 --def-leaders "
      "1 --def-war 2 --crown-commander --siege",
      "nt battle --attacker crown --terrain city --att-units 6 --att-war 5 --def-units 4 --def-leaders 1 --def-war 3 "
      "--method sim --trials 20000",
      "nt skirmish --war 3 --crown-units 2 --crown-leaders 1",
      "ss skirmish --war 2 --crown-units 1 --crown-leaders 1 --crown-commander",
      "nt bombard --war 4 --patriot-units 3",
      "nt initiative --declared",
      "ss initiative",
      "ss sea-battle --modifier 1 --colour red --initiator crown",
      "ss navy-return --enemy-on-map --turns 4",
      "ss raid --militia-remaining 0 --swamp-fox",
      "nt reinforcements --cup-markers 10 --crown-occupied 3 --draws 4 --winter",
      "ss irregulars --cup ga-loyalist=2,sc-loyalist=1,sc-militia=2,swamp-fox=1",
      "nt refuse --units 5 --leaders 1 --supplies 4",
      "nt morale --difference 2 --defender crown",
      "ss commit --attacker patriot --terrain city --att-units 5 --att-leaders 1 --att-war-available 6 --def-units 3 "
      "--def-leaders 1 --def-war-available 4",
  };
  for (const auto& c : commands)
    for (const char* format : {"table", "json", "csv"}) {
      const auto run = run_musket(c + " --format " + format);
      EXPECT_EQ(run.exit_code, 0) << c << " --format " << format << ": " << run.err;
      EXPECT_TRUE(run.err.empty()) << run.err;
      EXPECT_GT(run.out.size(), 20u) << c;
      if (std::string(format) == "json") {
        EXPECT_TRUE(json::accept(run.out)) << c;
      }
    }
}

TEST(CliSupplyLines, SmallerCalculatorsByHand) {
  // SS sample turn: a 5 with the Swamp Fox succeeds, so 5-6 of 6 succeed.
  EXPECT_EQ(run_json("ss raid --militia-remaining 0 --swamp-fox")["exact"]["success"], "1/3");
  // Bombard 3 dice at 2 units: none eliminated (5/6)^3.
  EXPECT_EQ(run_json("nt bombard --war 3 --patriot-units 2")["exact"]["patriot_units_eliminated"][0], "125/216");
  // Skirmish 2 dice at one Crown unit: surrender 1 - (2/3)^2.
  const json sk = run_json("nt skirmish --war 2 --crown-units 1");
  EXPECT_EQ(sk["exact"]["crown_army_surrenders"], "5/9");
  EXPECT_EQ(sk["crown_units_eliminated"].size(), 2u);
  // Initiative: 21 of 36 go to the Crown before the Declaration; the marker never starts on 1.
  const json init = run_json("nt initiative");
  EXPECT_NEAR(init["first"]["crown"].get<double>(), 21.0 / 36, 1e-15);
  EXPECT_EQ(init["pass_marker"].size(), 4u);
  EXPECT_NEAR(init["pass_marker"]["5-6"].get<double>(), 24.0 / 36, 1e-15);
  // Sea battle, modifier 0 on red, Crown initiates: 9+ on 2d6 is 10/36, 10+ is 6/36.
  const json sea = run_json("ss sea-battle --modifier 0 --colour red --initiator crown");
  EXPECT_NEAR(sea["french_navy_defeated"].get<double>(), 10.0 / 36, 1e-15);
  EXPECT_NEAR(sea["crown_navy_defeated"].get<double>(), 6.0 / 36, 1e-15);
  EXPECT_NEAR(sea["both_defeated"].get<double>(), 60.0 / 1296, 1e-15);
  // Navy return, enemy off the map: 1-2 of 6 each Turn End (SS 12.4); Turn Ends count from 1, so
  // "1" is the first roll (1/3) and "3" is 1 - (2/3)^3 = 19/27; there is no "0".
  const json navy = run_json("ss navy-return --turns 3");
  EXPECT_EQ(navy["exact"]["returned_by_turn"]["1"], "1/3");
  EXPECT_EQ(navy["exact"]["returned_by_turn"]["3"], "19/27");
  EXPECT_FALSE(navy["returned_by_turn"].contains("0"));
}

TEST(CliSupplyLines, MoraleAndTrackPosition) {
  // NT Patriot defender, difference 3: two checks each passing on 3-6: (2/3)^2.
  EXPECT_EQ(run_json("nt morale --difference 3")["exact"]["passes"], "4/9");
  EXPECT_EQ(run_json("ss morale --difference 3")["exact"]["passes"], "2/3");
  EXPECT_EQ(run_json("nt morale --difference 2 --point")["exact"]["passes"], "0/1");
  EXPECT_EQ(run_musket("ss morale --difference 3 --checks 2").exit_code, 2);
  // The one-die battle of BattleJsonContract has no Patriot leader: shift -1 on a surrender
  // (1/2). From space 5 with the floor at 5 the marker cannot move.
  const json j = run_json(
      "nt battle --attacker crown --terrain point --att-units 1 --att-war 1 --def-units 1 "
      "--track-position 5 --track-floor 5");
  EXPECT_EQ(j["exact"]["track_position"]["5"], "1/1");
  const json k =
      run_json("nt battle --attacker crown --terrain point --att-units 1 --att-war 1 --def-units 1 --track-position 5");
  EXPECT_EQ(k["exact"]["track_position"]["4"], "1/2");
  EXPECT_EQ(
      run_musket("nt battle --attacker crown --terrain point --att-units 1 --att-war 1 --def-units 1 --track-floor 5")
          .exit_code,
      2);
}

TEST(CliSupplyLines, CommitTable) {
  // The hand-worked game of tests/supply_lines/commitment_test.cpp through the CLI.
  const json j = run_json(
      "nt commit --attacker crown --terrain point --att-units 1 --att-leaders 1 --att-war-available 2 "
      "--def-units 1 --def-war-available 1 --objective victory");
  ASSERT_EQ(j["rows"].size(), 2u);
  EXPECT_EQ(j["rows"][0]["att_war"], 1);
  EXPECT_EQ(j["rows"][0]["def_war_best_reply"], 1);
  EXPECT_NEAR(j["best"]["value"].get<double>(), 2.0 / 3.0, 1e-12);
  EXPECT_EQ(j["best"]["att_war"], 1);
}

TEST(CliSupplyLines, SimulationCarriesIntervals) {
  const json j = run_json(
      "nt battle --attacker crown --terrain point --att-units 1 --att-war 1 --def-units 1 --method sim --trials 40000 "
      "--seed 3");
  EXPECT_EQ(j["method"]["name"], "simulation");
  EXPECT_EQ(j["method"]["trials"], 40000);
  const auto ci = j["intervals"]["outcomes.defender_surrenders"];
  EXPECT_LT(ci["low"].get<double>(), 0.5);
  EXPECT_GT(ci["high"].get<double>(), 0.5);
  EXPECT_EQ(ci["level"], 0.95);
  // Same seed, same answer.
  EXPECT_EQ(j["outcomes"], run_json("nt battle --attacker crown --terrain point --att-units 1 --att-war 1 --def-units "
                                    "1 --method sim --trials 40000 --seed 3")["outcomes"]);
}

TEST(CliSupplyLines, BadInputIsOneLineAndExitTwo) {
  const std::vector<std::pair<std::string, std::string>> cases{
      {"nt battle --attacker crown --terrain city --att-units -1 --att-war 5 --def-units 4", "--att-units"},
      {"nt battle --attacker crown --terrain city --att-units 100 --att-war 5 --def-units 4", "--att-units"},
      {"nt battle --attacker crown --terrain city --att-units 6 --att-leaders 0 --att-war 5 --def-units 4",
       "--att-leaders"},
      {"nt battle --attacker patriot --terrain city --att-units 6 --att-war 1 --def-units 4", "--att-war"},
      {"nt battle --attacker crown --terrain city --att-units 6 --att-war 41 --def-units 4", "--att-war"},
      {"nt battle --attacker crown --terrain point --att-units 6 --att-war 4 --def-units 4 --dug-in", "--dug-in"},
      {"nt battle --attacker redcoat --terrain city --att-units 6 --att-war 4 --def-units 4", "--attacker"},
      {"nt battle --attacker crown --terrain swamp --att-units 6 --att-war 4 --def-units 4", "--terrain"},
      {"nt battle --attacker crown --terrain city --att-units 6 --att-war 4 --def-units 4 --bogus", "bogus"},
      {"nt battle --attacker crown --terrain city --att-units six --att-war 4 --def-units 4", "att-units"},
      {"nt battle --attacker crown --terrain city --att-war 4 --def-units 4", "att-units"},
      {"ss battle --attacker crown --terrain city --att-units 6 --att-war 4 --def-units 2", "--att-units"},
      {"nt battle --attacker crown --terrain city --att-units 6 --att-war 4 --def-units 2 --format xml", "--format"},
      {"nt skirmish --war 2 --crown-units 1 --patriot-units 3", "--patriot-units"},
      {"nt skirmish --war 2 --crown-units 1 --attacker crown", "--attacker"},
      {"nt bombard --war 2 --patriot-units 1 --attacker patriot", "--attacker"},
      {"nt raid --militia-remaining 1", "raid"},
      {"xx battle", "xx"},
      {"ss irregulars --cup sc-redcoat=2", "--cup"},
  };
  for (const auto& [arguments, named] : cases) {
    const auto run = run_musket(arguments);
    EXPECT_EQ(run.exit_code, 2) << arguments;
    EXPECT_TRUE(run.out.empty()) << arguments << ": " << run.out;
    EXPECT_EQ(lines(run.err), 1) << arguments << ": " << run.err;
    EXPECT_NE(run.err.find(named), std::string::npos) << arguments << ": " << run.err;
  }
}

TEST(CliSupplyLines, HelpAtEveryLevel) {
  EXPECT_EQ(run_musket("--help").exit_code, 0);
  EXPECT_EQ(run_musket("nt --help").exit_code, 0);
  const auto run = run_musket("nt battle --help");
  EXPECT_EQ(run.exit_code, 0);
  EXPECT_NE(run.out.find("--att-war"), std::string::npos);
}

TEST(CliSupplyLines, SkirmishStatsFollowTheBinomial) {
  // 3 dice, each 1-2 eliminates one of 2 Crown units: X = min(Bin(3, 1/3), 2), P(0) = 8/27,
  // P(1) = 12/27, P(2) = 7/27. Mean 26/27; E[X^2] = 40/27, variance 40/27 - (26/27)^2 = 404/729.
  const json j = run_json("ss skirmish --war 3 --patriot-units 2 --crown-units 2");
  const auto& exact = j["exact"]["stats"]["crown_units_eliminated"];
  EXPECT_EQ(exact["mean"], "26/27");
  EXPECT_EQ(exact["variance"], "404/729");
  EXPECT_EQ(exact["at_least"][1], "19/27");  // 1 - (2/3)^3
  EXPECT_EQ(exact["at_least"][2], "7/27");
  EXPECT_EQ(j["stats"]["crown_units_eliminated"]["median"], 1);
  EXPECT_EQ(j["stats"]["crown_units_eliminated"]["p95"], 2);
}

TEST(CliSupplyLines, BombardStatsAndSimulatedShape) {
  // 6 dice, each 1 eliminates one of 3 Patriot units: P(at least 1) = 1 - (5/6)^6 = 31031/46656.
  const json exact = run_json("nt bombard --war 6 --patriot-units 3");
  EXPECT_EQ(exact["exact"]["stats"]["patriot_units_eliminated"]["at_least"][1], "31031/46656");
  // A simulated battle carries the exact answer's summary, track shift and stats, and an
  // interval for each mean that holds the exact mean at this seed.
  const std::string battle = "nt battle --attacker crown --terrain point --att-units 3 --att-war 3 --def-units 2";
  const json e = run_json(battle);
  const json s = run_json(battle + " --method sim --trials 100000 --seed 5");
  for (const char* key : {"summary", "track_shift", "stats"}) EXPECT_TRUE(s.contains(key)) << key;
  const double mu = e["stats"]["defender_losses"]["mean"].get<double>();
  const auto& ci = s["intervals"]["stats.defender_losses.mean"];
  EXPECT_LE(ci["low"].get<double>(), mu);
  EXPECT_GE(ci["high"].get<double>(), mu);
  EXPECT_EQ(s["intervals"]["track_shift"]["low"].size(), s["track_shift"].size());
}
