// Properties every calculator keeps for random valid inputs (RapidCheck): probabilities lie in
// [0, 1]; every distribution sums to 1 (exactly for fractions, within 1e-12 in doubles); and
// the simulated answer lies within 5 standard errors of the exact one. Sizes are kept small so
// the suite stays fast; RC_PARAMS="max_success=1000" runs more cases.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "calc/great_lakes/battle.hpp"
#include "calc/great_lakes/optimal/game.hpp"
#include "calc/revolution/combat.hpp"
#include "calc/revolution/crt.hpp"
#include "calc/supply_lines/battle.hpp"
#include "core/invalid_input.hpp"
#include "core/rational.hpp"

namespace {

namespace sl = musket::supply_lines;
namespace ar = musket::revolution;
namespace gl = musket::great_lakes;
using musket::rational;

// A valid Supply Lines battle with small armies: the attacker has a Leader and at least one die.
sl::battle_setup supply_lines_battle(const sl::rule_set& rules) {
  sl::battle_setup s;
  s.attacker = *rc::gen::element(sl::side::crown, sl::side::patriot);
  s.where = *rc::gen::element(sl::terrain::point, sl::terrain::city, sl::terrain::fort);
  s.attacker_units = *rc::gen::inRange(1, 7);
  s.attacker_leaders = 1;
  s.attacker_war_supplies = *rc::gen::inRange(2, 9);
  s.defender_units = *rc::gen::inRange(1, 7);
  s.defender_leaders = *rc::gen::inRange(0, 2);
  s.defender_war_supplies = *rc::gen::inRange(0, 6);
  s.dug_in = *rc::gen::arbitrary<bool>();
  s.retreat_available = *rc::gen::arbitrary<bool>();
  try {
    sl::validate(rules, s);
  } catch (const musket::invalid_input&) {
    RC_DISCARD("not a legal battle (Dig-In at a point, no attacking die)");
  }
  return s;
}

template <class P>
P total(const std::vector<P>& masses) {
  return std::accumulate(masses.begin(), masses.end(), P(0));
}

RC_GTEST_PROP(SupplyLinesProperty, ExactFractionsAreProbabilitiesSummingToExactlyOne, ()) {
  const auto& rules = *rc::gen::element(&sl::northern_theater(), &sl::southern_strategy());
  const auto s = supply_lines_battle(*rules);
  const auto r = sl::resolve_battle<rational>(*rules, s);
  rational sum(0);
  for (const auto& p : r.outcomes) {
    RC_ASSERT(p >= rational(0));
    RC_ASSERT(p <= rational(1));
    sum += p;
  }
  RC_ASSERT(sum == rational(1));
  RC_ASSERT(total(r.attacker_losses.masses()) == rational(1));
  RC_ASSERT(total(r.defender_losses.masses()) == rational(1));
  RC_ASSERT(total(r.track_shift.masses()) == rational(1));
}

RC_GTEST_PROP(SupplyLinesProperty, DoublesSumToOneAndSimulationAgreesWithinFiveSigma, ()) {
  const auto& rules = *rc::gen::element(&sl::northern_theater(), &sl::southern_strategy());
  const auto s = supply_lines_battle(*rules);
  const auto exact = sl::resolve_battle<double>(*rules, s);
  double sum = 0;
  for (double p : exact.outcomes) sum += p;
  RC_ASSERT(std::abs(sum - 1.0) <= 1e-12);
  RC_ASSERT(std::abs(total(exact.attacker_losses.masses()) - 1.0) <= 1e-12);
  musket::simulation_options options;
  options.trials = 20000;
  options.seed = *rc::gen::inRange<std::uint64_t>(0, 1000000);
  options.threads = 1;
  const auto est = sl::simulate_battle(*rules, s, options);
  for (std::size_t o = 0; o < exact.outcomes.size(); ++o) {
    const double p = std::clamp(exact.outcomes[o], 0.0, 1.0);  // a double may land 1 ulp past 1
    RC_ASSERT(std::abs(p - exact.outcomes[o]) <= 1e-12);
    const double observed = static_cast<double>(est.outcome_counts[o]) / static_cast<double>(est.trials);
    const double sigma = std::sqrt(p * (1 - p) / static_cast<double>(est.trials));
    // A probability of exactly 0 or 1 must be observed exactly.
    RC_ASSERT(std::abs(observed - p) <= 5 * sigma + 1e-12);
  }
}

RC_GTEST_PROP(RevolutionProperty, ResultFacesAndUnknownMakeExactlyOne, ()) {
  static const ar::crt_table table = ar::load_crt({std::string(MUSKET_DATA_DIR) + "/ar/crt.json", ""});
  ar::battle_setup s;
  s.attacker.owner = ar::side::american;
  s.defender.owner = ar::side::british;
  s.attacker[ar::unit_type::continental] = *rc::gen::inRange(0, 12);
  s.attacker[ar::unit_type::militia] = *rc::gen::inRange(0, 20);
  s.defender[ar::unit_type::regular] = *rc::gen::inRange(0, 12);
  s.defender[ar::unit_type::tory] = *rc::gen::inRange(0, 8);
  RC_PRE(s.attacker.total() > 0 && s.defender.total() > 0);
  s.fort = *rc::gen::arbitrary<bool>();
  ar::battle_result r;
  try {
    r = ar::resolve_battle(table, s);
  } catch (const musket::invalid_input&) {
    RC_DISCARD("below the table's lowest odds");
  }
  rational sum = r.unknown();
  for (const auto result : {ar::crt_result::De, ar::crt_result::HalfDe, ar::crt_result::HalfEx}) {
    RC_ASSERT(r.probability(result) >= rational(0));
    sum += r.probability(result);
  }
  RC_ASSERT(sum == rational(1));
}

// A Great Lakes unit of SP and dice in [1, sp_below) and [dice_from, dice_below), morale 2-6.
gl::unit great_lakes_unit(const std::string& name, int sp_below, int dice_from, int dice_below) {
  gl::unit u;
  u.name = name;
  u.sp = u.max_sp = *rc::gen::inRange(1, sp_below);
  u.dice = *rc::gen::inRange(dice_from, dice_below);
  u.morale = *rc::gen::inRange(2, 7);
  return u;
}

RC_GTEST_PROP(GreatLakesProperty, ExactEndsSumToOneAndSimulationAgreesWithinFiveSigma, ()) {
  gl::battle b;
  b.attacker.side = gl::nation::american;
  b.defender.side = gl::nation::british;
  const int units = *rc::gen::inRange(1, 3);
  for (int i = 0; i < units; ++i) b.attacker.units.push_back(great_lakes_unit("A" + std::to_string(i), 4, 1, 4));
  b.defender.units.push_back(great_lakes_unit("D", 4, 1, 4));
  try {
    gl::validate(b);
  } catch (const musket::invalid_input&) {
    RC_DISCARD("not a legal battle");
  }
  const auto exact = gl::solve_exact(b);
  double sum = 0;
  for (double p : exact.ends) {
    RC_ASSERT(p >= 0.0);
    RC_ASSERT(p <= 1.0 + 1e-12);
    sum += p;
  }
  RC_ASSERT(std::abs(sum - 1.0) <= 1e-12);
  RC_ASSERT(std::abs(total(exact.attacker_sp_lost) - 1.0) <= 1e-12);
  musket::simulation_options options;
  options.trials = 5000;
  options.seed = *rc::gen::inRange<std::uint64_t>(0, 1000000);
  options.threads = 1;
  const auto sim = gl::simulate(b, options);
  for (std::size_t e = 0; e < exact.ends.size(); ++e) {
    const double p = std::clamp(exact.ends[e], 0.0, 1.0);
    const double sigma = std::sqrt(p * (1 - p) / static_cast<double>(options.trials));
    RC_ASSERT(std::abs(sim.ends[e] - p) <= 5 * sigma + 1e-9);
  }
}

// Issue 37: small battles with a unit of no battle dice (it still fires a die at a voluntary
// retreat, GL 12.2), a river crossing, leaders' rerolls, a fort, no retreat route or the Niagara,
// solved with each `optimal` choice the CLI offers (one side's hits, rerolls or retreat, or every
// choice of both: --play optimal) on both objectives: the solved play's ends sum to 1, each SP
// lost distribution too, and its value is its outcome document's payoff averaged.
RC_GTEST_PROP(GreatLakesProperty, OptimalPlayOutcomeAddsUpToItsValue, ()) {
  gl::battle b;
  b.attacker.side = gl::nation::american;
  b.defender.side = gl::nation::british;
  const int attackers = *rc::gen::inRange(1, 3), defenders = *rc::gen::inRange(1, 3);
  for (int i = 0; i < attackers; ++i) {
    b.attacker.units.push_back(great_lakes_unit("A" + std::to_string(i), 3, 0, 3));
    b.attacker.units.back().crossed = *rc::gen::element(gl::crossing::none, gl::crossing::none, gl::crossing::river);
  }
  for (int i = 0; i < defenders; ++i) b.defender.units.push_back(great_lakes_unit("D" + std::to_string(i), 3, 0, 3));
  const int diceless = *rc::gen::inRange(0, attackers + defenders);
  (diceless < attackers ? b.attacker.units[static_cast<std::size_t>(diceless)]
                        : b.defender.units[static_cast<std::size_t>(diceless - attackers)])
      .dice = 0;
  if (*rc::gen::arbitrary<bool>()) b.attacker.leaders = {"Brown"};
  if (*rc::gen::arbitrary<bool>()) b.defender.leaders = {"Drummond"};
  if (*rc::gen::inRange(0, 4) == 0) b.defender.fortification = gl::fort{*rc::gen::inRange(0, 2), 1, 4, false};
  b.attacker.retreat_route = *rc::gen::inRange(0, 5) != 0;
  b.defender.retreat_route = *rc::gen::inRange(0, 5) != 0;
  b.niagara = *rc::gen::inRange(0, 4) == 0;
  try {
    gl::validate(b);
  } catch (const musket::invalid_input&) {
    RC_DISCARD("not a legal battle");
  }
  gl::game_options g;
  g.goal = *rc::gen::element(gl::objective::win, gl::objective::value);
  if (g.goal == gl::objective::value) g.win_value = *rc::gen::element(0.0, 1.0, 2.5);
  const double scale = std::max(1.0, g.win_value + 6);  // (|value| is at most W + the SP on the field)
  for (int choice = 0; choice < 7; ++choice) {
    gl::battle p = b;
    for (int side = 0; side < 2; ++side) {
      gl::army& a = side == 0 ? p.attacker : p.defender;
      const bool all = choice == 6;
      if (all || choice == side) a.hit_allocation = {gl::hit_allocation_kind::optimal};
      if (all || choice == 2 + side) a.rerolls = {gl::reroll_kind::optimal};
      if (all || choice == 4 + side) a.retreat = {gl::retreat_kind::optimal, 0};
    }
    const gl::game_result res = gl::solve_optimal_play(p, g);
    RC_ASSERT(std::abs(std::accumulate(res.outcome.ends.begin(), res.outcome.ends.end(), 0.0) - 1.0) <= 1e-12);
    RC_ASSERT(std::abs(total(res.outcome.attacker_sp_lost) - 1.0) <= 1e-12);
    RC_ASSERT(std::abs(total(res.outcome.defender_sp_lost) - 1.0) <= 1e-12);
    double value = g.goal == gl::objective::win ? res.outcome.attacker_wins : g.win_value * res.outcome.attacker_wins;
    if (g.goal == gl::objective::value) {
      for (std::size_t k = 0; k < res.outcome.attacker_sp_lost.size(); ++k)
        value -= static_cast<double>(k) * res.outcome.attacker_sp_lost[k];
      for (std::size_t k = 0; k < res.outcome.defender_sp_lost.size(); ++k)
        value += static_cast<double>(k) * res.outcome.defender_sp_lost[k];
    }
    RC_ASSERT(std::abs(value - res.value) <= 1e-12 * scale);
  }
}

}  // namespace
