#include "core/monte_carlo.hpp"

#include <algorithm>
#include <thread>

#include "core/usable_threads.hpp"

namespace musket {

simulation_tally run_trials(const simulation_options& options, std::size_t tally_size, const trial_function& trial) {
  const std::uint64_t chunk = std::max<std::uint64_t>(1, options.chunk_trials);
  const std::uint64_t chunks = (options.trials + chunk - 1) / chunk;
  unsigned threads = usable_threads(options.threads);
  threads = static_cast<unsigned>(std::min<std::uint64_t>(threads, std::max<std::uint64_t>(1, chunks)));

  std::atomic<std::uint64_t> next_chunk{0};
  std::vector<std::vector<std::uint64_t>> per_thread(threads, std::vector<std::uint64_t>(tally_size, 0));
  std::vector<std::uint64_t> trials_done(threads, 0);
  std::atomic<bool> stopped{false};

  auto worker = [&](unsigned index) {
    auto& tally = per_thread[index];
    for (;;) {
      if ((options.cancel && options.cancel->load(std::memory_order_relaxed)) ||
          (options.deadline && std::chrono::steady_clock::now() >= *options.deadline)) {
        stopped = true;
        return;
      }
      const std::uint64_t c = next_chunk.fetch_add(1);
      if (c >= chunks) return;
      random_engine engine(options.seed, c);  // stream c: independent of which thread runs it
      const std::uint64_t first = c * chunk;
      const std::uint64_t count = std::min(chunk, options.trials - first);
      for (std::uint64_t t = 0; t < count; ++t) trial(engine, tally);
      trials_done[index] += count;
      if (options.progress) options.progress->fetch_add(count, std::memory_order_relaxed);
    }
  };

  std::vector<std::thread> pool;
  for (unsigned i = 1; i < threads; ++i) pool.emplace_back(worker, i);
  worker(0);
  for (auto& t : pool) t.join();

  simulation_tally result;
  result.counts.assign(tally_size, 0);
  for (unsigned i = 0; i < threads; ++i) {
    result.trials += trials_done[i];
    for (std::size_t k = 0; k < tally_size; ++k) result.counts[k] += per_thread[i][k];
  }
  result.cancelled = stopped.load();
  return result;
}

}  // namespace musket
