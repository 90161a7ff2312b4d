// The plain exact chain (exact/plain_chain.hpp) adds each state's finished battles either from the row
// its first pass summed them into or by playing the state's round again past the rows' bound: the
// same answer.
#include "calc/great_lakes/exact/plain_chain.hpp"

#include <gtest/gtest.h>

#include <string>

#include "tests/great_lakes/battle_builders.hpp"

namespace gl = musket::great_lakes;

namespace {

using gl::testing::duel;
using gl::testing::make_unit;

// The fixed policies' plain chain (battle.cpp's solve_unfolded) keeping at most `keep` states' rows;
// each retreat played in its round, or handed over to the chain (emit.retreat,
// round::play_round_until_retreat), which plays each retreat's start once and adds its row.
gl::battle_result solve_keeping(const gl::battle& b, std::size_t keep, bool hand_over_retreats = false) {
  const gl::round::battle_rules r = gl::round::compile(b);
  return gl::detail::solve_unfolded_chain(
      r, gl::exact_options{},
      [&](const gl::round::battle_state& s, double weight, auto&& emit) {
        gl::detail::exact_chooser c;
        c.weight = weight;
        auto played = [&](const gl::round::battle_state& t, gl::battle_end end) { emit(t, end, c.weight); };
        auto retreat = [&](gl::round::battle_state& t, int side, bool forced, int) {
          if (hand_over_retreats) return emit.retreat(t, side, forced, c.weight);
          gl::round::resolve_retreat(r, t, side, forced, c, played);
        };
        gl::round::play_round_until_retreat(r, s, c, played, retreat);
      },
      keep);
}

// The same sums regrouped: equal to a few units in the last place.
void expect_same_outcome(const gl::battle_result& a, const gl::battle_result& b, const std::string& what) {
  constexpr double close = 1e-14;
  for (std::size_t e = 0; e < a.ends.size(); ++e) EXPECT_NEAR(a.ends[e], b.ends[e], close) << what;
  ASSERT_EQ(a.attacker_sp_lost.size(), b.attacker_sp_lost.size()) << what;
  ASSERT_EQ(a.defender_sp_lost.size(), b.defender_sp_lost.size()) << what;
  for (std::size_t k = 0; k < a.attacker_sp_lost.size(); ++k)
    EXPECT_NEAR(a.attacker_sp_lost[k], b.attacker_sp_lost[k], close) << what;
  for (std::size_t k = 0; k < a.defender_sp_lost.size(); ++k)
    EXPECT_NEAR(a.defender_sp_lost[k], b.defender_sp_lost[k], close) << what;
  for (std::size_t u = 0; u < a.units.size(); ++u) {
    EXPECT_NEAR(a.units[u].survives, b.units[u].survives, close) << what;
    EXPECT_NEAR(a.units[u].expected_sp, b.units[u].expected_sp, close) << what;
    EXPECT_NEAR(a.units[u].fails_morale, b.units[u].fails_morale, close) << what;
  }
  // (A retreat's chance of ending the round is its weight, not the sum of its fire's outcomes.)
  ASSERT_EQ(a.rounds_distribution.size(), b.rounds_distribution.size()) << what;
  for (std::size_t t = 0; t < a.rounds_distribution.size(); ++t)
    EXPECT_NEAR(a.rounds_distribution[t], b.rounds_distribution[t], close) << what;
}

TEST(GreatLakesPlainChain, RetreatsHandedOverAddTheSameAsPlayed) {
  // Two units a side that can fail morale (forced retreats, GL 12.3) and a defender that retreats
  // at 2 line SP or less (voluntary, GL 12.2): each retreat played in its round, or handed over and
  // added from its start's row, kept or every state played again: the same sums, regrouped.
  gl::battle b = duel(make_unit("a0", 3, 2, 4), make_unit("d0", 3, 2, 4));
  b.attacker.units.push_back(make_unit("a1", 2, 2, 3, gl::unit_type::militia));
  b.defender.units.push_back(make_unit("d1", 2, 2, 3, gl::unit_type::militia));
  b.defender.retreat = {gl::retreat_kind::line_sp_at_most, 2};
  const auto played = solve_keeping(b, gl::detail::rows_by_bytes);
  // (The battle retreats both ways, so both paths are taken.)
  EXPECT_GT(played.ends[static_cast<std::size_t>(gl::battle_end::attacker_forced_retreat)], 0.0);
  EXPECT_GT(played.ends[static_cast<std::size_t>(gl::battle_end::defender_voluntary_retreat)], 0.0);
  expect_same_outcome(played, solve_keeping(b, gl::detail::rows_by_bytes, true), "handed over, kept");
  expect_same_outcome(played, solve_keeping(b, 0, true), "handed over, played again");
  expect_same_outcome(played, solve_keeping(b, 3, true), "handed over, part kept");
}

TEST(GreatLakesPlainChain, DuelKeptOrReplayed) {
  // 1 SP, 1 die, morale 6 each (battle_test's OneUnitEachSingleSp): the defender's hit (1/6) or,
  // after its miss, the attacker's (5/36) ends it, so P(attacker wins) = (5/36) / (11/36) = 5/11;
  // mean rounds 36/11. The one state's two finished battles: keeping no row replays it, one keeps it.
  for (std::size_t keep : {std::size_t{0}, std::size_t{1}, gl::detail::rows_by_bytes}) {
    const auto r = solve_keeping(duel(make_unit("A", 1, 1), make_unit("D", 1, 1)), keep);
    EXPECT_NEAR(r.attacker_wins, 5.0 / 11, 1e-15) << keep;
    EXPECT_NEAR(r.defender_holds, 6.0 / 11, 1e-15) << keep;
    EXPECT_NEAR(r.units[0].survives, 5.0 / 11, 1e-15) << keep;
    EXPECT_NEAR(r.rounds_mean, 36.0 / 11, 1e-14) << keep;
  }
}

TEST(GreatLakesPlainChain, KeptAndReplayedStatesAgree) {
  // Four single-SP, one-die, morale-6 blocks a side: every state replayed (0), the first few kept
  // (8: the rows run out part way), and all kept; each the same sums, in another order.
  gl::battle b = duel(make_unit("a0", 1, 1), make_unit("d0", 1, 1));
  for (int i = 1; i < 4; ++i) {
    b.attacker.units.push_back(make_unit("a" + std::to_string(i), 1, 1));
    b.defender.units.push_back(make_unit("d" + std::to_string(i), 1, 1));
  }
  const auto replayed = solve_keeping(b, 0);
  EXPECT_EQ(replayed.method.states, 16u);  // 1-4 units a side standing
  for (std::size_t keep : {std::size_t{8}, std::size_t{16}, gl::detail::rows_by_bytes}) {
    const auto r = solve_keeping(b, keep);
    for (std::size_t e = 0; e < r.ends.size(); ++e) EXPECT_NEAR(r.ends[e], replayed.ends[e], 1e-15) << keep;
    ASSERT_EQ(r.attacker_sp_lost.size(), replayed.attacker_sp_lost.size());
    for (std::size_t k = 0; k < r.attacker_sp_lost.size(); ++k) {
      EXPECT_NEAR(r.attacker_sp_lost[k], replayed.attacker_sp_lost[k], 1e-15) << keep;
      EXPECT_NEAR(r.defender_sp_lost[k], replayed.defender_sp_lost[k], 1e-15) << keep;
    }
    for (std::size_t u = 0; u < r.units.size(); ++u) {
      EXPECT_NEAR(r.units[u].survives, replayed.units[u].survives, 1e-15) << keep;
      EXPECT_NEAR(r.units[u].expected_sp, replayed.units[u].expected_sp, 1e-15) << keep;
    }
    EXPECT_EQ(r.rounds_distribution, replayed.rounds_distribution) << keep;  // (not from the finished battles)
    EXPECT_GT(r.method.memory_bytes, replayed.method.memory_bytes) << keep;  // the kept list is counted
  }
}

}  // namespace
