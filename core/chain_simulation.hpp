#pragma once
// Seeded parallel simulation of chains (campaigns) under a memory bound. A chain trial writes
// into a fixed tally of counters (events and histograms, laid out once with tally_layout); the
// only memory that grows with the run is one tally per thread, so the bound caps the threads
// (and refuses a layout that would not fit even on one thread). Reproducible per seed whatever
// the thread count, like run_trials underneath.
#include <algorithm>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <thread>

#include "core/monte_carlo.hpp"
#include "core/proportion_interval.hpp"
#include "core/usable_threads.hpp"

namespace musket {

// Counter offsets handed out in order: single events and histograms over [lowest, highest].
class tally_layout {
 public:
  struct histogram {
    std::size_t offset = 0;
    int lowest = 0;
    int highest = 0;
    // Values outside the range are held at its ends (callers size ranges to cover every value).
    std::size_t at(int value) const {
      return offset + static_cast<std::size_t>(std::clamp(value, lowest, highest) - lowest);
    }
    std::size_t bins() const { return static_cast<std::size_t>(highest - lowest + 1); }
  };
  std::size_t counter() { return size_++; }
  histogram add_histogram(int lowest, int highest) {
    histogram h{size_, lowest, std::max(lowest, highest)};
    size_ += h.bins();
    return h;
  }
  std::size_t size() const { return size_; }

 private:
  std::size_t size_ = 0;
};

class memory_bound_exceeded : public std::runtime_error {
 public:
  explicit memory_bound_exceeded(const std::string& what) : std::runtime_error(what) {}
};

struct chain_simulation_options {
  simulation_options simulation;
  std::size_t memory_bound_bytes = std::size_t{256} << 20;
};

// Threads the bound allows for a tally of `tally_size` counters (at least 1), or throws
// memory_bound_exceeded when one thread's tally is already too large.
inline unsigned threads_within_bound(const chain_simulation_options& options, std::size_t tally_size) {
  const std::size_t per_thread = tally_size * sizeof(std::uint64_t) + 4096;  // + engine and bookkeeping
  if (per_thread > options.memory_bound_bytes)
    throw memory_bound_exceeded("a chain tally of " + std::to_string(tally_size) + " counters needs " +
                                std::to_string(per_thread) + " bytes, over the bound of " +
                                std::to_string(options.memory_bound_bytes));
  unsigned wanted = usable_threads(options.simulation.threads);
  // One more tally than threads: the merged result.
  const std::size_t fit = options.memory_bound_bytes / per_thread;
  return static_cast<unsigned>(std::max<std::size_t>(1, std::min<std::size_t>(wanted, fit > 1 ? fit - 1 : 1)));
}

inline simulation_tally run_chain_trials(const chain_simulation_options& options, std::size_t tally_size,
                                         const trial_function& trial) {
  simulation_options capped = options.simulation;
  capped.threads = threads_within_bound(options, tally_size);
  return run_trials(capped, tally_size, trial);
}

// Estimate and 95% Wilson interval of counts[index] / trials.
inline proportion_interval tally_interval(const simulation_tally& tally, std::size_t index, double confidence = 0.95) {
  return wilson_interval(tally.counts[index], tally.trials, confidence);
}

}  // namespace musket
