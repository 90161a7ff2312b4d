#pragma once
// The Southern Strategy's navies: Sea Battle (SS 12.2) and Rolling for Return (SS 12.4).
#include <vector>

#include "calc/supply_lines/rule_set.hpp"
#include "core/pmf.hpp"

namespace musket::supply_lines {

enum class track_colour { red, blue };
track_colour parse_colour(const std::string& text, const std::string& field);

struct sea_battle_setup {
  int modifier = 0;  // the Naval Modifier printed at the Political Will marker
  track_colour colour = track_colour::red;
  side initiator = side::crown;
};

// Each side rolls 2d6 plus its modifier (red: Crown +m, Patriot -m; blue: the reverse), the
// initiator +1 more; a total of 10 or more defeats the other navy. Both may fall, or neither.
struct sea_battle_result {
  rational french_navy_defeated{0};  // P(the Crown total >= 10), whatever befalls the Crown navy
  rational crown_navy_defeated{0};   // P(the Patriot total >= 10)
  rational both_defeated{0};
  rational neither_defeated{0};
  rational only_french_navy_defeated{0};
  rational only_crown_navy_defeated{0};
};

// The Naval Modifier is a small non-negative number printed on a 10-space track; the track
// itself is not in our rules text, so we accept 0..9 (its colour gives the sign).
inline constexpr int max_naval_modifier = 9;
void validate(const rule_set& rules, const sea_battle_setup& setup);
sea_battle_result resolve_sea_battle(const rule_set& rules, const sea_battle_setup& setup);

struct navy_return_result {
  rational per_turn{0};               // 12.4: 1-2 (enemy navy off the map) or 1-3 (on it)
  std::vector<rational> returned_by;  // [k] = P(back by the end of non-winter turn k+1)
};
navy_return_result resolve_navy_return(const rule_set& rules, bool enemy_navy_on_map, int turns);
inline constexpr int max_navy_turns = 60;

}  // namespace musket::supply_lines
