#include "core/dice.hpp"

#include <gtest/gtest.h>

using musket::rational;

TEST(Dice, BinomialHitsOnOneTwo) {
  // Three dice hitting on 1-2 (p = 1/3): P(0) = (2/3)^3 = 8/27, P(1) = 3 (1/3)(2/3)^2 = 12/27,
  // P(2) = 3 (1/3)^2 (2/3) = 6/27, P(3) = 1/27.
  const auto hits = musket::binomial_successes<rational>(3, 2);
  EXPECT_EQ(hits[0], rational(8, 27));
  EXPECT_EQ(hits[1], rational(12, 27));
  EXPECT_EQ(hits[2], rational(6, 27));
  EXPECT_EQ(hits[3], rational(1, 27));
  EXPECT_EQ(mean(hits), 1);  // n p
}

TEST(Dice, BinomialMeanAndVarianceClosedForm) {
  for (int n = 0; n <= 12; ++n)
    for (int faces = 0; faces <= 6; ++faces) {
      const auto hits = musket::binomial_successes<rational>(n, faces);
      const rational p(faces, 6);
      EXPECT_EQ(total_mass(hits), 1);
      EXPECT_EQ(mean(hits), n * p);
      EXPECT_EQ(variance(hits), n * p * (1 - p));
      const auto fast = musket::binomial_successes<double>(n, faces);
      for (int k = 0; k <= n; ++k) EXPECT_NEAR(fast[k], musket::to_double(hits[k]), 1e-14);
    }
}

TEST(Dice, DieAtLeast) {
  EXPECT_EQ(musket::die_at_least<rational>(5), rational(1, 3));
  EXPECT_EQ(musket::die_at_least<rational>(1), 1);
  EXPECT_EQ(musket::die_at_least<rational>(-3), 1);
  EXPECT_EQ(musket::die_at_least<rational>(7), 0);
}

TEST(Dice, HighestOfTwoDice) {
  // P(max = v) = (v^2 - (v-1)^2) / 36 = (2v - 1) / 36.
  const auto high = musket::highest_of_dice<rational>(2);
  for (int v = 1; v <= 6; ++v) EXPECT_EQ(high[v], rational(2 * v - 1, 36));
}

TEST(Dice, SumOfTwoDice) {
  const auto sum = musket::sum_of_dice<rational>(2);
  EXPECT_EQ(at_least(sum, 10), rational(6, 36));  // 4-6, 5-5, 5-6, 6-4, 6-5, 6-6
}
