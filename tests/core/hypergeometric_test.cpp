#include "core/hypergeometric.hpp"

#include <gtest/gtest.h>

using musket::rational;

TEST(Hypergeometric, SmallCup) {
  // 5 chits, 2 marked, draw 2: P(0) = C(3,2)/C(5,2) = 3/10, P(1) = 2*3/10, P(2) = 1/10.
  const auto d = musket::hypergeometric_draws<rational>(5, 2, 2);
  EXPECT_EQ(d[0], rational(3, 10));
  EXPECT_EQ(d[1], rational(6, 10));
  EXPECT_EQ(d[2], rational(1, 10));
}

TEST(Hypergeometric, MeanIsDrawsTimesShare) {
  for (int n = 1; n <= 12; ++n)
    for (int k = 0; k <= n; ++k)
      for (int draws = 0; draws <= n; ++draws) {
        const auto d = musket::hypergeometric_draws<rational>(n, k, draws);
        EXPECT_EQ(total_mass(d), 1);
        EXPECT_EQ(mean(d), rational(draws * k, n));
      }
}

TEST(Hypergeometric, MultivariateMatchesMarginals) {
  // The Southern Strategy's set-up cup plus the Swamp Fox: 2, 1, 2, 1 chits; three draws.
  const std::vector<int> counts{2, 1, 2, 1};
  const auto outcomes = musket::multivariate_draws<rational>(counts, 3);
  rational total = 0, fox = 0;
  for (const auto& [drawn, p] : outcomes) {
    int sum = 0;
    for (int c : drawn) sum += c;
    EXPECT_EQ(sum, 3);
    total += p;
    if (drawn[3] == 1) fox += p;
  }
  EXPECT_EQ(total, 1);
  EXPECT_EQ(fox, rational(1, 2));  // any given chit is among 3 of 6 with probability 3/6
  // Count vectors (x0<=2, x1<=1, x2<=2, x3<=1, sum 3), by (x1, x3): (0,0) leaves x0+x2 = 3: 2
  // ways; (1,0) and (0,1) leave 2: 3 ways each; (1,1) leaves 1: 2 ways. 10 in all.
  EXPECT_EQ(outcomes.size(), 10u);
}

TEST(Hypergeometric, RejectsImpossibleDraws) {
  EXPECT_THROW(musket::hypergeometric_draws<rational>(3, 4, 1), std::domain_error);
  EXPECT_THROW(musket::hypergeometric_draws<rational>(3, 1, 4), std::domain_error);
}
