#pragma once
// Running a Supply Lines plan in the tests, and reading an exact probability back as a fraction.
#include <gtest/gtest.h>

#include <string>

#include "calc/campaign/supply_lines_campaign.hpp"

namespace musket::campaign::testing {

inline campaign_result run_plan(const nlohmann::json& plan, const std::string& game,
                                const std::string& method = "exact", std::size_t limit = 100000,
                                std::uint64_t trials = 200000) {
  campaign_options o;
  o.method = method;
  o.state_limit = limit;
  o.simulation.simulation.trials = trials;
  return run_supply_lines_campaign(parse_supply_lines_plan(plan, "plan.json", game), o);
}

inline rational exact_of(const probability_value& v) {
  EXPECT_TRUE(v.exact.has_value());
  const std::string s = v.exact.value_or("0/1");
  const auto slash = s.find('/');
  return rational(big_integer(s.substr(0, slash)), big_integer(s.substr(slash + 1)));
}

}  // namespace musket::campaign::testing
