// The generated man page and shell completions name every option of every command, as the
// registry (and so `--help`) has it: they are built from the registry, and this proves it.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "cli/command.hpp"

namespace {

using namespace musket::cli;

std::string read(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// roff writes every '-' as "\-".
std::string roff_dashes(const std::string& text) {
  std::string out;
  for (char c : text) out += c == '-' ? std::string("\\-") : std::string(1, c);
  return out;
}

class GeneratedDocs : public ::testing::Test {
 protected:
  void SetUp() override { register_all_commands(registry); }
  command_registry registry;
};

TEST_F(GeneratedDocs, ManPageHasEveryCommandAndOption) {
  const std::string man = read(MUSKET_GENERATED_SHARE "/man/man1/musket.1");
  ASSERT_FALSE(man.empty());
  int options = 0;
  for (const auto& game : registry.games())
    for (const auto& cmd : game.commands) {
      const std::string heading = ".SS musket " + game.code + " " + roff_dashes(cmd.name) + "\n";
      const auto section = man.find(heading);
      ASSERT_NE(section, std::string::npos) << heading;
      const auto end = man.find(".SS ", section + heading.size());
      const std::string body = man.substr(section, end - section);
      const po::options_description all_options = command_options(game, cmd);
      for (const auto& option : all_options.options()) {
        EXPECT_NE(body.find(".B \\-\\-" + roff_dashes(option->long_name())), std::string::npos)
            << game.code << " " << cmd.name << " --" << option->long_name();
        ++options;
      }
    }
  EXPECT_GT(options, 100);  // every game's commands, not an empty registry
}

TEST_F(GeneratedDocs, CompletionsHaveEveryCommandAndOption) {
  const std::string bash = read(MUSKET_GENERATED_SHARE "/bash-completion/completions/musket");
  const std::string zsh = read(MUSKET_GENERATED_SHARE "/zsh/site-functions/_musket");
  ASSERT_FALSE(bash.empty());
  ASSERT_FALSE(zsh.empty());
  for (const auto& game : registry.games())
    for (const auto& cmd : game.commands) {
      const std::string key = game.code + " " + cmd.name;
      const auto bash_line = bash.find("\"" + key + "\") words=\"");
      ASSERT_NE(bash_line, std::string::npos) << key;
      const std::string bash_words = bash.substr(bash_line, bash.find('\n', bash_line) - bash_line) + " ";
      const auto zsh_line = zsh.find("'" + key + "') _arguments");
      ASSERT_NE(zsh_line, std::string::npos) << key;
      const std::string zsh_words = zsh.substr(zsh_line, zsh.find('\n', zsh_line) - zsh_line);
      const po::options_description all_options = command_options(game, cmd);
      for (const auto& option : all_options.options()) {
        const std::string name = "--" + option->long_name();
        EXPECT_TRUE(bash_words.find(name + " ") != std::string::npos ||
                    bash_words.find(name + "\"") != std::string::npos)
            << "bash: " << key << " " << name;
        EXPECT_NE(zsh_words.find("'" + name + "["), std::string::npos) << "zsh: " << key << " " << name;
      }
    }
}

}  // namespace
