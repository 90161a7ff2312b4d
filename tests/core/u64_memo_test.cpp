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

// After clear() every key is new again, made from its new value; a memo cleared between
// stretches of 3,000 keys keeps the slots of one stretch (8,192: room for 3,000 at half full),
// where one that held all 12,000 would have four times as many.
TEST(U64Memo, ClearForgetsEveryKeyAndKeepsItsSlots) {
  musket::u64_memo<int> memo;
  for (int stretch = 0; stretch < 4; ++stretch) {
    for (std::uint64_t i = 0; i < 3000; ++i) {
      const auto [v, fresh] = memo.try_emplace(i << 32 | 3, stretch);
      EXPECT_TRUE(fresh);
      EXPECT_EQ(v, stretch);
    }
    const auto [again, fresh_again] = memo.try_emplace(std::uint64_t{5} << 32 | 3, -1);
    EXPECT_FALSE(fresh_again);
    EXPECT_EQ(again, stretch);
    EXPECT_EQ(memo.size(), 3000u);
    memo.clear();
    EXPECT_EQ(memo.size(), 0u);
  }
  musket::u64_memo<int> once, all;
  for (std::uint64_t i = 0; i < 12000; ++i) {
    if (i < 3000) once.try_emplace(i << 32 | 3, 0);
    all.try_emplace(i << 32 | 3, 0);
  }
  EXPECT_EQ(memo.bytes(), once.bytes());
  EXPECT_EQ(all.bytes(), 4 * once.bytes());  // (12,000 keys: 32,768 slots)
}

}  // namespace
