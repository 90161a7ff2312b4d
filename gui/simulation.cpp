#include "gui/simulation.hpp"

#include "calc/supply_lines/battle.hpp"
#include "cli/supply_lines_report.hpp"
#include "core/invalid_input.hpp"

namespace musket::gui {

namespace sl = musket::supply_lines;

namespace {

int int_value(const json& values, const std::string& name, int fallback) {
  return values.contains(name) && values.at(name).is_number_integer() ? values.at(name).get<int>() : fallback;
}
std::string string_value(const json& values, const std::string& name) {
  return values.contains(name) && values.at(name).is_string() ? values.at(name).get<std::string>() : "";
}
bool flag_value(const json& values, const std::string& name) {
  return values.contains(name) && values.at(name).is_boolean() && values.at(name).get<bool>();
}

// The same option-to-setup reading as the CLI's `battle` command.
sl::battle_setup battle_setup_from(const json& v) {
  sl::battle_setup s;
  s.attacker = sl::parse_side(string_value(v, "attacker"), "attacker");
  s.where = sl::parse_terrain(string_value(v, "terrain"), "terrain");
  s.attacker_units = int_value(v, "att-units", 1);
  s.attacker_leaders = int_value(v, "att-leaders", 1);
  s.defender_units = int_value(v, "def-units", 1);
  s.defender_leaders = int_value(v, "def-leaders", 0);
  s.attacker_war_supplies = int_value(v, "att-war", 0);
  s.defender_war_supplies = int_value(v, "def-war", 0);
  s.dug_in = flag_value(v, "dug-in");
  s.retreat_available = !flag_value(v, "no-retreat");
  s.under_siege = flag_value(v, "siege");
  s.crown_commander = flag_value(v, "crown-commander");
  s.patriot_subordinate = flag_value(v, "patriot-subordinate");
  return s;
}

}  // namespace

bool wants_simulation(const calculator& calc, const json& values) {
  return (calc.game == "nt" || calc.game == "ss") && calc.command == "battle" &&
         string_value(values, "method") == "sim";
}

battle_simulation::~battle_simulation() {
  stop();
}

void battle_simulation::stop() {
  cancel_ = true;
  if (worker_.joinable()) worker_.join();
}

void battle_simulation::cancel() {
  cancel_ = true;
}

void battle_simulation::wait() {
  if (worker_.joinable()) worker_.join();
}

double battle_simulation::progress() const {
  return trials_ == 0 ? 0.0 : static_cast<double>(progress_.load()) / static_cast<double>(trials_);
}

std::optional<json> battle_simulation::result() const {
  std::lock_guard lock(mutex_);
  return result_;
}

void battle_simulation::start(const calculator& calc, const json& values) {
  stop();
  {
    std::lock_guard lock(mutex_);
    result_.reset();
  }
  key_ = values.dump();
  const sl::rule_set& rules = sl::rules_for(calc.game);
  const sl::battle_setup setup = battle_setup_from(values);
  sl::validate(rules, setup);
  const int trials = int_value(values, "trials", 1'000'000);
  require_in_range("trials", trials, 1000, 100'000'000);
  const int seed = int_value(values, "seed", 1775);
  trials_ = static_cast<std::uint64_t>(trials);
  cancel_ = false;
  progress_ = 0;
  running_ = true;
  worker_ = std::thread([this, &rules, setup, seed] {
    simulation_options options;
    options.trials = trials_;
    options.seed = static_cast<std::uint64_t>(seed);
    options.cancel = &cancel_;
    options.progress = &progress_;
    json doc;
    try {
      const auto est = sl::simulate_battle(rules, setup, options);
      doc["method"] = json{{"name", "simulation"},
                           {"trials", est.trials},
                           {"seed", options.seed},
                           {"confidence", 0.95},
                           {"cancelled", est.trials < trials_}};
      const json results = cli::simulated_battle_results(rules, setup, est);
      for (auto it = results.begin(); it != results.end(); ++it) doc[it.key()] = it.value();
    } catch (const std::exception& e) {
      doc["error"] = e.what();
    }
    {
      std::lock_guard lock(mutex_);
      result_ = std::move(doc);
    }
    running_ = false;
  });
}

}  // namespace musket::gui
