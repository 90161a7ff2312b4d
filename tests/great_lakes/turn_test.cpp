// Ship battles, CAP, the mission game and the war's end, worked by hand.
#include <gtest/gtest.h>

#include "calc/great_lakes/turn/missions.hpp"
#include "calc/great_lakes/turn/war_end.hpp"
#include "core/invalid_input.hpp"

namespace gl = musket::great_lakes;
using musket::rational;

namespace {
const gl::game_data& data() {
  static const gl::game_data d = gl::load_game_data(MUSKET_GL_DATA_DIR);
  return d;
}
}  // namespace

TEST(GreatLakesShips, TiesRerollSoOnlyTheDecisiveRollsCount) {
  EXPECT_EQ(gl::ship_battle_a_wins(1, 1), rational(1, 2));
  // 2 dice v 1: P(A higher) = 1 - sum y^2 / 216 = 125/216; P(B higher) = sum (2x-1)(6-x)/216 =
  // 55/216; so A wins 125/180 = 25/36.
  EXPECT_EQ(gl::ship_battle_a_wins(2, 1), rational(25, 36));
  EXPECT_EQ(gl::ship_battle_a_wins(1, 2), rational(11, 36));
  EXPECT_THROW(gl::ship_battle_a_wins(0, 2), musket::invalid_input);
}

TEST(GreatLakesTurn, CapAndWhoMovesFirst) {
  gl::turn_setup s;  // all transport: no battles, no supply
  auto r = gl::resolve_turn(data(), s);
  // British 8 or 9 (1/2 each), Americans 7 (1/3) or 8 (2/3): the Americans move first only at
  // 8 v 8 (ties go to them): 2/3 * 1/2 = 1/3.
  EXPECT_EQ(r.americans_first, rational(1, 3));
  EXPECT_EQ(r.cap[gl::british][9], rational(1, 2));
  // British supply on Ontario, unopposed: 10 or 11, always above the Americans' 7-8.
  s.orders[gl::ontario][gl::british] = gl::mission::supply;
  r = gl::resolve_turn(data(), s);
  EXPECT_EQ(r.americans_first, rational(0));
  EXPECT_EQ(r.mission_success[gl::ontario][gl::british], rational(1));
  // The Americans intercept on Ontario (4 British dice v 3): the supply succeeds only if the
  // British win the ship battle.
  s.orders[gl::ontario][gl::american] = gl::mission::intercept;
  EXPECT_THROW(gl::resolve_turn(data(), s), musket::invalid_input);  // the caller supplies the dice
  s.ship_dice[gl::ontario] = {4, 3};
  r = gl::resolve_turn(data(), s);
  EXPECT_EQ(r.mission_success[gl::ontario][gl::british], gl::ship_battle_a_wins(4, 3));
  // An Erie battle needs Erie's dice, which the rules text does not give.
  s.orders[gl::erie][gl::british] = gl::mission::intercept;
  EXPECT_THROW(gl::resolve_turn(data(), s), musket::invalid_input);
  s.ship_dice[gl::erie] = {2, 2};
  EXPECT_NO_THROW(gl::resolve_turn(data(), s));
}

TEST(GreatLakesTurn, BothInterceptLoserLosesOneCap) {
  gl::turn_setup s;
  s.orders[gl::ontario] = {gl::mission::intercept, gl::mission::intercept};
  s.ship_dice[gl::ontario] = {1, 1};  // an even battle
  const auto r = gl::resolve_turn(data(), s);
  // British 8/9 each 1/2, then -1 half the time: 7: 1/4, 8: 1/2, 9: 1/4.
  EXPECT_EQ(r.cap[gl::british][7], rational(1, 4));
  EXPECT_EQ(r.cap[gl::british][8], rational(1, 2));
}

TEST(GreatLakesMissions, MatrixGameSolver) {
  // Matching pennies: value 0, both mix 1/2.
  const auto pennies = musket::solve_matrix_game({{1, -1}, {-1, 1}});
  EXPECT_NEAR(pennies.value, 0.0, 1e-12);
  EXPECT_NEAR(pennies.row[0], 0.5, 1e-12);
  EXPECT_NEAR(pennies.column[1], 0.5, 1e-12);
  // A saddle point: row 2 dominates; value 3.
  const auto saddle = musket::solve_matrix_game({{1, 2}, {3, 4}});
  EXPECT_NEAR(saddle.value, 3.0, 1e-12);
  EXPECT_EQ(saddle.row[1], 1.0);  // a pure strategy exactly (each vector normalised by its own sum)
  EXPECT_EQ(saddle.row[0], 0.0);
  EXPECT_EQ(saddle.column[0], 1.0);
  EXPECT_EQ(saddle.column[1], 0.0);
}

TEST(GreatLakesMissions, OptimalPlayIsNoWorseThanAnyPureReply) {
  const auto r = gl::solve_missions(data(), {{{4, 3}, {2, 2}}}, gl::mission_objective::first);
  // The British mix guarantees at least the value against every American pure strategy.
  for (std::size_t a = 0; a < 16; ++a) {
    double payoff = 0;
    for (std::size_t b = 0; b < 16; ++b) payoff += r.british_strategy[b] * r.payoff[b][a];
    EXPECT_GE(payoff, r.value - 1e-9) << a;
  }
}

// With Lake Erie's dice 3 v 2 both sides' best is a supply mission on each lake (a saddle point
// of the payoff matrix): the game's value is that cell, by hand from GL 5.4-5.7, 7.5 and 8.2:
// British 7 + Drummond (+1 or +2, 1/2 each) + 2 + 1 = 11 or 12; Americans 6 + Brown (+1 with 1/3,
// +2 with 2/3) + 2 + 1 = 10 or 11; the British move first on 11 v 10 or on 12: 1/2 * 1/3 + 1/2 =
// 2/3. A pure optimal strategy is exactly 1, every other entry exactly 0 (the simplex's rounding
// once left 0.9999999999999992, which printed ">99.9999%").
TEST(GreatLakesMissions, APureOptimalStrategyIsExactlyOne) {
  const auto r = gl::solve_missions(data(), {{{4, 3}, {3, 2}}}, gl::mission_objective::first);
  std::size_t supply = r.strategy_names.size();
  for (std::size_t i = 0; i < r.strategy_names.size(); ++i)
    if (r.strategy_names[i] == "ontario=supply,erie=supply") supply = i;
  ASSERT_LT(supply, r.strategy_names.size());
  EXPECT_NEAR(r.payoff[supply][supply], 2.0 / 3, 1e-15);
  // A saddle point: the least of its row and the most of its column.
  for (std::size_t k = 0; k < 16; ++k) {
    EXPECT_GE(r.payoff[supply][k], r.payoff[supply][supply] - 1e-15) << k;
    EXPECT_LE(r.payoff[k][supply], r.payoff[supply][supply] + 1e-15) << k;
  }
  EXPECT_NEAR(r.value, 2.0 / 3, 1e-12);
  for (std::size_t k = 0; k < 16; ++k) {
    EXPECT_EQ(r.british_strategy[k], k == supply ? 1.0 : 0.0) << r.strategy_names[k];
    EXPECT_EQ(r.american_strategy[k], k == supply ? 1.0 : 0.0) << r.strategy_names[k];
  }
}

TEST(GreatLakesWarEnd, TheTableFromTurnFourteen) {
  const auto r = gl::resolve_war_end(data(), 1);
  // Ends after 14 on a 6: 1/6. Reaches 20 when 14-16 miss (5/6 each) and 17-19 miss (4/6 each):
  // (5/6)^3 (2/3)^3 = 125/729.
  EXPECT_EQ(r.last_turn[14], rational(1, 6));
  EXPECT_EQ(r.last_turn[17], rational(125, 216) * rational(1, 3));
  EXPECT_EQ(r.last_turn[20], rational(125, 729));
  EXPECT_EQ(musket::total_mass(r.last_turn), rational(1));
  EXPECT_EQ(gl::resolve_war_end(data(), 20).last_turn[20], rational(1));
  EXPECT_EQ(gl::resolve_war_end(data(), 19).last_turn[19], rational(1, 3));
}
