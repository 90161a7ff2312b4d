// Movement (case K), winter attrition and the Continental levy, worked by closed forms written
// in each test.
#include <gtest/gtest.h>

#include "calc/revolution/attrition.hpp"
#include "calc/revolution/levy.hpp"
#include "calc/revolution/movement.hpp"
#include "core/invalid_input.hpp"
#include "test_support.hpp"

namespace musket::revolution {
namespace {

rational power(const rational& x, int n) {
  rational out(1);
  for (int i = 0; i < n; ++i) out *= x;
  return out;
}

// Each Area entered fails on 1-2, so a group arrives with (2/3)^n and stops after exactly k
// Areas (k < n) with (2/3)^k (1/3).
TEST(RevolutionMovement, ArrivalIsTwoThirdsToTheN) {
  for (int n = 1; n <= 5; ++n) {
    const auto res = british_movement(n, 1);
    EXPECT_EQ(res.arrive, power(rational(2, 3), n)) << n;
    EXPECT_EQ(res.at_least_one_arrives, res.arrive);
    for (int k = 0; k < n; ++k) EXPECT_EQ(res.reached[k], power(rational(2, 3), k) * rational(1, 3));
    EXPECT_EQ(res.reached[n], res.arrive);
    EXPECT_EQ(total_mass(res.reached), 1);
  }
  EXPECT_EQ(british_movement(3, 1).arrive, rational(8, 27));
}

// Two groups, three Areas: 1 - (1 - 8/27)^2 = 1 - 361/729 = 368/729; the furthest either gets
// is 3 with that same probability and 0 with (1/3)^2.
TEST(RevolutionMovement, AtLeastOneOfSeveralGroups) {
  const auto res = british_movement(3, 2);
  EXPECT_EQ(res.at_least_one_arrives, rational(368, 729));
  EXPECT_EQ(res.furthest[3], rational(368, 729));
  EXPECT_EQ(res.furthest[0], rational(1, 9));
  EXPECT_EQ(total_mass(res.furthest), 1);
}

TEST(RevolutionMovement, OutOfRangeIsRejected) {
  EXPECT_THROW(british_movement(0, 1), invalid_input);
  EXPECT_THROW(british_movement(6, 1), invalid_input);  // Movement Allowance 5
  EXPECT_THROW(british_movement(2, 0), invalid_input);
}

// 8 Continentals losing 1/3: two whole thirds (6 points) lose 2 and keep 4; 2 points are left
// over, each surviving on 5-6 (1/3): survivors 4 + Binomial(2, 1/3): 4/9, 4/9, 1/9.
TEST(RevolutionAttrition, LeftOverPointsRollForSurvival) {
  const auto res = winter_attrition(8, parse_loss_fraction("1/3", "f"), parse_faces("5-6", "s"));
  EXPECT_EQ(res.certain_losses, 2);
  EXPECT_EQ(res.certain_survivors, 4);
  EXPECT_EQ(res.left_over, 2);
  EXPECT_EQ(res.survivors[4], rational(4, 9));
  EXPECT_EQ(res.survivors[5], rational(4, 9));
  EXPECT_EQ(res.survivors[6], rational(1, 9));
  EXPECT_EQ(res.losses[2], rational(1, 9));
  // 9 losing 2/3 divides evenly: 3 survive for certain, no rolls.
  const auto even = winter_attrition(9, parse_loss_fraction("2/3", "f"), parse_faces("6", "s"));
  EXPECT_EQ(even.left_over, 0);
  EXPECT_EQ(even.survivors[3], 1);
  // 7 losing 1/2: 3 lost, 3 kept, 1 left over surviving on 4,5,6 (1/2).
  const auto half = winter_attrition(7, parse_loss_fraction("1/2", "f"), parse_faces("4,5,6", "s"));
  EXPECT_EQ(half.survivors[3], rational(1, 2));
  EXPECT_EQ(half.survivors[4], rational(1, 2));
}

TEST(RevolutionAttrition, BadFractionsAndFacesAreRejected) {
  EXPECT_THROW(parse_loss_fraction("1/4", "loss-fraction"), invalid_input);  // 3 points could be left over
  EXPECT_THROW(parse_loss_fraction("3/2", "loss-fraction"), invalid_input);
  EXPECT_THROW(parse_loss_fraction("x", "loss-fraction"), invalid_input);
  EXPECT_EQ(parse_loss_fraction("2/6", "f").denominator, 3);
  EXPECT_THROW(parse_faces("7", "survive-on"), invalid_input);
  EXPECT_THROW(parse_faces("6-5", "survive-on"), invalid_input);
  EXPECT_THROW(winter_attrition(-1, {1, 3}, {}), invalid_input);
}

// The hypothetical test chart: faces raise 6 (Massachusetts Bay), 5 (Virginia), 3 (New York),
// 7 (Potomac Valley), 0, 3 + 2 (New Jersey + Georgia) = 5. Per roll: P(5) = 2/6, P(0), P(3),
// P(6), P(7) = 1/6 each; mean 26/6 = 13/3; over 3 rolls the mean is 13.
TEST(RevolutionLevy, ChartFromAFile) {
  const auto chart = load_levy_chart({std::string(MUSKET_AR_TEST_DATA) + "/levy-example.json", "chart"});
  const auto regions = load_regions({test::shipped("regions.json"), ""});
  const auto res = continental_levy(chart, "chart", regions, {}, 3, 1);
  EXPECT_EQ(res.per_roll[5], rational(1, 3));
  EXPECT_EQ(res.per_roll[7], rational(1, 6));
  EXPECT_EQ(mean(res.per_roll), rational(13, 3));
  EXPECT_EQ(mean(res.total), 13);
  EXPECT_EQ(res.total[0], rational(1, 216));  // the 5 on all three rolls
  // Virginia under British control raises nothing (Reinforcements C): face 2 now gives 0.
  const auto controlled = continental_levy(chart, "chart", regions, {"Virginia"}, 1, 2);
  EXPECT_EQ(controlled.per_roll[0], rational(1, 3));
  EXPECT_EQ(mean(controlled.total), rational(2 * 21, 6));
}

TEST(RevolutionLevy, UnknownChartOrRegionIsAnError) {
  const auto regions = load_regions({test::shipped("regions.json"), ""});
  const auto shipped = load_levy_chart({test::shipped("levy.json"), ""});
  EXPECT_FALSE(shipped.transcribed);
  EXPECT_THROW(continental_levy(shipped, "chart", regions, {}, 1, 1), invalid_input);  // every face unknown
  auto chart = load_levy_chart({std::string(MUSKET_AR_TEST_DATA) + "/levy-example.json", "chart"});
  EXPECT_THROW(continental_levy(chart, "chart", regions, {"Atlantis"}, 1, 1), invalid_input);
  EXPECT_THROW(continental_levy(chart, "chart", regions, {}, 0, 1), invalid_input);
  chart.faces[4] = std::vector<levy_call>{{"Pennsylvania", std::nullopt}};  // not among the known regions
  EXPECT_THROW(continental_levy(chart, "chart", regions, {}, 1, 1), invalid_input);
  chart.faces[4] = std::vector<levy_call>{{"Pennsylvania", 4}};  // a printed number is enough
  EXPECT_EQ(mean(continental_levy(chart, "chart", regions, {}, 1, 1).per_roll), rational(30, 6));
}

}  // namespace
}  // namespace musket::revolution
