#include "core/distribution_stats.hpp"

#include <gtest/gtest.h>

using musket::describe;
using musket::pmf;
using musket::pmf_double;
using musket::rational;

namespace {
pmf fair_d6_for_stats() {
  return pmf(1, std::vector<rational>(6, rational(1, 6)));
}
}  // namespace

TEST(DistributionStats, FairDieWorkedByHand) {
  const auto s = describe(fair_d6_for_stats());
  // mean (1+...+6)/6 = 7/2; variance (6^2 - 1)/12 = 35/12.
  EXPECT_EQ(s.mass, 1);
  EXPECT_EQ(s.mean, rational(7, 2));
  EXPECT_EQ(s.variance, rational(35, 12));
  EXPECT_NEAR(standard_deviation(s), std::sqrt(35.0 / 12.0), 1e-12);
  // P(X <= 3) = 1/2 is the first to reach 1/2; P(X <= 1) = 1/6 >= 1/20; only P(X <= 6) >= 19/20.
  EXPECT_EQ(s.median, 3);
  EXPECT_EQ(s.p05, 1);
  EXPECT_EQ(s.p95, 6);
  EXPECT_EQ(s.min, 1);
  EXPECT_EQ(s.max, 6);
  // Indexed from the pmf's lowest value, 1: at_least for 5 is P(5 or 6) = 1/3.
  EXPECT_EQ(s.lowest, 1);
  ASSERT_EQ(s.at_least.size(), 6u);
  EXPECT_EQ(s.at_least[5 - 1], rational(1, 3));
  EXPECT_EQ(s.at_least[0], 1);
  EXPECT_EQ(s.at_most[2 - 1], rational(1, 3));
  EXPECT_EQ(s.at_most[5], 1);
}

TEST(DistributionStats, ZeroMassEndsAreNotMinOrMax) {
  // Stored 0..4 with mass only on 1 and 3: min 1, max 3; P(X <= 1) = 1/2 so the median is 1.
  const pmf d(0, {0, rational(1, 2), 0, rational(1, 2), 0});
  const auto s = describe(d);
  EXPECT_EQ(s.min, 1);
  EXPECT_EQ(s.max, 3);
  EXPECT_EQ(s.median, 1);
  EXPECT_EQ(s.p95, 3);
  EXPECT_EQ(s.mean, 2);
  EXPECT_EQ(s.variance, 1);
  EXPECT_EQ(s.at_least[4], 0);
  EXPECT_EQ(s.at_most[0], 0);
}

TEST(DistributionStats, SignedValues) {
  // A track shift of -1 (3/4) or +1 (1/4): mean -1/2, variance 1 - 1/4 = 3/4.
  const pmf d(-1, {rational(3, 4), 0, rational(1, 4)});
  const auto s = describe(d);
  EXPECT_EQ(s.mean, rational(-1, 2));
  EXPECT_EQ(s.variance, rational(3, 4));
  EXPECT_EQ(s.median, -1);
  EXPECT_EQ(s.p95, 1);
  EXPECT_EQ(s.at_least[1 - (-1)], rational(1, 4));
}

TEST(DistributionStats, PartialMassDescribesTheValueGivenItsEvent) {
  // 1/4 on 1 and 1/4 on 2 (the other half: the event did not happen). The cumulative views are
  // sums of the masses (at least 1: 1/2); the mean and median are of the value given the event.
  const pmf d(1, {rational(1, 4), rational(1, 4)});
  const auto s = describe(d);
  EXPECT_EQ(s.mass, rational(1, 2));
  EXPECT_EQ(s.at_least[0], rational(1, 2));
  EXPECT_EQ(s.at_most[0], rational(1, 4));
  EXPECT_EQ(s.mean, rational(3, 2));
  EXPECT_EQ(s.variance, rational(1, 4));
  EXPECT_EQ(s.median, 1);
  EXPECT_EQ(s.p95, 2);
}

TEST(DistributionStats, EstimatesRoundedBelowAQuantileStillReachIt) {
  // Six estimates of 1/6 in doubles: their running sum to 3 is 0.5 up to rounding, still the median.
  const pmf_double d(1, std::vector<double>(6, 1.0 / 6.0));
  const auto s = describe(d);
  EXPECT_NEAR(s.mean, 3.5, 1e-12);
  EXPECT_NEAR(s.variance, 35.0 / 12.0, 1e-12);
  EXPECT_EQ(s.median, 3);
  EXPECT_EQ(s.p05, 1);
  EXPECT_EQ(s.p95, 6);
}

TEST(DistributionStats, AWholeLawReachesItsLowestValueForCertain) {
  // 0.1, 0.2 and 0.7 on 0, 1 and 2: summed from the top (0.7 + 0.2 + 0.1) the doubles make
  // 1 - 1.1e-16, but every outcome is at least 0, so P(X >= 0) is 1 exactly; the rest stay sums.
  const pmf_double d(0, {0.1, 0.2, 0.7});
  ASSERT_LT(0.7 + 0.2 + 0.1, 1.0);  // (the rounding this is about)
  const auto s = describe(d);
  EXPECT_EQ(s.at_least[0], 1.0);
  EXPECT_DOUBLE_EQ(s.at_least[1], 0.9);
  EXPECT_EQ(s.at_least[2], 0.7);
  // A law with less than its whole mass (an event's part) keeps its sum: at least 0 is 1/2.
  const auto part = describe(pmf_double(0, {0.25, 0.25}));
  EXPECT_EQ(part.at_least[0], 0.5);
}

TEST(DistributionStats, NothingToDescribeIsAnError) {
  EXPECT_THROW(describe(pmf::empty()), std::domain_error);
  EXPECT_THROW(describe(pmf(0, {0, 0})), std::domain_error);
}

// A law whose common denominator passes the machine-word path (3^40 > 2^62) takes the big-integer
// one, with the same closed forms: X = 1 with q = 1/3^40, else 0. Mean q, variance q (1 - q).
TEST(DistributionStats, DenominatorsPastAMachineWordStayExact) {
  const rational q(musket::big_integer(1), boost::multiprecision::pow(musket::big_integer(3), 40));
  const auto s = describe(pmf(0, {1 - q, q}));
  EXPECT_EQ(s.mass, 1);
  EXPECT_EQ(s.mean, q);
  EXPECT_EQ(s.variance, q * (1 - q));
  EXPECT_EQ(s.at_least[1], q);
  EXPECT_EQ(s.at_most[0], 1 - q);
  EXPECT_EQ(s.median, 0);
  EXPECT_EQ(s.p95, 0);
  EXPECT_EQ(s.max, 1);
  // And one just inside it (3^39 < 2^62), by the same closed forms.
  const rational r(musket::big_integer(1), boost::multiprecision::pow(musket::big_integer(3), 39));
  const auto t = describe(pmf(0, {1 - r, r}));
  EXPECT_EQ(t.mean, r);
  EXPECT_EQ(t.variance, r * (1 - r));
  EXPECT_EQ(t.at_least[1], r);
  EXPECT_EQ(t.at_most[0], 1 - r);
}
