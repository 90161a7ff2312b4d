#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

#include "calc/great_lakes/exact/column_solver.hpp"

namespace musket::great_lakes::sweep {

constexpr std::size_t rounds_window = 40;  // rounds held by the window (most battles list fewer)

double column_solver::window_bytes() const {
  return 8.0 * static_cast<double>(rounds_window + 1) *
         static_cast<double>(d_parts_ * a_parts_ + static_cast<std::size_t>(a_dice_count_) * a_parts_);
}

bool column_solver::window_fits() const {
  // (At most 512 MB where there is no bound: past that, stepping a round at a time is cheaper.)
  return window_bytes() <= static_cast<double>(std::min<std::size_t>(meter_.room(512'000'000), 512'000'000));
}

void column_solver::rounds_in_window(std::size_t window, std::vector<double>& present,
                                     std::vector<double>& last) const {
  const std::size_t w = window;
  // arrivals[(d rank * a_parts + a rank) * w + t]: mass reaching the pair at round t + 1's start.
  std::vector<double> arrivals(d_parts_ * a_parts_ * w, 0.0);
  const std::uint32_t start_column = do_.part_rank[d_.part[0]];
  if (!start_apart_) arrivals[(start_column * a_parts_ + ao_.part_rank[a_.part[0]]) * w] = 1.0;
  present.assign(w, 0.0);  // mass in the battle at round t + 1's start
  last.assign(d_parts_ * a_parts_, 0.0);
  const auto dice_count = static_cast<std::size_t>(a_dice_count_);
  std::vector<double> mid(dice_count * a_parts_ * w, 0.0), stay(w);
  std::vector<std::vector<std::uint32_t>> mid_parts(dice_count);  // by dice: the parts with mass
  std::vector<std::uint8_t> has_mid(dice_count * a_parts_, 0);
  std::vector<side_move> targets;  // a column's second-half moves: (target, dice fired, p)
  std::vector<int> part_line(a_parts_), part_dice(a_parts_);
  for (std::uint32_t k = 0; k < a_parts_; ++k) {
    part_line[k] = a_line_[ao_.part_begin[k]];
    part_dice[k] = a_dice_[ao_.part_begin[k]];
  }
  auto axpy = [w](double* to, double p, const double* from) {
    for (std::size_t t = 0; t < w; ++t) to[t] += p * from[t];
  };
  // A round later: the second half ends the round (t + 1 at the next pair; past the window, dropped).
  auto axpy_next_round = [w](double* to, double p, const double* from) {
    for (std::size_t t = 0; t + 1 < w; ++t) to[t + 1] += p * from[t];
  };
  for (std::uint32_t column = 0; column < d_parts_; ++column) {
    detail::throw_if_cancelled(options_);
    const std::uint32_t d_rep = do_.example_of_rank(column);
    const int fire = d_.dice[d_rep];
    const double miss = sixes(fire)[0];
    auto add_mid = [&](int n, std::uint32_t to, double p, const double* weights) {
      const std::size_t at = static_cast<std::size_t>(n) * a_parts_ + to;
      if (!has_mid[at]) {
        has_mid[at] = 1;
        mid_parts[static_cast<std::size_t>(n)].push_back(to);
      }
      axpy(&mid[at * w], p, weights);
    };
    // Where the attacker's fire misses, the round ends with the defender as it was: `weights` with
    // the attacker at part k_to reach the next round's pairs after the reinforcement (GL 13.3; none
    // waiting, the pair itself), but for the pair's own self-loop (`self`, divided out below).
    auto missed = [&](std::uint32_t k_to, double p, const double* weights, bool self) {
      if (withdrawing(column, k_to) >= 0) return;  // a retreat policy ends the battle there (GL 12.2)
      each_entering(a_enter_.by_part[k_to], k_to, [&](std::uint32_t a_to, double qa) {
        each_entering(d_enter_.by_part[column], column, [&](std::uint32_t d_to, double qd) {
          if (!self || a_to != k_to || d_to != column)
            axpy_next_round(&arrivals[(d_to * a_parts_ + a_to) * w], p * qa * qd, weights);
        });
      });
    };
    if (start_apart_ && column == start_column) {  // round 1 from the start, played apart (exact/column_sweep.cpp)
      std::vector<double> once(w, 0.0);
      once[0] = 1.0;
      present[0] += 1.0;
      const int dice = a_.hit_first_dice[a_.hit_of[0][0]];
      add_mid(dice, ao_.part_rank[a_.part[0]], miss, once.data());
      missed(ao_.part_rank[a_.part[0]], miss * sixes(dice)[0], once.data(), false);
      for (const side_move& mv : start_part_moves_)
        if (part_line[mv.to] > 0) {
          add_mid(mv.dice, mv.to, mv.p, once.data());
          missed(mv.to, mv.p * sixes(mv.dice)[0], once.data(), false);
        }
    }
    for (std::uint32_t k = 0; k < a_parts_; ++k) {
      if (part_line[k] == 0) continue;
      const double* arrived = &arrivals[(column * a_parts_ + k) * w];
      const double loop = self_loop(column, k, miss, part_dice[k]);
      if (loop >= 1.0) continue;  // a stalemate: the battle ended as the pair was reached
      // Who is here at each round's start: arrivals, and those the round before kept (both missed).
      double kept = 0, any = 0;
      for (std::size_t t = 0; t < w; ++t) {
        stay[t] = arrived[t] + loop * kept;
        kept = stay[t];
        present[t] += stay[t];
        any += stay[t];
      }
      last[column * a_parts_ + k] = stay[w - 1];
      if (any == 0.0) continue;
      add_mid(part_dice[k], k, miss, stay.data());
      missed(k, miss * sixes(part_dice[k])[0], stay.data(), true);
      const solved_moves* chosen = solved(column, k);
      for (const side_move& mv : chosen ? chosen->part : a_part_moves_[static_cast<std::size_t>(fire)][k])
        if (part_line[mv.to] > 0) {
          add_mid(mv.dice, mv.to, mv.p, stay.data());
          missed(mv.to, mv.p * sixes(mv.dice)[0], stay.data(), false);
        }
    }
    // Second halves, target column by target column (each column's arrivals stay in cache while
    // every fire that reaches it is added; one add per move and pair, in a fixed order).
    targets.clear();
    for (std::size_t n = 0; n < dice_count; ++n)
      if (!mid_parts[n].empty())
        for (const side_move& mv : d_part_moves_[n][column])
          if (d_part_line_[mv.to] > 0) targets.push_back({mv.to, static_cast<int>(n), mv.p});
    std::sort(targets.begin(), targets.end(),
              [](const side_move& x, const side_move& y) { return x.to != y.to ? x.to < y.to : x.dice < y.dice; });
    for (const side_move& target : targets) {
      const auto n = static_cast<std::size_t>(target.dice);
      for (std::uint32_t k : mid_parts[n]) {  // (a retreat policy first, GL 12.2; then reinforcement, GL 13.3)
        if (withdrawing(target.to, k) >= 0) continue;
        each_entering(a_enter_.by_part[k], k, [&](std::uint32_t a_to, double q) {
          each_entering(d_entering_part(target.to), target.to, [&](std::uint32_t d_to, double qd) {
            axpy_next_round(&arrivals[(d_to * a_parts_ + a_to) * w], target.p * q * qd, &mid[(n * a_parts_ + k) * w]);
          });
        });
      }
    }
    for (std::size_t n = 0; n < dice_count; ++n) {
      for (std::uint32_t k : mid_parts[n]) {
        std::fill(&mid[(n * a_parts_ + k) * w], &mid[(n * a_parts_ + k) * w] + w, 0.0);
        has_mid[n * a_parts_ + k] = 0;
      }
      mid_parts[n].clear();
    }
  }
}

// The rounds' distribution: the folded pairs stepped a round at a time (each pair's mass at a
// round's start), until no more than the tolerance goes on. by_round[t]: ended in round t + 1.
std::vector<double> column_solver::rounds(double& tail, std::size_t& window_bytes) const {
  // The first rounds in one sweep with a window of them (a few times the work of the mass alone),
  // where its memory fits; the rest a round at a time from where the window ends (the work of a
  // sweep each round). present[t]: the mass still in the battle at round t + 1's start.
  std::vector<double> present, now, next(d_parts_ * a_parts_, 0.0);
  window_bytes = 0;
  if (window_fits()) {
    window_bytes = static_cast<std::size_t>(this->window_bytes());
    rounds_in_window(rounds_window, present, now);
  } else {  // (a start played apart plays its own first round below)
    now.assign(d_parts_ * a_parts_, 0.0);
    now[do_.part_rank[d_.part[0]] * a_parts_ + ao_.part_rank[a_.part[0]]] = 1.0;
    present.push_back(1.0);
  }
  const std::uint32_t start_column = do_.part_rank[d_.part[0]], start_k = ao_.part_rank[a_.part[0]];
  bool from_start = start_apart_ && window_bytes == 0;  // round 1 with its own dice (GL 11.22)
  const auto dice_count = static_cast<std::size_t>(a_dice_count_);
  std::vector<double> mid(dice_count * a_parts_);
  std::vector<std::vector<std::uint32_t>> mid_parts(dice_count);  // by dice: the parts with mass
  std::vector<int> part_line(a_parts_), part_dice(a_parts_);
  for (std::uint32_t k = 0; k < a_parts_; ++k) {
    part_line[k] = a_line_[ao_.part_begin[k]];
    part_dice[k] = a_dice_[ao_.part_begin[k]];
  }
  // Listed while more than the tolerance goes on, as the plain chain lists them (absorbing_chain).
  std::vector<double> by_round;
  double going = 1.0;
  while (going > options_.rounds_tolerance && by_round.size() + 1 < options_.max_listed_rounds + 1) {
    const std::size_t t = by_round.size();
    if (t + 1 < present.size()) {
      // The mass ending in round t + 1, a difference of two sums. One within their rounding (a few
      // ulps of the mass going in) is none: 2.2e-16 in round 1 said a battle can end there where
      // crossing attackers cannot (stats' min 1).
      const double ended = present[t] - present[t + 1];
      by_round.push_back(std::abs(ended) <= 8 * std::numeric_limits<double>::epsilon() * present[t] ? 0.0 : ended);
      going = present[t + 1];
      continue;
    }
    detail::throw_if_cancelled(options_);
    std::fill(next.begin(), next.end(), 0.0);
    for (std::uint32_t column = 0; column < d_parts_; ++column) {
      const double* at = &now[column * a_parts_];
      std::uint32_t low = static_cast<std::uint32_t>(a_parts_), high = 0;
      for (std::uint32_t k = 0; k < a_parts_; ++k)
        if (at[k] != 0.0) {
          low = std::min(low, k);
          high = k + 1;
        }
      if (low >= high) continue;
      const std::uint32_t d_first = do_.part_begin[column];
      const std::uint32_t d_rep = do_.state_at[d_first];
      const int fire = d_.dice[d_rep];
      const double miss = sixes(fire)[0];
      auto add_mid = [&](int n, std::uint32_t k, double m) {
        double& to = mid[static_cast<std::size_t>(n) * a_parts_ + k];
        if (to == 0.0) mid_parts[static_cast<std::size_t>(n)].push_back(k);
        to += m;
      };
      for (std::uint32_t k = low; k < high; ++k) {
        const double m = at[k];
        if (m == 0.0) continue;
        const bool first = from_start && column == start_column && k == start_k;
        add_mid(first ? a_.hit_first_dice[a_.hit_of[0][0]] : part_dice[k], k, miss * m);
        const solved_moves* chosen = solved(column, k);
        for (const side_move& mv : first    ? start_part_moves_
                                   : chosen ? chosen->part
                                            : a_part_moves_[static_cast<std::size_t>(fire)][k])
          if (part_line[mv.to] > 0) add_mid(mv.dice, mv.to, mv.p * m);
      }
      // (Each pair's sum is made in the same order whatever the order of a list: one add per move.)
      for (std::size_t n = 0; n < dice_count; ++n) {
        auto& parts = mid_parts[n];
        if (parts.empty()) continue;
        double* from = &mid[n * a_parts_];
        const double all_miss = sixes(static_cast<int>(n))[0];
        // The round's end where the battle goes on: each side's reinforcement (GL 13.3), the
        // defender's in its moves.
        // A retreat policy reads the pair first (GL 12.2 step 4: the battle ends there).
        for (std::uint32_t k : parts) {
          if (withdrawing(column, k) >= 0) continue;
          each_entering(a_enter_.by_part[k], k, [&](std::uint32_t a_to, double qa) {
            each_entering(d_enter_.by_part[column], column, [&](std::uint32_t d_to, double qd) {
              next[d_to * a_parts_ + a_to] += all_miss * qa * qd * from[k];
            });
          });
        }
        for (const side_move& mv : d_part_moves_[n][column]) {
          if (d_part_line_[mv.to] == 0) continue;
          for (std::uint32_t k : parts) {
            if (withdrawing(mv.to, k) >= 0) continue;
            each_entering(a_enter_.by_part[k], k, [&](std::uint32_t a_to, double q) {
              each_entering(d_entering_part(mv.to), mv.to, [&](std::uint32_t d_to, double qd) {
                next[d_to * a_parts_ + a_to] += mv.p * q * qd * from[k];
              });
            });
          }
        }
        for (std::uint32_t k : parts) from[k] = 0.0;
        parts.clear();
      }
    }
    // Pairs where nobody can hit, nobody waits and no policy retreats (a stalemate) end the battle
    // as they are reached.
    double next_going = 0;
    for (std::uint32_t column = 0; column < d_parts_; ++column) {
      const bool defender_fires = d_.dice[do_.example_of_rank(column)] > 0;
      for (std::uint32_t k = 0; k < a_parts_; ++k) {
        double& m = next[column * a_parts_ + k];
        const bool stalemate = !defender_fires && part_dice[k] == 0 && a_enter_.stay[k] == 1.0 &&
                               d_enter_.stay[column] == 1.0 && withdrawing(column, k) < 0;
        if (stalemate) m = 0.0;
        next_going += m;
      }
    }
    from_start = false;
    present.push_back(next_going);
    std::swap(now, next);
  }
  tail = going;
  return by_round;
}

}  // namespace musket::great_lakes::sweep
