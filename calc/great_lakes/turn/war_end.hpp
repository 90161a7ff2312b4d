#pragma once
// The war's end (GL 15.1): after which turn the game ends, rolled from the table in data/gl.
#include "calc/great_lakes/game_data.hpp"
#include "core/pmf.hpp"
#include "core/rational.hpp"

namespace musket::great_lakes {

struct war_end_result {
  pmf last_turn;  // the turn after which the game ends
  rational expected_last_turn;
};
// The game's last turn given that turn `from_turn` is being played (GL 15.1 table in data).
war_end_result resolve_war_end(const game_data& data, int from_turn);

}  // namespace musket::great_lakes
