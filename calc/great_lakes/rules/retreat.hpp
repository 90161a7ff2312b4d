#pragma once
// Retreat (GL 12.2-12.3): when a side's policy retreats, the stalemate that follows when nobody
// can, the retreat fire and its hits, the garrison lost, and the voluntary retreat decided.
#include <array>

#include "calc/great_lakes/rules/chooser.hpp"
#include "calc/great_lakes/rules/hits.hpp"
#include "calc/great_lakes/rules/state.hpp"

namespace musket::great_lakes::round {

// RULINGS: `line_sp_at_most k` retreats when own line SP <= k; `weaker` when own < other's.
inline bool wants_retreat(const battle_rules& r, const std::array<side_sums, 2>& sum, int side) {
  const retreat_policy& p = r.policy[side];
  switch (p.kind) {
    case retreat_kind::never:
      return false;
    case retreat_kind::optimal:
      // The stopping game solved: a voluntary retreat ends the battle lost for the retreating side
      // (RULINGS outcomes), so retreating is worth a win probability of 0 and fighting on is worth
      // at least 0. Retreating is never strictly better; ties go to fighting on. Hence the optimal
      // policy, for either side, in every state, is to fight on.
      return false;
    case retreat_kind::line_sp_at_most:
      return sum[side].line_sp <= p.k;
    case retreat_kind::weaker:
      return sum[side].line_sp < sum[1 - side].line_sp;
  }
  return false;
}
inline bool wants_retreat(const battle_rules& r, const battle_state& s, int side) {
  return wants_retreat(r, track(r, s).sum, side);
}

// RULINGS "stalemate": no side can ever score a hit, no reinforcement is pending, and neither
// side's policy retreats (so the next round, and every one after, changes nothing).
inline bool is_stalemate(const battle_rules& r, const std::array<side_sums, 2>& sum) {
  if (r.ships) return false;
  return sum[attacker].line_dice == 0 && sum[defender].line_dice == 0 && sum[attacker].waiting == 0 &&
         sum[defender].waiting == 0 && !wants_retreat(r, sum, attacker) && !wants_retreat(r, sum, defender);
}
inline bool is_stalemate(const battle_rules& r, const battle_state& s) {
  return is_stalemate(r, track(r, s).sum);
}

// SP still on the field for `side` (line and failed-morale units): more hits than this change nothing.
inline int alive_sp(const battle_rules& r, const battle_state& s, int side) {
  return sums_of(r, s, side).alive_sp;
}

inline battle_end eliminated_end(int side) {
  return side == attacker ? battle_end::attacker_eliminated : battle_end::defender_eliminated;
}

// GL 12.2-12.3 with RULINGS: the dice the other side's line units fire at a retreating `side`: full
// dice if forced; if voluntary, one die per line unit whatever its printed dice (a unit with 0
// battle dice rolls its one retreat die too: 12.2 "each firing unit in a line position ... one die
// per unit"); never the ship, never the river penalty.
inline int retreat_fire_dice(const battle_rules& r, const battle_state& s, int side, bool forced) {
  int dice = 0;
  const int other = 1 - side;
  for (int i = r.begin[other]; i < r.end[other]; ++i)
    if (in_line(s, i)) dice += forced ? r.dice[i] : 1;
  return dice;
}
inline int retreat_fire_dice(const battle_rules&, const round_state& t, int side, bool forced) {
  return forced ? t.sum[1 - side].line_dice : t.sum[1 - side].line_units;
}

// A retreat works on a bare state or on one with its sums (the simulation's, kept up to date so
// nothing is recounted); these give each the same rules.
inline battle_state& bare(battle_state& s) {
  return s;
}
inline battle_state& bare(round_state& t) {
  return t.s;
}
inline int alive_sp(const battle_rules&, const round_state& t, int side) {
  return t.sum[side].alive_sp;
}

// GL 4.17/4.26: the garrison of a retreating defender is eliminated.
inline void lose_garrison(const battle_rules& r, battle_state& s) {
  s.sp[r.garrison] = 0;
}
inline void lose_garrison(const battle_rules& r, round_state& t) {
  const int g = r.garrison, sp = t.s.sp[g];
  side_sums& sum = t.sum[defender];
  if (t.s.st[g] == line && sp > 0) leave_line(r, sum, g, sp);
  if (t.s.st[g] != waiting) sum.alive_sp = static_cast<std::int16_t>(sum.alive_sp - sp);
  t.s.sp[g] = 0;
}

// `count` hits of retreat fire, a fire of its own (no unit hit by it yet), on the retreating
// side's line and failed-morale units as one pool (GL 12.2, RULINGS): by the side's policy, the
// line-first limit of GL 11.23 left out. `sums` (the side's) is kept up to date.
inline void allocate_retreat_fire(const battle_rules& r, battle_state& s, side_sums& sums, int side, int count) {
  if (count == 0) return;
  hit_counts hits{};
  if (r.hit_allocation[side].kind == hit_allocation_kind::concentrate) {
    allocate_concentrated(r, s, hits, side, count, true);
    sums = sums_of(r, s, side);
    return;
  }
  std::uint32_t checks = 0;  // (no morale check follows a retreat)
  allocate_rulings_by_rank<true>(r, s, sums, hits, side, count, checks);
}
inline void take_retreat_fire(const battle_rules& r, battle_state& s, int side, int count) {
  side_sums unused;
  allocate_retreat_fire(r, s, unused, side, count);
}
inline void take_retreat_fire(const battle_rules& r, round_state& t, int side, int count) {
  allocate_retreat_fire(r, t.s, t.sum[side], side, count);
}

// The end a retreat of `side` reports where the side is not eliminated (GL 12.2-12.3).
inline battle_end retreat_end(int side, bool forced) {
  if (side == attacker) return forced ? battle_end::attacker_forced_retreat : battle_end::attacker_voluntary_retreat;
  return forced ? battle_end::defender_forced_retreat : battle_end::defender_voluntary_retreat;
}

// GL 12.2-12.3 with RULINGS, the retreat of `side` from state `s` (a battle_state or a round_state)
// under `dice` of retreat fire: the garrison of a retreating defender is eliminated first; with no
// route every retreating unit is eliminated and nothing is rolled. A side left with none of its
// entered units alive counts as eliminated. Only `side`'s units are read or changed, in a copy of
// `s` unless the chooser takes one outcome (change). emit receives the final bare battle_state.
template <class Chooser, class State, class Emit>
void resolve_retreat_under_fire(const battle_rules& r, State& s, int side, bool forced, int dice, Chooser& c,
                                Emit& emit) {
  const battle_end end = retreat_end(side, forced);
  change<Chooser>(s, [&](State& t) {
    if (side == defender && r.garrison >= 0) lose_garrison(r, t);
    if (!r.route[side]) {
      battle_state& b = bare(t);
      for (int i = r.begin[side]; i < r.end[side]; ++i)
        if (in_battle(b, i)) b.sp[i] = 0;
      emit(b, eliminated_end(side));
      return;
    }
    c.binomial_capped(dice, r.retreat_fire_faces, alive_sp(r, t, side), [&](int h) {
      change<Chooser>(t, [&](State& u) {
        take_retreat_fire(r, u, side, h);
        emit(bare(u), alive_sp(r, u, side) > 0 ? end : eliminated_end(side));
      });
    });
  });
}

template <class Chooser, class State, class Emit>
void resolve_retreat(const battle_rules& r, State& s, int side, bool forced, Chooser& c, Emit& emit) {
  resolve_retreat_under_fire(r, s, side, forced, retreat_fire_dice(r, s, side, forced), c, emit);
}

// GL 12.2, step 4 of the round where a side's retreat policy is `optimal` and the chooser decides:
// the attacker, then the defender, chooses to fight on (option 0, the default) or to retreat; a
// side with a fixed policy follows it. go_on(state) continues the round when nobody retreats.
template <class Chooser, class Retreat, class GoOn>
void decide_retreats(const battle_rules& r, round_state& s, Chooser& c, Retreat& retreat, GoOn&& go_on) {
  auto side_decides = [&](int side, auto&& fight_on) {
    if (r.policy[side].kind != retreat_kind::optimal) {
      if (wants_retreat(r, s.sum, side))
        retreat(s, side, false, 0);
      else
        fight_on();
      return;
    }
    decision d;
    d.side = side;
    d.kind = decision_kind::retreat;
    d.state = &s.s;
    d.line_sp = {s.sum[attacker].line_sp, s.sum[defender].line_sp};
    c.decide(d, 2, [&](int k) {
      if (k == 1)
        retreat(s, side, false, 0);
      else
        fight_on();
    });
  };
  side_decides(attacker, [&] { side_decides(defender, [&] { go_on(s); }); });
}

}  // namespace musket::great_lakes::round
