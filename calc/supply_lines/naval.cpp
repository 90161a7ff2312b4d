#include "calc/supply_lines/naval.hpp"

#include "core/dice.hpp"
#include "core/invalid_input.hpp"

namespace musket::supply_lines {

track_colour parse_colour(const std::string& text, const std::string& field) {
  if (text == "red") return track_colour::red;
  if (text == "blue") return track_colour::blue;
  throw invalid_input(field, "'" + text + "' is not a track colour; allowed: red, blue");
}

void validate(const rule_set& rules, const sea_battle_setup& s) {
  if (rules.which != game::southern_strategy)
    throw invalid_input("command", "Sea Battles exist only in The Southern Strategy (SS 12.2)");
  require_in_range("modifier", s.modifier, 0, max_naval_modifier,
                   "the printed Naval Modifier; the track colour gives its sign");
}

sea_battle_result resolve_sea_battle(const rule_set& rules, const sea_battle_setup& s) {
  validate(rules, s);
  const int crown_modifier =
      (s.colour == track_colour::red ? s.modifier : -s.modifier) + (s.initiator == side::crown ? 1 : 0);
  const int patriot_modifier =
      (s.colour == track_colour::blue ? s.modifier : -s.modifier) + (s.initiator == side::patriot ? 1 : 0);
  const pmf two_dice = sum_of_dice<rational>(2);
  const rational crown_wins = at_least(two_dice, 10 - crown_modifier);
  const rational patriot_wins = at_least(two_dice, 10 - patriot_modifier);
  sea_battle_result r;  // the two rolls are independent
  r.french_navy_defeated = crown_wins;
  r.crown_navy_defeated = patriot_wins;
  r.both_defeated = crown_wins * patriot_wins;
  r.neither_defeated = (1 - crown_wins) * (1 - patriot_wins);
  r.only_french_navy_defeated = crown_wins * (1 - patriot_wins);
  r.only_crown_navy_defeated = (1 - crown_wins) * patriot_wins;
  return r;
}

navy_return_result resolve_navy_return(const rule_set& rules, bool enemy_on_map, int turns) {
  if (rules.which != game::southern_strategy)
    throw invalid_input("command", "navies return only in The Southern Strategy (SS 12.4)");
  require_in_range("turns", turns, 1, max_navy_turns);
  navy_return_result r;
  r.per_turn = rational(enemy_on_map ? 3 : 2, 6);
  rational still_away = 1;
  for (int k = 0; k < turns; ++k) {
    still_away *= 1 - r.per_turn;
    r.returned_by.push_back(1 - still_away);
  }
  return r;
}

}  // namespace musket::supply_lines
