#pragma once
// Who takes each hit of a fire (GL 11.23): the rulings' order, `concentrate`, and every way the
// owner may take them where the choice is solved.
#include <array>
#include <bit>
#include <cstdint>
#include <utility>
#include <vector>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "calc/great_lakes/rules/chooser.hpp"
#include "calc/great_lakes/rules/state.hpp"

namespace musket::great_lakes::round {

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

}  // namespace musket::great_lakes::round
