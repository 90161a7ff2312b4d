// Issue 37: the game of optimal play solved over pairs of side states (optimal/pair_values.hpp)
// against the game solved over the battle's full states, on random small battles: the value, the
// default play's value and the gains, the outcome document and the advice, within 1e-12.
#include "calc/great_lakes/optimal/pair_values.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <iostream>
#include <random>
#include <sstream>
#include <string>

#include "calc/great_lakes/optimal/game.hpp"
#include "core/invalid_input.hpp"
#include "core/markov_chain.hpp"
#include "tests/great_lakes/battle_builders.hpp"

namespace gl = musket::great_lakes;
using gl::testing::make_unit;

namespace {

void expect_near_vectors(const std::vector<double>& a, const std::vector<double>& b, const std::string& what,
                         const std::string& id) {
  const std::size_t n = std::max(a.size(), b.size());
  for (std::size_t i = 0; i < n; ++i)
    EXPECT_NEAR(i < a.size() ? a[i] : 0.0, i < b.size() ? b[i] : 0.0, 1e-12) << id << " " << what << "[" << i << "]";
}

void expect_same_advice(const gl::side_advice& a, const gl::side_advice& b, const std::string& id) {
  EXPECT_EQ(a.units, b.units) << id;
  ASSERT_EQ(a.allocations.size(), b.allocations.size()) << id;
  for (std::size_t i = 0; i < a.allocations.size(); ++i) {
    EXPECT_EQ(a.allocations[i].hits, b.allocations[i].hits) << id;
    EXPECT_EQ(a.allocations[i].optimal, b.allocations[i].optimal) << id;
    EXPECT_EQ(a.allocations[i].rulings, b.allocations[i].rulings) << id;
    EXPECT_EQ(a.allocations[i].otherwise, b.allocations[i].otherwise) << id;
  }
  ASSERT_EQ(a.rerolls.size(), b.rerolls.size()) << id;
  for (std::size_t i = 0; i < a.rerolls.size(); ++i) {
    EXPECT_EQ(a.rerolls[i].failed_on_one, b.rerolls[i].failed_on_one) << id;
    EXPECT_EQ(a.rerolls[i].reroll, b.rerolls[i].reroll) << id;
    EXPECT_EQ(a.rerolls[i].otherwise, b.rerolls[i].otherwise) << id;
  }
  EXPECT_EQ(a.retreat.retreats, b.retreat.retreats) << id;
  EXPECT_EQ(a.retreat.fights, b.retreat.fights) << id;
  EXPECT_EQ(a.retreat.threshold, b.retreat.threshold) << id;
  EXPECT_EQ(a.retreat.own_at_most, b.retreat.own_at_most) << id;
  EXPECT_EQ(a.retreat.enemy_at_least, b.retreat.enemy_at_least) << id;
}

void expect_same_game(const gl::game_result& a, const gl::game_result& b, const std::string& id) {
  EXPECT_NEAR(a.value, b.value, 1e-12) << id;
  EXPECT_NEAR(a.value_default_play, b.value_default_play, 1e-12) << id;
  EXPECT_NEAR(a.gain_attacker, b.gain_attacker, 1e-12) << id;
  EXPECT_NEAR(a.gain_defender, b.gain_defender, 1e-12) << id;
  for (std::size_t e = 0; e < a.outcome.ends.size(); ++e)
    EXPECT_NEAR(a.outcome.ends[e], b.outcome.ends[e], 1e-12) << id << " end " << e;
  EXPECT_NEAR(a.outcome.attacker_wins, b.outcome.attacker_wins, 1e-12) << id;
  EXPECT_NEAR(a.outcome.defender_holds, b.outcome.defender_holds, 1e-12) << id;
  EXPECT_NEAR(a.outcome.stalemate, b.outcome.stalemate, 1e-12) << id;
  expect_near_vectors(a.outcome.attacker_sp_lost, b.outcome.attacker_sp_lost, "attacker_sp_lost", id);
  expect_near_vectors(a.outcome.defender_sp_lost, b.outcome.defender_sp_lost, "defender_sp_lost", id);
  EXPECT_NEAR(a.outcome.rounds_mean, b.outcome.rounds_mean, 1e-12) << id;
  expect_near_vectors(a.outcome.rounds_distribution, b.outcome.rounds_distribution, "rounds", id);
  EXPECT_NEAR(a.outcome.rounds_tail, b.outcome.rounds_tail, 1e-12) << id;
  ASSERT_EQ(a.outcome.units.size(), b.outcome.units.size()) << id;
  for (std::size_t u = 0; u < a.outcome.units.size(); ++u) {
    EXPECT_NEAR(a.outcome.units[u].survives, b.outcome.units[u].survives, 1e-12) << id << " unit " << u;
    EXPECT_NEAR(a.outcome.units[u].expected_sp, b.outcome.units[u].expected_sp, 1e-12) << id << " unit " << u;
    EXPECT_NEAR(a.outcome.units[u].fails_morale, b.outcome.units[u].fails_morale, 1e-12) << id << " unit " << u;
  }
  EXPECT_EQ(a.outcome.garrison_eliminated.has_value(), b.outcome.garrison_eliminated.has_value()) << id;
  if (a.outcome.garrison_eliminated && b.outcome.garrison_eliminated) {
    EXPECT_NEAR(*a.outcome.garrison_eliminated, *b.outcome.garrison_eliminated, 1e-12) << id;
  }
  for (std::size_t s = 0; s < 2; ++s) expect_same_advice(a.advice[s], b.advice[s], id);
}

// A random small battle: 1-3 units a side (1-3 SP, 0-2 dice, morale 2-6, a 0-dice unit often),
// leaders with rerolls, a fort, ships, crossings, the Niagara, no retreat route, a reinforcement,
// fixed and optimal policies of every kind.
gl::battle random_battle(std::mt19937& rng, std::string& id) {
  auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  std::ostringstream o;
  auto unit = [&](const std::string& name) {
    gl::unit u = make_unit(name, pick(1, 3), pick(0, 2), pick(2, 6));
    if (pick(0, 4) == 0) u.dice = 0;
    o << name << ":" << u.sp << "/" << u.dice << "/" << u.morale << " ";
    return u;
  };
  gl::battle b = gl::testing::duel(unit("A1"), unit("D1"));
  for (int k = pick(0, 2); k > 0; --k)
    b.attacker.units.push_back(unit("A" + std::to_string(b.attacker.units.size() + 1)));
  for (int k = pick(0, 2); k > 0; --k)
    b.defender.units.push_back(unit("D" + std::to_string(b.defender.units.size() + 1)));
  if (pick(0, 3) == 0) b.attacker.units.front().crossed = gl::crossing::river;
  b.niagara = pick(0, 3) == 0;
  if (pick(0, 2) == 0) b.attacker.leaders.push_back("Brown");
  if (pick(0, 4) == 0) b.attacker.leaders.push_back("Scott");
  if (pick(0, 2) == 0) b.defender.leaders.push_back("Drummond");
  if (pick(0, 3) == 0) {
    gl::fort f;
    f.dice = pick(0, 2);
    f.sp = pick(1, 2);
    f.morale = pick(2, 5);
    b.defender.fortification = f;
    o << "fort:" << f.dice << "/" << f.sp << "/" << f.morale << " ";
  }
  if (pick(0, 4) == 0) b.attacker.ship_dice = 1;
  if (pick(0, 4) == 0) b.defender.ship_dice = 1;
  if (pick(0, 3) == 0) b.attacker.retreat_route = false;
  if (pick(0, 3) == 0) b.defender.retreat_route = false;
  if (pick(0, 5) == 0) {
    gl::reinforcement rf;
    rf.u = make_unit("R", pick(1, 2), pick(0, 1), pick(3, 6));
    (pick(0, 1) ? b.attacker : b.defender).reinforcements.push_back(rf);
    o << "reinforcement ";
  }
  for (gl::army* a : {&b.attacker, &b.defender}) {
    switch (pick(0, 4)) {
      case 0:
        a->retreat = {gl::retreat_kind::optimal, 0};
        break;
      case 1:
        a->retreat = {gl::retreat_kind::line_sp_at_most, pick(1, 2)};
        break;
      case 2:
        a->retreat = {gl::retreat_kind::weaker, 0};
        break;
      default:
        break;
    }
    switch (pick(0, 3)) {
      case 0:
      case 1:
        a->hit_allocation = {gl::hit_allocation_kind::optimal};
        break;
      case 2:
        a->hit_allocation = {gl::hit_allocation_kind::concentrate};
        break;
      default:
        break;
    }
    switch (pick(0, 3)) {
      case 0:
      case 1:
        a->rerolls = {gl::reroll_kind::optimal};
        break;
      case 2:
        a->rerolls = {gl::reroll_kind::largest_unit};
        break;
      default:
        break;
    }
  }
  o << "retreat " << gl::to_string(b.attacker.retreat.kind) << "/" << gl::to_string(b.defender.retreat.kind) << " hits "
    << gl::to_string(b.attacker.hit_allocation.kind) << "/" << gl::to_string(b.defender.hit_allocation.kind)
    << " rerolls " << gl::to_string(b.attacker.rerolls.kind) << "/" << gl::to_string(b.defender.rerolls.kind)
    << " leaders " << b.attacker.leaders.size() << "/" << b.defender.leaders.size() << " ships " << b.attacker.ship_dice
    << "/" << b.defender.ship_dice << " route " << b.attacker.retreat_route << "/" << b.defender.retreat_route
    << " niagara " << b.niagara;
  id = o.str();
  return b;
}

}  // namespace

TEST(GreatLakesPairGame, EqualsTheFullStateGameOnRandomSmallBattles) {
  std::mt19937 rng(3737);
  int compared = 0, by_objective[2] = {0, 0}, choices_matter = 0, with_advice = 0;
  for (int trial = 0; trial < 2000 && compared < 150; ++trial) {
    std::string id;
    gl::battle b = random_battle(rng, id);
    if (!gl::plays_optimally(b)) continue;
    gl::game_options g;
    if (trial % 2) {
      g.goal = gl::objective::value;
      g.win_value = trial % 3;
    }
    id = std::to_string(trial) + " " + id + " objective " + gl::to_string(g.goal);
    gl::exact_options limits;
    limits.state_limit = 20000;
    gl::game_result old;
    try {
      old = gl::solve_optimal_play_full_states(b, g, limits);
    } catch (const musket::state_limit_exceeded&) {
      continue;
    } catch (const musket::invalid_input&) {
      continue;
    }
    const gl::game_result now = gl::solve_optimal_play(b, g);
    expect_same_game(now, old, id);
    ++compared;
    // (Where the solved play beats the default one: a choice the two solvers had to get right.)
    if (std::abs(now.value - now.value_default_play) > 1e-9) ++choices_matter;
    std::size_t advised = 0;
    for (const gl::side_advice& a : now.advice)
      advised += a.allocations.size() + a.rerolls.size() + a.retreat.retreats.size();
    if (advised > 0) ++with_advice;
    ++by_objective[g.goal == gl::objective::value];
  }
  EXPECT_GE(compared, 100);
  EXPECT_GE(by_objective[0], 30);
  EXPECT_GE(by_objective[1], 30);
  EXPECT_GE(choices_matter, 30);
  EXPECT_GE(with_advice, 50);
  std::cout << compared << " battles compared (" << by_objective[0] << " win, " << by_objective[1] << " value), "
            << choices_matter << " where the solved play beats the default, " << with_advice << " with advice\n";
}
