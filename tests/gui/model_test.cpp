// The dashboard's model: calculators read from the CLI, bounded inputs, the calc layer's own
// messages, scenario files, exports and background runs. No window needed.
#include "gui/model.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <sstream>
#include <thread>
#include <utility>

#include "calc/supply_lines/rule_set.hpp"
#include "core/invalid_input.hpp"
#include "core/monte_carlo.hpp"
#include "gui/runner.hpp"
#include "gui/structured_inputs.hpp"

namespace {

using namespace musket::gui;
namespace po = boost::program_options;

const catalogue& cat() {
  static const catalogue c;
  return c;
}

std::filesystem::path temp_dir() {
  auto dir = std::filesystem::path(MUSKET_TEST_OUTPUT) / "model";
  std::filesystem::create_directories(dir);
  return dir;
}

TEST(GuiModel, SupplyLinesCalculatorsComeFromTheCli) {
  const auto* nt = cat().find_game("nt");
  const auto* ss = cat().find_game("ss");
  ASSERT_NE(nt, nullptr);
  ASSERT_NE(ss, nullptr);
  for (const char* c : {"battle", "commit", "skirmish", "initiative", "refuse", "bombard", "reinforcements"})
    EXPECT_NE(cat().find("nt", c), nullptr) << c;
  for (const char* c : {"battle", "commit", "skirmish", "sea-battle", "navy-return", "raid", "irregulars"})
    EXPECT_NE(cat().find("ss", c), nullptr) << c;
  EXPECT_EQ(cat().find("nt", "raid"), nullptr);  // a Southern Strategy rule only
}

TEST(GuiModel, EverySupplyLinesPanelStartsWithAResult) {
  const std::vector<std::pair<std::string, std::vector<std::string>>> panels{
      {"nt", {"battle", "commit", "skirmish", "morale", "initiative", "refuse", "bombard", "reinforcements"}},
      {"ss",
       {"battle", "commit", "skirmish", "morale", "initiative", "refuse", "sea-battle", "navy-return", "raid",
        "irregulars"}}};
  for (const auto& [game, commands] : panels) {
    for (const auto& command : commands) {
      const auto* calc = cat().find(game, command);
      ASSERT_NE(calc, nullptr) << game << " " << command;
      const outcome r = run(*calc, initial_values(*calc));
      EXPECT_TRUE(r.ok) << game << " " << command << ": " << r.message();
      EXPECT_FALSE(r.report.result_keys.empty()) << game << " " << command;
    }
  }
}

TEST(GuiModel, OptionalOptionsAreLeftOutUntilGiven) {
  const auto* battle = cat().find("nt", "battle");
  const auto* position = battle->find_input("track-position");
  ASSERT_NE(position, nullptr);
  EXPECT_TRUE(position->optional);
  json v = initial_values(*battle);
  EXPECT_TRUE(v.at("track-position").is_null());
  auto has = [](const std::vector<std::string>& args, const std::string& prefix) {
    for (const auto& a : args)
      if (a.rfind(prefix, 0) == 0) return true;
    return false;
  };
  EXPECT_FALSE(has(command_arguments(*battle, v), "--track-position"));
  v["track-position"] = 3;
  EXPECT_TRUE(has(command_arguments(*battle, v), "--track-position=3"));
  const outcome r = run(*battle, v);
  ASSERT_TRUE(r.ok) << r.message();
  EXPECT_TRUE(r.report.document.contains("track_position")) << r.report.document.dump();
}

TEST(GuiModel, InputsAreBoundedToLegalValues) {
  const auto* battle = cat().find("nt", "battle");
  ASSERT_NE(battle, nullptr);
  const auto* units = battle->find_input("att-units");
  ASSERT_NE(units, nullptr);
  EXPECT_EQ(units->kind, input_kind::integer);
  EXPECT_EQ(units->lowest, 1);
  EXPECT_EQ(units->highest, 99);
  const auto* war = battle->find_input("att-war");
  ASSERT_NE(war, nullptr);
  EXPECT_EQ(war->highest, 40);
  const auto* terrain = battle->find_input("terrain");
  ASSERT_NE(terrain, nullptr);
  EXPECT_EQ(terrain->kind, input_kind::choice);
  EXPECT_EQ(terrain->choices, (std::vector<std::string>{"point", "city", "fort"}));
  EXPECT_EQ(battle->find_input("dug-in")->kind, input_kind::flag);
  EXPECT_EQ(cat().find("nt", "skirmish")->find_input("patriot-units")->highest, 2);
  // A hand-edited value is brought back into range.
  EXPECT_EQ(clamp_value(*units, 500), 99);
  EXPECT_EQ(clamp_value(*terrain, "swamp"), terrain->initial);
}

TEST(GuiModel, RunGivesTheCliReport) {
  const auto* battle = cat().find("nt", "battle");
  json v = initial_values(*battle);
  v["def-leaders"] = 1;  // the panel starts at the CLI's defaults, 0 and 0
  v["def-war"] = 3;
  const outcome r = run(*battle, v);
  ASSERT_TRUE(r.ok) << r.message();
  // The README's example battle: 6 units, 5 War at a city v 4 units, 3 War.
  const auto& doc = r.report.document;
  EXPECT_NEAR(doc.at("summary").at("defender_dislodged").get<double>(), 0.391, 0.001);
  EXPECT_EQ(doc.at("game"), "nt");
  EXPECT_FALSE(doc.at("exact").at("defender_dislodged").get<std::string>().empty());
}

TEST(GuiModel, IllegalCombinationShowsTheCalcMessage) {
  const auto* battle = cat().find("nt", "battle");
  json v = initial_values(*battle);
  v["terrain"] = "point";
  v["dug-in"] = true;
  const outcome r = run(*battle, v);
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.error_field, "dug-in");
  EXPECT_NE(r.message().find("cannot Dig-In"), std::string::npos) << r.message();
}

TEST(GuiModel, ScenarioRoundTripsThroughAFile) {
  const auto* battle = cat().find("ss", "battle");
  json v = initial_values(*battle);
  v["attacker"] = "patriot";
  v["att-units"] = 3;
  v["crown-commander"] = false;
  const auto path = (temp_dir() / "round-trip.json").string();
  write_file_atomically(path, scenario_document(*battle, v).dump(2));
  struct stat st {};
  ASSERT_EQ(::stat(path.c_str(), &st), 0);
  EXPECT_NE(st.st_mode & S_IRGRP, 0u) << "written with an ordinary mode, not mkstemp's 0600";
  const scenario s = load_scenario(cat(), path);
  EXPECT_EQ(s.game, "ss");
  EXPECT_EQ(s.command, "battle");
  EXPECT_EQ(s.values, v);
  // No temporary file is left beside it.
  int files = 0;
  for (const auto& e : std::filesystem::directory_iterator(temp_dir()))
    files += e.path().filename().string().rfind("round-trip.json", 0) == 0;
  EXPECT_EQ(files, 1);
}

TEST(GuiModel, BadScenariosAreRefusedWithAMessage) {
  auto message = [](const std::string& text) {
    try {
      parse_scenario(cat(), text, "test.json");
    } catch (const musket::invalid_input& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_NE(message("{not json").find("is not JSON"), std::string::npos);
  EXPECT_NE(message("[1,2]").find("expected a JSON object"), std::string::npos);
  EXPECT_NE(message(R"({"game":"xx","command":"battle"})").find("unknown game 'xx'"), std::string::npos);
  EXPECT_NE(message(R"({"game":"nt","command":"raid"})").find("unknown nt command 'raid'"), std::string::npos);
  EXPECT_NE(message(R"({"game":"nt","command":"battle","att-unitz":3})").find("'att-unitz' is not an option"),
            std::string::npos);
  EXPECT_NE(message(R"({"game":"nt","command":"battle","att-units":300})").find("out of range; allowed 1..99"),
            std::string::npos);
  EXPECT_NE(message(R"({"game":"nt","command":"battle","terrain":"swamp"})").find("must be one of point, city, fort"),
            std::string::npos);
  EXPECT_NE(message(R"({"game":"nt","command":"battle","dug-in":1})").find("true or false"), std::string::npos);
  EXPECT_THROW(load_scenario(cat(), (temp_dir() / "no-such-file.json").string()), musket::invalid_input);
}

TEST(GuiModel, GreatLakesBattleFileOpensInItsPanel) {
  if (!cat().find("gl", "battle")) GTEST_SKIP() << "the Great Lakes engine is not in this build";
  const auto path = (temp_dir() / "gl-battle.json").string();
  std::ofstream(path) << R"({"niagara": false,
    "attacker": {"side": "american", "units": [{"name": "11th Infantry", "type": "regular", "sp": 4, "max_sp": 4,
      "morale": 5, "dice": 3}], "leaders": ["Brown"], "ship_dice": 0, "retreat": {"policy": "never"},
      "retreat_route": true, "reinforcements": []},
    "defender": {"side": "british", "units": [{"name": "104th Foot", "type": "regular", "sp": 4, "morale": 5,
      "dice": 4}], "leaders": [], "ship_dice": 0, "retreat": {"policy": "never"}, "retreat_route": true,
      "reinforcements": []}})";
  const scenario s = load_any_scenario(cat(), path);
  EXPECT_EQ(s.game, "gl");
  EXPECT_EQ(s.command, "battle");
  EXPECT_EQ(s.values.at("scenario"), path);
  EXPECT_EQ(s.values.at("att"), "");
  const outcome r = run(*cat().find("gl", "battle"), s.values);
  ASSERT_TRUE(r.ok) << r.message();
  // A file that is neither says both why nots.
  const auto bad = (temp_dir() / "neither.json").string();
  std::ofstream(bad) << R"({"attacker": 3})";
  try {
    load_any_scenario(cat(), bad);
    FAIL() << "accepted";
  } catch (const musket::invalid_input& e) {
    EXPECT_NE(std::string(e.what()).find("neither a musket-gui scenario"), std::string::npos) << e.what();
  }
}

// A campaign plan file (what `musket nt campaign --file PLAN` reads: a "game", no "command")
// opens in that game's Campaign panel with --file set to it.
TEST(GuiModel, CampaignPlanOpensInTheCampaignPanel) {
  const std::string plan = std::string(MUSKET_EXAMPLES_DIR) + "/nt-campaign.json";
  const scenario s = load_any_scenario(cat(), plan);
  EXPECT_EQ(s.game, "nt");
  EXPECT_EQ(s.command, "campaign");
  EXPECT_EQ(s.values.at("file"), plan);
  // A fresh Campaign panel starts on the game's example plan, not on "--file is required".
  const auto* campaign = cat().find("ss", "campaign");
  ASSERT_NE(campaign, nullptr);
  const std::string file = initial_values(*campaign).at("file").get<std::string>();
  EXPECT_EQ(std::filesystem::path(file).filename(), "ss-campaign.json");
  EXPECT_TRUE(std::filesystem::exists(file)) << file;
  // A plan the command refuses is refused on opening, with the command's words.
  const auto bad = (temp_dir() / "bad-plan.json").string();
  std::ofstream(bad) << R"({"game": "nt", "name": "no army", "steps": []})";
  try {
    load_any_scenario(cat(), bad);
    FAIL() << "accepted";
  } catch (const musket::invalid_input& e) {
    EXPECT_NE(std::string(e.what()).find("campaign plan the command refuses"), std::string::npos) << e.what();
  }
}

// Integer ranges come from the option registry (cli::whole_number), never from the dashboard: the
// campaign's --state-limit starts at the CLI's default 20000 within the CLI's 1..50000000, and an
// integer the registry publishes no range for (--track-lowest) is never clamped.
TEST(GuiModel, UnrangedIntegersKeepTheCliDefault) {
  const auto* campaign = cat().find("nt", "campaign");
  ASSERT_NE(campaign, nullptr);
  const auto* limit = campaign->find_input("state-limit");
  ASSERT_NE(limit, nullptr);
  EXPECT_TRUE(limit->bounded);
  EXPECT_EQ(limit->lowest, 1);
  EXPECT_EQ(limit->highest, 50'000'000);
  EXPECT_EQ(limit->initial, 20000);
  EXPECT_EQ(clamp_value(*limit, 50000), 50000);
  const auto* lowest = cat().find("nt", "battle")->find_input("track-lowest");
  ASSERT_NE(lowest, nullptr);
  EXPECT_FALSE(lowest->bounded);
  EXPECT_EQ(clamp_value(*lowest, -5000), -5000);
}

// One source: every integer input's range is exactly the one its CLI option publishes, and the
// dashboard's run refuses a value outside it with the very line `musket` prints.
TEST(GuiModel, RangesAreTheOptionRegistrys) {
  int ranged = 0;
  for (const auto& game : cat().games())
    for (const auto& calc : game.calculators) {
      po::options_description desc;
      calc.cli_command->add_options(desc);
      for (const auto& in : calc.inputs) {
        if (in.kind != input_kind::integer) continue;
        const auto range = musket::cli::option_range(desc.find(in.name, false));
        EXPECT_EQ(in.bounded, range.has_value()) << game.code << " " << calc.command << " --" << in.name;
        if (!range) continue;
        ++ranged;
        EXPECT_EQ(in.lowest, range->lowest) << game.code << " " << calc.command << " --" << in.name;
        EXPECT_EQ(in.highest, range->highest) << game.code << " " << calc.command << " --" << in.name;
      }
    }
  EXPECT_GE(ranged, 40);
  // SS 2.2: one Leader and one Subordinate a side; NT's armies take more (the rule sets' own limits).
  const auto* ss_leaders = cat().find("ss", "battle")->find_input("att-leaders");
  EXPECT_EQ(ss_leaders->lowest, 1);
  EXPECT_EQ(ss_leaders->highest, musket::supply_lines::rules_for("ss").max_leaders_per_army);
  const auto* gl = cat().find("gl", "battle");
  if (!gl) return;
  const auto* ship = gl->find_input("att-ship");
  EXPECT_EQ(ship->lowest, 0);
  EXPECT_EQ(ship->highest, 12);
  json v = initial_values(*gl);
  v["att-ship"] = 13;
  const outcome r = run(*gl, v);
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.message(), "--att-ship: 13 is out of range; allowed 0..12");
}

// Great Lakes units: the table's rows are the calc's own reading of the CLI's spec strings, and
// what the table writes is a spec string the CLI takes, one --att per row.
TEST(GuiModel, UnitTableReadsAndWritesTheCliSpecs) {
  namespace gl = musket::great_lakes;
  const auto* battle = cat().find("gl", "battle");
  if (!battle) GTEST_SKIP() << "the Great Lakes engine is not in this build";
  json v = initial_values(*battle);
  EXPECT_EQ(structured_input(*battle, *battle->find_input("att")), structured_kind::units);
  EXPECT_EQ(structured_input(*battle, *battle->find_input("def-reinforce")), structured_kind::reinforcements);
  EXPECT_EQ(structured_input(*battle, *battle->find_input("fort")), structured_kind::fort);
  EXPECT_EQ(structured_input(*battle, *battle->find_input("att-retreat")), structured_kind::none);
  auto units = read_units(v.at("att").get<std::string>(), "att", false);
  ASSERT_EQ(units.size(), 2u);  // the starting battle: 11th Infantry and Towson
  EXPECT_EQ(units[0].u.name, "11th Infantry");
  EXPECT_EQ(units[1].u.type, gl::unit_type::artillery);
  EXPECT_EQ(units[1].u.dice, 5);
  // Edit as the table does: reorder, duplicate, change a spinner and the crossing drop-down.
  std::swap(units[0], units[1]);
  units.push_back(units[1]);
  units[2].u.sp = 2;
  units[2].u.crossed = gl::crossing::river;
  v["att"] = write_units(units, false);
  EXPECT_EQ(v["att"], "Towson:artillery:3/3:5:5; 11th Infantry:regular:4/4:5:3; 11th Infantry:regular:2/4:5:3:river");
  const auto args = command_arguments(*battle, v);
  EXPECT_EQ(std::count(args.begin(), args.end(), "--att=11th Infantry:regular:2/4:5:3:river"), 1);
  EXPECT_EQ(std::count_if(args.begin(), args.end(), [](const std::string& a) { return a.rfind("--att=", 0) == 0; }), 3);
  // Reinforcements keep ":niagara" (GL 13.3); a crossing is the calc's complaint, named.
  const auto r = read_units("Militia:militia:2/2:6:2:niagara; Regulars:regular:3/3:5:3", "def-reinforce", true);
  ASSERT_EQ(r.size(), 2u);
  EXPECT_TRUE(r[0].across_niagara);
  EXPECT_FALSE(r[1].across_niagara);
  EXPECT_EQ(write_units(r, true), "Militia:militia:2/2:6:2:niagara; Regulars:regular:3/3:5:3");
  try {
    read_units("A:regular:2/2:6:2:river", "att-reinforce", true);
    ADD_FAILURE() << "a crossing reinforcement was read";
  } catch (const musket::invalid_input& e) {
    EXPECT_EQ(e.field(), "att-reinforce");
  }
  // The fort: three numbers, or none.
  const auto fort = read_fort("2:3:4", "fort");
  ASSERT_TRUE(fort.has_value());
  EXPECT_EQ(fort->dice, 2);
  EXPECT_EQ(fort->sp, 3);
  EXPECT_EQ(fort->morale, 4);
  EXPECT_FALSE(read_fort("", "fort").has_value());
  EXPECT_EQ(write_fort(std::nullopt), "");
  EXPECT_EQ(write_fort(gl::fort{1, 2, 5, false}), "1:2:5");
  EXPECT_THROW(read_fort("2:2", "fort"), musket::invalid_input);
  // What the table wrote runs, with the same answer as the text typed by hand.
  json typed = initial_values(*battle);
  typed["att"] = "Towson:artillery:3/3:5:5;11th Infantry:regular:4/4:5:3";
  typed["method"] = "exact";
  json tabled = typed;
  tabled["att"] = write_units(read_units(typed["att"], "att", false), false);
  const outcome a = run(*battle, typed), b = run(*battle, tabled);
  ASSERT_TRUE(a.ok) << a.message();
  ASSERT_TRUE(b.ok) << b.message();
  EXPECT_EQ(a.report.document.at("summary"), b.report.document.at("summary"));
}

// AR forces: a spinner per type and the text field are two views of one value, through the calc's
// own parse_force and to_string.
TEST(GuiModel, ForceSpinnersAreTheTextValue) {
  namespace ar = musket::revolution;
  const auto* battle = cat().find("ar", "battle");
  if (!battle) GTEST_SKIP() << "the American Revolution engine is not in this build";
  EXPECT_EQ(structured_input(*battle, *battle->find_input("attacker")), structured_kind::force);
  auto points = read_force("15M,8C", "attacker");
  EXPECT_EQ(points[static_cast<std::size_t>(ar::unit_type::militia)], 15);
  EXPECT_EQ(points[static_cast<std::size_t>(ar::unit_type::continental)], 8);
  EXPECT_EQ(points[static_cast<std::size_t>(ar::unit_type::regular)], 0);
  points[static_cast<std::size_t>(ar::unit_type::french_seasonal)] = 2;  // a spinner moved
  EXPECT_EQ(write_force(points), "8C,15M,2SF");                          // B, T, C, M, F, SF order
  EXPECT_EQ(write_force(ar::points_by_type{}), "");
  EXPECT_EQ(read_force("", "attacker"), ar::points_by_type{});
  EXPECT_THROW(read_force("3B,2C", "attacker"), musket::invalid_input);  // one side's letters only
}

// Report values read as values: no JSON syntax in a table cell or a line.
TEST(GuiModel, ReportValuesReadAsValues) {
  EXPECT_EQ(value_text(json(true)), "yes");
  // A null is never "-" (the CLI's mark for an impossible outcome): its key's word, else "unknown",
  // as the CLI's table reads it; a sweep's illegal point reads "illegal".
  EXPECT_EQ(value_text(json(nullptr)), "unknown");
  EXPECT_EQ(keyed_value_text("garrison_eliminated", json(nullptr)), "no fort");
  // A probability reads as the CLI's table cell: a percentage, "-" when impossible.
  EXPECT_EQ(keyed_value_text("garrison_eliminated", json(0.25)), "25.0%");
  EXPECT_EQ(keyed_value_text("garrison_eliminated", json(0.0)), "-");
  EXPECT_EQ(keyed_value_text("expected_losses", json(0.25)), "0.25");  // a mean, not a probability
  EXPECT_EQ(keyed_value_text("points", json(nullptr)), "unknown");
  const json illegal = {
      {"fort.sp", 0}, {"metric", "garrison_eliminated"}, {"value", nullptr}, {"illegal", "--fort: 0"}};
  const json no_fort = {{"fort", "none"}, {"metric", "garrison_eliminated"}, {"value", nullptr}};
  const json impossible = {{"fort", "1:1:4"}, {"metric", "outcomes.stalemate"}, {"value", 0.0}};
  EXPECT_EQ(row_cell_text(illegal, "value"), "illegal");
  EXPECT_EQ(row_cell_text(illegal, "fort.sp"), "0");
  EXPECT_EQ(row_cell_text(no_fort, "value"), "no fort");
  EXPECT_EQ(row_cell_text(impossible, "value"), "-");
  EXPECT_EQ(row_cell_text(impossible, "illegal"), "");
  EXPECT_EQ(value_text(json(0.25)), "0.25");
  EXPECT_EQ(value_text(json{{"min", 0.25}, {"max", 0.5}}), "0.25 .. 0.5");
  // Issue 37: the advice's kept reroll reads as the CLI reads it; its exceptions, past three, by
  // their count (the Niagara 5 v 4 has 74 for one choice), three or fewer spelled out.
  EXPECT_EQ(keyed_value_text("reroll", json(nullptr)), "keep it");
  json advice = {{"reroll", "11th"}, {"otherwise", json::array()}};
  for (int i = 0; i < 4; ++i) advice["otherwise"].push_back({{"reroll", "21st"}});
  EXPECT_EQ(row_cell_text(advice, "otherwise"), "4 entries (Copy CSV lists them)");
  advice["otherwise"].erase(0);
  EXPECT_EQ(row_cell_text(advice, "otherwise"), "(reroll: 21st), (reroll: 21st), (reroll: 21st)");
  EXPECT_TRUE(is_min_max(json{{"min", 0.25}, {"max", 0.5}}));
  EXPECT_FALSE(is_min_max(json{{"min", 0.25}}));
  EXPECT_EQ(value_text(json::array({1, 2, 3})), "1, 2, 3");
  // A distribution over whole numbers: its mean and span, or its one value (a campaign's table).
  EXPECT_EQ(value_text(json::parse(R"({"9": 1.0})")), "9");
  EXPECT_EQ(value_text(json::parse(R"({"2": 0.25, "4": 0.75, "7": 0.0})")), "mean 3.50 (2..4)");  // 0.5 + 3
  EXPECT_EQ(value_text(json::parse(R"({"-1": 0.5, "1": 0.5})")), "mean 0.00 (-1..1)");
  EXPECT_FALSE(distribution_summary(json::parse(R"({"a": 0.5})")).has_value());
  EXPECT_EQ(value_text(json::parse(R"({"units": 4, "war_left": 0.5, "taken": false})")),
            "units: 4, war left: 0.5, taken: no");
  EXPECT_EQ(value_text(json::parse(R"([{"area": "Boston", "held": true}, [1, 2]])")),
            "(area: Boston, held: yes), (1, 2)");
}

// The dashboard's numbers are the CLI's table's, for the same inputs: a probability as a
// percentage, an impossible outcome as "-". American 8C,15M (23) v British 8B,3T (11) is the 2:1
// column, whose De, 1/2De and 1/2Ex each take two faces of the d6 (AR CRT): 1/3 each, 33.3%; no
// face is unknown, so "unknown" is impossible.
TEST(GuiModel, NumbersReadAsTheCliTableReadsThem) {
  const auto* battle = cat().find("ar", "battle");
  json v = initial_values(*battle);
  v["attacker"] = "15M,8C";
  v["defender"] = "3T,8B";
  const outcome r = run(*battle, v);
  ASSERT_TRUE(r.ok) << r.message();
  const json& doc = r.report.document;
  const std::string cli_table = musket::cli::render(r.report, musket::cli::output_format::table);
  const auto cli_line_has = [&](const std::string& first, const std::string& cell) {
    std::istringstream lines(cli_table);
    for (std::string line; std::getline(lines, line);) {
      std::istringstream words(line);
      std::vector<std::string> w{std::istream_iterator<std::string>(words), std::istream_iterator<std::string>()};
      if (w.size() >= 2 && w[0] == first && std::find(w.begin(), w.end(), cell) != w.end()) return true;
    }
    return false;
  };
  ASSERT_EQ(doc.at("outcomes").size(), 3u);
  for (const auto& row : doc.at("outcomes")) {
    const std::string cell = row_cell_text(row, "probability");
    EXPECT_EQ(cell, "33.3%") << row.dump();  // 2 faces of 6
    EXPECT_TRUE(cli_line_has(row.at("result").get<std::string>(), cell)) << cli_table;
  }
  EXPECT_EQ(keyed_value_text("unknown", doc.at("results").at("unknown")), "-");
  EXPECT_TRUE(cli_line_has("unknown", "-")) << cli_table;
}

// Enumerated options are drop-downs with the values the CLI's help lists, after a colon too; one
// with a parameter in a value (line_sp_at_most:K) stays text.
TEST(GuiModel, EnumeratedOptionsAreChoices) {
  const auto* battle = cat().find("gl", "battle");
  if (!battle) GTEST_SKIP() << "the Great Lakes engine is not in this build";
  EXPECT_EQ(battle->find_input("att-hits")->kind, input_kind::choice);
  EXPECT_EQ(battle->find_input("att-hits")->choices, (std::vector<std::string>{"rulings", "concentrate", "optimal"}));
  EXPECT_EQ(battle->find_input("def-reroll")->choices,
            (std::vector<std::string>{"first", "never", "largest_unit", "optimal"}));
  // A policy that takes a parameter is a choice too, its parameter written as the help writes it.
  EXPECT_EQ(battle->find_input("att-retreat")->kind, input_kind::choice);
  EXPECT_EQ(battle->find_input("att-retreat")->choices,
            (std::vector<std::string>{"never", "weaker", "line_sp_at_most:K", "optimal"}));
  EXPECT_EQ(battle->find_input("def-retreat")->choices, battle->find_input("att-retreat")->choices);
  EXPECT_EQ(clamp_value(*battle->find_input("att-retreat"), json("line_sp_at_most:3")), "line_sp_at_most:3");
  EXPECT_EQ(clamp_value(*battle->find_input("att-retreat"), json("line_sp_at_most:x")), "never");  // the default
  EXPECT_EQ(clamp_value(*battle->find_input("att-retreat"), json("sometimes")), "never");
  EXPECT_TRUE(matches_choice("line_sp_at_most:K", "line_sp_at_most:12"));
  EXPECT_FALSE(matches_choice("line_sp_at_most:K", "line_sp_at_most:"));
  EXPECT_FALSE(matches_choice("weaker", "weaker:2"));
  // A list followed by a colon and its meaning (AR's loss policy).
  if (const auto* ar = cat().find("ar", "battle")) {
    EXPECT_EQ(ar->find_input("loss-policy")->kind, input_kind::choice);
    EXPECT_EQ(ar->find_input("loss-policy")->choices,
              (std::vector<std::string>{"protect-regulars", "protect-irregulars"}));
  }
  // And a GL battle with a parameterised retreat runs with the value the choice writes.
  json v = initial_values(*battle);
  v["def-retreat"] = "line_sp_at_most:2";
  EXPECT_TRUE(run(*battle, v).ok);
  // Issue 17: optimal play is offered (left out by default) with its objective.
  EXPECT_EQ(battle->find_input("play")->choices, (std::vector<std::string>{"", "default", "optimal"}));
  EXPECT_EQ(battle->find_input("objective")->choices, (std::vector<std::string>{"win", "value"}));
}

TEST(GuiModel, GreatLakesOptimalPlayShowsTheAdvice) {
  const auto* battle = cat().find("gl", "battle");
  if (!battle) GTEST_SKIP() << "the Great Lakes engine is not in this build";
  json v = initial_values(*battle);
  v["play"] = "optimal";
  const outcome r = run(*battle, v);
  ASSERT_TRUE(r.ok) << r.message();
  const auto& keys = r.report.result_keys;
  EXPECT_NE(std::find(keys.begin(), keys.end(), "optimal_play"), keys.end());
  EXPECT_NE(std::find(keys.begin(), keys.end(), "advice"), keys.end());
  EXPECT_FALSE(r.report.document.at("advice").at("plain").empty());
}

// The shown command line quotes what a shell would split or expand, and nothing else.
TEST(GuiModel, CommandLineIsShellQuoted) {
  EXPECT_EQ(shell_quoted("crown"), "crown");
  EXPECT_EQ(shell_quoted("11th Infantry:regular:4/4:5:3"), "'11th Infantry:regular:4/4:5:3'");
  EXPECT_EQ(shell_quoted("it's"), "'it'\\''s'");
  EXPECT_EQ(shell_quoted(""), "''");
  EXPECT_EQ(shell_quoted("a;b"), "'a;b'");
  EXPECT_EQ(command_line("gl battle", {"--att=11th Infantry:regular:4/4:5:3", "--trials=1000", "--dug-in"}, {"trials"}),
            "musket gl battle --att '11th Infantry:regular:4/4:5:3' --dug-in");
}

TEST(GuiModel, SwapSidesExchangesTheTwoSidesInputs) {
  const auto* battle = cat().find("nt", "battle");
  json v = initial_values(*battle);
  v["att-units"] = 6, v["def-units"] = 4, v["att-war"] = 5, v["def-war"] = 3, v["attacker"] = "crown";
  const auto swapped = swap_sides(*battle, v);
  ASSERT_TRUE(swapped);
  EXPECT_EQ(swapped->at("att-units"), 4);
  EXPECT_EQ(swapped->at("def-units"), 6);
  EXPECT_EQ(swapped->at("att-war"), 3);
  EXPECT_EQ(swapped->at("def-war"), 5);
  EXPECT_EQ(swapped->at("attacker"), "patriot");
  EXPECT_EQ(swap_sides(*battle, *swapped), v);  // twice is no change
  // A calculator with one side has nothing to swap.
  EXPECT_FALSE(swap_sides(*cat().find("ss", "navy-return"), initial_values(*cat().find("ss", "navy-return"))));
}

TEST(GuiModel, CsvAndMarkdownCarryTheSameRows) {
  const auto* raid = cat().find("ss", "raid");
  const outcome r = run(*raid, initial_values(*raid));
  ASSERT_TRUE(r.ok) << r.message();
  const std::string csv = results_csv(r);
  const std::string md = results_markdown(r);
  EXPECT_EQ(csv.rfind("key,value,exact_num,exact_den\n", 0), 0u);
  // 3 Militia remaining: d6 + 3 >= 6 on 3..6, 2/3 (the shortest decimal that reads back as 2.0/3).
  EXPECT_NE(csv.find("success,0.6666666666666666,2,3"), std::string::npos) << csv;
  EXPECT_NE(md.find("| key | value | exact_num | exact_den |"), std::string::npos) << md;
  EXPECT_NE(md.find("| success | 0.6666666666666666 | 2 | 3 |"), std::string::npos) << md;
}

// --- sweeps -----------------------------------------------------------------------------------

TEST(GuiSweep, ASetupBecomesTheSweepCommandsOptionsAndBack) {
  const auto* game = cat().find_game("nt");
  const auto* sweep = cat().find("nt", "sweep");
  const auto* battle = cat().find("nt", "battle");
  sweep_setup s;
  s.target = "battle";
  s.fixed = initial_values(*battle);
  s.fixed["att-war"] = 4;
  s.fixed["dug-in"] = true;
  s.axes = {{"att-units", 2, 7}, {"def-war", 0, 3}};
  s.metric = "summary.defender_dislodged";
  const json v = sweep_values(*battle, s);
  const auto args = command_arguments(*sweep, v);
  auto has = [&](const std::string& a) { return std::find(args.begin(), args.end(), a) != args.end(); };
  EXPECT_TRUE(has("--command=battle"));
  EXPECT_TRUE(has("--vary=att-units=2..7"));
  EXPECT_TRUE(has("--vary=def-war=0..3"));
  EXPECT_TRUE(has("--metric=summary.defender_dislodged"));
  EXPECT_TRUE(has("--att-war=4"));
  EXPECT_TRUE(has("--dug-in"));
  // A varied input is never also given as fixed (the CLI refuses that).
  for (const auto& a : args) {
    EXPECT_NE(a.rfind("--att-units=", 0), 0u) << a;
    EXPECT_NE(a.rfind("--def-war=", 0), 0u) << a;
  }
  const sweep_setup back = sweep_setup_from(*game, v);
  EXPECT_EQ(back.target, "battle");
  ASSERT_EQ(back.axes.size(), 2u);
  EXPECT_EQ(back.axes[1].name, "def-war");
  EXPECT_EQ(back.axes[1].highest, 3);
  EXPECT_EQ(back.metric, s.metric);
  EXPECT_EQ(back.fixed.at("att-war"), 4);
  EXPECT_EQ(back.fixed.at("dug-in"), true);
  EXPECT_EQ(back.fixed.at("terrain"), s.fixed.at("terrain"));
  // Names that do not fit are refused, naming the value.
  json bad = v;
  bad["vary"] = "cannons=1..3";
  EXPECT_THROW(sweep_setup_from(*game, bad), musket::invalid_input);
  bad["vary"] = "att-units=5..2";
  EXPECT_THROW(sweep_setup_from(*game, bad), musket::invalid_input);
  bad = v;
  bad["command"] = "parley";
  EXPECT_THROW(sweep_setup_from(*game, bad), musket::invalid_input);
}

TEST(GuiSweep, PointsAreReadIntoAGridWithGapsWhereNoValue) {
  const json doc = json::parse(R"({"game": "nt", "command": "sweep",
    "inputs": {"command": "battle", "vary": ["a=1..2", "b=5..6"], "metric": ["m"]},
    "points": [{"a": 1, "b": 5, "metric": "m", "value": 0.25}, {"a": 1, "b": 6, "metric": "m", "value": 0.5},
               {"a": 2, "b": 5, "metric": "m", "value": null}, {"a": 2, "b": 6, "metric": "m", "value": 1}]})");
  const sweep_points p = read_sweep(doc);
  EXPECT_EQ(p.axes, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(p.x, (std::vector<int>{1, 2}));
  EXPECT_EQ(p.y, (std::vector<int>{5, 6}));
  EXPECT_EQ(p.value[0][1], 0.5);
  EXPECT_TRUE(std::isnan(p.value[1][0]));
  EXPECT_EQ(p.value[1][1], 1.0);
  // And the CSV the clipboard gets is the CLI's --csv text for the same rows.
  EXPECT_EQ(musket::cli::sweep_csv(doc),
            "game,command,a,b,metric,value\nnt,battle,1,5,m,0.25\nnt,battle,1,6,m,0.5\nnt,battle,2,5,m,\n"
            "nt,battle,2,6,m,1\n");
}

TEST(GuiSweep, EveryGameHasADefaultSweepThatRuns) {
  for (const auto& g : cat().games()) {
    const auto s = default_sweep(g);
    ASSERT_TRUE(s.has_value()) << g.code;
    const outcome r = run(*cat().find(g.code, "sweep"), sweep_values(*cat().find(g.code, s->target), *s));
    EXPECT_TRUE(r.ok) << g.code << ": " << r.message();
  }
}

// --- background runs (gui/runner.hpp) -----------------------------------------------------------

// Polls the runner until its current run hands out a result, or `limit` passes.
std::optional<background_runner::finished> finish(background_runner& runner, double limit_seconds) {
  const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(limit_seconds);
  while (std::chrono::steady_clock::now() < until) {
    if (auto f = runner.take_finished()) return f;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return std::nullopt;
}

TEST(GuiRunner, AFastCalculatorGivesTheSameReportAsARunOnThisThread) {
  const auto* raid = cat().find("ss", "raid");
  background_runner runner;
  json v = initial_values(*raid);
  runner.start(*raid, v, v.dump());
  auto f = finish(runner, 10);
  ASSERT_TRUE(f.has_value());
  EXPECT_FALSE(f->abandoned);
  EXPECT_EQ(f->key, v.dump());
  ASSERT_TRUE(f->result.ok) << f->result.message();
  // 3 Militia remaining: d6 + 3 >= 6 on 3..6 (SS raid), 4/6.
  EXPECT_EQ(f->result.report.document.at("exact").at("success"), "2/3");
  EXPECT_FALSE(runner.take_finished().has_value()) << "a result is handed out once";
}

TEST(GuiRunner, ACampaignReportsItsTrialsAndStopsWhenCancelled) {
  const auto* campaign = cat().find("gl", "campaign");
  if (!campaign) GTEST_SKIP() << "the Great Lakes engine is not in this build";
  json v = initial_values(*campaign);
  v["file"] = std::string(MUSKET_EXAMPLES_DIR) + "/gl-campaign.json";
  v["trials"] = 50'000'000;  // about half an hour: only a cancel ends it in time
  background_runner runner;
  runner.start(*campaign, v, v.dump());
  // Waits for the first progress however long a loaded machine takes (ctest's timeout bounds a
  // command that never reports): the signal, not the clock, says the run is under way.
  while (runner.done() == 0 && runner.running()) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  ASSERT_TRUE(runner.running()) << "the campaign finished before it could be cancelled";
  EXPECT_EQ(runner.total(), 50'000'000u) << "the campaign says how many trials it was asked for";
  // A grace no chunk outlasts: the run must heed the cancel (an abandoned run fails below).
  runner.cancel(std::chrono::hours(1));
  const std::uint64_t done_at_cancel = runner.done();
  runner.wait();
  auto f = runner.take_finished();
  ASSERT_TRUE(f.has_value());
  // It heeded the cancel: the trials done so far, marked cancelled, with intervals (not abandoned).
  EXPECT_FALSE(f->abandoned);
  ASSERT_TRUE(f->result.ok) << f->result.message();
  const auto& method = f->result.report.document.at("method");
  EXPECT_TRUE(method.at("cancelled").get<bool>());
  // It stopped at the end of the chunk each thread was in when asked: no thread starts another.
  const std::uint64_t trials = method.at("trials").get<std::uint64_t>();
  const std::uint64_t threads = std::max(1u, std::thread::hardware_concurrency());
  EXPECT_GE(trials, done_at_cancel);
  EXPECT_LE(trials, done_at_cancel + threads * musket::simulation_options{}.chunk_trials);
  EXPECT_LT(trials, 50'000'000u);
}

// `musket` itself (the built binary) with these arguments: its exit code and standard output.
std::pair<int, std::string> musket_output(const std::vector<std::string>& words) {
  std::string command = shell_quoted(MUSKET_BINARY);
  for (const auto& w : words) command += " " + shell_quoted(w);
  std::FILE* pipe = popen(command.c_str(), "r");
  if (!pipe) return {-1, ""};
  std::string out;
  char buffer[4096];
  for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0;) out.append(buffer, n);
  const int status = pclose(pipe);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, out};
}

// A Supply Lines battle simulated through the runner: the inputs of the dashboard's screenshot.
json simulated_battle(int trials) {
  json v = initial_values(*cat().find("nt", "battle"));
  v["attacker"] = "crown";
  v["terrain"] = "point";
  v["att-units"] = 4;
  v["att-leaders"] = 1;
  v["att-war"] = 3;
  v["def-units"] = 3;
  v["def-leaders"] = 0;
  v["def-war"] = 1;
  v["method"] = "sim";
  v["trials"] = trials;
  v["seed"] = 7;
  return v;
}

TEST(GuiRunner, ASimulatedSupplyLinesBattleIsTheClisDocument) {
  const auto* battle = cat().find("nt", "battle");
  const json v = simulated_battle(200'000);
  background_runner runner;
  runner.start(*battle, v, v.dump());
  runner.wait();
  // The battle said how many trials it was asked for, and did them all.
  EXPECT_EQ(runner.total(), 200'000u);
  EXPECT_EQ(runner.done(), 200'000u);
  auto f = runner.take_finished();
  ASSERT_TRUE(f.has_value());
  ASSERT_TRUE(f->result.ok) << f->result.message();
  const json got = musket::cli::versioned(f->result.report.document);
  EXPECT_FALSE(got.at("method").contains("cancelled"));
  // `musket nt battle ... --method sim --format json` with the same seed and trials: the very same
  // document, numbers and intervals included (less the time `musket` measured).
  auto words = command_arguments(*battle, v);
  words.insert(words.begin(), {"nt", "battle"});
  words.insert(words.end(), {"--format", "json"});
  const auto [code, out] = musket_output(words);
  ASSERT_EQ(code, 0) << out;
  json cli = json::parse(out);
  cli.at("method").erase("work");
  EXPECT_EQ(got, cli);
  // And it agrees with the exact answer: each exact probability within its interval (widened by
  // 0.002 so a 1-in-20 miss of a 95% interval does not fail the test).
  json exact_values = v;
  exact_values["method"] = "exact";
  const outcome exact = run(*battle, exact_values);
  ASSERT_TRUE(exact.ok) << exact.message();
  for (const auto& key : {"defender_stands", "defender_retreats", "defender_victory"}) {
    const double p = exact.report.document.at("outcomes").at(key).get<double>();
    const auto& ci = got.at("intervals").at(std::string("outcomes.") + key);
    EXPECT_LE(ci.at("low").get<double>() - 0.002, p) << key;
    EXPECT_GE(ci.at("high").get<double>() + 0.002, p) << key;
  }
}

TEST(GuiRunner, ASimulatedSupplyLinesBattleReportsItsTrialsAndStopsWhenCancelled) {
  const auto* battle = cat().find("nt", "battle");
  const json v = simulated_battle(100'000'000);  // minutes: only a cancel ends it in time
  background_runner runner;
  runner.start(*battle, v, v.dump());
  while (runner.done() == 0 && runner.running()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  ASSERT_TRUE(runner.running()) << "the battle finished before it could be cancelled";
  EXPECT_EQ(runner.total(), 100'000'000u) << "the battle says how many trials it was asked for";
  runner.cancel(std::chrono::hours(1));  // it must heed the cancel: an abandoned run fails below
  const std::uint64_t done_at_cancel = runner.done();
  runner.wait();
  auto f = runner.take_finished();
  ASSERT_TRUE(f.has_value());
  EXPECT_FALSE(f->abandoned);
  ASSERT_TRUE(f->result.ok) << f->result.message();
  const json& doc = f->result.report.document;
  EXPECT_TRUE(doc.at("method").at("cancelled").get<bool>());
  // The trials done so far: each thread ends the chunk it was in when asked, and starts no other.
  const std::uint64_t trials = doc.at("method").at("trials").get<std::uint64_t>();
  const std::uint64_t threads = std::max(1u, std::thread::hardware_concurrency());
  EXPECT_GE(trials, done_at_cancel);
  EXPECT_LE(trials, done_at_cancel + threads * musket::simulation_options{}.chunk_trials);
  EXPECT_LT(trials, 100'000'000u);
  // Its fractions are of the trials done: the five outcomes add up to one.
  double sum = 0;
  for (const auto& [key, p] : doc.at("outcomes").items()) sum += p.get<double>();
  EXPECT_NEAR(sum, 1.0, 1e-9);
}

TEST(GuiRunner, ASimulatedSupplyLinesBattleCancelledBeforeItsFirstTrialReportsNothing) {
  const auto* battle = cat().find("nt", "battle");
  // Asked to stop before it starts: the first chunk is never begun, so there is nothing to report.
  std::atomic<bool> cancel{true};
  std::atomic<std::uint64_t> done{0}, total{0};
  const musket::cli::run_context context{&cancel, &done, &total};
  const musket::cli::scoped_run_context scope(&context);
  const outcome r = run(*battle, simulated_battle(1'000'000));
  EXPECT_FALSE(r.ok);
  EXPECT_TRUE(r.cancelled);
  EXPECT_EQ(done.load(), 0u);
  EXPECT_EQ(total.load(), 1'000'000u);
}

TEST(GuiRunner, AnIllegalSimulatedBattleGivesTheClisMessage) {
  const auto* battle = cat().find("nt", "battle");
  json v = simulated_battle(1000);
  v["att-leaders"] = 0;  // the attack needs its leader: out of the option's range
  background_runner runner;
  runner.start(*battle, v, v.dump());
  auto f = finish(runner, 60);
  ASSERT_TRUE(f.has_value());
  EXPECT_FALSE(f->result.ok);
  EXPECT_FALSE(f->result.cancelled);
  EXPECT_EQ(f->result.message(), "--att-leaders: 0 is out of range; allowed 1..9");
}

TEST(GuiRunner, ASweepCountsItsPointsAndACancelledOneReportsNothing) {
  const auto* sweep = cat().find("nt", "sweep");
  ASSERT_NE(sweep, nullptr);
  json v = initial_values(*sweep);
  v["command"] = "campaign";
  v["file"] = std::string(MUSKET_EXAMPLES_DIR) + "/nt-campaign.json";
  v["vary"] = "army-units=1..99;seed=1..100";  // 9900 campaigns
  v["method"] = "sim";
  v["trials"] = "1000";
  background_runner runner;
  runner.start(*sweep, v, v.dump());
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (runner.done() == 0 && std::chrono::steady_clock::now() < until)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  EXPECT_EQ(runner.total(), 99u * 100u) << "a sweep's progress is in points";
  EXPECT_GT(runner.done(), 0u);
  runner.cancel();
  auto f = finish(runner, 10);
  ASSERT_TRUE(f.has_value());
  EXPECT_FALSE(f->abandoned);
  EXPECT_TRUE(f->result.cancelled) << f->result.message();
  EXPECT_FALSE(f->result.ok);
}

TEST(GuiRunner, ARunForOldInputsIsNeverHandedOutAfterANewStart) {
  const auto* campaign = cat().find("gl", "campaign");
  if (!campaign) GTEST_SKIP() << "the Great Lakes engine is not in this build";
  json slow = initial_values(*campaign);
  slow["file"] = std::string(MUSKET_EXAMPLES_DIR) + "/gl-campaign.json";
  slow["trials"] = 50'000'000;
  background_runner runner;
  runner.start(*campaign, slow, "slow");
  const auto* raid = cat().find("ss", "raid");
  json fast = initial_values(*raid);
  runner.start(*raid, fast, "fast");
  auto f = finish(runner, 10);
  ASSERT_TRUE(f.has_value());
  EXPECT_EQ(f->key, "fast");
  ASSERT_TRUE(f->result.ok);
  EXPECT_EQ(f->result.report.document.at("command"), "raid");
  EXPECT_FALSE(runner.take_finished().has_value());
}

TEST(GuiRunner, ACommandThatIgnoresTheCancelIsAbandonedNotWaitedFor) {
  // A Great Lakes simulated battle of ~3 s; whether or not the command reads the run context, a
  // cancel ends the run for the user within the grace period.
  const auto* battle = cat().find("gl", "battle");
  if (!battle) GTEST_SKIP() << "the Great Lakes engine is not in this build";
  json v = initial_values(*battle);
  v["method"] = "sim";
  v["trials"] = 5'000'000;
  background_runner runner;
  runner.start(*battle, v, v.dump());
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  ASSERT_TRUE(runner.running());
  const auto cancelled_at = std::chrono::steady_clock::now();
  runner.cancel(std::chrono::milliseconds(300));
  auto f = finish(runner, 10);
  ASSERT_TRUE(f.has_value());
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - cancelled_at).count();
  EXPECT_LT(seconds, 1.0);
  // Either abandoned (no result) or stopped early by the command itself (fewer trials, marked).
  if (f->abandoned) {
    EXPECT_TRUE(f->result.cancelled);
    EXPECT_FALSE(f->result.ok);
  } else {
    ASSERT_TRUE(f->result.ok) << f->result.message();
    EXPECT_LT(f->result.report.document.at("method").at("trials").get<std::uint64_t>(), 5'000'000u);
  }
}

}  // namespace

namespace {

// Issue 38 item 4: every input the CLI gives a default starts at that default: a fresh panel asks
// what `musket` with the same options left out asks. The defaults are read here from the CLI's own
// option descriptions (flags: off); only inputs the CLI has no default for may start elsewhere.
TEST(GuiModel, EveryDefaultIsTheCliDefault) {
  std::size_t compared = 0;
  for (const auto& game : cat().games())
    for (const auto& calc : game.calculators) {
      po::options_description desc;
      calc.cli_command->add_options(desc);
      for (const auto& option : desc.options()) {
        const input_spec* in = calc.find_input(option->long_name());
        if (!in) continue;
        SCOPED_TRACE(game.code + " " + calc.command + " --" + option->long_name());
        const auto semantic = option->semantic();
        boost::any fallback;
        json cli;
        if (semantic->max_tokens() == 0)
          cli = false;  // a flag not given
        else if (semantic->apply_default(fallback)) {
          if (auto* i = boost::any_cast<int>(&fallback)) cli = *i;
          if (auto* u = boost::any_cast<std::uint64_t>(&fallback)) cli = static_cast<long long>(*u);
          if (auto* s = boost::any_cast<std::string>(&fallback)) cli = *s;
        }
        if (cli.is_null()) continue;  // required, or optional: the panel may start with a value
        EXPECT_EQ(in->initial, cli);
        EXPECT_EQ(initial_values(calc).at(in->name), cli);
        ++compared;
      }
    }
  EXPECT_GT(compared, 100u);
  // The SS battle starts as `musket ss battle` takes it: no Cornwallis, so at most 4 Crown units.
  const auto* ss = cat().find("ss", "battle");
  ASSERT_NE(ss, nullptr);
  EXPECT_EQ(initial_values(*ss).at("crown-commander"), false);
  const outcome r = run(*ss, initial_values(*ss));
  EXPECT_TRUE(r.ok) << r.message();
}

// Issue 38 item 1: the leader field is a choice of the side's commanders (data/gl/commanders.json,
// GL 11.26-11.27) or none, and a run with a wrong one is the CLI's refusal with its suggestion.
TEST(GuiModel, LeadersAreChosenFromTheSidesCommanders) {
  namespace gl = musket::great_lakes;
  const auto* battle = cat().find("gl", "battle");
  if (!battle) GTEST_SKIP() << "the Great Lakes engine is not in this build";
  EXPECT_EQ(structured_input(*battle, *battle->find_input("att-leader")), structured_kind::leaders);
  EXPECT_EQ(structured_input(*battle, *battle->find_input("def-leader")), structured_kind::leaders);
  EXPECT_EQ(leader_choices(gl::nation::american), (std::vector<std::string>{"", "Brown", "Scott", "Brown; Scott"}));
  EXPECT_EQ(leader_choices(gl::nation::british),
            (std::vector<std::string>{"", "Drummond", "Riall", "Drummond; Riall"}));
  json v = initial_values(*battle);
  EXPECT_EQ(leader_side(v, "att-leader"), gl::nation::american);
  EXPECT_EQ(leader_side(v, "def-leader"), gl::nation::british);
  v["att-side"] = "british";
  EXPECT_EQ(leader_side(v, "att-leader"), gl::nation::british);
  EXPECT_EQ(leader_side(v, "def-leader"), gl::nation::american);
  v["def-side"] = "british";
  EXPECT_EQ(leader_side(v, "def-leader"), gl::nation::british);
  // Every choice runs; a leader typed into a saved scenario is the CLI's check.
  v = initial_values(*battle);
  v["method"] = "exact";
  for (const auto& choice : leader_choices(gl::nation::american)) {
    v["att-leader"] = choice;
    const outcome r = run(*battle, v);
    EXPECT_TRUE(r.ok) << choice << ": " << r.message();
  }
  for (const auto& [leader, suggestion] : std::vector<std::pair<std::string, std::string>>{
           {"Browne", " (did you mean 'Brown'?)"}, {"Smith", ""}, {"Riall", ""}}) {
    v["att-leader"] = leader;
    const outcome r = run(*battle, v);
    EXPECT_FALSE(r.ok) << leader;
    EXPECT_EQ(r.error_field, "att-leader");
    EXPECT_NE(r.error.find("'" + leader + "'"), std::string::npos) << r.error;
    EXPECT_NE(r.error.find("allowed"), std::string::npos) << r.error;
    EXPECT_EQ(r.error.find('\n'), std::string::npos) << r.error;
    if (!suggestion.empty()) {
      EXPECT_NE(r.message().find(suggestion), std::string::npos) << r.message();
    }
  }
}

}  // namespace
