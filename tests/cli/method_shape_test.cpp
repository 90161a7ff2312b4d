// Issue 16: a simulated answer has the exact answer's shape. For every command that offers both
// --method exact and --method sim (read from the command registry), the two documents' key sets
// are equal apart from `exact`, `intervals` and `method`.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "cli/command.hpp"
#include "run_musket.hpp"

namespace {

using ordered = nlohmann::ordered_json;

// Dotted key paths. Array indices and integer object keys are left out: they are the values of a
// distribution, and a simulation need not hit every value an exact answer lists.
bool is_integer_key(const std::string& key) {
  const std::size_t start = !key.empty() && key[0] == '-' ? 1 : 0;
  return key.size() > start && std::all_of(key.begin() + static_cast<std::ptrdiff_t>(start), key.end(),
                                           [](char c) { return c >= '0' && c <= '9'; });
}

void walk_keys(const ordered& v, const std::string& path, std::set<std::string>& out) {
  if (v.is_object()) {
    for (auto it = v.begin(); it != v.end(); ++it) {
      if (is_integer_key(it.key())) {
        walk_keys(it.value(), path, out);
        continue;
      }
      const std::string here = path.empty() ? it.key() : path + "." + it.key();
      out.insert(here);
      walk_keys(it.value(), here, out);
    }
  } else if (v.is_array()) {
    for (const auto& e : v) walk_keys(e, path, out);
  }
}

std::set<std::string> document_keys(ordered doc) {
  for (const char* key : {"exact", "intervals", "method"}) doc.erase(key);
  std::set<std::string> keys;
  walk_keys(doc, "", keys);
  return keys;
}

// Arguments for each command offering both methods; a new such command must be added here.
const std::map<std::string, std::string> shape_examples{
    {"nt battle",
     "--attacker crown --terrain city --att-units 6 --att-war 5 --def-units 4 --def-leaders 1 --def-war 3 "
     "--track-position 5"},
    {"ss battle", "--attacker patriot --terrain city --att-units 4 --att-war 5 --def-units 3 --def-war 2"},
    {"nt campaign", "--file " MUSKET_SOURCE_DIR "/examples/nt-campaign.json"},
    {"ss campaign", "--file " MUSKET_SOURCE_DIR "/examples/ss-campaign.json"},
    {"gl battle", "--att A:regular:2/2:5:3 --def D:regular:2/2:5:4"},
    {"nt sweep",
     "battle --vary att-war=1..3 --attacker crown --terrain city --att-units 6 --def-units 4 --def-war 2 "
     "--metric summary.defender_dislodged"},
    {"ss sweep",
     "battle --vary att-war=1..3 --attacker patriot --terrain city --att-units 4 --def-units 3 --def-war 2 "
     "--metric summary.defender_dislodged"},
    {"gl sweep",
     "battle --vary att-ship=0..1 --att A:regular:2/2:5:3 --def D:regular:2/2:5:4 --metric "
     "outcomes.attacker_wins"},
};

// Its --method takes exact and sim: by the registry's choices convention, or, for a sweep that
// hands --method to the swept calculator, by its help text "(battle) exact | sim | auto".
bool offers_exact_and_sim(const musket::cli::game_entry& game, const musket::cli::command& cmd) {
  const auto options = musket::cli::command_options(game, cmd);
  const auto* method = options.find_nothrow("method", false);
  if (!method) return false;
  const auto choices = musket::cli::option_choices(*method);
  const bool listed =
      std::count(choices.begin(), choices.end(), "exact") && std::count(choices.begin(), choices.end(), "sim");
  return listed || method->description().find("exact | sim") != std::string::npos;
}

}  // namespace

TEST(MethodShape, SimulatedDocumentsHaveTheExactKeys) {
  musket::cli::command_registry registry;
  musket::cli::register_all_commands(registry);
  int compared = 0;
  for (const auto& game : registry.games())
    for (const auto& cmd : game.commands) {
      if (!offers_exact_and_sim(game, cmd)) continue;
      const std::string name = game.code + " " + cmd.name;
      const auto example = shape_examples.find(name);
      ASSERT_NE(example, shape_examples.end()) << name << " offers exact and sim: give it arguments here";
      // The same --trials in both runs, so the echoed inputs match too.
      const std::string base = name + " " + example->second + " --trials 1000 --format json --method ";
      const musket_run exact = run_musket(base + "exact");
      const musket_run sim = run_musket(base + "sim");
      ASSERT_EQ(exact.exit_code, 0) << name << ": " << exact.err;
      ASSERT_EQ(sim.exit_code, 0) << name << ": " << sim.err;
      std::set<std::string> exact_keys = document_keys(ordered::parse(exact.out));
      std::set<std::string> sim_keys = document_keys(ordered::parse(sim.out));
      // A simulated sweep's rows carry each value's interval as low and high: its `intervals`; an
      // exact sweep's rows (a battle of Supply Lines: fractions) carry each value's fraction as
      // `exact`, as the command's own `exact`.
      if (cmd.name == "sweep") {
        if (game.code == "nt" || game.code == "ss") {
          EXPECT_TRUE(exact_keys.count("points.exact")) << name;
        }
        EXPECT_FALSE(sim_keys.count("points.exact")) << name;
        exact_keys.erase("points.exact");
        EXPECT_TRUE(sim_keys.count("points.low") && sim_keys.count("points.high")) << name;
        sim_keys.erase("points.low");
        sim_keys.erase("points.high");
      }
      std::vector<std::string> only_exact, only_sim;
      std::set_difference(exact_keys.begin(), exact_keys.end(), sim_keys.begin(), sim_keys.end(),
                          std::back_inserter(only_exact));
      std::set_difference(sim_keys.begin(), sim_keys.end(), exact_keys.begin(), exact_keys.end(),
                          std::back_inserter(only_sim));
      EXPECT_TRUE(only_exact.empty()) << name << ": only the exact run has " << ordered(only_exact).dump();
      EXPECT_TRUE(only_sim.empty()) << name << ": only the simulated run has " << ordered(only_sim).dump();
      // A calculator's simulated document carries intervals (a sweep's points carry their own).
      if (cmd.name != "sweep") {
        EXPECT_TRUE(ordered::parse(sim.out).contains("intervals")) << name;
      }
      ++compared;
    }
  EXPECT_EQ(compared, static_cast<int>(shape_examples.size()));  // every listed command was compared
}
