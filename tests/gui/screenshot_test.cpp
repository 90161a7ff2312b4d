// The dashboard as a person sees it: `musket-gui --screenshot` under Xvfb with Mesa's software
// OpenGL, for every tab. Each picture must be a real one (its size, many colours, different from
// the other tabs), and a scenario loaded into the Northern Theater tab must give, in
// --dump-results, the headline numbers `musket nt battle --format json` prints for that battle.
// Without Xvfb or an OpenGL 3.3 context the display tests are skipped with the reason.
#include <gtest/gtest.h>
#include <stb_image.h>
#include <sys/wait.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>

namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

const fs::path out_dir = fs::path(MUSKET_TEST_OUTPUT) / "screenshots";

struct result {
  int code = -1;
  std::string out, err;
};

std::string read_text(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string quoted(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

result run_command(const std::string& command, const std::string& name) {
  fs::create_directories(out_dir);
  const fs::path out = out_dir / (name + ".stdout"), err = out_dir / (name + ".stderr");
  const int status = std::system((command + " >" + quoted(out.string()) + " 2>" + quoted(err.string())).c_str());
  result r;
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.out = read_text(out);
  r.err = read_text(err);
  return r;
}

// Runs musket-gui under xvfb-run. Returns false (and the reason) when no display can be had.
bool run_gui(const std::string& args, const std::string& name, result& r, std::string& why_not,
             const std::string& environment = "", const std::string& screen = "1600x1000") {
  const std::string xvfb = MUSKET_XVFB_RUN;
  if (xvfb.empty()) {
    why_not = "xvfb-run is not installed: no display for the screenshot tests";
    return false;
  }
  r = run_command(
      environment + quoted(xvfb) + " -a -s '-screen 0 " + screen + "x24' " + quoted(MUSKET_GUI_BINARY) + " " + args,
      name);
  if (r.code == 3) {
    why_not = "no OpenGL 3.3 context under Xvfb: " + r.err;
    return false;
  }
  if (r.err.find("Xvfb failed to start") != std::string::npos || r.err.find("xvfb-run: error") != std::string::npos) {
    why_not = "Xvfb could not start: " + r.err;
    return false;
  }
  return true;
}

struct picture {
  int width = 0, height = 0;
  std::vector<unsigned char> rgb;
};

picture load_png(const fs::path& p) {
  picture pic;
  int channels = 0;
  unsigned char* data = stbi_load(p.string().c_str(), &pic.width, &pic.height, &channels, 3);
  if (!data) return pic;
  pic.rgb.assign(data, data + static_cast<std::size_t>(pic.width) * pic.height * 3);
  stbi_image_free(data);
  return pic;
}

std::size_t distinct_colours(const picture& p) {
  std::set<unsigned> colours;
  for (std::size_t i = 0; i + 2 < p.rgb.size(); i += 3)
    colours.insert(unsigned(p.rgb[i]) << 16 | unsigned(p.rgb[i + 1]) << 8 | p.rgb[i + 2]);
  return colours.size();
}

// Fraction of pixels that differ between two pictures of the same size.
double difference(const picture& a, const picture& b) {
  if (a.rgb.size() != b.rgb.size() || a.rgb.empty()) return 1.0;
  std::size_t differ = 0;
  for (std::size_t i = 0; i < a.rgb.size(); i += 3)
    differ += a.rgb[i] != b.rgb[i] || a.rgb[i + 1] != b.rgb[i + 1] || a.rgb[i + 2] != b.rgb[i + 2];
  return static_cast<double>(differ) / static_cast<double>(a.rgb.size() / 3);
}

void expect_real_picture(const picture& p, const std::string& what, int width = 1280, int height = 800) {
  EXPECT_EQ(p.width, width) << what;
  EXPECT_EQ(p.height, height) << what;
  // Text, bars and charts: far more than a blank or single-colour frame.
  EXPECT_GT(distinct_colours(p), 100u) << what;
  // Not mostly background: the widest single colour covers under 90% of the picture.
  std::map<unsigned, std::size_t> counts;
  for (std::size_t i = 0; i + 2 < p.rgb.size(); i += 3)
    ++counts[unsigned(p.rgb[i]) << 16 | unsigned(p.rgb[i + 1]) << 8 | p.rgb[i + 2]];
  std::size_t most = 0;
  for (const auto& [c, n] : counts) most = std::max(most, n);
  EXPECT_LT(static_cast<double>(most), 0.9 * static_cast<double>(p.width) * p.height) << what;
}

class TabScreenshot : public ::testing::TestWithParam<std::string> {};

TEST_P(TabScreenshot, IsARealPicture) {
  const std::string tab = GetParam();
  const fs::path png = out_dir / ("tab-" + tab + ".png"), dump = out_dir / ("tab-" + tab + ".json");
  fs::create_directories(out_dir);
  fs::remove(png);
  result r;
  std::string why_not;
  if (!run_gui("--screenshot " + quoted(png.string()) + " --tab " + tab + " --dump-results " + quoted(dump.string()),
               "tab-" + tab, r, why_not))
    GTEST_SKIP() << why_not;
  ASSERT_EQ(r.code, 0) << r.err;
  expect_real_picture(load_png(png), tab);
  const json d = json::parse(read_text(dump));
  EXPECT_EQ(d.at("tab"), tab);
  // Every game's engine is in this build: its tab shows a result, not "not built yet".
  if (d.at("built").get<bool>()) {
    EXPECT_TRUE(d.at("ok").get<bool>()) << d.dump(2);
  }
}

INSTANTIATE_TEST_SUITE_P(EveryTab, TabScreenshot, ::testing::Values("nt", "ss", "ar", "gl"));

TEST(GuiScreenshot, TabsDifferFromEachOther) {
  std::map<std::string, picture> pictures;
  for (const std::string tab : {"nt", "ss", "ar", "gl"}) {
    const fs::path png = out_dir / ("differ-" + tab + ".png");
    result r;
    std::string why_not;
    if (!run_gui("--screenshot " + quoted(png.string()) + " --tab " + tab, "differ-" + tab, r, why_not))
      GTEST_SKIP() << why_not;
    ASSERT_EQ(r.code, 0) << r.err;
    pictures[tab] = load_png(png);
  }
  for (auto a = pictures.begin(); a != pictures.end(); ++a)
    for (auto b = std::next(a); b != pictures.end(); ++b)
      EXPECT_GT(difference(a->second, b->second), 0.02) << a->first << " v " << b->first;
}

TEST(GuiScreenshot, ScenarioGivesTheCliHeadline) {
  // A battle unlike the panel's starting one, so loading is what sets it.
  const fs::path scenario = out_dir / "patriot-fort.json";
  fs::create_directories(out_dir);
  std::ofstream(scenario) << R"({"game": "nt", "command": "battle", "attacker": "patriot", "terrain": "fort",
    "att-units": 7, "att-leaders": 1, "att-war": 6, "def-units": 3, "def-leaders": 1, "def-war": 2, "dug-in": true})";
  const fs::path png = out_dir / "scenario.png", dump = out_dir / "scenario.json";
  result gui;
  std::string why_not;
  if (!run_gui("--screenshot " + quoted(png.string()) + " --scenario " + quoted(scenario.string()) +
                   " --dump-results " + quoted(dump.string()),
               "scenario", gui, why_not))
    GTEST_SKIP() << why_not;
  ASSERT_EQ(gui.code, 0) << gui.err;
  const result cli = run_command(std::string(quoted(MUSKET_BINARY)) +
                                     " nt battle --attacker patriot --terrain fort --att-units 7 --att-leaders 1"
                                     " --att-war 6 --def-units 3 --def-leaders 1 --def-war 2 --dug-in --format json",
                                 "scenario-cli");
  ASSERT_EQ(cli.code, 0) << cli.err;
  const json expected = json::parse(cli.out);
  const json got = json::parse(read_text(dump));
  EXPECT_EQ(got.at("tab"), "nt");
  EXPECT_EQ(got.at("command"), "battle");
  ASSERT_TRUE(got.at("ok").get<bool>()) << got.dump(2);
  const json& report = got.at("report");
  const double cli_dislodged = expected.at("summary").at("defender_dislodged").get<double>();
  EXPECT_GT(cli_dislodged, 0.0);
  EXPECT_LT(cli_dislodged, 1.0);
  EXPECT_EQ(report.at("summary").at("defender_dislodged").get<double>(), cli_dislodged);
  EXPECT_EQ(report.at("exact").at("defender_dislodged"), expected.at("exact").at("defender_dislodged"));
  EXPECT_EQ(report.at("outcomes"), expected.at("outcomes"));
  EXPECT_EQ(report.at("attacker_losses"), expected.at("attacker_losses"));
  expect_real_picture(load_png(png), "scenario");
}

// The Sweep panel: a scenario sweeping the attacker's War in a Northern Theater battle. The
// dashboard runs the CLI's own sweep: every point's value in --dump-results equals what
// `musket nt sweep battle ... --format csv` prints, and the line chart is a real picture unlike
// the Northern Theater tab's first panel. A second parameter turns it into a heat map.
TEST(GuiScreenshot, SweepPanelShowsTheCliSweep) {
  const fs::path scenario = out_dir / "sweep.json", heat_scenario = out_dir / "sweep-heat.json";
  fs::create_directories(out_dir);
  const std::string fixed = R"("attacker": "crown", "terrain": "city", "att-units": "6", "att-leaders": "1",
    "def-units": "4", "def-leaders": "1", "def-war": "3")";
  std::ofstream(scenario) << R"({"game": "nt", "command": "sweep", "sweep": "battle", "vary": "att-war=1..8",
    "metric": "summary.defender_dislodged", )"
                          << fixed << "}";
  std::ofstream(heat_scenario) << R"({"game": "nt", "command": "sweep", "sweep": "battle",
    "vary": "att-war=1..8;att-units=2..9", "metric": "summary.defender_dislodged", )"
                               << R"("attacker": "crown", "terrain": "city", "def-units": "4", "def-war": "3"})";
  const fs::path png = out_dir / "sweep.png", dump = out_dir / "sweep-dump.json", heat = out_dir / "sweep-heat.png",
                 tab = out_dir / "sweep-tab-nt.png";
  result gui;
  std::string why_not;
  if (!run_gui("--screenshot " + quoted(png.string()) + " --scenario " + quoted(scenario.string()) +
                   " --dump-results " + quoted(dump.string()),
               "sweep", gui, why_not))
    GTEST_SKIP() << why_not;
  ASSERT_EQ(gui.code, 0) << gui.err;
  const result cli = run_command(std::string(quoted(MUSKET_BINARY)) +
                                     " nt sweep battle --attacker crown --terrain city --att-units 6 --att-leaders 1"
                                     " --def-units 4 --def-leaders 1 --def-war 3 --vary att-war=1..8"
                                     " --metric summary.defender_dislodged --format csv",
                                 "sweep-cli");
  ASSERT_EQ(cli.code, 0) << cli.err;
  // The CLI's rows: points.K.att-war,V,  and  points.K.value,P,
  std::map<int, std::string> war, value;
  std::istringstream lines(cli.out);
  for (std::string line; std::getline(lines, line);) {
    int k = -1;
    char field[64] = {0}, rest[128] = {0};
    if (std::sscanf(line.c_str(), "points.%d.%63[^,],%127[^,]", &k, field, rest) == 3) {
      if (std::string(field) == "att-war") war[k] = rest;
      if (std::string(field) == "value") value[k] = rest;
    }
  }
  ASSERT_EQ(value.size(), 8u) << cli.out;
  const json got = json::parse(read_text(dump));
  EXPECT_EQ(got.at("command"), "sweep");
  ASSERT_TRUE(got.at("ok").get<bool>()) << got.dump(2);
  const json& points = got.at("report").at("points");
  ASSERT_EQ(points.size(), 8u);
  for (std::size_t k = 0; k < points.size(); ++k) {
    EXPECT_EQ(std::to_string(points[k].at("att-war").get<int>()), war[static_cast<int>(k)]);
    // The same double: the CLI's CSV prints the shortest decimal that reads back as it.
    EXPECT_EQ(std::stod(value[static_cast<int>(k)]), points[k].at("value").get<double>()) << "point " << k;
  }
  // More War never lowers the Crown's chance here, and it does rise (a real curve, not a constant).
  EXPECT_LT(points[0].at("value").get<double>(), points[7].at("value").get<double>());
  const picture line = load_png(png);
  expect_real_picture(line, "sweep line chart");
  ASSERT_TRUE(run_gui("--screenshot " + quoted(tab.string()) + " --tab nt", "sweep-tab", gui, why_not)) << why_not;
  ASSERT_EQ(gui.code, 0) << gui.err;
  EXPECT_GT(difference(line, load_png(tab)), 0.02) << "the sweep panel looks like the battle panel";
  ASSERT_TRUE(run_gui("--screenshot " + quoted(heat.string()) + " --scenario " + quoted(heat_scenario.string()),
                      "sweep-heat", gui, why_not))
      << why_not;
  ASSERT_EQ(gui.code, 0) << gui.err;
  const picture map = load_png(heat);
  expect_real_picture(map, "sweep heat map");
  EXPECT_GT(difference(line, map), 0.02) << "the heat map looks like the line chart";
}

// A sweep scenario naming an input the calculator does not have: exit 2 and one line naming it.
TEST(GuiCommandLine, BadSweepScenarioExitsTwo) {
  const fs::path scenario = out_dir / "bad-sweep.json";
  fs::create_directories(out_dir);
  std::ofstream(scenario) << R"({"game": "nt", "command": "sweep", "sweep": "battle", "vary": "cannons=1..3"})";
  const result r =
      run_command(std::string(quoted(MUSKET_GUI_BINARY)) + " --screenshot " +
                      quoted((out_dir / "bad-sweep.png").string()) + " --scenario " + quoted(scenario.string()),
                  "bad-sweep");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("cannons=1..3"), std::string::npos) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
}

TEST(GuiScreenshot, ExportWritesTheResultsPanelAlone) {
  const fs::path png = out_dir / "export-window.png", panel = out_dir / "export-panel.png";
  fs::create_directories(out_dir);
  fs::remove(panel);
  result r;
  std::string why_not;
  if (!run_gui("--screenshot " + quoted(png.string()) + " --tab ss --export-panel " + quoted(panel.string()), "export",
               r, why_not))
    GTEST_SKIP() << why_not;
  ASSERT_EQ(r.code, 0) << r.err;
  const picture p = load_png(panel);
  // The right-hand panel: narrower and shorter than the window, wider than the inputs column.
  EXPECT_GT(p.width, 600);
  EXPECT_LT(p.width, 1280);
  EXPECT_GT(p.height, 400);
  EXPECT_LT(p.height, 800);
  EXPECT_GT(distinct_colours(p), 50u);
}

TEST(GuiScreenshot, CommitmentHeatMapScenario) {
  const fs::path scenario = out_dir / "commit.json";
  fs::create_directories(out_dir);
  std::ofstream(scenario) << R"({"game": "ss", "command": "commit", "attacker": "crown", "terrain": "city",
    "att-units": 5, "att-leaders": 1, "def-units": 4, "def-leaders": 1, "att-war-available": 10,
    "def-war-available": 6, "crown-commander": true})";
  const fs::path png = out_dir / "commit.png", dump = out_dir / "commit-dump.json";
  result gui;
  std::string why_not;
  if (!run_gui("--screenshot " + quoted(png.string()) + " --scenario " + quoted(scenario.string()) +
                   " --dump-results " + quoted(dump.string()),
               "commit", gui, why_not))
    GTEST_SKIP() << why_not;
  ASSERT_EQ(gui.code, 0) << gui.err;
  const json got = json::parse(read_text(dump));
  ASSERT_TRUE(got.at("ok").get<bool>()) << got.dump(2);
  EXPECT_EQ(got.at("tab"), "ss");
  EXPECT_EQ(got.at("report").at("matrix").size(), got.at("report").at("rows").size());
  EXPECT_GE(got.at("report").at("best").at("att_war").get<int>(), 1);
  expect_real_picture(load_png(png), "commit");
}

TEST(GuiScreenshot, SimulatedBattleFinishesBeforeThePicture) {
  const fs::path scenario = out_dir / "sim.json";
  fs::create_directories(out_dir);
  std::ofstream(scenario) << R"({"game": "nt", "command": "battle", "attacker": "crown", "terrain": "point",
    "att-units": 4, "att-leaders": 1, "att-war": 3, "def-units": 3, "def-leaders": 0, "def-war": 1,
    "method": "sim", "trials": 50000, "seed": 7})";
  const fs::path png = out_dir / "sim.png", dump = out_dir / "sim-dump.json";
  result gui;
  std::string why_not;
  if (!run_gui("--screenshot " + quoted(png.string()) + " --scenario " + quoted(scenario.string()) +
                   " --dump-results " + quoted(dump.string()),
               "sim", gui, why_not))
    GTEST_SKIP() << why_not;
  ASSERT_EQ(gui.code, 0) << gui.err;
  const json got = json::parse(read_text(dump));
  ASSERT_TRUE(got.at("ok").get<bool>()) << got.dump(2);
  const json& report = got.at("report");
  EXPECT_EQ(report.at("method").at("trials"), 50000);
  // The same seed and trials give the CLI's simulated numbers exactly.
  const result cli = run_command(std::string(quoted(MUSKET_BINARY)) +
                                     " nt battle --attacker crown --terrain point --att-units 4 --att-leaders 1"
                                     " --att-war 3 --def-units 3 --def-leaders 0 --def-war 1 --method sim"
                                     " --trials 50000 --seed 7 --format json",
                                 "sim-cli");
  ASSERT_EQ(cli.code, 0) << cli.err;
  json expected = json::parse(cli.out);
  expected.at("method").erase("work");  // the time `musket` measured
  // Which options were left at their defaults differs (this line spells out both leader counts);
  // every number, intervals included, is the same.
  json got_report = report;
  got_report.erase("defaults");
  expected.erase("defaults");
  EXPECT_EQ(got_report, expected);
}

TEST(GuiScreenshot, IllegalBattleShowsTheCliMessage) {
  const fs::path scenario = out_dir / "illegal.json";
  fs::create_directories(out_dir);
  std::ofstream(scenario) << R"({"game": "nt", "command": "battle", "terrain": "point", "dug-in": true})";
  const fs::path png = out_dir / "illegal.png", dump = out_dir / "illegal-dump.json";
  result gui;
  std::string why_not;
  if (!run_gui("--screenshot " + quoted(png.string()) + " --scenario " + quoted(scenario.string()) +
                   " --dump-results " + quoted(dump.string()),
               "illegal", gui, why_not))
    GTEST_SKIP() << why_not;
  ASSERT_EQ(gui.code, 0) << gui.err;
  const json got = json::parse(read_text(dump));
  EXPECT_FALSE(got.at("ok").get<bool>());
  const result cli = run_command(std::string(quoted(MUSKET_BINARY)) +
                                     " nt battle --attacker crown --terrain point --att-units 6 --att-leaders 1"
                                     " --att-war 5 --def-units 4 --def-leaders 1 --def-war 3 --dug-in",
                                 "illegal-cli");
  EXPECT_EQ(cli.code, 2);
  // The CLI prints "musket: --dug-in: ..."; the window shows the same words.
  EXPECT_EQ("musket: " + got.at("error").get<std::string>() + "\n", cli.err);
  expect_real_picture(load_png(png), "illegal");
}

// Every calculator of every tab drawn with its starting inputs, in one run: nothing crashes, and
// each either shows a result or the calc layer's message.
TEST(GuiScreenshot, EveryCalculatorDrawsWithoutCrashing) {
  const fs::path png = out_dir / "visit-all.png";
  fs::create_directories(out_dir);
  result r;
  std::string why_not;
  const fs::path dump = out_dir / "visit-all.json";
  if (!run_gui("--screenshot " + quoted(png.string()) + " --visit-all --check-overlap --tab nt --dump-results " +
                   quoted(dump.string()),
               "visit-all", r, why_not))
    GTEST_SKIP() << why_not;
  ASSERT_EQ(r.code, 0) << r.err;
  const json got = json::parse(read_text(dump));
  EXPECT_GE(got.at("panels").get<int>(), 18);  // nt and ss alone have 8 + 10
  EXPECT_EQ(got.at("panels_computed"), got.at("panels"));
  // Every panel's top: no label over a bar or another label (see EverySize for the bottoms).
  EXPECT_EQ(got.at("overlaps"), json::array()) << got.at("overlaps").dump(2);
  // No label cut short ("P(British strategy ontari..."): each is wrapped or given its room.
  EXPECT_EQ(got.at("truncated"), json::array()) << got.at("truncated").dump(2);
  expect_real_picture(load_png(png), "after visiting every calculator");
}

// Every calculator of every tab, with each method it offers (exact, sim, auto), at three window
// sizes, every scrolling region scrolled to the bottom: ImGui's checks are live in this build
// (gui/imgui_config.hpp; libimgui.a keeps its assert()s), so a table or plot sharing an ID with
// another, or any other misuse ImGui checks, aborts the run and fails the test.
class EverySize : public ::testing::TestWithParam<std::pair<int, int>> {};

TEST_P(EverySize, EveryCalculatorAndMethodScrolledToTheBottom) {
  const auto [width, height] = GetParam();
  const std::string size = std::to_string(width) + "x" + std::to_string(height);
  const fs::path png = out_dir / ("visit-all-" + size + ".png"), dump = out_dir / ("visit-all-" + size + ".json");
  fs::create_directories(out_dir);
  fs::remove(png);
  result r;
  std::string why_not;
  if (!run_gui("--screenshot " + quoted(png.string()) +
                   " --visit-all --scroll bottom --check-overlap --tab gl --size " + size + " --dump-results " +
                   quoted(dump.string()),
               "visit-all-" + size, r, why_not, "", size))
    GTEST_SKIP() << why_not;
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  const json got = json::parse(read_text(dump));
  EXPECT_EQ(got.at("panels_computed"), got.at("panels"));
  // The text rectangles every frame drew (labels, values, axis and chart titles), checked pairwise
  // and against every bar: none overlaps another or sits partly on a bar.
  EXPECT_EQ(got.at("overlaps"), json::array()) << got.at("overlaps").dump(2);
  // ... and none is cut short: wider than its column or window, or elided.
  EXPECT_EQ(got.at("truncated"), json::array()) << got.at("truncated").dump(2);
  expect_real_picture(load_png(png), "every calculator at " + size, width, height);
}

INSTANTIATE_TEST_SUITE_P(GuiScreenshot, EverySize,
                         ::testing::Values(std::pair{800, 600}, std::pair{1280, 800}, std::pair{1600, 2000}),
                         [](const auto& info) {
                           return std::to_string(info.param.first) + "x" + std::to_string(info.param.second);
                         });

// The battle of issue 15: a simulated Great Lakes battle whose report has a "units" table on each
// side, drawn tall enough for both at once. It aborted when the two tables shared an ID.
TEST(GuiScreenshot, GreatLakesSimulatedBattleTallWindow) {
  const fs::path scenario = out_dir / "gl-sim.json", png = out_dir / "gl-sim.png", dump = out_dir / "gl-sim-dump.json";
  fs::create_directories(out_dir);
  std::ofstream(scenario) << R"({"game":"gl","command":"battle","att":"11th Infantry:regular:4/4:5:3",
    "def":"104th Foot:regular:4/4:5:4","fort":"2:2:4","method":"sim","trials":200000})";
  for (const char* scroll : {"top", "bottom"}) {
    result r;
    std::string why_not;
    if (!run_gui("--screenshot " + quoted(png.string()) + " --scenario " + quoted(scenario.string()) +
                     " --size 1600x2000 --scroll " + scroll + " --dump-results " + quoted(dump.string()),
                 std::string("gl-sim-") + scroll, r, why_not, "", "1600x2000"))
      GTEST_SKIP() << why_not;
    ASSERT_EQ(r.code, 0) << r.err;
    const json got = json::parse(read_text(dump));
    ASSERT_TRUE(got.at("ok").get<bool>()) << got.dump(2);
    EXPECT_EQ(got.at("report").at("method").at("trials"), 200000);
    expect_real_picture(load_png(png), std::string("gl sim, scrolled to the ") + scroll, 1600, 2000);
  }
}

// A campaign plan given to --scenario opens in the Campaign panel and runs (it exited 2 once,
// asking for a "command").
TEST(GuiScreenshot, CampaignPlanOpensInTheCampaignPanel) {
  const fs::path png = out_dir / "campaign-plan.png", dump = out_dir / "campaign-plan.json";
  const std::string plan = std::string(MUSKET_EXAMPLES_DIR) + "/nt-campaign.json";
  result r;
  std::string why_not;
  if (!run_gui("--screenshot " + quoted(png.string()) + " --scenario " + quoted(plan) + " --dump-results " +
                   quoted(dump.string()),
               "campaign-plan", r, why_not))
    GTEST_SKIP() << why_not;
  ASSERT_EQ(r.code, 0) << r.err;
  const json got = json::parse(read_text(dump));
  EXPECT_EQ(got.at("tab"), "nt");
  EXPECT_EQ(got.at("command"), "campaign");
  ASSERT_TRUE(got.at("ok").get<bool>()) << got.dump(2);
  EXPECT_EQ(got.at("values").at("file"), plan);
  expect_real_picture(load_png(png), "campaign plan");
}

// A long run shows its progress: a Great Lakes campaign of 50 million trials (about half an hour)
// pictured mid-run has done some trials of those asked, and the window is drawn meanwhile.
TEST(GuiScreenshot, ALongRunShowsItsProgressMidRun) {
  const fs::path scenario = out_dir / "long-run.json", png = out_dir / "long-run.png",
                 dump = out_dir / "long-run-dump.json";
  fs::create_directories(out_dir);
  std::ofstream(scenario) << R"({"game": "gl", "command": "campaign", "file": ")" << MUSKET_EXAMPLES_DIR
                          << R"(/gl-campaign.json", "trials": 50000000})";
  result r;
  std::string why_not;
  if (!run_gui("--screenshot " + quoted(png.string()) + " --scenario " + quoted(scenario.string()) +
                   " --mid-run --dump-results " + quoted(dump.string()),
               "long-run", r, why_not))
    GTEST_SKIP() << why_not;
  ASSERT_EQ(r.code, 0) << r.err;
  const json got = json::parse(read_text(dump));
  EXPECT_FALSE(got.at("current").get<bool>());
  ASSERT_TRUE(got.at("progress").is_object()) << got.dump(2);
  EXPECT_EQ(got.at("progress").at("total"), 50000000);
  EXPECT_GT(got.at("progress").at("done").get<long long>(), 0);
  EXPECT_LT(got.at("progress").at("done").get<long long>(), 50000000);
  expect_real_picture(load_png(png), "mid-run");
}

// A probability the rules leave between two values ({"min", "max"}: AR's unknown 3:1 row-6 CRT
// entry) is one range bar labelled with its name, never a "min" bar and a "max" bar.
TEST(GuiScreenshot, MinMaxPairIsOneRangeBar) {
  const fs::path scenario = out_dir / "ar-range.json", png = out_dir / "ar-range.png",
                 dump = out_dir / "ar-range-dump.json";
  fs::create_directories(out_dir);
  std::ofstream(scenario) << R"({"game": "ar", "command": "battle", "attacker": "33M", "defender": "11B"})";
  result r;
  std::string why_not;
  if (!run_gui("--screenshot " + quoted(png.string()) + " --scenario " + quoted(scenario.string()) +
                   " --check-overlap --size 1280x800 --dump-results " + quoted(dump.string()),
               "ar-range", r, why_not, "", "1280x800"))
    GTEST_SKIP() << why_not;
  ASSERT_EQ(r.code, 0) << r.err;
  const json got = json::parse(read_text(dump));
  ASSERT_TRUE(got.at("ok").get<bool>()) << got.dump(2);
  // 33 v 11 is 3:1, whose row 6 our transcript does not have: a Major Success is 5/6 or certain.
  EXPECT_EQ(got.at("report").at("exact").at("major_success"), (json{{"min", "5/6"}, {"max", "1/1"}}));
  const std::vector<std::string> bars = got.at("bars");
  // Labelled as `musket`'s charts label the key (cli/result_labels.hpp).
  EXPECT_EQ(std::count(bars.begin(), bars.end(), "P(major success)"), 1) << got.at("bars").dump();
  EXPECT_EQ(std::count(bars.begin(), bars.end(), "min"), 0) << got.at("bars").dump();
  EXPECT_EQ(std::count(bars.begin(), bars.end(), "max"), 0) << got.at("bars").dump();
  EXPECT_EQ(got.at("overlaps"), json::array()) << got.at("overlaps").dump(2);
  expect_real_picture(load_png(png), "AR battle with a range");
}

// The ranges the dashboard's inputs take are the option registry's: `musket`'s help prints them
// as the value ("--att-ship 0..12 (=0)") and refuses a value outside with one line, exit 2.
TEST(GuiCommandLine, TheCliPublishesAndChecksTheRanges) {
  const result help = run_command(quoted(MUSKET_BINARY) + " gl battle --help", "gl-battle-help");
  ASSERT_EQ(help.code, 0) << help.err;
  EXPECT_NE(help.out.find("--att-ship 0..12 (=0)"), std::string::npos) << help.out;
  EXPECT_NE(help.out.find("--trials 1000..100000000 (=200000)"), std::string::npos) << help.out;
  const result bad = run_command(
      quoted(MUSKET_BINARY) + " gl battle --att A:regular:4/4:5:3 --def B:regular:4/4:5:3 --att-ship 13", "gl-ship-13");
  EXPECT_EQ(bad.code, 2);
  EXPECT_EQ(bad.err, "musket: --att-ship: 13 is out of range; allowed 0..12\n");
}

// "The same command line" under the inputs pastes into a shell: the Great Lakes battle panel's
// line (unit names with spaces, two --att options) run by sh gives the dashboard's report.
TEST(GuiScreenshot, TheShownCommandLineRunsInAShellAndAgrees) {
  const fs::path png = out_dir / "command-line.png", dump = out_dir / "command-line.json";
  fs::create_directories(out_dir);
  result r;
  std::string why_not;
  if (!run_gui(
          "--screenshot " + quoted(png.string()) + " --tab gl --panel battle --dump-results " + quoted(dump.string()),
          "command-line", r, why_not))
    GTEST_SKIP() << why_not;
  ASSERT_EQ(r.code, 0) << r.err;
  const json got = json::parse(read_text(dump));
  ASSERT_TRUE(got.at("ok").get<bool>()) << got.dump(2);
  const std::string line = got.at("command_line").get<std::string>();
  ASSERT_EQ(line.rfind("musket gl battle ", 0), 0u) << line;
  EXPECT_NE(line.find("--att '11th Infantry:regular:4/4:5:3'"), std::string::npos) << line;
  // The line exactly as shown, with the program's path for "musket", through the shell.
  const result cli = run_command(quoted(MUSKET_BINARY) + line.substr(6) + " --format json", "command-line-cli");
  ASSERT_EQ(cli.code, 0) << line << "\n" << cli.err;
  // Everything but the time each run took.
  json shell = json::parse(cli.out), dashboard = got.at("report");
  shell.at("method").erase("seconds");
  dashboard.at("method").erase("seconds");
  EXPECT_EQ(shell, dashboard);
}

TEST(GuiScreenshot, UiScaleEnlargesTheInterface) {
  const fs::path normal = out_dir / "scale-1.png", large = out_dir / "scale-1.5.png";
  fs::create_directories(out_dir);
  result r;
  std::string why_not;
  if (!run_gui("--screenshot " + quoted(normal.string()) + " --tab ss", "scale-1", r, why_not)) GTEST_SKIP() << why_not;
  ASSERT_EQ(r.code, 0) << r.err;
  ASSERT_TRUE(run_gui("--screenshot " + quoted(large.string()) + " --tab ss --scale 1.5", "scale-1.5", r, why_not));
  ASSERT_EQ(r.code, 0) << r.err;
  const picture a = load_png(normal), b = load_png(large);
  expect_real_picture(b, "scale 1.5");
  EXPECT_GT(difference(a, b), 0.05);
}

// The window remembers its size, last tab and last scenario, and ImGui's layout, between runs.
TEST(GuiWindow, RemembersSettingsBetweenRuns) {
  const fs::path config = out_dir / "config";
  fs::remove_all(config);
  fs::create_directories(config);
  const fs::path scenario = config / "last.json";
  std::ofstream(scenario) << R"({"game": "ss", "command": "raid", "militia-remaining": 4, "swamp-fox": true})";
  const std::string written =
      json{{"width", 1000}, {"height", 700}, {"tab", "gl"}, {"scenario", scenario.string()}, {"ui_scale", 1.25}}.dump();
  std::ofstream(config / "gui-settings.json") << written;
  result r;
  std::string why_not;
  // The window mode, quitting after 5 frames; never the user's own ~/.config.
  if (!run_gui("--frames 5", "settings", r, why_not, "MUSKET_GUI_CONFIG_DIR=" + quoted(config.string()) + " "))
    GTEST_SKIP() << why_not;
  ASSERT_EQ(r.code, 0) << r.err;
  const std::string text = read_text(config / "gui-settings.json");
  EXPECT_NE(text, written) << "the settings file was not written again on quitting";
  const json saved = json::parse(text);
  EXPECT_EQ(saved.at("width"), 1000);
  EXPECT_EQ(saved.at("height"), 700);
  EXPECT_EQ(saved.at("tab"), "gl");  // the last tab wins over the tab of the last scenario
  EXPECT_EQ(saved.at("scenario"), fs::absolute(scenario).string());
  EXPECT_DOUBLE_EQ(saved.at("ui_scale").get<double>(), 1.25);
  EXPECT_NE(read_text(config / "imgui.ini").find("[Window]"), std::string::npos);
}

// Needs no display: the file is read before any window is made.
TEST(GuiCommandLine, BadScenarioExitsTwoWithAMessage) {
  fs::create_directories(out_dir);
  const fs::path bad = out_dir / "bad.json";
  std::ofstream(bad) << "{\"game\": \"nt\", \"command\": \"battle\", ";
  result r = run_command(std::string(quoted(MUSKET_GUI_BINARY)) + " --screenshot " +
                             quoted((out_dir / "never.png").string()) + " --scenario " + quoted(bad.string()),
                         "bad");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("is not JSON"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(out_dir / "never.png"));
  r = run_command(std::string(quoted(MUSKET_GUI_BINARY)) + " --screenshot x.png --scenario " +
                      quoted((out_dir / "missing.json").string()),
                  "missing");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("cannot read"), std::string::npos) << r.err;
  r = run_command(std::string(quoted(MUSKET_GUI_BINARY)) + " --tab xx --screenshot x.png", "badtab");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("allowed: nt, ss, ar, gl"), std::string::npos) << r.err;
}

}  // namespace
