#include "core/mean_interval.hpp"

#include <boost/math/distributions/normal.hpp>
#include <cmath>
#include <stdexcept>

namespace musket {

proportion_interval mean_interval(double estimate, double sd, double trials, double confidence) {
  if (!(trials > 0)) throw std::domain_error("an interval needs at least one trial");
  if (!(confidence > 0 && confidence < 1)) throw std::domain_error("confidence must be in (0, 1)");
  const double z = boost::math::quantile(boost::math::normal(), 0.5 + confidence / 2);
  const double half = z * sd / std::sqrt(trials);
  return {estimate, estimate - half, estimate + half};
}

}  // namespace musket
