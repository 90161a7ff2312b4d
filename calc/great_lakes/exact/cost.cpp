#include "calc/great_lakes/exact/cost.hpp"

#include <algorithm>
#include <deque>
#include <limits>
#include <string>
#include <unordered_map>
#include <vector>

#include "calc/great_lakes/exact/column_sweep.hpp"
#include "calc/great_lakes/exact/side_states.hpp"
#include "calc/great_lakes/rules/round.hpp"

namespace musket::great_lakes {

namespace {

// Thrown once the count has listed more outcomes than `work_limit`: a side whose one round has
// millions of outcomes (16 units that can all fail morale: 3^16) is far past any budget.
struct too_much_work {};
constexpr std::uint64_t work_limit = 300'000;  // (the 6 v 6 Niagara battle lists 72,000 a side)

// A chooser that lists every outcome that can happen (probability above 0), weighing none, and
// counts them (`work`).
struct listing_chooser {
  static constexpr bool one_outcome = false;
  std::uint64_t work = 0;
  void count() {
    if (++work > work_limit) throw too_much_work();
  }
  template <class F>
  void binomial(int n, int faces, F&& f) {
    count();
    if (faces <= 0) return f(0);
    if (faces >= 6) return f(n);
    for (int k = 0; k <= n; ++k) f(k);
  }
  template <class F>
  void binomial_capped(int n, int faces, int, F&& f) {
    binomial(n, faces, f);
  }
  template <class F>
  void choose3(double p0, double p1, double p2, F&& f) {
    count();
    const double ps[3] = {p0, p1, p2};
    for (int k = 0; k < 3; ++k)
      if (ps[k] > 0.0) f(k);
  }
};

// One side's folded state as the exact engine holds it (exact/side_states.hpp's key).
std::string side_key(const round::battle_rules& r, const round::battle_state& s, int side) {
  return sweep::side_key(r, s, side, true);
}

// Per side: its folded states, and for each, its line dice and the outcomes of a round in which it
// takes 0, 1, ... hits (GL 11.23-11.27 and 13 as rules/round.hpp plays them).
struct side_play {
  std::vector<int> dice;                  // by state
  std::vector<std::vector<double>> outs;  // by state: outcomes by hits taken, 0..line SP
  std::size_t found = 0;                  // states found (all of them, unless the limit stopped the count)
  bool complete = true;
};

side_play play_side(const round::battle_rules& r, int side, std::size_t limit) {
  side_play out;
  std::unordered_map<std::string, std::size_t> seen;
  std::deque<round::battle_state> queue;
  round::battle_state start = round::initial_state(r);
  start.first_round = false;
  seen.emplace(side_key(r, start, side), 0);
  queue.push_back(start);
  listing_chooser c;
  while (!queue.empty()) {
    const round::battle_state s = queue.front();
    queue.pop_front();
    const round::side_sums sums = round::sums_of(r, s, side);
    out.dice.push_back(sums.line_dice);
    std::vector<double> by_hits(static_cast<std::size_t>(sums.line_sp) + 1, 1.0);
    for (int k = 0; k < sums.line_sp; ++k) {
      c.count();
      round::round_state t = round::track(r, s);
      round::hit_counts hits{};
      std::uint32_t checks = 0;
      round::allocate_hits(r, t, hits, side, k, checks);
      if (t.sum[side].line_units == 0) continue;  // forced retreat: one outcome
      double count = 0;
      auto entered = [&](round::round_state& u) {
        ++count;
        c.count();
        round::battle_state next = u.s;
        round::fold_out_of_line(r, next);
        if (seen.size() > limit) return;
        if (seen.emplace(side_key(r, next, side), seen.size()).second) queue.push_back(next);
      };
      auto checked = [&](round::round_state& u) {
        if (u.sum[side].line_units == 0) {
          ++count;  // GL 12.1: the line gone after morale, a forced retreat ends the battle
          c.count();
          return;
        }
        round::reinforce(r, side, u, c, entered);
      };
      round::check_morale(r, side, checks, t, hits, c, checked);
      by_hits[static_cast<std::size_t>(k)] = count;
    }
    out.outs.push_back(std::move(by_hits));
    if (seen.size() > limit) {
      out.complete = false;
      break;
    }
  }
  out.found = seen.size();
  return out;
}

}  // namespace

exact_cost predict_exact_cost(const battle& b, std::size_t side_limit) {
  const round::battle_rules r = round::compile(b);
  exact_cost cost;
  std::array<side_play, 2> sides;
  for (int side = 0; side < 2; ++side) {
    try {
      sides[side] = play_side(r, side, side_limit);
    } catch (const too_much_work&) {
      sides[side].complete = false;  // (found stays 0: not counted)
    }
    cost.side_states[side] = sides[side].found;
  }
  // (Plus the start itself when round 1 differs: GL 11.22's crossing attackers roll one less.)
  cost.states = static_cast<double>(cost.side_states[0]) * static_cast<double>(cost.side_states[1]) +
                (r.first_round_matters ? 1.0 : 0.0);
  if (!sides[0].complete || !sides[1].complete) {
    cost.transitions = cost.seconds = cost.bytes = std::numeric_limits<double>::infinity();
    return cost;
  }
  // by_dice[side][d][D]: over the side's states firing d dice, their round outcomes summed when
  // the other side fires D dice (hits 0..D; every count past the line SP ends the battle: one each).
  std::array<int, 2> max_dice{};
  for (int side = 0; side < 2; ++side)
    for (int d : sides[side].dice) max_dice[side] = std::max(max_dice[side], d);
  std::array<std::vector<std::vector<double>>, 2> by_dice;
  for (int side = 0; side < 2; ++side) {
    const int enemy_max = max_dice[1 - side] + r.ship_dice[1 - side];
    by_dice[side].assign(static_cast<std::size_t>(max_dice[side]) + 1,
                         std::vector<double>(static_cast<std::size_t>(enemy_max) + 1, 0.0));
    for (std::size_t i = 0; i < sides[side].dice.size(); ++i) {
      const auto& outs = sides[side].outs[i];
      auto& row = by_dice[side][static_cast<std::size_t>(sides[side].dice[i])];
      double run = 0;
      for (int d = 0; d <= enemy_max; ++d) {
        run += d < static_cast<int>(outs.size()) ? outs[static_cast<std::size_t>(d)] : 1.0;
        row[static_cast<std::size_t>(d)] += run;
      }
    }
  }
  // Per side, its states by the dice they fire.
  std::array<std::vector<double>, 2> states_by_dice;
  for (int side = 0; side < 2; ++side) {
    states_by_dice[side].assign(static_cast<std::size_t>(max_dice[side]) + 1, 0.0);
    for (int d : sides[side].dice) states_by_dice[side][static_cast<std::size_t>(d)] += 1.0;
  }
  // The plain chain plays whole rounds: per pair of states, the product of the two sides' outcomes.
  // The column sweep plays each half of the round on its own: per pair, the sum. Which one answers
  // is solve_exact's choice (choose_engine).
  const bool swept = choose_engine(r) == exact_engine::column_sweep;
  double transitions = 0;
  for (std::size_t da = 0; da <= static_cast<std::size_t>(max_dice[0]); ++da)
    for (std::size_t dd = 0; dd <= static_cast<std::size_t>(max_dice[1]); ++dd) {
      const double attacker_outcomes = by_dice[0][da][dd + static_cast<std::size_t>(r.ship_dice[1])];
      const double defender_outcomes = by_dice[1][dd][da + static_cast<std::size_t>(r.ship_dice[0])];
      transitions += swept ? attacker_outcomes * states_by_dice[1][dd] + states_by_dice[0][da] * defender_outcomes
                           : attacker_outcomes * defender_outcomes;
    }
  cost.transitions = transitions;
  if (swept) {
    cost.swept = true;
    cost.seconds = (swept_fixed_seconds + transitions * seconds_per_swept_outcome) * build_slowdown;
    cost.bytes = cost.states * bytes_per_swept_state;
    return cost;
  }
  // The plain chain keeps every transition besides its states.
  cost.seconds = (fixed_seconds + transitions * seconds_per_transition) * build_slowdown;
  cost.bytes = cost.states * bytes_per_state + transitions * bytes_per_transition;
  return cost;
}

}  // namespace musket::great_lakes
