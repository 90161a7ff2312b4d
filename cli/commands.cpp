#include "cli/command.hpp"

namespace musket::cli {

void register_all_commands(command_registry& registry) {
  register_supply_lines_commands(registry);
}

}  // namespace musket::cli
