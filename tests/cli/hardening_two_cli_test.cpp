// Issue 41's classes of bad input, end to end through the built binary, each from the issue's
// commands: a wrong-typed army in a plan, hostile chart and table text, work announced or refused
// before it starts, repeated options, and inputs accepted more loosely than the contract. Each
// refusal is one line on stderr, nothing on stdout and exit code 2.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "run_musket.hpp"
#include "tests/scratch_folder.hpp"

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

fs::path h2_dir() {
  return musket::testing::scratch_folder();
}

std::string h2_write(const std::string& name, const std::string& text) {
  const fs::path p = h2_dir() / name;
  std::ofstream(p, std::ios::binary) << text;
  return p.string();
}

void h2_refused(const musket_run& r, const std::string& needle) {
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_EQ(r.err.rfind("musket: ", 0), 0u) << r.err;
  EXPECT_EQ(r.err.find("internal error"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(needle), std::string::npos) << "expected '" << needle << "' in: " << r.err;
}

// The <title> python3's XML parser reads from an SVG file; "(not XML)" when it cannot parse it.
std::string h2_svg_title(const std::string& path) {
  const std::string script =
      h2_write("title.py",
               "import sys, xml.etree.ElementTree as E\n"
               "try:\n"
               "  r = E.parse(sys.argv[1]).getroot()\n"
               "except Exception:\n"
               "  print('(not XML)', end='')\n"
               "  sys.exit(0)\n"
               "sys.stdout.buffer.write(r.find('{http://www.w3.org/2000/svg}title').text.encode('utf-8'))\n");
  FILE* p = popen(("python3 " + script + " " + path).c_str(), "r");
  std::string text;
  char buffer[4096];
  for (std::size_t n; p && (n = std::fread(buffer, 1, sizeof buffer, p)) > 0;) text.append(buffer, n);
  if (p) pclose(p);
  return text;
}

// `musket` run with these words as its arguments, without a shell (a command line of 40,000
// words is past what one shell string may hold).
musket_run h2_run_words(const std::vector<std::string>& words) {
  const std::string out_path = (h2_dir() / "words.out").string(), err_path = (h2_dir() / "words.err").string();
  std::vector<char*> argv{const_cast<char*>(MUSKET_BINARY)};
  for (const auto& w : words) argv.push_back(const_cast<char*>(w.c_str()));
  argv.push_back(nullptr);
  musket_run run;
  const pid_t child = fork();
  if (child == 0) {
    const int out = ::open(out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    const int err = ::open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    dup2(out, 1);
    dup2(err, 2);
    execv(MUSKET_BINARY, argv.data());
    _exit(127);
  }
  int status = 0;
  waitpid(child, &status, 0);
  run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  run.out = slurp(out_path);
  run.err = slurp(err_path);
  return run;
}

// The words of a command line split on spaces, then `copies` times `repeated`'s words.
std::vector<std::string> h2_words(const std::string& line, const std::string& repeated, int copies) {
  std::vector<std::string> words;
  auto split = [&](const std::string& text) {
    for (std::size_t start = 0; start < text.size();) {
      const auto space = text.find(' ', start);
      const auto end = space == std::string::npos ? text.size() : space;
      if (end > start) words.push_back(text.substr(start, end - start));
      start = end + 1;
    }
  };
  split(line);
  for (int i = 0; i < copies; ++i) split(repeated);
  return words;
}

const std::string h2_gl_unit = R"({"name":"A","type":"regular","sp":2,"morale":5,"dice":2})";

// 1. A Great Lakes plan whose army is not an object: one line naming the army, never the JSON
// library's type_error.305 with exit 1.
TEST(HardeningTwo, AWrongTypedArmyInAGreatLakesPlanIsOneLine) {
  for (const std::string british : {"1", "\"x\"", "[1]", "true"}) {
    const std::string plan = h2_write("army.json", R"({"game":"gl","armies":{"american":{"units":[)" + h2_gl_unit +
                                                       R"(]},"british":)" + british + R"(},"steps":[]})");
    h2_refused(run_musket("gl campaign --file " + plan),
               plan + ": /armies/british: must be an army object like a battle's ({\"units\": [...]}), got ");
  }
}

// 1. A data file's value that must be known, given as null: refused, never read through an empty
// optional.
TEST(HardeningTwo, ANullWhereADataFileNeedsANumberIsOneLine) {
  const fs::path data = h2_dir() / "data";
  fs::remove_all(data);
  fs::create_directories(data / "ar");
  for (const auto& entry : fs::directory_iterator(std::string(MUSKET_SOURCE_DIR) + "/data/ar"))
    fs::copy_file(entry.path(), data / "ar" / entry.path().filename());
  std::ifstream in(data / "ar" / "options.json");
  json options = json::parse(in);
  options["historical_goal"]["value"] = nullptr;
  std::ofstream((data / "ar" / "options.json").string()) << options.dump();
  h2_refused(run_musket("ar options --use D", "MUSKET_DATA_DIR=" + data.string()),
             "entry 'historical_goal': field 'value' must be known (an integer), not null");
}

// 2. Chart and table text: control characters and bad UTF-8 in --title or --label are refused;
// text XML must escape is written escaped, and the SVG parses.
TEST(HardeningTwo, ChartTextIsCheckedAndEverySvgIsXml) {
  const std::string svg = (h2_dir() / "t.svg").string();
  const std::string sweep = "nt sweep bombard --patriot-units 1 --vary war=1..3 --plot " + svg;
  h2_refused(run_musket(sweep + " --title \"$(printf '\\001\\002')\""),
             "--title: holds the control character \\x01 at byte 0; give plain text");
  h2_refused(run_musket(sweep + " --title \"$(printf 'War \\377')\""),
             "--title: is not valid UTF-8 (byte \\xFF at byte 4); give the text in UTF-8");
  h2_refused(run_musket(sweep + " --title \"$(printf '\\033[2J')\""),
             "--title: holds the control character \\x1B at byte 0");
  h2_refused(run_musket(sweep + " --label \"$(printf 'war=\\033]0;x\\007')\""),
             "--label: holds the control character \\x1B");
  EXPECT_FALSE(fs::exists(svg));  // refused before anything is written
  const auto ok = run_musket(sweep + " --title '<War> & \"Siege\" \xC2\xBD'");
  ASSERT_EQ(ok.exit_code, 0) << ok.err;
  EXPECT_EQ(ok.err, "");
  EXPECT_EQ(h2_svg_title(svg), "<War> & \"Siege\" \xC2\xBD");
}

// 2. A table on a terminal never carries a raw control character, whatever a plan's name holds.
TEST(HardeningTwo, ATableEscapesControlCharactersFromAFile) {
  std::ifstream in(std::string(MUSKET_SOURCE_DIR) + "/examples/nt-campaign.json");
  json plan = json::parse(in);
  plan["name"] = "\x1B[31mred\x07";
  const std::string path = h2_write("named.json", plan.dump());
  const auto r = run_musket("nt campaign --file " + path);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("\\x1B[31mred\\x07"), std::string::npos) << r.out.substr(0, 300);
  EXPECT_EQ(r.out.find('\x1B'), std::string::npos);
  EXPECT_EQ(r.out.find('\x07'), std::string::npos);
}

// 3. One work budget: estimated seconds (cli/work_budget.cpp), stated past 10 s, refused past
// 120 s without --yes, in method.work.
TEST(HardeningTwo, ACampaignPastTheWorkBudgetNeedsYes) {
  const std::string plan = std::string(MUSKET_SOURCE_DIR) + "/examples/gl-campaign.json";
  // 100,000,000 trials at 50 us a Great Lakes campaign trial: 5000 s, about 83 minutes.
  h2_refused(run_musket("gl campaign --file " + plan + " --trials 100000000"),
             "--yes: gl campaign would run up to 100000000 simulated trials, about 83 minutes: past the work "
             "budget of 120 s; give --yes to run it");
  const auto r = run_musket("gl campaign --file " + plan + " --trials 1000 --format json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "");  // 0.05 s: nothing stated
  const json work = json::parse(r.out).at("method").at("work");
  EXPECT_EQ(work.at("text"), "up to 1000 simulated trials");
  EXPECT_EQ(work.at("trials"), 1000);
  EXPECT_DOUBLE_EQ(work.at("seconds").get<double>(), 1000 * 50e-6);
}

TEST(HardeningTwo, ASweepOfExactPointsCountsItsWorkAndStatesALongOne) {
  // 10 x 10 exact points at 2 ms each.
  auto r = run_musket("ss sweep siege --vary food=0..9 --vary turns=1..10 --format json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  const json work = json::parse(r.out).at("method").at("work");
  EXPECT_EQ(work.at("text"), "100 points, each solved exactly");
  EXPECT_NEAR(work.at("seconds").get<double>(), 100 * 2e-3, 1e-12);  // a sum of 100 terms
  // 2 points x 100,000,000 trials at 0.1 us: 20 s, stated before the first point runs (which are
  // illegal, War Supplies past 40, so the test ends at once).
  r = run_musket(
      "nt sweep battle --attacker crown --att-units 4 --def-units 3 --terrain city --method sim "
      "--trials 100000000 --vary att-war=41..42");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err.rfind("musket: sweep of nt battle: 2 points, 2 of them simulated with up to 100000000 trials "
                        "each: up to 200000000 trials, about 20 s\n",
                        0),
            0u)
      << r.err;
  EXPECT_NE(r.err.find("no point of the sweep is legal"), std::string::npos) << r.err;
}

TEST(HardeningTwo, ASweepCountsOnlyItsLegalPointsAsSimulated) {
  // att-war 39 and 40 are legal, 41 and 42 are not (War Supplies 0..40).
  const auto r = run_musket(
      "nt sweep battle --attacker crown --att-units 4 --def-units 3 --terrain city --method sim --trials 1000 "
      "--vary att-war=39..42 --format json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json method = json::parse(r.out).at("method");
  EXPECT_EQ(method.at("points"), 4);
  EXPECT_EQ(method.at("legal_points"), 2);
  EXPECT_EQ(method.at("simulated_points"), 2);
  EXPECT_EQ(method.at("work").at("trials"), 4000);  // the estimate made before they ran
}

// 4. Repeated options: refused at once, before the parse, naming the option.
TEST(HardeningTwo, TwentyThousandCopiesOfAnOptionAreRefusedAtOnce) {
  h2_refused(h2_run_words(h2_words("nt sweep skirmish --war 3 --crown-units 2 --vary patriot-units=1..2",
                                   "--crown-leaders 1", 20000)),
             "--crown-leaders: is given 20000 times; it takes one value");
  h2_refused(h2_run_words(h2_words("nt skirmish --war 3 --crown-units 2", "--crown-leaders 1", 20000)),
             "--crown-leaders: is given 20000 times; it takes one value");
  h2_refused(h2_run_words(
                 h2_words("ar sweep battle --defender 3T,8B --vary att-continentals=2..4", "--attacker 15M,8C", 20000)),
             "--attacker: is given 20000 times; it takes one value");
  h2_refused(run_musket("nt skirmish --war 3 --crown-units 2 --crown-leaders 1 --crown-leaders 1"),
             "--crown-leaders: is given 2 times; it takes one value");
  // A repeatable option is not limited by that, but a command line is: 2000 words at most.
  h2_refused(h2_run_words(h2_words("nt sweep bombard --patriot-units 1 --vary war=1..3", "--label war=W", 20000)),
             "the command line has 40005 words after 'nt sweep'; a command takes at most 2000");
}

// 5. Duplicate keys, unknown keys in --crt cells and --chart faces, repeated leaders, and an
// output that is one of the sweep's own inputs.
TEST(HardeningTwo, InputsAreReadNoMoreLooselyThanTheContract) {
  const std::string twice =
      h2_write("twice.json", R"({"game":"nt","army":{"units":4,"leaders":1,"units":6},"steps":[]})");
  h2_refused(run_musket("nt campaign --file " + twice),
             twice + ": /army/units: the key 'units' appears twice in one object; give each key once");

  std::ifstream crt_in(std::string(MUSKET_SOURCE_DIR) + "/data/ar/crt.json");
  json crt = json::parse(crt_in);
  crt["columns"]["1:1"][0]["reslt"] = "De";
  const std::string crt_path = h2_write("crt.json", crt.dump());
  h2_refused(run_musket("ar battle --attacker 15M,8C --defender 3T,8B --crt " + crt_path),
             "entry 'columns.1:1[die 1]': unknown key 'reslt'; allowed: result, unknown, source");

  const std::string levy = h2_write(
      "levy.json",
      R"({"source":"t","transcribed":true,"faces":{"1":[{"region":"Virginia","continentls":2}],"2":[],"3":[],"4":[],"5":[],"6":[]}})");
  h2_refused(run_musket("ar levy --chart " + levy),
             "entry 'faces.1[0]': unknown key 'continentls'; allowed: region, continentals");

  json leaders = json::array();
  for (int i = 0; i < 20000; ++i) leaders.push_back("Drummond");
  json plan{{"game", "gl"},
            {"armies",
             {{"american", {{"units", json::array({json::parse(h2_gl_unit)})}}},
              {"british", {{"units", json::array({json::parse(h2_gl_unit)})}, {"leaders", leaders}}}}},
            {"steps", json::array()}};
  std::string path = h2_write("leaders.json", plan.dump());
  h2_refused(run_musket("gl campaign --file " + path),
             path + ": /armies/british/leaders: 20000 leaders; an army names at most 8, each once");
  plan["armies"]["british"]["leaders"] = json::array({"Drummond", "drummond"});
  path = h2_write("leaders.json", plan.dump());
  h2_refused(run_musket("gl campaign --file " + path),
             "/armies/british/leaders/1: the leader 'drummond' is named twice");
  h2_refused(run_musket("gl battle --att 11th:regular:4/4:5:3 --def 104th:regular:4/4:5:4 --att-leader Brown "
                        "--att-leader BROWN"),
             "attacker/leaders/1: the leader 'BROWN' is named twice");

  // The sweep's --csv or --plot is its plan, by any spelling: refused before the plan is touched.
  const std::string nt_plan =
      h2_write("plan.json", slurp(std::string(MUSKET_SOURCE_DIR) + "/examples/nt-campaign.json"));
  const std::string before = slurp(nt_plan);
  const std::string sweep = "nt sweep campaign --file " + nt_plan + " --vary army-war=10..11";
  h2_refused(run_musket(sweep + " --csv " + nt_plan),
             "--csv: '" + nt_plan + "' is the input file '" + nt_plan + "' this command reads");
  const std::string other_spelling = (h2_dir() / "." / ".." / h2_dir().filename() / "plan.json").string();
  h2_refused(run_musket(sweep + " --csv " + other_spelling), "is the input file '" + nt_plan + "'");
  const std::string chart = (h2_dir() / "both.svg").string();
  h2_refused(run_musket(sweep + " --csv " + chart + " --plot " + chart), "is also the --csv file; give two files");
  EXPECT_EQ(slurp(nt_plan), before);
}

}  // namespace
