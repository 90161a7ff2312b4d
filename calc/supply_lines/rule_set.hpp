#pragma once
// The Northern Theater and The Southern Strategy share one battle procedure (NT 8.x, SS 10.x);
// what differs between them is this struct, never a copy of the procedure.
#include <string>

namespace musket::supply_lines {

enum class game { northern_theater, southern_strategy };
enum class side { crown, patriot };
enum class terrain { point, city, fort };

struct rule_set {
  game which;
  std::string code;                  // "nt" or "ss"
  bool crown_rounds_up;              // NT 8.2 / SS 10.2: dice for War Supplies at a city or fort
  bool patriot_rounds_up;            // NT rounds Patriot down; SS ("Von Steuben") rounds up
  int crown_defender_checks;         // NT 8.7: the Crown makes one morale check
  int patriot_defender_checks;       // NT 8.7: the Patriot two; SS 10.7: one each
  int patriot_track_direction;       // +1: NT's Support Track runs toward the Treaty of Alliance;
                                     // -1: SS's Political Will Track runs toward the Crown
  bool has_sieges;                   // SS 11.1
  bool crown_commander_instant_win;  // SS 14.0: Cornwallis captured ends the game
  int subordinate_unit_limit;        // SS 9.2: a Subordinate commands at most 4 Units; 0 = none
  int max_leaders_per_army;          // SS 2.2: one Leader and one Subordinate per side
};

const rule_set& northern_theater();
const rule_set& southern_strategy();
// "nt" or "ss"; throws invalid_input naming `field` otherwise.
const rule_set& rules_for(const std::string& code, const std::string& field = "game");

std::string to_string(side s);
std::string to_string(terrain t);
side parse_side(const std::string& text, const std::string& field);
terrain parse_terrain(const std::string& text, const std::string& field);
inline side opponent(side s) {
  return s == side::crown ? side::patriot : side::crown;
}

// Limits that keep input honest: the War Supply cube stock is 40 (NT 2.0, SS 2.5) and no
// army on either map approaches 99 units.
inline constexpr int max_war_supplies = 40;
inline constexpr int max_units = 99;

}  // namespace musket::supply_lines
