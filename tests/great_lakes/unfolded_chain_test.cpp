// The plain exact chain (unfolded_chain.hpp) adds each state's finished battles either from the row
// its first pass summed them into or by playing the state's round again past the rows' bound: the
// same answer.
#include "calc/great_lakes/unfolded_chain.hpp"

#include <gtest/gtest.h>

#include <string>

#include "tests/great_lakes/battle_builders.hpp"

namespace gl = musket::great_lakes;

namespace {

using gl::testing::duel;
using gl::testing::make_unit;

// The fixed policies' plain chain (battle.cpp's solve_unfolded) keeping at most `keep` states' rows.
gl::battle_result solve_keeping(const gl::battle& b, std::size_t keep) {
  const gl::round::battle_rules r = gl::round::compile(b);
  return gl::detail::solve_unfolded_chain(
      r, gl::exact_options{},
      [&](const gl::round::battle_state& s, double weight, auto&& emit) {
        gl::detail::exact_chooser c;
        c.weight = weight;
        auto played = [&](const gl::round::battle_state& t, gl::battle_end end) { emit(t, end, c.weight); };
        gl::round::play_round(r, s, c, played);
      },
      keep);
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
