#include "calc/campaign/great_lakes_campaign.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "calc/great_lakes/turn.hpp"
#include "core/invalid_input.hpp"

namespace musket::campaign {
namespace {

namespace gl = musket::great_lakes;
using nlohmann::json;

const gl::game_data& data() {
  static const gl::game_data d = gl::load_game_data(std::string(MUSKET_SOURCE_DIR) + "/data/gl");
  return d;
}

json armies() {
  return {{"american",
           {{"units",
             {{{"name", "Scott"}, {"type", "regular"}, {"sp", 4}, {"morale", 5}, {"dice", 4}},
              {{"name", "Porter"}, {"type", "militia"}, {"sp", 3}, {"morale", 3}, {"dice", 2}}}}}},
          {"british",
           {{"units", {{{"name", "Royal Scots"}, {"type", "regular"}, {"sp", 4}, {"morale", 5}, {"dice", 4}}}}}}};
}

bool within_four_sigma(double p, double estimate, std::uint64_t n) {
  return std::fabs(p - estimate) <= 4 * std::sqrt(std::max(p * (1 - p), 1e-6) / static_cast<double>(n)) + 1e-9;
}

// One battle at turn 10 (the war cannot end before 14): the simulated chain's P(attacker wins)
// must match the exact battle engine on the same battle within 4 sigma; the location changes
// hands exactly when the attack wins (an American regular or militia always survives a win here).
TEST(GreatLakesCampaign, OneBattleMatchesTheExactEngine) {
  const json plan = {
      {"armies", armies()},
      {"control", {{"Ft. Erie", "british"}}},
      {"steps", {{{"kind", "battle"}, {"turn", 10}, {"location", "Ft. Erie"}, {"attacker", "american"}}}}};
  const auto p = parse_great_lakes_plan(plan, "gl.json", data());
  const double exact = gl::solve_exact(p.steps[0].template_battle).attacker_wins;
  chain_simulation_options o;
  o.simulation.trials = 40000;
  const auto r = run_great_lakes_campaign(p, data(), o);
  EXPECT_EQ(r.steps[0].fought.estimate, 1.0);
  EXPECT_TRUE(within_four_sigma(exact, r.steps[0].attacker_wins.estimate, o.simulation.trials))
      << exact << " v " << r.steps[0].attacker_wins.estimate;
  for (const auto& l : r.locations)
    if (l.location == "Ft. Erie") {
      EXPECT_EQ(l.american.estimate, r.steps[0].attacker_wins.estimate);
    }
}

// A battle on turn 20 is fought only when the war lasts to the end: P = P(last turn = 20) from
// the war-end table (GL 15.1): (5/6)^3 (4/6)^3 from turn 14.
TEST(GreatLakesCampaign, WarEndDecidesWhetherLateBattlesAreFought) {
  const json plan = {{"armies", armies()},
                     {"from_turn", 14},
                     {"steps", {{{"kind", "battle"}, {"turn", 20}, {"location", "York"}, {"attacker", "american"}}}}};
  const auto p = parse_great_lakes_plan(plan, "gl.json", data());
  chain_simulation_options o;
  o.simulation.trials = 40000;
  const auto r = run_great_lakes_campaign(p, data(), o);
  const double last = to_double(gl::resolve_war_end(data(), 14).last_turn[20]);
  EXPECT_NEAR(last, 125.0 / 216 * 8.0 / 27, 1e-12);
  EXPECT_TRUE(within_four_sigma(last, r.steps[0].fought.estimate, o.simulation.trials));
}

TEST(GreatLakesCampaign, BadPlansNameTheStep) {
  auto field = [](const json& plan) {
    try {
      parse_great_lakes_plan(plan, "gl.json", data());
    } catch (const invalid_input& e) {
      return e.field();
    }
    return std::string("(accepted)");
  };
  EXPECT_EQ(field({{"armies", armies()}, {"steps", {{{"kind", "parley"}}}}}), "gl.json: steps[0].kind");
  EXPECT_EQ(field({{"armies", armies()},
                   {"steps",
                    {{{"kind", "battle"}, {"turn", 12}, {"location", "York"}, {"attacker", "american"}},
                     {{"kind", "battle"}, {"turn", 11}, {"location", "York"}, {"attacker", "american"}}}}}),
            "gl.json: steps[1].turn");
  EXPECT_EQ(field({{"armies", armies()}, {"steps", {{{"kind", "battle"}, {"location", "York"}}}}}),
            "gl.json: steps[0].attacker");
}

}  // namespace
}  // namespace musket::campaign
