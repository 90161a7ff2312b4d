// End-to-end: `musket nt campaign` and `musket <game> sweep` through the built binary.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "run_musket.hpp"

namespace {

using nlohmann::json;

std::string temp(const std::string& name) {
  return ::testing::TempDir() + name;
}

std::vector<std::vector<std::string>> read_csv(const std::string& path) {
  std::vector<std::vector<std::string>> rows;
  std::istringstream in(slurp(path));
  std::string line;
  while (std::getline(in, line)) {
    std::vector<std::string> cells;
    std::string cell;
    std::istringstream l(line);
    while (std::getline(l, cell, ',')) cells.push_back(cell);
    rows.push_back(cells);
  }
  return rows;
}

// The value of `key` in a command's `--format csv` output.
std::string csv_value(const std::string& csv, const std::string& key) {
  std::istringstream in(csv);
  std::string line;
  while (std::getline(in, line))
    if (line.rfind(key + ",", 0) == 0) {
      const std::string rest = line.substr(key.size() + 1);
      return rest.substr(0, rest.find(','));
    }
  return "(missing)";
}

const std::string fixed_battle =
    "--attacker crown --terrain city --att-units 6 --att-leaders 1 --def-units 4 --def-leaders 1";

TEST(SweepCli, CsvEqualsIndividualCallsPointByPoint) {
  const std::string csv = temp("sweep_line.csv");
  const auto run = run_musket("nt sweep battle " + fixed_battle +
                              " --vary att-war=1..6 --vary def-war=0..2 --metric summary.attacker_victory"
                              " --metric outcomes.defender_retreats --csv " +
                              csv);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto rows = read_csv(csv);
  ASSERT_EQ(rows.size(), 1u + 6 * 3 * 2);
  EXPECT_EQ(rows[0], (std::vector<std::string>{"game", "command", "att-war", "def-war", "metric", "value", "exact_num",
                                               "exact_den"}));
  std::map<std::string, std::string> single;
  for (std::size_t i = 1; i < rows.size(); ++i) {
    const auto& r = rows[i];
    ASSERT_EQ(r.size(), 8u);
    const std::string args = r[2] + " " + r[3];
    if (!single.count(args)) {
      const auto one =
          run_musket("nt battle " + fixed_battle + " --att-war " + r[2] + " --def-war " + r[3] + " --format csv");
      ASSERT_EQ(one.exit_code, 0) << one.err;
      single[args] = one.out;
    }
    // The same double: the sweep writes the shortest decimal that reads back to it.
    EXPECT_EQ(std::stod(r[5]), std::stod(csv_value(single[args], r[4]))) << args << " " << r[4];
    // And the same fraction, split as the command's own CSV splits it.
    const auto line_start = single[args].find("\n" + r[4] + ",");
    ASSERT_NE(line_start, std::string::npos) << r[4];
    const std::string line =
        single[args].substr(line_start + 1, single[args].find('\n', line_start + 1) - line_start - 1);
    EXPECT_EQ(line, r[4] + "," + r[5] + "," + r[6] + "," + r[7]) << args;
  }
}

int count_marks(const std::string& svg_path, const std::string& tag, const std::string& cls) {
  // Parse as XML (python3's xml.etree) and count the marks of one class.
  const std::string cmd =
      "python3 -c \"import sys,xml.etree.ElementTree as E; r=E.parse(sys.argv[1]).getroot(); "
      "print(sum(1 for e in r.iter('{http://www.w3.org/2000/svg}" +
      tag + "') if e.get('class')=='" + cls + "'))\" " + svg_path;
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return -1;
  char buffer[64] = {0};
  const bool ok = std::fgets(buffer, sizeof buffer, p) != nullptr;
  const int status = pclose(p);
  return ok && status == 0 ? std::atoi(buffer) : -1;
}

TEST(SweepCli, LineChartIsXmlWithOnePointPerValue) {
  const std::string svg = temp("sweep_line.svg");
  const auto run = run_musket("nt sweep battle " + fixed_battle + " --def-war 2 --vary att-war=1..8 --plot " + svg +
                              " --format json");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const json doc = json::parse(run.out);
  EXPECT_EQ(doc["points"].size(), 8u);
  EXPECT_EQ(doc["inputs"]["metric"][0], "summary.attacker_victory");
  EXPECT_EQ(count_marks(svg, "circle", "point"), 8);
  EXPECT_EQ(count_marks(svg, "path", "series"), 1);
  const std::string text = slurp(svg);
  EXPECT_NE(text.find("Defender War 2"), std::string::npos);  // the subtitle names the fixed inputs by their labels
  // Human words, not keys: the metric's label in the title and legend, the option's on the axis.
  EXPECT_NE(text.find("<title>P(attacker victory) by Attacker War</title>"), std::string::npos);
  EXPECT_NE(text.find("class=\"legend-entry\" x="), std::string::npos);
  EXPECT_NE(text.find(">Attacker War</text>"), std::string::npos);
  EXPECT_EQ(text.find(">summary.attacker_victory<"), std::string::npos);
}

TEST(SweepCli, LabelsOverrideTheDefaultNames) {
  const std::string svg = temp("sweep_label.svg");
  auto run = run_musket("nt sweep battle " + fixed_battle + " --vary att-war=1..3 --plot " + svg +
                        " --metric summary.attacker_victory --label \"summary.attacker_victory=P(Crown wins)\""
                        " --label \"att-war=War committed\"");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const std::string text = slurp(svg);
  EXPECT_NE(text.find("class=\"legend-entry\""), std::string::npos);
  EXPECT_NE(text.find(">P(Crown wins)</text>"), std::string::npos);
  EXPECT_NE(text.find(">War committed</text>"), std::string::npos);
  // A label for no metric or parameter, or not KEY=TEXT: one line, exit 2, nothing written.
  for (const std::string bad : {"'summary.attacker_victroy=P(win)'", "att-war"}) {
    const std::string target = temp("sweep_bad_label.svg");
    std::remove(target.c_str());
    run = run_musket("nt sweep battle " + fixed_battle +
                     " --vary att-war=1..3 --metric summary.attacker_victory --plot " + target + " --label " + bad);
    EXPECT_EQ(run.exit_code, 2) << bad;
    EXPECT_NE(run.err.find("--label"), std::string::npos) << run.err;
    EXPECT_EQ(std::count(run.err.begin(), run.err.end(), '\n'), 1) << run.err;
    EXPECT_EQ(slurp(target), "");
  }
}

TEST(SweepCli, HeatMapHasOneCellPerGridPoint) {
  const std::string svg = temp("sweep_heat.svg");
  const auto run = run_musket(
      "ss sweep battle --attacker patriot --terrain point --def-units 3 --def-leaders 1"
      " --vary att-units=1..4 --vary att-war=1..5 --plot " +
      svg);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(count_marks(svg, "rect", "cell"), 20);
}

TEST(SweepCli, BadSweepsExitTwo) {
  auto run = run_musket("nt sweep battle " + fixed_battle + " --vary cannons=1..3");
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_NE(run.err.find("--vary"), std::string::npos);
  run = run_musket("nt sweep battle " + fixed_battle + " --vary att-war=1..3 --metric nothing.here");
  EXPECT_EQ(run.exit_code, 2);
  run = run_musket("nt sweep parley --vary att-war=1..3");
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_NE(run.err.find("parley"), std::string::npos);
}

TEST(CampaignCli, ExamplePlansRun) {
  for (const std::string game : {"nt", "ss"}) {
    const auto run =
        run_musket(game + " campaign --file " + MUSKET_EXAMPLES_DIR + "/" + game + "-campaign.json --format json");
    ASSERT_EQ(run.exit_code, 0) << run.err;
    const json doc = json::parse(run.out);
    EXPECT_EQ(doc["method"]["name"], "exact");
    EXPECT_GT(doc["steps"].size(), 3u);
    for (const auto& s : doc["steps"]) EXPECT_EQ(s["method"], "exact");
  }
}

TEST(CampaignCli, BadPlanNamesStepAndPath) {
  const std::string path = temp("bad_plan.json");
  std::ofstream(path) << R"({"side": "crown", "army": {"units": 4, "food": 4},
    "steps": [{"kind": "march"}, {"kind": "parley"}]})";
  const auto run = run_musket("nt campaign --file " + path);
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_NE(run.err.find("/steps/1/kind"), std::string::npos) << run.err;
  EXPECT_EQ(run.out, "");
}

// A Great Lakes plan with a turn step: CAP per side and who moves first in the JSON (values
// worked by hand in great_lakes_campaign_test.cpp); a bad field is one line naming file and path.
TEST(CampaignCli, GreatLakesTurnStepsReportCap) {
  const std::string path = temp("gl_turn_plan.json");
  const std::string armies = R"("armies": {"american": {"units": [{"name": "Scott", "type": "regular", "sp": 2,
      "max_sp": 4, "morale": 5, "dice": 4}]}, "british": {"units": [{"name": "Royal Scots", "type": "regular",
      "sp": 4, "morale": 5, "dice": 4}]}})";
  std::ofstream(path) << "{" << armies << R"(, "from_turn": 2, "steps": [{"kind": "turn", "turn": 2,
      "missions": {"british": {"ontario": "transport", "erie": "intercept"}, "american": {"erie": "supply"}},
      "replacements": {"american": 2}}]})";
  auto run = run_musket("gl campaign --file " + path + " --trials 2000 --format json");
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_NE(run.err.find(path + ": /steps/0/erie_dice"), std::string::npos) << run.err;
  EXPECT_EQ(std::count(run.err.begin(), run.err.end(), '\n'), 1) << run.err;
  run = run_musket("gl campaign --file " + path + " --trials 2000 --erie-dice 3,2 --format json");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const json doc = json::parse(run.out);
  ASSERT_EQ(doc["turns"].size(), 1u);
  const json& t = doc["turns"][0];
  EXPECT_EQ(t["british_missions"], "ontario=transport,erie=intercept");
  EXPECT_EQ(t["american_missions"], "ontario=transport,erie=supply");
  // Lake Erie, 3 British dice v 2 American (given): the British win with w; an American win lets
  // the supply mission through (+1 CAP, GL 7.5). American CAP 7 (1/3) or 8 (2/3), +1 with 1 - w.
  auto max_is = [](int n, int k) { return std::pow(k / 6.0, n) - std::pow((k - 1) / 6.0, n); };
  double b = 0, a = 0;
  for (int x = 1; x <= 6; ++x)
    for (int y = 1; y <= 6; ++y) {
      if (x > y) b += max_is(3, x) * max_is(2, y);
      if (y > x) a += max_is(3, x) * max_is(2, y);
    }
  const double w = b / (a + b);
  EXPECT_NEAR(t["mean_american_cap"].get<double>(), 23.0 / 3 + (1 - w), 1e-9);
  EXPECT_NEAR(t["mean_british_cap"].get<double>(), 8.5, 1e-9);
  // The Americans move first when A >= B: A = 8 + s (s = 1 on a won battle) against B = 8 or 9.
  const double first = (1 - w) * (1.0 / 3 * 0.5 + 2.0 / 3 * 1.0) + w * (2.0 / 3 * 0.5);
  EXPECT_NEAR(t["americans_first"].get<double>(), first, 1e-9);
  EXPECT_NEAR(t["british_first"].get<double>(), 1 - first, 1e-9);
  // 7+ CAP always buy the 2 SP wanted: the American unit is back to 4.
  EXPECT_DOUBLE_EQ(t["mean_american_replacement_sp"].get<double>(), 2.0);
}

// The README's example: the British supply on both lakes, the Americans intercept on Ontario
// (4 British dice v 3, GL 7.1) and supply on Erie; nobody intercepts on Erie, so both Erie supply
// missions succeed (+1 each). British CAP 7 + (1 or 2) + 1 + 2 when they win the Ontario battle
// (w); American 6 + (1: 1/3, 2: 2/3) + 1.
TEST(CampaignCli, GreatLakesCapExampleRuns) {
  const auto run = run_musket(std::string("gl campaign --file ") + MUSKET_EXAMPLES_DIR +
                              "/gl-campaign-cap.json --trials 2000 --format json");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const json doc = json::parse(run.out);
  ASSERT_EQ(doc["turns"].size(), 5u);
  auto max_is = [](int n, int k) { return std::pow(k / 6.0, n) - std::pow((k - 1) / 6.0, n); };
  double b = 0, a = 0;
  for (int x = 1; x <= 6; ++x)
    for (int y = 1; y <= 6; ++y) {
      if (x > y) b += max_is(4, x) * max_is(3, y);
      if (y > x) a += max_is(4, x) * max_is(3, y);
    }
  const double w = b / (a + b);
  for (const auto& t : doc["turns"]) {
    EXPECT_NEAR(t["mean_british_cap"].get<double>(), 8.5 + 1 + 2 * w, 1e-9);
    EXPECT_NEAR(t["mean_american_cap"].get<double>(), 23.0 / 3 + 1, 1e-9);
  }
}

// examples/gl-campaign-positions.json follows both armies (GL 12.6 across turns): the Americans
// start at Buffalo, Riall's army at Chippawa. Turn 10 Brown attacks Ft. Erie from Buffalo; turn 11
// Chippawa from Ft. Erie, so only where Ft. Erie was won (a winning army has survivors, and no war
// end comes before turn 14, GL 15.1); turn 14 Ft. George from Chippawa, only where Chippawa was won
// (nothing is fought in between); turn 16 Riall attacks Chippawa from Ft. George, where his army
// stands only if the Americans did not take Ft. George.
TEST(CampaignCli, GreatLakesPositionsExampleFollowsTheArmies) {
  constexpr int trials = 2000;
  const auto run = run_musket(std::string("gl campaign --file ") + MUSKET_EXAMPLES_DIR +
                              "/gl-campaign-positions.json --trials " + std::to_string(trials) + " --format json");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const json doc = json::parse(run.out);
  const json& steps = doc["steps"];
  ASSERT_EQ(steps.size(), 6u);
  auto count = [&](std::size_t step, const char* key) { return std::llround(steps[step][key].get<double>() * trials); };
  EXPECT_EQ(steps[0]["step"], "fort-erie");
  EXPECT_EQ(count(0, "fought"), trials) << "the Americans start where turn 10's attack comes from";
  EXPECT_EQ(count(1, "fought"), count(0, "attacker_wins"));
  EXPECT_LE(count(1, "fought") + count(1, "not_there"), trials);
  EXPECT_EQ(count(3, "fought"), count(1, "attacker_wins"));
  EXPECT_GT(count(3, "fought"), 0);
  EXPECT_GT(count(3, "attacker_wins"), 0);
  EXPECT_LT(count(3, "attacker_wins"), count(3, "fought"));
  // Riall counterattacks only from Ft. George, so never where the Americans took it.
  EXPECT_EQ(steps[4]["step"], "counterstroke");
  EXPECT_GT(count(4, "fought"), 0);
  EXPECT_LE(count(4, "fought"), count(3, "fought") - count(3, "attacker_wins"));
}

// GL 14.1 on the example: the Americans take nothing of the British (British VP is always 2, the
// example's control), so the British win exactly where the Americans score 2 (a tie) and lose
// where they score 3 or 4. In every format the win figures come with the margin's law.
TEST(CampaignCli, GreatLakesCampaignSaysWhoWinsTheGame) {
  constexpr int trials = 4000;
  const std::string args = std::string("gl campaign --file ") + MUSKET_EXAMPLES_DIR +
                           "/gl-campaign-positions.json --trials " + std::to_string(trials);
  auto run = run_musket(args + " --format json");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const json doc = json::parse(run.out);
  const json& summary = doc["summary"];
  auto count = [&](const json& p) { return std::llround(p.get<double>() * trials); };
  EXPECT_EQ(count(summary["british_automatic_victory"]) + count(summary["american_automatic_victory"]), 0);
  // GL 14.1: british_wins = P(ahead) + P(tied); american_wins = 1 - british_wins.
  EXPECT_EQ(count(summary["british_wins"]), count(summary["british_vp_ahead"]) + count(summary["vp_tied"]));
  EXPECT_EQ(count(summary["american_wins"]), trials - count(summary["british_wins"]));
  EXPECT_GT(count(summary["british_wins"]), 0);
  EXPECT_GT(count(summary["american_wins"]), 0);
  // The margin (British VP - American VP): sums to 1, P(margin > 0) = ahead, P(0) = tied.
  const json& margin = doc["british_vp_margin"];
  long long all = 0, above = 0, at_zero = 0;
  double mean = 0;
  for (auto it = margin.begin(); it != margin.end(); ++it) {
    const int m = std::stoi(it.key());
    all += count(it.value());
    if (m > 0) above += count(it.value());
    if (m == 0) at_zero += count(it.value());
    mean += m * it.value().get<double>();
  }
  EXPECT_EQ(all, trials);
  EXPECT_EQ(above, count(summary["british_vp_ahead"]));
  EXPECT_EQ(at_zero, count(summary["vp_tied"]));
  // British VP is 2 in every trial here, so the margin is 2 - American VP.
  ASSERT_EQ(doc["british_vp"][2], 1.0);
  EXPECT_NEAR(mean, 2 - summary["mean_american_vp"].get<double>(), 1e-12);
  EXPECT_NEAR(doc["stats"]["british_vp_margin"]["mean"].get<double>(), mean, 1e-12);
  EXPECT_TRUE(doc["intervals"].contains("summary.british_wins"));
  // GL 15.1's law is exact: the war ends after turn 14 on a 6 (1/6) and always after 20, (5/6)^3
  // (4/6)^3 = 125/729; at least turn 14 is certain, so its "at least" is exactly 1 and reads 100%.
  EXPECT_EQ(doc["exact"]["game_ends_after_turn"]["14"], "1/6");
  EXPECT_EQ(doc["exact"]["game_ends_after_turn"]["20"], "125/729");
  EXPECT_EQ(doc["exact"]["stats"]["game_ends_after_turn"]["at_least"]["14"], "1/1");
  // The table's headline names the winner first; the CSV has the same rows.
  run = run_musket(args, "COLUMNS=300");  // the headline on one line
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const std::size_t second = run.out.find('\n') + 1;
  const std::string headline = run.out.substr(second, run.out.find('\n', second) - second);
  EXPECT_EQ(headline.rfind("British win ", 0), 0u) << headline;
  EXPECT_NE(headline.find("a tie goes to the British"), std::string::npos) << headline;
  // The headline prints each figure with the summary row's own mark (here "-": never ahead).
  const std::size_t row = run.out.find("\n  british vp ahead ");
  ASSERT_NE(row, std::string::npos) << run.out;
  std::string mark = run.out.substr(row + 19, run.out.find('\n', row + 1) - row - 19);
  mark = mark.substr(mark.find_first_not_of(' '));
  mark = mark.substr(0, mark.find(' '));  // the value, without its interval
  EXPECT_NE(headline.find("British ahead on VP " + mark + ", tied"), std::string::npos) << headline << " / " << mark;
  EXPECT_NE(run.out.find("british vp margin"), std::string::npos);
  EXPECT_NE(run.out.find("\n  14   16.7%      100%  1/6 "), std::string::npos) << run.out;
  EXPECT_EQ(run.out.find(">99.9999%"), std::string::npos);
  run = run_musket(args + " --format csv");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(std::llround(std::stod(csv_value(run.out, "summary.british_wins")) * trials),
            count(summary["british_wins"]));
  EXPECT_NE(csv_value(run.out, "british_vp_margin.0"), "(missing)");
}

TEST(CampaignCli, SimulationReportsIntervals) {
  const auto run = run_musket(std::string("ss campaign --file ") + MUSKET_EXAMPLES_DIR +
                              "/ss-campaign.json --method sim --trials 20000 --format json");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const json doc = json::parse(run.out);
  EXPECT_EQ(doc["method"]["name"], "simulation");
  // Every step's probabilities have an interval at their dotted path, as {low, high, level}.
  for (std::size_t i = 0; i < doc["steps"].size(); ++i) {
    const auto& ci = doc["intervals"]["steps." + std::to_string(i) + ".reached"];
    EXPECT_LE(ci["low"].get<double>(), doc["steps"][i]["reached"].get<double>()) << i;
    EXPECT_GE(ci["high"].get<double>(), doc["steps"][i]["reached"].get<double>()) << i;
    EXPECT_EQ(ci["level"], 0.95);
  }
  EXPECT_TRUE(doc["intervals"].contains("end.completed_plan"));
  EXPECT_TRUE(doc["intervals"].contains("stats.final_state.units.mean"));
}

}  // namespace

namespace {

TEST(SiegeCli, ExactAndValidated) {
  auto run = run_musket("ss siege --food 2 --turns 4 --format json");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const json doc = json::parse(run.out);
  EXPECT_EQ(doc["exact"]["surrenders_on_turn"]["3"], "1/1");  // 2 Food: surrenders on turn 3
  // No resupply: 3 Food last turns 1-3 and the army surrenders at the end of turn 4 (SS 11.2,
  // 13.1), so it never holds out 12 turns. The headline prints the summary's own mark for that
  // ("-", an impossible outcome), and the chance reads "no resupply" / "0", never "0/1".
  run = run_musket("ss siege --food 3 --turns 12");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(run.out.substr(0, run.out.find("\n\n")),
            "Southern Strategy siege: 3 Food, no resupply\nholds out all 12 turns -; surrenders by turn 4 for certain");
  EXPECT_NE(run.out.find("\n  holds out all turns  -\n"), std::string::npos) << run.out;
  EXPECT_EQ(run.out.find("0/1"), std::string::npos);
  run = run_musket("ss siege --food 3 --turns 12 --format json");
  EXPECT_EQ(json::parse(run.out)["inputs"]["resupply"], "0");
  EXPECT_EQ(json::parse(run.out)["summary"]["holds_out_all_turns"], 0.0);
  // A chance that is not 0 keeps its fraction; P(holds out) is no longer impossible and reads as a
  // percentage in both places: (1/6 per turn, 3 Food, 10 turns) is in the README.
  run = run_musket("ss siege --food 3 --resupply 1/6 --turns 10");
  EXPECT_EQ(run.out.substr(0, run.out.find("\n\n")),
            "Southern Strategy siege: 3 Food, resupply chance 1/6 per turn\nholds out all 10 turns 0.027%");
  run = run_musket("ss siege --food 2 --resupply 3/2");
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_NE(run.err.find("--resupply"), std::string::npos);
  run = run_musket("ss navies --turns 4 --winter 9");
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_NE(run.err.find("--winter"), std::string::npos);
}

}  // namespace

namespace {

TEST(SweepCli, PngChartIsAPictureOfTheChartSize) {
  const std::string png = ::testing::TempDir() + "sweep_line.png";
  std::remove(png.c_str());
  const auto run = run_musket(
      "nt sweep battle --attacker crown --terrain point --att-units 4 --def-units 3"
      " --vary att-war=1..6 --plot " +
      png);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const std::string bytes = slurp(png);
  ASSERT_GT(bytes.size(), 33u);
  EXPECT_EQ(bytes.substr(1, 3), "PNG");
  auto be32 = [&](std::size_t at) {
    return (static_cast<unsigned char>(bytes[at]) << 24) | (static_cast<unsigned char>(bytes[at + 1]) << 16) |
           (static_cast<unsigned char>(bytes[at + 2]) << 8) | static_cast<unsigned char>(bytes[at + 3]);
  };
  // The same chart as SVG gives its size in CSS pixels; the PNG has twice as many each way.
  const std::string svg = temp("sweep_line_size.svg");
  ASSERT_EQ(run_musket("nt sweep battle --attacker crown --terrain point --att-units 4 --def-units 3"
                       " --vary att-war=1..6 --plot " +
                       svg)
                .exit_code,
            0);
  const std::string text = slurp(svg);
  const auto number_after = [&](const std::string& key) {
    const auto at = text.find(key, text.find("<svg"));
    return at == std::string::npos ? -1 : std::atoi(text.c_str() + at + key.size());
  };
  ASSERT_GT(number_after(" width=\""), 600);
  EXPECT_EQ(be32(16), 2u * number_after(" width=\""));  // IHDR width and height
  EXPECT_EQ(be32(20), 2u * number_after(" height=\""));
}

TEST(SweepCli, PdfChartIsAPdfAndOtherExtensionsAreRefusedBeforeAnyFile) {
  const std::string pdf = temp("sweep_heat.pdf");
  std::remove(pdf.c_str());
  auto run = run_musket(
      "nt sweep battle --attacker crown --terrain point --def-units 3 --vary att-units=1..3 --vary att-war=1..3"
      " --plot " +
      pdf);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(slurp(pdf).substr(0, 5), "%PDF-");
  for (const std::string bad : {"chart.gif", "chart", "chart.svg.txt"}) {
    const std::string target = temp(bad), csv = temp("refused_plot.csv");
    std::remove(target.c_str());
    std::remove(csv.c_str());
    run = run_musket(
        "nt sweep battle --attacker crown --terrain point --att-units 4 --def-units 3"
        " --vary att-war=1..6 --csv " +
        csv + " --plot " + target);
    EXPECT_EQ(run.exit_code, 2) << bad;
    EXPECT_EQ(run.err, "musket: --plot: '" + target + "': give FILE.svg, FILE.png or FILE.pdf\n");
    EXPECT_EQ(slurp(target), "") << bad;
    EXPECT_EQ(slurp(csv), "") << bad;  // nothing is written, not even the other output
  }
}

}  // namespace

namespace {

void write_file(const std::string& path, const std::string& text) {
  std::ofstream(path) << text;
}

// A bad plan is one line on stderr naming the file, the step's JSON path and what is allowed; exit 2.
TEST(CampaignCli, BadPlanIsOneLineNamingFileStepAndPath) {
  const std::string plan = temp("retry_plan.json");
  write_file(plan,
             R"({"side": "crown", "army": {"units": 3, "leaders": 1, "war": 4, "food": 3},
                 "steps": [{"kind": "attack", "terrain": "city", "war": 2, "enemy": {"units": 1},
                            "if_not_taken": {"retry": 99}}]})");
  const auto run = run_musket("nt campaign --file " + plan);
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_NE(run.err.find(plan + ": /steps/0/if_not_taken/retry"), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("allowed 0..12"), std::string::npos) << run.err;
  EXPECT_EQ(std::count(run.err.begin(), run.err.end(), '\n'), 1) << run.err;
  // A track that is not an object with --track-position is the file's fault, not a crash.
  const std::string bad_track = temp("bad_track_plan.json");
  write_file(bad_track, R"({"army": {"units": 3}, "track": 5, "steps": [{"kind": "march"}]})");
  const auto override_run = run_musket("nt campaign --file " + bad_track + " --track-position 3");
  EXPECT_EQ(override_run.exit_code, 2) << override_run.err;
  EXPECT_NE(override_run.err.find("track"), std::string::npos) << override_run.err;
}

// JSON: each attack reports taken and the outcome split, which sums to reached; the example's
// Albany attack is reached exactly when Ticonderoga was taken and the army marched on.
TEST(CampaignCli, AttackRowsReportTakenAndOutcomes) {
  const auto run = run_musket("nt campaign --file " MUSKET_EXAMPLES_DIR "/nt-campaign.json --format json");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const json doc = json::parse(run.out);
  for (const auto& row : doc.at("steps")) {
    if (!row.contains("outcomes")) continue;
    double sum = 0;
    for (const auto& [k, v] : row.at("outcomes").items()) sum += v.get<double>();
    EXPECT_NEAR(sum, row.at("reached").get<double>(), 1e-12) << row.at("step");
    EXPECT_LE(row.value("taken", 0.0), row.at("won").get<double>() + 1e-12) << row.at("step");
  }
  EXPECT_TRUE(doc.at("steps").at(1).contains("taken"));
  EXPECT_TRUE(doc.at("steps").at(3).contains("held"));
  EXPECT_TRUE(doc.at("end").contains("completed_plan"));
}

}  // namespace

namespace {

// `ar campaign --use`: the option set's net adjustment goes on every Game-Turn's goal; an illegal
// set is refused; an unknown-legality set runs and says so.
// Region control end to end (worked in revolution_campaign_test.cpp): 12C against 6B at 2:1 in New
// Jersey (8 VP) with 15 more British there keeps it British only after 1/2Ex (1/3); the lost 8 VP
// take the British from 30 to 22, under floor(51 / 2), so two later 2:1 attacks win 2/9.
TEST(CampaignCli, RevolutionRegionControlIsReported) {
  const std::string plan = temp("ar_regions.json");
  std::ofstream(plan) << json{{"game", "ar"},
                              {"british_vp", 30},
                              {"british_goal", 51},  // the plan's own, on every turn (1775's Errata goal is 41)
                              {"regions", {{{"name", "New Jersey"}, {"victory_points", 8}}}},
                              {"attacks",
                               {{{"id", "trenton"},
                                 {"turn", 1},
                                 {"attacker", "12C"},
                                 {"defender", "6B"},
                                 {"region", "New Jersey"},
                                 {"british_elsewhere", 15}},
                                {{"turn", 2}, {"attacker", "12C"}, {"defender", "6B"}},
                                {{"turn", 3}, {"attacker", "12C"}, {"defender", "6B"}}}}}
                             .dump();
  const auto run = run_musket("ar campaign --format json --file " + plan);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const json doc = json::parse(run.out);
  ASSERT_EQ(doc.at("region_control").size(), 1u);
  EXPECT_EQ(doc.at("region_control")[0].at("region"), "New Jersey");
  EXPECT_EQ(doc.at("exact").at("region_control")[0].at("british_control_min"), "1/3");
  EXPECT_EQ(doc.at("exact").at("summary").at("american_victory_min"), "2/9");
  const auto short_vp = run_musket("ar campaign --british-vp 7 --file " + plan);
  EXPECT_EQ(short_vp.exit_code, 2);
  EXPECT_NE(short_vp.err.find("--british-vp"), std::string::npos) << short_vp.err;
}

TEST(CampaignCli, RevolutionOptionSetsSetTheGoal) {
  const std::string plan = " --file " MUSKET_EXAMPLES_DIR "/ar-campaign.json --format json";
  const auto used = run_musket("ar campaign --use D,H" + plan);
  ASSERT_EQ(used.exit_code, 0) << used.err;
  const json doc = json::parse(used.out);
  const json& options = doc.at("options");
  EXPECT_EQ(options.at("legality"), "legal");
  EXPECT_EQ(options.at("net_adjustment"), 12);  // D +9, H +3
  // The Errata's goal by period plus 12: Trenton (turn 8, Winter 1776) 41 + 12, Brandywine (turn
  // 11, Fall 1777) 51 + 12.
  EXPECT_EQ(doc.at("attacks")[0].at("date"), "Winter 1776");
  EXPECT_EQ(doc.at("attacks")[0].at("british_goal"), 53);
  EXPECT_EQ(doc.at("attacks")[2].at("date"), "Fall 1777");
  EXPECT_EQ(doc.at("attacks")[2].at("british_goal"), 63);
  // D and H change no force in play: each is reported as not applied, never pretended.
  for (const auto& f : options.at("forces")) EXPECT_FALSE(f.at("applied").get<bool>()) << f;
  // A goal stated for every turn takes the Errata's place; --use still adds its net adjustment.
  const auto stated = run_musket("ar campaign --british-goal 51 --use D,H" + plan);
  ASSERT_EQ(stated.exit_code, 0) << stated.err;
  const json s = json::parse(stated.out);
  for (const auto& a : s.at("attacks")) EXPECT_EQ(a.at("british_goal"), 63) << a;
  EXPECT_NE(s.at("notes").dump().find("--british-goal 51 +12"), std::string::npos) << s.at("notes");

  const auto illegal = run_musket("ar campaign --use A,B" + plan);
  EXPECT_EQ(illegal.exit_code, 2);
  EXPECT_NE(illegal.err.find("--use"), std::string::npos) << illegal.err;
  EXPECT_NE(illegal.err.find("A-B"), std::string::npos) << illegal.err;

  // C-K: incompatible by the transcription note under the chart (data/ar/options.json).
  const auto ck = run_musket("ar campaign --use C,K" + plan);
  EXPECT_EQ(ck.exit_code, 2) << ck.err;
  // D-E: a pair the transcribed chart does not settle: the campaign runs and says so.
  const auto unknown = run_musket("ar campaign --use D,E" + plan);
  ASSERT_EQ(unknown.exit_code, 0) << unknown.err;
  const json u = json::parse(unknown.out);
  EXPECT_EQ(u.at("options").at("legality"), "unknown");
  EXPECT_FALSE(u.at("options").at("reasons").empty());
  EXPECT_NE(u.at("notes").dump().find("legality is unknown"), std::string::npos);
}

// The Errata's goals by period (41 for 1775-1776, 51 for 1777-1778, 61 for 1779-1783) in the
// example, whose attacks run from Winter 1776 (turn 8) to Summer 1778 (turn 14), judged through
// last_turn 16 (Winter 1778): two spans, each with half the goal after two Major Successes.
TEST(CampaignCli, RevolutionGoalsFollowThePeriods) {
  const auto run = run_musket("ar campaign --format json --file " MUSKET_EXAMPLES_DIR "/ar-campaign.json");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const json doc = json::parse(run.out);
  const json& goals = doc.at("goals");
  ASSERT_EQ(goals.size(), 2u);
  const int from[] = {8, 9}, to[] = {8, 16}, goal[] = {41, 51};
  for (std::size_t i = 0; i < 2; ++i) {
    EXPECT_EQ(goals[i].at("from_turn"), from[i]);
    EXPECT_EQ(goals[i].at("to_turn"), to[i]);
    EXPECT_EQ(goals[i].at("goal"), goal[i]);
    EXPECT_EQ(goals[i].at("after_two_major_successes"), goal[i] / 2);
  }
  EXPECT_EQ(goals[0].at("from"), "Winter 1776");
  EXPECT_EQ(goals[1].at("to"), "Winter 1778");
  EXPECT_NE(doc.at("notes").dump().find("the Errata's by period"), std::string::npos);
  // The British hold 22, short of every goal: they never win.
  EXPECT_EQ(doc.at("summary").at("british_victory_max"), 0.0);
}

// --use G: every attack's Militia and Tories a third smaller, the loss rounded up (Option G).
// 15M,8C against 3T,8B (23 v 11, 2:1) becomes 10M,8C against 2T,8B (18 v 10, 1:1), as
// `ar options --battle` shows; the option is reported applied, with the attack it changed.
TEST(CampaignCli, RevolutionOptionGChangesThePlansBattles) {
  const std::string plan = temp("ar_g.json");
  std::ofstream(plan) << json{{"game", "ar"},
                              {"british_vp", 30},
                              {"attacks", {{{"id", "a"}, {"turn", 9}, {"attacker", "15M,8C"}, {"defender", "3T,8B"}}}}}
                             .dump();
  const auto plain = run_musket("ar campaign --format json --file " + plan);
  ASSERT_EQ(plain.exit_code, 0) << plain.err;
  EXPECT_EQ(json::parse(plain.out).at("attacks")[0].at("odds"), "2:1");
  const auto g = run_musket("ar campaign --use G --format json --file " + plan);
  ASSERT_EQ(g.exit_code, 0) << g.err;
  const json doc = json::parse(g.out);
  EXPECT_EQ(doc.at("attacks")[0].at("odds"), "1:1");
  const json& forces = doc.at("options").at("forces");
  ASSERT_EQ(forces.size(), 1u);
  EXPECT_TRUE(forces[0].at("applied").get<bool>());
  EXPECT_EQ(forces[0].at("attacks_changed")[0], "a: 8C,15M v 8B,3T -> 8C,10M v 8B,2T");
  // The same battle written with G's forces gives the same answer.
  const std::string by_hand = temp("ar_g_by_hand.json");
  std::ofstream(by_hand) << json{{"game", "ar"},
                                 {"british_vp", 30},
                                 {"attacks",
                                  {{{"id", "a"}, {"turn", 9}, {"attacker", "10M,8C"}, {"defender", "2T,8B"}}}}}
                                .dump();
  const auto hand = run_musket("ar campaign --format json --file " + by_hand);
  ASSERT_EQ(hand.exit_code, 0) << hand.err;
  EXPECT_EQ(json::parse(hand.out).at("summary"), doc.at("summary"));
  // K would leave 4C against 8B: no combat (the attacker may not have fewer points), one line.
  const std::string french = temp("ar_k.json");
  std::ofstream(french) << json{{"game", "ar"},
                                {"attacks", {{{"id", "b"}, {"turn", 9}, {"attacker", "6F,4C"}, {"defender", "8B"}}}}}
                               .dump();
  const auto k = run_musket("ar campaign --use K --file " + french);
  EXPECT_EQ(k.exit_code, 2);
  EXPECT_EQ(std::count(k.err.begin(), k.err.end(), '\n'), 1) << k.err;
  EXPECT_NE(k.err.find("--use"), std::string::npos) << k.err;
}

// NT 5.5: an army carries at most 1 + its Units in Supplies (Leaders do not count). 6 Units setting
// out with 8 War and 6 Food (14) are over the limit of 7: the answer says so in its verdict, its
// notes and `carrying`; 6 Units with 4 and 3 (7) are within it and nothing is said.
TEST(CampaignCli, AnArmyCarriesAtMostOnePlusItsUnits) {
  const std::string plan = temp("nt_carry.json");
  std::ofstream(plan) << json{{"game", "nt"},
                              {"army", {{"units", 6}, {"leaders", 1}, {"war", 8}, {"food", 6}}},
                              {"steps", {{{"kind", "march"}}}}}
                             .dump();
  const auto run = run_musket("nt campaign --format json --file " + plan);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const json doc = json::parse(run.out);
  EXPECT_EQ(doc.at("carrying"), (json{{"supplies", 14}, {"limit", 7}, {"within_limit", false}}));
  EXPECT_NE(doc.at("notes")[0].get<std::string>().find("8 War + 6 Food = 14 Supplies"), std::string::npos)
      << doc.at("notes");
  EXPECT_NE(doc.at("notes")[0].get<std::string>().find("at most 1 + Units = 7 (NT 5.5)"), std::string::npos)
      << doc.at("notes");
  // A terminal wide enough that the verdict stays on one line (tables fit COLUMNS).
  const auto table = run_musket("nt campaign --file " + plan, "COLUMNS=300");
  EXPECT_NE(table.out.find("the army sets out with 14 Supplies, over the 7 it can carry (NT 5.5"), std::string::npos)
      << table.out;
  const auto fits = run_musket("nt campaign --army-war 4 --army-food 3 --format json --file " + plan);
  ASSERT_EQ(fits.exit_code, 0) << fits.err;
  const json ok = json::parse(fits.out);
  EXPECT_EQ(ok.at("carrying").at("within_limit"), true);
  EXPECT_EQ(ok.at("notes").dump().find("sets out with"), std::string::npos) << ok.at("notes");
}

// NT 11.2: the marker hitting the Treaty of Alliance ends the game in a Patriot Victory. A Patriot
// attack at a Point with 1 unit, 1 leader and 1 War against 2 units: the one die hits on 1-2
// (1/3), leaving 2 against 1, a Victory (+1); a miss leaves 2 against 2, a tie to the defender.
// From space 9 of a track ending at 10 the Treaty is reached exactly when the attack wins: 1/3.
TEST(CampaignCli, TheTreatyOfAllianceEndsTheGame) {
  const auto run = run_musket(
      "nt battle --attacker patriot --terrain point --att-units 1 --att-leaders 1 --att-war 1 --def-units 2 "
      "--def-leaders 0 --def-war 0 --track-position 9 --track-highest 10 --format json");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const json doc = json::parse(run.out);
  EXPECT_EQ(doc.at("exact").at("treaty_of_alliance"), "1/3");
  EXPECT_NE(doc.at("notes").dump().find("Patriot Victory (NT 11.2"), std::string::npos) << doc.at("notes");
  const auto table = run_musket(
      "nt battle --attacker patriot --terrain point --att-units 1 --att-leaders 1 --att-war 1 --def-units 2 "
      "--def-leaders 0 --def-war 0 --track-position 9 --track-highest 10",
      "COLUMNS=300");  // the headline on one line
  EXPECT_NE(table.out.find("Treaty of Alliance reached 33.3%: the game ends"), std::string::npos) << table.out;
  // Without the track's end there is no Treaty to report.
  const auto open = run_musket(
      "nt battle --attacker patriot --terrain point --att-units 1 --att-leaders 1 --att-war 1 --def-units 2 "
      "--def-leaders 0 --def-war 0 --track-position 9 --format json");
  ASSERT_EQ(open.exit_code, 0) << open.err;
  EXPECT_FALSE(json::parse(open.out).contains("treaty_of_alliance"));
}

}  // namespace
