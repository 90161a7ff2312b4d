// core/u64_memo.hpp: every key kept once with its first value, through growth and collisions.
#include "core/u64_memo.hpp"

#include <gtest/gtest.h>

#include <cstdint>

namespace {

// 5,000 keys that share their low 32 bits (pairs (i, 7) as optimal play packs them) and 5,000
// that share their high bits: each is new once, then found with the value it was made with, and
// the memo counts 10,000 keys past its first 1,024 slots.
TEST(U64Memo, KeepsEachKeyOnceThroughGrowth) {
  musket::u64_memo<int> memo;
  for (int round = 0; round < 2; ++round)
    for (std::uint64_t i = 0; i < 5000; ++i) {
      const std::uint64_t high = i << 32 | 7, low = std::uint64_t{7} << 32 | (i + 100000);
      const auto [a, fresh_a] = memo.try_emplace(high, static_cast<int>(i));
      EXPECT_EQ(fresh_a, round == 0);
      EXPECT_EQ(a, static_cast<int>(i));
      const auto [b, fresh_b] = memo.try_emplace(low, -static_cast<int>(i));
      EXPECT_EQ(fresh_b, round == 0);
      EXPECT_EQ(b, -static_cast<int>(i));
    }
  EXPECT_EQ(memo.size(), 10000u);
}

// A value set through the reference is the one found next; key 0 is a key like any other.
TEST(U64Memo, AValueSetThroughItsReferenceIsKept) {
  musket::u64_memo<double> memo;
  auto [v, fresh] = memo.try_emplace(0, 1.5);
  ASSERT_TRUE(fresh);
  v = 2.25;
  const auto [again, fresh_again] = memo.try_emplace(0, 9.0);
  EXPECT_FALSE(fresh_again);
  EXPECT_EQ(again, 2.25);
  EXPECT_EQ(memo.size(), 1u);
}

}  // namespace
