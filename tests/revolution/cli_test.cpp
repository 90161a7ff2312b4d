// End-to-end: the built `musket ar ...` commands, their JSON contract and their exit codes.
#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <string>

#include "run_musket.hpp"

namespace {

std::string fmt_signed(int n) {
  return (n > 0 ? "+" : "") + std::to_string(n);
}

nlohmann::json run_json(const std::string& args) {
  const auto r = run_musket(args + " --format json");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return nlohmann::json::parse(r.out);
}

// The rules' example, 23 v 11 at 2:1: De 1-2, 1/2De 3-4, 1/2Ex 5-6; the defender loses 11 (1/3)
// or 6 (2/3), the attacker 6 on a 1/2Ex (1/3).
TEST(RevolutionCli, BattleJsonContract) {
  const auto doc = run_json("ar battle --attacker \"15M,8C\" --defender \"3T,8B\"");
  EXPECT_EQ(doc["game"], "ar");
  EXPECT_EQ(doc["command"], "battle");
  EXPECT_EQ(doc["method"]["name"], "exact");
  EXPECT_EQ(doc["column"], "2:1");
  EXPECT_DOUBLE_EQ(doc["results"]["HalfEx"].get<double>(), 1.0 / 3);
  EXPECT_DOUBLE_EQ(doc["results"]["unknown"].get<double>(), 0.0);
  EXPECT_EQ(doc["exact"]["results"]["De"], "1/3");
  EXPECT_DOUBLE_EQ(doc["defender_losses"]["6"].get<double>(), 2.0 / 3);
  EXPECT_EQ(doc["exact"]["attacker_losses"]["6"], "1/3");
  EXPECT_TRUE(doc["major_success"].contains("min"));
  EXPECT_EQ(doc["major_success"]["min"], doc["major_success"]["max"]);
  EXPECT_TRUE(doc.contains("notes"));
}

// 33C v 11B at 3:1: row 6 unknown, so the losses become {"min","max"} and a note says why.
TEST(RevolutionCli, UnknownEntriesBecomeBounds) {
  const auto doc = run_json("ar battle --attacker 33C --defender 11B");
  EXPECT_EQ(doc["column"], "3:1");
  EXPECT_EQ(doc["exact"]["results"]["unknown"], "1/6");
  EXPECT_EQ(doc["exact"]["major_success"]["min"], "5/6");
  EXPECT_EQ(doc["exact"]["major_success"]["max"], "1/1");
  EXPECT_EQ(doc["exact"]["defender_losses"]["11"]["max"], "2/3");
  bool explained = false;
  for (const auto& n : doc["notes"]) explained = explained || n.get<std::string>().find("unknown") != std::string::npos;
  EXPECT_TRUE(explained);
}

TEST(RevolutionCli, MoveAttritionLevyOptions) {
  auto doc = run_json("ar move --areas 2 --groups 2");
  EXPECT_EQ(doc["exact"]["arrive"], "4/9");                  // (2/3)^2
  EXPECT_EQ(doc["exact"]["at_least_one_arrives"], "56/81");  // 1 - (5/9)^2 = 1 - 25/81
  EXPECT_EQ(doc["reached"].size(), 3u);
  doc = run_json("ar attrition --strength 8 --loss-fraction 1/3 --survive-on 5-6");
  EXPECT_EQ(doc["exact"]["survivors"][4], "4/9");
  doc = run_json(std::string("ar levy --chart ") + MUSKET_AR_TEST_DATA + "/levy-example.json --turns 3");
  EXPECT_EQ(doc["exact"]["expected_total"], "13/1");
  doc = run_json("ar options --use D,H,B");
  EXPECT_EQ(doc["net_adjustment"], -2);
  EXPECT_EQ(doc["legality"], "unknown");
  doc = run_json("ar options --all");
  EXPECT_EQ(doc["counts"]["legal"], 23);
  doc = run_json("ar options --battle --attacker \"15M,8C\" --defender \"3T,8B\"");
  EXPECT_EQ(doc["variants"][1]["option"], "G");
  EXPECT_EQ(doc["variants"][1]["column"], "1:1");
}

TEST(RevolutionCli, EveryFormatRenders) {
  for (const std::string format : {"table", "csv"}) {
    for (const std::string args :
         {"ar battle --attacker 33C --defender 11B", "ar move --areas 3", "ar move --sea",
          "ar attrition --strength 5 --loss-fraction 2/3 --survive-on 6", "ar options --use A,E", "ar options --all",
          "ar options", "ar options --compare A,E B,C", "ar options --all --include-unknown --sort size",
          "ar options --battle --attacker 12F,3C --defender 10B"}) {
      const auto r = run_musket(args + " --format " + format);
      EXPECT_EQ(r.exit_code, 0) << args << "\n" << r.err;
      EXPECT_FALSE(r.out.empty());
    }
  }
}

// Bad input: one line naming the option, exit 2.
TEST(RevolutionCli, BadInputExitsTwo) {
  const std::string bad_crt = std::string(MUSKET_AR_TEST_DATA) + "/crt-missing-column.json";
  const std::string bad_code = std::string(MUSKET_AR_TEST_DATA) + "/crt-bad-code.json";
  const std::vector<std::pair<std::string, std::string>> cases{
      {"ar battle --attacker 15X --defender 3B", "--attacker"},
      {"ar battle --attacker 3T,8C --defender 3B", "--attacker"},
      {"ar battle --attacker 0M --defender 3B", "--attacker"},
      {"ar battle --attacker -3M --defender 3B", "--attacker"},
      {"ar battle --attacker 10C --defender 11B", "--attacker"},
      {"ar battle --attacker 10C --defender 5M", "--defender"},
      {"ar battle --attacker 10C --defender 5B --loss-policy random", "--loss-policy"},
      {"ar battle --attacker 10C --defender 5B --crt " + bad_crt, "--crt"},
      {"ar battle --attacker 10C --defender 5B --crt " + bad_code, "--crt"},
      {"ar options --use D,Z", "--use"},
      {"ar options --all --sort largest", "--sort"},
      {"ar options --sort size", "--sort"},
      {"ar options --include-unknown", "--include-unknown"},
      {"ar options --compare A,E", "--compare"},
      {"ar options --compare A,E B C", "--compare"},
      {"ar options --compare A,Z B", "--compare"},
      {"ar options --use A --compare A B", "--compare"},
      {"ar options --all --battle", "--battle"},
      {"ar options --all --defender 3B", "--defender"},
      {"ar move --areas 6", "--areas"},
      {"ar attrition --strength 8 --loss-fraction 1/4 --survive-on 6", "--loss-fraction"},
      {"ar attrition --strength 8 --row first", "--row"},
      {"ar levy", "--chart"},
  };
  for (const auto& [args, option] : cases) {
    const auto r = run_musket(args);
    EXPECT_EQ(r.exit_code, 2) << args << "\n" << r.err;
    EXPECT_EQ(r.out, "") << args;
    EXPECT_NE(r.err.find(option), std::string::npos) << args << "\n" << r.err;
    EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << "one line: " << r.err;
  }
}

// Combat case F: 3C,4M is 7 points (beyond 5) with more Militia than Continentals; 2C,3M breaks
// only the ratio, 6C only the size. Each is one line naming --defender and case F, exit 2, in
// `battle` and in `options --battle` alike; 5C and 3C,2M in a Fort answer (30 v 15 is 2:1).
TEST(RevolutionCli, AmericanFortLimitsAreBadInput) {
  for (const std::string command : {"ar battle", "ar options --battle"})
    for (const std::string defender : {"3C,4M", "2C,3M", "6C"}) {
      const std::string args = command + " --attacker 30B --defender " + defender + " --fort";
      const auto r = run_musket(args);
      EXPECT_EQ(r.exit_code, 2) << args << "\n" << r.err;
      EXPECT_EQ(r.out, "") << args;
      EXPECT_NE(r.err.find("--defender"), std::string::npos) << r.err;
      EXPECT_NE(r.err.find("case F"), std::string::npos) << r.err;
      EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << "one line: " << r.err;
    }
  EXPECT_EQ(run_json("ar battle --attacker 30B --defender 5C --fort")["column"], "2:1");
  EXPECT_EQ(run_json("ar battle --attacker 30B --defender 3C,2M --fort")["column"], "2:1");
}

// `ar options` alone: all twelve options with names, adjustments, the side each helps and what
// it changes; the header says a positive adjustment helps the British and raises their goal.
TEST(RevolutionCli, OptionsListEveryOption) {
  const auto doc = run_json("ar options");
  ASSERT_EQ(doc["options"].size(), 12u);
  EXPECT_EQ(doc["options"][0]["letter"], "A");
  EXPECT_EQ(doc["options"][0]["name"], "Additional British Mercenaries");
  EXPECT_EQ(doc["options"][0]["adjustment"], 11);
  EXPECT_EQ(doc["options"][0]["helps"], "British");
  EXPECT_EQ(doc["options"][5]["helps"], "American");  // F -21
  for (const auto& o : doc["options"])
    for (const char* key : {"forces", "reinforcements", "rules"}) EXPECT_TRUE(o[key].is_string()) << o;
  EXPECT_NE(doc["notes"][0].get<std::string>().find("raises the British goal"), std::string::npos);
  bool ck = false;
  for (const auto& p : doc["known_pairs"]) ck = ck || (p["pair"] == "C-K" && p["status"] == "incompatible");
  EXPECT_TRUE(ck);
}

// --compare: each set's goal is 51 + the sum of the adjustments `ar options` prints for its
// letters (and 41 / 61 for the errata's first and last periods).
TEST(RevolutionCli, OptionsCompareGoalsFromThePrintedAdjustments) {
  const auto list = run_json("ar options");
  auto adjustment = [&](char letter) { return list["options"][letter - 'A']["adjustment"].get<int>(); };
  const int first = adjustment('A') + adjustment('E'), second = adjustment('B') + adjustment('C');
  const auto doc = run_json("ar options --compare A,E B,C");
  const auto& goals = doc["goals"];
  ASSERT_EQ(goals.size(), 4u);
  EXPECT_EQ(goals[0]["period"], "historical");
  EXPECT_EQ(goals[0]["first_goal"], 51 + first);
  EXPECT_EQ(goals[0]["second_goal"], 51 + second);
  EXPECT_EQ(goals[1]["first_goal"], 41 + first);
  EXPECT_EQ(goals[3]["second_after_two_major_successes"], (61 + second) / 2);
  EXPECT_EQ(doc["side_by_side"][2]["item"], "net adjustment");
  EXPECT_EQ(doc["side_by_side"][2]["first"], fmt_signed(first));
  // Every reinforcement change: A's four and B's three printed entries over five turns; the
  // differences add up to B's total minus A's (-30 - 30).
  int difference = 0;
  for (const auto& t : doc["reinforcement_changes"]) difference += t["second_minus_first"].get<int>();
  EXPECT_EQ(doc["reinforcement_changes"].size(), 5u);
  EXPECT_EQ(difference, (-20 - 6 - 4) - (4 + 4 + 10 + 12));
  const auto illegal = run_json("ar options --compare C,K F");
  EXPECT_EQ(illegal["side_by_side"][5]["item"], "legality");
  EXPECT_EQ(illegal["side_by_side"][5]["first"], "illegal");
  EXPECT_EQ(illegal["side_by_side"][5]["second"], "legal");
  EXPECT_NE(illegal["side_by_side"][6]["first"].get<std::string>().find("transcription note"), std::string::npos);
}

// --all --include-unknown --sort size: every unknown set listed with the pairs that decide it;
// every set named; sizes never decrease.
TEST(RevolutionCli, OptionsAllWithUnknownSets) {
  const auto doc = run_json("ar options --all --include-unknown --sort size");
  EXPECT_EQ(doc["unknown_sets"].size(), doc["counts"]["unknown"].get<std::size_t>());
  EXPECT_EQ(doc["legal_sets"][0]["names"], "none (the historical game)");
  EXPECT_EQ(doc["legal_sets"][1]["names"], "F Stronger American Central Government");
  int size = 0;
  for (const auto& row : doc["unknown_sets"]) {
    EXPECT_GE(row["size"].get<int>(), size);
    size = row["size"].get<int>();
    EXPECT_FALSE(row["deciding_pairs"].get<std::string>().empty()) << row;
  }
  EXPECT_EQ(doc["incompatible_pairs"].size(), 6u);  // A-B, A-C, A-D, C-K, D-K, E-K
  EXPECT_FALSE(run_json("ar options --all").contains("unknown_sets"));
}

// MUSKET_DATA_DIR overrides the data directory: a folder that does not exist is an environment
// problem (exit 3) named in one line, never a crash or a guess.
TEST(RevolutionCli, DataDirectoryOverride) {
  const auto r = run_musket("ar battle --attacker 15M,8C --defender 3T,8B", "MUSKET_DATA_DIR=/nonexistent-musket-data");
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_NE(r.err.find("MUSKET_DATA_DIR=/nonexistent-musket-data"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << "one line: " << r.err;
}

// Option G's Region allowances: New York 5 -> 3 (the rule's example); unknown stays null.
TEST(RevolutionCli, OptionGAllowances) {
  const auto doc = run_json("ar options --use G");
  bool new_york = false, south_carolina = false;
  for (const auto& row : doc["region_allowances"]) {
    if (row["region"] == "New York") new_york = row["militia_under_G"] == 3 && row["tory_under_G"] == 3;
    if (row["region"] == "South Carolina") south_carolina = row["militia_under_G"].is_null();
  }
  EXPECT_TRUE(new_york);
  EXPECT_TRUE(south_carolina);
}

}  // namespace

TEST(RevolutionCli, MoveStatsFollowTheGeometricLaw) {
  // Each Area entered fails on a 1-2: a group gets k of 3 Areas with (2/3)^k (1/3), all 3 with
  // (2/3)^3. P(at least k) = (2/3)^k; mean = 2/3 + 4/9 + 8/27 = 38/27;
  // E[X^2] = 1*(2/9) + 4*(4/27) + 9*(8/27) = 94/27, variance 94/27 - (38/27)^2 = 1094/729.
  const auto doc = run_json("ar move --areas 3");
  const auto& exact = doc["exact"]["stats"]["reached"];
  EXPECT_EQ(exact["mean"], "38/27");
  EXPECT_EQ(exact["variance"], "1094/729");
  EXPECT_EQ(exact["at_least"], nlohmann::json::parse(R"(["1/1", "2/3", "4/9", "8/27"])"));
  EXPECT_EQ(exact["at_most"][2], "19/27");
  const auto& stats = doc["stats"]["reached"];
  EXPECT_NEAR(stats["sd"].get<double>(), std::sqrt(1094.0 / 729.0), 1e-12);
  // P(X <= 1) = 5/9 is the first to reach 1/2; only P(X <= 3) = 1 reaches 95%.
  EXPECT_EQ(stats["median"], 1);
  EXPECT_EQ(stats["p05"], 0);
  EXPECT_EQ(stats["p95"], 3);
  EXPECT_EQ(stats["min"], 0);
  EXPECT_EQ(stats["max"], 3);
}
