// Every fuzz corpus and regression file through its target in the normal suite: a crash input
// the fuzzer once found stays fixed, and the seeds keep parsing, without libFuzzer.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "tests/fuzz/targets.hpp"

namespace {

namespace fs = std::filesystem;

// Runs every file of `dir` through `t`; returns how many there were.
int replay(const musket::fuzz::target& t, const fs::path& dir) {
  int files = 0;
  if (!fs::exists(dir)) return 0;
  for (const auto& entry : fs::directory_iterator(dir)) {
    std::ifstream in(entry.path(), std::ios::binary);
    std::ostringstream bytes;
    bytes << in.rdbuf();
    EXPECT_NO_THROW(EXPECT_EQ(t.run(bytes.str()), 0)) << t.name << ": " << entry.path();
    ++files;
  }
  return files;
}

TEST(FuzzReplay, EveryCorpusAndRegressionInputIsHandled) {
  // tests/fuzz/seeds.txt: "target dir dir ..." per line; regressions/<target> holds found crashes.
  std::ifstream list(std::string(MUSKET_SOURCE_DIR) + "/tests/fuzz/seeds.txt");
  std::string line;
  int files = 0, targets = 0;
  while (std::getline(list, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream words(line);
    std::string name, dir;
    words >> name;
    const musket::fuzz::target* t = nullptr;
    for (const auto& candidate : musket::fuzz::all_targets())
      if (candidate.name == name) t = &candidate;
    ASSERT_NE(t, nullptr) << "seeds.txt names an unknown target " << name;
    ++targets;
    while (words >> dir) files += replay(*t, fs::path(MUSKET_SOURCE_DIR) / dir);
    files += replay(*t, fs::path(MUSKET_SOURCE_DIR) / "tests/fuzz/regressions" / name);
  }
  EXPECT_EQ(targets, static_cast<int>(musket::fuzz::all_targets().size()));
  EXPECT_GT(files, 20);
}

// The regressions: inputs issue 19 found, each refused as bad input rather than crashing.
TEST(FuzzReplay, KnownCrashInputsAreHandled) {
  std::string deep;
  for (int i = 0; i < 100000; ++i) deep += "[";
  for (const auto& t : musket::fuzz::all_targets()) {
    EXPECT_EQ(t.run(deep), 0) << t.name;
    EXPECT_EQ(t.run("{\"army\": {\"war\": 1e400}}"), 0) << t.name;
    EXPECT_EQ(t.run("{\"dice\": 123456789012345678901234567890}"), 0) << t.name;
    EXPECT_EQ(t.run(std::string("\x04") + "0..2147483647"), 0) << t.name;
    EXPECT_EQ(t.run(std::string("\x04") + "2147483646..2147483647:2147483647"), 0) << t.name;
  }
}

}  // namespace
