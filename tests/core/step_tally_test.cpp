// core/step_tally.hpp: the step at which a chain ends, against closed forms worked by hand.
#include "core/step_tally.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

namespace {

// One state with a self-loop q that leaves the chain otherwise: it ends at step t with probability
// q^(t-1) (1 - q), a geometric law; the tail after n steps listed is q^n.
TEST(StepTally, OneStateWithASelfLoopEndsGeometrically) {
  const double q = 0.3;
  musket::step_tally tally(1e-9, 1000);
  ASSERT_TRUE(tally.take({1.0}, q));
  tally.absorb(1.0 - q);
  double tail = 0;
  const std::vector<double> by_step = tally.by_step(tail);
  ASSERT_GE(by_step.size(), 5u);
  for (std::size_t t = 0; t < by_step.size(); ++t)
    EXPECT_NEAR(by_step[t], std::pow(q, static_cast<double>(t)) * (1.0 - q), 1e-15) << "step " << t + 1;
  EXPECT_NEAR(tail, std::pow(q, static_cast<double>(by_step.size())), 1e-15);
  EXPECT_LE(tail, 1e-9);
}

// Two states in a row: A (self-loop a) passes everything on to B, and B (self-loop b) leaves the
// chain. The end step is the sum of two geometric steps: P(T = t) = (1-a)(1-b) sum over k from 1 to
// t-1 of a^(k-1) b^(t-1-k).
TEST(StepTally, TwoStatesInARowEndAtTheSumOfTheirGeometricSteps) {
  const double a = 0.5, b = 0.25;
  musket::step_tally tally(1e-12, 1000);
  std::vector<double> arrive_b;
  ASSERT_TRUE(tally.take({1.0}, a));
  tally.absorb(0.0);
  tally.pass_on(arrive_b, 1.0 - a);
  ASSERT_TRUE(tally.take(arrive_b, b));
  tally.absorb(1.0 - b);
  double tail = 0;
  const std::vector<double> by_step = tally.by_step(tail);
  ASSERT_GE(by_step.size(), 10u);
  EXPECT_EQ(by_step[0], 0.0);  // (B is reached at step 2 at the earliest)
  for (std::size_t t = 2; t <= by_step.size(); ++t) {
    double p = 0;
    for (std::size_t k = 1; k < t; ++k)
      p += std::pow(a, static_cast<double>(k - 1)) * std::pow(b, static_cast<double>(t - 1 - k));
    EXPECT_NEAR(by_step[t - 1], (1 - a) * (1 - b) * p, 1e-15) << "step " << t;
  }
  EXPECT_LE(tail, 1e-12);
}

// Two states meeting at a point within a step: S1 and S2 (half the mass each, self-loops q1 and q2)
// each send all they do not keep to a point X, whose run passes (1 - x) on to T and ends the rest;
// T ends in the step after. The end step: P(T = t) = sum over i of 1/2 (1 - q_i) (x q_i^(t-1) +
// (1 - x) q_i^(t-2) for t >= 2), each state's geometric law, X's share ending at once, T's a step on.
// The run is played twice, as a point met again after it was first passed on is: half S1's share
// before S2 is taken, then the rest.
TEST(StepTally, StatesMeetingAtAPointPassItOnOnce) {
  const double q1 = 0.5, q2 = 1.0 / 3.0, x = 0.25;
  musket::step_tally tally(1e-13, 1000);
  musket::step_tally::run at_x;
  std::vector<double> arrive_t;
  auto play_x = [&] {
    tally.absorb(at_x, x);
    tally.pass_on(at_x, arrive_t, 1.0 - x);
    musket::step_tally::clear(at_x);
    EXPECT_TRUE(at_x.empty());
  };
  ASSERT_TRUE(tally.take({0.5}, q1));
  tally.absorb(0.0);
  tally.gather(at_x, (1.0 - q1) / 2);
  play_x();
  tally.gather(at_x, (1.0 - q1) / 2);
  ASSERT_TRUE(tally.take({0.5}, q2));
  tally.absorb(0.0);
  tally.gather(at_x, 1.0 - q2);
  play_x();
  ASSERT_TRUE(tally.take(arrive_t, 0.0));
  tally.absorb(1.0);
  double tail = 0;
  const std::vector<double> by_step = tally.by_step(tail);
  ASSERT_GE(by_step.size(), 20u);
  for (std::size_t t = 1; t <= by_step.size(); ++t) {
    double p = 0;
    for (const double q : {q1, q2}) {
      p += 0.5 * (1 - q) * x * std::pow(q, static_cast<double>(t - 1));
      if (t >= 2) p += 0.5 * (1 - q) * (1 - x) * std::pow(q, static_cast<double>(t - 2));
    }
    EXPECT_NEAR(by_step[t - 1], p, 1e-15) << "step " << t;
  }
  EXPECT_LE(tail, 1e-13);
}

// A state nothing reaches is not tallied.
TEST(StepTally, AStateNothingReachesIsSkipped) {
  musket::step_tally tally(1e-9, 10);
  EXPECT_FALSE(tally.take({0.0, 0.0}, 0.5));
  EXPECT_FALSE(tally.take({}, 0.5));
}

}  // namespace
