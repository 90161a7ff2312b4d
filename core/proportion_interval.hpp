#pragma once
// Confidence intervals for a probability estimated from simulated trials (Boost.Math).
#include <cstdint>

namespace musket {

struct proportion_interval {
  double estimate = 0;
  double lower = 0;
  double upper = 0;
};

// Wilson score interval: good coverage at every p, the default for simulated results.
proportion_interval wilson_interval(std::uint64_t successes, std::uint64_t trials, double confidence = 0.95);
// Clopper-Pearson (exact binomial) interval: conservative, never narrower than it should be.
proportion_interval clopper_pearson_interval(std::uint64_t successes, std::uint64_t trials, double confidence = 0.95);

}  // namespace musket
