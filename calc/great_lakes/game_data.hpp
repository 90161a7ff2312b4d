#pragma once
// What the Great Lakes rules print, read from data/gl/*.json (user-correctable; unknowns are null).
#include <array>
#include <optional>
#include <string>
#include <vector>

#include "calc/great_lakes/battle.hpp"

namespace musket::great_lakes {

struct cap_band {
  int low = 1, high = 6, extra = 0;  // a d6 roll in [low, high] adds `extra` CAP (GL 5.6-5.7)
};

struct unit_type_data {
  nation side = nation::american;
  std::string type;
  int movement = 0;
  std::optional<std::array<int, 2>> sp, morale, dice;  // null where the summary prints nothing
};

struct victory_location {
  std::string location;
  int vp = 0;
};

struct war_end_roll {
  int after_turn = 0;
  int ends_on_at_least = 7;
};

// A leader block (data/gl/commanders.json): who may be named as a battle's leader, and for whom.
struct commander_data {
  std::string name;
  nation side = nation::american;
  bool morale_reroll = false;  // GL 11.26-11.27
};

struct game_data {
  int base_cap_british = 7, base_cap_american = 6;            // GL 5.4
  int supply_ontario = 2, supply_erie = 1;                    // GL 7.5 III
  int intercept_loser_cap = -1;                               // GL 7.8
  std::vector<cap_band> drummond, brown;                      // GL 5.6, 5.7
  int reinforcement_british = 4, reinforcement_american = 4;  // GL 13.5, 13.6
  std::optional<int> ontario_british_dice, ontario_american_dice, erie_british_dice, erie_american_dice;
  std::string ontario_source;
  std::vector<war_end_roll> war_end;  // GL 15.1
  int last_turn = 20;
  std::vector<unit_type_data> unit_types;
  std::vector<victory_location> british_vp, american_vp;
  std::vector<commander_data> commanders;  // every leader, in the file's order
};

// Throws invalid_input naming "FILE: /json/path" for a malformed data file.
game_data load_game_data(const std::string& directory);

// The side's commanders' names, in the file's order.
std::vector<std::string> commander_names(const game_data& data, nation side);

// Every leader of both armies is one of data/gl/commanders.json's, on its own side (GL 11.26-11.27),
// and named once; case is ignored. Throws invalid_input on "attacker/leaders/I" (or defender) with
// the side's commanders allowed and a "did you mean" for a near miss.
void validate_leaders(const game_data& data, const battle& b);

// Units whose SP, morale or dice fall outside the printed range for their side and type
// (warnings, not errors: labels may differ).
std::vector<std::string> roster_warnings(const game_data& data, const battle& b);

}  // namespace musket::great_lakes
