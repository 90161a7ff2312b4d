// The exact solve's predicted cost (issue 20): per-side folded states and round outcomes, counted
// by hand for tiny battles.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "calc/great_lakes/exact/cost.hpp"
#include "tests/great_lakes/battle_builders.hpp"

namespace gl = musket::great_lakes;

namespace {

using gl::testing::duel;
using gl::testing::make_unit;

}  // namespace

TEST(GreatLakesExactCost, OneSpDuel) {
  // 1 SP, 1 die each: one state a side; each side's round has two outcomes (missed, or hit: the
  // battle ends), so a round of the battle has 2 x 2 = 4.
  const auto c = gl::predict_exact_cost(duel(make_unit("A", 1, 1, 6), make_unit("D", 1, 1, 6)));
  EXPECT_EQ(c.side_states[0], 1u);
  EXPECT_EQ(c.side_states[1], 1u);
  EXPECT_DOUBLE_EQ(c.states, 1.0);
  EXPECT_DOUBLE_EQ(c.transitions, 4.0);
  EXPECT_DOUBLE_EQ(c.seconds, gl::fixed_seconds + 4 * gl::seconds_per_transition);
}

TEST(GreatLakesExactCost, MoraleOutcomesCount) {
  // Attacker 2 SP, morale 5, no dice; defender 1 SP, 1 die, morale 6. Attacker states: 2 SP, or
  // 1 SP after a hit it passed (a failure empties its line: the battle ends, no state). From 2 SP
  // the defender's one die gives: a miss (1 outcome), a hit then morale pass or fail (2); from
  // 1 SP: a miss or a hit that ends it (2). The defender, never fired on (the attacker has no
  // dice), has its one state and one outcome. A unit can fail morale, so the engine plays half
  // rounds: per pair of states the sum of the sides' outcomes, (1 + 2) + 1 from 2 SP and 2 + 1
  // from 1 SP, 7 (whole rounds would be their products, (1 + 2) x 1 + 2 x 1 = 5).
  gl::battle b = duel(make_unit("A", 2, 0, 5), make_unit("D", 1, 1, 6));
  const auto c = gl::predict_exact_cost(b);
  EXPECT_EQ(c.side_states[0], 2u);
  EXPECT_EQ(c.side_states[1], 1u);
  EXPECT_DOUBLE_EQ(c.transitions, 7.0);
  // The column sweep plays it (exact/column_sweep.hpp): its cost per outcome, its memory per state.
  EXPECT_TRUE(c.swept);
  EXPECT_DOUBLE_EQ(c.seconds, gl::swept_fixed_seconds + 7 * gl::seconds_per_swept_outcome);
  EXPECT_DOUBLE_EQ(c.bytes, 2 * gl::bytes_per_swept_state);
  // A retreat policy reads only the line SP: swept all the same (at most 0 SP, it never fires while
  // a line stands: the same counts).
  b.attacker.retreat = {gl::retreat_kind::line_sp_at_most, 0};
  const auto with_policy = gl::predict_exact_cost(b);
  EXPECT_TRUE(with_policy.swept);
  EXPECT_DOUBLE_EQ(with_policy.seconds, c.seconds);
  // A reinforcement (GL 13) beside a retreat policy: swept too (issue 36). The defender's R (1 SP,
  // 1 die, morale 6) waits: from {D, R waiting} (1 die) the round's one outcome of no hit is R
  // entering or not (2); {D, R} (2 dice) has 1 outcome for 0 or 1 hit (a unit of 1 SP is gone,
  // nothing checks); the one left (1 die) has 1. Defender states 3, by dice: 1 die 2 states
  // (outcomes 2 + 1), 2 dice 1 state (1). The attacker's outcomes summed up to D hits of the
  // defender's dice (from 2 SP 1, 2, 1; from 1 SP 1, 1): 5 under 1 die, 7 under 2. Per dice of the
  // defender, attacker outcomes x defender states + attacker states x defender outcomes:
  // (5 x 2 + 2 x 3) + (7 x 1 + 2 x 1) = 25.
  b.defender.reinforcements.push_back({make_unit("R", 1, 1), false});
  const auto reinforced = gl::predict_exact_cost(b);
  EXPECT_TRUE(reinforced.swept);
  EXPECT_EQ(reinforced.side_states[0], 2u);
  EXPECT_EQ(reinforced.side_states[1], 3u);
  EXPECT_DOUBLE_EQ(reinforced.transitions, 25.0);
  EXPECT_DOUBLE_EQ(reinforced.seconds, gl::swept_fixed_seconds + 25 * gl::seconds_per_swept_outcome);
  EXPECT_DOUBLE_EQ(reinforced.bytes, 6 * gl::bytes_per_swept_state);
  // The one routing decision (choose_engine): a morale-5 militia behind a standing fort checks at
  // 6 (GL 2.5) and cannot fail, so nobody can: the plain chain's whole rounds.
  gl::battle fort = duel(make_unit("A", 2, 1, 6), make_unit("M", 2, 1, 5, gl::unit_type::militia));
  fort.defender.fortification = gl::fort{0, 1, 6, false};
  EXPECT_FALSE(gl::predict_exact_cost(fort).swept);
  fort.defender.fortification->destroyed = true;
  EXPECT_TRUE(gl::predict_exact_cost(fort).swept);
}

TEST(GreatLakesExactCost, GivesUpPastTheSideLimit) {
  gl::battle b;
  b.attacker.side = gl::nation::american;
  b.defender.side = gl::nation::british;
  for (int k = 0; k < 3; ++k) {
    b.attacker.units.push_back(make_unit("a" + std::to_string(k), 4, 3, 4));
    b.defender.units.push_back(make_unit("d" + std::to_string(k), 4, 3, 4));
  }
  // Three units of 4 SP that can fail morale: more than 50 states a side (each unit's SP 0-4 in
  // the line, or failed holding 1-4), so the limit of 50 stops the listing.
  const auto c = gl::predict_exact_cost(b, 50);
  EXPECT_TRUE(std::isinf(c.seconds));
  EXPECT_TRUE(std::isinf(c.bytes));
  const auto whole = gl::predict_exact_cost(b);
  EXPECT_TRUE(std::isfinite(whole.seconds));
  EXPECT_TRUE(std::isfinite(whole.bytes));
}

// The product of the sides' folded states bounds the battle's (each folded state is a pair of side
// states, plus the start when round 1 differs), so the prediction never undercounts them: checked
// against the exact engine on battles with morale, rerolls, a fort, a river crossing and a
// reinforcement.
TEST(GreatLakesExactCost, StatesBoundTheEngines) {
  std::vector<gl::battle> battles;
  gl::battle b = duel(make_unit("A", 3, 2, 4), make_unit("D", 3, 2, 3));
  battles.push_back(b);
  b.attacker.units.push_back(make_unit("A2", 2, 1, 5));
  b.attacker.units.back().crossed = gl::crossing::river;
  b.attacker.leaders = {"Brown"};
  b.defender.fortification = gl::fort{2, 2, 4, false};
  battles.push_back(b);
  b.defender.leaders = {"Riall"};
  b.defender.reinforcements.push_back({make_unit("R", 2, 1, 4), false});
  battles.push_back(b);
  for (const auto& battle : battles) {
    const auto c = gl::predict_exact_cost(battle);
    const auto r = gl::solve_exact(battle);
    EXPECT_GE(c.states, static_cast<double>(r.method.states));
    EXPECT_GE(c.transitions, static_cast<double>(r.method.transitions));  // outcomes >= distinct successors
  }
}
