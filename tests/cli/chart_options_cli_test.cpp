// Issue 39: the sweep's chart options through the built binary: --subtitle, --full-scale and
// --lines shape a chart, so each needs --plot; --lines needs two --vary. One line, exit 2.
#include <gtest/gtest.h>

#include <string>

#include "run_musket.hpp"

namespace {

const std::string sweep = "ar sweep move --vary areas=1..3 --groups 2";

TEST(ChartOptions, ChartOnlyOptionsNeedAPlot) {
  for (const std::string option : {"--subtitle x", "--full-scale", "--lines"}) {
    SCOPED_TRACE(option);
    const auto run = run_musket(sweep + " " + option);
    EXPECT_EQ(run.exit_code, 2);
    EXPECT_NE(run.err.find("give --plot FILE.svg"), std::string::npos) << run.err;
    EXPECT_EQ(run.err.find('\n'), run.err.size() - 1) << "one line: " << run.err;
  }
}

TEST(ChartOptions, LinesNeedTwoParameters) {
  const std::string plot = ::testing::TempDir() + "chart_options_lines.svg";
  const auto run = run_musket(sweep + " --lines --plot " + plot);
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_NE(run.err.find("--lines"), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("give two --vary"), std::string::npos) << run.err;
}

// The chart drawn through the binary carries the subtitle given, and --lines draws lines.
TEST(ChartOptions, SubtitleAndLinesReachTheChart) {
  const std::string plot = ::testing::TempDir() + "chart_options_drawn.svg";
  const auto run =
      run_musket("ar sweep move --vary areas=1..2 --vary groups=1..2 --lines --subtitle 'Two groups' --plot " + plot);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const std::string svg = slurp(plot);
  EXPECT_NE(svg.find("<desc>Two groups</desc>"), std::string::npos);
  EXPECT_NE(svg.find("class=\"series\""), std::string::npos);
  EXPECT_EQ(svg.find("class=\"cell\""), std::string::npos) << "lines, not a heat map";
  std::remove(plot.c_str());
}

}  // namespace
