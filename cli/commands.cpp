#include "cli/command.hpp"

namespace musket::cli {

void register_all_commands(command_registry& registry) {
  register_supply_lines_commands(registry);
#ifdef MUSKET_HAS_REVOLUTION
  register_revolution_commands(registry);
#endif
#ifdef MUSKET_HAS_GREAT_LAKES
  register_great_lakes_commands(registry);
#endif
#ifdef MUSKET_HAS_CAMPAIGN
  register_campaign_commands(registry);
#endif
  register_sweep_commands(registry);
}

}  // namespace musket::cli
