#include "calc/campaign/revolution_campaign.hpp"

#include <gtest/gtest.h>

#include "core/dice.hpp"
#include "core/invalid_input.hpp"
#include "core/pmf.hpp"

namespace musket::campaign {
namespace {

namespace ar = musket::revolution;
using nlohmann::json;

ar::crt_table table() {
  return ar::load_crt({std::string(MUSKET_SOURCE_DIR) + "/data/ar/crt.json", ""});
}

rational major_of(const ar::crt_table& t, const std::string& attacker, const std::string& defender) {
  ar::battle_setup b;
  b.attacker = ar::parse_force(attacker, "attacker");
  b.defender = ar::parse_force(defender, "defender");
  const auto m = ar::resolve_battle(t, b).major_success();
  EXPECT_TRUE(m.exact());
  return m.min;
}

// Two independent attacks: the Major Success count is the convolution of two Bernoulli laws,
// each p_i = P(Major Success) of the single combat (resolve_battle). With the British holding
// enough Victory Points, two successes do not end the game, so nothing stops the second attack.
TEST(RevolutionCampaign, MajorSuccessCountIsAConvolution) {
  const auto t = table();
  const json plan = {{"british_vp", 40},
                     {"attacks",
                      {{{"turn", 2}, {"attacker", "12C"}, {"defender", "6B"}},
                       {{"turn", 4}, {"attacker", "16C,4M"}, {"defender", "8B,2T"}}}}};
  const auto r = run_revolution_campaign(t, parse_revolution_plan(plan, "ar.json"));
  const rational p1 = major_of(t, "12C", "6B"), p2 = major_of(t, "16C,4M", "8B,2T");
  ASSERT_GT(p1, 0);
  ASSERT_GT(p2, 0);
  const pmf count = convolve(pmf(0, {1 - p1, p1}), pmf(0, {1 - p2, p2}));
  EXPECT_TRUE(r.exact);
  EXPECT_EQ(r.at_least[1].low, at_least(count, 1));
  EXPECT_EQ(r.at_least[2].low, at_least(count, 2));
  EXPECT_EQ(r.at_least[3].low, rational(0));
  EXPECT_EQ(r.american_victory.low, rational(0));  // 2 successes with 40 VP >= 25: the game goes on
  // French Arrival: triggered by turn 2 with p1, by turn 4 with 1 - (1-p1)(1-p2); the Permanent
  // Reinforcements six turns after the first success.
  EXPECT_EQ(r.french_triggered_by[0].low, p1);  // turns[0] = 2
  EXPECT_EQ(r.french_triggered_by[2].low, at_least(count, 1));
  EXPECT_EQ(r.french_permanent_by[6].low, p1);  // turn 8 = 2 + 6
}

TEST(RevolutionCampaign, TwoSuccessesWinWhenTheBritishAreShort) {
  const auto t = table();
  const json plan = {{"british_vp", 20},
                     {"attacks",
                      {{{"turn", 2}, {"attacker", "12C"}, {"defender", "6B"}},
                       {{"turn", 4}, {"attacker", "12C"}, {"defender", "6B"}},
                       {{"turn", 5}, {"attacker", "12C"}, {"defender", "6B"}}}}};
  const auto r = run_revolution_campaign(t, parse_revolution_plan(plan, "ar.json"));
  const rational p = major_of(t, "12C", "6B");
  // Victory at the second success: P(at least 2 of 3) = 3p^2(1-p) + p^3.
  EXPECT_EQ(r.american_victory.low, 3 * p * p * (1 - p) + p * p * p);
  // The third attack is made only if the game is still on: not two successes already.
  EXPECT_EQ(r.attacks[2].reached.low, 1 - p * p);
}

// Case K: each of 3 Areas fails on 1-2, so one group arrives with (2/3)^3 = 8/27 and at least
// one of two groups with 1 - (19/27)^2 = 368/729.
TEST(RevolutionCampaign, BritishMovesByCaseK) {
  const json plan = {{"attacks", {{{"turn", 2}, {"attacker", "12C"}, {"defender", "6B"}}}},
                     {"british_moves", {{{"id", "howe"}, {"turn", 2}, {"areas", 3}, {"groups", 2}}}}};
  const auto r = run_revolution_campaign(table(), parse_revolution_plan(plan, "ar.json"));
  ASSERT_EQ(r.british_moves.size(), 1u);
  EXPECT_EQ(r.british_moves[0].arrive, rational(8, 27));
  EXPECT_EQ(r.british_moves[0].at_least_one_arrives, rational(368, 729));
}

TEST(RevolutionCampaign, BadPlansNameTheAttack) {
  auto field = [](const json& plan) {
    try {
      parse_revolution_plan(plan, "ar.json");
    } catch (const invalid_input& e) {
      return e.field();
    }
    return std::string("(accepted)");
  };
  EXPECT_EQ(field({{"attacks", {{{"attacker", "10C"}, {"defender", "6X"}}}}}), "ar.json: attacks[0].defender");
  // Types and ranges: never a JSON type error, never a wrapped number.
  EXPECT_EQ(field({{"name", 3}, {"attacks", {{{"attacker", "10C"}, {"defender", "6B"}}}}}), "ar.json: name");
  EXPECT_EQ(field({{"attacks", {{{"attacker", "10C"}, {"defender", "6B"}, {"fort", "yes"}}}}}),
            "ar.json: attacks[0].fort");
  EXPECT_EQ(field({{"british_vp", json::parse("18446744073709551615")},
                   {"attacks", {{{"attacker", "10C"}, {"defender", "6B"}}}}}),
            "ar.json: british_vp");
  EXPECT_EQ(field({{"attacks", {{{"turn", json::parse("4294967299")}, {"attacker", "10C"}, {"defender", "6B"}}}}}),
            "ar.json: attacks[0].turn");
  EXPECT_EQ(field({{"attacks", {{{"attacker", "6B"}, {"defender", "6B"}}}}}), "ar.json: attacks[0].attacker");
  EXPECT_EQ(field({{"attacks",
                    {{{"turn", 5}, {"attacker", "10C"}, {"defender", "6B"}},
                     {{"turn", 3}, {"attacker", "10C"}, {"defender", "6B"}}}}}),
            "ar.json: attacks[1].turn");
  EXPECT_EQ(field({{"attacks", {{{"attacker", "5C"}, {"defender", "6B"}}}}}), "ar.json: attacks[0].attacker");
  EXPECT_EQ(field({{"attacks", {{{"attacker", "10C"}, {"defender", "6B"}}}}, {"british_moves", {{{"areas", 7}}}}}),
            "ar.json: british_moves[0].areas");
}

}  // namespace
}  // namespace musket::campaign
