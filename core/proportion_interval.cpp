#include "core/proportion_interval.hpp"

#include <boost/math/distributions/beta.hpp>
#include <boost/math/distributions/normal.hpp>
#include <cmath>
#include <stdexcept>

namespace musket {

namespace {
void check(std::uint64_t successes, std::uint64_t trials, double confidence) {
  if (trials == 0) throw std::domain_error("an interval needs at least one trial");
  if (successes > trials) throw std::domain_error("more successes than trials");
  if (!(confidence > 0 && confidence < 1)) throw std::domain_error("confidence must be in (0, 1)");
}
}  // namespace

proportion_interval wilson_interval(std::uint64_t successes, std::uint64_t trials, double confidence) {
  check(successes, trials, confidence);
  const double z = boost::math::quantile(boost::math::normal(), 0.5 + confidence / 2);
  const double n = static_cast<double>(trials);
  const double p = static_cast<double>(successes) / n;
  const double centre = (p + z * z / (2 * n)) / (1 + z * z / n);
  const double half = z / (1 + z * z / n) * std::sqrt(p * (1 - p) / n + z * z / (4 * n * n));
  // At 0 or all successes the bound is exactly 0 or 1 (the formula leaves rounding residue).
  return {p, successes == 0 ? 0.0 : std::max(0.0, centre - half),
          successes == trials ? 1.0 : std::min(1.0, centre + half)};
}

proportion_interval clopper_pearson_interval(std::uint64_t successes, std::uint64_t trials, double confidence) {
  check(successes, trials, confidence);
  const double alpha = 1 - confidence;
  const double k = static_cast<double>(successes);
  const double n = static_cast<double>(trials);
  proportion_interval result{k / n, 0.0, 1.0};
  if (successes > 0) result.lower = boost::math::quantile(boost::math::beta_distribution<>(k, n - k + 1), alpha / 2);
  if (successes < trials)
    result.upper = boost::math::quantile(boost::math::beta_distribution<>(k + 1, n - k), 1 - alpha / 2);
  return result;
}

}  // namespace musket
