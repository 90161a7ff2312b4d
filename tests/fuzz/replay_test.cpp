// Every fuzz corpus and regression file through its target in the normal suite: a crash input
// the fuzzer once found stays fixed, and the seeds keep parsing, without libFuzzer.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <vector>

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

namespace {

// Every JSON path of a document, as pointers ("" is the root).
void paths_of(const nlohmann::json& node, const nlohmann::json::json_pointer& at,
              std::vector<nlohmann::json::json_pointer>& out) {
  out.push_back(at);
  if (node.is_object())
    for (auto it = node.begin(); it != node.end(); ++it) paths_of(it.value(), at / it.key(), out);
  if (node.is_array())
    for (std::size_t i = 0; i < node.size(); ++i) paths_of(node[i], at / i, out);
}

// A pointer's reference tokens, from the root.
std::vector<std::string> paths_parts(nlohmann::json::json_pointer path) {
  std::vector<std::string> parts;
  for (; !path.empty(); path = path.parent_pointer()) parts.insert(parts.begin(), path.back());
  return parts;
}

}  // namespace

// Issue 41: the audit of every reader. Each seed file of each target, with each of its fields (by
// shape) in turn replaced by a value of every JSON type or removed, goes through the target: a wrong
// type anywhere in a plan, a scenario or a data file is invalid_input, never a library exception.
TEST(FuzzReplay, EveryValueOfEverySeedMayHaveAnyType) {
  // One value of each JSON type (a fraction for a whole number's place, an object with a key).
  const std::vector<nlohmann::json> replacements{
      1, 1.5, "x", true, nullptr, nlohmann::json::array(), nlohmann::json{{"x", 1}}};
  std::ifstream list(std::string(MUSKET_SOURCE_DIR) + "/tests/fuzz/seeds.txt");
  std::string line;
  long long runs = 0;
  while (std::getline(list, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream words(line);
    std::string name, dir;
    words >> name;
    if (name == "json_input") continue;  // only parses: no value is read
    const musket::fuzz::target* t = nullptr;
    for (const auto& candidate : musket::fuzz::all_targets())
      if (candidate.name == name) t = &candidate;
    ASSERT_NE(t, nullptr);
    while (words >> dir) {
      if (!fs::exists(fs::path(MUSKET_SOURCE_DIR) / dir)) continue;
      for (const auto& entry : fs::directory_iterator(fs::path(MUSKET_SOURCE_DIR) / dir)) {
        std::ifstream in(entry.path(), std::ios::binary);
        std::ostringstream bytes;
        bytes << in.rdbuf();
        const nlohmann::json doc = nlohmann::json::parse(bytes.str(), nullptr, false);
        if (doc.is_discarded()) continue;
        std::vector<nlohmann::json::json_pointer> paths;
        paths_of(doc, nlohmann::json::json_pointer(), paths);
        // Each field once per file: /steps/3/kind is mutated as /steps/0/kind was (the shape with
        // array indices as *), unless its shape has not been seen yet.
        std::set<std::string> shapes;
        for (const auto& path : paths) {
          std::string shape;
          for (const auto& part : paths_parts(path))
            shape += "/" + (!part.empty() && part.find_first_not_of("0123456789") == std::string::npos ? "*" : part);
          if (!shapes.insert(shape).second) continue;
          std::vector<std::pair<nlohmann::json, std::string>> variants;
          for (const auto& r : replacements) {
            nlohmann::json changed = doc;
            changed[path] = r;
            variants.emplace_back(std::move(changed), r.dump());
          }
          if (!path.empty() && doc.at(path.parent_pointer()).is_object()) {
            nlohmann::json changed = doc;
            changed.at(path.parent_pointer()).erase(path.back());
            variants.emplace_back(std::move(changed), "(removed)");
          }
          for (const auto& [v, what] : variants) {
            try {
              EXPECT_EQ(t->run(v.dump()), 0);
            } catch (const std::exception& e) {
              ADD_FAILURE() << t->name << ": " << entry.path() << " with " << path.to_string() << " = " << what << ": "
                            << e.what();
            }
            ++runs;
          }
        }
      }
    }
  }
  EXPECT_GT(runs, 1000);
}
