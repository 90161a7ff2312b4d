// The column sweep (issues 20, 36): against closed forms, and against the plain chain (which keeps
// every unit's SP and status in its states: exact/plain_chain.hpp) on random battles with morale,
// rerolls, forts, ships, no route, retreat policies and reinforcements, every number of the result.
#include "calc/great_lakes/exact/column_sweep.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <random>
#include <string>

#include "calc/great_lakes/exact/cost.hpp"
#include "calc/great_lakes/exact/side_states.hpp"
#include "calc/great_lakes/rules/round.hpp"
#include "core/markov_chain.hpp"
#include "tests/great_lakes/battle_builders.hpp"

namespace gl = musket::great_lakes;
using gl::battle_end;
using gl::testing::duel;
using gl::testing::make_unit;

namespace {

constexpr double sweep_tight = 1e-12;  // (a name of its own: the suite is one unity batch)

// Every number two results report, compared.
void expect_same_result(const gl::battle_result& swept, const gl::battle_result& plain, const std::string& what) {
  const gl::battle_result& folded = plain;
  for (std::size_t e = 0; e < 7; ++e) EXPECT_NEAR(swept.ends[e], folded.ends[e], sweep_tight) << what << " end " << e;
  auto same_list = [&](const std::vector<double>& x, const std::vector<double>& y, const char* name) {
    EXPECT_EQ(x.size(), y.size()) << what << " " << name;
    for (std::size_t i = 0; i < std::min(x.size(), y.size()); ++i)
      EXPECT_NEAR(x[i], y[i], sweep_tight) << what << " " << name << " " << i;
  };
  same_list(swept.attacker_sp_lost, folded.attacker_sp_lost, "attacker SP lost");
  same_list(swept.defender_sp_lost, folded.defender_sp_lost, "defender SP lost");
  same_list(swept.rounds_distribution, folded.rounds_distribution, "rounds");
  EXPECT_NEAR(swept.rounds_mean, folded.rounds_mean, 1e-10) << what;
  EXPECT_NEAR(swept.rounds_tail, folded.rounds_tail, sweep_tight) << what;
  ASSERT_EQ(swept.units.size(), folded.units.size());
  for (std::size_t u = 0; u < swept.units.size(); ++u) {
    EXPECT_NEAR(swept.units[u].survives, folded.units[u].survives, sweep_tight) << what << " unit " << u;
    EXPECT_NEAR(swept.units[u].expected_sp, folded.units[u].expected_sp, sweep_tight) << what << " unit " << u;
    EXPECT_NEAR(swept.units[u].fails_morale, folded.units[u].fails_morale, sweep_tight) << what << " unit " << u;
  }
  ASSERT_EQ(swept.garrison_eliminated.has_value(), folded.garrison_eliminated.has_value());
  if (swept.garrison_eliminated) {
    EXPECT_NEAR(*swept.garrison_eliminated, *folded.garrison_eliminated, sweep_tight);
  }
}

gl::battle_result plain_chain(const gl::battle& b) {
  gl::exact_options options;
  options.fold_out_units = false;
  return gl::solve_exact(b, options);
}

TEST(GreatLakesColumnSweep, OneSpUnitsWinByTheFirstHit) {
  // 1 SP a side, morale 6: the defender fires first (GL 11.18), so the attacker wins a round when
  // the defender's dd dice all miss and any of its da dice hits; the rounds where both miss
  // repeat. With m = (5/6)^dice, P(attacker wins) = m_d (1 - m_a) / (1 - m_d m_a) (5/11 for one
  // die each), and the rounds are geometric: each ends the battle with p = 1 - m_d m_a.
  for (const auto& [attacker_dice, defender_dice] : {std::pair{1, 1}, std::pair{2, 3}, std::pair{4, 1}}) {
    const auto r = gl::solve_by_column_sweep(duel(make_unit("A", 1, attacker_dice), make_unit("D", 1, defender_dice)));
    const double miss_a = std::pow(5.0 / 6, attacker_dice), miss_d = std::pow(5.0 / 6, defender_dice);
    const double wins = miss_d * (1 - miss_a) / (1 - miss_d * miss_a), ends = 1 - miss_d * miss_a;
    EXPECT_NEAR(r.attacker_wins, wins, sweep_tight) << attacker_dice << " v " << defender_dice;
    EXPECT_NEAR(r.defender_holds, 1 - wins, sweep_tight);
    // Nobody is left to retreat: both lose by elimination.
    EXPECT_NEAR(r[battle_end::defender_eliminated], wins, sweep_tight);
    EXPECT_NEAR(r[battle_end::attacker_eliminated], 1 - wins, sweep_tight);
    EXPECT_NEAR(r.rounds_mean, 1 / ends, 1e-10);
    ASSERT_GE(r.rounds_distribution.size(), 3u);
    EXPECT_NEAR(r.rounds_distribution[0], ends, sweep_tight);
    EXPECT_NEAR(r.rounds_distribution[2], (1 - ends) * (1 - ends) * ends, sweep_tight);
    EXPECT_LE(r.rounds_tail, 1e-12);
    EXPECT_NEAR(r.units[0].survives, wins, sweep_tight);
    EXPECT_NEAR(r.units[1].expected_sp, 1 - wins, sweep_tight);
  }
  const auto one_each = gl::solve_by_column_sweep(duel(make_unit("A", 1, 1), make_unit("D", 1, 1)));
  EXPECT_NEAR(one_each.attacker_wins, 5.0 / 11, sweep_tight);
  EXPECT_NEAR(one_each.rounds_mean, 36.0 / 11, 1e-10);
  // With the rounds' distribution left out (a value alone asked): the same ends and mean, no list.
  gl::exact_options no_rounds;
  no_rounds.rounds = false;
  const auto value_alone = gl::solve_by_column_sweep(duel(make_unit("A", 1, 1), make_unit("D", 1, 1)), no_rounds);
  EXPECT_NEAR(value_alone.attacker_wins, 5.0 / 11, sweep_tight);
  EXPECT_NEAR(value_alone.rounds_mean, 36.0 / 11, 1e-10);
  EXPECT_TRUE(value_alone.rounds_distribution.empty());
}

TEST(GreatLakesColumnSweep, NoRoundEndsWhereNoneCan) {
  // Round 1 cannot end this battle: the attackers fire at most 4 dice (a0 one less for its river
  // crossing, GL 11.22) into a line of 7 SP, the defender 3 into 5, and d1 (morale 6) never fails,
  // so neither line is gone after round 1. Its chance is then 0, not a difference of two sums'
  // rounding (it read 2.2e-16, and the rounds' least value 1).
  gl::battle b = duel(make_unit("a0", 2, 3, 4), make_unit("d0", 4, 0, 4, gl::unit_type::militia));
  b.attacker.units[0].crossed = gl::crossing::river;
  b.attacker.units.push_back(make_unit("a1", 3, 2, 6));
  b.defender.units.push_back(make_unit("d1", 3, 3, 6, gl::unit_type::militia));
  b.defender.units[1].max_sp = 4;
  const auto r = gl::solve_by_column_sweep(b);
  ASSERT_GE(r.rounds_distribution.size(), 2u);
  EXPECT_EQ(r.rounds_distribution[0], 0.0);
  EXPECT_GT(r.rounds_distribution[1], 0.0);
}

TEST(GreatLakesColumnSweep, AUnitNeverHitKeepsItsSp) {
  // 2 SP, 1 die, morale 5 (fails on a 6) attacks 1 SP, 0 dice, morale 6, which never fires: the
  // attacker wins when it hits, 1/6 a round, and nothing else can happen. Its morale is never
  // checked (it takes no hit), so it ends with its 2 SP.
  const auto r = gl::solve_by_column_sweep(duel(make_unit("A", 2, 1, 5), make_unit("D", 1, 0)));
  EXPECT_NEAR(r.attacker_wins, 1.0, sweep_tight);
  EXPECT_NEAR(r.units[0].expected_sp, 2.0, sweep_tight);
  EXPECT_NEAR(r.rounds_mean, 6.0, 1e-10);
  // The other way round: the defender (2 SP, 1 die, morale 5) is fired on by 1 SP, 0 dice: it
  // wins by a hit, 1/6 a round (the attacker's line taken, GL 12.1), its own morale never checked.
  const auto held = gl::solve_by_column_sweep(duel(make_unit("A", 1, 0), make_unit("D", 2, 1, 5)));
  EXPECT_NEAR(held.defender_holds, 1.0, sweep_tight);
  EXPECT_NEAR(held[battle_end::attacker_eliminated], 1.0, sweep_tight);
}

TEST(GreatLakesColumnSweep, ADefenderWithoutDiceFallsByHitsOrMorale) {
  // The defender, 2 SP, no dice, morale 2 (fails on 3-6), is hit 1/6 a round: it then checks
  // morale and fails 4/6 of the time (its line gone: the attacker wins), else it stands with 1 SP
  // until the next hit eliminates it. So the attacker always wins, the defender failing 4/6.
  const auto r = gl::solve_by_column_sweep(duel(make_unit("A", 2, 1), make_unit("D", 2, 0, 2)));
  EXPECT_NEAR(r.attacker_wins, 1.0, sweep_tight);
  EXPECT_NEAR(r.units[1].fails_morale, 4.0 / 6, sweep_tight);
  // Nobody has dice at all from the start: a stalemate (RULINGS), no round played.
  const auto none = gl::solve_by_column_sweep(duel(make_unit("A", 2, 0, 3), make_unit("D", 2, 0, 3)));
  EXPECT_EQ(none.stalemate, 1.0);
  EXPECT_EQ(none.rounds_mean, 0.0);
  EXPECT_EQ(none.units[0].expected_sp, 2.0);
}

// GL 12.2 step 4 before GL 13.3: the policy reads the lines as the round's checks leave them,
// before anyone enters. A 1-SP attacker of one die, retreating at line SP <= 1 (at once: its line
// is 1 SP), against a 1-SP defender without dice whose reinforcement R (1 SP, no dice) always
// enters (rating 6). Round 1: the attacker hits (1/6) and takes the defender's line, else the
// round ends and the attacker retreats before R enters, under one die of retreat fire (the
// defender's one line unit, GL 12.2) that eliminates it 1/6. R never enters.
TEST(GreatLakesColumnSweep, PlaysARetreatPolicyBeforeTheReinforcement) {
  gl::battle b = duel(make_unit("A", 1, 1, 6), make_unit("D", 1, 0, 6));
  b.attacker.retreat = {gl::retreat_kind::line_sp_at_most, 1};
  b.defender.reinforcements.push_back({make_unit("R", 1, 0, 6), false});
  b.defender.reinforcement_rating = 6;
  const auto r = gl::solve_by_column_sweep(b);
  EXPECT_NEAR(r.attacker_wins, 1.0 / 6, sweep_tight);
  EXPECT_NEAR(r.ends[static_cast<std::size_t>(battle_end::attacker_voluntary_retreat)], 5.0 / 6 * 5 / 6, sweep_tight);
  EXPECT_NEAR(r.ends[static_cast<std::size_t>(battle_end::attacker_eliminated)], 5.0 / 6 / 6, sweep_tight);
  EXPECT_NEAR(r.rounds_mean, 1.0, 1e-12);
  EXPECT_NEAR(r.units[2].expected_sp, 1.0, sweep_tight);  // R, never entered, keeps its SP
  expect_same_result(r, plain_chain(b), "policy before reinforcement");
}

// GL 12.2 step 4 with RULINGS' policies, 2-SP units of one die that never fail morale (6), hits on
// a 6. The attacker retreats at line SP <= 1. From (2, 2) a round leaves with 11/36: the attacker
// hit (6/36) retreats; the defender alone hit (5/36) goes to (2, 1), from which the attacker wins
// when it hits (6/36 a round, its fire ending the round) and retreats when only it is hit (5/36):
// wins 5/11 x 6/11 = 30/121, retreats 91/121, under one die of retreat fire (the defender's one
// line unit) that eliminates it 1/6. Rounds: 36/11 at (2, 2), 36/11 at (2, 1) with 5/11.
TEST(GreatLakesColumnSweep, PlaysARetreatThreshold) {
  gl::battle b = duel(make_unit("A", 2, 1, 6), make_unit("D", 2, 1, 6));
  b.attacker.retreat = {gl::retreat_kind::line_sp_at_most, 1};
  const auto r = gl::solve_by_column_sweep(b);
  EXPECT_NEAR(r.attacker_wins, 30.0 / 121, sweep_tight);
  EXPECT_NEAR(r.ends[static_cast<std::size_t>(battle_end::attacker_voluntary_retreat)], 91.0 / 121 * 5 / 6,
              sweep_tight);
  EXPECT_NEAR(r.ends[static_cast<std::size_t>(battle_end::attacker_eliminated)], 91.0 / 121 / 6, sweep_tight);
  EXPECT_NEAR(r.rounds_mean, 36.0 / 11 * (1 + 5.0 / 11), 1e-12);
  expect_same_result(r, plain_chain(b), "threshold");
}

// A start the policy leaves after round 1 (its both-miss is a retreat, not a self-loop): a 1-SP
// attacker, `weaker` against a 2-SP defender. Round 1: the defender's hit (1/6) takes its line;
// else its own hit (5/36) makes (1, 1), no longer weaker, where it wins 5/11 (the defender first);
// else (25/36) it retreats under one die. Rounds: 1 + 5/36 x 36/11.
TEST(GreatLakesColumnSweep, PlaysARetreatFromTheStart) {
  gl::battle b = duel(make_unit("A", 1, 1, 6), make_unit("D", 2, 1, 6));
  b.attacker.retreat = {gl::retreat_kind::weaker, 0};
  const auto r = gl::solve_by_column_sweep(b);
  EXPECT_NEAR(r.attacker_wins, 5.0 / 36 * 5 / 11, sweep_tight);
  EXPECT_NEAR(r.ends[static_cast<std::size_t>(battle_end::attacker_voluntary_retreat)], 25.0 / 36 * 5 / 6, sweep_tight);
  EXPECT_NEAR(r.rounds_mean, 1 + 5.0 / 11, 1e-12);
  ASSERT_GE(r.rounds_distribution.size(), 2u);
  EXPECT_NEAR(r.rounds_distribution[0], 1 - 5.0 / 36, sweep_tight);
  expect_same_result(r, plain_chain(b), "from the start");
}

// GL 13.3: a 1-SP attacker of one die against a 1-SP defender without dice whose reinforcement R
// (1 SP, no dice, rating 4: enters on 4 faces) waits. Before R enters, a hit takes the line (1/6);
// a miss lets R enter (5/6 x 4/6) or not: 18/13 rounds there, R entered 10/13. Then two hits, one
// a unit (GL 11.23), each 6 rounds. The attacker always wins: 18/13 + 10/13 x 12 rounds.
TEST(GreatLakesColumnSweep, PlaysAReinforcement) {
  gl::battle b = duel(make_unit("A", 1, 1, 6), make_unit("D", 1, 0, 6));
  b.defender.reinforcements.push_back({make_unit("R", 1, 0, 6), false});
  const auto r = gl::solve_by_column_sweep(b);
  EXPECT_NEAR(r.attacker_wins, 1.0, sweep_tight);
  EXPECT_NEAR(r.rounds_mean, 18.0 / 13 + 10.0 / 13 * 12, 1e-10);
  ASSERT_GE(r.rounds_distribution.size(), 2u);
  EXPECT_NEAR(r.rounds_distribution[0], 1.0 / 6, sweep_tight);
  expect_same_result(r, plain_chain(b), "reinforcement");
  // Rated 6, R always enters after round 1's miss: 1 + 5/6 x 12 rounds.
  b.defender.reinforcement_rating = 6;
  const auto always = gl::solve_by_column_sweep(b);
  EXPECT_NEAR(always.rounds_mean, 1 + 5.0 / 6 * 12, 1e-10);
  expect_same_result(always, plain_chain(b), "reinforcement that always enters");
}

// The attacker's reinforcement, which the sweep adds where the round's end lets the battle go on
// (both halves, and the rounds' window and steps): morale, hits on both sides, against the chain.
TEST(GreatLakesColumnSweep, AgreesOnAnAttackersReinforcement) {
  gl::battle b = duel(make_unit("A", 2, 1, 4), make_unit("D", 3, 1, 4));
  b.attacker.reinforcements.push_back({make_unit("R", 2, 1, 4), false});
  const auto swept = gl::solve_by_column_sweep(b);
  expect_same_result(swept, plain_chain(b), "the attacker's reinforcement");
}

// Short of the memory its rounds' window needs, the sweep lists the rounds a round at a time, round
// 1 from the start with its own dice where attackers crossed (GL 11.22): the same numbers as the
// plain chain, a retreat policy beside a reinforcement included.
TEST(GreatLakesColumnSweep, ListsTheRoundsARoundAtATimeShortOfTheWindow) {
  gl::battle b = duel(make_unit("A", 3, 2, 4), make_unit("D", 3, 2, 4));
  b.attacker.units.push_back(make_unit("B", 2, 1, 3, gl::unit_type::militia));
  b.attacker.units[0].crossed = gl::crossing::river;
  b.attacker.retreat = {gl::retreat_kind::line_sp_at_most, 2};
  b.defender.reinforcements.push_back({make_unit("R", 2, 1, 5), false});
  gl::exact_options one;
  one.threads = 1;
  const auto full = gl::solve_by_column_sweep(b, one);
  gl::exact_options short_of_window = one;
  short_of_window.memory_limit = full.method.memory_bytes - 1;
  const auto stepped = gl::solve_by_column_sweep(b, short_of_window);
  EXPECT_LT(stepped.method.memory_bytes, full.method.memory_bytes);
  expect_same_result(stepped, plain_chain(b), "a round at a time");
  expect_same_result(full, plain_chain(b), "the window");
}

TEST(GreatLakesColumnSweep, StopsAtItsLimits) {
  const gl::battle b = duel(make_unit("A", 4, 2, 4), make_unit("D", 4, 2, 4));
  gl::exact_options few_states;
  few_states.state_limit = 3;
  EXPECT_THROW((void)gl::solve_by_column_sweep(b, few_states), musket::state_limit_exceeded);
  gl::exact_options little_memory;
  little_memory.memory_limit = 16;
  EXPECT_THROW((void)gl::solve_by_column_sweep(b, little_memory), gl::memory_limit_exceeded);
  std::atomic<bool> cancel{true};
  gl::exact_options cancelled;
  cancelled.cancel = &cancel;
  EXPECT_THROW((void)gl::solve_by_column_sweep(b, cancelled), gl::solve_cancelled);
}

// Each side is listed alone once (exact/side_states.hpp): the cost prediction reads the lists and
// the sweep plays them. A duel of two 4 SP regulars of morale 4 (each can fail: one state a side per
// SP 1-4 in the line, plus the line gone) solved from the prediction's lists equals the sweep's own
// listing on every number; a listing stopped short (a limit of 2 states) is not played, the sweep
// lists the sides itself; a state limit below the lists' states still stops the solve.
TEST(GreatLakesColumnSweep, PlaysTheSidesThePredictionListed) {
  gl::battle b = duel(make_unit("A", 4, 2, 4), make_unit("D", 4, 2, 4));
  b.defender.reinforcements.push_back({make_unit("R", 2, 1, 5), false});
  const auto r = gl::round::compile(b);
  const auto listed = gl::sweep::list_battle_sides(r, 1000);
  ASSERT_TRUE(listed.complete);
  EXPECT_EQ(gl::predict_exact_cost(r, listed).side_states[0], 4u);  // (SP 4, 3, 2, 1; the line gone ends it)
  const auto own = gl::solve_by_column_sweep(b);
  expect_same_result(gl::solve_by_column_sweep(b, {}, &listed), own, "listed by the prediction");
  const auto short_list = gl::sweep::list_battle_sides(r, 2);
  EXPECT_FALSE(short_list.complete);
  expect_same_result(gl::solve_by_column_sweep(b, {}, &short_list), own, "listed short");
  gl::exact_options few_states;
  few_states.state_limit = 3;
  EXPECT_THROW((void)gl::solve_by_column_sweep(b, few_states, &listed), musket::state_limit_exceeded);
}

// Random battles of one to three units a side (SP 1-4, dice 0-3, morale 2-6), with or without
// leaders (rerolls), a fort, a ship, no route, the Niagara, a river crossing, the concentrate
// allocation, retreat policies, reinforcements (one that never enters among them: rating 0), and
// both at once: the sweep and the plain chain agree on every number.
TEST(GreatLakesColumnSweep, AgreesWithThePlainChain) {
  std::mt19937 random(1814);
  auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(random); };
  const gl::unit_type types[] = {gl::unit_type::regular, gl::unit_type::militia, gl::unit_type::artillery};
  int both = 0;
  for (int trial = 0; trial < 120; ++trial) {
    gl::battle b;
    b.attacker.side = gl::nation::american;
    b.defender.side = gl::nation::british;
    const int extra = pick(0, 3);  // 1: retreat policies, 2: reinforcements, 3: both
    for (auto* army : {&b.attacker, &b.defender}) {
      const int units = pick(1, 3);
      for (int i = 0; i < units; ++i) {
        const int sp = pick(1, 4);
        army->units.push_back(make_unit((army == &b.attacker ? "a" : "d") + std::to_string(i), sp, pick(0, 3),
                                        pick(2, 6), types[pick(0, 2)]));
        army->units.back().max_sp = sp + pick(0, 1);
      }
      if (army == &b.attacker && pick(0, 2) == 2) army->units[0].crossed = gl::crossing::river;  // GL 11.22
      if (pick(0, 1) == 1) army->hit_allocation.kind = gl::hit_allocation_kind::concentrate;
      if (pick(0, 3) == 0) army->retreat_route = false;
      if (extra == 1 || extra == 3) {  // RULINGS' retreat policies (GL 12.2)
        if (const int policy = pick(0, 2); policy == 1)
          army->retreat = {gl::retreat_kind::line_sp_at_most, pick(1, 4)};
        else if (policy == 2)
          army->retreat = {gl::retreat_kind::weaker, 0};
      }
      if ((extra == 2 || extra == 3) && pick(0, 1) == 1) {  // a reinforcement waiting (GL 13.3)
        army->reinforcements.push_back(
            {make_unit(army == &b.attacker ? "ra" : "rd", pick(1, 3), pick(0, 2), pick(2, 6)), pick(0, 3) == 0});
        army->reinforcement_rating = pick(0, 6);
      }
    }
    if (pick(0, 1) == 1) b.attacker.leaders = {"Brown"};
    if (pick(0, 1) == 1) b.defender.leaders = {"Drummond"};
    if (pick(0, 2) == 2) b.defender.fortification = gl::fort{pick(0, 2), pick(1, 2), pick(3, 5), false};
    if (pick(0, 3) == 0) b.niagara = true;
    if (pick(0, 3) == 0) b.attacker.ship_dice = pick(1, 2);
    const auto sweep = gl::solve_by_column_sweep(b);
    const bool policy =
        b.attacker.retreat.kind != gl::retreat_kind::never || b.defender.retreat.kind != gl::retreat_kind::never;
    both += policy && (!b.attacker.reinforcements.empty() || !b.defender.reinforcements.empty());
    expect_same_result(sweep, plain_chain(b), "trial " + std::to_string(trial));
  }
  EXPECT_GE(both, 15);  // (a policy beside a reinforcement: the case the folded chain used to take)
}

// Issue 20's 5 v 4 Niagara battle less the dragoon, the guns and the Mohawk (docs/benchmarks.md's
// "4 v 3": 7,308 folded states): solve_exact sweeps it, and the plain chain agrees.
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
  const auto swept = gl::solve_exact(b);
  expect_same_result(swept, plain_chain(b), "4 v 3");
}

}  // namespace
