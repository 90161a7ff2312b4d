#include "cli/command.hpp"

#include <cstdint>
#include <regex>
#include <typeinfo>
#include <vector>

#include "cli/work_budget.hpp"
#include "core/invalid_input.hpp"

namespace musket::cli {

game_entry& command_registry::add_game(const std::string& code, const std::string& title) {
  for (auto& g : games_)
    if (g.code == code) return g;
  games_.push_back({code, title, {}, {}, {}, {}, {}});
  return games_.back();
}

const game_entry* command_registry::find_game(const std::string& code) const {
  for (const auto& g : games_)
    if (g.code == code) return &g;
  return nullptr;
}

const command* command_registry::find_command(const std::string& game, const std::string& name) const {
  const game_entry* g = find_game(game);
  if (!g) return nullptr;
  for (const auto& c : g->commands)
    if (c.name == name) return &c;
  return nullptr;
}

po::options_description command_options(const game_entry& game, const command& cmd) {
  po::options_description options("musket " + game.code + " " + cmd.name + " options");
  cmd.add_options(options);
  // A command that can run long (it simulates trials) takes --yes past the work budget
  // (cli/work_budget.hpp); a sweep declares its own.
  if (options.find_nothrow("trials", false) && !options.find_nothrow(work_confirm_option, false))
    options.add_options()(work_confirm_option, "run past the work budget (the estimated seconds; see docs/cli.md)");
  options.add_options()("format", po::value<std::string>()->default_value("table"), "table | json | csv")(
      "help", "show this help");
  return options;
}

namespace {
// An int option that knows its range (see whole_number).
class ranged_int : public po::typed_value<int> {
 public:
  ranged_int(int lowest, int highest) : po::typed_value<int>(nullptr), range{lowest, highest} {
    value_name(std::to_string(lowest) + ".." + std::to_string(highest));
  }
  whole_number_range range;
};
}  // namespace

po::typed_value<int>* whole_number(int lowest, int highest) {
  return new ranged_int(lowest, highest);
}

std::optional<whole_number_range> option_range(const po::option_description& option) {
  if (const auto* ranged = dynamic_cast<const ranged_int*>(option.semantic().get())) return ranged->range;
  return std::nullopt;
}

std::string description_with_range(const po::option_description& option) {
  const auto range = option_range(option);
  if (!range) return option.description();
  return option.description() + ", " + std::to_string(range->lowest) + ".." + std::to_string(range->highest);
}

void check_option_ranges(const po::options_description& options, const po::variables_map& vm) {
  for (const auto& option : options.options()) {
    const auto range = option_range(*option);
    if (!range || !vm.count(option->long_name())) continue;
    const int* value = boost::any_cast<int>(&vm[option->long_name()].value());
    if (value) require_in_range(option->long_name(), *value, range->lowest, range->highest);
  }
}

void require_given_once(const po::options_description& options, const std::string& name, std::size_t count) {
  if (count < 2) return;
  const po::option_description* option = options.find_nothrow(name, false);
  if (!option || option->semantic()->is_composing()) return;
  throw invalid_input(name, "is given " + std::to_string(count) + " times; it takes one value");
}

void require_given_once(const po::options_description& options, const std::vector<std::string>& words) {
  std::map<std::string, std::size_t> counts;
  for (const auto& word : words)
    if (word.size() > 2 && word.compare(0, 2, "--") == 0) ++counts[word.substr(2, word.find('=') - 2)];
  for (const auto& [name, count] : counts) require_given_once(options, name, count);
}

namespace {
// The items of the first list `pattern` finds in `help` (group 1: "a | b | c").
std::vector<std::string> choices_in(const std::string& help, const std::regex& pattern) {
  std::vector<std::string> choices;
  std::smatch m;
  if (!std::regex_search(help, m, pattern)) return choices;
  const std::string list = m[1];
  for (std::size_t start = 0;;) {
    const auto bar = list.find(" | ", start);
    choices.push_back(list.substr(start, bar == std::string::npos ? std::string::npos : bar - start));
    if (bar == std::string::npos) break;
    start = bar + 3;
  }
  return choices;
}
}  // namespace

std::vector<std::string> option_choices(const po::option_description& option) {
  static const std::regex choice_text(R"((?:^|: )([a-z0-9_-]+(?: \| [a-z0-9_-]+)+)(?=$| \(|,|;))");
  return choices_in(option.description(), choice_text);
}

std::vector<std::string> form_choices(const po::option_description& option) {
  if (auto choices = option_choices(option); !choices.empty()) return choices;
  // Widened: an item may carry ":K" (an upper-case parameter name) and the list may end at a colon.
  static const std::regex choice_text(
      R"((?:^|: )([a-z0-9_-]+(?::[A-Z]+)?(?: \| [a-z0-9_-]+(?::[A-Z]+)?)+)(?=$| \(|,|;|:))");
  return choices_in(option.description(), choice_text);
}

bool takes_none(const po::option_description& option) {
  return option.description().find("\"none\"") != std::string::npos;
}

json echo_inputs(const po::variables_map& vm) {
  json inputs = json::object();
  for (const auto& [name, value] : vm) {
    if (name == "help" || name == "format") continue;
    const auto& any = value.value();
    if (any.type() == typeid(int))
      inputs[name] = value.as<int>();
    else if (any.type() == typeid(std::uint64_t))
      inputs[name] = value.as<std::uint64_t>();
    else if (any.type() == typeid(double))
      inputs[name] = value.as<double>();
    else if (any.type() == typeid(std::string))
      inputs[name] = value.as<std::string>();
    else if (any.type() == typeid(std::vector<std::string>))
      inputs[name] = value.as<std::vector<std::string>>();
    else if (any.type() == typeid(std::vector<int>))
      inputs[name] = value.as<std::vector<int>>();
    else
      inputs[name] = true;  // a switch
  }
  return inputs;
}

json defaulted_inputs(const po::variables_map& vm) {
  json names = json::array();
  for (const auto& [name, value] : vm)
    if (value.defaulted() && name != "help" && name != "format") names.push_back(name);
  return names;
}

void unused_default(json& document, const std::string& name) {
  if (!document.contains("defaults")) return;
  json kept = json::array();
  for (const auto& n : document.at("defaults"))
    if (n != name) kept.push_back(n);
  document["defaults"] = kept;
}

json base_document(const std::string& game, const std::string& command, const po::variables_map& vm) {
  json doc;
  doc["game"] = game;
  doc["command"] = command;
  doc["inputs"] = echo_inputs(vm);
  doc["defaults"] = defaulted_inputs(vm);
  doc["method"] = exact_method();
  return doc;
}

int int_option(const po::variables_map& vm, const std::string& name) {
  if (!vm.count(name)) throw invalid_input(name, "is required");
  return vm[name].as<int>();
}

std::string string_option(const po::variables_map& vm, const std::string& name) {
  if (!vm.count(name)) throw invalid_input(name, "is required");
  return vm[name].as<std::string>();
}

bool flag_option(const po::variables_map& vm, const std::string& name) {
  return vm.count(name) > 0;
}

namespace {
thread_local const run_context* installed_context = nullptr;
}  // namespace

const run_context* current_run_context() {
  return installed_context;
}

scoped_run_context::scoped_run_context(const run_context* context) : previous_(installed_context) {
  installed_context = context;
}

scoped_run_context::~scoped_run_context() {
  installed_context = previous_;
}

bool run_cancel_requested() {
  const run_context* c = installed_context;
  return c && c->cancel && c->cancel->load(std::memory_order_relaxed);
}

void attach_run_context(simulation_options& options) {
  const run_context* c = installed_context;
  if (!c) return;
  options.cancel = c->cancel;
  options.progress = c->done;
  if (c->done) c->done->store(0);
  if (c->total) c->total->store(options.trials);
}

std::string input_error_line(const std::string& field, const std::string& problem) {
  const bool option =
      !field.empty() && field.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789-") == std::string::npos;
  return (option ? "--" : "") + field + ": " + problem;
}

}  // namespace musket::cli
