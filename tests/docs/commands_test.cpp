// Every runnable example in README.md and docs/*.md runs as shown. A runnable example is a
// ```console block (tables drawn 100 columns wide): each "$ build/musket ..." line (a trailing '\' continues it) is run
// from the source tree, and the lines under it, up to the next "$ ", must appear in what it prints, in that order
// ("..." marks lines left out). It must exit 0, or 2 where the shown output is an error line ("musket: ..."). So the
// documentation cannot drift from the program.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;

struct example {
  std::string file;
  int line = 0;
  std::string command;
  std::vector<std::string> expected;
};

std::string right_trimmed(std::string text) {
  while (!text.empty() && (text.back() == ' ' || text.back() == '\r' || text.back() == '\t')) text.pop_back();
  return text;
}

std::vector<example> examples_in(const fs::path& path) {
  std::ifstream in(path);
  std::vector<example> found;
  std::string line;
  bool inside = false, continued = false;
  for (int number = 1; std::getline(in, line); ++number) {
    if (!inside) {
      inside = line.rfind("```console", 0) == 0;
      continue;
    }
    if (line.rfind("```", 0) == 0) {
      inside = false;
      continue;
    }
    if (continued) {
      found.back().command += " " + line;
    } else if (line.rfind("$ ", 0) == 0) {
      found.push_back({path.filename().string(), number, line.substr(2), {}});
    } else if (!found.empty() && !right_trimmed(line).empty() && right_trimmed(line) != "...") {
      found.back().expected.push_back(right_trimmed(line));
      continue;
    } else {
      continue;
    }
    std::string& command = found.back().command;
    continued = !command.empty() && command.back() == '\\';
    if (continued) command.pop_back();
  }
  return found;
}

// Runs `command` (with build/musket standing for the binary under test) from the source tree;
// stdout and stderr together.
std::pair<int, std::vector<std::string>> run(std::string command) {
  const std::string binary = "build/musket";
  for (auto at = command.find(binary); at != std::string::npos; at = command.find(binary, at + 1))
    if (at == 0 || command[at - 1] == ' ') command.replace(at, binary.size(), MUSKET_BINARY);
  // Tables are drawn 100 columns wide, as into a pipe, whatever terminal runs the test.
  const std::string shell = "cd '" MUSKET_SOURCE_DIR "' && export COLUMNS=100 && (" + command + ") 2>&1";
  FILE* pipe = popen(shell.c_str(), "r");
  std::string out;
  std::array<char, 4096> buffer{};
  std::size_t n;
  while ((n = std::fread(buffer.data(), 1, buffer.size(), pipe)) > 0) out.append(buffer.data(), n);
  const int status = pclose(pipe);
  std::vector<std::string> lines;
  std::istringstream text(out);
  for (std::string line; std::getline(text, line);) lines.push_back(right_trimmed(line));
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, lines};
}

std::vector<fs::path> documents() {
  std::vector<fs::path> paths{fs::path(MUSKET_SOURCE_DIR) / "README.md"};
  for (const auto& entry : fs::directory_iterator(fs::path(MUSKET_SOURCE_DIR) / "docs"))
    if (entry.path().extension() == ".md") paths.push_back(entry.path());
  return paths;
}

TEST(DocumentedCommands, RunAsShown) {
  int checked = 0;
  for (const auto& path : documents())
    for (const auto& ex : examples_in(path)) {
      SCOPED_TRACE(ex.file + ":" + std::to_string(ex.line) + ": " + ex.command);
      const auto [exit_code, lines] = run(ex.command);
      const bool shows_error = !ex.expected.empty() && ex.expected.front().rfind("musket: ", 0) == 0;
      EXPECT_EQ(exit_code, shows_error ? 2 : 0);
      std::size_t next = 0;
      for (const auto& want : ex.expected) {
        std::size_t at = next;
        while (at < lines.size() && lines[at] != want) ++at;
        EXPECT_LT(at, lines.size()) << "not printed (in this order): " << want;
        if (at < lines.size()) next = at + 1;
      }
      ++checked;
    }
  EXPECT_GE(checked, 5);  // the player's guide shows its commands, not an empty set
}

}  // namespace
