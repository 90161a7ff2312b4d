#include "core/matrix_game.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>

namespace musket {

// By linear programming (simplex), the column player's program with the row player's as its dual.
matrix_game_solution solve_matrix_game(const std::vector<std::vector<double>>& payoff) {
  const std::size_t m = payoff.size(), n = payoff.at(0).size();
  double lowest = std::numeric_limits<double>::infinity();
  for (const auto& row : payoff)
    for (double v : row) lowest = std::min(lowest, v);
  const double shift = 1.0 - lowest;  // every entry >= 1, so the game's value is positive
  // Column player's LP: maximise sum y subject to A y <= 1, y >= 0 (tableau with slacks).
  const std::size_t cols = n + m + 1;
  std::vector<std::vector<double>> t(m + 1, std::vector<double>(cols, 0.0));
  std::vector<std::size_t> basis(m);
  for (std::size_t i = 0; i < m; ++i) {
    for (std::size_t j = 0; j < n; ++j) t[i][j] = payoff[i][j] + shift;
    t[i][n + i] = 1.0;
    t[i][cols - 1] = 1.0;
    basis[i] = n + i;
  }
  for (std::size_t j = 0; j < n; ++j) t[m][j] = -1.0;
  const double eps = 1e-12;
  for (int iteration = 0; iteration < 10000; ++iteration) {
    std::size_t enter = cols;
    for (std::size_t j = 0; j + 1 < cols; ++j)
      if (t[m][j] < -eps) {
        enter = j;  // Bland's rule: the first improving column, so no cycling
        break;
      }
    if (enter == cols) break;
    std::size_t leave = m;
    double best = std::numeric_limits<double>::infinity();
    for (std::size_t i = 0; i < m; ++i)
      if (t[i][enter] > eps) {
        const double ratio = t[i][cols - 1] / t[i][enter];
        if (ratio < best - eps || (std::abs(ratio - best) <= eps && basis[i] < basis[leave])) best = ratio, leave = i;
      }
    if (leave == m) break;  // unbounded cannot happen with positive entries
    const double pivot = t[leave][enter];
    for (auto& v : t[leave]) v /= pivot;
    for (std::size_t i = 0; i <= m; ++i)
      if (i != leave && t[i][enter] != 0.0) {
        const double f = t[i][enter];
        for (std::size_t j = 0; j < cols; ++j) t[i][j] -= f * t[leave][j];
      }
    basis[leave] = enter;
  }
  const double total = t[m][cols - 1];
  matrix_game_solution out;
  out.value = 1.0 / total - shift;
  out.column.assign(n, 0.0);
  out.row.assign(m, 0.0);
  for (std::size_t i = 0; i < m; ++i)
    if (basis[i] < n) out.column[basis[i]] = t[i][cols - 1];
  for (std::size_t i = 0; i < m; ++i) out.row[i] = t[m][n + i];  // the duals of A y <= 1
  // Each strategy as a probability vector. In exact arithmetic both vectors sum to `total`; in
  // doubles they miss it by rounding, which made a pure strategy read 0.99999999999999989. So an
  // entry within the pivoting tolerance of 0 is 0 (the simplex above already treats such a value
  // as 0), and each vector is divided by its own sum: a pure strategy is then x / x = 1 exactly.
  for (auto* strategy : {&out.column, &out.row}) {
    double sum = 0;
    for (double& x : *strategy) {
      if (std::abs(x) <= eps * total) x = 0;
      sum += x;
    }
    for (double& x : *strategy) x /= sum;
  }
  return out;
}

}  // namespace musket
