#pragma once
// What the `musket ar` commands share: the data directory, the document, and the battle inputs
// (cli/revolution_commands.cpp), and the `options` command (cli/revolution_options_commands.cpp).
#include <string>

#include "calc/revolution/combat.hpp"
#include "calc/revolution/crt.hpp"
#include "cli/command.hpp"

namespace musket::cli {

namespace ar = musket::revolution;

namespace revolution_input {

std::string data_file(const std::string& name);  // data/ar/<name>, or under MUSKET_DATA_DIR
json ar_document(const std::string& command, const po::variables_map& vm);
json bounds_exact(const ar::probability_bounds& b);  // {"min": "num/den", "max": ...}

// --attacker, --defender, --fort, --besieging, --loss-policy, --crt (required for `battle`).
void add_battle_options(po::options_description& o, bool required);
ar::battle_setup read_battle(const po::variables_map& vm);
ar::crt_table read_crt(const po::variables_map& vm);

}  // namespace revolution_input

// `musket ar options`: the Variable Forces options (cli/revolution_options_commands.cpp).
command revolution_options_command();

}  // namespace musket::cli
