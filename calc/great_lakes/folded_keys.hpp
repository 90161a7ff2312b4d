#pragma once
// A state's key folded (its units out of the line marked `out`, their SP dropped), as the optimal
// play's game keys its states on the win objective (optimal/game.cpp). What is left of the folded
// chain's keys (issue 36 deleted that engine).
#include <array>
#include <cstdint>
#include <cstring>

#include "calc/great_lakes/exact/exact_chooser.hpp"
#include "calc/great_lakes/rules/round.hpp"

namespace musket::great_lakes::folded {

using detail::battle_rules;
using detail::battle_state;
using detail::state_key;

// Units 8w to 8w + 7 of a state as key bytes (SP | status << 5), one word: the status (<= 3)
// shifted stays inside its byte.
inline std::uint64_t unit_bytes(const battle_state& s, std::size_t w) {
  static_assert(round::max_units % 8 == 0 && round::out <= 3);
  std::uint64_t sp, st;
  std::memcpy(&sp, &s.sp[8 * w], 8);
  std::memcpy(&st, &s.st[8 * w], 8);
  return sp | st << 5;
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

}  // namespace musket::great_lakes::folded
