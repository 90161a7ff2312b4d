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
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "calc/great_lakes/battle.hpp"

namespace musket::great_lakes::round {

inline constexpr int max_units = 32;  // units in one battle, garrison and reinforcements included
inline constexpr int attacker = 0;
inline constexpr int defender = 1;

// `out` marks, in the exact engine's folded states only, a unit that has left the line for good
// (eliminated or failed morale) whose SP is carried beside the state (folded_solver.cpp explains why).
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
  // Hot per-unit values kept contiguous (copies of units[i].dice, .first_round_dice, .fail_faces;
  // can_enter: a reinforcement with an enter face, GL 13.3).
  std::array<std::uint8_t, max_units> dice{}, first_round_dice{}, fail_faces{}, can_enter{};
  // allocate_rulings_lanes', per side: its units if they fit the lanes (at most 8, the last
  // within max_units), else 0; each unit's place after SP in the rulings' order of hits,
  // (15 - dice) << 3 | (7 - position in the side); -1 for a unit that can fail morale; -1 for
  // each lane that is one of the side's units.
  std::array<int, 2> lane_units{};
  std::array<std::array<std::int16_t, 8>, 2> hit_tiebreak{}, checks_morale{}, side_lanes{};
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

// The players' choices (optimal_play.hpp solves them). A Chooser that also decides has
//   decide(const decision& d, int options, f)   call f(k) for the options k in [0, options) it
//                                                weighs; option 0 is always the rulings' default
// and the round asks it only where the side's policy for that kind of choice is `optimal`. Any
// other Chooser (the fixed engines') never sees a choice: `optimal` plays as the default there, and
// the fixed policies run the same code as before these hooks.
enum class decision_kind {
  hits,     // GL 11.23: who takes the hits beyond the rule's (options: hit_options)
  reroll,   // GL 11.26-11.27: which unit that failed with one die is rerolled (options: each in
            // listing order, then none: the reroll is kept and every such unit fails)
  retreat,  // GL 12.2: voluntary retreat (options: fight on, retreat)
};
struct decision {
  int side = 0;
  decision_kind kind = decision_kind::hits;
  int hits = 0;                                          // hits: how many are taken
  const std::vector<hit_counts>* allocations = nullptr;  // hits: option k's hits per unit
  const battle_state* state = nullptr;                   // where the choice is made (before it)
  std::uint32_t pending = 0;                             // reroll: the units that failed with one die
  std::array<int, 2> line_sp{};                          // retreat: each side's line SP there
};
template <class Chooser>
concept deciding_chooser = requires(Chooser& c, const decision& d) {
  c.decide(d, 1, [](int) {});
};
struct round_state;
// A deciding Chooser may also take over the round where the defender's morale check starts (GL
// 11.24, after the attacker's checks and rerolls):
//   defender_morale(s, hits, checks, go_on)   call go_on(s) to play the rest of the round, or not
// The rest of the round reads only s (the state then, with its sums), the defender's units' hits
// this round and `checks` (its units that check morale, which those hits and s fix), so the
// chooser may value that rest once for every way the round reaches the same (s, hits)
// (optimal_play.cpp does). Any other Chooser goes straight on.
template <class Chooser>
concept defender_morale_chooser = deciding_chooser<Chooser> &&
    requires(Chooser& c, round_state& s, const hit_counts& h) {
  c.defender_morale(s, h, std::uint32_t{}, [](round_state&) {});
};

inline bool in_battle(const battle_state& s, int i) {
  return s.st[i] != waiting;
}
inline bool in_line(const battle_state& s, int i) {
  return s.st[i] == line && s.sp[i] > 0;
}
// Left the line for good: failed morale, eliminated (in the line with no SP), or already `out`.
// What is left of such a unit changes neither the battle's course nor who wins, only the SP lost.
inline bool left_the_line(const battle_state& s, int i) {
  return s.st[i] == failed || s.st[i] == out || (s.st[i] == line && s.sp[i] == 0);
}
// Each unit of s that left the line marked `out` with no SP: the exact engine's folded state.
inline void fold_out_of_line(const battle_rules& r, battle_state& s) {
  for (std::size_t i = 0; i < r.units.size(); ++i)
    if (left_the_line(s, static_cast<int>(i))) {
      s.st[i] = out;
      s.sp[i] = 0;
    }
}

// What the rules below read of a side, summed over its units. A round reads these many times, so
// play_round sums them once (sums_of) and keeps them up to date at each change it makes (hits,
// fail_morale, enter): a cache of these definitions, no more.
struct side_sums {
  std::int16_t line_units = 0;       // in the line with SP left
  std::int16_t line_dice = 0;        // their dice (GL 11.22), the ship's not included
  std::int16_t line_first_dice = 0;  // the same in round 1 (GL 11.22: crossing attackers roll one less)
  std::int16_t line_sp = 0;          // SP of the line units
  std::int16_t alive_sp = 0;         // SP still on the field: line and failed-morale units
  std::int16_t waiting = 0;          // reinforcements not yet entered that can (GL 13.3: rating > 0)
};

// The sums of `side`; given this round's `hits`, also sets `checks` to the units that check morale
// (GL 11.24): hit this round, still in the line with SP left, able to fail (morale below 6), one bit
// per unit index.
inline side_sums sums_of(const battle_rules& r, const battle_state& s, int side, const hit_counts* hits = nullptr,
                         std::uint32_t* checks = nullptr) {
  int units = 0, dice = 0, first_dice = 0, sp_in_line = 0, sp_alive = 0, waits = 0;
  std::uint32_t check = 0;
  for (int i = r.begin[side]; i < r.end[side]; ++i) {
    const int st = s.st[i], sp = s.sp[i];
    const int fires = (st == line) & (sp > 0);
    units += fires;
    dice += fires * r.dice[i];
    first_dice += fires * r.first_round_dice[i];
    sp_in_line += (st == line) * sp;
    sp_alive += (st != waiting) * sp;
    waits += (st == waiting) & (r.can_enter[i] != 0);
    if (hits) check |= static_cast<std::uint32_t>(((*hits)[i] > 0) & fires & (r.fail_faces[i] > 0)) << i;
  }
  if (checks) *checks = check;
  side_sums t;
  t.line_units = static_cast<std::int16_t>(units);
  t.line_dice = static_cast<std::int16_t>(dice);
  t.line_first_dice = static_cast<std::int16_t>(first_dice);
  t.line_sp = static_cast<std::int16_t>(sp_in_line);
  t.alive_sp = static_cast<std::int16_t>(sp_alive);
  t.waiting = static_cast<std::int16_t>(waits);
  return t;
}

// A state with both sides' sums beside it (the form a round works on).
struct round_state {
  battle_state s;
  std::array<side_sums, 2> sum;
};

inline round_state track(const battle_rules& r, const battle_state& s) {
  return {s, {sums_of(r, s, attacker), sums_of(r, s, defender)}};
}

// Unit i of a side, in the line with `sp` SP (more than 0), leaves the line: the side's line sums
// drop (its alive SP does not).
inline void leave_line(const battle_rules& r, side_sums& sum, int i, int sp) {
  sum.line_units = static_cast<std::int16_t>(sum.line_units - 1);
  sum.line_dice = static_cast<std::int16_t>(sum.line_dice - r.dice[i]);
  sum.line_first_dice = static_cast<std::int16_t>(sum.line_first_dice - r.first_round_dice[i]);
  sum.line_sp = static_cast<std::int16_t>(sum.line_sp - sp);
}

// GL 11.22: the dice a side's line (plus its supporting ship, 7.13) rolls this round.
inline int fire_dice(const battle_rules& r, const side_sums& t, int side, bool first_round) {
  return r.ship_dice[side] + (first_round ? t.line_first_dice : t.line_dice);
}
inline int fire_dice(const battle_rules& r, const battle_state& s, int side, bool first_round) {
  return fire_dice(r, sums_of(r, s, side), side, first_round);
}

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

// GL 11.23, hit_allocation_kind::concentrate (battle.hpp): the first sweep as in the rulings (one
// hit each, the best first: most SP, then fewest dice, then listing order), then each time the
// weakest unit until it is eliminated; failed-morale units only once no line unit is left. With
// `pool` (retreat fire, GL 12.2 and RULINGS) line and failed-morale units are one pool, hit alike.
inline int allocate_concentrated(const battle_rules& r, battle_state& s, hit_counts& hits, int side, int count,
                                 bool pool = false) {
  auto hit = [&](int i) {
    --s.sp[i];
    ++hits[i];
    --count;
  };
  // Pass 0 takes the line (or, pooled, line and failed-morale units), pass 1 the failed ones.
  auto wanted = [&](int pass, int i) { return pool ? (s.st[i] == line || s.st[i] == failed) : s.st[i] == pass; };
  static_assert(line == 0 && failed == 1);
  for (int pass = 0; pass < (pool ? 1 : 2) && count > 0; ++pass) {
    std::array<std::uint8_t, max_units> order;
    int n = 0;
    for (int i = r.begin[side]; i < r.end[side]; ++i)
      if (wanted(pass, i) && s.sp[i] > 0) order[n++] = static_cast<std::uint8_t>(i);
    if (n == 0) continue;
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
    while (count > 0) {
      int weakest = -1;
      for (int i = r.begin[side]; i < r.end[side]; ++i)
        if (wanted(pass, i) && s.sp[i] > 0 && (weakest < 0 || s.sp[i] < s.sp[weakest])) weakest = i;
      if (weakest < 0) break;
      while (count > 0 && s.sp[weakest] > 0) hit(weakest);
    }
  }
  return count;
}

// One hit on unit i of a side (in the line or failed, SP left) by the rulings below: the side's
// sums and morale checks follow.
inline void take_rulings_hit(const battle_rules& r, battle_state& s, side_sums& u, hit_counts& hits, int i,
                             std::uint32_t& check, int& gone) {
  const int in_line = s.st[i] == line;
  const int sp = s.sp[i] - 1;
  s.sp[i] = static_cast<std::uint8_t>(sp);
  ++hits[i];
  gone = sp == 0;
  const int fell = in_line & gone;  // a line unit eliminated
  u.alive_sp = static_cast<std::int16_t>(u.alive_sp - 1);
  u.line_sp = static_cast<std::int16_t>(u.line_sp - in_line);
  u.line_units = static_cast<std::int16_t>(u.line_units - fell);
  u.line_dice = static_cast<std::int16_t>(u.line_dice - fell * r.dice[i]);
  u.line_first_dice = static_cast<std::int16_t>(u.line_first_dice - fell * r.first_round_dice[i]);
  check = (check & ~(1u << i)) | static_cast<std::uint32_t>(in_line & !gone & (r.fail_faces[i] > 0)) << i;
}

// Eight 16-bit lanes (GCC and Clang vector extensions; SSE2 on x86-64).
using lanes = std::int16_t __attribute__((vector_size(16)));
using byte_lanes = std::uint8_t __attribute__((vector_size(8)));

inline lanes load_lanes(const std::uint8_t* bytes) {
  byte_lanes b;
  std::memcpy(&b, bytes, sizeof b);
  return __builtin_convertvector(b, lanes);
}
inline void store_lanes(std::uint8_t* bytes, lanes v) {
  const byte_lanes b = __builtin_convertvector(v, byte_lanes);
  std::memcpy(bytes, &b, sizeof b);
}
// Every lane set to the sum of the lanes.
inline lanes lanes_sum(lanes v) {
  v += __builtin_shufflevector(v, v, 4, 5, 6, 7, 0, 1, 2, 3);
  v += __builtin_shufflevector(v, v, 2, 3, 0, 1, 6, 7, 4, 5);
  return v + __builtin_shufflevector(v, v, 1, 0, 3, 2, 5, 4, 7, 6);
}
// One bit per lane of a mask (lanes all 0 or all 1 bits), lane k at bit k: SSE2's byte mask where
// there is one (two instructions), else the lanes' weighted sum.
inline unsigned lane_bits(lanes mask) {
#if defined(__SSE2__)
  __m128i m;
  std::memcpy(&m, &mask, sizeof m);
  return static_cast<unsigned>(_mm_movemask_epi8(_mm_packs_epi16(m, m))) & 0xFFu;
#else
  const lanes bit = {1, 2, 4, 8, 16, 32, 64, 128};
  return static_cast<unsigned>(lanes_sum(mask & bit)[0]);
#endif
}
// The lanes set in lane_bits' eight bits (no call to libgcc: baseline x86-64 has no popcnt).
inline int lanes_set(unsigned bits) {
  bits -= bits >> 1 & 0x55u;
  bits = (bits & 0x33u) + (bits >> 2 & 0x33u);
  return static_cast<int>((bits + (bits >> 4)) & 0x0Fu);
}

// For each lane, how many lanes hold a larger value.
template <int... j>
inline lanes lanes_above(lanes v, std::integer_sequence<int, j...>) {
  return (((__builtin_shufflevector(v, v, j, j, j, j, j, j, j, j) > v) & 1) + ...);
}

// For each lane, how many of the first N lanes hold a larger value.
template <int N>
inline lanes lanes_above(lanes v) {
  return lanes_above(v, std::make_integer_sequence<int, N>());
}

// The rulings below for the units of `side` (at most 8 units, its first at begin + 8 <= max_units)
// in the line (Line) or, once the line is gone, those that failed morale (!Line), one lane each,
// `u` being its sums (up to date), with no loop over the hits: while the hits last, whole sweeps
// (one hit to each unit standing), then one hit to each of the `rest` best ranked left. A unit's
// rank in a sweep is its SP before the fire (all standing have taken as many hits), then fewest
// dice, then listing order (r.hit_tiebreak). Lanes past the first N are not ranked: N >= the side's
// units. Returns the hits left once none of those units stands.
template <int N, bool Line>
inline int allocate_rulings_lanes(const battle_rules& r, battle_state& s, side_sums& u, hit_counts& hits, int side,
                                  int count, std::uint32_t& check) {
  const int begin = r.begin[side];
  const lanes sp = load_lanes(&s.sp[begin]), st = load_lanes(&s.st[begin]);
  lanes in_side;
  std::memcpy(&in_side, &r.side_lanes[static_cast<std::size_t>(side)], sizeof in_side);
  const lanes stands = (st == static_cast<std::int16_t>(Line ? line : failed)) & (sp > 0) & in_side;
  int pool_sp, pool_units;  // the SP and the number of the units standing
  if constexpr (Line) {
    pool_sp = u.line_sp;
    pool_units = u.line_units;
  } else {
    pool_sp = lanes_sum(stands & sp)[0];
    pool_units = lanes_set(lane_bits(stands));
  }
  const int taken = std::min(count, pool_sp);
  lanes left = sp, up = stands;  // SP left; the units still standing
  int rest = taken, standing = pool_units;
  while (standing > 0 && rest >= standing) {  // a whole sweep
    rest -= standing;
    left -= up & 1;
    up &= left > 0;
    standing = lanes_set(lane_bits(up));
  }
  if (rest > 0) {
    lanes tiebreak;
    std::memcpy(&tiebreak, &r.hit_tiebreak[static_cast<std::size_t>(side)], sizeof tiebreak);
    const lanes rank = up & (sp << 7 | tiebreak);  // 0 for a unit not standing
    left -= up & (lanes_above<N>(rank) < static_cast<std::int16_t>(rest)) & 1;
  }
  const lanes took = sp - left;
  store_lanes(&s.sp[begin], left);
  store_lanes(&hits[begin], load_lanes(&hits[begin]) + took);
  u.alive_sp = static_cast<std::int16_t>(u.alive_sp - taken);
  if constexpr (Line) {
    // The units hit and standing that check morale (low byte), those eliminated (high byte).
    lanes checks_morale;
    std::memcpy(&checks_morale, &r.checks_morale[static_cast<std::size_t>(side)], sizeof checks_morale);
    const lanes fell = stands & (left == 0);
    const lanes checks = (took > 0) & (left > 0) & checks_morale;
    const unsigned marks = lane_bits(checks) | lane_bits(fell) << 8;
    check |= static_cast<std::uint32_t>(marks & 0xFF) << begin;
    int units_gone = 0, dice_gone = 0, first_dice_gone = 0;
    for (unsigned gone = marks >> 8; gone; gone &= gone - 1) {
      const int i = begin + std::countr_zero(gone);
      ++units_gone;
      dice_gone += r.dice[i];
      first_dice_gone += r.first_round_dice[i];
    }
    u.line_sp = static_cast<std::int16_t>(pool_sp - taken);
    u.line_units = static_cast<std::int16_t>(pool_units - units_gone);
    u.line_dice = static_cast<std::int16_t>(u.line_dice - dice_gone);
    u.line_first_dice = static_cast<std::int16_t>(u.line_first_dice - first_dice_gone);
  }
  return count - taken;
}

template <int N>
inline int allocate_rulings_lanes(const battle_rules& r, battle_state& s, side_sums& u, hit_counts& hits, int side,
                                  int count, std::uint32_t& check) {
  if (u.line_units > 0) count = allocate_rulings_lanes<N, true>(r, s, u, hits, side, count, check);
  return count > 0 ? allocate_rulings_lanes<N, false>(r, s, u, hits, side, count, check) : 0;
}

// GL 11.23, hit_allocation_kind::rulings (RULINGS): each hit in turn goes to the unit with the
// fewest hits from this fire, then the most current SP, then the fewest dice, then listing order
// (so one hit to each before any second, the rule); failed-morale units take hits only once no
// line unit is left. That order is one number per unit, `rank`, the highest taking the hit. `u`
// (the side's sums) is kept up to date and `check` gets the units that check morale for these hits
// (sums_of). Returns the hits nobody was left to take. Out of line: the lanes below usually do it.
// RetreatPool: retreat fire (GL 12.2, RULINGS "Retreat fire"): line and failed-morale units form
// one pool, the line first no more, in the ruling's order: one hit to each unit before any second,
// most SP first, then listing order (dice are not in it: the battle is over).
template <bool RetreatPool = false>
[[gnu::noinline]] int allocate_rulings_by_rank(const battle_rules& r, battle_state& s, side_sums& u, hit_counts& hits,
                                               int side, int count, std::uint32_t& check) {
  static_assert(max_units <= 32);
  const int begin = r.begin[side], n = r.end[side] - begin;
  side_sums sums = u;  // in registers: the byte stores below could alias it
  // rank: line (bit 20) over failed, then 15 - hits from this fire (hits + SP <= 15), then SP,
  // then 15 - dice (dice <= 12), then 31 - position in the side; 0: takes no hit.
  std::array<std::uint32_t, max_units> rank;
  for (int k = 0; k < n; ++k) {
    const int i = begin + k, st = s.st[i], sp = s.sp[i];
    const int takes = (st == line || st == failed) & (sp > 0);
    const int line_first = RetreatPool ? 0 : (st == line);
    const int few_dice = RetreatPool ? 0 : 15 - r.dice[i];
    rank[k] = static_cast<std::uint32_t>(takes * (line_first << 20 | 15 << 15 | sp << 10 | few_dice << 5 | (31 - k)));
  }
  for (; count > 0; --count) {
    // A scalar scan, kept so: a vectorised one would load `rank` just after the store below and
    // stall on it, costing more than the few units it scans.
    std::uint32_t best = 0;
    int k = 0;
    for (int j = 0; j < n; ++j)
      if (rank[j] > best) {
        best = rank[j];
        k = j;
      }
    if (best == 0) break;
    int gone = 0;
    take_rulings_hit(r, s, sums, hits, begin + k, check, gone);
    // One more hit from this fire and one SP less: both fields drop by one.
    rank[k] = gone ? 0u : best - (1u << 15) - (1u << 10);
  }
  u = sums;
  return count;
}

// The rulings as above, `sums` the side's; `checks` gets the units that check morale. A side of at
// most 8 units is hit in lanes (its line, then its failed-morale units); a larger side is ranked
// as above.
inline int allocate_rulings(const battle_rules& r, battle_state& s, side_sums& sums, hit_counts& hits, int side,
                            int count, std::uint32_t& checks) {
  checks = 0;
  if (r.lane_units[side] == 0) return allocate_rulings_by_rank(r, s, sums, hits, side, count, checks);
  return r.lane_units[side] <= 4 ? allocate_rulings_lanes<4>(r, s, sums, hits, side, count, checks)
                                 : allocate_rulings_lanes<8>(r, s, sums, hits, side, count, checks);
}

// GL 11.23: `count` hits on `side` by its hit_allocation_policy (battle.hpp), with no unit of `side`
// hit yet this round (true at every call: a side is fired on once per step). Returns the hits
// nobody was left to take.
inline int allocate_hits(const battle_rules& r, battle_state& s, hit_counts& hits, int side, int count) {
  if (count == 0) return 0;  // most fire misses
  if (r.hit_allocation[side].kind == hit_allocation_kind::concentrate)
    return allocate_concentrated(r, s, hits, side, count);
  // Outside a round (retreat fire; the exact engine's spills) there are no sums to keep, and the
  // line is often gone: rank by rank, with no lanes to set up.
  side_sums unused;
  std::uint32_t no_checks = 0;
  return allocate_rulings_by_rank(r, s, unused, hits, side, count, no_checks);
}

// The same in a round: the side's sums brought up to date, and `checks` set to its units that
// check morale for these hits (sums_of).
inline int allocate_hits(const battle_rules& r, round_state& t, hit_counts& hits, int side, int count,
                         std::uint32_t& checks) {
  if (count == 0) return 0;
  if (r.hit_allocation[side].kind != hit_allocation_kind::concentrate)  // (optimal: the rulings, unless decided)
    return allocate_rulings(r, t.s, t.sum[side], hits, side, count, checks);
  const int spill = allocate_concentrated(r, t.s, hits, side, count);
  t.sum[side] = sums_of(r, t.s, side, &hits, &checks);
  return spill;
}

// A Chooser that calls each choice's f exactly once (a simulation's) may say so with
// `static constexpr bool one_outcome = true`: the round then changes its state in place, since
// nothing reads a state again once an outcome has been taken from it. Any other chooser (the
// exact one visits every outcome of a choice from the same state) gets a copy to change.
template <class Chooser>
concept one_outcome_chooser = requires {
  requires Chooser::one_outcome;
};

// Calls f with the state an outcome may change: `s` itself or a copy, as above.
template <class Chooser, class State, class F>
void change(State& s, F&& f) {
  if constexpr (one_outcome_chooser<Chooser>) {
    f(s);
  } else {
    State t = s;
    f(t);
  }
}

// GL 11.23: every way `side`'s owner may take `count` hits from one fire when they are fewer than its
// line SP (so every hit falls on the line): one hit to each line unit before any second (fewer hits
// than units: any of them one each), the rest anywhere in the line; the rulings' allocation first.
// Units' hits per unit index. (With the line's SP or more, the line is eliminated whatever the
// order and the rest falls on failed-morale units, whose order changes neither the win nor the SP
// lost: there is nothing to choose.)
inline std::vector<hit_counts> hit_options(const battle_rules& r, const battle_state& s, int side, int count) {
  std::vector<hit_counts> options(1);
  {
    battle_state t = s;
    side_sums unused = sums_of(r, s, side);
    std::uint32_t no_checks = 0;
    allocate_rulings_by_rank(r, t, unused, options[0], side, count, no_checks);
  }
  std::array<int, max_units> units{};
  int n = 0;
  for (int i = r.begin[side]; i < r.end[side]; ++i)
    if (in_line(s, i)) units[static_cast<std::size_t>(n++)] = i;
  hit_counts h{};
  auto add = [&] {
    if (h != options[0]) options.push_back(h);
  };
  if (count <= n) {
    // One hit each to `count` of the n units: every subset, by recursion on the next unit.
    auto pick = [&](auto&& self, int from, int left) -> void {
      if (left == 0) return add();
      for (int k = from; k + left <= n; ++k) {
        h[static_cast<std::size_t>(units[static_cast<std::size_t>(k)])] = 1;
        self(self, k + 1, left - 1);
        h[static_cast<std::size_t>(units[static_cast<std::size_t>(k)])] = 0;
      }
    };
    pick(pick, 0, count);
    return options;
  }
  // One each, then the extra hits spread over the units with SP left, each at most its SP.
  for (int k = 0; k < n; ++k) h[static_cast<std::size_t>(units[static_cast<std::size_t>(k)])] = 1;
  auto spread = [&](auto&& self, int k, int left) -> void {
    if (k == n) {
      if (left == 0) add();
      return;
    }
    const int i = units[static_cast<std::size_t>(k)];
    const int room = s.sp[i] - 1;
    for (int extra = std::min(room, left); extra >= 0; --extra) {
      h[static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(1 + extra);
      self(self, k + 1, left - extra);
    }
    h[static_cast<std::size_t>(i)] = 1;
  };
  spread(spread, 0, count - n);
  return options;
}

// hit_options(r, s, side, count), or the same list as the deciding chooser keeps it where it keeps
// one (c.hit_options(r, s, side, count), valid while the round that asked goes on): a round
// asks a side's options for the same count from the same state many times (the defender's for
// every hit count and allocation of the attacker's). `own` holds them otherwise.
template <class Chooser>
const std::vector<hit_counts>& listed_hit_options(const battle_rules& r, const battle_state& s, int side, int count,
                                                  Chooser& c, std::vector<hit_counts>& own) {
  if constexpr (requires { c.hit_options(r, s, side, count); }) {
    return c.hit_options(r, s, side, count);
  } else {
    own = hit_options(r, s, side, count);
    return own;
  }
}

// `count` hits on `side` in a round by its policy, then next(t, hits, checks, spill) with the state,
// the round's hits, the units to check morale (sums_of) and the hits nobody took. Where the policy
// is `optimal` and the chooser decides, the owner picks one of hit_options (each from a copy).
template <class Chooser, class Next>
inline void allocate_hits_then(const battle_rules& r, round_state& t, hit_counts& hits, int side, int count, Chooser& c,
                               Next&& next) {
  if constexpr (deciding_chooser<Chooser>) {
    if (r.hit_allocation[side].kind == hit_allocation_kind::optimal && count > 0 && count < t.sum[side].line_sp) {
      std::vector<hit_counts> own;
      const std::vector<hit_counts>& options = listed_hit_options(r, t.s, side, count, c, own);
      decision d;
      d.side = side;
      d.kind = decision_kind::hits;
      d.hits = count;
      d.allocations = &options;
      d.state = &t.s;
      c.decide(d, static_cast<int>(options.size()), [&](int k) {
        round_state u = t;
        hit_counts taken = hits;
        const hit_counts& option = options[static_cast<std::size_t>(k)];
        for (int i = r.begin[side]; i < r.end[side]; ++i) {
          u.s.sp[i] = static_cast<std::uint8_t>(u.s.sp[i] - option[i]);
          taken[i] = static_cast<std::uint8_t>(taken[i] + option[i]);
        }
        std::uint32_t checks = 0;
        u.sum[side] = sums_of(r, u.s, side, &taken, &checks);
        next(u, taken, checks, 0);
      });
      return;
    }
  }
  std::uint32_t checks = 0;
  const int spill = allocate_hits(r, t, hits, side, count, checks);
  next(t, hits, checks, spill);
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

// Which outcomes of the attacker's fire a caller follows: all of them, or only those that leave the
// defender a line, or only those that take it all (the split exact engine plays the two apart:
// folded_solver.cpp).
enum class defender_line { any, stands, falls };

// Steps 2-5 of the round (GL 11.18 in the RULINGS order) from `s`, where the attacker has taken the
// defender's fire (`hits`: this round's hits so far) and rolls `dice`: the attacker fires and the
// defender allocates; morale, where attacker_morale(state, hits, next) checks the attacker's units
// (or goes straight on where that is done already) and the defender's follow; voluntary retreat;
// reinforcement. emit and retreat as for play_tracked_round_until_retreat below.
template <class Chooser, class AttackerMorale, class Emit, class Retreat>
void play_attacker_fire(const battle_rules& r, round_state& s, int dice, hit_counts& hits, defender_line follow,
                        Chooser& c, AttackerMorale& attacker_morale, Emit& emit, Retreat& retreat) {
  // 2. Attacker line fires (units eliminated in step 1 are gone; round-1 crossing penalty).
  c.binomial_capped(dice, 1, s.sum[defender].alive_sp, [&](int attacker_hits) {
    if (follow != defender_line::any && (attacker_hits >= s.sum[defender].line_sp) != (follow == defender_line::falls))
      return;
    change<Chooser>(s, [&](round_state& s1b) {
      change<Chooser>(hits, [&](hit_counts& hits1) {
        auto after_defender_hits = [&](round_state& s2, hit_counts& hits2, std::uint32_t defender_checks, int spill2) {
          if (s2.sum[defender].line_units == 0) {
            retreat(s2, defender, true, spill2);
            return;
          }
          // 3. Morale: attacker first; if its line empties, the defender does not check.
          auto after_defender_morale = [&](round_state& s4) {
            if (s4.sum[defender].line_units == 0) {
              retreat(s4, defender, true, 0);
              return;
            }
            // 5. Reinforcement: defender, then attacker.
            auto after_attacker_reinforcement = [&](round_state& s6) {
              const battle_end end = is_stalemate(r, s6.sum) ? battle_end::stalemate : battle_end::none;
              if (!s6.s.first_round) {
                emit(s6, end);  // no copy just to clear a clear flag
                return;
              }
              change<Chooser>(s6, [&](round_state& out) {
                out.s.first_round = false;
                emit(out, end);
              });
            };
            auto after_defender_reinforcement = [&](round_state& s5) {
              reinforce(r, attacker, s5, c, after_attacker_reinforcement);
            };
            // 4. Voluntary retreat: attacker, then defender.
            if constexpr (deciding_chooser<Chooser>) {
              if (r.policy[attacker].kind == retreat_kind::optimal ||
                  r.policy[defender].kind == retreat_kind::optimal) {
                decide_retreats(r, s4, c, retreat,
                                [&](round_state& t) { reinforce(r, defender, t, c, after_defender_reinforcement); });
                return;
              }
            }
            if (wants_retreat(r, s4.sum, attacker)) {
              retreat(s4, attacker, false, 0);
              return;
            }
            if (wants_retreat(r, s4.sum, defender)) {
              retreat(s4, defender, false, 0);
              return;
            }
            reinforce(r, defender, s4, c, after_defender_reinforcement);
          };
          auto after_attacker_morale = [&](round_state& s3) {
            if (s3.sum[attacker].line_units == 0) {
              retreat(s3, attacker, true, 0);
              return;
            }
            if constexpr (defender_morale_chooser<Chooser>) {
              c.defender_morale(s3, hits2, defender_checks, [&](round_state& t) {
                check_morale(r, defender, defender_checks, t, hits2, c, after_defender_morale);
              });
              return;
            }
            check_morale(r, defender, defender_checks, s3, hits2, c, after_defender_morale);
          };
          attacker_morale(s2, hits2, after_attacker_morale);
        };
        allocate_hits_then(r, s1b, hits1, defender, attacker_hits, c, after_defender_hits);
      });
    });
  });
}

// One battle round from s (GL 11.18 in the RULINGS order) up to the start of any retreat. emit(state,
// end) is called for each outcome that is not a retreat: end == battle_end::none means the battle
// goes on from that state, else it is a stalemate; here both are round_states (with their sums).
// retreat(state, side, forced, spill) is called where `side` starts to retreat (GL 12.2), before the
// garrison is lost and before retreat fire, with the round_state (which it may change only if the
// chooser takes one outcome: change); `spill` counts the hits of this round's fire that found no
// unit of `side` to take them.
template <class Chooser, class Emit, class Retreat>
void play_tracked_round_until_retreat(const battle_rules& r, round_state& s, Chooser& c, Emit& emit, Retreat& retreat) {
  const bool first = s.s.first_round;
  // 1. Defender line (and ship) fires; hits applied at once.
  c.binomial_capped(
      fire_dice(r, s.sum[defender], defender, false), 1, s.sum[attacker].alive_sp, [&](int defender_hits) {
        change<Chooser>(s, [&](round_state& s0) {
          hit_counts hits0{};
          // s1: after the hits; hits: this round's so far; attacker_checks: its units to check morale (step 3).
          auto after_attacker_hits = [&](round_state& s1, hit_counts& hits, std::uint32_t attacker_checks, int spill) {
            if (s1.sum[attacker].line_units == 0) {
              retreat(s1, attacker, true, spill);
              return;
            }
            auto attacker_morale = [&](round_state& s2, const hit_counts& hits2, auto& next) {
              check_morale(r, attacker, attacker_checks, s2, hits2, c, next);
            };
            play_attacker_fire(r, s1, fire_dice(r, s1.sum[attacker], attacker, first), hits, defender_line::any, c,
                               attacker_morale, emit, retreat);
          };
          allocate_hits_then(r, s0, hits0, attacker, defender_hits, c, after_attacker_hits);
        });
      });
}

// The split exact engine's first half of a round (folded_solver.cpp): step 1 and the attacker's morale,
// the defender's side untouched, for a chooser that visits every outcome. A defender's fire that
// hits nothing goes to unhit(state, dice), the attacker rolling `dice` next; one that hits goes,
// after the attacker's morale checks, to attacker_checked(state, dice), `dice` counted before
// those checks (the attacker fires before morale, GL 11.18). The attacker's fire that takes the
// defender's whole line ends the round before any morale check (step 2), so that is played from
// the attacker's state before its checks, to retreat: falls(state, hits, dice) is called there,
// and plays it with play_line_falls (the only part of this half that reads the defender). The
// defender's morale is independent of the attacker's, and the attacker's fire does not depend on
// its morale, so the second half (play_attacker_fire with defender_line::stands, no attacker
// morale) gives the same round.
template <class Chooser, class Retreat>
void play_line_falls(const battle_rules& r, round_state& s, hit_counts& hits, int dice, Chooser& c, Retreat& retreat) {
  auto unreached = [](round_state&, const hit_counts&, auto&) {};  // (the defender's line is gone)
  auto none = [](const round_state&, battle_end) {};
  play_attacker_fire(r, s, dice, hits, defender_line::falls, c, unreached, none, retreat);
}
template <class Chooser, class Unhit, class AttackerChecked, class Retreat, class Falls>
void play_defender_fire(const battle_rules& r, round_state& s, Chooser& c, Unhit& unhit,
                        AttackerChecked& attacker_checked, Retreat& retreat, Falls& falls) {
  static_assert(!one_outcome_chooser<Chooser>, "every outcome is played from the same state");
  const bool first = s.s.first_round;
  c.binomial_capped(
      fire_dice(r, s.sum[defender], defender, false), 1, s.sum[attacker].alive_sp, [&](int defender_hits) {
        if (defender_hits == 0) {
          unhit(s, fire_dice(r, s.sum[attacker], attacker, first));
          return;
        }
        round_state s0 = s;
        hit_counts hits0{};
        auto after_attacker_hits = [&](round_state& s1, hit_counts& hits, std::uint32_t attacker_checks, int spill) {
          if (s1.sum[attacker].line_units == 0) {
            retreat(s1, attacker, true, spill);
            return;
          }
          const int dice = fire_dice(r, s1.sum[attacker], attacker, first);
          falls(s1, hits, dice);
          auto checked = [&](round_state& s3) { attacker_checked(s3, dice); };
          check_morale(r, attacker, attacker_checks, s1, hits, c, checked);
        };
        allocate_hits_then(r, s0, hits0, attacker, defender_hits, c, after_attacker_hits);
      });
}

// The same from a bare state: emit and retreat receive bare battle_states.
template <class Chooser, class Emit, class Retreat>
void play_round_until_retreat(const battle_rules& r, const battle_state& s, Chooser& c, Emit& emit, Retreat& retreat) {
  auto emit_state = [&](const round_state& t, battle_end end) { emit(t.s, end); };
  auto retreat_state = [&](round_state& t, int side, bool forced, int spill) { retreat(t.s, side, forced, spill); };
  round_state t = track(r, s);
  play_tracked_round_until_retreat(r, t, c, emit_state, retreat_state);
}

// One whole battle round from s: as above, with every retreat resolved (retreat fire included).
// emit(state, end) receives a round_state, or the bare battle_state where a retreat ended the
// battle (a finished battle needs no sums).
template <class Chooser, class Emit>
void play_tracked_round(const battle_rules& r, round_state& s, Chooser& c, Emit& emit) {
  auto retreat = [&](round_state& t, int side, bool forced, int) { resolve_retreat(r, t, side, forced, c, emit); };
  play_tracked_round_until_retreat(r, s, c, emit, retreat);
}

// One whole battle round from a bare state, emit receiving bare battle_states.
template <class Chooser, class Emit>
void play_round(const battle_rules& r, const battle_state& s, Chooser& c, Emit& emit) {
  auto retreat = [&](battle_state& t, int side, bool forced, int) { resolve_retreat(r, t, side, forced, c, emit); };
  play_round_until_retreat(r, s, c, emit, retreat);
}

}  // namespace musket::great_lakes::round
