// The words a form offers for a Great Lakes leader (game_entry's data_word_choices and
// option_words: `musket-docgen json`'s word_choices, the web page's leader lists) are exactly the
// leaders `musket gl battle` accepts for each side: its refusal of a made-up leader names that
// side's list, and every name on it runs.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "cli/command.hpp"
#include "run_musket.hpp"

namespace {

TEST(WordChoices, GreatLakesLeadersAreTheOnesTheCliAcceptsForEachSide) {
  musket::cli::command_registry registry;
  musket::cli::register_all_commands(registry);
  const musket::cli::game_entry* gl = registry.find_game("gl");
  ASSERT_NE(gl, nullptr);
  EXPECT_EQ(gl->option_words.at("att-leader"), "leader");
  EXPECT_EQ(gl->option_words.at("def-leader"), "leader");
  ASSERT_TRUE(gl->data_word_choices);
  const std::map<std::string, std::vector<std::string>> choices = gl->data_word_choices();
  const std::string battle = "gl battle --att A:regular:2/2:5:2 --def D:regular:2/2:5:2 --format json";
  for (const std::string side : {"american", "british"}) {
    const auto it = choices.find("leader." + side);
    ASSERT_NE(it, choices.end()) << side;
    std::string listed;
    for (const auto& name : it->second) listed += (listed.empty() ? "" : ", ") + name;
    const musket_run refused = run_musket(battle + " --att-side " + side + " --att-leader Nobody");
    EXPECT_EQ(refused.exit_code, 2);
    EXPECT_NE(refused.err.find("allowed for the " + side + " side: " + listed + " ("), std::string::npos)
        << refused.err;
    for (const auto& name : it->second) {
      const musket_run run = run_musket(battle + " --att-side " + side + " --att-leader '" + name + "'");
      EXPECT_EQ(run.exit_code, 0) << name << ": " << run.err;
    }
  }
}

}  // namespace
