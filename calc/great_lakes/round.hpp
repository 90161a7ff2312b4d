#pragma once
// The public round API of War Along the Great Lakes battles (GL 11-13, RULINGS.md "War Along the
// Great Lakes battles"): the rules of one battle round, written once and shared by the exact
// engine, the simulation and anything else that plays battles (the campaign module).
//
//   round::battle_rules r = round::compile(battle);      // validates; throws invalid_input
//   round::battle_state s = round::initial_state(r);
//   round::play_round(r, s, chooser, emit);              // one round from s
//
// play_round is generic in a Chooser, which decides every random event:
//   binomial(n, faces, f)             call f(k) for k of n dice showing one of `faces` hit faces
//   binomial_capped(n, faces, cap, f) the same, where any k >= cap may be reported as cap
//   choose3(p0, p1, p2, f)            call f(0), f(1) or f(2) with those probabilities
// An exact chooser calls f for every outcome (tracking the probability); a sampling chooser
// rolls and calls f once. emit(state, end) receives each outcome of the round: end ==
// battle_end::none means the battle goes on from `state`; anything else is how it ended, with
// `state` the final one (per-unit SP in state.sp, status in state.st, in listing order: the
// attacker's side, then the defender's, each its own units, then the garrison (defender), then
// its reinforcements; r.begin/r.end give each side's range). The sides' policies (retreat, hit
// allocation, rerolls; battle.hpp) are part of the compiled rules.
#include <array>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "calc/great_lakes/battle.hpp"

namespace musket::great_lakes::round {

inline constexpr int max_units = 32;  // units in one battle, garrison and reinforcements included
inline constexpr int attacker = 0;
inline constexpr int defender = 1;

// `out` marks, in the exact engine's folded states only, a unit that has left the line for good
// (eliminated or failed morale) whose SP is carried beside the state (battle.cpp explains why).
enum status : std::uint8_t { line = 0, failed = 1, waiting = 2, out = 3 };

struct unit_rule {
  std::string name;
  int owner = attacker;
  int start_sp = 0;
  int dice = 0;
  int first_round_dice = 0;  // GL 11.22: river/amphibious attackers roll one less in round 1
  int fail_faces = 0;        // faces above the (effective) morale: 6 - morale
  int enter_faces = 0;       // reinforcements: faces that enter (rating, -1 across the Niagara)
  bool garrison = false;
  bool reinforcement = false;
  // P(no failed die) and P(exactly one) when checking morale with h dice (h = hits, <= 15 SP).
  std::array<double, 16> morale_none{}, morale_one{};
};

struct battle_rules {
  std::vector<unit_rule> units;       // listing order: attacker's, then defender's (garrison, reinforcements)
  std::array<int, 2> begin{}, end{};  // each side's unit index range
  std::array<int, 2> ship_dice{};
  std::array<int, 2> rerolls{};
  std::array<retreat_policy, 2> policy{};
  std::array<hit_allocation_policy, 2> hit_allocation{};
  std::array<reroll_policy, 2> reroll{};
  std::array<bool, 2> route{};
  std::array<int, 2> starting_sp{};  // total, garrison and reinforcements included
  int retreat_fire_faces = 1;        // 6, or 5-6 across the Niagara (GL 12.2-12.3)
  int garrison = -1;                 // index of the defender's garrison, if any
  // Hot per-unit values kept contiguous (copies of units[i].dice and .first_round_dice).
  std::array<std::uint8_t, max_units> dice{}, first_round_dice{};
  bool first_round_matters = false;  // any attacker dice lost in round 1
  std::array<bool, 2> has_reinforcements{};
  bool ships = false;  // a squadron on either side: somebody can always hit, so never a stalemate
};

battle_rules compile(const battle& b);

struct battle_state {
  std::array<std::uint8_t, max_units> sp{};
  std::array<std::uint8_t, max_units> st{};
  std::array<std::uint8_t, 2> rerolls{};
  bool first_round = false;
};

battle_state initial_state(const battle_rules& r);

using hit_counts = std::array<std::uint8_t, max_units>;

inline bool in_battle(const battle_state& s, int i) {
  return s.st[i] != waiting;
}
inline bool in_line(const battle_state& s, int i) {
  return s.st[i] == line && s.sp[i] > 0;
}

// The sums over a side below are branch-free: they run several times a round.
inline int line_sp(const battle_rules& r, const battle_state& s, int side) {
  int total = 0;
  for (int i = r.begin[side]; i < r.end[side]; ++i) total += (s.st[i] == line) * s.sp[i];
  return total;
}

inline bool line_empty(const battle_rules& r, const battle_state& s, int side) {
  for (int i = r.begin[side]; i < r.end[side]; ++i)
    if (in_line(s, i)) return false;
  return true;
}

// GL 11.22: the dice a side's line (plus its supporting ship, 7.13) rolls this round.
inline int fire_dice(const battle_rules& r, const battle_state& s, int side, bool first_round) {
  const auto& dice = first_round ? r.first_round_dice : r.dice;
  int total = r.ship_dice[side];
  for (int i = r.begin[side]; i < r.end[side]; ++i) total += ((s.st[i] == line) & (s.sp[i] > 0)) * dice[i];
  return total;
}

inline bool any_waiting(const battle_rules& r, const battle_state& s) {
  for (std::size_t i = 0; i < r.units.size(); ++i)
    if (s.st[i] == waiting) return true;
  return false;
}

// RULINGS: `line_sp_at_most k` retreats when own line SP <= k; `weaker` when own < other's.
inline bool wants_retreat(const battle_rules& r, const battle_state& s, int side) {
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
      return line_sp(r, s, side) <= p.k;
    case retreat_kind::weaker:
      return line_sp(r, s, side) < line_sp(r, s, 1 - side);
  }
  return false;
}

// RULINGS "stalemate": no side can ever score a hit, no reinforcement is pending, and neither
// side's policy retreats (so the next round, and every one after, changes nothing).
inline bool is_stalemate(const battle_rules& r, const battle_state& s) {
  if (r.ships) return false;
  return fire_dice(r, s, attacker, false) == 0 && fire_dice(r, s, defender, false) == 0 && !any_waiting(r, s) &&
         !wants_retreat(r, s, attacker) && !wants_retreat(r, s, defender);
}

// GL 11.23 with the side's hit_allocation_policy (battle.hpp). Hits are put on in sweeps: with no
// unit of `side` hit yet this round (true at every call: a side is fired on once per step), the
// RULINGS order "fewest hits, then most current SP, then fewest dice, then listing order" is the
// fixed order "most SP, fewest dice, listing" taken round and round, skipping the eliminated.
// Failed-morale units take hits only once no line unit is left. Returns the hits nobody was left
// to take.
inline int allocate_hits(const battle_rules& r, battle_state& s, hit_counts& hits, int side, int count) {
  if (count == 0) return 0;  // most fire misses: nothing to sort
  const bool concentrate = r.hit_allocation[side].kind == hit_allocation_kind::concentrate;
  auto hit = [&](int i) {
    --s.sp[i];
    ++hits[i];
    --count;
  };
  for (int pass = 0; pass < 2 && count > 0; ++pass) {
    const std::uint8_t wanted = pass == 0 ? line : failed;
    std::array<std::uint8_t, max_units> order;
    int n = 0;
    for (int i = r.begin[side]; i < r.end[side]; ++i)
      if (s.st[i] == wanted && s.sp[i] > 0) order[n++] = static_cast<std::uint8_t>(i);
    if (n == 0) continue;
    // The first sweep, one hit each (the rule): each time the best not yet hit (most SP, then
    // fewest dice, then listing order), moved to the front; a sweep that ends it leaves `order`
    // sorted for the sweeps after.
    for (int picked = 0; picked < n && count > 0; ++picked) {
      int best = picked;
      for (int k = picked + 1; k < n; ++k) {
        const int a = order[k], b = order[best];
        if (s.sp[a] > s.sp[b] || (s.sp[a] == s.sp[b] && r.dice[a] < r.dice[b])) best = k;
      }
      const std::uint8_t unit = order[best];
      for (int k = best; k > picked; --k) order[k] = order[k - 1];
      order[picked] = unit;
      hit(unit);
    }
    if (concentrate) {
      while (count > 0) {
        int weakest = -1;
        for (int i = r.begin[side]; i < r.end[side]; ++i)
          if (s.st[i] == wanted && s.sp[i] > 0 && (weakest < 0 || s.sp[i] < s.sp[weakest])) weakest = i;
        if (weakest < 0) break;
        while (count > 0 && s.sp[weakest] > 0) hit(weakest);
      }
    } else {
      bool any = true;
      while (count > 0 && any) {
        any = false;
        for (int k = 0; k < n && count > 0; ++k)
          if (s.sp[order[k]] > 0) {
            hit(order[k]);
            any = true;
          }
      }
    }
  }
  return count;
}

// SP still on the field for `side` (line and failed-morale units): more hits than this change nothing.
inline int alive_sp(const battle_rules& r, const battle_state& s, int side) {
  int total = 0;
  for (int i = r.begin[side]; i < r.end[side]; ++i) total += (s.st[i] != waiting) * s.sp[i];
  return total;
}

inline bool any_entered_alive(const battle_rules& r, const battle_state& s, int side) {
  for (int i = r.begin[side]; i < r.end[side]; ++i)
    if (in_battle(s, i) && s.sp[i] > 0) return true;
  return false;
}

inline battle_end eliminated_end(int side) {
  return side == attacker ? battle_end::attacker_eliminated : battle_end::defender_eliminated;
}

// GL 12.2-12.3 with RULINGS: the dice the other side's line units fire at a retreating `side`: full
// dice if forced, one die each if voluntary; never the ship, never the river penalty.
inline int retreat_fire_dice(const battle_rules& r, const battle_state& s, int side, bool forced) {
  int dice = 0;
  const int other = 1 - side;
  for (int i = r.begin[other]; i < r.end[other]; ++i)
    if (in_line(s, i)) dice += forced ? r.units[i].dice : (r.units[i].dice > 0 ? 1 : 0);
  return dice;
}

// GL 12.2-12.3 with RULINGS, the retreat under `dice` of retreat fire: the garrison of a retreating
// defender is eliminated first; with no route every retreating unit is eliminated and nothing is
// rolled. A side left with none of its entered units alive counts as eliminated. Only `side`'s
// units are read or changed.
template <class Chooser, class Emit>
void resolve_retreat_under_fire(const battle_rules& r, battle_state s, int side, bool forced, int dice, Chooser& c,
                                Emit& emit) {
  const battle_end end = side == attacker
                             ? (forced ? battle_end::attacker_forced_retreat : battle_end::attacker_voluntary_retreat)
                             : (forced ? battle_end::defender_forced_retreat : battle_end::defender_voluntary_retreat);
  if (side == defender && r.garrison >= 0) s.sp[r.garrison] = 0;  // GL 4.17/4.26
  if (!r.route[side]) {
    for (int i = r.begin[side]; i < r.end[side]; ++i)
      if (in_battle(s, i)) s.sp[i] = 0;
    emit(s, eliminated_end(side));
    return;
  }
  c.binomial_capped(dice, r.retreat_fire_faces, alive_sp(r, s, side), [&](int h) {
    battle_state t = s;
    hit_counts hits{};
    allocate_hits(r, t, hits, side, h);
    emit(t, any_entered_alive(r, t, side) ? end : eliminated_end(side));
  });
}

template <class Chooser, class Emit>
void resolve_retreat(const battle_rules& r, const battle_state& s, int side, bool forced, Chooser& c, Emit& emit) {
  resolve_retreat_under_fire(r, s, side, forced, retreat_fire_dice(r, s, side, forced), c, emit);
}

inline void fail_morale(const battle_rules& r, battle_state& t, int i) {
  t.st[i] = failed;
  if (r.units[i].garrison) t.sp[i] = 0;  // GL 4.26: a garrison that fails morale is eliminated
}

// GL 11.26-11.27: the units in `pending` failed morale with exactly one die; the side's
// reroll_policy picks which are rerolled while rerolls are left; the rest fail.
template <class Chooser, class Next>
void spend_rerolls(const battle_rules& r, int side, const battle_state& s, std::uint32_t pending, Chooser& c,
                   Next& next) {
  if (pending == 0) {
    next(s);
    return;
  }
  int pick = -1;
  for (int i = r.begin[side]; i < r.end[side]; ++i) {
    if (!(pending >> i & 1u)) continue;
    if (pick < 0 || (r.reroll[side].kind == reroll_kind::largest_unit && s.sp[i] > s.sp[pick])) pick = i;
  }
  pending &= ~(1u << pick);
  if (s.rerolls[side] == 0) {
    battle_state t = s;
    fail_morale(r, t, pick);
    spend_rerolls(r, side, t, pending, c, next);
    return;
  }
  c.binomial(1, r.units[pick].fail_faces, [&](int again) {
    battle_state t = s;
    --t.rerolls[side];
    if (again) fail_morale(r, t, pick);
    spend_rerolls(r, side, t, pending, c, next);
  });
}

// GL 11.24 and RULINGS: each line unit hit this round and still alive rolls a die per hit; a roll
// above its morale fails it (a failing garrison is eliminated). A unit that failed with exactly
// one die may be saved by a reroll (11.26-11.27): such units are set aside in `pending` and the
// side's reroll_policy decides once every unit of the side has rolled.
template <class Chooser, class Next>
void morale_from(const battle_rules& r, int side, int i, const battle_state& s, const hit_counts& hits, Chooser& c,
                 Next& next, std::uint32_t pending = 0) {
  while (i < r.end[side] && !(hits[i] > 0 && in_line(s, i) && r.units[i].fail_faces > 0)) ++i;
  if (i >= r.end[side]) {
    if (pending == 0)
      next(s);
    else
      spend_rerolls(r, side, s, pending, c, next);
    return;
  }
  // Only 0, exactly 1 (a reroll can save it) or 2+ failed dice matter: three outcomes, not hits + 1.
  const int h = hits[i];
  const double none = r.units[i].morale_none[h];
  const double one = r.units[i].morale_one[h];
  const bool rerollable = s.rerolls[side] > 0 && r.reroll[side].kind != reroll_kind::never;
  c.choose3(none, rerollable ? one : 0.0, rerollable ? 1.0 - none - one : 1.0 - none, [&](int outcome) {
    if (outcome == 0) {
      morale_from(r, side, i + 1, s, hits, c, next, pending);
    } else if (outcome == 1) {
      morale_from(r, side, i + 1, s, hits, c, next, pending | (1u << i));
    } else {
      battle_state t = s;
      fail_morale(r, t, i);
      morale_from(r, side, i + 1, t, hits, c, next, pending);
    }
  });
}

// GL 13.3: each waiting unit of `side` enters on a roll within its enter faces.
template <class Chooser, class Next>
void reinforce_from(const battle_rules& r, int side, int i, const battle_state& s, Chooser& c, Next& next) {
  if (!r.has_reinforcements[side]) {
    next(s);
    return;
  }
  while (i < r.end[side] && s.st[i] != waiting) ++i;
  if (i >= r.end[side]) {
    next(s);
    return;
  }
  c.binomial(1, r.units[i].enter_faces, [&](int enters) {
    if (!enters) {
      reinforce_from(r, side, i + 1, s, c, next);
      return;
    }
    battle_state t = s;
    t.st[i] = line;
    reinforce_from(r, side, i + 1, t, c, next);
  });
}

// One battle round from s (GL 11.18 in the RULINGS order) up to the start of any retreat. emit(state,
// end) is called for each outcome that is not a retreat: end == battle_end::none means the battle
// goes on from that state, else it is a stalemate. retreat(state, side, forced, spill) is called
// where `side` starts to retreat (GL 12.2), before the garrison is lost and before retreat fire;
// `spill` counts the hits of this round's fire that found no unit of `side` to take them.
template <class Chooser, class Emit, class Retreat>
void play_round_until_retreat(const battle_rules& r, const battle_state& s, Chooser& c, Emit& emit, Retreat& retreat) {
  const bool first = s.first_round;
  // 1. Defender line (and ship) fires; hits applied at once.
  c.binomial_capped(fire_dice(r, s, defender, false), 1, alive_sp(r, s, attacker), [&](int defender_hits) {
    battle_state s1 = s;
    hit_counts hits{};
    const int spill = allocate_hits(r, s1, hits, attacker, defender_hits);
    if (line_empty(r, s1, attacker)) {
      retreat(s1, attacker, true, spill);
      return;
    }
    // 2. Attacker line fires (units eliminated in step 1 are gone; round-1 crossing penalty).
    c.binomial_capped(fire_dice(r, s1, attacker, first), 1, alive_sp(r, s1, defender), [&](int attacker_hits) {
      battle_state s2 = s1;
      hit_counts hits2 = hits;
      const int spill2 = allocate_hits(r, s2, hits2, defender, attacker_hits);
      if (line_empty(r, s2, defender)) {
        retreat(s2, defender, true, spill2);
        return;
      }
      // 3. Morale: attacker first; if its line empties, the defender does not check.
      auto after_defender_morale = [&](const battle_state& s4) {
        if (line_empty(r, s4, defender)) {
          retreat(s4, defender, true, 0);
          return;
        }
        // 4. Voluntary retreat: attacker, then defender.
        if (wants_retreat(r, s4, attacker)) {
          retreat(s4, attacker, false, 0);
          return;
        }
        if (wants_retreat(r, s4, defender)) {
          retreat(s4, defender, false, 0);
          return;
        }
        // 5. Reinforcement: defender, then attacker.
        auto after_attacker_reinforcement = [&](const battle_state& s6) {
          battle_state out = s6;
          out.first_round = false;
          emit(out, is_stalemate(r, out) ? battle_end::stalemate : battle_end::none);
        };
        auto after_defender_reinforcement = [&](const battle_state& s5) {
          reinforce_from(r, attacker, r.begin[attacker], s5, c, after_attacker_reinforcement);
        };
        reinforce_from(r, defender, r.begin[defender], s4, c, after_defender_reinforcement);
      };
      auto after_attacker_morale = [&](const battle_state& s3) {
        if (line_empty(r, s3, attacker)) {
          retreat(s3, attacker, true, 0);
          return;
        }
        morale_from(r, defender, r.begin[defender], s3, hits2, c, after_defender_morale);
      };
      morale_from(r, attacker, r.begin[attacker], s2, hits2, c, after_attacker_morale);
    });
  });
}

// One whole battle round from s: as above, with every retreat resolved (retreat fire included).
template <class Chooser, class Emit>
void play_round(const battle_rules& r, const battle_state& s, Chooser& c, Emit& emit) {
  auto retreat = [&](const battle_state& t, int side, bool forced, int) {
    resolve_retreat(r, t, side, forced, c, emit);
  };
  play_round_until_retreat(r, s, c, emit, retreat);
}

}  // namespace musket::great_lakes::round
