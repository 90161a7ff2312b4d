// The folded engine's labels of one side (calc/great_lakes/side_labels.hpp): what a state's out
// units hold, carried along moves by index. The expected masses are the moves' probabilities,
// binary fractions chosen so that every sum is exact; the expected order is the layout's (the first
// out unit's holding varying fastest), which the sums downstream follow.
#include "calc/great_lakes/side_labels.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <utility>
#include <vector>

#include "battle_builders.hpp"

namespace musket::great_lakes {
namespace {

using testing::make_unit;

// Three attacking regulars of 4 SP (units 0-2) against one defender: out together, each holds
// one of 5 things (eliminated, or failed morale with 1-4 SP), 125 labels in all.
round::battle_rules three_regulars() {
  battle b = testing::duel(make_unit("A", 4, 3), make_unit("D", 4, 3));
  b.attacker.units.push_back(make_unit("B", 4, 3));
  b.attacker.units.push_back(make_unit("C", 4, 3));
  return round::compile(b);
}

constexpr std::uint32_t all_three = 0b111;

// Key bytes of the units that left the line holding SP: unit u failed morale with sp[u] (0: eliminated).
std::uint64_t left_holding(const std::array<int, 3>& sp) {
  std::uint64_t word = 0;
  for (std::size_t u = 0; u < 3; ++u)
    if (sp[u] > 0) word |= static_cast<std::uint64_t>(sp[u] | round::failed << 5) << (8 * u);
  return word;
}

// A label's index in the three units' layout: digit 0 eliminated, d = the SP failed with.
std::uint32_t index_of(const std::array<int, 3>& sp) {
  return static_cast<std::uint32_t>(sp[0] + 5 * sp[1] + 25 * sp[2]);
}

struct taken_label {
  std::array<int, 3> sp;  // what each unit holds (0: eliminated)
  double mass;
};

std::vector<taken_label> taken_labels(const folded::side_labels& labels) {
  std::vector<taken_label> out;
  labels.for_each([&](const folded::label_bytes& bytes, double mass) {
    taken_label l{{}, mass};
    for (std::size_t u = 0; u < 3; ++u) {
      EXPECT_TRUE(bytes[u] == 0 || bytes[u] >> 5 == round::failed) << "unit " << u;
      l.sp[u] = bytes[u] & 31;
    }
    out.push_back(l);
  });
  return out;
}

// From the start (nothing out, mass 1), each move takes all three units out holding `holdings[k]`
// with probability p[k]; the target's labels are then taken with `scale`.
std::vector<taken_label> carried(const std::vector<std::array<int, 3>>& holdings, const std::vector<double>& p,
                                 double scale, double& visits) {
  const round::battle_rules r = three_regulars();
  folded::side_labels labels(r, 0, 1000);
  labels.start(0);
  EXPECT_EQ(labels.take(0, 0, 1.0), 1.0);
  for (std::size_t k = 0; k < holdings.size(); ++k) {
    const std::uint64_t left = left_holding(holdings[k]);
    labels.carry(p[k], 7, all_three, &left);
  }
  visits = labels.take(7, all_three, scale);
  EXPECT_EQ(labels.taken().size, 125u);
  return taken_labels(labels);
}

TEST(SideLabels, FewLabelsOfALargeLayoutComeOutInTheLayoutsOrderWithTheirSums) {
  // Carried in decreasing index order, one of them twice: 1/4 + 1/8 adds up in place.
  const std::vector<std::array<int, 3>> holdings = {{4, 4, 4}, {0, 3, 1}, {2, 0, 0}, {0, 3, 1}, {1, 0, 0}};
  const std::vector<double> p = {0.5, 0.25, 0.0625, 0.125, 0.03125};
  double visits = 0;
  const auto labels = carried(holdings, p, 2.0, visits);
  ASSERT_EQ(labels.size(), 4u);
  const std::vector<std::pair<std::array<int, 3>, double>> expected = {
      {{1, 0, 0}, 2 * 0.03125}, {{2, 0, 0}, 2 * 0.0625}, {{0, 3, 1}, 2 * (0.25 + 0.125)}, {{4, 4, 4}, 2 * 0.5}};
  for (std::size_t k = 0; k < expected.size(); ++k) {
    EXPECT_EQ(labels[k].sp, expected[k].first) << k;
    EXPECT_EQ(labels[k].mass, expected[k].second) << k;
  }
  EXPECT_EQ(visits, 2 * (0.5 + 0.25 + 0.0625 + 0.125 + 0.03125));
}

TEST(SideLabels, ManyLabelsOfOneStateGrowPastTheShortListAndKeepEveryMass) {
  // 60 holdings, each carried with its own binary fraction 2^-(k+1), in an order that is not the
  // layout's: every label must come out once, in index order, with its mass.
  std::vector<std::array<int, 3>> holdings;
  std::vector<double> p;
  for (int k = 0; k < 60; ++k) {
    const int at = (k * 47) % 125;  // (47 is prime to 125: 60 distinct indexes)
    holdings.push_back({at % 5, at / 5 % 5, at / 25});
    p.push_back(1.0 / static_cast<double>(std::uint64_t{1} << (k % 50 + 1)));
  }
  double visits = 0;
  const auto labels = carried(holdings, p, 1.0, visits);
  ASSERT_EQ(labels.size(), 60u);
  std::uint32_t previous = 0;
  double sum = 0;
  for (std::size_t k = 0; k < labels.size(); ++k) {
    const std::uint32_t at = index_of(labels[k].sp);
    if (k > 0) {
      EXPECT_LT(previous, at);
    }
    previous = at;
    std::size_t j = 0;
    while (j < holdings.size() && index_of(holdings[j]) != at) ++j;
    ASSERT_LT(j, holdings.size());
    EXPECT_EQ(labels[k].mass, p[j]);
    sum += p[j];  // (visits sums in the same order)
  }
  EXPECT_EQ(visits, sum);
}

TEST(SideLabels, LabelsCarriedIntoALargerLayoutGainTheNewUnitsHoldings) {
  // A fails with 2 SP (one label), then B is eliminated and C fails with 4: the target's one label
  // holds all three, its mass the product of the moves'.
  const round::battle_rules r = three_regulars();
  folded::side_labels labels(r, 0, 1000);
  labels.start(0);
  labels.take(0, 0, 1.0);
  const std::uint64_t a_left = left_holding({2, 0, 0});
  labels.carry(0.5, 3, 0b001, &a_left);
  labels.carry(0.25, 4, 0b001, nullptr);  // (A eliminated, to another state)
  EXPECT_EQ(labels.take(3, 0b001, 1.0), 0.5);
  const std::uint64_t c_left = left_holding({0, 0, 4});
  labels.carry(0.125, 9, all_three, &c_left);
  EXPECT_EQ(labels.take(9, all_three, 1.0), 0.5 * 0.125);
  const auto taken = taken_labels(labels);
  ASSERT_EQ(taken.size(), 1u);
  EXPECT_EQ(taken[0].sp, (std::array<int, 3>{2, 0, 4}));
  EXPECT_EQ(labels.take(4, 0b001, 1.0), 0.25);
  const auto eliminated = taken_labels(labels);
  ASSERT_EQ(eliminated.size(), 1u);
  EXPECT_EQ(eliminated[0].sp, (std::array<int, 3>{0, 0, 0}));
}

TEST(SideLabels, AStatesManyLabelsCarriedIntoAShortListTurnItDenseWithinTheMove) {
  // State 5 (A and B out) holds 20 labels; state 6, same layout, holds one short-listed label when
  // all 20 arrive in one move: the list fills, turns dense part way, and every label lands.
  const round::battle_rules r = three_regulars();
  folded::side_labels labels(r, 0, 1000);
  labels.start(0);
  labels.take(0, 0, 1.0);
  std::vector<std::array<int, 3>> holdings;
  for (int at = 0; at < 20; ++at) {
    holdings.push_back({at % 5, at / 5, 0});
    const std::uint64_t left = left_holding(holdings.back());
    labels.carry(1.0 / 32, 5, 0b011, &left);
  }
  const std::uint64_t one_one = left_holding({1, 1, 0});
  labels.carry(0.5, 6, 0b011, &one_one);
  EXPECT_EQ(labels.take(5, 0b011, 1.0), 20.0 / 32);
  labels.carry(0.5, 6, 0b011, nullptr);
  EXPECT_EQ(labels.take(6, 0b011, 1.0), 0.5 + 0.5 * 20.0 / 32);
  const auto taken = taken_labels(labels);
  ASSERT_EQ(taken.size(), 20u);
  for (std::size_t k = 0; k < taken.size(); ++k) {
    EXPECT_EQ(taken[k].sp, holdings[k]) << k;
    const bool summed = holdings[k] == std::array<int, 3>{1, 1, 0};
    EXPECT_EQ(taken[k].mass, summed ? 0.5 + 0.5 / 32 : 0.5 / 32) << k;
  }
}

}  // namespace
}  // namespace musket::great_lakes
