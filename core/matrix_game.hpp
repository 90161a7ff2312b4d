#pragma once
// A two-player zero-sum matrix game solved for both players' optimal mixed strategies.
#include <vector>

namespace musket {

// Optimal mixed strategies of a zero-sum matrix game (row player maximises).
struct matrix_game_solution {
  std::vector<double> row, column;
  double value = 0;
};
matrix_game_solution solve_matrix_game(const std::vector<std::vector<double>>& payoff);

}  // namespace musket
