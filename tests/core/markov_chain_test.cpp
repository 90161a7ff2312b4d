// absorbing_chain's distribution of absorption steps against closed forms worked by hand.
#include "core/markov_chain.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <tuple>
#include <vector>

namespace {

using musket::absorbing_chain;

// A chain over int states from a table: state -> (target, probability, absorbing) edges; an edge
// to the state itself is its self-loop.
using edges = std::vector<std::tuple<int, double, bool>>;
absorbing_chain<int> chain_of(const std::map<int, edges>& table) {
  absorbing_chain<int> c;
  c.build(
      0, false,
      [&](int key, std::uint32_t, auto&& emit) {
        for (const auto& [to, p, absorbing] : table.at(key)) emit(to, p, absorbing);
      },
      100);
  return c;
}

constexpr double tight = 1e-15;

TEST(AbsorbingChainSteps, SelfLoopIsGeometric) {
  // One state kept with q = 0.5 a step, else absorbed: P(absorbed at step t) = q^(t - 1) (1 - q).
  // Listed until q^t <= 1e-3: t = 10 (2^-10 < 1e-3 < 2^-9), leaving 2^-10 still moving.
  const auto c = chain_of({{0, {{0, 0.5, false}, {1, 0.5, true}}}});
  double tail = -1;
  const auto by_step = c.step_distribution(1e-3, 100, tail);
  ASSERT_EQ(by_step.size(), 10u);
  for (std::size_t t = 0; t < by_step.size(); ++t) EXPECT_NEAR(by_step[t], std::pow(0.5, t + 1.0), tight) << t;
  EXPECT_NEAR(tail, std::pow(0.5, 10), tight);
}

TEST(AbsorbingChainSteps, TwoStatesInTurn) {
  // A keeps a = 0.5 a step, else moves to B; B keeps b = 0.25, else is absorbed. Absorbed at step
  // t after k steps in A and t - k in B: sum over k = 1..t-1 of a^(k-1) (1-a) b^(t-k-1) (1-b)
  // = (1-a)(1-b) (a^(t-1) - b^(t-1)) / (a - b): 0, 0.375, 0.28125 (= 0.375 * 0.75) ...
  const auto c = chain_of({{0, {{0, 0.5, false}, {1, 0.5, false}}}, {1, {{1, 0.25, false}, {2, 0.75, true}}}});
  double tail = -1;
  const auto by_step = c.step_distribution(1e-9, 10, tail);
  ASSERT_EQ(by_step.size(), 10u);  // max_steps reached first
  double absorbed = 0;
  for (std::size_t t = 0; t < by_step.size(); ++t) {
    const double k = static_cast<double>(t);  // step t + 1
    EXPECT_NEAR(by_step[t], 0.5 * 0.75 * (std::pow(0.5, k) - std::pow(0.25, k)) / 0.25, tight) << t;
    absorbed += by_step[t];
  }
  EXPECT_NEAR(by_step[1], 0.375, tight);
  EXPECT_NEAR(by_step[2], 0.28125, tight);
  EXPECT_NEAR(tail, 1.0 - absorbed, 1e-14);
}

TEST(AbsorbingChainSteps, PathsMergeAndLeaveOutside) {
  // A goes to B (0.3) or C (0.7); both go to D, which leaves the chain outside it (exits: no
  // absorbing state named) with probability 1: everything is absorbed at step 3, and the mass
  // reaching D by two paths is summed before D is taken (topological order).
  absorbing_chain<int> c;
  c.build(
      0, false,
      [&](int key, std::uint32_t, auto&& emit) {
        if (key == 0) {
          emit(1, 0.3, false);
          emit(2, 0.7, false);
        } else if (key != 3) {
          emit(3, 1.0, false);
        }
      },
      100);
  std::vector<double> exits(c.state_count(), 0.0);
  for (std::size_t i = 0; i < c.state_count(); ++i)
    if (c.key(i) == 3) exits[i] = 1.0;
  double tail = -1;
  const auto by_step = c.step_distribution(1e-12, 100, tail, &exits);
  ASSERT_EQ(by_step.size(), 3u);
  EXPECT_EQ(by_step[0], 0.0);
  EXPECT_EQ(by_step[1], 0.0);
  EXPECT_NEAR(by_step[2], 1.0, tight);
  EXPECT_NEAR(tail, 0.0, tight);
}

TEST(AbsorbingChainSteps, ZeroToleranceListsEveryStepToTheCap) {
  // With tolerance 0 nothing is let go: the geometric's 40 steps are all listed, mass 2^-40 left.
  const auto c = chain_of({{0, {{0, 0.5, false}, {1, 0.5, true}}}});
  double tail = -1;
  const auto by_step = c.step_distribution(0.0, 40, tail);
  ASSERT_EQ(by_step.size(), 40u);
  EXPECT_EQ(by_step[39], std::pow(0.5, 40));
  EXPECT_EQ(tail, std::pow(0.5, 40));
}

}  // namespace
