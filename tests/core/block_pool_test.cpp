#include "core/block_pool.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace {

using musket::block_pool;

TEST(BlockPool, BlocksComeZeroedAndApart) {
  block_pool pool;
  double* a = pool.take(5);
  double* b = pool.take(3);
  for (int i = 0; i < 5; ++i) EXPECT_EQ(a[i], 0.0);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(b[i], 0.0);
  for (int i = 0; i < 5; ++i) a[i] = 1.0 + i;
  for (int i = 0; i < 3; ++i) b[i] = -1.0;
  // Writing one block leaves the other as it was: they do not overlap.
  for (int i = 0; i < 5; ++i) EXPECT_EQ(a[i], 1.0 + i);
  EXPECT_TRUE(b + 3 <= a || a + 5 <= b);
}

TEST(BlockPool, ABlockGivenBackIsHandedOutAgainZeroed) {
  block_pool pool;
  double* a = pool.take(4);
  for (int i = 0; i < 4; ++i) a[i] = 7.0;
  pool.give_back(a, 4);
  double* other_size = pool.take(6);  // another size does not get it
  EXPECT_NE(other_size, a);
  double* again = pool.take(4);
  EXPECT_EQ(again, a);
  for (int i = 0; i < 4; ++i) EXPECT_EQ(again[i], 0.0);
}

TEST(BlockPool, ChunksDoubleFromFourKilobytes) {
  block_pool pool;
  EXPECT_EQ(pool.bytes(), 0u);
  constexpr std::size_t kb4 = 512 * sizeof(double);
  // Five blocks of 100 fit the first chunk (512 doubles); the sixth starts one of 1,024.
  std::vector<double*> blocks;
  for (int k = 0; k < 5; ++k) blocks.push_back(pool.take(100));
  EXPECT_EQ(pool.bytes(), kb4);
  blocks.push_back(pool.take(100));
  EXPECT_EQ(pool.bytes(), kb4 + 2 * kb4);
  for (std::size_t k = 0; k < blocks.size(); ++k)
    for (std::size_t j = k + 1; j < blocks.size(); ++j)
      EXPECT_TRUE(blocks[k] + 100 <= blocks[j] || blocks[j] + 100 <= blocks[k]);
  // A block larger than the next chunk makes the chunk as large as it needs (a power of two):
  // 3,000 doubles after 1,024 -> 4,096.
  pool.take(3000);
  EXPECT_EQ(pool.bytes(), kb4 + 2 * kb4 + 8 * kb4);
}

TEST(BlockPool, ALargeBlockHasAChunkOfItsOwn) {
  block_pool pool;
  pool.take(10);  // a first chunk of 512
  const std::size_t first = pool.bytes();
  // Past a quarter of the largest chunk (32,768 doubles): exactly its size, all 0.
  double* large = pool.take(40000);
  EXPECT_EQ(pool.bytes(), first + 40000 * sizeof(double));
  for (int i = 0; i < 40000; i += 999) EXPECT_EQ(large[i], 0.0);
  // Small blocks go on being carved from the first chunk.
  double* small = pool.take(8);
  EXPECT_EQ(pool.bytes(), first + 40000 * sizeof(double));
  EXPECT_TRUE(small + 8 <= large || large + 40000 <= small);
}

}  // namespace
