#pragma once
// The exact engines' chooser, which visits every outcome of a round's random events with its
// probability (rules/chooser.hpp's contract), and a state as a fixed key for the engines that key
// whole states (the plain chain, the solved game's outcome chain). Internal to calc/great_lakes.
#include <algorithm>
#include <array>
#include <cassert>
#include <cstdint>
#include <cstring>

#include "calc/great_lakes/battle.hpp"
#include "calc/great_lakes/rules/round.hpp"
#include "core/binomial_table.hpp"

namespace musket::great_lakes::detail {

using round::battle_rules;
using round::battle_state;

struct exact_chooser {
  static constexpr bool one_outcome = false;  // every outcome of a choice, each from the same state
  const binomial_tables& t = shared_binomial_tables();
  double weight = 1.0;
  bool merge_capped = true;  // false: list every hit count, even those beyond what is left to hit
  template <class F>
  void binomial(int n, int faces, F&& f) {
    const double* row = t.pmf_row(faces, n);
    const double w0 = weight;
    for (int k = 0; k <= n; ++k) {
      const double p = row[static_cast<std::size_t>(k)];
      if (p == 0.0) continue;
      weight = w0 * p;
      f(k);
    }
    weight = w0;
  }
  // Outcome 0, 1 or 2 with the given probabilities (they sum to 1).
  template <class F>
  void choose3(double p0, double p1, double p2, F&& f) {
    const double w0 = weight;
    const double ps[3] = {p0, p1, p2};
    for (int k = 0; k < 3; ++k) {
      if (ps[k] <= 0.0) continue;
      weight = w0 * ps[k];
      f(k);
    }
    weight = w0;
  }
  // Outcomes of `cap` or more hits are one outcome (nothing is left to hit): P(k >= cap) summed.
  template <class F>
  void binomial_capped(int n, int faces, int cap, F&& f) {
    if (cap >= n || !merge_capped) return binomial(n, faces, f);
    const double* row = t.pmf_row(faces, n);
    const double w0 = weight;
    double tail = 0.0;
    for (int k = n; k >= cap; --k) tail += row[static_cast<std::size_t>(k)];
    for (int k = 0; k < cap; ++k) {
      const double p = row[static_cast<std::size_t>(k)];
      if (p == 0.0) continue;
      weight = w0 * p;
      f(k);
    }
    if (tail > 0.0) {
      weight = w0 * tail;
      f(cap);
    }
    weight = w0;
  }
};

// A state as a fixed 40-byte key: one byte per unit (SP | status << 5), rerolls, the first-round
// flag and the end (none for a transient state).
struct state_key {
  std::array<std::uint64_t, 5> words{};
  bool operator==(const state_key& o) const {
    return words[0] == o.words[0] && words[1] == o.words[1] && words[2] == o.words[2] && words[3] == o.words[3] &&
           words[4] == o.words[4];
  }
};
static_assert(round::max_units + 4 <= 40);

struct state_key_hash {
  std::size_t operator()(const state_key& k) const {
    // Independent multiplies (no chain through h), then one mix so the low bits see every byte.
    std::uint64_t h = k.words[0] * 0x9E3779B97F4A7C15ull ^ k.words[1] * 0xC2B2AE3D27D4EB4Full ^
                      k.words[2] * 0x165667B19E3779F9ull ^ k.words[3] * 0xD6E8FEB86659FD93ull ^
                      k.words[4] * 0xFF51AFD7ED558CCDull;
    h ^= h >> 32;
    h *= 0xBF58476D1CE4E5B9ull;
    return static_cast<std::size_t>(h ^ (h >> 29));
  }
};

inline state_key encode(const battle_rules& r, const battle_state& s, battle_end end) {
  std::array<std::uint8_t, 40> bytes{};
  const std::size_t n = r.units.size();
  for (std::size_t i = 0; i < n; ++i) bytes[i] = static_cast<std::uint8_t>(s.sp[i] | (s.st[i] << 5));
  bytes[n] = s.rerolls[0];
  bytes[n + 1] = s.rerolls[1];
  bytes[n + 2] = static_cast<std::uint8_t>(s.first_round && r.first_round_matters);
  bytes[n + 3] = static_cast<std::uint8_t>(end);
  state_key key;
  std::memcpy(key.words.data(), bytes.data(), bytes.size());
  return key;
}

inline battle_state decode(const battle_rules& r, const state_key& key, battle_end& end) {
  std::array<std::uint8_t, 40> bytes{};
  std::memcpy(bytes.data(), key.words.data(), bytes.size());
  battle_state s;
  const std::size_t n = r.units.size();
  for (std::size_t i = 0; i < n; ++i) {
    s.sp[i] = bytes[i] & 31;
    s.st[i] = static_cast<std::uint8_t>(bytes[i] >> 5);
  }
  s.rerolls[0] = bytes[n];
  s.rerolls[1] = bytes[n + 1];
  s.first_round = bytes[n + 2] != 0;
  end = static_cast<battle_end>(bytes[n + 3]);
  return s;
}

// Checked once per state played: the dashboard's Cancel stops a long solve within one state.
inline void throw_if_cancelled(const exact_options& options) {
  if ((options.cancel && options.cancel->load(std::memory_order_relaxed)) ||
      (options.recall && options.recall->load(std::memory_order_relaxed)))
    throw solve_cancelled();
}

}  // namespace musket::great_lakes::detail
