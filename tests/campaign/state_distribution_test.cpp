#include "core/state_distribution.hpp"

#include <gtest/gtest.h>

#include "core/chain_simulation.hpp"

namespace musket {
namespace {

TEST(StateDistribution, TwoDiceStepsMergeEqualStates) {
  // Start at 0; each step adds 1 with probability 1/3 (a die's 1-2), else 0. After two steps:
  // P(0) = 4/9, P(1) = 2 * 1/3 * 2/3 = 4/9, P(2) = 1/9 -- three states, the two paths to 1 merged.
  auto d = state_distribution<int, rational>::certain(0);
  auto step = [](const int& s, auto&& emit) {
    emit(s + 1, rational(1, 3));
    emit(s, rational(2, 3));
  };
  d = propagate(d, step, 100);
  d = propagate(d, step, 100);
  ASSERT_EQ(d.size(), 3u);
  EXPECT_EQ(d.masses().at(0), rational(4, 9));
  EXPECT_EQ(d.masses().at(1), rational(4, 9));
  EXPECT_EQ(d.masses().at(2), rational(1, 9));
  EXPECT_EQ(d.total(), rational(1));
  const pmf m = d.marginal([](int s) { return s * 10; });
  EXPECT_EQ(m[10], rational(4, 9));
}

TEST(StateDistribution, LimitThrows) {
  auto d = state_distribution<int, double>::certain(0);
  auto spread = [](const int& s, auto&& emit) {
    for (int k = 0; k < 6; ++k) emit(s * 6 + k, 1.0 / 6);
  };
  d = propagate(d, spread, 10);  // 6 states
  EXPECT_THROW(propagate(d, spread, 10), state_space_exceeded);
}

TEST(StateDistribution, SamplerFollowsMasses) {
  state_distribution<int, double> d;
  d.add(1, 0.25);
  d.add(2, 0.75);
  const state_sampler<int> sample(d);
  random_engine engine(7, 0);
  int twos = 0;
  for (int i = 0; i < 40000; ++i) twos += sample(engine) == 2;
  // 4 sigma of a binomial(40000, 0.75): 4 * sqrt(40000 * 0.1875) = 346.
  EXPECT_NEAR(twos, 30000, 346);
}

TEST(ChainSimulation, MemoryBoundCapsThreadsAndRefusesHugeTallies) {
  chain_simulation_options o;
  o.simulation.threads = 64;
  o.memory_bound_bytes = 3 * (1000 * 8 + 4096);
  EXPECT_EQ(threads_within_bound(o, 1000), 2u);  // two thread tallies plus the merged one
  o.memory_bound_bytes = 1000;
  EXPECT_THROW(threads_within_bound(o, 1000), memory_bound_exceeded);
}

TEST(ChainSimulation, ReproducibleWhateverTheThreads) {
  tally_layout layout;
  const auto h = layout.add_histogram(0, 3);
  auto trial = [&](random_engine& e, std::span<std::uint64_t> t) { ++t[h.at(roll_hits(e, 3, 2))]; };
  chain_simulation_options a, b;
  a.simulation.trials = b.simulation.trials = 50000;
  a.simulation.threads = 1;
  b.simulation.threads = 4;
  EXPECT_EQ(run_chain_trials(a, layout.size(), trial).counts, run_chain_trials(b, layout.size(), trial).counts);
}

}  // namespace
}  // namespace musket
