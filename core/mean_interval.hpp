#pragma once
// A confidence interval for a mean estimated from simulated trials: the normal approximation
// mean +- z * sd / sqrt(n), good for the thousands of trials a simulation runs.
#include <cstdint>

#include "core/proportion_interval.hpp"

namespace musket {

// `estimate` is the sample mean, `sd` the sample standard deviation over `trials` trials.
proportion_interval mean_interval(double estimate, double sd, double trials, double confidence = 0.95);

}  // namespace musket
