#include "core/pmf.hpp"

#include <gtest/gtest.h>

#include "core/dice.hpp"

using musket::pmf;
using musket::rational;

namespace {
pmf one_die() {
  return pmf(1, std::vector<rational>(6, rational(1, 6)));
}
}  // namespace

TEST(Pmf, DieMeanAndVariance) {
  // A fair d6: mean 7/2, variance (6^2 - 1) / 12 = 35/12.
  EXPECT_EQ(mean(one_die()), rational(7, 2));
  EXPECT_EQ(variance(one_die()), rational(35, 12));
  EXPECT_NEAR(standard_deviation(one_die()), std::sqrt(35.0 / 12.0), 1e-12);
}

TEST(Pmf, ConvolutionOfTwoDiceIsTriangular) {
  // 2d6: P(s) = (6 - |s - 7|) / 36.
  const pmf two = convolve(one_die(), one_die());
  EXPECT_EQ(two.lowest(), 2);
  EXPECT_EQ(two.highest(), 12);
  for (int s = 2; s <= 12; ++s) EXPECT_EQ(two[s], rational(6 - std::abs(s - 7), 36)) << s;
  EXPECT_EQ(total_mass(two), 1);
}

TEST(Pmf, CdfAtLeastAndQuantile) {
  const pmf d = one_die();
  EXPECT_EQ(cdf(d, 2), rational(1, 3));
  EXPECT_EQ(at_least(d, 5), rational(1, 3));
  EXPECT_EQ(at_least(d, 7), 0);
  EXPECT_EQ(cdf(d, 0), 0);
  EXPECT_EQ(quantile(d, 0.5), 3);  // P(X <= 3) = 1/2 first reaches 0.5 at 3
  EXPECT_EQ(quantile(d, 1.0), 6);
}

TEST(Pmf, MixtureAndTransform) {
  // Half the time a certain 0, half the time a die: P(0) = 1/2, P(k) = 1/12.
  pmf mix = pmf::empty();
  add_scaled(mix, pmf::certain(0), rational(1, 2));
  add_scaled(mix, one_die(), rational(1, 2));
  EXPECT_EQ(mix[0], rational(1, 2));
  EXPECT_EQ(mix[4], rational(1, 12));
  EXPECT_EQ(total_mass(mix), 1);
  // min(X, 3) for a die: P(3) = 4/6.
  const pmf capped = transform(one_die(), [](int v) { return std::min(v, 3); });
  EXPECT_EQ(capped[3], rational(2, 3));
}

TEST(Pmf, DoubleViewMatchesExact) {
  const auto d = to_double(convolve(one_die(), one_die()));
  EXPECT_NEAR(d[7], 1.0 / 6.0, 1e-15);
  EXPECT_NEAR(mean(d), 7.0, 1e-12);
}
