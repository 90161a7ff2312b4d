#include "calc/campaign/southern_turns.hpp"

#include <gtest/gtest.h>

namespace musket::campaign {
namespace {

TEST(Siege, KFoodSurrendersOnTurnKPlusOneWithoutResupply) {
  // Turn Ends 1..k each expend one Food; at Turn End k + 1 there is none: surrender (SS 13.1).
  for (int k = 0; k <= 6; ++k) {
    siege_setup s;
    s.food = k;
    s.turns = 10;
    const auto r = resolve_siege(s);
    for (int t = 1; t <= 10; ++t)
      EXPECT_EQ(r.surrenders_on[static_cast<std::size_t>(t - 1)], rational(t == k + 1 ? 1 : 0)) << k;
    EXPECT_EQ(r.holds_out, rational(0));
  }
}

TEST(Siege, ResupplyMakesTheSurrenderTurnGeometric) {
  // No Food, 1/2 chance per turn of one arriving before the Turn End: each turn the army
  // survives with 1/2 (the Food arrives and is eaten), so P(surrender on turn t) = (1/2)^t.
  siege_setup s;
  s.food = 0;
  s.resupply_chance = rational(1, 2);
  s.turns = 5;
  const auto r = resolve_siege(s);
  rational p = 1;
  for (int t = 1; t <= 5; ++t) {
    p /= 2;
    EXPECT_EQ(r.surrenders_on[static_cast<std::size_t>(t - 1)], p);
  }
  EXPECT_EQ(r.holds_out, rational(1, 32));
}

TEST(NavyTurns, ReturnRollsAndWinter) {
  // Both off the map; turn 1: the Crown rolls first, 1-2 (French off): 1/3. The French then roll
  // 1-3 if the Crown came back, 1-2 if not: 1/3 * 1/2 + 2/3 * 1/3 = 7/18. Turn 2 is a Winter
  // Turn: both removed, no rolls. Turn 3 starts again from both off.
  navy_turns_setup s;
  s.turns = 3;
  s.winter = {false, true, false};
  s.crown_on_map = false;
  s.french_on_map = false;
  const auto t = resolve_navy_turns(s);
  EXPECT_EQ(t[0].crown_on_map, rational(1, 3));
  EXPECT_EQ(t[0].french_on_map, rational(7, 18));
  EXPECT_EQ(t[0].both_on_map, rational(1, 6));
  EXPECT_EQ(t[1].crown_on_map, rational(0));
  EXPECT_EQ(t[1].french_on_map, rational(0));
  EXPECT_EQ(t[2].french_on_map, rational(7, 18));
}

TEST(NavyTurns, PresentNavyStaysAndTheOtherRollsOneToThree) {
  navy_turns_setup s;
  s.turns = 2;
  s.winter = {false, false};
  s.crown_on_map = true;
  s.french_on_map = false;
  const auto t = resolve_navy_turns(s);
  EXPECT_EQ(t[0].crown_on_map, rational(1));
  EXPECT_EQ(t[0].french_on_map, rational(1, 2));
  EXPECT_EQ(t[1].french_on_map, rational(3, 4));
}

}  // namespace
}  // namespace musket::campaign
