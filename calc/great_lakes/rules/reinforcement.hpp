#pragma once
// Reinforcement (GL 13.3): each waiting unit enters on a roll within its enter faces.

#include "calc/great_lakes/rules/chooser.hpp"
#include "calc/great_lakes/rules/state.hpp"

namespace musket::great_lakes::round {

// Waiting unit i of `side` enters the line.
inline void enter(const battle_rules& r, round_state& t, int side, int i) {
  side_sums& sum = t.sum[side];
  const int sp = t.s.sp[i];
  const int fires = sp > 0;
  t.s.st[i] = line;
  sum.waiting = static_cast<std::int16_t>(sum.waiting - 1);
  sum.line_units = static_cast<std::int16_t>(sum.line_units + fires);
  sum.line_dice = static_cast<std::int16_t>(sum.line_dice + fires * r.dice[i]);
  sum.line_first_dice = static_cast<std::int16_t>(sum.line_first_dice + fires * r.first_round_dice[i]);
  sum.line_sp = static_cast<std::int16_t>(sum.line_sp + sp);
  sum.alive_sp = static_cast<std::int16_t>(sum.alive_sp + sp);
}

// GL 13.3: each waiting unit of `side` enters on a roll within its enter faces.
template <class Chooser, class Next>
void reinforce_from(const battle_rules& r, int side, int i, round_state& s, Chooser& c, Next& next) {
  if (s.sum[side].waiting == 0) {
    next(s);
    return;
  }
  while (i < r.end[side] && s.s.st[i] != waiting) ++i;
  if (i >= r.end[side]) {
    next(s);
    return;
  }
  c.binomial(1, r.units[i].enter_faces, [&](int enters) {
    if (!enters) {
      reinforce_from(r, side, i + 1, s, c, next);
      return;
    }
    change<Chooser>(s, [&](round_state& t) {
      enter(r, t, side, i);
      reinforce_from(r, side, i + 1, t, c, next);
    });
  });
}

// Reinforcement for `side` as above, from its first unit; a side with none waiting goes straight on.
template <class Chooser, class Next>
void reinforce(const battle_rules& r, int side, round_state& s, Chooser& c, Next& next) {
  if (s.sum[side].waiting == 0)
    next(s);
  else
    reinforce_from(r, side, r.begin[side], s, c, next);
}

}  // namespace musket::great_lakes::round
