#pragma once
// P(k of n dice hit) for every number of dice up to 200 and of hit faces out of six: the exact
// engines' rows and the simulations' samplers, built once a process and shared.
#include <algorithm>
#include <array>
#include <atomic>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>

namespace musket {

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
// once (a game's rules ask for them: `ensure`), for every number of hit faces; the blocks are
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

// The process's one set of tables, shared by every battle and thread.
inline binomial_tables& shared_binomial_tables() {
  static binomial_tables t;
  return t;
}

}  // namespace musket
