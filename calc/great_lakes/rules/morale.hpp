#pragma once
// Morale (GL 11.24-11.27): the checks of the units hit this round, and the leaders' rerolls.
#include <bit>
#include <cstdint>

#include "calc/great_lakes/rules/chooser.hpp"
#include "calc/great_lakes/rules/state.hpp"

namespace musket::great_lakes::round {

// Unit i of `side`, in the line with SP left, fails morale.
inline void fail_morale(const battle_rules& r, round_state& t, int side, int i) {
  side_sums& sum = t.sum[side];
  const int sp = t.s.sp[i];
  leave_line(r, sum, i, sp);
  t.s.st[i] = failed;
  if (r.units[i].garrison) {  // GL 4.26: a garrison that fails morale is eliminated
    sum.alive_sp = static_cast<std::int16_t>(sum.alive_sp - sp);
    t.s.sp[i] = 0;
  }
}

// GL 11.26-11.27: the units in `pending` failed morale with exactly one die; the side's
// reroll_policy picks which are rerolled while rerolls are left; the rest fail.
template <class Chooser, class Next>
void spend_rerolls(const battle_rules& r, int side, round_state& s, std::uint32_t pending, Chooser& c, Next& next);

// The reroll (if any is left) spent on unit `pick` of `pending`, then the rest as the policy says.
template <class Chooser, class Next>
void reroll_unit(const battle_rules& r, int side, round_state& s, int pick, std::uint32_t pending, Chooser& c,
                 Next& next) {
  pending &= ~(1u << pick);
  if (s.s.rerolls[side] == 0) {
    change<Chooser>(s, [&](round_state& t) {
      fail_morale(r, t, side, pick);
      spend_rerolls(r, side, t, pending, c, next);
    });
    return;
  }
  c.binomial(1, r.units[pick].fail_faces, [&](int again) {
    change<Chooser>(s, [&](round_state& t) {
      --t.s.rerolls[side];
      if (again) fail_morale(r, t, side, pick);
      spend_rerolls(r, side, t, pending, c, next);
    });
  });
}

// GL 11.26-11.27 where the reroll policy is `optimal` and the chooser decides: the owner rerolls one
// of the pending units (in listing order; the first is the rulings' choice) or keeps the reroll
// for a later round, and then every pending unit fails.
template <class Chooser, class Next>
void decide_reroll(const battle_rules& r, int side, round_state& s, std::uint32_t pending, Chooser& c, Next& next) {
  const int n = std::popcount(pending);
  decision d;
  d.side = side;
  d.kind = decision_kind::reroll;
  d.state = &s.s;
  d.pending = pending;
  c.decide(d, n + 1, [&](int k) {
    if (k < n) {
      std::uint32_t rest = pending;
      for (int j = 0; j < k; ++j) rest &= rest - 1;
      reroll_unit(r, side, s, std::countr_zero(rest), pending, c, next);
      return;
    }
    change<Chooser>(s, [&](round_state& t) {
      for (std::uint32_t left = pending; left; left &= left - 1) fail_morale(r, t, side, std::countr_zero(left));
      next(t);
    });
  });
}

template <class Chooser, class Next>
void spend_rerolls(const battle_rules& r, int side, round_state& s, std::uint32_t pending, Chooser& c, Next& next) {
  if (pending == 0) {
    next(s);
    return;
  }
  if constexpr (deciding_chooser<Chooser>) {
    if (r.reroll[side].kind == reroll_kind::optimal && s.s.rerolls[side] > 0) {
      decide_reroll(r, side, s, pending, c, next);
      return;
    }
  }
  int pick = -1;
  for (int i = r.begin[side]; i < r.end[side]; ++i) {
    if (!(pending >> i & 1u)) continue;
    if (pick < 0 || (r.reroll[side].kind == reroll_kind::largest_unit && s.s.sp[i] > s.s.sp[pick])) pick = i;
  }
  reroll_unit(r, side, s, pick, pending, c, next);
}

// GL 11.24 and RULINGS: each line unit hit this round and still alive rolls a die per hit; a roll
// above its morale fails it (a failing garrison is eliminated). `checks` holds the units still to
// roll (sums_of), in listing order. A unit that failed with exactly one die may be saved by a
// reroll (11.26-11.27): such units are set aside in `pending` and the side's reroll_policy decides
// once every unit of the side has rolled.
template <class Chooser, class Next>
void morale_from(const battle_rules& r, int side, std::uint32_t checks, round_state& s, const hit_counts& hits,
                 Chooser& c, Next& next, std::uint32_t pending = 0) {
  if (checks == 0) {
    if (pending == 0)
      next(s);
    else
      spend_rerolls(r, side, s, pending, c, next);
    return;
  }
  const int i = std::countr_zero(checks);
  checks &= checks - 1;
  // Only 0, exactly 1 (a reroll can save it) or 2+ failed dice matter: three outcomes, not hits + 1.
  const int h = hits[i];
  const double none = r.units[i].morale_none[h];
  const double one = r.units[i].morale_one[h];
  const bool rerollable = s.s.rerolls[side] > 0 && r.reroll[side].kind != reroll_kind::never;
  c.choose3(none, rerollable ? one : 0.0, rerollable ? 1.0 - none - one : 1.0 - none, [&](int outcome) {
    if (outcome == 0) {
      morale_from(r, side, checks, s, hits, c, next, pending);
    } else if (outcome == 1) {
      morale_from(r, side, checks, s, hits, c, next, pending | (1u << i));
    } else {
      change<Chooser>(s, [&](round_state& t) {
        fail_morale(r, t, side, i);
        morale_from(r, side, checks, t, hits, c, next, pending);
      });
    }
  });
}

// Morale for `side` as above, from the first unit to check; a side with none goes straight on
// (inline: most sides in most rounds have none).
template <class Chooser, class Next>
void check_morale(const battle_rules& r, int side, std::uint32_t checks, round_state& s, const hit_counts& hits,
                  Chooser& c, Next& next) {
  if (checks == 0)
    next(s);
  else
    morale_from(r, side, checks, s, hits, c, next);
}

}  // namespace musket::great_lakes::round
