#include "core/memory_meter.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace musket {
namespace {

TEST(MemoryMeter, KeepsThePeakAndThrowsPastTheBound) {
  memory_meter m(1000);
  m.hold(600, 3);
  m.hold(400, 4);  // structures freed: the peak stays
  EXPECT_EQ(m.held(), 400u);
  EXPECT_EQ(m.peak(), 600u);
  m.add(600, 5);  // 1000: at the bound is within it
  EXPECT_EQ(m.held(), 1000u);
  try {
    m.add(1, 6);
    ADD_FAILURE() << "no memory_limit_exceeded at 1001 bytes of 1000";
  } catch (const memory_limit_exceeded& e) {
    EXPECT_EQ(e.limit(), 1000u);
    EXPECT_EQ(e.counted(), 1001u);
    EXPECT_EQ(e.states(), 6u);
  }
  EXPECT_EQ(m.peak(), 1001u);  // what was counted when it stopped
}

TEST(MemoryMeter, NoBoundNeverThrows) {
  memory_meter m;
  m.hold(std::numeric_limits<std::size_t>::max() / 2);
  EXPECT_EQ(m.bound(), 0u);
  EXPECT_TRUE(m.fits(1e300));
  EXPECT_EQ(m.room(77), 77u);
}

TEST(MemoryMeter, FitsAndRoomCountWhatIsHeld) {
  memory_meter m(1000);
  m.hold(300);
  EXPECT_EQ(m.room(0), 700u);
  EXPECT_TRUE(m.fits(700));
  EXPECT_FALSE(m.fits(701));
  EXPECT_FALSE(m.fits(std::numeric_limits<double>::infinity()));  // a prediction past any size
  EXPECT_FALSE(m.fits(std::nan("")));
  m.release(200);
  EXPECT_EQ(m.held(), 100u);
  m.release(5000);  // never below nothing
  EXPECT_EQ(m.held(), 0u);
  EXPECT_EQ(m.room(0), 1000u);
}

}  // namespace
}  // namespace musket
