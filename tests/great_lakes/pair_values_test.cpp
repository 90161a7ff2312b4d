// Issue 37: the game of optimal play solved over pairs of side states (optimal/pair_values.hpp) on
// random small battles: the solved play's outcome document whole and worth the game's value.
#include "calc/great_lakes/optimal/pair_values.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <optional>
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

double mass(const std::vector<double>& v) {
  double s = 0;
  for (const double p : v) s += p;
  return s;
}

// f(trial, battle, id) on random battles drawn from `seed` until `enough` calls have returned true
// or `trials` battles were drawn; a battle past a solve's state limit or refused as invalid (both
// solves throw) is passed over. Returns the calls that returned true.
template <class F>
int on_random_battles(unsigned seed, int trials, int enough, F&& f) {
  std::mt19937 rng(seed);
  int counted = 0;
  for (int trial = 0; trial < trials && counted < enough; ++trial) {
    std::string id;
    gl::battle b = random_battle(rng, id);
    try {
      if (f(trial, std::move(b), std::to_string(trial) + " " + id)) ++counted;
    } catch (const musket::state_limit_exceeded&) {
    } catch (const musket::invalid_input&) {
    }
  }
  return counted;
}

// Two outcome documents of one battle, number by number (the rounds' mean within 1e-9: a sum over
// rounds).
void expect_same_document(const gl::battle_result& x, const gl::battle_result& y, const std::string& id) {
  for (std::size_t e = 0; e < x.ends.size(); ++e) EXPECT_NEAR(x.ends[e], y.ends[e], 1e-12) << id << " end " << e;
  ASSERT_EQ(x.attacker_sp_lost.size(), y.attacker_sp_lost.size()) << id;
  for (std::size_t k = 0; k < x.attacker_sp_lost.size(); ++k)
    EXPECT_NEAR(x.attacker_sp_lost[k], y.attacker_sp_lost[k], 1e-12) << id;
  ASSERT_EQ(x.defender_sp_lost.size(), y.defender_sp_lost.size()) << id;
  for (std::size_t k = 0; k < x.defender_sp_lost.size(); ++k)
    EXPECT_NEAR(x.defender_sp_lost[k], y.defender_sp_lost[k], 1e-12) << id;
  ASSERT_EQ(x.units.size(), y.units.size()) << id;
  for (std::size_t u = 0; u < x.units.size(); ++u) {
    EXPECT_NEAR(x.units[u].survives, y.units[u].survives, 1e-12) << id << " unit " << u;
    EXPECT_NEAR(x.units[u].expected_sp, y.units[u].expected_sp, 1e-12) << id << " unit " << u;
    EXPECT_NEAR(x.units[u].fails_morale, y.units[u].fails_morale, 1e-12) << id << " unit " << u;
  }
  EXPECT_EQ(x.garrison_eliminated.has_value(), y.garrison_eliminated.has_value()) << id;
  if (x.garrison_eliminated && y.garrison_eliminated) {
    EXPECT_NEAR(*x.garrison_eliminated, *y.garrison_eliminated, 1e-12) << id;
  }
  EXPECT_NEAR(x.rounds_mean, y.rounds_mean, 1e-9) << id;
  EXPECT_NEAR(x.rounds_tail, y.rounds_tail, 1e-12) << id;
  const std::size_t rounds = std::min(x.rounds_distribution.size(), y.rounds_distribution.size());
  for (std::size_t t = 0; t < rounds; ++t)
    EXPECT_NEAR(x.rounds_distribution[t], y.rounds_distribution[t], 1e-12) << id << " round " << t + 1;
}

}  // namespace

// The solved play's outcome document is a whole battle: every distribution sums to 1, and the
// game's value is its payoff averaged over that document (E[win] or win_value x P(win) - E[SP
// lost] + E[SP taken]); a side that decides does at least as well as its default play, and the
// one-side games lie between. (The pair game equalled the full-state game it replaced within 1e-12
// on 150 of these battles before that solver was deleted: docs/engines.md.)
TEST(GreatLakesPairGame, SolvedPlayIsAWholeBattleWorthItsValueOnRandomSmallBattles) {
  int by_objective[2] = {0, 0}, choices_matter = 0, with_advice = 0;
  const int solved = on_random_battles(3737, 2000, 150, [&](int trial, const gl::battle& b, std::string id) {
    if (!gl::plays_optimally(b)) return false;
    gl::game_options g;
    if (trial % 2) {
      g.goal = gl::objective::value;
      g.win_value = trial % 3;
    }
    id += " objective " + gl::to_string(g.goal);
    gl::exact_options limits;
    limits.state_limit = 20000;
    const gl::game_result now = gl::solve_optimal_play(b, g, limits);
    const gl::battle_result& o = now.outcome;
    double ends = 0;
    for (const double e : o.ends) ends += e;
    EXPECT_NEAR(ends, 1.0, 1e-12) << id;
    EXPECT_NEAR(o.attacker_wins + o.defender_holds + o.stalemate, 1.0, 1e-12) << id;
    EXPECT_NEAR(mass(o.attacker_sp_lost), 1.0, 1e-12) << id;
    EXPECT_NEAR(mass(o.defender_sp_lost), 1.0, 1e-12) << id;
    if (o.rounds_distribution.empty())  // (no round is fought: a stalemate from the start)
      EXPECT_EQ(o.stalemate, 1.0) << id;
    else
      EXPECT_NEAR(mass(o.rounds_distribution) + o.rounds_tail, 1.0, 1e-9) << id;
    const double scale = std::max(1.0, g.win_value + 10.0);
    EXPECT_NEAR(now.value, gl::play_value(o, g), 1e-12 * scale) << id;
    EXPECT_GE(now.gain_attacker, -1e-12 * scale) << id;
    EXPECT_GE(now.gain_defender, -1e-12 * scale) << id;
    // value(both solved) lies between the one-side games: the attacker's alone is at least it
    // (the defender no longer resists), the defender's alone at most.
    EXPECT_LE(now.value, now.value_default_play + now.gain_attacker + 1e-12 * scale) << id;
    EXPECT_GE(now.value, now.value_default_play - now.gain_defender - 1e-12 * scale) << id;
    if (std::abs(now.value - now.value_default_play) > 1e-9) ++choices_matter;
    std::size_t advised = 0;
    for (const gl::side_advice& a : now.advice)
      advised += a.allocations.size() + a.rerolls.size() + a.retreat.retreats.size();
    if (advised > 0) ++with_advice;
    ++by_objective[g.goal == gl::objective::value];
    return true;
  });
  EXPECT_GE(solved, 100);
  EXPECT_GE(by_objective[0], 30);
  EXPECT_GE(by_objective[1], 30);
  EXPECT_GE(choices_matter, 30);
  EXPECT_GE(with_advice, 50);
  std::cout << solved << " battles solved (" << by_objective[0] << " win, " << by_objective[1] << " value), "
            << choices_matter << " where the solved play beats the default, " << with_advice << " with advice\n";
}

// With no choice left (every optimal policy at its default), the outcome chain plays the same
// battle as the exact engine (the column sweep, separate code over folded states): every number of
// the outcome document equal, per-unit figures and the rounds included. The chain is otherwise
// only checked against itself (a whole battle worth its value, above), so this is its check by an
// independent solver on each objective's tables (the unfolded ones beside the folded: on the win
// objective units out of the line are `out`, on the value objective their SP is one pool).
TEST(GreatLakesPairGame, OutcomeChainWithNoChoiceLeftIsTheExactEngine) {
  int compared[2] = {0, 0};
  on_random_battles(3738, 600, 120, [&](int trial, const gl::battle& drawn, std::string id) {
    const gl::battle b = gl::default_play(drawn);
    gl::game_options g;
    if (trial % 2) {
      g.goal = gl::objective::value;
      g.win_value = 1;
    }
    id += " objective " + gl::to_string(g.goal);
    gl::exact_options limits;
    limits.state_limit = 20000;
    const gl::battle_result chain = gl::solve_optimal_play(b, g, limits).outcome;
    const gl::battle_result exact = gl::solve_exact(b, limits);
    expect_same_document(chain, exact, id);
    ++compared[g.goal == gl::objective::value];
    return true;
  });
  EXPECT_GE(compared[0], 40);
  EXPECT_GE(compared[1], 40);
}

// Where two threads are allowed, the game's columns of one key are valued on two threads, and the
// outcome chains (on the win objective the one tallying rounds over the folded pairs and each
// side's part over its unfolded states against the other's folded ones) are taken by two threads
// in turn. Each value and sum is made in one thread in one order, so one
// thread and two give the same value and document to the bit, advice and all; and where a memory
// bound stops the game or a chain, the solve reports that bound whichever thread hit it.
TEST(GreatLakesPairGame, TwoThreadsGiveTheOneThreadsDocument) {
  const int compared = on_random_battles(4242, 200, 30, [&](int, const gl::battle& b, const std::string& id) {
    gl::exact_options one, two;
    one.state_limit = two.state_limit = 20000;
    one.threads = 1;
    two.threads = 2;
    const gl::game_result a = gl::solve_optimal_play(b, {}, one);
    const gl::game_result c = gl::solve_optimal_play(b, {}, two);
    EXPECT_EQ(a.value, c.value) << id;
    EXPECT_EQ(a.outcome.ends, c.outcome.ends) << id;
    EXPECT_EQ(a.outcome.attacker_sp_lost, c.outcome.attacker_sp_lost) << id;
    EXPECT_EQ(a.outcome.defender_sp_lost, c.outcome.defender_sp_lost) << id;
    EXPECT_EQ(a.outcome.rounds_distribution, c.outcome.rounds_distribution) << id;
    EXPECT_EQ(a.outcome.rounds_mean, c.outcome.rounds_mean) << id;
    EXPECT_EQ(a.outcome.units.size(), c.outcome.units.size()) << id;
    for (std::size_t u = 0; u < std::min(a.outcome.units.size(), c.outcome.units.size()); ++u) {
      EXPECT_EQ(a.outcome.units[u].survives, c.outcome.units[u].survives) << id;
      EXPECT_EQ(a.outcome.units[u].expected_sp, c.outcome.units[u].expected_sp) << id;
    }
    EXPECT_EQ(a.chain_outcomes, c.chain_outcomes) << id;
    // (On two threads the default play and each side's game alone are solved beside the longer chain.)
    EXPECT_EQ(a.value_default_play, c.value_default_play) << id;
    EXPECT_EQ(a.gain_attacker, c.gain_attacker) << id;
    EXPECT_EQ(a.gain_defender, c.gain_defender) << id;
    for (int side = 0; side < 2; ++side) {
      EXPECT_EQ(a.advice[side].retreat.retreats, c.advice[side].retreat.retreats) << id;
      EXPECT_EQ(a.advice[side].retreat.fights, c.advice[side].retreat.fights) << id;
      EXPECT_EQ(a.advice[side].allocations.size(), c.advice[side].allocations.size()) << id;
      for (std::size_t k = 0; k < std::min(a.advice[side].allocations.size(), c.advice[side].allocations.size()); ++k)
        EXPECT_EQ(a.advice[side].allocations[k].optimal, c.advice[side].allocations[k].optimal) << id;
    }
    EXPECT_EQ(c.outcome.method.threads, 2u) << id;
    // A bound three quarters of the peak the solve counted: the game or one of the chains passes it.
    // (The column sweep that documents a swept game steps its rounds one at a time where their
    // window would pass the bound: it may answer within it, the same answer.)
    gl::exact_options tight = two;
    const std::size_t peak = a.outcome.method.memory_bytes;
    tight.memory_limit = peak - peak / 4;
    try {
      const gl::game_result t = gl::solve_optimal_play(b, {}, tight);
      if (!a.swept) ADD_FAILURE() << id << ": no memory_limit_exceeded under " << tight.memory_limit << " bytes";
      EXPECT_LE(t.outcome.method.memory_bytes, tight.memory_limit) << id;
      EXPECT_EQ(t.value, a.value) << id;
      for (std::size_t e = 0; e < a.outcome.ends.size(); ++e) EXPECT_EQ(t.outcome.ends[e], a.outcome.ends[e]) << id;
    } catch (const musket::memory_limit_exceeded& e) {
      EXPECT_EQ(e.limit(), tight.memory_limit) << id;
      EXPECT_GT(e.counted(), tight.memory_limit) << id;
    }
    return true;
  });
  EXPECT_GE(compared, 30);
}

// The default play and each side's game alone are solved beside the longer outcome chain in memory
// the game's bound lends them: half the room left once the shorter chain ends, taken back (that work
// stopped, and done after the game) where the chain would pass the bound with it. So every bound
// from the peak the game counted unbound up answers as the unbound solve, gains included, and none
// is refused (at the peak itself the loan is too small for that work, which is done after the game;
// the loan taken back is core/shared_bound.hpp's test).
TEST(GreatLakesPairGame, WorkBesideTheChainsNeverCostsTheGameItsBound) {
  gl::battle b = gl::testing::duel(make_unit("A1", 3, 2, 4), make_unit("D1", 3, 2, 4));
  b.attacker.units.push_back(make_unit("A2", 2, 1, 5));
  b.attacker.units.push_back(make_unit("A3", 2, 1, 3));
  b.defender.units.push_back(make_unit("D2", 2, 1, 5));
  b.defender.units.push_back(make_unit("D3", 2, 2, 3));
  b.attacker.leaders = {"Brown"};
  b.defender.leaders = {"Drummond"};
  for (gl::army* s : {&b.attacker, &b.defender}) {
    s->hit_allocation.kind = gl::hit_allocation_kind::optimal;
    s->rerolls.kind = gl::reroll_kind::optimal;
    s->retreat = {gl::retreat_kind::optimal, 0};
  }
  gl::exact_options free;
  free.threads = 2;
  const gl::game_result unbound = gl::solve_optimal_play(b, {}, free);
  const std::size_t peak = unbound.outcome.method.memory_bytes;
  for (int k = 0; k <= 16; ++k) {
    gl::exact_options bounded = free;
    bounded.memory_limit = peak + peak * static_cast<std::size_t>(k) / 16;
    const gl::game_result r = gl::solve_optimal_play(b, {}, bounded);
    EXPECT_EQ(r.value, unbound.value) << k;
    EXPECT_EQ(r.value_default_play, unbound.value_default_play) << k;
    EXPECT_EQ(r.gain_attacker, unbound.gain_attacker) << k;
    EXPECT_EQ(r.gain_defender, unbound.gain_defender) << k;
    EXPECT_EQ(r.outcome.ends, unbound.outcome.ends) << k;
    EXPECT_EQ(r.outcome.method.memory_bytes, peak) << k;
  }
}

// MA (the attacker's morale checks against a hit defender) is kept by defender hit state, and a key
// group's columns valued in lockstep, where the memory bound leaves room for the rows; each column
// works MA out for itself where it does not. The same sums in the same order either way, so the
// same game to the last bit. Each battle's game is solved unbound (rows kept), then the least bound
// under which the rows are still kept is found by bisection; a byte below it the game must answer
// without the rows, and its value exactly as unbound (the value sums every MA the game reads).
TEST(GreatLakesPairGame, KeptMaRowsAreTheColumnsOwnValues) {
  std::mt19937 rng(3701);
  int compared = 0;
  for (int trial = 0; trial < 300 && compared < 30; ++trial) {
    std::string id;
    const gl::battle b = random_battle(rng, id);
    if (!gl::plays_optimally(b)) continue;
    for (const gl::objective goal : {gl::objective::win, gl::objective::value}) {
      gl::game_options g;
      g.goal = goal;
      g.win_value = 2;
      gl::exact_options o;
      o.state_limit = 20000;
      // The game under `bound` (0: none), or none where it passes it.
      auto under = [&](std::size_t bound) -> std::optional<gl::optimal::pair_solution> {
        gl::exact_options bounded = o;
        bounded.memory_limit = bound;
        try {
          return gl::optimal::solve_over_pairs(b, g, bounded, false);
        } catch (const musket::memory_limit_exceeded&) {
          return std::nullopt;
        }
      };
      std::optional<gl::optimal::pair_solution> unbound;
      try {
        unbound = under(0);
      } catch (const musket::state_limit_exceeded&) {
        continue;
      } catch (const musket::invalid_input&) {
        continue;
      }
      if (unbound->kept_rows == 0) continue;
      std::size_t lo = 1, hi = 1 << 30;  // lo: rows not kept; hi: kept
      while (hi - lo > 1) {
        const std::size_t mid = lo + (hi - lo) / 2;
        const auto r = under(mid);
        (r && r->kept_rows > 0 ? hi : lo) = mid;
      }
      const auto r = under(lo);
      const std::string at = std::to_string(trial) + " " + gl::to_string(goal) + " " + id;
      ASSERT_TRUE(r.has_value()) << at;  // (the rows are counted beside the game: it fits without them)
      ++compared;
      EXPECT_EQ(r->kept_rows, 0u) << at;
      EXPECT_EQ(r->value, unbound->value) << at;
    }
  }
  EXPECT_GE(compared, 30);
}

TEST(GreatLakesPairGame, PairsWorkCountsAHitStateOnceWhereItsRowsFit) {
  // The time guard counts the attacker's trees against each defender hit state once where MA is
  // kept by defender hit state, and once for each column that reaches it where the rows would not
  // fit the bound. Units of 3 and 4 SP on the win objective (folded): the columns' places (those
  // where the line breaks among them) are more than half as many again as the standing hit states.
  gl::battle b = gl::testing::duel(make_unit("Line", 4, 2, 4), make_unit("Foot", 4, 2, 4));
  b.attacker.units.push_back(make_unit("Light", 3, 1, 5));
  b.defender.units.push_back(make_unit("Picket", 3, 1, 5));
  b.attacker.hit_allocation.kind = b.defender.hit_allocation.kind = gl::hit_allocation_kind::optimal;
  gl::game_options g;
  const gl::optimal::pair_solution free = gl::optimal::solve_over_pairs(b, g, {}, false);
  ASSERT_GT(free.kept_rows, 0u);
  // The sides' tables alone pass a bound of one byte as the listing ends: what they count.
  gl::exact_options tight;
  tight.memory_limit = 1;
  std::size_t tables = 0;
  try {
    gl::optimal::solve_over_pairs(b, g, tight, false);
    FAIL() << "the tables fit one byte";
  } catch (const musket::memory_limit_exceeded& e) {
    tables = e.counted();
  }
  // A budget just below the rows' count: refused with it where the bound is none, and with a count
  // at least half as large again (every place in every column) where it leaves no room for the rows.
  g.time_budget = free.work * gl::optimal::pair_seconds_per_work * (1 - 1e-9);
  for (const std::size_t bound : {std::size_t{0}, tables + 1}) {
    tight.memory_limit = bound;
    try {
      gl::optimal::solve_over_pairs(b, g, tight, false);
      ADD_FAILURE() << "no game_over_budget under the bound " << bound;
    } catch (const gl::game_over_budget& e) {
      if (bound == 0)
        EXPECT_DOUBLE_EQ(e.predicted(), free.work * gl::optimal::pair_seconds_per_work);
      else
        EXPECT_GT(e.predicted(), 1.5 * free.work * gl::optimal::pair_seconds_per_work);
    }
  }
}

// Where only the attacker's hits are chosen, on the win objective, the outcome document is the
// column sweep's under the solved allocation (swept_document); every other game's is the outcome
// chains'. An `optimal` retreat on the win objective never retreats (a retreat loses), so the same
// battle with the defender's retreat `optimal` is the same game and play, documented by the chains:
// the two documents, by separate code, agree number for number (the attacker's per-unit figures
// and the rounds included), and so does the advice.
TEST(GreatLakesPairGame, SweptAllocationIsTheOutcomeChainsDocument) {
  int compared = 0, choices_matter = 0;
  auto agree = [&](const gl::battle& b, const std::string& id) {
    gl::battle chained = b;
    chained.defender.retreat = {gl::retreat_kind::optimal, 0};
    ASSERT_TRUE(gl::optimal::swept_document(b, {})) << id;
    ASSERT_FALSE(gl::optimal::swept_document(chained, {})) << id;
    gl::exact_options limits;
    limits.state_limit = 200000;
    const gl::game_result s = gl::solve_optimal_play(b, {}, limits);
    const gl::game_result c = gl::solve_optimal_play(chained, {}, limits);
    EXPECT_TRUE(s.swept) << id;
    EXPECT_FALSE(c.swept) << id;
    EXPECT_NEAR(s.value, c.value, 1e-12) << id;
    EXPECT_NEAR(s.value, s.outcome.attacker_wins, 1e-12) << id;
    EXPECT_NEAR(s.value_default_play, c.value_default_play, 1e-12) << id;
    expect_same_document(s.outcome, c.outcome, id);
    const auto& sa = s.advice[0].allocations;
    const auto& ca = c.advice[0].allocations;
    ASSERT_EQ(sa.size(), ca.size()) << id;
    for (std::size_t k = 0; k < sa.size(); ++k) {
      EXPECT_EQ(sa[k].optimal, ca[k].optimal) << id;
      EXPECT_EQ(sa[k].otherwise, ca[k].otherwise) << id;
    }
    ++compared;
    if (s.value - s.value_default_play > 1e-9) ++choices_matter;
  };
  on_random_battles(3738, 3000, 150, [&](int, gl::battle b, const std::string& id) {
    b.attacker.hit_allocation = {gl::hit_allocation_kind::optimal};
    b.defender.hit_allocation = {};
    if (b.attacker.rerolls.kind == gl::reroll_kind::optimal) b.attacker.rerolls = {};
    if (b.defender.rerolls.kind == gl::reroll_kind::optimal) b.defender.rerolls = {};
    if (b.attacker.retreat.kind == gl::retreat_kind::optimal) b.attacker.retreat = {};
    // (The defender's retreat `never`: `optimal` plays it, below.)
    if (b.defender.retreat.kind != gl::retreat_kind::never) return false;
    const int before = compared;
    agree(b, id);
    return compared > before;
  });
  EXPECT_GE(compared, 100);
  EXPECT_GE(choices_matter, 30);
  std::cout << compared << " battles compared, " << choices_matter
            << " where the solved allocation beats the rulings'\n";
}
