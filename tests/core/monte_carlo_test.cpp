#include "core/monte_carlo.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "core/proportion_interval.hpp"

namespace {
// Tally 0: a d6 shows 1-2; tally 1: it shows 6.
musket::simulation_tally roll_once(std::uint64_t trials, std::uint64_t seed, unsigned threads) {
  musket::simulation_options options;
  options.trials = trials;
  options.seed = seed;
  options.threads = threads;
  options.chunk_trials = 1000;
  return musket::run_trials(options, 2, [](musket::random_engine& engine, std::span<std::uint64_t> tally) {
    const int face = musket::roll_d6(engine);
    tally[0] += face <= 2;
    tally[1] += face == 6;
  });
}
}  // namespace

TEST(MonteCarlo, SameSeedSameAnswerWhateverTheThreads) {
  const auto one = roll_once(100'003, 42, 1);
  const auto two = roll_once(100'003, 42, 2);
  const auto four = roll_once(100'003, 42, 4);
  EXPECT_EQ(one.trials, 100'003u);
  EXPECT_EQ(one.counts, two.counts);
  EXPECT_EQ(one.counts, four.counts);
  EXPECT_NE(one.counts, roll_once(100'003, 43, 2).counts);
}

TEST(MonteCarlo, AgreesWithTheDieWithinFourSigma) {
  const std::uint64_t n = 600'000;
  const auto t = roll_once(n, 7, 0);
  const double sigma_third = std::sqrt(n * (1.0 / 3) * (2.0 / 3));
  const double sigma_sixth = std::sqrt(n * (1.0 / 6) * (5.0 / 6));
  EXPECT_NEAR(static_cast<double>(t.counts[0]), n / 3.0, 4 * sigma_third);
  EXPECT_NEAR(static_cast<double>(t.counts[1]), n / 6.0, 4 * sigma_sixth);
}

TEST(MonteCarlo, CancelStopsEarly) {
  std::atomic<bool> cancel{true};
  musket::simulation_options options;
  options.trials = 1'000'000;
  options.cancel = &cancel;
  const auto t =
      musket::run_trials(options, 1, [](musket::random_engine&, std::span<std::uint64_t> tally) { ++tally[0]; });
  EXPECT_TRUE(t.cancelled);
  EXPECT_LT(t.trials, options.trials);
}

// auto's time budget: a deadline already past stops the run before its first chunk (no thread
// needed to watch the clock), and one an hour away lets every trial run.
TEST(MonteCarlo, DeadlineStopsBetweenChunks) {
  musket::simulation_options options;
  options.trials = 100'000;
  options.chunk_trials = 1000;
  options.threads = 1;
  const auto count = [](musket::random_engine&, std::span<std::uint64_t> tally) { ++tally[0]; };
  options.deadline = std::chrono::steady_clock::now() - std::chrono::seconds(1);
  const auto past = musket::run_trials(options, 1, count);
  EXPECT_TRUE(past.cancelled);
  EXPECT_EQ(past.trials, 0u);
  options.deadline = std::chrono::steady_clock::now() + std::chrono::hours(1);
  const auto future = musket::run_trials(options, 1, count);
  EXPECT_FALSE(future.cancelled);
  EXPECT_EQ(future.trials, 100'000u);
  EXPECT_EQ(future.counts[0], 100'000u);
}

TEST(ProportionInterval, ZeroSuccessesClosedForms) {
  // Wilson upper bound at 0 of n: z^2 / (n + z^2); Clopper-Pearson: 1 - (alpha/2)^(1/n).
  const double z = 1.959963984540054;
  const auto w = musket::wilson_interval(0, 10);
  EXPECT_NEAR(w.lower, 0.0, 1e-12);
  EXPECT_NEAR(w.upper, z * z / (10 + z * z), 1e-9);
  const auto cp = musket::clopper_pearson_interval(0, 10);
  EXPECT_NEAR(cp.lower, 0.0, 1e-12);
  EXPECT_NEAR(cp.upper, 1 - std::pow(0.025, 0.1), 1e-9);
}

TEST(ProportionInterval, HalfAndSymmetry) {
  const auto w = musket::wilson_interval(50, 100);
  EXPECT_NEAR(w.estimate, 0.5, 1e-15);
  EXPECT_NEAR(w.lower + w.upper, 1.0, 1e-12);  // symmetric about 1/2
  // Wilson half-width at p = 1/2: z/(1 + z^2/n) * sqrt(1/(4n) + z^2/(4n^2)).
  const double z = 1.959963984540054, n = 100;
  EXPECT_NEAR(w.upper - 0.5, z / (1 + z * z / n) * std::sqrt(0.25 / n + z * z / (4 * n * n)), 1e-9);
  const auto cp = musket::clopper_pearson_interval(50, 100);
  EXPECT_LT(cp.lower, w.lower);  // Clopper-Pearson is the more conservative
  EXPECT_GT(cp.upper, w.upper);
  EXPECT_THROW(musket::wilson_interval(1, 0), std::domain_error);
}
