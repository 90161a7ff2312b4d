#include "cli/command.hpp"

#include "core/invalid_input.hpp"

namespace musket::cli {

game_entry& command_registry::add_game(const std::string& code, const std::string& title) {
  for (auto& g : games_)
    if (g.code == code) return g;
  games_.push_back({code, title, {}});
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

}  // namespace musket::cli
