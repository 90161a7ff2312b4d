#include "calc/great_lakes/turn/war_end.hpp"

#include "core/dice.hpp"
#include "core/invalid_input.hpp"

namespace musket::great_lakes {

war_end_result resolve_war_end(const game_data& data, int from_turn) {
  require_in_range("from-turn", from_turn, 1, data.last_turn, "the turn being played");
  war_end_result out;
  out.last_turn = pmf::empty();
  rational going_on = 1;
  for (const auto& roll : data.war_end) {
    if (roll.after_turn < from_turn) continue;
    const rational ends = die_at_least<rational>(roll.ends_on_at_least);
    out.last_turn.add_mass(roll.after_turn, going_on * ends);
    going_on *= 1 - ends;
  }
  out.last_turn.add_mass(data.last_turn, going_on);  // GL 15.1: always over after the last turn
  out.expected_last_turn = mean(out.last_turn);
  return out;
}

}  // namespace musket::great_lakes
