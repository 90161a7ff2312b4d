// War Along the Great Lakes battles: small cases worked by hand (the working is in each comment),
// the closed-form recursion for single-SP blocks, invariants, and exact v simulation.
#include "calc/great_lakes/battle.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <map>
#include <random>
#include <thread>
#include <tuple>

#include "calc/great_lakes/rules/round.hpp"
#include "core/invalid_input.hpp"
#include "core/markov_chain.hpp"
#include "tests/great_lakes/battle_builders.hpp"

namespace gl = musket::great_lakes;
using gl::battle_end;

namespace {

using gl::testing::duel;
using gl::testing::make_unit;

double sum(const std::vector<double>& v) {
  double s = 0;
  for (double x : v) s += x;
  return s;
}

constexpr double tight = 1e-12;

}  // namespace

TEST(GreatLakesBattle, OneUnitEachSingleSp) {
  // 1 SP, 1 die, morale 6 each. A round is decisive unless both miss (25/36). The defender fires
  // first: the attacker wins when the defender misses and it hits, 5/36 of a round, so
  // P(attacker wins) = (5/36) / (11/36) = 5/11. Both lose by elimination (nobody is left to
  // retreat). Rounds are geometric with p = 11/36: mean 36/11.
  const auto r = gl::solve_exact(duel(make_unit("A", 1, 1), make_unit("D", 1, 1)));
  EXPECT_NEAR(r.attacker_wins, 5.0 / 11, tight);
  EXPECT_NEAR(r[battle_end::defender_eliminated], 5.0 / 11, tight);
  EXPECT_NEAR(r[battle_end::attacker_eliminated], 6.0 / 11, tight);
  EXPECT_NEAR(r.rounds_mean, 36.0 / 11, 1e-10);
  ASSERT_GE(r.rounds_distribution.size(), 3u);
  EXPECT_NEAR(r.rounds_distribution[0], 11.0 / 36, tight);
  EXPECT_NEAR(r.rounds_distribution[2], 25.0 / 36 * 25.0 / 36 * 11.0 / 36, tight);
  ASSERT_EQ(r.attacker_sp_lost.size(), 2u);
  EXPECT_NEAR(r.attacker_sp_lost[1], 6.0 / 11, tight);
  EXPECT_NEAR(r.units[0].survives, 5.0 / 11, tight);
  EXPECT_NEAR(r.units[1].expected_sp, 6.0 / 11, tight);
  EXPECT_FALSE(r.garrison_eliminated.has_value());
}

TEST(GreatLakesBattle, GarrisonAloneFailsMorale) {
  // A fort with no defending units: the garrison (2 SP, 0 dice, morale 3) against one 1-die
  // attacker. The first hit (after a geometric wait, mean 6 rounds) leaves it 1 SP and it rolls
  // morale: 4-6 (1/2) fails, which eliminates it; otherwise the next hit (mean 6 more) does.
  // Either way the defender has nobody left: defender_eliminated = 1, garrison lost 2 SP,
  // fails_morale = 1/2, mean rounds = 6 + 6/2 = 9.
  gl::battle b;
  b.attacker.side = gl::nation::british;
  b.defender.side = gl::nation::american;
  b.attacker.units.push_back(make_unit("A", 1, 1));
  b.defender.fortification = gl::fort{0, 2, 3, false};
  const auto r = gl::solve_exact(b);
  EXPECT_NEAR(r[battle_end::defender_eliminated], 1.0, tight);
  ASSERT_TRUE(r.garrison_eliminated.has_value());
  EXPECT_NEAR(*r.garrison_eliminated, 1.0, tight);
  ASSERT_EQ(r.defender_sp_lost.size(), 3u);
  EXPECT_NEAR(r.defender_sp_lost[2], 1.0, tight);
  EXPECT_NEAR(r.units[1].fails_morale, 0.5, tight);
  EXPECT_EQ(r.units[1].name, "garrison");
  EXPECT_NEAR(r.rounds_mean, 9.0, 1e-9);
}

// A 2-SP, morale-4, diceless attacker against one 1-die defender: every hit comes alone. The first
// hit leaves it 1 SP and it rolls morale: 5-6 (1/3) fails -> forced retreat, where the defender's
// retreat fire (1 die, on 6) eliminates it 1/6 of the time; a pass (2/3) means the next hit
// eliminates it. So forced retreat 1/3 * 5/6 = 5/18, eliminated 1/3 * 1/6 + 2/3 = 13/18, and
// mean rounds 6 + (2/3) 6 = 10.
gl::battle morale_chain() {
  return duel(make_unit("A", 2, 0, 4), make_unit("D", 1, 1));
}

TEST(GreatLakesBattle, MoraleFailureThenForcedRetreatFire) {
  const auto r = gl::solve_exact(morale_chain());
  EXPECT_NEAR(r[battle_end::attacker_forced_retreat], 5.0 / 18, tight);
  EXPECT_NEAR(r[battle_end::attacker_eliminated], 13.0 / 18, tight);
  EXPECT_NEAR(r.units[0].fails_morale, 1.0 / 3, tight);
  EXPECT_NEAR(r.rounds_mean, 10.0, 1e-9);
}

TEST(GreatLakesBattle, RerollSavesOneFailedDie) {
  // Brown's reroll: the single failed die is rolled again and fails again 1/3 of the time, so
  // the morale failure falls to 1/9 and forced retreat to 1/9 * 5/6 = 5/54.
  auto b = morale_chain();
  b.attacker.leaders = {"Brown"};
  const auto r = gl::solve_exact(b);
  EXPECT_NEAR(r.units[0].fails_morale, 1.0 / 9, tight);
  EXPECT_NEAR(r[battle_end::attacker_forced_retreat], 5.0 / 54, tight);
  // A British leader on the American side grants nothing.
  b.attacker.leaders = {"Drummond"};
  EXPECT_NEAR(gl::solve_exact(b).units[0].fails_morale, 1.0 / 3, tight);
}

TEST(GreatLakesBattle, RetreatFireAcrossTheNiagaraHitsOnFiveOrSix) {
  // As the morale chain, but the retreat fire hits on 5-6 (1/3): forced retreat 1/3 * 2/3 = 2/9.
  auto b = morale_chain();
  b.niagara = true;
  const auto r = gl::solve_exact(b);
  EXPECT_NEAR(r[battle_end::attacker_forced_retreat], 2.0 / 9, tight);
  EXPECT_NEAR(r[battle_end::attacker_eliminated], 7.0 / 9, tight);
}

TEST(GreatLakesBattle, NoRetreatRouteEliminatesTheRetreatingSide) {
  auto b = morale_chain();
  b.attacker.retreat_route = false;
  EXPECT_NEAR(gl::solve_exact(b)[battle_end::attacker_eliminated], 1.0, tight);
}

TEST(GreatLakesBattle, VoluntaryRetreatDrawsOneDiePerLineUnit) {
  // A 1-SP diceless attacker that retreats at line SP <= 1 against a 3-die defender. Round 1:
  // the defender hits at least once with 1 - (5/6)^3 = 91/216 (eliminated); otherwise the attacker
  // retreats and the defender's one line unit fires ONE die: eliminated 1/6 of the time.
  auto b = duel(make_unit("A", 1, 0), make_unit("D", 1, 3));
  b.attacker.retreat = {gl::retreat_kind::line_sp_at_most, 1};
  const auto r = gl::solve_exact(b);
  EXPECT_NEAR(r[battle_end::attacker_eliminated], 91.0 / 216 + 125.0 / 216 / 6, tight);
  EXPECT_NEAR(r[battle_end::attacker_voluntary_retreat], 125.0 / 216 * 5 / 6, tight);
  EXPECT_NEAR(r.rounds_mean, 1.0, tight);
}

TEST(GreatLakesBattle, WeakerPolicyComparesLineSp) {
  // Defender 1 SP v attacker 2 SP, nobody has dice but the attacker's ship (1 die). After round 1
  // the defender's line SP (1) < the attacker's (2): `weaker` retreats at once (unless the ship's
  // 1/6 hit eliminated it first). Retreat fire is one die per line unit of the attacker, its
  // diceless one included (GL 12.2, RULINGS), the ship never: a 6 (1/6) eliminates the defender.
  // So eliminated 1/6 + 5/6 * 1/6 = 11/36, voluntary retreat 5/6 * 5/6 = 25/36.
  auto b = duel(make_unit("A", 2, 0), make_unit("D", 1, 0));
  b.attacker.ship_dice = 1;
  b.defender.retreat = {gl::retreat_kind::weaker, 0};
  const auto r = gl::solve_exact(b);
  EXPECT_NEAR(r[battle_end::defender_eliminated], 11.0 / 36, tight);
  EXPECT_NEAR(r[battle_end::defender_voluntary_retreat], 25.0 / 36, tight);
}

// Issue 13's duel: both 1 SP, morale 6, no dice; the defender retreats at line SP <= 1. Round 1
// nobody fires (0 dice), nobody is hit, so no morale; the attacker never retreats; the defender's
// line SP is 1 <= 1, so it retreats voluntarily. GL 12.2: each line unit of the attacker rolls one
// die whatever its printed dice (0 here): a 6 (1/6) takes the defender's only SP, which counts as
// eliminated (RULINGS: nobody left alive); otherwise (5/6) it is a voluntary retreat, in round 1.
TEST(GreatLakesBattle, VoluntaryRetreatFireFromADicelessUnit) {
  auto b = duel(make_unit("A", 1, 0), make_unit("D", 1, 0));
  b.defender.retreat = {gl::retreat_kind::line_sp_at_most, 1};
  gl::exact_options plain;
  plain.fold_out_units = false;
  for (const auto& r : {gl::solve_exact(b), gl::solve_exact(b, plain)}) {
    EXPECT_NEAR(r[battle_end::defender_eliminated], 1.0 / 6, tight);
    EXPECT_NEAR(r[battle_end::defender_voluntary_retreat], 5.0 / 6, tight);
    EXPECT_NEAR(r.units[1].survives, 5.0 / 6, tight);
    EXPECT_NEAR(r.rounds_mean, 1.0, tight);
  }
  musket::simulation_options options;
  options.trials = 60'000;
  options.seed = 13;
  const auto sim = gl::simulate(b, options);
  EXPECT_NEAR(sim[battle_end::defender_eliminated], 1.0 / 6, 4 * std::sqrt(5.0 / 36 / 60'000));
}

// Issue 37: the same with two diceless attackers, more retreat dice (2) than any fire of the battle
// rolls (none: the tables were built for 1 die, and the second row read nothing). Round 1 nobody
// fires; the defender (line SP 1 <= 1) retreats under one die per attacking line unit, 2 dice: a 6
// among them, 1 - (5/6)^2 = 11/36, takes its only SP (eliminated); otherwise 25/36 a voluntary
// retreat. (Each test runs in a process of its own, so no earlier battle has built the rows.)
TEST(GreatLakesBattle, VoluntaryRetreatFireOfTwoDicelessUnitsRollsTwoDice) {
  auto b = duel(make_unit("A1", 1, 0), make_unit("D", 1, 0));
  b.attacker.units.push_back(make_unit("A2", 1, 0));
  b.defender.retreat = {gl::retreat_kind::line_sp_at_most, 1};
  gl::exact_options plain;
  plain.fold_out_units = false;
  for (const auto& r : {gl::solve_exact(b), gl::solve_exact(b, plain)}) {
    EXPECT_NEAR(r[battle_end::defender_eliminated], 11.0 / 36, tight);
    EXPECT_NEAR(r[battle_end::defender_voluntary_retreat], 25.0 / 36, tight);
    EXPECT_NEAR(sum(r.defender_sp_lost), 1.0, tight);
    EXPECT_NEAR(r.rounds_mean, 1.0, tight);
  }
  musket::simulation_options options;  // (it read a sampler never set up: a crash)
  options.trials = 60'000;
  options.seed = 37;
  const auto sim = gl::simulate(b, options);
  EXPECT_NEAR(sim[battle_end::defender_eliminated], 11.0 / 36, 4 * std::sqrt(11.0 * 25 / 36 / 36 / 60'000));
}

// GL 12.2 with RULINGS: retreat-fire hits fall on the retreating side's line and failed-morale
// units as one pool (no line first), one hit to each before any second, most SP first, then
// listing order. Attacker: Big (2 SP, morale 1, no dice) listed before Small (1 SP, morale 6, no
// dice), retreating at line SP <= 2; the defender's one unit has 1 die. A round: the defender hits
// 1/6 (else nothing changes and the round is played again, so in the end a hit comes, with
// probability 1); the hit goes to Big (most SP), leaving it 1 SP; it rolls morale, one die,
// failing on 2-6 (5/6). Either way the attacker's line SP is now 1 or 2 (<= 2): it retreats, under
// one die of retreat fire (the defender's one line unit), a 6 (1/6) hitting the pool:
//   Big failed (5/6): pool Big 1 SP (failed), Small 1 SP (line): a tie in SP, Big listed first
//     takes it (line first, the old reading, would have hit Small).
//   Big passed (1/6): both in the line with 1 SP: Big listed first takes it too.
// So Small always survives; Big survives 1 - 1/6 = 5/6 (the old reading: Small 1 - 5/36 = 31/36,
// Big 35/36). At most one SP is lost in the retreat, so it is always a voluntary retreat;
// Big fails morale 5/6; each policy takes the single hit on the best of the first sweep, so
// `concentrate` gives the same.
TEST(GreatLakesBattle, RetreatFireHitsLineAndFailedUnitsAsOnePool) {
  gl::battle b = duel(make_unit("Big", 2, 0, 1), make_unit("D", 1, 1));
  b.attacker.units.push_back(make_unit("Small", 1, 0));
  b.attacker.retreat = {gl::retreat_kind::line_sp_at_most, 2};
  gl::exact_options plain;
  plain.fold_out_units = false;
  for (auto policy : {gl::hit_allocation_kind::rulings, gl::hit_allocation_kind::concentrate}) {
    b.attacker.hit_allocation.kind = policy;
    for (const auto& r : {gl::solve_exact(b), gl::solve_exact(b, plain)}) {
      SCOPED_TRACE(gl::to_string(policy));
      ASSERT_EQ(r.units[1].name, "Small");
      EXPECT_NEAR(r.units[0].survives, 5.0 / 6, tight);
      EXPECT_NEAR(r.units[0].expected_sp, 5.0 / 6, tight);
      EXPECT_NEAR(r.units[0].fails_morale, 5.0 / 6, tight);
      EXPECT_NEAR(r.units[1].survives, 1.0, tight);
      EXPECT_NEAR(r[battle_end::attacker_voluntary_retreat], 1.0, tight);
    }
    musket::simulation_options options;
    options.trials = 60'000;
    options.seed = 12;
    const auto sim = gl::simulate(b, options);
    EXPECT_NEAR(sim.units[1].survives, 1.0, 1e-12);
    EXPECT_NEAR(sim.units[0].survives, 5.0 / 6, 4 * std::sqrt(5.0 / 36 / 60'000));
  }
}

TEST(GreatLakesBattle, RiverPenaltyOnlyInRoundOne) {
  // A 1-die attacker that crossed a river rolls nothing in round 1, then hits 1/6 a round against
  // a diceless defender: it always wins, in 1 + 6 = 7 rounds on average.
  auto a = make_unit("A", 1, 1);
  a.crossed = gl::crossing::river;
  const auto r = gl::solve_exact(duel(a, make_unit("D", 1, 0)));
  EXPECT_NEAR(r.attacker_wins, 1.0, tight);
  EXPECT_NEAR(r.rounds_mean, 7.0, 1e-9);
  EXPECT_NEAR(r.rounds_distribution[0], 0.0, tight);
}

TEST(GreatLakesBattle, ShipDiceFireButCannotBeHit) {
  // A diceless attacker with a 2-die squadron against a diceless defender: the ship hits with
  // 1 - (5/6)^2 = 11/36 a round, so the mean is 36/11 rounds and the attacker always wins.
  auto b = duel(make_unit("A", 1, 0), make_unit("D", 1, 0));
  b.attacker.ship_dice = 2;
  const auto r = gl::solve_exact(b);
  EXPECT_NEAR(r.attacker_wins, 1.0, tight);
  EXPECT_NEAR(r.rounds_mean, 36.0 / 11, 1e-10);
}

TEST(GreatLakesBattle, ReinforcementEntersThenFires) {
  // Nobody fires until the defender's 1-die reinforcement enters (4 in 6 a round, 3 in 6 across
  // the Niagara); it fires from the next round and hits 1/6 a round. Mean rounds 1.5 + 6 = 7.5
  // (2 + 6 = 8 across the Niagara); the diceless attacker is always eliminated.
  auto b = duel(make_unit("A", 1, 0), make_unit("D", 1, 0));
  b.defender.reinforcements.push_back({make_unit("R", 1, 1), false});
  auto r = gl::solve_exact(b);
  EXPECT_NEAR(r[battle_end::attacker_eliminated], 1.0, tight);
  EXPECT_NEAR(r.rounds_mean, 7.5, 1e-9);
  EXPECT_NEAR(r.units[2].survives, 1.0, tight);
  b.defender.reinforcements[0].across_niagara = true;
  r = gl::solve_exact(b);
  EXPECT_NEAR(r.rounds_mean, 8.0, 1e-9);
}

TEST(GreatLakesBattle, NoDiceAnywhereIsAStalemate) {
  const auto r = gl::solve_exact(duel(make_unit("A", 1, 0), make_unit("D", 1, 0)));
  EXPECT_NEAR(r.stalemate, 1.0, tight);
  EXPECT_NEAR(r.rounds_mean, 0.0, tight);
}

// The published-figure check: n single-SP, single-die, morale-6 blocks per side, defender first.
// Independent closed-form recursion: from (a, d) the defender scores h ~ Bin(d, 1/6); if a - h <= 0
// the attacker has lost; else the attacker scores k ~ Bin(a - h, 1/6) and wins if d - k <= 0. The
// one self-loop (h = k = 0, probability (5/6)^(a+d)) is divided out.
double binomial(int n, int k, double p) {
  double c = 1;
  for (int i = 1; i <= k; ++i) c = c * (n - k + i) / i;
  return c * std::pow(p, k) * std::pow(1 - p, n - k);
}

double blocks_attacker_wins(int a, int d, std::map<std::pair<int, int>, double>& memo) {
  if (auto it = memo.find({a, d}); it != memo.end()) return it->second;
  double win = 0, stay = 0;
  for (int h = 0; h <= d; ++h) {
    const int a2 = a - h;
    if (a2 <= 0) continue;
    for (int k = 0; k <= a2; ++k) {
      const double p = binomial(d, h, 1.0 / 6) * binomial(a2, k, 1.0 / 6);
      if (h == 0 && k == 0)
        stay += p;
      else if (d - k <= 0)
        win += p;
      else
        win += p * blocks_attacker_wins(a2, d - k, memo);
    }
  }
  return memo[{a, d}] = win / (1 - stay);
}

gl::battle blocks(int n) {
  gl::battle b;
  b.attacker.side = gl::nation::american;
  b.defender.side = gl::nation::british;
  for (int i = 0; i < n; ++i) {
    b.attacker.units.push_back(make_unit("a" + std::to_string(i), 1, 1));
    b.defender.units.push_back(make_unit("d" + std::to_string(i), 1, 1));
  }
  return b;
}

TEST(GreatLakesBattle, SingleSpBlocksMatchTheClosedFormRecursion) {
  std::map<std::pair<int, int>, double> memo;
  for (int n : {1, 2, 3, 5, 8, 12}) {
    const auto r = gl::solve_exact(blocks(n));
    EXPECT_NEAR(r.attacker_wins, blocks_attacker_wins(n, n, memo), 1e-11) << n << " v " << n;
    EXPECT_NEAR(r.attacker_wins + r.defender_holds, 1.0, 1e-12);
  }
}

gl::battle mixed() {
  gl::battle b;
  b.attacker.side = gl::nation::american;
  b.defender.side = gl::nation::british;
  b.attacker.units = {make_unit("11th", 3, 3, 5), make_unit("Towson", 2, 4, 5, gl::unit_type::artillery),
                      make_unit("NY Militia", 2, 2, 3, gl::unit_type::militia)};
  b.attacker.units[2].crossed = gl::crossing::river;
  b.attacker.leaders = {"Brown"};
  b.defender.units = {make_unit("104th", 3, 4, 5), make_unit("Lincoln", 2, 2, 3, gl::unit_type::militia)};
  b.defender.fortification = gl::fort{2, 2, 4, false};
  b.defender.reinforcements.push_back({make_unit("Glengarry", 2, 2, 4), true});
  b.defender.retreat = {gl::retreat_kind::line_sp_at_most, 2};
  b.niagara = true;
  return b;
}

TEST(GreatLakesBattle, ProbabilitiesSumToOne) {
  const auto r = gl::solve_exact(mixed());
  EXPECT_NEAR(r.attacker_wins + r.defender_holds + r.stalemate, 1.0, 1e-12);
  EXPECT_NEAR(sum(r.attacker_sp_lost), 1.0, 1e-12);
  EXPECT_NEAR(sum(r.defender_sp_lost), 1.0, 1e-12);
  EXPECT_NEAR(sum(r.rounds_distribution) + r.rounds_tail, 1.0, 1e-9);
  EXPECT_EQ(r.attacker_sp_lost.size(), 3u + 2 + 2 + 1);
  EXPECT_EQ(r.defender_sp_lost.size(), 3u + 2 + 2 + 2 + 1);  // garrison and reinforcement included
  ASSERT_EQ(r.units.size(), 7u);                             // listing order: own units, garrison, reinforcements
  EXPECT_EQ(r.units[5].name, "garrison");
  EXPECT_EQ(r.units[6].name, "Glengarry");
}

TEST(GreatLakesBattle, OneMoreDieNeverLowersTheWinChance) {
  const gl::battle base = mixed();
  for (bool attacker_side : {true, false}) {
    gl::battle b = base;
    b.attacker.retreat = b.defender.retreat = {};  // `never`
    const auto before = gl::solve_exact(b);
    for (std::size_t i = 0; i < 2; ++i) {
      gl::battle more = b;
      (attacker_side ? more.attacker.units : more.defender.units)[i].dice += 1;
      const auto after = gl::solve_exact(more);
      if (attacker_side)
        EXPECT_GE(after.attacker_wins, before.attacker_wins - 1e-12) << i;
      else
        EXPECT_GE(after.defender_holds, before.defender_holds - 1e-12) << i;
    }
  }
}

TEST(GreatLakesBattle, ExactAndSimulationAgreeWithinFourSigma) {
  const gl::battle b = mixed();
  const auto exact = gl::solve_exact(b);
  musket::simulation_options options;
  options.trials = 60'000;
  options.seed = 7;
  const auto sim = gl::simulate(b, options);
  const double n = static_cast<double>(sim.method.trials);
  auto check = [&](double p, double q, const std::string& what) {
    const double sigma = std::sqrt(std::max(p * (1 - p), 1e-12) / n);
    EXPECT_LE(std::abs(p - q), 4 * sigma + 1e-9) << what << " exact " << p << " sim " << q;
  };
  for (std::size_t e = 0; e < 7; ++e) check(exact.ends[e], sim.ends[e], gl::to_string(gl::all_battle_ends[e]));
  for (std::size_t i = 0; i < exact.defender_sp_lost.size(); ++i)
    check(exact.defender_sp_lost[i], sim.defender_sp_lost[i], "defender_sp_lost " + std::to_string(i));
  for (std::size_t u = 0; u < exact.units.size(); ++u) {
    check(exact.units[u].survives, sim.units[u].survives, exact.units[u].name + " survives");
    check(exact.units[u].fails_morale, sim.units[u].fails_morale, exact.units[u].name + " fails morale");
  }
  check(*exact.garrison_eliminated, *sim.garrison_eliminated, "garrison");
  // Every simulated probability carries an interval around its estimate.
  EXPECT_LE(sim.outcomes_interval[0].lower, sim.attacker_wins);
  EXPECT_GE(sim.outcomes_interval[0].upper, sim.attacker_wins);
}

// Hit allocation `concentrate` against the RULINGS default, one round. Defender X (3 SP) and Y
// (2 SP), diceless, morale 6, retreat at line SP <= 100 (so after round 1); the attacker's only
// fire is a 3-die ship, k ~ Bin(3, 1/6): 125, 75, 15, 1 in 216 for k = 0..3. Up to 2 hits both
// policies go X then Y (one each, most SP first). The third hit: RULINGS, fewest hits (tie), most
// current SP: X (2 v 1); concentrate: closest to elimination: Y (1 SP left), eliminated.
// Then the retreat: the attacker's diceless unit rolls one die (GL 12.2), a 6 (1/6) hitting the
// unit with the most SP, ties to the first listed: X in every case (3 v 2, 2 v 2, 2 v 1, 1 v 1 or
// 2 v 0), which it eliminates only from 1 SP (RULINGS, k = 3: 1/216 * 1/6).
//   E[X SP]: RULINGS 3 - (75 + 15 + 2)/216 - 1/6; concentrate 3 - (75 + 15 + 1)/216 - 1/6.
//   E[Y SP]: RULINGS 2 - (15 + 1)/216;            concentrate 2 - (15 + 2)/216.
//   Y survives: RULINGS 1; concentrate 215/216. Losses in total are the same: k + the retreat
//   hit either way; 3 SP lost: k = 3 and a retreat miss, or k = 2 and a hit: (5 + 15)/1296.
TEST(GreatLakesBattle, ConcentratePilesHitsOnTheUnitClosestToElimination) {
  gl::battle b;
  b.attacker.side = gl::nation::american;
  b.defender.side = gl::nation::british;
  b.attacker.units.push_back(make_unit("A", 1, 0));
  b.attacker.ship_dice = 3;
  b.defender.units = {make_unit("X", 3, 0), make_unit("Y", 2, 0)};
  b.defender.retreat = {gl::retreat_kind::line_sp_at_most, 100};
  const auto rulings = gl::solve_exact(b);
  b.defender.hit_allocation.kind = gl::hit_allocation_kind::concentrate;
  const auto concentrate = gl::solve_exact(b);
  EXPECT_NEAR(rulings.units[1].expected_sp, 3 - 92.0 / 216 - 1.0 / 6, tight);
  EXPECT_NEAR(concentrate.units[1].expected_sp, 3 - 91.0 / 216 - 1.0 / 6, tight);
  EXPECT_NEAR(rulings.units[1].survives, 1 - 1.0 / 1296, tight);
  EXPECT_NEAR(rulings.units[2].expected_sp, 2 - 16.0 / 216, tight);
  EXPECT_NEAR(concentrate.units[2].expected_sp, 2 - 17.0 / 216, tight);
  EXPECT_NEAR(rulings.units[2].survives, 1.0, tight);
  EXPECT_NEAR(concentrate.units[2].survives, 215.0 / 216, tight);
  EXPECT_NEAR(concentrate[battle_end::defender_voluntary_retreat], 1.0, tight);
  for (std::size_t k = 0; k <= 3; ++k)
    EXPECT_NEAR(concentrate.defender_sp_lost[k], rulings.defender_sp_lost[k], tight) << k;
  EXPECT_NEAR(concentrate.defender_sp_lost[3], 20.0 / 1296, tight);
  musket::simulation_options options;
  options.trials = 200'000;
  const auto sim = gl::simulate(b, options);
  EXPECT_NEAR(sim.units[2].survives, 215.0 / 216, 4 * std::sqrt(215.0 / 216 / 216 / 200'000));
}

// Reroll policies, one round. Attacker A (2 SP) listed before B (3 SP), both diceless, morale 5
// (a die fails on 6), Brown's one reroll; it retreats after round 1 (line SP <= 100). The
// defender's 2-die ship scores h hits: 25, 10, 1 in 36 for h = 0, 1, 2; one hit goes to B (most
// SP), two to B and A. Each hit unit rolls one die: fails 1/6, a reroll fails again 1/6.
//   h = 1: B fails 1/36 with a reroll (first, largest_unit), 1/6 with none (never).
//   h = 2: A alone fails 5/36, B alone 5/36, both 1/36. `first` rerolls A when both fail
//   (listing order), `largest_unit` B (3 SP > 2). So P(A fails | h = 2) = (5/36)(1/6) + (1/36)(1/6)
//   = 6/216 under first, (5/36)(1/6) + 1/36 = 11/216 under largest_unit, and 1/6 under never;
//   for B the first two swap.
// fails_morale(A) = (1/36) P(A fails | 2); fails_morale(B) = (10/36) P(B fails | 1) + (1/36) P(B fails | 2).
TEST(GreatLakesBattle, ReRollPoliciesChooseWhichUnitIsSaved) {
  gl::battle b;
  b.attacker.side = gl::nation::american;
  b.defender.side = gl::nation::british;
  b.attacker.units = {make_unit("A", 2, 0, 5), make_unit("B", 3, 0, 5)};
  b.attacker.leaders = {"Brown"};
  b.attacker.retreat = {gl::retreat_kind::line_sp_at_most, 100};
  b.defender.units.push_back(make_unit("D", 1, 0));
  b.defender.ship_dice = 2;
  auto run = [&](gl::reroll_kind kind) {
    b.attacker.rerolls.kind = kind;
    return gl::solve_exact(b);
  };
  const auto first = run(gl::reroll_kind::first);
  const auto largest = run(gl::reroll_kind::largest_unit);
  const auto never = run(gl::reroll_kind::never);
  EXPECT_NEAR(first.units[0].fails_morale, 1.0 / 36 * 6 / 216, tight);
  EXPECT_NEAR(largest.units[0].fails_morale, 1.0 / 36 * 11 / 216, tight);
  EXPECT_NEAR(never.units[0].fails_morale, 1.0 / 36 / 6, tight);
  EXPECT_NEAR(first.units[1].fails_morale, 10.0 / 36 / 36 + 1.0 / 36 * 11 / 216, tight);
  EXPECT_NEAR(largest.units[1].fails_morale, 10.0 / 36 / 36 + 1.0 / 36 * 6 / 216, tight);
  EXPECT_NEAR(never.units[1].fails_morale, 10.0 / 36 / 6 + 1.0 / 36 / 6, tight);
  EXPECT_NEAR(largest.rounds_mean, 1.0, tight);
  // The simulation plays the same policy object.
  b.attacker.rerolls.kind = gl::reroll_kind::largest_unit;
  musket::simulation_options options;
  options.trials = 400'000;
  const auto sim = gl::simulate(b, options);
  const double p = 10.0 / 36 / 36 + 1.0 / 36 * 6 / 216;
  EXPECT_NEAR(sim.units[1].fails_morale, p, 4 * std::sqrt(p * (1 - p) / 400'000));
}

// The column sweep (units out of the line carried beside its pairs) against the plain chain over
// every unit's SP and status: two different sums of the same battle, equal to rounding.
void expect_same(const gl::battle_result& a, const gl::battle_result& b, const std::string& what) {
  constexpr double eps = 1e-12;
  for (std::size_t e = 0; e < 7; ++e) EXPECT_NEAR(a.ends[e], b.ends[e], eps) << what << " end " << e;
  ASSERT_EQ(a.attacker_sp_lost.size(), b.attacker_sp_lost.size()) << what;
  ASSERT_EQ(a.defender_sp_lost.size(), b.defender_sp_lost.size()) << what;
  for (std::size_t i = 0; i < a.attacker_sp_lost.size(); ++i)
    EXPECT_NEAR(a.attacker_sp_lost[i], b.attacker_sp_lost[i], eps) << what << " attacker lost " << i;
  for (std::size_t i = 0; i < a.defender_sp_lost.size(); ++i)
    EXPECT_NEAR(a.defender_sp_lost[i], b.defender_sp_lost[i], eps) << what << " defender lost " << i;
  ASSERT_EQ(a.units.size(), b.units.size());
  for (std::size_t u = 0; u < a.units.size(); ++u) {
    EXPECT_NEAR(a.units[u].survives, b.units[u].survives, eps) << what << " " << a.units[u].name;
    EXPECT_NEAR(a.units[u].expected_sp, b.units[u].expected_sp, 1e-11) << what << " " << a.units[u].name;
    EXPECT_NEAR(a.units[u].fails_morale, b.units[u].fails_morale, eps) << what << " " << a.units[u].name;
  }
  EXPECT_EQ(a.garrison_eliminated.has_value(), b.garrison_eliminated.has_value());
  if (a.garrison_eliminated) {
    EXPECT_NEAR(*a.garrison_eliminated, *b.garrison_eliminated, eps) << what;
  }
  EXPECT_NEAR(a.rounds_mean, b.rounds_mean, 1e-10) << what;
  ASSERT_EQ(a.rounds_distribution.size(), b.rounds_distribution.size()) << what;
  for (std::size_t i = 0; i < a.rounds_distribution.size(); ++i)
    EXPECT_NEAR(a.rounds_distribution[i], b.rounds_distribution[i], eps) << what << " round " << i + 1;
}

// GL 11.18 in the RULINGS order: the attacker's fire that takes the defender's whole line ends the
// round at once (step 2), before the attacker checks morale for the hits it took in step 1 (the
// column sweep plays the two halves of a round apart, so it must keep that order). Attacker A:
// 2 SP, 1 die, morale 1 (a morale die fails on 2-6, 5/6); defender D: 1 SP, 1 die, morale 6.
// From A at 1 SP: the defender's hit (1/6) ends A; else A's hit (1/6) wins, else the same again:
// W1 = (5/6)(1/6) / (1 - 25/36) = 5/11. From 2 SP: no hit on A, then A's hit wins (5/36) or the
// same again (25/36); a hit on A (1/6) then A's hit wins before any check (1/36), else A checks:
// fails (5/6, its line gone: it retreats) or passes to 1 SP (1/6):
// W2 (1 - 25/36) = 5/36 + 1/36 + (1/6)(5/6)(1/6) W1, W2 = 421/726. A fails morale only where its
// hit missed: F2 (1 - 25/36) = (1/6)(5/6)(5/6), F2 = 25/66.
TEST(GreatLakesBattle, DefenderLineFallingEndsTheRoundBeforeTheAttackersMorale) {
  const auto b = duel(make_unit("A", 2, 1, 1), make_unit("D", 1, 1));
  gl::exact_options plain;
  plain.fold_out_units = false;
  for (const auto& r : {gl::solve_exact(b), gl::solve_exact(b, plain)}) {
    EXPECT_NEAR(r.attacker_wins, 421.0 / 726, tight);
    EXPECT_NEAR(r.units[0].fails_morale, 25.0 / 66, tight);
  }
}

TEST(GreatLakesBattle, ColumnSweepEqualsThePlainChain) {
  gl::exact_options plain;
  plain.fold_out_units = false;
  std::vector<std::pair<std::string, gl::battle>> cases;
  cases.push_back({"mixed", mixed()});
  gl::battle b = mixed();
  b.attacker.retreat = {gl::retreat_kind::weaker, 0};
  b.defender.retreat = {};
  cases.push_back({"weaker attacker", b});
  b = mixed();
  b.defender.retreat_route = false;
  b.defender.leaders = {"Drummond"};
  cases.push_back({"no route, rerolls on both sides", b});
  b = mixed();
  b.defender.fortification.reset();
  b.attacker.ship_dice = 2;
  b.defender.reinforcements.push_back({make_unit("Incorporated Militia", 2, 1, 3), false});
  cases.push_back({"no fort, ship, two reinforcements", b});
  b = morale_chain();
  cases.push_back({"morale chain", b});
  b = mixed();
  b.attacker.hit_allocation.kind = gl::hit_allocation_kind::concentrate;
  b.defender.hit_allocation.kind = gl::hit_allocation_kind::concentrate;
  b.attacker.rerolls.kind = gl::reroll_kind::largest_unit;
  b.attacker.leaders = {"Brown", "Scott"};
  cases.push_back({"concentrate, largest_unit rerolls", b});
  // Four a side (the benchmarks' mixed 4 v 4).
  b = gl::battle{};
  b.attacker.side = gl::nation::american;
  b.defender.side = gl::nation::british;
  b.attacker.units = {make_unit("21st", 4, 3, 5), make_unit("Towson", 3, 5, 5, gl::unit_type::artillery),
                      make_unit("NY Militia", 3, 2, 3, gl::unit_type::militia),
                      make_unit("Dragoons", 1, 1, 4, gl::unit_type::dragoon)};
  b.defender.units = {make_unit("104th", 4, 4, 5), make_unit("Lincoln", 3, 2, 3, gl::unit_type::militia),
                      make_unit("Royal Artillery", 2, 5, 5, gl::unit_type::artillery),
                      make_unit("19th Dragoons", 1, 2, 5, gl::unit_type::dragoon)};
  b.defender.fortification = gl::fort{2, 2, 4, false};
  cases.push_back({"four a side, fort", b});
  for (const auto& [what, battle] : cases) {
    const auto swept = gl::solve_exact(battle);
    const auto unfolded = gl::solve_exact(battle, plain);
    EXPECT_LE(swept.method.states, unfolded.method.states) << what;
    expect_same(swept, unfolded, what);
  }
}

TEST(GreatLakesBattle, SimulationIsReproducibleWhateverTheThreadCount) {
  musket::simulation_options one, two;
  one.trials = two.trials = 20'000;
  one.threads = 1;
  two.threads = 2;
  one.chunk_trials = two.chunk_trials = 1000;
  const auto a = gl::simulate(mixed(), one), b = gl::simulate(mixed(), two);
  EXPECT_EQ(a.ends, b.ends);
  EXPECT_EQ(a.attacker_sp_lost, b.attacker_sp_lost);
}

TEST(GreatLakesBattle, SimulationReportsProgressAndStopsWhenCancelled) {
  musket::simulation_options options;
  options.trials = 30'000;
  options.chunk_trials = 1000;
  std::atomic<std::uint64_t> progress{0};
  options.progress = &progress;
  auto r = gl::simulate(mixed(), options);
  EXPECT_EQ(progress.load(), 30'000u);  // every finished battle counted
  EXPECT_EQ(r.method.trials, 30'000u);
  EXPECT_FALSE(r.method.cancelled);

  // Cancelled before it starts: nothing run, reported as such, no exception.
  std::atomic<bool> cancel{true};
  options.cancel = &cancel;
  options.progress = nullptr;
  r = gl::simulate(mixed(), options);
  EXPECT_TRUE(r.method.cancelled);
  EXPECT_EQ(r.method.trials, 0u);
  EXPECT_EQ(r.outcomes_interval[0].lower, 0.0);
  EXPECT_EQ(r.outcomes_interval[0].upper, 1.0);

  // Cancelled while running (100M battles would take minutes): stops at a chunk boundary.
  cancel = false;
  progress = 0;
  options.progress = &progress;
  options.trials = 100'000'000;
  options.threads = 2;
  std::thread stopper([&] {
    while (progress.load() == 0) std::this_thread::yield();
    cancel = true;
  });
  r = gl::simulate(mixed(), options);
  stopper.join();
  EXPECT_TRUE(r.method.cancelled);
  EXPECT_GT(r.method.trials, 0u);
  EXPECT_LT(r.method.trials, options.trials);
  EXPECT_EQ(r.method.trials % options.chunk_trials, 0u);
  EXPECT_NEAR(r.attacker_wins + r.defender_holds + r.stalemate, 1.0, 1e-12);  // proportions of trials run
}

// The exact solve honours the same Cancel (checked once per column or state, sweep or plain chain), and a
// flag that is never set changes nothing.
TEST(GreatLakesBattle, ExactSolveStopsWhenCancelled) {
  std::atomic<bool> cancel{true};
  gl::exact_options options;
  options.cancel = &cancel;
  EXPECT_THROW(gl::solve_exact(mixed(), options), gl::solve_cancelled);
  options.fold_out_units = false;
  EXPECT_THROW(gl::solve_exact(mixed(), options), gl::solve_cancelled);
  cancel = false;
  options.fold_out_units = true;
  EXPECT_DOUBLE_EQ(gl::solve_exact(mixed(), options).attacker_wins, gl::solve_exact(mixed()).attacker_wins);
}

TEST(GreatLakesBattle, StateLimitRefusesInsteadOfExhaustingMemory) {
  gl::exact_options options;
  options.state_limit = 50;
  for (const unsigned threads : {1u, 2u}) {
    options.threads = threads;
    EXPECT_THROW(gl::solve_exact(mixed(), options), musket::state_limit_exceeded) << threads << " threads";
  }
}

// Issue 19: the exact solve counts its memory as it grows (the sweep's side lists, moves, mass
// arrays and rounds' window; the plain chain's states, transitions, rows and retreats) and stops
// once the count passes exact_options::memory_limit, sweep or plain chain, on one thread or two; a
// bound at the count a finished solve reports lets it finish.
TEST(GreatLakesBattle, MemoryBoundStopsTheSolveOnceItIsPassed) {
  const gl::battle wide = mixed();
  for (const bool swept : {true, false}) {
    gl::exact_options one;
    one.threads = 1;
    one.fold_out_units = swept;
    const auto full = gl::solve_exact(wide, one);
    const std::size_t needed = full.method.memory_bytes;
    ASSERT_GT(needed, std::size_t{1} << 18) << swept;  // past the counter's 64 KB steps
    gl::exact_options at_bound = one;
    at_bound.memory_limit = needed;  // one thread: the same count, in the same order
    EXPECT_EQ(gl::solve_exact(wide, at_bound).attacker_wins, full.attacker_wins) << swept;
    if (swept) {
      // Short of its rounds' window the sweep lists the rounds a round at a time instead: the same
      // answer in less memory.
      gl::exact_options no_window = one;
      no_window.memory_limit = needed - 1;
      const auto stepped = gl::solve_exact(wide, no_window);
      EXPECT_LT(stepped.method.memory_bytes, needed);
      expect_same(stepped, full, "rounds a round at a time");
    }
    for (const unsigned threads : {1u, 2u}) {
      gl::exact_options small = one;
      small.threads = threads;
      // (The sweep's side lists, moves and mass arrays are counted before its window.)
      small.memory_limit = swept ? std::size_t{1} << 16 : needed / 2;
      try {
        gl::solve_exact(wide, small);
        ADD_FAILURE() << "no memory_limit_exceeded, swept " << swept << ", " << threads << " threads";
      } catch (const gl::memory_limit_exceeded& e) {
        EXPECT_EQ(e.limit(), small.memory_limit);
        EXPECT_GT(e.counted(), small.memory_limit);
        EXPECT_LT(e.counted(), needed);  // stopped on the way, not at the end
        // The plain chain finds states breadth first, ahead of playing them: by the time its
        // transitions pass half it may have found them all. (The sweep names its pairs of parts
        // once it knows them, or 0 before.)
        if (!swept) {
          EXPECT_GT(e.states(), 0u);
          EXPECT_LE(e.states(), full.method.states);
        }
      }
    }
  }
}

// Every number of two results, to the last bit.
void expect_identical(const gl::battle_result& a, const gl::battle_result& b, const std::string& what) {
  EXPECT_EQ(a.ends, b.ends) << what;
  EXPECT_EQ(a.attacker_sp_lost, b.attacker_sp_lost) << what;
  EXPECT_EQ(a.defender_sp_lost, b.defender_sp_lost) << what;
  EXPECT_EQ(a.rounds_distribution, b.rounds_distribution) << what;
  EXPECT_EQ(a.rounds_mean, b.rounds_mean) << what;
  EXPECT_EQ(a.garrison_eliminated, b.garrison_eliminated) << what;
  ASSERT_EQ(a.units.size(), b.units.size()) << what;
  for (std::size_t u = 0; u < a.units.size(); ++u) {
    EXPECT_EQ(a.units[u].survives, b.units[u].survives) << what << " " << a.units[u].name;
    EXPECT_EQ(a.units[u].expected_sp, b.units[u].expected_sp) << what << " " << a.units[u].name;
    EXPECT_EQ(a.units[u].fails_morale, b.units[u].fails_morale) << what << " " << a.units[u].name;
  }
  EXPECT_EQ(a.method.states, b.method.states) << what;
}

std::vector<std::pair<std::string, gl::battle>> swept_cases() {
  gl::battle no_route = mixed();
  no_route.defender.retreat_route = false;
  no_route.defender.leaders = {"Drummond"};
  gl::battle weaker = mixed();
  weaker.attacker.retreat = {gl::retreat_kind::weaker, 0};
  gl::battle reinforced = mixed();
  reinforced.defender.fortification.reset();
  reinforced.attacker.ship_dice = 2;
  reinforced.defender.reinforcements.push_back({make_unit("Incorporated Militia", 2, 1, 3), false});
  return {{"mixed", mixed()},
          {"morale chain", morale_chain()},
          {"no route", no_route},
          {"weaker", weaker},
          {"ship and reinforcement", reinforced}};
}

// The sweep and its rounds' distribution side by side on two threads, or in turn on one: each
// makes its sums in one thread in the same order, so every number is the same to the last bit; and
// a Cancel stops either (the stopped one's partner is wound up, nothing leaks or hangs).
TEST(GreatLakesBattle, ExactSolveIsTheSameOnOneThreadOrTwo) {
  for (const auto& [what, battle] : swept_cases()) {
    gl::exact_options one, two;
    one.threads = 1;
    two.threads = 2;
    expect_identical(gl::solve_exact(battle, one), gl::solve_exact(battle, two), what);
  }
  std::atomic<bool> cancel{true};
  gl::exact_options options;
  options.cancel = &cancel;
  options.threads = 2;
  EXPECT_THROW(gl::solve_exact(mixed(), options), gl::solve_cancelled);
}

TEST(GreatLakesBattle, FixedEnginesRefuseOptimalPlay) {
  // Optimal play is a game solved by solve_optimal_play (optimal_play_test.cpp).
  gl::battle b = mixed();
  b.attacker.retreat = {gl::retreat_kind::optimal, 0};
  EXPECT_THROW(gl::solve_exact(b), musket::invalid_input);
  b.attacker.retreat = {};
  b.defender.hit_allocation.kind = gl::hit_allocation_kind::optimal;
  EXPECT_THROW(gl::simulate(b, {}), musket::invalid_input);
}

// GL 11.23 with the RULINGS, hit by hit as the rulings word it: each hit goes to the unit (line
// before failed-morale, SP left) with the fewest hits from this fire, then the most SP now, then
// the fewest dice, then the first listed. The engine's lanes (whole sweeps, then a rank) and its
// rank-by-rank fallback must give every unit the same SP, hits and morale check, and keep the
// side's sums equal to a recount, over many random states of every side size up to nine.
TEST(GreatLakesBattle, RulingsHitAllocationMatchesHitByHit) {
  namespace rd = gl::round;
  std::mt19937 random(1812);
  auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(random); };
  int compared = 0;
  for (int attackers = 1; attackers <= 9; ++attackers) {
    for (int trial = 0; trial < 300; ++trial) {
      gl::battle b;
      b.attacker.side = gl::nation::american;
      b.defender.side = gl::nation::british;
      for (int k = 0; k < attackers; ++k)
        b.attacker.units.push_back(make_unit("a" + std::to_string(k), pick(1, 6), pick(0, 4), pick(1, 6)));
      for (int k = 0, n = pick(1, 3); k < n; ++k)
        b.defender.units.push_back(make_unit("d" + std::to_string(k), pick(1, 4), pick(1, 3)));
      const rd::battle_rules r = rd::compile(b);
      rd::battle_state s = rd::initial_state(r);
      for (int i = r.begin[rd::attacker]; i < r.end[rd::attacker]; ++i) {
        s.sp[i] = static_cast<std::uint8_t>(pick(0, r.units[i].start_sp));
        s.st[i] = pick(0, 3) == 0 ? rd::failed : rd::line;
      }
      const int count = pick(1, 25);
      rd::round_state t = rd::track(r, s);
      rd::hit_counts hits{};
      std::uint32_t checks = 0;
      const int spill = rd::allocate_hits(r, t, hits, rd::attacker, count, checks);

      rd::battle_state want = s;
      std::array<int, rd::max_units> want_hits{};
      int left = count;
      for (; left > 0; --left) {
        int best = -1;
        for (int i = r.begin[rd::attacker]; i < r.end[rd::attacker]; ++i) {
          if (want.sp[i] == 0 || (want.st[i] != rd::line && want.st[i] != rd::failed)) continue;
          auto key = [&](int u) {
            return std::make_tuple(want.st[u] == rd::line, -want_hits[u], int{want.sp[u]}, -r.dice[u]);
          };
          if (best < 0 || key(i) > key(best)) best = i;  // ties: the first listed stays
        }
        if (best < 0) break;
        --want.sp[best];
        ++want_hits[best];
      }
      EXPECT_EQ(spill, left);
      for (int i = r.begin[rd::attacker]; i < r.end[rd::attacker]; ++i) {
        SCOPED_TRACE("attackers " + std::to_string(attackers) + ", trial " + std::to_string(trial) + ", unit " +
                     std::to_string(i));
        EXPECT_EQ(t.s.sp[i], want.sp[i]);
        EXPECT_EQ(hits[i], want_hits[i]);
        const bool checks_morale =
            want_hits[i] > 0 && s.st[i] == rd::line && want.sp[i] > 0 && r.units[i].fail_faces > 0;
        EXPECT_EQ((checks >> i & 1u) != 0, checks_morale);
      }
      const rd::side_sums recount = rd::sums_of(r, t.s, rd::attacker);
      EXPECT_EQ(t.sum[rd::attacker].line_units, recount.line_units);
      EXPECT_EQ(t.sum[rd::attacker].line_dice, recount.line_dice);
      EXPECT_EQ(t.sum[rd::attacker].line_first_dice, recount.line_first_dice);
      EXPECT_EQ(t.sum[rd::attacker].line_sp, recount.line_sp);
      EXPECT_EQ(t.sum[rd::attacker].alive_sp, recount.alive_sp);
      ++compared;
    }
  }
  EXPECT_EQ(compared, 9 * 300);
}
