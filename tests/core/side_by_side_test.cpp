// core/side_by_side.hpp: both parts run to their end; once one throws, the other is told to stop,
// and the first failure is the one rethrown. side_by_side_then runs its third part once, on the
// thread whose part ended first, and not at all once a part failed.
#include "core/side_by_side.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <stdexcept>
#include <thread>

namespace {

struct stopped {};

// Each part sums its own half of 1..1000 (what one thread writes the other never reads): 500,500.
TEST(SideBySide, BothPartsRunToTheirEnd) {
  long first = 0, second = 0;
  musket::side_by_side(
      [&] {
        for (long k = 1; k <= 500; ++k) first += k;
      },
      [&] {
        for (long k = 501; k <= 1000; ++k) second += k;
      });
  EXPECT_EQ(first, 125250);
  EXPECT_EQ(second, 375250);
}

// The second part fails; the first, told to stop, gives up with an exception of its own: the
// caller sees the second's failure, not the first's.
TEST(SideBySide, TheFirstFailureIsRethrownAndTheOtherIsStopped) {
  std::atomic<bool> stop{false};
  bool first_stopped = false;
  auto first = [&] {
    while (!stop.load()) std::this_thread::yield();
    first_stopped = true;
    throw stopped{};
  };
  auto second = [] { throw std::runtime_error("second failed"); };
  try {
    musket::side_by_side(first, second, &stop);
    ADD_FAILURE() << "no exception";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "second failed");
  } catch (const stopped&) {
    ADD_FAILURE() << "the stopped part's exception was rethrown";
  }
  EXPECT_TRUE(first_stopped);
  EXPECT_TRUE(stop.load());
}

// The second part ends at once; the first waits until the third has run: the third can only have
// run on the second's thread (were it left for the first's, the first would wait for ever: the
// test would hang, not pass), once.
TEST(SideBySide, TheThirdPartRunsOnceOnTheThreadThatEndedFirst) {
  std::atomic<int> third_runs{0};
  std::thread::id second_thread, third_thread;
  auto first = [&] {
    while (third_runs.load() == 0) std::this_thread::yield();
  };
  auto second = [&] { second_thread = std::this_thread::get_id(); };
  auto third = [&] {
    third_thread = std::this_thread::get_id();
    third_runs.fetch_add(1);
  };
  musket::side_by_side_then(first, second, third);
  EXPECT_EQ(third_runs.load(), 1);
  EXPECT_EQ(third_thread, second_thread);
  EXPECT_NE(third_thread, std::this_thread::get_id());
}

// A part that fails keeps the third from running (its work would be for an answer never given),
// and its failure is rethrown.
TEST(SideBySide, TheThirdPartIsLeftOnceAPartFailed) {
  std::atomic<bool> stop{false};
  bool third_ran = false;
  auto first = [&] {
    while (!stop.load()) std::this_thread::yield();
  };
  auto second = [] { throw std::runtime_error("second failed"); };
  try {
    musket::side_by_side_then(
        first, second, [&] { third_ran = true; }, &stop);
    ADD_FAILURE() << "no exception";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "second failed");
  }
  EXPECT_FALSE(third_ran);
}

}  // namespace
