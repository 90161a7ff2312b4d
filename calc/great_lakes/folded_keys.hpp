#pragma once
// The folded engine's keys (folded_solver.cpp explains the folded chain): a side's progress, a
// state's units as key bytes, a successor folded (its units out of the line marked `out`), and the
// byte sets each kind of key can hold, which key_numbering ranks.
#include <array>
#include <cstdint>
#include <cstring>
#include <vector>

#include "calc/great_lakes/exact_parts.hpp"
#include "calc/great_lakes/rules/round.hpp"

namespace musket::great_lakes::folded {

using detail::battle_rules;
using detail::battle_state;
using detail::state_key;

// A side's progress: smaller after every change of the side (a hit, a unit leaving the line, a
// reinforcement entering, a reroll spent), the same while it does not change. folded_states orders
// the nodes by it.
inline int side_progress(const battle_rules& r, const battle_state& s, int side) {
  int p = s.rerolls[static_cast<std::size_t>(side)];
  for (int i = r.begin[side]; i < r.end[side]; ++i) {
    if (s.st[i] == round::line) p += s.sp[i] + 1;
    if (s.st[i] == round::waiting) p += s.sp[i] + 2;
  }
  return p;
}

// The most a side's progress can be: all its units waiting at full SP, every reroll left.
inline int most_progress(const battle_rules& r, int side) {
  int p = r.rerolls[static_cast<std::size_t>(side)];
  for (int i = r.begin[side]; i < r.end[side]; ++i) p += r.units[static_cast<std::size_t>(i)].start_sp + 2;
  return p;
}

// Units 8w to 8w + 7 of a state as key bytes (SP | status << 5), one word: the status (<= 3)
// shifted stays inside its byte.
inline std::uint64_t unit_bytes(const battle_state& s, std::size_t w) {
  static_assert(round::max_units % 8 == 0 && round::out <= 3);
  std::uint64_t sp, st;
  std::memcpy(&sp, &s.sp[8 * w], 8);
  std::memcpy(&st, &s.st[8 * w], 8);
  return sp | st << 5;
}

inline void set_byte(state_key& k, std::size_t i, std::uint8_t b) {
  k.words[i / 8] |= static_cast<std::uint64_t>(b) << (8 * (i % 8));
}

// Byte i of a key set to b (whatever it held).
inline void set_tail_byte(state_key& k, std::size_t i, std::uint8_t b) {
  k.words[i / 8] &= ~(std::uint64_t{0xFF} << (8 * (i % 8)));
  set_byte(k, i, b);
}

inline std::uint8_t get_byte(const state_key& k, std::size_t i) {
  return static_cast<std::uint8_t>(k.words[i / 8] >> (8 * (i % 8)));
}

// Byte masks of a battle's units (0xFF per unit byte), for fold_successor.
struct fold_masks {
  state_key units;                // every unit
  std::array<state_key, 2> side;  // each side's
  std::size_t unit_count = 0;
  bool first_round_matters = false;
  explicit fold_masks(const battle_rules& r) : unit_count(r.units.size()), first_round_matters(r.first_round_matters) {
    for (std::size_t u = 0; u < unit_count; ++u) {
      const std::uint64_t byte = std::uint64_t{0xFF} << (8 * (u % 8));
      units.words[u / 8] |= byte;
      side[static_cast<std::size_t>(r.units[u].owner)].words[u / 8] |= byte;
    }
  }
};

// A successor t of a folded state (whose out units have 0xFF in out_before) folded: each unit that
// left the line for good (failed, out, or in the line with no SP) is `out`. Per side, `delta` gets the units that left
// it this round, as unit_bytes gives them, and any_left says whether one of them still holds SP (an eliminated unit's
// byte is 0, so a delta of eliminations only is the empty one). Worked eight units to a word, without a branch per
// unit: which unit leaves is a coin toss the branch predictor cannot learn.
inline void fold_successor(const fold_masks& m, const battle_state& t, const state_key& out_before, state_key& fold,
                           std::array<state_key, 2>& delta, std::array<bool, 2>& any_left) {
  constexpr std::uint64_t ones = 0x0101010101010101ull, low7 = 0x7F7F7F7F7F7F7F7Full, high = 0x8080808080808080ull;
  static_assert(round::max_units == 32 && round::line == 0 && round::failed == 1 && round::out == 3);
  std::array<std::uint64_t, 2> left_any{};
  fold = state_key{};  // whole keys at once: a loop over the words past the units cost more
  delta = {};
  for (std::size_t w = 0; w * 8 < m.unit_count; ++w) {
    const std::uint64_t byte = unit_bytes(t, w);
    std::uint64_t st;
    std::memcpy(&st, &t.st[8 * w], 8);
    // Left the line: failed or out (status bit 0), or nothing left (a zero byte; bytes are < 0x80).
    const std::uint64_t zero = ~(((byte & low7) + low7) | byte) & high;
    const std::uint64_t left = (((st & ones) << 7 | zero) >> 7) * 0xFF & m.units.words[w];
    fold.words[w] = (byte & ~left & m.units.words[w]) | (left & (ones * (round::out << 5)));
    const std::uint64_t fresh = byte & left & ~out_before.words[w];
    for (std::size_t side = 0; side < 2; ++side) {
      delta[side].words[w] = fresh & m.side[side].words[w];
      left_any[side] |= delta[side].words[w];
    }
  }
  for (std::size_t side = 0; side < 2; ++side) any_left[side] = left_any[side] != 0;
  // Then the rerolls, the first-round flag and the end (none), from byte unit_count on.
  const std::uint64_t tail = std::uint64_t{t.rerolls[0]} | std::uint64_t{t.rerolls[1]} << 8 |
                             std::uint64_t{t.first_round && m.first_round_matters} << 16 |
                             std::uint64_t{static_cast<std::uint8_t>(battle_end::none)} << 24;
  const std::size_t at = m.unit_count;
  fold.words[at / 8] |= tail << (8 * (at % 8));
  if (at % 8 > 4) fold.words[at / 8 + 1] |= tail >> (64 - 8 * (at % 8));
}

// The units a folded state holds out of the line (bytes `out << 5`), a bit per unit: each word's
// matching bytes found without a branch, their high bits gathered by one multiply.
inline std::uint32_t out_units_of(const state_key& k, std::size_t unit_count) {
  constexpr std::uint64_t low7 = 0x7F7F7F7F7F7F7F7Full, high = 0x8080808080808080ull,
                          out_bytes = 0x0101010101010101ull * (round::out << 5);
  std::uint32_t bits = 0;
  for (std::size_t w = 0; w * 8 < unit_count; ++w) {
    const std::uint64_t x = k.words[w] ^ out_bytes;
    const std::uint64_t zero = ~(((x & low7) + low7) | x) & high;
    bits |= static_cast<std::uint32_t>(((zero >> 7) * 0x0102040810204080ull) >> 56) << (8 * w);
  }
  return unit_count >= 32 ? bits : bits & ((1u << unit_count) - 1);
}

inline state_key combine(const state_key& a, const state_key& b) {
  state_key k;
  for (std::size_t w = 0; w < k.words.size(); ++w) k.words[w] = a.words[w] | b.words[w];
  return k;
}

// The byte sets of a folded state's key: a unit is out, in the line with 1 to its starting SP, or
// (a reinforcement) waiting with all of them; then the rerolls left, the first-round flag, the end.
inline std::vector<std::vector<std::uint8_t>> folded_state_bytes(const battle_rules& r) {
  std::vector<std::vector<std::uint8_t>> allowed;
  for (const auto& u : r.units) {
    std::vector<std::uint8_t> values{static_cast<std::uint8_t>(round::out << 5)};
    for (int sp = 1; sp <= u.start_sp; ++sp) values.push_back(static_cast<std::uint8_t>(sp));
    if (u.reinforcement) values.push_back(static_cast<std::uint8_t>(u.start_sp | round::waiting << 5));
    allowed.push_back(values);
  }
  for (int side = 0; side < 2; ++side) {
    std::vector<std::uint8_t> rerolls;
    for (int k = 0; k <= r.rerolls[side]; ++k) rerolls.push_back(static_cast<std::uint8_t>(k));
    allowed.push_back(rerolls);
  }
  allowed.push_back(r.first_round_matters ? std::vector<std::uint8_t>{0, 1} : std::vector<std::uint8_t>{0});
  allowed.push_back({static_cast<std::uint8_t>(battle_end::none)});
  return allowed;
}

// The byte sets of a mid-round node's key (folded_solver::play): a folded state's, with the
// attacker's fire dice in place of the first-round flag and a mark of its own in place of the end.
inline constexpr std::uint8_t mid_round_mark = 0xEE;
inline std::vector<std::vector<std::uint8_t>> mid_round_bytes(const battle_rules& r) {
  std::vector<std::vector<std::uint8_t>> allowed = folded_state_bytes(r);
  int most_dice = r.ship_dice[round::attacker];
  for (int i = r.begin[round::attacker]; i < r.end[round::attacker]; ++i) most_dice += r.dice[i];
  std::vector<std::uint8_t> dice;
  for (int d = 0; d <= most_dice; ++d) dice.push_back(static_cast<std::uint8_t>(d));
  allowed[allowed.size() - 2] = dice;
  allowed.back() = {mid_round_mark};
  return allowed;
}

// The byte sets of what a side's units that left the line hold (fold_successor's delta, and a
// label): nothing, or failed with 0 (a garrison: GL 4.26) to the unit's starting SP; the other
// side's bytes are 0.
inline std::vector<std::vector<std::uint8_t>> delta_bytes(const battle_rules& r, int side) {
  std::vector<std::vector<std::uint8_t>> allowed(static_cast<std::size_t>(r.end[side]), std::vector<std::uint8_t>{0});
  for (int i = r.begin[side]; i < r.end[side]; ++i)
    for (int sp = 0; sp <= r.units[static_cast<std::size_t>(i)].start_sp; ++sp)
      allowed[static_cast<std::size_t>(i)].push_back(static_cast<std::uint8_t>(sp | round::failed << 5));
  return allowed;
}

// The byte sets of one side's part of a folded state's key (its units and its rerolls left); the
// other side's bytes are 0.
inline std::vector<std::vector<std::uint8_t>> side_part_bytes(const battle_rules& r, int side) {
  std::vector<std::vector<std::uint8_t>> allowed = folded_state_bytes(r);
  const std::size_t n = r.units.size();
  allowed.resize(n + 2);  // the units and both sides' rerolls
  for (std::size_t b = 0; b < n + 2; ++b) {
    const bool own = b < n ? r.units[b].owner == side : b == n + static_cast<std::size_t>(side);
    if (!own) allowed[b] = {0};
  }
  return allowed;
}

}  // namespace musket::great_lakes::folded
