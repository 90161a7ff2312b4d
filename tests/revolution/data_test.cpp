// The data loaders: the shipped files load and carry the values the rulebook and issue 3 give;
// malformed files are rejected with the file, the entry and the problem.
#include <gtest/gtest.h>

#include "calc/revolution/attrition.hpp"
#include "calc/revolution/levy.hpp"
#include "calc/revolution/options.hpp"
#include "core/invalid_input.hpp"
#include "test_support.hpp"

namespace musket::revolution {
namespace {

// The message must name the file and the entry.
template <class Load>
void expect_rejected(Load load, const std::string& path, const std::string& entry, const std::string& problem) {
  try {
    load();
    ADD_FAILURE() << "accepted a bad file: " << entry;
  } catch (const invalid_input& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find(path), std::string::npos) << message;
    EXPECT_NE(message.find(entry), std::string::npos) << message;
    EXPECT_NE(message.find(problem), std::string::npos) << message;
  }
}

TEST(RevolutionData, RegionsFromTheReview) {
  const auto regions = load_regions({test::shipped("regions.json"), ""});
  EXPECT_EQ(regions.size(), 15u);  // the 14 reviewed Regions + South Carolina's Continental allowance
  const region* ny = find_region(regions, "New York");
  ASSERT_NE(ny, nullptr);
  EXPECT_EQ(*ny->victory_points, 10);
  EXPECT_EQ(*ny->continental, 3);
  EXPECT_EQ(*ny->militia, 5);
  EXPECT_EQ(*ny->tory, 5);
  const region* sc = find_region(regions, "South Carolina");
  ASSERT_NE(sc, nullptr);
  EXPECT_EQ(*sc->continental, 2);
  EXPECT_FALSE(sc->victory_points.has_value());  // unknown, not invented
  int vp = 0;
  for (const auto& r : regions) vp += r.victory_points.value_or(0);
  EXPECT_EQ(vp, 12 + 10 + 10 + 8 + 8 + 8 + 6 + 5 + 4 + 4 + 2 + 2 + 1 + 1);
}

TEST(RevolutionData, AttritionTableIsNotYetTranscribed) {
  const auto t = load_attrition({test::shipped("attrition.json"), ""});
  EXPECT_FALSE(t.transcribed);
  EXPECT_TRUE(t.rows.empty());
}

TEST(RevolutionData, CrtMissingColumnOrUnknownCode) {
  json doc = json::parse(std::ifstream(test::shipped("crt.json")));
  json missing = doc;
  missing["columns"].erase("4:1");
  const auto p1 = test::scratch_file("missing.json", missing.dump());
  expect_rejected([&] { load_crt({p1, "crt"}); }, p1, "columns.4:1", "missing");
  json bad = doc;
  bad["columns"]["2:1"][2] = "Dx";
  const auto p2 = test::scratch_file("badcode.json", bad.dump());
  expect_rejected([&] { load_crt({p2, "crt"}); }, p2, "columns.2:1[die 3]", "unknown result code 'Dx'");
  json short_column = doc;
  short_column["columns"]["1:1"].erase(5);
  const auto p3 = test::scratch_file("short.json", short_column.dump());
  expect_rejected([&] { load_crt({p3, "crt"}); }, p3, "columns.1:1", "6 cells");
  json unmarked = doc;
  unmarked["columns"]["1:1"][0] = json{{"result", nullptr}};
  const auto p4 = test::scratch_file("unmarked.json", unmarked.dump());
  expect_rejected([&] { load_crt({p4, "crt"}); }, p4, "columns.1:1[die 1]", "unknown");
  const auto p5 = test::scratch_file("notjson.json", "{ not json");
  expect_rejected([&] { load_crt({p5, "crt"}); }, p5, "(file)", "not valid JSON");
  try {
    load_crt({p1, "crt"});
  } catch (const invalid_input& e) {
    EXPECT_EQ(e.field(), "crt");
  }
}

TEST(RevolutionData, OptionsInconsistenciesAreRejected) {
  const json doc = json::parse(std::ifstream(test::shipped("options.json")));
  json bad_letter = doc;
  bad_letter["compatibility"]["pairs"][0]["pair"] = "AZ";
  const auto p1 = test::scratch_file("opt1.json", bad_letter.dump());
  expect_rejected([&] { load_options({p1, ""}); }, p1, "compatibility.pairs[0]", "two different letters");
  json wrong_status = doc;
  wrong_status["compatibility"]["pairs"][0]["status"] = "compatible";  // A-B's claim says incompatible
  const auto p2 = test::scratch_file("opt2.json", wrong_status.dump());
  expect_rejected([&] { load_options({p2, ""}); }, p2, "compatibility.AB", "does not follow from its claims");
  json twice = doc;
  twice["compatibility"]["pairs"].push_back(doc["compatibility"]["pairs"][0]);
  const auto p3 = test::scratch_file("opt3.json", twice.dump());
  expect_rejected([&] { load_options({p3, ""}); }, p3, "compatibility.AB", "listed twice");
  json missing = doc;
  missing["options"].erase(11);
  const auto p4 = test::scratch_file("opt4.json", missing.dump());
  expect_rejected([&] { load_options({p4, ""}); }, p4, "options", "option L is missing");
  json no_summary = doc;
  no_summary["options"][0].erase("changes");
  const auto p5 = test::scratch_file("opt5.json", no_summary.dump());
  expect_rejected([&] { load_options({p5, ""}); }, p5, "options.A", "changes");
}

// A transcribed attrition row loads; a malformed one names its entry.
TEST(RevolutionData, AttritionRowsOnceTranscribed) {
  const auto good = test::scratch_file("attr.json",
                                       R"({"source": "test", "transcribed": true,
          "rows": [{"label": "hard", "loss_fraction": "2/3", "survive_on": "6", "source": "test"}]})");
  const auto t = load_attrition({good, ""});
  ASSERT_EQ(t.rows.size(), 1u);
  EXPECT_EQ(t.rows[0].fraction.numerator, 2);
  EXPECT_EQ(t.rows[0].fraction.denominator, 3);
  EXPECT_EQ(count(t.rows[0].survive_on), 1);
  const auto bad = test::scratch_file("attr-bad.json",
                                      R"({"source": "test", "transcribed": true,
          "rows": [{"label": "odd", "loss_fraction": "1/4", "survive_on": "6", "source": "test"}]})");
  expect_rejected([&] { load_attrition({bad, ""}); }, bad, "rows[0] (odd)", "loss_fraction");
}

// Levy charts: a face outside 1..6 or a missing face is rejected with the entry named.
TEST(RevolutionData, LevyChartShape) {
  const auto seven = test::scratch_file(
      "levy7.json", R"({"source": "t", "transcribed": true, "faces": {"1": [], "2": [], "3": [], "4": [], "5": [],
                       "6": [], "7": []}})");
  expect_rejected([&] { load_levy_chart({seven, "chart"}); }, seven, "faces.7", "not a die face");
  const auto five = test::scratch_file(
      "levy5.json", R"({"source": "t", "transcribed": true, "faces": {"1": [], "2": [], "3": [], "4": [], "5": []}})");
  expect_rejected([&] { load_levy_chart({five, "chart"}); }, five, "faces.6", "missing");
}

}  // namespace
}  // namespace musket::revolution
