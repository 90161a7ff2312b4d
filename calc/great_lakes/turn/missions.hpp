#pragma once
// The Great Lakes turn outside battle: ship squadron battles (GL 7.8), CAP and who moves first
// (GL 5, 8), and the simultaneous choice of ship missions as a matrix game.
#include <array>
#include <string>
#include <vector>

#include "calc/great_lakes/game_data.hpp"
#include "core/enum_names.hpp"
#include "core/matrix_game.hpp"
#include "core/pmf.hpp"

namespace musket::great_lakes {

// GL 7.8: each side keeps its highest die, higher wins, ties reroll everything.
// P(the side with `a_dice` wins); both need at least one die.
rational ship_battle_a_wins(int a_dice, int b_dice);

enum class mission { transport, support, supply, intercept };
inline constexpr std::array<mission, 4> all_missions{mission::transport, mission::support, mission::supply,
                                                     mission::intercept};
inline constexpr enum_names<mission, 4> names_of_mission{{{mission::transport, "transport"},
                                                          {mission::support, "support"},
                                                          {mission::supply, "supply"},
                                                          {mission::intercept, "intercept"}}};
std::string to_string(mission m);
mission parse_mission(const std::string& text, const std::string& field);

enum lake { ontario = 0, erie = 1 };
enum side_index { british = 0, american = 1 };

struct turn_setup {
  std::array<std::array<mission, 2>, 2> orders{};  // [lake][side]
  std::array<std::array<int, 2>, 2> ship_dice{};   // [lake][side]; 0 = unknown (an error only if a battle happens)
};

struct turn_result {
  std::array<pmf, 2> cap;                                  // [side]
  rational americans_first;                                // GL 8.2: ties go to the Americans
  std::array<std::array<rational, 2>, 2> mission_success;  // [lake][side]
  std::array<rational, 2> ship_battle;                     // [lake]: P(a ship battle is fought) (0 or 1)
  rational expected_cap_difference;                        // E[British CAP - American CAP]
};

// Throws invalid_input("erie-dice"/"ontario-dice") when a ship battle needs unknown dice.
turn_result resolve_turn(const game_data& data, const turn_setup& setup);

// CAP with no missions counted: base + the commander's roll (GL 5.4-5.7).
pmf commander_cap(const game_data& data, int side);

enum class mission_objective { first, cap_difference };
inline constexpr enum_names<mission_objective, 2> names_of_mission_objective{
    {{mission_objective::first, "first"}, {mission_objective::cap_difference, "cap-difference"}}};

struct missions_result {
  // Pure strategies are (Ontario mission, Erie mission); index = 4 * ontario + erie.
  std::vector<std::string> strategy_names;
  std::vector<double> british_strategy, american_strategy;  // optimal mixed strategies
  double value = 0;                                         // the British payoff under optimal play
  std::vector<std::vector<double>> payoff;                  // [british][american], British payoff
};

// The zero-sum game: the British maximise P(British move first) (or E[CAP_B - CAP_A]); the
// Americans minimise it. Solved by linear programming (simplex).
missions_result solve_missions(const game_data& data, const std::array<std::array<int, 2>, 2>& ship_dice,
                               mission_objective objective);

}  // namespace musket::great_lakes
