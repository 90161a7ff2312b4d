// End-to-end: a sweep's metrics are every key the swept command's `--format csv` prints (the
// statistics stats.<path>.at_least.K, .mean, ... included), and each exactly solved point carries
// its fraction: "exact" on the JSON row, exact_num and exact_den in the CSVs.
#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "run_musket.hpp"

namespace {

using nlohmann::json;

json sm_json(const std::string& arguments) {
  const auto run = run_musket(arguments + " --format json");
  EXPECT_EQ(run.exit_code, 0) << arguments << "\n" << run.err;
  return run.exit_code == 0 ? json::parse(run.out) : json();
}

std::string sm_out(const std::string& arguments) {
  const auto run = run_musket(arguments);
  EXPECT_EQ(run.exit_code, 0) << arguments << "\n" << run.err;
  return run.out;
}

// The lines of a CSV split at commas (no field these tests read is quoted).
std::vector<std::vector<std::string>> sm_csv(const std::string& text) {
  std::vector<std::vector<std::string>> rows;
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) {
    std::vector<std::string> fields;
    std::string field;
    std::istringstream parts(line);
    while (std::getline(parts, field, ',')) fields.push_back(field);
    if (!line.empty() && line.back() == ',') fields.push_back("");
    rows.push_back(fields);
  }
  return rows;
}

// The battle: 6 Crown units and a leader attack 4 Patriot units and a leader in a city.
const std::string sm_battle =
    "--attacker crown --terrain city --att-units 6 --att-leaders 1 --def-units 4 --def-leaders 1 --def-war 3";

}  // namespace

TEST(SweepMetrics, StatisticsKeysEqualTheSeparateRuns) {
  const json doc = sm_json("nt sweep battle " + sm_battle +
                           " --vary att-war=1..6 --metric stats.defender_losses.at_least.2 --metric "
                           "stats.defender_losses.mean");
  const auto& points = doc.at("points");
  ASSERT_EQ(points.size(), 12u);  // 6 points, 2 metrics each
  for (int war = 1; war <= 6; ++war) {
    const json one = sm_json("nt battle " + sm_battle + " --att-war " + std::to_string(war));
    const json& at_least = points[static_cast<std::size_t>(2 * (war - 1))];
    const json& mean = points[static_cast<std::size_t>(2 * (war - 1) + 1)];
    ASSERT_EQ(at_least.at("att-war"), war);
    ASSERT_EQ(at_least.at("metric"), "stats.defender_losses.at_least.2");
    ASSERT_EQ(mean.at("metric"), "stats.defender_losses.mean");
    EXPECT_EQ(at_least.at("value"), one.at("stats").at("defender_losses").at("at_least").at(2)) << war;
    EXPECT_EQ(mean.at("value"), one.at("stats").at("defender_losses").at("mean")) << war;
    // Each point's fraction is the one the command alone puts under `exact`.
    const json& exact = one.at("exact").at("stats").at("defender_losses");
    EXPECT_EQ(at_least.at("exact"), exact.at("at_least").at(2)) << war;
    EXPECT_EQ(mean.at("exact"), exact.at("mean")) << war;
  }
  // More War Supplies, more attacking dice (NT 8.2: two per die in a city, the Crown rounding up):
  // two or more Patriot losses grow no less likely.
  for (std::size_t k = 2; k < points.size(); k += 2)
    EXPECT_GE(points[k].at("value").get<double>(), points[k - 2].at("value").get<double>());
}

TEST(SweepMetrics, EveryKeyTheCommandsCsvPrintsIsAMetricWithItsValueAndFraction) {
  const std::string single = "nt battle " + sm_battle + " --att-war 5";
  const auto rows = sm_csv(sm_out(single + " --format csv"));
  ASSERT_GT(rows.size(), 20u);
  ASSERT_EQ(rows[0], (std::vector<std::string>{"key", "value", "exact_num", "exact_den"}));
  std::string metrics;
  std::size_t stats_keys = 0;
  for (std::size_t i = 1; i < rows.size(); ++i) {
    metrics += " --metric " + rows[i][0];
    stats_keys += rows[i][0].rfind("stats.", 0) == 0;
  }
  EXPECT_GT(stats_keys, 10u);  // the statistics are among them
  const std::string csv = ::testing::TempDir() + "sweep_every_key.csv";
  sm_out("nt sweep battle " + sm_battle + " --vary att-war=5" + metrics + " --csv " + csv);
  const auto swept = sm_csv(slurp(csv));
  ASSERT_EQ(swept.size(), rows.size());
  ASSERT_EQ(swept[0],
            (std::vector<std::string>{"game", "command", "att-war", "metric", "value", "exact_num", "exact_den"}));
  for (std::size_t i = 1; i < rows.size(); ++i) {
    ASSERT_EQ(swept[i].size(), 7u) << i;
    EXPECT_EQ(swept[i][3], rows[i][0]);
    EXPECT_EQ(swept[i][4], rows[i][1]) << rows[i][0];
    EXPECT_EQ(swept[i][5], rows[i][2]) << rows[i][0];
    EXPECT_EQ(swept[i][6], rows[i][3]) << rows[i][0];
  }
}

// Worked from the NT rules: 3 Crown units attack 2 Patriot units at a Point, the defender spending
// 2 War Supplies (2 dice, NT 8.3), the attacker 1 or 2 (a die each at a Point, NT 8.2).
// The defender hits on 1-2 (NT 8.4): h hits with P(0) = 4/9, P(1) = 4/9, P(2) = 1/9, never all 3
// attackers; two attacker units lost take one die away (NT 8.4). The Crown hits on 1-3 (NT 8.5),
// a die hitting with 1/2. Defender losses L (at most its 2 units):
//   1 War Supply:  1 die unless h = 2 (then none): P(L >= 1) = 8/9 * 1/2 = 4/9, E[L] = 4/9.
//   2 War Supplies: 2 dice unless h = 2 (then 1): P(L >= 1) = 8/9 * 3/4 + 1/9 * 1/2 = 13/18,
//                   E[L] = 8/9 * 1 + 1/9 * 1/2 = 17/18.
TEST(SweepMetrics, FractionsWorkedByHandInJsonAndBothCsvs) {
  const std::string sweep =
      "nt sweep battle --attacker crown --terrain point --att-units 3 --def-units 2 --def-war 2 --vary att-war=1..2 "
      "--metric stats.defender_losses.at_least.1 --metric stats.defender_losses.mean";
  const std::vector<std::pair<std::string, double>> expected{
      {"4/9", 4.0 / 9}, {"4/9", 4.0 / 9}, {"13/18", 13.0 / 18}, {"17/18", 17.0 / 18}};
  const json doc = sm_json(sweep);
  const auto& points = doc.at("points");
  ASSERT_EQ(points.size(), expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i) {
    EXPECT_EQ(points[i].at("exact"), expected[i].first) << i;
    EXPECT_NEAR(points[i].at("value").get<double>(), expected[i].second, 1e-15) << i;
  }
  EXPECT_EQ(doc.at("method").at("work").at("text"), "2 points, each solved exactly");

  const std::string csv = ::testing::TempDir() + "sweep_fractions.csv";
  sm_out(sweep + " --csv " + csv);
  const auto file = sm_csv(slurp(csv));
  ASSERT_EQ(file.size(), expected.size() + 1);
  EXPECT_EQ(file[0],
            (std::vector<std::string>{"game", "command", "att-war", "metric", "value", "exact_num", "exact_den"}));
  for (std::size_t i = 0; i < expected.size(); ++i)
    EXPECT_EQ(file[i + 1][5] + "/" + file[i + 1][6], expected[i].first) << i;

  // --format csv: the fraction beside each point's value, never a row of its own ("4/9" would
  // read as a date in a spreadsheet).
  const auto long_rows = sm_csv(sm_out(sweep + " --format csv"));
  std::map<std::string, std::string> fraction;
  for (const auto& row : long_rows) {
    EXPECT_EQ(row[0].find(".exact"), std::string::npos) << row[0];
    if (row[0].rfind("points.", 0) == 0 && row.size() == 4 && !row[2].empty()) fraction[row[0]] = row[2] + "/" + row[3];
  }
  ASSERT_EQ(fraction.size(), expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i)
    EXPECT_EQ(fraction["points." + std::to_string(i) + ".value"], expected[i].first) << i;
}

TEST(SweepMetrics, ASimulatedSweepCarriesNoFraction) {
  const json doc = sm_json("nt sweep battle " + sm_battle + " --method sim --trials 2000 --vary att-war=3..4");
  for (const auto& p : doc.at("points")) {
    EXPECT_FALSE(p.contains("exact")) << p;
    EXPECT_TRUE(p.contains("low")) << p;
  }
}
