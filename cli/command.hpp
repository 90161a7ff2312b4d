#pragma once
// A `musket <game> <command>`: its options and how it turns them into a report. Each game's
// commands live in their own file and register here; main.cpp only dispatches.
#include <boost/program_options.hpp>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "cli/report.hpp"

namespace musket::cli {

namespace po = boost::program_options;

struct command {
  std::string name;     // "battle"
  std::string summary;  // one line for `musket nt --help`
  std::function<void(po::options_description&)> add_options;
  std::function<report(const po::variables_map&)> run;
  std::string help_notes;  // rulings and examples shown by `--help`
};

struct game_entry {
  std::string code;   // "nt"
  std::string title;  // "Supply Lines of the American Revolution: The Northern Theater"
  std::vector<command> commands;
};

class command_registry {
 public:
  game_entry& add_game(const std::string& code, const std::string& title);
  const game_entry* find_game(const std::string& code) const;
  const command* find_command(const std::string& game, const std::string& name) const;
  const std::vector<game_entry>& games() const { return games_; }

 private:
  std::vector<game_entry> games_;
};

// Every game's commands (cli/commands.cpp calls each game's register function).
void register_all_commands(command_registry& registry);
void register_supply_lines_commands(command_registry& registry);
void register_revolution_commands(command_registry& registry);   // cli/revolution_commands.cpp
void register_great_lakes_commands(command_registry& registry);  // cli/great_lakes_commands.cpp
void register_campaign_commands(command_registry& registry);     // cli/campaign_commands.cpp

// Every option the user gave or that took a default, as JSON (flags as true), for `inputs`.
json echo_inputs(const po::variables_map& vm);
// The document every command starts from: game, command, echoed inputs, and method exact.
json base_document(const std::string& game, const std::string& command, const po::variables_map& vm);

// Option readers that turn a missing or malformed value into invalid_input naming the option.
int int_option(const po::variables_map& vm, const std::string& name);
std::string string_option(const po::variables_map& vm, const std::string& name);
bool flag_option(const po::variables_map& vm, const std::string& name);

}  // namespace musket::cli
