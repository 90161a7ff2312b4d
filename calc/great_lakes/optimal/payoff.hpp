#pragma once
// What the game of optimal play (optimal/game.cpp) reads of a battle's end: the payoff to the
// attacker of a finished battle, a retreat's summed over its fire's outcomes without building
// them, and the round as the game records it (each retreat one outcome).
#include <array>
#include <cmath>
#include <vector>

#include "calc/great_lakes/exact/exact_chooser.hpp"
#include "calc/great_lakes/optimal/game.hpp"
#include "calc/great_lakes/rules/round.hpp"

namespace musket::great_lakes::optimal {

using detail::battle_rules;
using detail::battle_state;
using detail::exact_chooser;
using detail::state_key;
namespace rd = round;

// Included by optimal/game.cpp alone, whose game these parts are: internal linkage, as they had
// there, keeps GCC inlining them as before (with external linkage the solve ran 2.3% more
// instructions: callgrind, `--benchmark_filter=OptimalPlay/3`).
namespace {

// The payoff to the attacker of a finished battle.
inline double payoff(const battle_rules& r, const game_options& g, const battle_state& t, battle_end end) {
  const double win = attacker_won(end) ? 1.0 : 0.0;
  if (g.goal == objective::win) return win;
  std::array<int, 2> lost{};
  for (std::size_t u = 0; u < r.units.size(); ++u)
    lost[static_cast<std::size_t>(r.units[u].owner)] += r.units[u].start_sp - t.sp[u];
  return g.win_value * win - lost[0] + lost[1];
}

// Retreat fire's outcomes by their number of hits, capped at the SP on the field (as
// binomial_capped plays them): (the sum of their probabilities, the mean hits taken) for each
// number of dice, hit faces and SP, each worked out once from the chooser's row and kept.
struct retreat_fire_moments {
  int max_dice = 0, max_sp = 0;
  std::vector<std::array<double, 2>> table;  // by (faces - 1, dice, sp); NaN: not worked out yet

  explicit retreat_fire_moments(const battle_rules& r) {
    for (int side = 0; side < 2; ++side) {
      int dice = 0;
      for (int i = r.begin[side]; i < r.end[side]; ++i) dice += std::max<int>(r.dice[i], 1);
      max_dice = std::max(max_dice, dice);
      max_sp = std::max(max_sp, r.starting_sp[side]);
    }
    table.assign(static_cast<std::size_t>(2 * (max_dice + 1) * (max_sp + 1)), {std::nan(""), 0.0});
  }

  template <class Chooser>
  std::array<double, 2> operator()(Chooser& c, int dice, int faces, int sp) {
    const bool kept = faces >= 1 && faces <= 2 && dice <= max_dice && sp <= max_sp;
    const std::size_t at =
        kept ? static_cast<std::size_t>(((faces - 1) * (max_dice + 1) + dice) * (max_sp + 1) + sp) : 0;
    if (kept && !std::isnan(table[at][0])) return table[at];
    std::array<double, 2> m{0.0, 0.0};
    const double w = c.weight;
    c.weight = 1.0;
    c.binomial_capped(dice, faces, sp, [&](int h) {
      m[0] += c.weight;
      m[1] += c.weight * h;
    });
    c.weight = w;
    if (kept) table[at] = m;
    return m;
  }
};

// GL 12.2-12.3 with RULINGS as rd::resolve_retreat plays it, for the game: the payoff to the
// attacker of `side` retreating from t, summed over the retreat fire's outcomes, each weighed by
// the chooser's weight. The battle ends there and its payoff reads only who retreated and how many
// SP each side lost, and retreat fire takes min(hits, the side's SP on the field) SP whichever
// units take them (nothing is decided in it), so no outcome's state is built.
template <class Chooser>
inline double retreat_payoff(const battle_rules& r, const game_options& g, const rd::round_state& from, int side,
                             bool forced, Chooser& c) {
  // On the win objective only who retreated counts: retreat fire ends in the side's retreat or its
  // elimination, both its defeat, so its outcomes' weights sum to the chooser's (GL 12.2-12.3).
  if (g.goal == objective::win) return side == rd::defender ? c.weight : 0.0;
  rd::round_state t = from;
  if (side == rd::defender && r.garrison >= 0) rd::lose_garrison(r, t);  // GL 4.17/4.26
  if (!r.route[side]) {
    for (int i = r.begin[side]; i < r.end[side]; ++i)
      if (rd::in_battle(t.s, i)) t.s.sp[i] = 0;
    return c.weight * payoff(r, g, t.s, rd::eliminated_end(side));
  }
  std::array<int, 2> lost{};
  for (std::size_t u = 0; u < r.units.size(); ++u)
    lost[static_cast<std::size_t>(r.units[u].owner)] += r.units[u].start_sp - t.s.sp[u];
  // Its fire takes h <= the SP on the field, and the side is beaten whether or not that is all of
  // them (its retreat or its elimination): the payoff is base -+ h, summed over h as the sum of
  // the outcomes' probabilities and their mean hits (retreat_fire_moments).
  const double win = side == rd::defender ? 1.0 : 0.0;
  const double base = g.win_value * win - lost[0] + lost[1];
  const std::array<double, 2> m =
      (*c.fire)(c, rd::retreat_fire_dice(r, t, side, forced), r.retreat_fire_faces, t.sum[side].alive_sp);
  return c.weight * (base * m[0] + (side == rd::defender ? m[1] : -m[1]));
}

// One round from s for the game's recording: rd::play_round's, except that each
// retreat is one outcome, retreated(its payoff summed as retreat_payoff sums it).
template <class Chooser, class Emit, class Retreated>
void play_game_round(const battle_rules& r, const game_options& g, const battle_state& s, Chooser& c, Emit& emit,
                     Retreated& retreated) {
  auto emit_state = [&](const rd::round_state& t, battle_end end) { emit(t.s, end); };
  auto retreat = [&](rd::round_state& t, int side, bool forced, int) {
    retreated(retreat_payoff(r, g, t, side, forced, c));
  };
  rd::round_state t = rd::track(r, s);
  rd::play_tracked_round_until_retreat(r, t, c, emit_state, retreat);
}

}  // namespace
}  // namespace musket::great_lakes::optimal
