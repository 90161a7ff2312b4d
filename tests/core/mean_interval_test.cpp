#include "core/mean_interval.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

TEST(MeanInterval, NormalApproximation) {
  // mean 10, sd 2 over 100 trials: 10 +- z(0.975) * 2 / 10, z(0.975) = 1.959964 (normal tables).
  const auto ci = musket::mean_interval(10.0, 2.0, 100.0);
  EXPECT_DOUBLE_EQ(ci.estimate, 10.0);
  EXPECT_NEAR(ci.lower, 10.0 - 1.959964 * 0.2, 1e-6);
  EXPECT_NEAR(ci.upper, 10.0 + 1.959964 * 0.2, 1e-6);
  // A certain value has no spread: the interval is the point.
  const auto point = musket::mean_interval(3.0, 0.0, 1000.0);
  EXPECT_DOUBLE_EQ(point.lower, 3.0);
  EXPECT_DOUBLE_EQ(point.upper, 3.0);
  EXPECT_THROW(musket::mean_interval(1.0, 1.0, 0.0), std::domain_error);
  EXPECT_THROW(musket::mean_interval(1.0, 1.0, 10.0, 1.0), std::domain_error);
}
