// Issue 19's classes of bad input, end to end: each is one line on stderr, nothing on stdout and
// a documented exit code (2 bad input, 3 a path that cannot be used), never a signal, an
// "internal error" or a silent wrong answer.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "run_musket.hpp"
#include "tests/scratch_folder.hpp"

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

fs::path scratch_dir() {
  return musket::testing::scratch_folder();
}

std::string write_temp(const std::string& name, const std::string& text) {
  const fs::path p = scratch_dir() / name;
  std::ofstream(p, std::ios::binary) << text;
  return p.string();
}

// A refusal: the exit code, nothing on stdout, exactly one line on stderr that says `needle`.
void expect_refused(const musket_run& r, int code, const std::string& needle) {
  EXPECT_EQ(r.exit_code, code) << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_EQ(r.err.rfind("musket: ", 0), 0u) << r.err;
  EXPECT_EQ(r.err.find("internal error"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(needle), std::string::npos) << "expected '" << needle << "' in: " << r.err;
}

const std::string nt_battle =
    "nt battle --attacker crown --terrain city --att-units 6 --att-leaders 1 --att-war 4 "
    "--def-units 4 --def-leaders 1 --def-war 2";
const std::string nt_sweep =
    "nt sweep battle --attacker crown --terrain city --att-units 6 --att-leaders 1 "
    "--def-units 4 --def-leaders 1 --def-war 2";

std::string gl_scenario(const std::string& attacker_sp) {
  return R"({"attacker": {"side": "british", "units": [{"name": "A", "type": "regular", "sp": )" + attacker_sp +
         R"(, "morale": 5, "dice": 2}]},
             "defender": {"side": "american", "units": [{"name": "D", "type": "regular", "sp": 2, "morale": 5, "dice": 1}]}})";
}

TEST(Hardening, DeeplyNestedJsonIsRefusedNotACrash) {
  std::string deep;
  for (int i = 0; i < 100000; ++i) deep += "{\"a\":";
  const std::string path = write_temp("deep.json", deep);
  expect_refused(run_musket("nt campaign --file " + path), 2, "deeper than 64");
  expect_refused(run_musket("gl battle --scenario " + path), 2, "deeper than 64");
  expect_refused(run_musket("ss sweep campaign --file " + path + " --vary army-war=1..3"), 2, "deeper than 64");
}

TEST(Hardening, ADirectoryOrAMissingFileIsAnEnvironmentProblem) {
  const std::string dir = scratch_dir().string();
  expect_refused(run_musket("nt campaign --file " + dir), 3, "Is a directory");
  expect_refused(run_musket("gl battle --scenario " + dir), 3, "Is a directory");
  expect_refused(run_musket("gl battle --scenario " + dir + "/none.json"), 3, "No such file");
  expect_refused(run_musket("ar battle --attacker 15M,8C --defender 3T,8B --crt " + dir), 3, "Is a directory");
}

TEST(Hardening, AnOversizedOrEndlessFileIsRefusedBeforeParsing) {
  const std::string big = write_temp("big.json", "[" + std::string(2 * 1024 * 1024, ' ') + "]");
  expect_refused(run_musket("nt campaign --file " + big), 2, "larger than the 1024 KB");
  expect_refused(run_musket("gl battle --scenario /dev/zero"), 2, "larger than the 1024 KB");
}

TEST(Hardening, NumbersNoFieldHoldsAreRefusedNamingTheJsonPath) {
  std::string path = write_temp("e400.json", gl_scenario("1e400"));
  expect_refused(run_musket("gl battle --scenario " + path), 2, path + ": /attacker/units/0/sp: ");
  path = write_temp("digits.json", gl_scenario("123456789012345678901234567890"));
  expect_refused(run_musket("gl battle --scenario " + path), 2, "/attacker/units/0/sp: the integer 1234567890");
  // 2^64 - 1 was read as -1 before.
  path = write_temp("u64.json", gl_scenario("18446744073709551615"));
  expect_refused(run_musket("gl battle --scenario " + path), 2, "/attacker/units/0/sp: ");
  path = write_temp("plan.json", R"({"game": "nt", "army": {"war": 1e400}})");
  expect_refused(run_musket("nt campaign --file " + path), 2, path + ": /army/war: ");
}

TEST(Hardening, TextEchoedIntoAnErrorLineIsEscaped) {
  // A newline in a value stays on the one error line, escaped.
  auto r = run_musket("gl battle --att \"$(printf 'A\\nB:regular')\" --def D:regular:1/1:6:1");
  expect_refused(r, 2, "A\\nB:regular");
  // A byte that is not UTF-8, and a terminal escape, are shown as \xNN.
  r = run_musket("gl battle --att \"$(printf 'A\\377\\033:x')\" --def D:regular:1/1:6:1");
  expect_refused(r, 2, "A\\xFF\\x1B:x");
}

TEST(Hardening, TextThatIsNotUtf8InAJsonDocumentIsReplacedNotAnError) {
  // The CSV's name (not UTF-8) is echoed in the JSON document's inputs.
  const std::string dir = scratch_dir().string();
  const auto r =
      run_musket(nt_sweep + " --vary att-war=1..2 --csv \"" + dir + "/p$(printf '\\377').csv\" --format json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json doc = json::parse(r.out);  // would throw on invalid UTF-8
  EXPECT_EQ(doc["points"].size(), 2u);
  EXPECT_EQ(doc["inputs"]["csv"].get<std::string>(), dir + "/p\xef\xbf\xbd.csv");  // U+FFFD
  EXPECT_TRUE(fs::exists(dir + "/p\xff.csv"));
}

TEST(Hardening, SweepRangesAreCheckedIn64BitsBeforeAnyAllocation) {
  expect_refused(run_musket(nt_sweep + " --vary att-war=0..2147483647"), 2, "has 2147483648 points; at most 1000");
  expect_refused(run_musket(nt_sweep + " --vary att-war=0..99999999999"), 2, "out of range");
  expect_refused(run_musket(nt_sweep + " --vary att-war=1..1000 --vary def-war=1..1000"), 2,
                 "the grid has 1000000 points; at most 10000");
  // A step or a bound at the top of int no longer overflows: one point, then two points (both
  // past the War Supply limit, so the sweep has no legal point, which is bad input).
  auto r = run_musket(nt_sweep + " --vary att-war=1..10:2147483647 --format json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(json::parse(r.out)["points"].size(), 1u);
  expect_refused(run_musket(nt_sweep + " --vary att-war=2147483646..2147483647"), 2, "no point of the sweep is legal");
}

TEST(Hardening, OutputTargetsAreCheckedBeforeAnythingIsWritten) {
  expect_refused(run_musket(nt_sweep + " --vary att-war=1..2 --csv /dev/full"), 2, "not a regular file");
  const std::string target = write_temp("target.csv", "keep\n");
  const std::string link = (scratch_dir() / "link.csv").string();
  fs::remove(link);
  fs::create_symlink(target, link);
  expect_refused(run_musket(nt_sweep + " --vary att-war=1..2 --csv " + link), 2, "symbolic link");
  EXPECT_EQ(slurp(target), "keep\n");
  // The chart's kind is checked before the CSV is written.
  const std::string csv = (scratch_dir() / "first.csv").string();
  expect_refused(run_musket(nt_sweep + " --vary att-war=1..2 --csv " + csv + " --plot chart.txt"), 2,
                 "give FILE.svg, FILE.png or FILE.pdf");
  EXPECT_FALSE(fs::exists(csv));
  expect_refused(run_musket(nt_sweep + " --vary att-war=1..2 --csv /nonexistent-musket-dir/x.csv"), 3, "cannot write");
}

TEST(Hardening, OptionsTheExactMethodIgnoresAreStillChecked) {
  expect_refused(run_musket(nt_battle + " --trials -5 --seed -7"), 2, "--trials: -5 is out of range");
  expect_refused(run_musket(nt_battle + " --seed -7"), 2, "--seed: -7 is out of range");
  expect_refused(run_musket("gl battle --att A:regular:2/2:5:2 --def D:regular:1/1:6:1 --seed -7"), 2,
                 "--seed: -7 is out of range");
  // The War Supply limit, not an overflow, answers a huge --att-war.
  expect_refused(run_musket("nt battle --attacker crown --terrain city --att-units 6 --att-leaders 1 "
                            "--att-war 2147483647 --def-units 4 --def-leaders 1 --def-war 2"),
                 2, "--att-war: 2147483647 is out of range");
}

TEST(Hardening, NoCommandPrintsTheHelpOnStdoutAndExitsZero) {
  for (const std::string args : {"", "nt", "gl"}) {
    const auto r = run_musket(args);
    EXPECT_EQ(r.exit_code, 0) << args;
    EXPECT_EQ(r.err, "") << args;
    EXPECT_NE(r.out.find("usage: musket"), std::string::npos) << args;
    EXPECT_NE(r.out.find("exit codes:"), std::string::npos) << args;
  }
}

}  // namespace
