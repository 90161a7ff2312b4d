// The column sweep (issue 20's next engine, its first part): who wins, against closed forms and
// against solve_exact on random battles with morale, rerolls and a fort.
#include "calc/great_lakes/column_sweep.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>

#include "tests/great_lakes/battle_builders.hpp"

namespace gl = musket::great_lakes;
using gl::testing::duel;
using gl::testing::make_unit;

namespace {

constexpr double sweep_tight = 1e-12;  // (a name of its own: the suite is one unity batch)

TEST(GreatLakesColumnSweep, OneSpUnitsWinByTheFirstHit) {
  // 1 SP a side, morale 6: the defender fires first (GL 11.18), so the attacker wins a round when
  // the defender's dd dice all miss and any of its da dice hits; the rounds where both miss
  // repeat. P(attacker wins) = m_d (1 - m_a) / (1 - m_d m_a), m = (5/6)^dice: 5/11 for one die each.
  for (const auto& [attacker_dice, defender_dice] : {std::pair{1, 1}, std::pair{2, 3}, std::pair{4, 1}}) {
    const auto o = gl::sweep_battle_outcomes(duel(make_unit("A", 1, attacker_dice), make_unit("D", 1, defender_dice)));
    ASSERT_TRUE(o.has_value());
    const double miss_a = std::pow(5.0 / 6, attacker_dice), miss_d = std::pow(5.0 / 6, defender_dice);
    const double wins = miss_d * (1 - miss_a) / (1 - miss_d * miss_a);
    EXPECT_NEAR(o->attacker_wins, wins, sweep_tight) << attacker_dice << " v " << defender_dice;
    EXPECT_NEAR(o->defender_holds, 1 - wins, sweep_tight);
    EXPECT_EQ(o->stalemate, 0.0);
  }
  const auto one_each = gl::sweep_battle_outcomes(duel(make_unit("A", 1, 1), make_unit("D", 1, 1)));
  EXPECT_NEAR(one_each->attacker_wins, 5.0 / 11, sweep_tight);
}

TEST(GreatLakesColumnSweep, NobodyCanHitIsAStalemate) {
  // Units with no dice (RULINGS "stalemate"): the battle cannot be decided.
  const auto o = gl::sweep_battle_outcomes(duel(make_unit("A", 2, 0), make_unit("D", 2, 0)));
  ASSERT_TRUE(o.has_value());
  EXPECT_NEAR(o->stalemate, 1.0, sweep_tight);
  EXPECT_EQ(o->attacker_wins, 0.0);
}

TEST(GreatLakesColumnSweep, RefusesWhatItDoesNotPlayYet) {
  const gl::battle plain = duel(make_unit("A", 2, 1, 4), make_unit("D", 2, 1, 4));
  ASSERT_TRUE(gl::sweep_battle_outcomes(plain).has_value());
  gl::battle retreats = plain;
  retreats.attacker.retreat = {gl::retreat_kind::line_sp_at_most, 1};
  EXPECT_FALSE(gl::sweep_battle_outcomes(retreats).has_value());
  gl::battle crossing = plain;
  crossing.attacker.units[0].crossed = gl::crossing::river;
  EXPECT_FALSE(gl::sweep_battle_outcomes(crossing).has_value());
  gl::battle reinforced = plain;
  reinforced.defender.reinforcements.push_back({make_unit("R", 1, 1), false});
  EXPECT_FALSE(gl::sweep_battle_outcomes(reinforced).has_value());
  gl::battle game = plain;
  game.defender.hit_allocation.kind = gl::hit_allocation_kind::optimal;
  EXPECT_FALSE(gl::sweep_battle_outcomes(game).has_value());
}

// Random battles of one to three units a side (SP 1-4, dice 0-3, morale 2-6), with or without
// leaders (rerolls), a fort and the concentrate allocation: the sweep and solve_exact (its oracle
// tests in battle_test.cpp) agree on who wins.
TEST(GreatLakesColumnSweep, AgreesWithTheExactEngine) {
  std::mt19937 random(1814);
  auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(random); };
  const gl::unit_type types[] = {gl::unit_type::regular, gl::unit_type::militia, gl::unit_type::artillery};
  for (int trial = 0; trial < 40; ++trial) {
    gl::battle b;
    b.attacker.side = gl::nation::american;
    b.defender.side = gl::nation::british;
    for (auto* army : {&b.attacker, &b.defender}) {
      const int units = pick(1, 3);
      for (int i = 0; i < units; ++i) {
        const int sp = pick(1, 4);
        army->units.push_back(make_unit((army == &b.attacker ? "a" : "d") + std::to_string(i), sp, pick(0, 3),
                                        pick(2, 6), types[pick(0, 2)]));
        army->units.back().max_sp = sp + pick(0, 1);
      }
      if (pick(0, 1) == 1) army->hit_allocation.kind = gl::hit_allocation_kind::concentrate;
    }
    if (pick(0, 1) == 1) b.attacker.leaders = {"Brown"};
    if (pick(0, 1) == 1) b.defender.leaders = {"Drummond"};
    if (pick(0, 2) == 2) b.defender.fortification = gl::fort{pick(1, 2), pick(1, 2), pick(3, 5), false};
    const auto sweep = gl::sweep_battle_outcomes(b);
    ASSERT_TRUE(sweep.has_value()) << "trial " << trial;
    const auto exact = gl::solve_exact(b);
    EXPECT_NEAR(sweep->attacker_wins, exact.attacker_wins, sweep_tight) << "trial " << trial;
    EXPECT_NEAR(sweep->defender_holds, exact.defender_holds, sweep_tight) << "trial " << trial;
    EXPECT_NEAR(sweep->stalemate, exact[gl::battle_end::stalemate], sweep_tight) << "trial " << trial;
  }
}

// Issue 20's 5 v 4 Niagara battle less the dragoon, the guns and the Mohawk (docs/benchmarks.md's
// "4 v 3": 7,308 folded states): the sweep and solve_exact agree.
TEST(GreatLakesColumnSweep, AgreesOnASmallerNiagaraBattle) {
  gl::battle b;
  b.attacker.side = gl::nation::american;
  b.defender.side = gl::nation::british;
  b.attacker.units = {make_unit("11th", 4, 3, 5), make_unit("21st", 4, 3, 5),
                      make_unit("NYMil", 3, 2, 3, gl::unit_type::militia)};
  b.attacker.units[2].max_sp = 4;
  b.defender.units = {make_unit("100th", 4, 4, 5), make_unit("41st", 4, 3, 5),
                      make_unit("Glengarry", 3, 2, 4, gl::unit_type::militia)};
  b.defender.fortification = gl::fort{2, 2, 4, false};
  b.attacker.leaders = {"Brown"};
  b.defender.leaders = {"Drummond"};
  const auto sweep = gl::sweep_battle_outcomes(b);
  ASSERT_TRUE(sweep.has_value());
  const auto exact = gl::solve_exact(b);
  EXPECT_NEAR(sweep->attacker_wins, exact.attacker_wins, sweep_tight);
  EXPECT_NEAR(sweep->defender_holds, exact.defender_holds, sweep_tight);
  // Each pair of side parts is one folded state of solve_exact's, at most.
  EXPECT_LE(static_cast<double>(exact.method.states),
            static_cast<double>(sweep->attacker_parts) * static_cast<double>(sweep->defender_parts));
}

}  // namespace
