// Charts checked by structure: the SVG parsed as XML (python3's xml.etree) for its title, legend
// entries, one path per series, points and error bars; the PNG decoded (stb_image) for its size
// and colours; the PDF for its header and page. Labels and the sweep document's chart as values.
#include "cli/chart.hpp"

#include <gtest/gtest.h>
#include <stb_image.h>

#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "cli/chart_colours.hpp"
#include "cli/result_labels.hpp"
#include "cli/sweep_chart.hpp"
#include "core/invalid_input.hpp"

namespace {

using musket::invalid_input;
using nlohmann::json;
namespace chart = musket::cli::chart;

// What python3's XML parser finds in an SVG chart: its <title> and <desc>, the texts by class,
// each series (name, path count, points, error bars) and each heat-map cell (title, x, y).
json read_svg(const std::string& svg) {
  // Named after the test: ctest runs the tests of this file side by side, each in its own process.
  const std::string test = ::testing::UnitTest::GetInstance()->current_test_info()->name();
  const std::string path = ::testing::TempDir() + "chart_test_" + test + ".svg";
  std::ofstream(path, std::ios::binary) << svg;
  const std::string script =
      "import sys, json, xml.etree.ElementTree as E\n"
      "n = '{http://www.w3.org/2000/svg}'\n"
      "r = E.parse(sys.argv[1]).getroot()\n"
      "out = {'title': r.find(n + 'title').text, 'desc': r.find(n + 'desc').text, 'texts': {}, 'series': [],"
      " 'cells': [], 'panels': []}\n"
      "for t in r.iter(n + 'text'): out['texts'].setdefault(t.get('class'), []).append(t.text)\n"
      "for g in r.iter(n + 'g'):\n"
      "  if g.get('class') == 'series':\n"
      "    out['series'].append({'name': g.find(n + 'title').text,\n"
      "      'paths': sum(1 for p in g.iter(n + 'path') if p.get('class') == 'series'),\n"
      "      'points': [c.find(n + 'title').text for c in g.iter(n + 'circle') if c.get('class') == 'point'],\n"
      "      'error_bars': sum(1 for p in g.iter(n + 'path') if p.get('class') == 'error-bar')})\n"
      "  if g.get('class') == 'panel':\n"
      "    out['panels'].append(sum(1 for c in g.iter(n + 'rect') if c.get('class') == 'cell'))\n"
      "for c in r.iter(n + 'rect'):\n"
      "  if c.get('class') == 'cell':\n"
      "    out['cells'].append({'title': c.find(n + 'title').text, 'x': float(c.get('x')), 'y': float(c.get('y')),"
      " 'w': float(c.get('width')), 'h': float(c.get('height'))})\n"
      "print(json.dumps(out))\n";
  const std::string script_path = ::testing::TempDir() + "chart_test_read_svg_" + test + ".py";
  std::ofstream(script_path) << script;
  FILE* p = popen(("python3 " + script_path + " " + path).c_str(), "r");
  if (!p) return json();
  std::string text;
  char buffer[4096];
  for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, p)) > 0;) text.append(buffer, n);
  if (pclose(p) != 0) return json();
  return json::parse(text);
}

struct image {
  int width = 0, height = 0;
  std::vector<unsigned char> rgb;
  std::array<int, 3> at(int x, int y) const {
    const auto i = static_cast<std::size_t>((y * width + x) * 3);
    return {rgb[i], rgb[i + 1], rgb[i + 2]};
  }
  std::size_t count(const std::array<int, 3>& c) const {
    std::size_t n = 0;
    for (int y = 0; y < height; ++y)
      for (int x = 0; x < width; ++x) n += at(x, y) == c;
    return n;
  }
};

image decode_png(const std::string& bytes) {
  image out;
  int channels = 0;
  unsigned char* pixels = stbi_load_from_memory(reinterpret_cast<const unsigned char*>(bytes.data()),
                                                static_cast<int>(bytes.size()), &out.width, &out.height, &channels, 3);
  if (!pixels) return {};
  out.rgb.assign(pixels, pixels + static_cast<std::size_t>(out.width * out.height * 3));
  stbi_image_free(pixels);
  return out;
}

// Two probabilities over War 1..4; the first with 95% intervals when `intervals`, the second
// without a value at War 3 (an illegal point).
chart::line_chart two_lines(bool intervals) {
  chart::line_chart c;
  c.title = "P(defender dislodged) by Attacker War";
  c.subtitle = "musket nt sweep battle; fixed: def-war=2";
  c.x_label = "Attacker War";
  c.y_label = "Probability";
  c.y_is_probability = true;
  c.interval_level = 0.95;
  chart::series a{"P(defender dislodged)", {}}, b{"P(attacker victory)", {}};
  for (int x = 1; x <= 4; ++x) {
    const double y = 0.2 * x;
    a.points.push_back(chart::point{double(x), y, intervals ? std::optional(y - 0.05) : std::nullopt,
                                    intervals ? std::optional(y + 0.05) : std::nullopt});
    b.points.push_back(chart::point{double(x), x == 3 ? std::nullopt : std::optional(0.1 * x), {}, {}});
  }
  c.lines = {a, b};
  return c;
}

// A 3 x 2 heat map of x * y / 6 (0..1) with the cell at (2, 1) not legal.
chart::heat_map small_heat_map() {
  chart::heat_map h;
  h.title = "P(step 4 taken) by War carried and Food carried";
  h.subtitle = "musket nt sweep campaign";
  h.x_label = "War carried";
  h.y_label = "Food carried";
  h.value_label = "P(step 4 taken)";
  h.value_is_probability = true;
  h.xs = {1.0, 2.0, 3.0};
  h.ys = {std::string("low"), std::string("high")};
  h.cells.assign(3, std::vector<std::optional<double>>(2));
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 2; ++j)
      if (!(i == 1 && j == 0)) h.cells[i][j] = (i + 1) * (j + 1) / 6.0;
  h.interval_width = 0.032;
  h.interval_level = 0.95;
  return h;
}

TEST(Chart, FormatComesFromTheExtension) {
  EXPECT_EQ(chart::format_of_path("out/chart.svg"), chart::format::svg);
  EXPECT_EQ(chart::format_of_path("chart.png"), chart::format::png);
  EXPECT_EQ(chart::format_of_path("Chart.PDF"), chart::format::pdf);
  EXPECT_FALSE(chart::format_of_path("chart.gif"));
  EXPECT_FALSE(chart::format_of_path("chart"));
  EXPECT_FALSE(chart::format_of_path("charts.svg/plot"));
  EXPECT_FALSE(chart::format_of_path("chart.svgz"));
}

TEST(Chart, SvgLineChartNamesEverythingAndHasAPathPerSeries) {
  const json svg = read_svg(chart::write_chart(two_lines(true), chart::format::svg));
  ASSERT_FALSE(svg.is_null());
  EXPECT_EQ(svg["title"], "P(defender dislodged) by Attacker War");
  EXPECT_EQ(svg["desc"], "musket nt sweep battle; fixed: def-war=2");
  EXPECT_EQ(svg["texts"]["title"], json::array({"P(defender dislodged) by Attacker War"}));
  EXPECT_EQ(svg["texts"]["x-label"], json::array({"Attacker War"}));
  EXPECT_EQ(svg["texts"]["y-label"], json::array({"Probability"}));
  EXPECT_EQ(svg["texts"]["legend-entry"], json::array({"P(defender dislodged)", "P(attacker victory)"}));
  EXPECT_EQ(svg["texts"]["legend-note"], json::array({"bars: 95% intervals"}));
  // A percent axis: 0%, 20%, ..., 100%.
  const auto& ticks = svg["texts"]["tick"];
  for (const char* t : {"0%", "20%", "40%", "60%", "80%", "100%"})
    EXPECT_NE(std::find(ticks.begin(), ticks.end(), t), ticks.end()) << t;
  ASSERT_EQ(svg["series"].size(), 2u);
  EXPECT_EQ(svg["series"][0]["name"], "P(defender dislodged)");
  EXPECT_EQ(svg["series"][0]["paths"], 1);
  EXPECT_EQ(svg["series"][0]["points"].size(), 4u);
  EXPECT_EQ(svg["series"][0]["points"][1], "P(defender dislodged), Attacker War = 2: 40.00%");
  EXPECT_EQ(svg["series"][0]["error_bars"], 4);
  EXPECT_EQ(svg["series"][1]["paths"], 1);
  EXPECT_EQ(svg["series"][1]["points"].size(), 3u);  // no value at War 3
  EXPECT_EQ(svg["series"][1]["error_bars"], 0);
}

TEST(Chart, PngIsTheChartAtTwiceItsSizeInSeveralColours) {
  const auto c = two_lines(false);
  const image png = decode_png(chart::write_chart(c, chart::format::png));
  const chart::size size = chart::chart_size(c);
  EXPECT_GE(size.width, 600);
  EXPECT_GE(size.height, 400);
  EXPECT_EQ(png.width, chart::png_scale * size.width);
  EXPECT_EQ(png.height, chart::png_scale * size.height);
  std::set<std::array<int, 3>> colours;
  for (int y = 0; y < png.height; y += 3)
    for (int x = 0; x < png.width; x += 3) colours.insert(png.at(x, y));
  EXPECT_GT(colours.size(), 10u);
  // Both series are drawn in their palette colours, and the background is white.
  EXPECT_GT(png.count(chart::palette_rgb(0)), 500u);
  EXPECT_GT(png.count(chart::palette_rgb(1)), 500u);
  EXPECT_EQ(png.at(0, 0), (std::array<int, 3>{255, 255, 255}));
}

TEST(Chart, ErrorBarsAreDrawnWhenPointsHaveIntervals) {
  const image with = decode_png(chart::write_chart(two_lines(true), chart::format::png));
  const image without = decode_png(chart::write_chart(two_lines(false), chart::format::png));
  // Four bars of 0.1 (33 px of a 330 px axis) each, two pixels wide at scale 2, plus their caps.
  EXPECT_GT(with.count(chart::palette_rgb(0)), without.count(chart::palette_rgb(0)) + 4 * 33);
}

TEST(Chart, PdfIsOnePage) {
  const std::string pdf = chart::write_chart(small_heat_map(), chart::format::pdf);
  ASSERT_GT(pdf.size(), 1000u);
  EXPECT_EQ(pdf.substr(0, 5), "%PDF-");
  std::size_t pages = 0;
  for (std::size_t at = pdf.find("/Type /Page"); at != std::string::npos; at = pdf.find("/Type /Page", at + 1))
    pages += pdf.compare(at, 12, "/Type /Pages") != 0;
  EXPECT_EQ(pages, 1u);
  EXPECT_NE(pdf.find("%%EOF"), std::string::npos);
}

TEST(Chart, HeatMapHasACellPerPointAndAColourLegendWithTheIntervalWidth) {
  const auto h = small_heat_map();
  const json svg = read_svg(chart::write_chart(h, chart::format::svg));
  ASSERT_FALSE(svg.is_null());
  ASSERT_EQ(svg["cells"].size(), 6u);
  EXPECT_EQ(svg["cells"][0]["title"], "War carried = 1, Food carried = low: 16.67%");
  EXPECT_EQ(svg["cells"][2]["title"], "War carried = 2, Food carried = low: not legal");
  EXPECT_EQ(svg["texts"]["legend-title"], json::array({"P(step 4 taken)"}));
  const auto& legend = svg["texts"]["legend-entry"];
  for (const char* t : {"0%", "25%", "50%", "75%", "100%", "no legal point"})
    EXPECT_NE(std::find(legend.begin(), legend.end(), t), legend.end()) << t;
  std::string note;
  for (const auto& line : svg["texts"]["legend-note"]) note += line.get<std::string>() + " ";
  EXPECT_EQ(note, "95% intervals at most 3.2 percentage points wide ");

  // The PNG paints each cell in the ramp's colour for its value: darker for higher values, the
  // dashboard's direction. Sampled inside each cell, away from its value's text.
  const image png = decode_png(chart::write_chart(h, chart::format::png));
  for (const auto& cell : svg["cells"]) {
    const int x = static_cast<int>((cell["x"].get<double>() + 3) * chart::png_scale);
    const int y = static_cast<int>((cell["y"].get<double>() + 3) * chart::png_scale);
    const std::string title = cell["title"];
    if (title.ends_with("not legal")) continue;
    const double v = std::stod(title.substr(title.rfind(": ") + 2)) / 100;
    const auto want = chart::ramp_rgb(v), got = png.at(x, y);
    for (int k = 0; k < 3; ++k) EXPECT_NEAR(got[k], want[k], 2) << title;
  }
  EXPECT_LT(chart::ramp_rgb(1)[0], chart::ramp_rgb(0)[0]);
}

TEST(Chart, CategoricalXKeepsTheOrderGiven) {
  chart::line_chart c;
  c.title = "t";
  c.x_label = "Terrain";
  c.y_label = "Expected attacker losses";
  c.lines = {chart::series{"Expected attacker losses",
                           {{std::string("point"), 1.5, {}, {}}, {std::string("fort"), 2.5, {}, {}}}}};
  const json svg = read_svg(chart::write_chart(c, chart::format::svg));
  ASSERT_FALSE(svg.is_null());
  const auto& ticks = svg["texts"]["tick"];
  const auto point = std::find(ticks.begin(), ticks.end(), "point"),
             fort = std::find(ticks.begin(), ticks.end(), "fort");
  ASSERT_NE(point, ticks.end());
  ASSERT_NE(fort, ticks.end());
  EXPECT_LT(point - ticks.begin(), fort - ticks.begin());
  EXPECT_EQ(svg["series"][0]["points"][1], "Expected attacker losses, Terrain = fort: 2.5");
  // Not a probability: a plain axis from 0 to the highest value, in steps of 0.5.
  for (const char* t : {"0", "0.5", "2", "2.5"}) EXPECT_NE(std::find(ticks.begin(), ticks.end(), t), ticks.end()) << t;
  EXPECT_EQ(std::find(ticks.begin(), ticks.end(), "100%"), ticks.end());
}

TEST(Chart, SvgEscapesTextsAndTooltips) {
  chart::heat_map h = small_heat_map();
  h.x_label = "War <carried> & \"spent\"";
  h.cells[0][0] = 0.00003;  // a tooltip states 0.003%, not 0.00%
  h.cells[2][1] = 0.9999966;
  const json svg = read_svg(chart::write_chart(h, chart::format::svg));
  ASSERT_FALSE(svg.is_null());  // parsed as XML
  EXPECT_EQ(svg["texts"]["x-label"], json::array({"War <carried> & \"spent\""}));
  EXPECT_EQ(svg["cells"][0]["title"], "War <carried> & \"spent\" = 1, Food carried = low: 0.003%");
  EXPECT_EQ(svg["cells"][5]["title"], "War <carried> & \"spent\" = 3, Food carried = high: 99.9997%");
}

TEST(ResultLabels, KeysReadAsTheEventsTheyCount) {
  using musket::cli::result_label;
  EXPECT_EQ(result_label("summary.defender_dislodged", true), "P(defender dislodged)");
  EXPECT_EQ(result_label("summary.attacker_victory", true), "P(attacker victory)");
  EXPECT_EQ(result_label("steps.4.taken", true), "P(step 4 taken)");
  EXPECT_EQ(result_label("attacker_losses.2", true), "P(attacker losses = 2)");
  EXPECT_EQ(result_label("track_shift.-1", true), "P(track shift = -1)");
  EXPECT_EQ(result_label("outcomes.defender_retreats", true), "P(defender retreats)");
  EXPECT_EQ(result_label("locations.1.american_holds", true), "P(location 1 American holds)");
  EXPECT_EQ(result_label("summary.british_vp_ahead", true), "P(British ahead on VP)");
  EXPECT_EQ(result_label("end.completed_plan", true), "P(plan completed)");
  EXPECT_EQ(result_label("summary.american_victory_min", true), "P(American victory), lowest");
  EXPECT_EQ(result_label("summary.expected_attacker_losses", true), "Expected attacker losses");
  EXPECT_EQ(result_label("summary.mean_rounds", false), "Mean rounds");
  EXPECT_TRUE(musket::cli::names_a_number("summary.expected_track_shift"));
  EXPECT_FALSE(musket::cli::names_a_number("summary.attacker_victory"));
  // Optimal play's value and gains are the objective's numbers (SP on the value objective), never
  // "P(...)", though a gain of 0.08 SP lies in 0..1.
  for (const char* key : {"optimal_play.value", "optimal_play.value_default_play", "optimal_play.gain_attacker",
                          "optimal_play.gain_defender", "optimal_play.win_value", "stats.rounds.sd"})
    EXPECT_TRUE(musket::cli::names_a_number(key)) << key;
  EXPECT_EQ(result_label("optimal_play.gain_attacker", true), "Optimal play gain attacker");
  EXPECT_EQ(musket::cli::option_label("att-war"), "Attacker War");
  EXPECT_EQ(musket::cli::option_label("army-food"), "Food carried");
  EXPECT_EQ(musket::cli::option_label("british-vp"), "British VP");
}

TEST(ResultLabels, LabelOverridesAreKeyEqualsText) {
  const auto labels =
      musket::cli::parse_label_overrides({"steps.4.taken=P(Albany taken)", "army-war=War (SP)"}, "label");
  EXPECT_EQ(labels.at("steps.4.taken"), "P(Albany taken)");
  EXPECT_EQ(labels.at("army-war"), "War (SP)");
  for (const std::vector<std::string>& bad :
       {std::vector<std::string>{"steps.4.taken"}, {"=text"}, {"key="}, {"a=1", "a=2"}})
    EXPECT_THROW(musket::cli::parse_label_overrides(bad, "label"), invalid_input) << bad[0];
}

// A sweep document as `musket ... sweep --format json` writes it, with intervals as a simulated
// sweep's points carry them.
nlohmann::ordered_json sweep_document(bool two_parameters) {
  nlohmann::ordered_json doc;
  doc["game"] = "gl";
  doc["command"] = "sweep";
  doc["inputs"] = {
      {"command", "battle"},
      {"vary", two_parameters ? nlohmann::ordered_json::array({"terrain=open,fort", "att-war=1..2"})
                              : nlohmann::ordered_json::array({"terrain=open,fort"})},
      {"metric", nlohmann::ordered_json::array({"summary.attacker_victory", "summary.expected_attacker_losses"})},
      {"fixed", {{"trials", "1000"}, {"quick", true}}}};
  doc["points"] = nlohmann::ordered_json::array();
  int k = 0;
  for (const std::string terrain : {"open", "fort"})
    for (int war = 1; war <= (two_parameters ? 2 : 1); ++war) {
      nlohmann::ordered_json row{{"terrain", terrain}, {"metric", "summary.attacker_victory"}};
      if (two_parameters) row["att-war"] = war;
      row["value"] = 0.5 - 0.1 * k;
      row["low"] = 0.48 - 0.1 * k - 0.01 * k;
      row["high"] = 0.52 - 0.1 * k;
      doc["points"].push_back(row);
      row["metric"] = "summary.expected_attacker_losses";
      row["value"] = 1.5 + k;
      row.erase("low");
      row.erase("high");
      doc["points"].push_back(row);
      ++k;
    }
  return doc;
}

TEST(SweepChart, OneParameterIsALineChartWithLabelsAndErrorBars) {
  musket::cli::chart_words words;
  words.labels["terrain"] = "Terrain of the battle";
  const auto c = musket::cli::chart_from_sweep(sweep_document(false), words);
  const auto* line = std::get_if<chart::line_chart>(&c);
  ASSERT_NE(line, nullptr);
  EXPECT_EQ(line->title, "P(attacker victory), Expected attacker losses by Terrain of the battle");
  EXPECT_EQ(line->subtitle, "musket gl sweep battle; Trials 1000, Quick");  // the fixed options by their labels
  EXPECT_EQ(line->x_label, "Terrain of the battle");
  EXPECT_FALSE(line->y_is_probability);  // one of the two metrics is a mean
  ASSERT_EQ(line->lines.size(), 2u);
  EXPECT_EQ(line->lines[0].name, "P(attacker victory)");
  EXPECT_EQ(line->lines[1].name, "Expected attacker losses");
  ASSERT_EQ(line->lines[0].points.size(), 2u);
  EXPECT_EQ(line->lines[0].points[1].x, chart::axis_value(std::string("fort")));
  EXPECT_DOUBLE_EQ(*line->lines[0].points[1].y, 0.4);
  EXPECT_DOUBLE_EQ(*line->lines[0].points[1].low, 0.37);
  EXPECT_DOUBLE_EQ(*line->lines[0].points[1].high, 0.42);
  EXPECT_FALSE(line->lines[1].points[0].low);
}

TEST(SweepChart, TwoParametersAreAHeatMapPanelPerMetric) {
  musket::cli::chart_words words;
  words.title = "Fort or open field";
  words.labels["summary.attacker_victory"] = "P(the attack wins)";
  const auto c = musket::cli::chart_from_sweep(sweep_document(true), words);
  const auto* maps = std::get_if<chart::heat_maps>(&c);
  ASSERT_NE(maps, nullptr);
  EXPECT_EQ(maps->title, "Fort or open field");
  ASSERT_EQ(maps->panels.size(), 2u) << "every metric is drawn, in --metric order";
  const chart::heat_map* h = &maps->panels[0];
  EXPECT_EQ(h->title, "P(the attack wins)");
  EXPECT_EQ(h->value_label, "P(the attack wins)");
  EXPECT_EQ(h->x_label, "Terrain");
  EXPECT_EQ(h->y_label, "Attacker War");
  EXPECT_TRUE(h->value_is_probability);
  ASSERT_EQ(h->xs, (std::vector<chart::axis_value>{std::string("open"), std::string("fort")}));
  ASSERT_EQ(h->ys, (std::vector<chart::axis_value>{1.0, 2.0}));
  // Points in the order run: (open, 1), (open, 2), (fort, 1), (fort, 2) hold 0.5, 0.4, 0.3, 0.2.
  EXPECT_DOUBLE_EQ(*h->cells[0][1], 0.4);
  EXPECT_DOUBLE_EQ(*h->cells[1][0], 0.3);
  // The widest interval: point 3 runs 0.48 - 0.3 - 0.03 = 0.15 to 0.52 - 0.3 = 0.22, 0.07 wide.
  ASSERT_TRUE(h->interval_width);
  EXPECT_NEAR(*h->interval_width, 0.07, 1e-12);
  // The second metric, a mean: 1.5 + k at the k-th point, no intervals.
  h = &maps->panels[1];
  EXPECT_EQ(h->value_label, "Expected attacker losses");
  EXPECT_FALSE(h->value_is_probability);
  EXPECT_DOUBLE_EQ(*h->cells[0][1], 2.5);
  EXPECT_DOUBLE_EQ(*h->cells[1][1], 4.5);
  EXPECT_FALSE(h->interval_width);

  // One metric: a single heat map, titled by the chart's title.
  auto one = sweep_document(true);
  one["inputs"]["metric"] = nlohmann::ordered_json::array({"summary.attacker_victory"});
  const auto single = musket::cli::chart_from_sweep(one, words);
  ASSERT_NE(std::get_if<chart::heat_map>(&single), nullptr);
  EXPECT_EQ(std::get<chart::heat_map>(single).title, "Fort or open field");
}

// The sweep document's "labels" (the web page's axis names) are the chart's own: each heat map
// panel's axes and value name, --label's where given, musket's (cli/result_labels.hpp) elsewhere.
TEST(SweepChart, TheDocumentsLabelsAreTheChartsNames) {
  musket::cli::chart_words words;
  words.labels["summary.attacker_victory"] = "P(the attack wins)";
  const auto doc = sweep_document(true);
  const auto labels = musket::cli::sweep_labels(doc, words);
  const auto maps = std::get<chart::heat_maps>(musket::cli::chart_from_sweep(doc, words));
  EXPECT_EQ(labels.size(), 4u) << labels.dump();
  EXPECT_EQ(labels.at("terrain"), maps.panels[0].x_label);
  EXPECT_EQ(labels.at("att-war"), maps.panels[0].y_label);
  EXPECT_EQ(labels.at("att-war"), musket::cli::option_label("att-war"));
  EXPECT_EQ(labels.at("summary.attacker_victory"), "P(the attack wins)");
  EXPECT_EQ(labels.at("summary.expected_attacker_losses"), maps.panels[1].value_label);
  EXPECT_EQ(labels.at("summary.expected_attacker_losses"),
            musket::cli::result_label("summary.expected_attacker_losses", false));
}

// The SVG of a two-metric heat map: two panels of 2 x 2 cells, each headed and with its legend.
TEST(SweepChart, EveryPanelIsDrawnWithItsCellsAndLegend) {
  const auto c = musket::cli::chart_from_sweep(sweep_document(true), musket::cli::chart_words{});
  const json svg = read_svg(chart::write_chart(c, chart::format::svg));
  ASSERT_FALSE(svg.is_null());
  EXPECT_EQ(svg["title"], "P(attacker victory), Expected attacker losses by Terrain and Attacker War");
  EXPECT_EQ(svg["panels"], json::array({4, 4}));
  ASSERT_EQ(svg["cells"].size(), 8u);
  EXPECT_EQ(svg["cells"][0]["title"], "Terrain = open, Attacker War = 1: 50.00%");
  EXPECT_EQ(svg["cells"][5]["title"], "Terrain = open, Attacker War = 2: 2.5");
  const json both = json::array({"P(attacker victory)", "Expected attacker losses"});
  EXPECT_EQ(svg["texts"]["panel-title"], both);
  EXPECT_EQ(svg["texts"]["legend-title"], both);
  // The second panel lies wholly below the first.
  double first_bottom = 0, second_top = 1e9;
  for (std::size_t i = 0; i < 4; ++i)
    first_bottom = std::max(first_bottom, svg["cells"][i]["y"].get<double>() + svg["cells"][i]["h"].get<double>());
  for (std::size_t i = 4; i < 8; ++i) second_top = std::min(second_top, svg["cells"][i]["y"].get<double>());
  EXPECT_LT(first_bottom, second_top);
  // And the PNG is as tall as the chart says: both panels fit.
  const image png = decode_png(chart::write_chart(c, chart::format::png));
  EXPECT_EQ(png.height, chart::chart_size(c).height * chart::png_scale);
  EXPECT_GT(png.height, 2 * 330 * chart::png_scale);
}

// Issue 41: whatever bytes a chart's texts hold (control characters, an escape sequence, bytes
// that are not UTF-8, XML's noncharacters), the SVG parses as XML and says U+FFFD in their place.
TEST(Chart, HostileTextsStillGiveWellFormedSvg) {
  const std::string fffd = "\xEF\xBF\xBD";
  chart::line_chart c = two_lines(false);
  c.title =
      "A\x01\x02"
      "B\x1B[31mC\xFF\xFE<&>\"\xEF\xBF\xBF";
  c.subtitle = std::string("nul\0here", 8);
  c.x_label = "\xC0\xAF";                 // an overlong '/'
  c.lines[0].name = "\xC2\x85next line";  // U+0085, a C1 control
  c.lines[0].points[0].x = std::string("\x7F");
  const json svg = read_svg(chart::write_chart(c, chart::format::svg));
  ASSERT_FALSE(svg.is_null());  // parsed as XML
  EXPECT_EQ(svg["title"], "A" + fffd + fffd + "B" + fffd + "[31mC" + fffd + fffd + "<&>\"" + fffd);
  EXPECT_EQ(svg["desc"], "nul" + fffd + "here");
  EXPECT_EQ(svg["texts"]["x-label"], json::array({fffd + fffd}));
  EXPECT_EQ(svg["series"][0]["name"], fffd + "next line");
  chart::heat_map h = small_heat_map();
  h.title = "\x1B]0;owned\x07";
  h.xs[0] = std::string("\x80");
  const json map = read_svg(chart::write_chart(h, chart::format::svg));
  ASSERT_FALSE(map.is_null());
  EXPECT_EQ(map["title"], fffd + "]0;owned" + fffd);
}

// Issue 41: --title and --label are checked once, where they are read: bad UTF-8 and control
// characters are refused naming the option (they would reach the table on a terminal too).
TEST(SweepChart, TitleAndLabelTextIsRefusedWhenNotPlain) {
  auto refusal = [](const std::vector<std::string>& labels, const std::optional<std::string>& title) {
    try {
      musket::cli::parse_chart_words(labels, title);
    } catch (const invalid_input& e) {
      return e.field() + ": " + e.what();
    }
    return std::string("accepted");
  };
  EXPECT_EQ(refusal({}, std::string("\x01\x02")),
            "title: holds the control character \\x01 at byte 0; give plain text");
  EXPECT_EQ(refusal({}, std::string("ok \xFF")),
            "title: is not valid UTF-8 (byte \\xFF at byte 3); give the text in UTF-8");
  EXPECT_EQ(refusal({"att-war=War\x1B[2J"}, std::nullopt),
            "label: holds the control character \\x1B at byte 3; give plain text");
  EXPECT_EQ(refusal({"att-war=Kriegsvorr\xC3\xA4te \xE2\x80\x94 <b>"}, std::string("Siege \xC2\xBD & more")),
            "accepted");
}

TEST(SweepChart, ALabelForNoMetricOrParameterIsRefused) {
  const auto words = musket::cli::parse_chart_words({"summary.attacker_victroy=P(win)"}, std::nullopt);
  EXPECT_THROW(musket::cli::check_label_keys(words, {"summary.attacker_victory"}, {"att-war"}), invalid_input);
  const auto good = musket::cli::parse_chart_words({"att-war=War"}, std::nullopt);
  EXPECT_NO_THROW(musket::cli::check_label_keys(good, {"summary.attacker_victory"}, {"att-war"}));
}

// Issue 39: charts ready to print. A probability axis is fitted to the values with nice ticks
// (0-100% with full_scale); values 62%..88% need steps of 10 points (26 points / 5 ticks = 5.2,
// rounded up to the next of 1, 2, 2.5, 5, 10), from 60% to 90%.
TEST(ChartScale, ProbabilityAxisFitsTheValues) {
  chart::line_chart c;
  c.title = "t";
  c.x_label = "x";
  c.y_label = "y";
  c.y_is_probability = true;
  chart::series s{"s", {}};
  for (const double y : {0.62, 0.75, 0.88}) s.points.push_back(chart::point{double(s.points.size() + 1), y, {}, {}});
  c.lines = {s};
  auto ticks_of = [](const json& svg) {
    std::vector<std::string> out;
    for (const auto& t : svg["texts"]["tick"])
      if (t.get<std::string>().ends_with("%")) out.push_back(t);
    return out;
  };
  const json fitted = read_svg(chart::write_chart(c, chart::format::svg));
  ASSERT_FALSE(fitted.is_null());
  EXPECT_EQ(ticks_of(fitted), (std::vector<std::string>{"60%", "70%", "80%", "90%"}));
  c.full_scale = true;
  const json full = read_svg(chart::write_chart(c, chart::format::svg));
  EXPECT_EQ(ticks_of(full), (std::vector<std::string>{"0%", "20%", "40%", "60%", "80%", "100%"}));
}

// A heat map topping out at 29%: the colours run from 0% to 30% (24 points / 4 = 6, so steps of
// 10), the legend ticks 0%, 10%, 20%, 30%, and the 29% cell is painted 29/30 of the way up the
// ramp; at full scale the legend runs 0% to 100%.
TEST(ChartScale, HeatMapColoursFitTheValues) {
  chart::heat_map h;
  h.title = "t";
  h.x_label = "x";
  h.y_label = "y";
  h.value_label = "P(win)";
  h.value_is_probability = true;
  h.xs = {1.0, 2.0};
  h.ys = {1.0, 2.0};
  h.cells = {{0.05, 0.12}, {0.2, 0.29}};
  const json svg = read_svg(chart::write_chart(h, chart::format::svg));
  ASSERT_FALSE(svg.is_null());
  EXPECT_EQ(svg["texts"]["legend-entry"], json::array({"0%", "10%", "20%", "30%"}));
  const image png = decode_png(chart::write_chart(h, chart::format::png));
  ASSERT_EQ(svg["cells"].size(), 4u);
  const auto& top = svg["cells"][3];
  ASSERT_TRUE(top["title"].get<std::string>().ends_with("29.00%"));
  const auto got = png.at(static_cast<int>((top["x"].get<double>() + 3) * chart::png_scale),
                          static_cast<int>((top["y"].get<double>() + 3) * chart::png_scale));
  const auto want = chart::ramp_rgb(0.29 / 0.3);
  for (int k = 0; k < 3; ++k) EXPECT_NEAR(got[k], want[k], 2);
  h.full_scale = true;
  const json full = read_svg(chart::write_chart(h, chart::format::svg));
  EXPECT_EQ(full["texts"]["legend-entry"], json::array({"0%", "25%", "50%", "75%", "100%"}));
}

// --subtitle replaces the fixed options' line; an empty one leaves no subtitle at all.
TEST(SweepChart, SubtitleIsTheUsersOrNone) {
  musket::cli::chart_words words;
  words.subtitle = "Brown's army, summer 1814";
  const auto own = musket::cli::chart_from_sweep(sweep_document(false), words);
  const json svg = read_svg(chart::write_chart(own, chart::format::svg));
  ASSERT_FALSE(svg.is_null());
  EXPECT_EQ(svg["desc"], "Brown's army, summer 1814");
  EXPECT_EQ(svg["texts"]["subtitle"], json::array({"Brown's army, summer 1814"}));
  words.subtitle = "";
  const json none =
      read_svg(chart::write_chart(musket::cli::chart_from_sweep(sweep_document(false), words), chart::format::svg));
  ASSERT_FALSE(none.is_null());
  EXPECT_FALSE(none["texts"].contains("subtitle"));
}

// --lines: two parameters drawn as a line per value of the second (Attacker War 1 and 2) over the
// first (terrain), with the legend naming each; points as run: (open, 1) 0.5, (open, 2) 0.4,
// (fort, 1) 0.3, (fort, 2) 0.2.
TEST(SweepChart, LinesDrawALinePerValueOfTheSecondParameter) {
  auto doc = sweep_document(true);
  doc["inputs"]["metric"] = nlohmann::ordered_json::array({"summary.attacker_victory"});
  musket::cli::chart_words words;
  words.lines = true;
  const auto c = musket::cli::chart_from_sweep(doc, words);
  const auto* line = std::get_if<chart::line_chart>(&c);
  ASSERT_NE(line, nullptr);
  EXPECT_EQ(line->x_label, "Terrain");
  EXPECT_TRUE(line->y_is_probability);
  const json svg = read_svg(chart::write_chart(c, chart::format::svg));
  ASSERT_FALSE(svg.is_null());
  EXPECT_EQ(svg["texts"]["legend-entry"], json::array({"Attacker War 1", "Attacker War 2"}));
  ASSERT_EQ(svg["series"].size(), 2u);
  EXPECT_EQ(svg["series"][0]["points"],
            json::array({"Attacker War 1, Terrain = open: 50.00%", "Attacker War 1, Terrain = fort: 30.00%"}));
  EXPECT_EQ(svg["series"][1]["points"],
            json::array({"Attacker War 2, Terrain = open: 40.00%", "Attacker War 2, Terrain = fort: 20.00%"}));
  // Two metrics: a line per metric and value, each named by both.
  const auto both = musket::cli::chart_from_sweep(sweep_document(true), words);
  ASSERT_EQ(std::get<chart::line_chart>(both).lines.size(), 4u);
  EXPECT_EQ(std::get<chart::line_chart>(both).lines[3].name, "Expected attacker losses, Attacker War 2");
}

}  // namespace
