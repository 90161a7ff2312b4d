// core/key_index.hpp: each key gets the next index once, is found by it through growth, and a key
// never interned is not found.
#include "core/key_index.hpp"

#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <stdexcept>

namespace {

// Keys of 9 bytes (a side of 8 units and its rerolls, as optimal play keys a side state, the 9th
// read in the hash's second chunk): 20,000 distinct keys get 0 .. 19,999 in the order met, past the
// first 1,024 slots; interned again, each is found with its index and nothing is added.
TEST(KeyIndex, EachKeyGetsTheNextIndexOnceThroughGrowth) {
  musket::key_index index;
  index.reset(9);
  auto key = [](std::uint32_t i) {
    std::array<std::uint8_t, 9> k{};
    k[0] = static_cast<std::uint8_t>(i);
    k[3] = static_cast<std::uint8_t>(i >> 8);
    k[8] = static_cast<std::uint8_t>(i % 7);  // (k[0] and k[3] alone tell them apart)
    return k;
  };
  for (int round = 0; round < 2; ++round)
    for (std::uint32_t i = 0; i < 20000; ++i) {
      const auto k = key(i);
      const auto [at, fresh] = index.intern(k.data());
      EXPECT_EQ(fresh, round == 0);
      EXPECT_EQ(at, i);
      EXPECT_EQ(index.find(k.data()), i);
    }
  EXPECT_EQ(index.size(), 20000u);
}

// Two keys that differ only in their last byte are two keys; a key never interned is not found
// (find: none; at: out_of_range); reset forgets every key and takes the new length.
TEST(KeyIndex, FindsOnlyWhatWasInterned) {
  musket::key_index index;
  index.reset(3);
  const std::array<std::uint8_t, 3> a{1, 2, 3}, b{1, 2, 4}, c{9, 9, 9};
  EXPECT_EQ(index.intern(a.data()).first, 0u);
  EXPECT_EQ(index.intern(b.data()).first, 1u);
  EXPECT_EQ(index.find(c.data()), musket::key_index::none);
  EXPECT_THROW(static_cast<void>(index.at(c.data())), std::out_of_range);
  EXPECT_EQ(index.at(b.data()), 1u);
  index.reset(2);
  EXPECT_EQ(index.size(), 0u);
  EXPECT_EQ(index.length(), 2u);
  EXPECT_EQ(index.find(a.data()), musket::key_index::none);
  EXPECT_EQ(index.intern(c.data()).first, 0u);
}

}  // namespace
