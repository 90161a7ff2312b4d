#pragma once
// What the exact Great Lakes engines share (battle.cpp's, folded_solver.cpp's, optimal_play.cpp's): the binomial tables
// and the chooser that visits every outcome of a round with its probability, the plain state key,
// and the report of finished battles (terminal sums into a battle_result). Internal to
// calc/great_lakes.
#include <algorithm>
#include <array>
#include <atomic>
#include <cassert>
#include <cstdint>
#include <cstring>
#include <memory>
#include <mutex>
#include <vector>

#include "calc/great_lakes/battle.hpp"
#include "calc/great_lakes/round.hpp"

namespace musket::great_lakes::detail {

using round::battle_rules;
using round::battle_state;

// P(k of n dice hit), k = 0..n, into row[0..n], for dice hitting on `faces` of 6; q_to_n is
// ((6 - faces) / 6)^n. Each P(k) comes from P(k - 1) by the ratio (n - k + 1) / k * p / q,
// carried in long double (64-bit significand): 200 steps lose far less than a double's last bit
// (lgamma, exp and log for every entry cost a CLI run some 20 ms). Nothing underflows: (1/6)^200
// is about 1e-156.
inline void binomial_row(int n, int faces, long double q_to_n, double* row) {
  if (faces == 0 || faces == 6) {
    for (int k = 0; k <= n; ++k) row[k] = 0.0;
    row[faces == 0 ? 0 : n] = 1.0;
    return;
  }
  const long double ratio = static_cast<long double>(faces) / static_cast<long double>(6 - faces);
  long double pk = q_to_n;
  for (int k = 0; k <= n; ++k) {
    row[k] = static_cast<double>(pk);
    pk = pk * static_cast<long double>(n - k) / static_cast<long double>(k + 1) * ratio;
  }
}

inline constexpr int max_table_dice = 200;

// P(k of n dice hit) for n <= 200 and 0..6 hit faces, each table in one block (a few
// allocations, not thousands). Rows are built on first use, up to the most dice a battle rolls at
// once (round::compile asks for them: `ensure`), for every number of hit faces; the blocks are
// allocated whole but not written, so a process pays only for the rows its battles use (all of
// them: some 2.6 MB, about 2 ms, most of what a small battle cost a CLI run).
struct binomial_tables {
  // Row (faces, n) starts at faces * per_faces + n (n + 1) / 2 and holds n + 1 values.
  static constexpr std::size_t per_faces = (max_table_dice + 1) * (max_table_dice + 2) / 2;
  static std::size_t row_start(int faces, int n) {
    return static_cast<std::size_t>(faces) * per_faces + static_cast<std::size_t>(n) * (n + 1) / 2;
  }
  // (new[] leaves the tables unset as make_unique_for_overwrite would; libc++ 14, the web build's, lacks that)
  std::unique_ptr<double[]> pmf{new double[7 * per_faces]};
  const double* pmf_row(int faces, int n) const {
    assert(n <= built());  // (a row not built holds no probabilities: ensure it first)
    return pmf.get() + row_start(faces, n);
  }
  // The rows built: 0..built() (ensure's).
  int built() const { return built_.load(std::memory_order_acquire); }
  // For sampling with a 32-bit draw x: k hits when x < at_least[k] for the first such k, where
  // at_least[k] = ceil(cdf[k] * 2^32) (the same outcome as x / 2^32 < cdf[k]); start[b] is where
  // the search starts for draws in [b * 2^24, (b + 1) * 2^24). (faces, n) at
  // faces * (max_table_dice + 1) + n: a draw's two reads one pointer away.
  std::unique_ptr<std::uint64_t[]> at_least{new std::uint64_t[7 * per_faces]};
  struct flat_sampler {
    const std::uint64_t* at_least;
    std::array<std::uint8_t, 256> start;  // (left unwritten until its row is built)
  };
  std::unique_ptr<flat_sampler[]> flat{new flat_sampler[7 * (max_table_dice + 1)]};

  // Rows 0..n (every number of faces) built; safe from any thread.
  void ensure(int n) {
    n = std::min(n, max_table_dice);
    if (built_.load(std::memory_order_acquire) >= n) return;
    const std::lock_guard<std::mutex> lock(building_);
    for (int next = built_.load(std::memory_order_relaxed) + 1; next <= n; ++next) {
      for (int f = 0; f <= 6; ++f) build_row(f, next);
      built_.store(next, std::memory_order_release);
    }
  }

 private:
  void build_row(int f, int n) {
    // ((6 - f) / 6)^n by one more factor a row, as when the rows were built all at once.
    long double& q_to_n = q_to_n_[static_cast<std::size_t>(f)];
    if (n > 0) q_to_n *= static_cast<long double>(6 - f) / 6.0L;
    double* row = pmf.get() + row_start(f, n);
    binomial_row(n, f, q_to_n, row);
    std::uint64_t* edge = at_least.get() + row_start(f, n);
    double run = 0;
    for (int k = 0; k <= n; ++k) {
      run += row[k];
      const double scaled = (k == n ? 2.0 : run) * 4294967296.0;        // the last catches rounding
      const auto floor = static_cast<std::uint64_t>(scaled);            // (exact: a power of two)
      edge[k] = floor + (static_cast<double>(floor) < scaled ? 1 : 0);  // the ceiling
    }
    flat_sampler& sm = flat[static_cast<std::size_t>(f * (max_table_dice + 1) + n)];
    sm.at_least = edge;
    std::size_t k = 0;
    for (std::uint64_t b = 0; b < 256; ++b) {
      while (edge[k] <= (b << 24)) ++k;
      sm.start[b] = static_cast<std::uint8_t>(std::min<std::size_t>(k, 255));
    }
  }
  std::atomic<int> built_{-1};
  std::mutex building_;
  std::array<long double, 7> q_to_n_{1.0L, 1.0L, 1.0L, 1.0L, 1.0L, 1.0L, 1.0L};
};

inline binomial_tables& tables() {
  static binomial_tables t;
  return t;
}

struct exact_chooser {
  static constexpr bool one_outcome = false;  // every outcome of a choice, each from the same state
  const binomial_tables& t = tables();
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

inline void fill_outcomes(battle_result& out) {
  using e = battle_end;
  out.attacker_wins =
      out[e::defender_eliminated] + out[e::defender_forced_retreat] + out[e::defender_voluntary_retreat];
  out.defender_holds =
      out[e::attacker_eliminated] + out[e::attacker_forced_retreat] + out[e::attacker_voluntary_retreat];
  out.stalemate = out[e::stalemate];
}

// Sums of many doubles can stray by an ulp or two past 0 or 1; probabilities are reported in [0, 1].
inline double unit_interval(double p) {
  return std::clamp(p, 0.0, 1.0);
}

inline void clamp_probabilities(battle_result& out) {
  for (auto& e : out.ends) e = unit_interval(e);
  out.attacker_wins = unit_interval(out.attacker_wins);
  out.defender_holds = unit_interval(out.defender_holds);
  out.stalemate = unit_interval(out.stalemate);
  for (auto& p : out.attacker_sp_lost) p = unit_interval(p);
  for (auto& p : out.defender_sp_lost) p = unit_interval(p);
  for (auto& u : out.units) {
    u.survives = unit_interval(u.survives);
    u.fails_morale = unit_interval(u.fails_morale);
  }
  if (out.garrison_eliminated) *out.garrison_eliminated = unit_interval(*out.garrison_eliminated);
}

inline std::vector<unit_outcome> unit_rows(const battle_rules& r) {
  std::vector<unit_outcome> rows;
  for (const auto& u : r.units) {
    unit_outcome row;
    row.name = u.name;
    row.side = u.owner == round::attacker ? "attacker" : "defender";
    row.garrison = u.garrison;
    row.reinforcement = u.reinforcement;
    rows.push_back(row);
  }
  return rows;
}

// Where each terminal quantity sits in a per-state row of exit sums (exact) or tallies (simulation).
struct outcome_layout {
  std::size_t ends = 0, attacker_lost = 7, defender_lost = 0, units = 0, garrison = 0, size = 0;
  explicit outcome_layout(const battle_rules& r) {
    defender_lost = attacker_lost + static_cast<std::size_t>(r.starting_sp[0]) + 1;
    units = defender_lost + static_cast<std::size_t>(r.starting_sp[1]) + 1;
    garrison = units + 3 * r.units.size();
    size = garrison + 1;
  }
};

// Adds weight w of a finished battle (state t, end) to a row laid out as above.
inline void add_terminal(const battle_rules& r, const outcome_layout& l, double* row, const battle_state& t,
                         battle_end end, double w) {
  row[l.ends + static_cast<std::size_t>(end)] += w;
  std::array<int, 2> lost{};
  for (std::size_t u = 0; u < r.units.size(); ++u) {
    lost[static_cast<std::size_t>(r.units[u].owner)] += r.units[u].start_sp - t.sp[u];
    if (t.sp[u] > 0) row[l.units + 3 * u] += w;
    row[l.units + 3 * u + 1] += w * t.sp[u];
    if (t.st[u] == round::failed) row[l.units + 3 * u + 2] += w;
  }
  row[l.attacker_lost + static_cast<std::size_t>(lost[0])] += w;
  row[l.defender_lost + static_cast<std::size_t>(lost[1])] += w;
  if (r.garrison >= 0 && t.sp[static_cast<std::size_t>(r.garrison)] == 0) row[l.garrison] += w;
}

// Checked once per state played: the dashboard's Cancel stops a long solve within one state.
inline void throw_if_cancelled(const exact_options& options) {
  if (options.cancel && options.cancel->load(std::memory_order_relaxed)) throw solve_cancelled();
}

}  // namespace musket::great_lakes::detail
