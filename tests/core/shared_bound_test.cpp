// core/shared_bound.hpp: the parts' bytes counted together; a loan of half the room they leave (and
// what the ended parts held); taken back, its borrower stopped and waited for, only where a part
// still running would pass the bound with it.
#include "core/shared_bound.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>

namespace {

TEST(SharedBound, ThePartsBytesAreCountedTogether) {
  musket::shared_bound b(100);
  EXPECT_EQ(b.hold(0, 30), 30u);
  EXPECT_EQ(b.hold(1, 50), 80u);
  EXPECT_EQ(b.hold(0, 40), 90u);   // (a part's count replaces its last)
  EXPECT_EQ(b.hold(1, 70), 110u);  // past the bound: the caller's to refuse
  EXPECT_EQ(b.hold(2, 5), 115u);
}

// Bound 200, three parts at 30 and 20 (ended) and 50: room 100, half of it 50, so the borrower may
// hold 30 + 20 + 50; a part that has not ended lends nothing of its own.
TEST(SharedBound, LendsWhatEveryEndedPartHeld) {
  musket::shared_bound b(200);
  b.hold(0, 30);
  b.hold(1, 20);
  b.hold(2, 50);
  b.end(0);
  b.end(1);
  EXPECT_EQ(b.lend(), 100u);
  EXPECT_EQ(b.hold(2, 100), 150u);  // 150 + 50 lent = 200: within the bound
  EXPECT_FALSE(b.recalled().load());
  b.repay();
}

// Bound 100, parts at 30 (ended) and 50: room 20, half of it 10, so the borrower may hold 30 + 10.
// The running part then grows to 60: 60 + 30 + 10 = 100, within the bound: nothing taken back.
TEST(SharedBound, LendsWhatTheEndedPartHeldAndHalfTheRoom) {
  musket::shared_bound b(100);
  b.hold(0, 30);
  b.hold(1, 50);
  b.end(0);
  EXPECT_EQ(b.lend(), 40u);
  EXPECT_EQ(b.hold(1, 60), 90u);
  EXPECT_FALSE(b.recalled().load());
  b.repay();
}

// The running part grows to 65: with the loan 105 > 100, so the loan is taken back: the borrower,
// working until told to stop, is told, and the part's hold returns only once it has repaid.
TEST(SharedBound, TakesTheLoanBackWhereThePartWouldPassTheBound) {
  musket::shared_bound b(100);
  b.hold(0, 30);
  b.hold(1, 50);
  b.end(0);
  ASSERT_EQ(b.lend(), 40u);
  std::atomic<bool> repaid{false};
  std::thread borrower([&] {
    while (!b.recalled().load()) std::this_thread::yield();
    repaid.store(true);
    b.repay();
  });
  EXPECT_EQ(b.hold(1, 65), 95u);
  EXPECT_TRUE(b.recalled().load());
  EXPECT_TRUE(repaid.load());
  borrower.join();
}

TEST(SharedBound, WithoutABoundLendsAnyAndNeverRecalls) {
  musket::shared_bound b(0);
  b.hold(0, 1'000'000);
  b.end(0);
  EXPECT_EQ(b.lend(), 0u);
  EXPECT_EQ(b.hold(1, 5'000'000), 6'000'000u);
  EXPECT_FALSE(b.recalled().load());
  b.repay();
}

}  // namespace
