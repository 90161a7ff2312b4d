// Issue 39: every command's table fits the terminal. Each line of tests/docs/command_examples.txt
// runs with COLUMNS=80 and COLUMNS=100 and no line it prints is wider (in characters, not bytes).
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "run_musket.hpp"

namespace {

std::vector<std::string> example_commands() {
  std::ifstream in(std::string(MUSKET_SOURCE_DIR) + "/tests/docs/command_examples.txt");
  std::vector<std::string> commands;
  for (std::string line; std::getline(in, line);)
    if (!line.empty() && line[0] != '#') commands.push_back(line);
  return commands;
}

std::size_t characters(const std::string& line) {
  std::size_t n = 0;
  for (const char ch : line) n += (static_cast<unsigned char>(ch) & 0xC0) != 0x80;
  return n;
}

std::size_t widest_line(const std::string& text) {
  std::istringstream in(text);
  std::size_t widest = 0;
  for (std::string line; std::getline(in, line);) widest = std::max(widest, characters(line));
  return widest;
}

musket_run run_at(const std::string& command, int columns) {
  return run_musket(command, "cd '" MUSKET_SOURCE_DIR "' && COLUMNS=" + std::to_string(columns));
}

TEST(TableWidth, EveryExampleFitsEightyAndOneHundredColumns) {
  const auto commands = example_commands();
  ASSERT_GE(commands.size(), 40u);
  for (const auto& command : commands)
    for (const int columns : {80, 100}) {
      SCOPED_TRACE("COLUMNS=" + std::to_string(columns) + " " + command);
      const auto run = run_at(command, columns);
      EXPECT_EQ(run.exit_code, 0) << run.err;
      EXPECT_FALSE(run.out.empty());
      EXPECT_LE(widest_line(run.out), static_cast<std::size_t>(columns)) << run.out;
    }
}

// The examples do exercise the fitting: drawn 400 columns wide, AR's options table and a campaign's
// step table are far wider than 100, and at 80 columns the step table is folded into records.
TEST(TableWidth, WideTablesAreFoldedNotJustWide) {
  EXPECT_GT(widest_line(run_at("ar options", 400).out), 200u);
  EXPECT_GT(widest_line(run_at("nt campaign --file examples/nt-campaign.json", 400).out), 200u);
  const auto folded = run_at("nt campaign --file examples/nt-campaign.json", 80).out;
  EXPECT_NE(folded.find("\n  step               lake-champlain\n  kind               march\n"), std::string::npos)
      << folded;
}

// A width narrower than 40 is drawn at 40; the terminal's width is COLUMNS when it is a number.
TEST(TableWidth, ColumnsBelowFortyDrawAtForty) {
  const auto run = run_at("ar options", 12);
  EXPECT_EQ(run.exit_code, 0);
  EXPECT_LE(widest_line(run.out), 40u);
  EXPECT_GT(widest_line(run.out), 30u);
}

}  // namespace

namespace {

// A hit allocation's cell names the units that take hits, not every unit with its 0: the README's
// two-unit example, where the rulings put a lone hit on the militia and the solved play on the
// regulars (GL 11.23).
TEST(TableWidth, AllocationCellsLeaveOutUnitsTakingNoHits) {
  const auto run = run_at(
      "gl battle --att Regulars:regular:3/3:5:3 --att Militia:militia:3/3:2:2 --def 41st:regular:4/4:5:4 "
      "--att-hits optimal",
      80);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find("         1  Regulars 1             Militia 1\n"), std::string::npos) << run.out;
  EXPECT_EQ(run.out.find("Militia 0"), std::string::npos) << run.out;
  EXPECT_EQ(run.out.find("Regulars 0"), std::string::npos) << run.out;
}

// A cell of five units' hits (49 characters) stays in its row, wrapped between its items where the
// terminal is narrow, where it was drawn under the table a unit a line, zeros and all (the Niagara
// 4 v 4 of the README: the defender's five units with the garrison, taking 6 to 9 hits).
TEST(TableWidth, AFiveUnitAllocationStaysInItsRow) {
  const auto run = run_at(
      "gl battle --att 11th:regular:3/4:5:3 --att 21st:regular:2/4:5:3 --att NYMil:militia:2/4:3:2 "
      "--att Drag:dragoon:2/2:4:2 --def 100th:regular:3/4:5:4 --def 41st:regular:2/4:5:3 "
      "--def Glengarry:militia:2/3:4:2 --def Mohawk:native:1/3:4:2 --fort 2:2:4 --att-leader Brown "
      "--def-leader Drummond --play optimal",
      100);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find("\n         6  100th 2, 41st 1, Glengarry 1, Mohawk 1,"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("\n            garrison 1 "), std::string::npos) << run.out;
  EXPECT_EQ(run.out.find("hits 6: optimal"), std::string::npos) << run.out;
  EXPECT_EQ(run.out.find("Mohawk     0"), std::string::npos) << run.out;
  EXPECT_LE(widest_line(run.out), 100u);
}

}  // namespace
