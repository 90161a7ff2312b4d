// How results read: percentages, plain numbers and CSV fields by hand, and the table and CSV of
// hand-built documents line by line (stats and intervals in the shapes the result model gives).
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include "cli/csv_writer.hpp"
#include "cli/number_text.hpp"
#include "cli/report.hpp"
#include "cli/table_renderer.hpp"

namespace {

using musket::cli::json;

std::vector<std::string> output_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

bool has_line(const std::vector<std::string>& lines, const std::string& line) {
  for (const auto& l : lines)
    if (l == line) return true;
  return false;
}

TEST(OutputNumbers, PercentKeepsValuesNearZeroAndOneTruthful) {
  using musket::cli::percent;
  EXPECT_EQ(percent(761.0 / 1944), "39.1%");
  // SS siege, 3 Food, 1/6 resupply, 10 turns: holds out 337/1259712 = 0.02675...%.
  EXPECT_EQ(percent(337.0 / 1259712), "0.027%");
  // ... and surrenders by turn 10 with 1 - 337/1259712 = 99.97325...%.
  EXPECT_EQ(percent(1259375.0 / 1259712), "99.973%");
  EXPECT_EQ(percent(0.999), "99.9%");
  EXPECT_EQ(percent(0.0005), "0.050%");
  EXPECT_EQ(percent(0.5), "50.0%");
  EXPECT_EQ(percent(0.0), "0%");
  EXPECT_EQ(percent(1.0), "100%");
  EXPECT_EQ(percent(1e-9), "<0.0001%");
  EXPECT_EQ(percent(1.0 - 1e-9), ">99.9999%");
  EXPECT_EQ(musket::cli::percent_cell(0.0), "-");
  EXPECT_EQ(musket::cli::percent_cell(0.25), "25.0%");
  EXPECT_EQ(musket::cli::percent_interval(0.545, 0.547), "[54.5, 54.7]");
  EXPECT_EQ(musket::cli::percent_interval(2.7e-20, 0.00038399837), "[0, 0.038]");
}

TEST(OutputNumbers, PlainAndShortestNumbers) {
  using musket::cli::plain_number;
  EXPECT_EQ(plain_number(5.09175), "5.092");
  EXPECT_EQ(plain_number(12.0), "12");
  EXPECT_EQ(plain_number(-3.0), "-3");
  EXPECT_EQ(plain_number(0.0123456), "0.01235");
  EXPECT_EQ(plain_number(1234.56), "1234.6");
  EXPECT_EQ(plain_number(1.5), "1.5");
  EXPECT_EQ(musket::cli::shortest_decimal(0.6358), "0.6358");
  EXPECT_EQ(musket::cli::shortest_decimal(2.0 / 3), "0.6666666666666666");
  EXPECT_EQ(musket::cli::shortest_decimal(0.0), "0");
}

// The reader of --win-value and --time-budget: a whole decimal text, finite, or nothing.
TEST(OutputNumbers, DecimalNumbersReadWhole) {
  using musket::cli::decimal_number;
  EXPECT_EQ(decimal_number("0.5"), 0.5);
  EXPECT_EQ(decimal_number("-2"), -2.0);
  EXPECT_EQ(decimal_number("1e3"), 1000.0);
  EXPECT_EQ(decimal_number(".25"), 0.25);
  for (const char* bad : {"", " 1", "1 ", "+1", "0x10", "1.5s", "inf", "nan", "1e999", "1e-999", "1..2", "-"})
    EXPECT_FALSE(decimal_number(bad).has_value()) << bad;
}

TEST(OutputNumbers, FractionsSplitAndShortened) {
  using musket::cli::fraction_parts;
  EXPECT_EQ(fraction_parts("1/12"), std::make_pair(std::string("1"), std::string("12")));
  EXPECT_EQ(fraction_parts("-3/4"), std::make_pair(std::string("-3"), std::string("4")));
  EXPECT_EQ(fraction_parts("7"), std::make_pair(std::string("7"), std::string("1")));
  EXPECT_FALSE(fraction_parts("[1/2, 3/4]").has_value());
  EXPECT_FALSE(fraction_parts("1/x").has_value());
  EXPECT_EQ(musket::cli::readable_fraction("3125/23328"), "3125/23328");
  EXPECT_EQ(musket::cli::readable_fraction("21875/1679616"), "");
  EXPECT_EQ(musket::cli::readable_fraction("0/1"), "");
}

TEST(OutputCsv, FieldsQuotedAsRfc4180) {
  using musket::cli::csv_field;
  EXPECT_EQ(csv_field("plain"), "plain");
  EXPECT_EQ(csv_field("a,b"), "\"a,b\"");
  EXPECT_EQ(csv_field("say \"hi\""), "\"say \"\"hi\"\"\"");
  EXPECT_EQ(csv_field("two\nlines"), "\"two\nlines\"");
  EXPECT_EQ(csv_field("cr\r"), "\"cr\r\"");
  EXPECT_EQ(musket::cli::csv_line({"x", "1,2", ""}), "x,\"1,2\",\n");
  EXPECT_EQ(musket::cli::csv_value(json(true)), "true");
  EXPECT_EQ(musket::cli::csv_value(json(0.1)), "0.1");
  EXPECT_EQ(musket::cli::csv_value(json(nullptr)), "");
}

// One die's worth of losses: 0, 1 or 2 with 1/4, 1/2, 1/4; mean 1, variance 1/2.
musket::cli::report losses_report() {
  musket::cli::report r;
  r.title = "Test battle";
  r.verdict = "the defender loses 1 or more 75.0%";
  r.document = json::parse(R"({
    "game": "nt", "command": "battle",
    "inputs": {"att-units": 3, "def-leaders": 0, "trials": 1000, "seed": 1},
    "defaults": ["def-leaders", "trials", "seed"],
    "method": {"name": "exact"},
    "losses": [0.25, 0.5, 0.25],
    "name, with comma": "a \"quoted\" word",
    "stats": {"losses": {"mean": 1.0, "sd": 0.7071067811865476, "median": 1, "p05": 0, "p95": 2, "min": 0,
                         "max": 2, "at_least": [1.0, 0.75, 0.25], "at_most": [0.25, 0.75, 1.0]}},
    "exact": {"losses": ["1/4", "1/2", "1/4"],
              "stats": {"losses": {"mean": "1", "variance": "1/2", "at_least": ["1", "3/4", "1/4"],
                                   "at_most": ["1/4", "3/4", "1"]}}}
  })");
  r.result_keys = {"losses", "name, with comma"};
  return r;
}

TEST(OutputTable, DistributionWithAtLeastAndStatistics) {
  const auto lines = output_lines(musket::cli::render(losses_report(), musket::cli::output_format::table));
  // 0.25 of a 30-character bar is 8 characters, 0.5 is 15.
  const std::vector<std::string> expected{
      "Test battle",
      "defaults: --def-leaders 0",  // trials and seed change nothing in an exact answer
      "the defender loses 1 or more 75.0%",
      "",
      "losses",
      "     chance  at least  exact",
      "  0   25.0%      100%  1/4    ########",
      "  1   50.0%     75.0%  1/2    ###############",
      "  2   25.0%     25.0%  1/4    ########",
      "  mean 1, sd 0.7071, median 1, 90% between 0 and 2, range 0 to 2",
      "",
      "name, with comma  a \"quoted\" word",
  };
  EXPECT_EQ(lines, expected);
}

TEST(OutputTable, SimulatedProbabilityCarriesItsInterval) {
  musket::cli::report r;
  r.document = json::parse(R"({
    "method": {"name": "simulation", "trials": 100000, "seed": 7},
    "defaults": ["seed"], "inputs": {"seed": 7},
    "outcomes": {"stands": 0.454, "retreats": 0.546},
    "summary": {"dislodged": 0.546, "mean_losses": 1.25},
    "losses": [0.5, 0.5],
    "stats": {"losses": {"mean": 0.5, "sd": 0.5, "median": 0, "p05": 0, "p95": 1, "min": 0, "max": 1,
                         "at_least": [1.0, 0.5], "at_most": [0.5, 1.0]}},
    "intervals": {"outcomes.stands": {"low": 0.451, "high": 0.457, "level": 0.95},
                  "outcomes.retreats": {"low": 0.543, "high": 0.549, "level": 0.95},
                  "summary.dislodged": {"low": 0.545, "high": 0.547, "level": 0.95},
                  "losses": {"low": [0.497, 0.497], "high": [0.503, 0.503], "level": 0.95},
                  "stats.losses.mean": {"low": 0.497, "high": 0.503, "level": 0.95}}
  })");
  r.result_keys = {"outcomes", "summary", "losses", "intervals"};
  const auto lines = output_lines(musket::cli::render(r, musket::cli::output_format::table));
  const std::vector<std::string> expected{
      "defaults: --seed 7",
      "",
      "outcomes",
      "            chance  95% interval",
      "  stands     45.4%  [45.1, 45.7]  ##############",
      "  retreats   54.6%  [54.3, 54.9]  ################",
      "",
      "summary",
      "  dislodged    54.6% [54.5, 54.7]",
      "  mean losses                1.25",
      "",
      "losses",
      "     chance  at least  95% interval",
      "  0   50.0%      100%  [49.7, 50.3]  ###############",
      "  1   50.0%     50.0%  [49.7, 50.3]  ###############",
      "  mean 0.5 [0.497, 0.503], sd 0.5, median 0, 90% between 0 and 1, range 0 to 1",
      "",
      "method: simulation, trials 100000, seed 7",
  };
  EXPECT_EQ(lines, expected);
}

TEST(OutputTable, RecordsNestedMapsAndImpossibleOutcomes) {
  musket::cli::report r;
  r.document = json::parse(R"({
    "options": [{"letter": "B", "name": "No British Mercenaries", "adjustment": -14},
                {"letter": "D", "name": "Increased Effort", "adjustment": 9}],
    "turns": [{"step": "turn-10", "cap": {"9": 0.25, "10": 0.75}, "plan": {"a": {"b": 1}}}],
    "surrenders": {"1": 0.0, "2": 1.0},
    "exact": {"surrenders": {"1": "0/1", "2": "1"}}
  })");
  r.result_keys = {"options", "turns", "surrenders"};
  const auto text = musket::cli::render(r, musket::cli::output_format::table);
  const auto lines = output_lines(text);
  const std::vector<std::string> expected{
      "",
      "options",
      "  letter  name                    adjustment",
      "  B       No British Mercenaries         -14",
      "  D       Increased Effort                 9",
      "",
      "turns",
      "  step     cap                plan",
      "  turn-10  9 25.0%, 10 75.0%  a: b 1",
      "",
      "surrenders",
      "  1     -",
      "  2  100%  1  ##############################",
  };
  EXPECT_EQ(lines, expected);
  EXPECT_EQ(text.find('{'), std::string::npos) << text;  // no raw JSON
}

// A sweep's long rows: each metric and varied parameter by its label (cli/result_labels.hpp), a
// probability and its interval bounds as percentages alike, a mean as a plain number with no
// interval, an illegal point's missing value as "-".
TEST(OutputTable, LongRowsReadByLabelWithPercentagesAlike) {
  musket::cli::report r;
  r.document = json::parse(R"({"points": [
    {"att-war": 1, "metric": "summary.defender_dislodged", "value": 0.25, "low": 0.2, "high": 0.3},
    {"att-war": 1, "metric": "summary.expected_attacker_losses", "value": 1.5, "low": null, "high": null},
    {"att-war": 2, "metric": "summary.defender_dislodged", "value": null, "illegal": "--att-war: 2 is out of range", "low": null, "high": null},
    {"att-war": 2, "metric": "summary.expected_attacker_losses", "value": 0.75, "low": null, "high": null},
    {"att-war": 3, "metric": "summary.defender_dislodged", "value": 0.0, "low": 0.0, "high": 0.01},
    {"att-war": 3, "metric": "summary.expected_attacker_losses", "value": null, "low": null, "high": null}]})");
  r.result_keys = {"points"};
  const auto lines = output_lines(musket::cli::render(r, musket::cli::output_format::table));
  // One meaning per mark: an illegal point (its row names why) reads "illegal", not "-", which is
  // an impossible outcome (exactly 0); a value the command left null reads "unknown". The reason
  // is no column of its own (the notes list it).
  const std::vector<std::string> expected{
      "",
      "points",
      "  Attacker War  metric                      value    low   high",
      "             1  P(defender dislodged)       25.0%  20.0%  30.0%",
      "             1  Expected attacker losses      1.5",
      "             2  P(defender dislodged)     illegal",
      "             2  Expected attacker losses     0.75",
      "             3  P(defender dislodged)           -      -   1.0%",
      "             3  Expected attacker losses  unknown",
  };
  EXPECT_EQ(lines, expected);
  // The CSV reads the same marks.
  const std::string csv = musket::cli::render(r, musket::cli::output_format::csv);
  EXPECT_NE(csv.find("\npoints.2.value,illegal,,\n"), std::string::npos) << csv;
  EXPECT_NE(csv.find("\npoints.4.value,0,,\n"), std::string::npos) << csv;
  EXPECT_NE(csv.find("\npoints.5.value,,,\n"), std::string::npos) << csv;
}

// AR's blank CRT cells leave a probability between two bounds: one line, not a two-row histogram.
TEST(OutputTable, RangesReadFromTo) {
  musket::cli::report r;
  r.document = json::parse(R"({
    "major_success": {"min": 0.5, "max": 0.75},
    "partial_withdrawal": {"min": 0.0, "max": 0.0},
    "exact": {"major_success": {"min": "1/2", "max": "3/4"}}
  })");
  r.result_keys = {"major_success", "partial_withdrawal"};
  const std::vector<std::string> expected{"", "major success       50.0% to 75.0%  1/2 to 3/4",
                                          "partial withdrawal               -"};
  EXPECT_EQ(output_lines(musket::cli::render(r, musket::cli::output_format::table)), expected);
}

TEST(OutputCsv, LongRowsWithExactNumeratorAndDenominator) {
  const auto lines = output_lines(musket::cli::render(losses_report(), musket::cli::output_format::csv));
  ASSERT_FALSE(lines.empty());
  EXPECT_EQ(lines[0], "key,value,exact_num,exact_den");
  EXPECT_TRUE(has_line(lines, "losses.0,0.25,1,4"));
  EXPECT_TRUE(has_line(lines, "losses.1,0.5,1,2"));
  EXPECT_TRUE(has_line(lines, "\"name, with comma\",\"a \"\"quoted\"\" word\",,"));
  EXPECT_TRUE(has_line(lines, "stats.losses.mean,1,1,1"));
  EXPECT_TRUE(has_line(lines, "stats.losses.sd,0.7071067811865476,,"));
  EXPECT_TRUE(has_line(lines, "stats.losses.at_least.1,0.75,3,4"));
  EXPECT_TRUE(has_line(lines, "stats.losses.at_most.2,1,1,1"));
}

TEST(OutputJson, SchemaVersionComesFirst) {
  const json doc = json::parse(musket::cli::render(losses_report(), musket::cli::output_format::json_format));
  EXPECT_EQ(doc.begin().key(), "schema_version");
  EXPECT_EQ(doc["schema_version"], musket::cli::schema_version);
  EXPECT_EQ(doc["exact"]["losses"][1], "1/2");
}

// Issue 39: a table fits the width it is drawn to. A note wraps under its dash; a table whose
// columns cannot all fit is folded into one block per row; a few long text columns wrap in place;
// a distribution's bars shorten before anything wraps.
TEST(OutputTableWidth, NotesWrapUnderTheirDash) {
  musket::cli::report r;
  r.document = json::parse(R"({"n": 1, "notes": ["one two three four five six seven eight nine ten"]})");
  r.result_keys = {"n"};
  const auto lines = output_lines(musket::cli::render_table(r, 24));
  const std::vector<std::string> expected{
      "", "n  1", "", "Notes:", "  - one two three four", "    five six seven eight", "    nine ten"};
  EXPECT_EQ(lines, expected);
}

TEST(OutputTableWidth, TooManyColumnsFoldIntoRecords) {
  musket::cli::report r;
  r.document = json::parse(R"({"steps": [
    {"step": "lake-champlain", "kind": "march", "reached": 1.0, "mean units": 9},
    {"step": "albany", "kind": "attack", "reached": 0.25, "mean units": 6.5}]})");
  r.result_keys = {"steps"};
  // Natural width: 2 + 14 + 2 + 6 + 2 + 7 + 2 + 10 = 45 columns.
  const auto wide = output_lines(musket::cli::render_table(r, 45));
  EXPECT_TRUE(has_line(wide, "  step            kind    reached  mean units")) << wide.size();
  const auto lines = output_lines(musket::cli::render_table(r, 44));
  const std::vector<std::string> expected{"",
                                          "steps",
                                          "  step        lake-champlain",
                                          "  kind        march",
                                          "  reached     100%",
                                          "  mean units  9",
                                          "",
                                          "  step        albany",
                                          "  kind        attack",
                                          "  reached     25.0%",
                                          "  mean units  6.5"};
  EXPECT_EQ(lines, expected);
}

TEST(OutputTableWidth, LongTextCellsWrapInPlace) {
  musket::cli::report r;
  r.document = json::parse(R"({"pairs": [
    {"pair": "A-B", "sources": "incompatible: Option Compatibility Chart, row A as printed"},
    {"pair": "A-E", "sources": "compatible"}]})");
  r.result_keys = {"pairs"};
  // 2 + 4 + 2 = 8 columns before the sources column, which gets the other 32.
  const auto lines = output_lines(musket::cli::render_table(r, 40));
  const std::vector<std::string> expected{"",
                                          "pairs",
                                          "  pair  sources",
                                          "  A-B   incompatible: Option",
                                          "        Compatibility Chart, row A as",
                                          "        printed",
                                          "  A-E   compatible"};
  EXPECT_EQ(lines, expected);
}

// Issue 37: a map's cell (a hit allocation) wraps between its items, never parting a unit from its
// count, and a column empty in every row (no exception to the advice) goes with its header. The
// two cells are 38 columns, the room 64: 4 for "hits", 2 gaps of 2, so 28 each, where wrapping at
// spaces would end the first line "11th 1, 21st 2, NYMil 1, Art" (28); "11th 1, 21st 2, NYMil 1,"
// is 24, and "Art 1," would make it 31.
TEST(OutputTableWidth, MapCellsWrapBetweenTheirItems) {
  musket::cli::report r;
  r.document = json::parse(R"({"hits": [
    {"hits": 6, "optimal": {"11th": 1, "21st": 2, "NYMil": 1, "Art": 1, "Drag": 1},
     "rulings": {"11th": 2, "21st": 1, "NYMil": 1, "Art": 1, "Drag": 1}, "otherwise": []}]})");
  r.result_keys = {"hits"};
  const auto lines = output_lines(musket::cli::render_table(r, 66));
  const std::vector<std::string> expected{"", "hits", "  hits  optimal                   rulings",
                                          "     6  11th 1, 21st 2, NYMil 1,  11th 2, 21st 1, NYMil 1,",
                                          "        Art 1, Drag 1             Art 1, Drag 1"};
  EXPECT_EQ(lines, expected);
}

// A record's nested list of more than three entries is counted, not drawn (the JSON lists them),
// an empty one draws nothing, and each nested section is named by the record's first field where
// no text field names it ("hits 2"), or where that field is a short list by it; a null reroll is
// the reroll kept (GL 11.26).
TEST(OutputTable, LongNestedListsAreCountedAndEmptyOnesLeftOut) {
  musket::cli::report r;
  json many = json::array();
  for (int i = 0; i < 4; ++i) many.push_back(json{{"when", json{{"round", i}}}, {"reroll", "B"}});
  r.document = json::object();
  r.document["hits"] = json::array({json{{"hits", 1}, {"optimal", json{{"A", 1}}}, {"otherwise", json::array()}},
                                    json{{"hits", 2}, {"optimal", json{{"A", 2}}}, {"otherwise", many}}});
  r.document["rerolls"] =
      json::array({json{{"failed_on_one_die", json::array({"A", "B"})}, {"reroll", nullptr}, {"otherwise", many}}});
  r.result_keys = {"hits", "rerolls"};
  const auto lines = output_lines(musket::cli::render_table(r, 100));
  const std::vector<std::string> expected{"",
                                          "hits",
                                          "  hits  optimal",
                                          "     1  A 1",
                                          "     2  A 2",
                                          "  hits 2: otherwise: 4 entries (--format json lists them)",
                                          "",
                                          "rerolls",
                                          "  failed on one die   reroll",
                                          "  A B                keep it",
                                          "  failed on one die A B: otherwise: 4 entries (--format json lists them)"};
  EXPECT_EQ(lines, expected);
}

TEST(OutputTable, ShortMapsOfMapsReadOnOneLineByTheirLeavesPaths) {
  // An advice's exceptions ({when: {hits: {attacker, defender}, failed}, optimal}): each case one
  // row, its `when` by the paths of its non-empty leaves (worked by hand: the empty defender map
  // and the empty list are left out; a case with every leaf empty reads "none"). A map of maps
  // past 60 characters stays a section under the table.
  musket::cli::report r;
  auto when = [](json attacker, json failed) {
    return json{{"hits", json{{"attacker", attacker}, {"defender", json::object()}}}, {"failed", failed}};
  };
  r.document = json::object();
  r.document["hits"] = json::array(
      {json{{"hits", 2},
            {"optimal", json{{"A", 2}}},
            {"otherwise", json::array({json{{"when", when(json::object(), json::array())}, {"optimal", json{{"B", 2}}}},
                                       json{{"when", when(json{{"A", 1}, {"B", 0}}, json::array({"C"}))},
                                            {"optimal", json{{"A", 1}, {"B", 1}}}}})}}});
  r.result_keys = {"hits"};
  const std::string widest = "hits attacker: A 1; failed: C";  // (the column's width)
  const std::vector<std::string> expected{"",
                                          "hits",
                                          "  hits  optimal",
                                          "     2  A 2",
                                          "  hits 2: otherwise",
                                          "    when" + std::string(widest.size() - 4, ' ') + "  optimal",
                                          "    none" + std::string(widest.size() - 4, ' ') + "  B 2",
                                          "    " + widest + "  A 1, B 1"};
  EXPECT_EQ(output_lines(musket::cli::render_table(r, 100)), expected);
  EXPECT_EQ(musket::cli::cell_text("when", when(json{{"A", 1}}, json::array())), "hits attacker: A 1");
  // Past 60 characters: drawn as a section, its leaves each on a line.
  json wide =
      json{{"hits", 1},
           {"when", when(json{{"Aaaaaaaaaaaaaaaaaaaaaa", 1}, {"Bbbbbbbbbbbbbbbbbbbbbbbbbbbbb", 1}}, json::array())}};
  r.document["hits"] = json::array({wide});
  const auto lines = output_lines(musket::cli::render_table(r, 100));
  EXPECT_TRUE(has_line(lines, "  hits 1: when")) << musket::cli::render_table(r, 100);
}

TEST(OutputTableWidth, BarsShortenToFit) {
  musket::cli::report r;
  r.document = json::parse(R"({"d": {"1": 0.5, "2": 0.5}})");
  r.result_keys = {"d"};
  // At 100 the bar is 15 of 30 marks. At 22 the row needs 2 + 1 + 2 + 5 + 2 + 15 = 27 columns: the
  // bar column loses 5 (to 10), so 100% is 20 marks and 50% is 10.
  EXPECT_TRUE(has_line(output_lines(musket::cli::render_table(r, 100)), "  1  50.0%  " + std::string(15, '#')));
  EXPECT_TRUE(has_line(output_lines(musket::cli::render_table(r, 22)), "  1  50.0%  " + std::string(10, '#')));
}

TEST(OutputTableWidth, WidthFromColumnsElsePipe) {
  ASSERT_EQ(setenv("COLUMNS", "73", 1), 0);
  EXPECT_EQ(musket::cli::output_width(), 73u);
  ASSERT_EQ(setenv("COLUMNS", "12", 1), 0);
  EXPECT_EQ(musket::cli::output_width(), 40u);  // never narrower than 40
  ASSERT_EQ(unsetenv("COLUMNS"), 0);
  if (!isatty(STDOUT_FILENO)) {
    EXPECT_EQ(musket::cli::output_width(), 100u);  // a pipe, as under ctest
  }
}

// A line nothing else shapes (a title) wraps at spaces, its further lines indented two; nothing is
// lost or repeated, even where the line held runs of spaces; a word longer than a line is cut.
TEST(OutputTableWidth, OtherLongLinesWrapWithNothingLost) {
  musket::cli::report r;
  r.title = "alpha beta  gamma delta epsilon zeta eta theta";
  r.document = json::parse(R"({"n": 1})");
  r.result_keys = {"n"};
  const auto lines = output_lines(musket::cli::render_table(r, 20));
  const std::vector<std::string> expected{"alpha beta gamma", "  delta epsilon zeta", "  eta theta", "", "n  1"};
  EXPECT_EQ(lines, expected);
  r.title = "abcdefghijklmnopqrstuvwxyz";
  const auto cut = output_lines(musket::cli::render_table(r, 20));
  EXPECT_EQ(cut[0], "abcdefghijklmnopqrst");
  EXPECT_EQ(cut[1], "  uvwxyz");
}

}  // namespace
