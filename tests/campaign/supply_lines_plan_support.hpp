#pragma once
// Running a Supply Lines plan in the tests, reading an exact probability back as a fraction, and
// the field a refused plan names.
#include <gtest/gtest.h>

#include <string>

#include "calc/campaign/supply_lines_campaign.hpp"
#include "core/invalid_input.hpp"

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

// The field a plan's validation error names, or "(accepted)".
inline std::string error_field(const nlohmann::json& plan, const std::string& game = "nt") {
  try {
    parse_supply_lines_plan(plan, "plan.json", game);
  } catch (const invalid_input& e) {
    return e.field();
  }
  return "(accepted)";
}

}  // namespace musket::campaign::testing
