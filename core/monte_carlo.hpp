#pragma once
// Seeded, reproducible Monte Carlo. Trials are cut into fixed chunks; chunk i always uses the
// PCG stream i of the seed, and chunk tallies are integer sums, so the answer for a seed is the
// same whatever the thread count or scheduling.
#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <pcg_random.hpp>
#include <span>
#include <vector>

namespace musket {

using random_engine = pcg32;

struct simulation_options {
  std::uint64_t trials = 1'000'000;
  std::uint64_t seed = 1775;
  unsigned threads = 0;                       // 0: every core
  std::uint64_t chunk_trials = 1u << 14;      // trials per reproducible chunk
  const std::atomic<bool>* cancel = nullptr;  // set to stop early (the GUI's cancel button)
  // Stop early once this time passes (auto's time budget), seen between chunks as cancel is: no
  // watching thread needed, so it holds in the web build too, which has no threads.
  std::optional<std::chrono::steady_clock::time_point> deadline;
  std::atomic<std::uint64_t>* progress = nullptr;  // trials finished so far
};

struct simulation_tally {
  std::uint64_t trials = 0;           // trials actually run (fewer than asked only if cancelled)
  std::vector<std::uint64_t> counts;  // event counts, laid out by the caller
  bool cancelled = false;
};

// Runs `trials` calls of trial(engine, tally) where tally is a span of `tally_size` counters the
// trial increments. `trial` must be safe to call from several threads at once.
using trial_function = std::function<void(random_engine&, std::span<std::uint64_t>)>;
simulation_tally run_trials(const simulation_options& options, std::size_t tally_size, const trial_function& trial);

// One d6, unbiased.
inline int roll_d6(random_engine& engine) {
  return static_cast<int>(engine(6u)) + 1;
}

// How many of `dice` d6 show a face <= hit_faces.
inline int roll_hits(random_engine& engine, int dice, int hit_faces) {
  int hits = 0;
  for (int i = 0; i < dice; ++i) hits += roll_d6(engine) <= hit_faces;
  return hits;
}

}  // namespace musket
