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

TEST(BlockPool, CountsTheChunksItHolds) {
  block_pool pool;
  EXPECT_EQ(pool.bytes(), 0u);
  pool.take(10);
  const std::size_t one_chunk = pool.bytes();
  EXPECT_EQ(one_chunk, (std::size_t{1} << 17) * sizeof(double));  // one 1 MB chunk
  // Blocks that fit in the chunk take nothing more (10 + 100 x 100 doubles carved, 121,062 left);
  // a large one that does not fit gets a block of its own, exactly its size.
  for (int k = 0; k < 100; ++k) pool.take(100);
  EXPECT_EQ(pool.bytes(), one_chunk);
  double* large = pool.take(125000);
  EXPECT_EQ(pool.bytes(), one_chunk + 125000 * sizeof(double));
  for (int i = 0; i < 125000; i += 9999) EXPECT_EQ(large[i], 0.0);
  // Small blocks go on being carved from the first chunk, not from the large block.
  double* small = pool.take(8);
  EXPECT_TRUE(small + 8 <= large || large + 125000 <= small);
  EXPECT_EQ(pool.bytes(), one_chunk + 125000 * sizeof(double));
}

TEST(BlockPool, AFullChunkIsFollowedByANewOne) {
  block_pool pool;
  const std::uint32_t quarter = (1u << 17) / 4;  // the largest block carved from a chunk
  std::vector<double*> blocks;
  for (int k = 0; k < 5; ++k) blocks.push_back(pool.take(quarter));  // four fill the chunk
  EXPECT_EQ(pool.bytes(), 2 * (std::size_t{1} << 17) * sizeof(double));
  for (std::size_t k = 0; k < blocks.size(); ++k)
    for (std::size_t j = k + 1; j < blocks.size(); ++j)
      EXPECT_TRUE(blocks[k] + quarter <= blocks[j] || blocks[j] + quarter <= blocks[k]);
}

}  // namespace
