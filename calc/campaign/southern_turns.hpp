#pragma once
// The Southern Strategy over turns: how long a besieged army holds out (SS 11.2, 13.1), and
// where the two navies are, turn by turn, with the Winter Turns given as data (SS 12.3, 12.4).
#include <vector>

#include "core/pmf.hpp"

namespace musket::campaign {

struct siege_setup {
  int food = 0;                 // Food Supplies with the besieged army
  rational resupply_chance{0};  // P(1 Food reaches the army during a turn); SS 8.2 forbids Forage
                                // under Siege, so this models whatever else the user expects
  int turns = 12;               // how many Turn Ends to follow
};

struct siege_result {
  std::vector<rational> surrenders_on;   // [t-1] = P(surrender at the end of turn t), t = 1..turns
  rational holds_out{0};                 // P(still holding after `turns` turns)
  std::vector<rational> surrendered_by;  // cumulative
};

// Each Turn End (13.1): the army expends 1 Food; with none it surrenders. With resupply chance 0
// an army with k Food surrenders at the end of turn k + 1.
siege_result resolve_siege(const siege_setup& setup);

struct navy_turns_setup {
  int turns = 8;
  std::vector<bool> winter;  // [t-1]: turn t is a Winter Turn
  bool crown_on_map = true;  // at the start of turn 1
  bool french_on_map = false;
};

struct navy_turn {
  rational crown_on_map{0};  // at the end of the turn, after the return rolls
  rational french_on_map{0};
  rational both_on_map{0};
};

// 12.3: both navies leave the map at the start of a Winter Turn. 12.4: at the end of each
// non-Winter Turn an absent navy returns on 1-2 if the enemy navy is off the map, 1-3 if it is on;
// the Crown rolls first, so a Crown navy just returned counts as on the map for the French roll.
// Sea battles are not modelled (the plan says nothing of them).
std::vector<navy_turn> resolve_navy_turns(const navy_turns_setup& setup);

}  // namespace musket::campaign
