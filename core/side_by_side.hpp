#pragma once
// Two parts of one calculation run side by side, the second on a thread of its own (where
// usable_threads allows two): the column sweep and its rounds, optimal play's two outcome chains,
// the columns of one key of its game. Each part makes its own sums; what they share they only read.
#include <atomic>
#include <exception>
#include <thread>

namespace musket {

// Runs first() on this thread and second() on a new one, then after() on the thread whose part
// ended first (not at all once either failed), so a third, shorter part fills the core the shorter
// of the two would leave idle (optimal play's round 1 advice and the work beside its longer outcome
// chain); returns once all have ended. Once a part throws, `stop` (where given) is set, for the
// others to end early; the exception of the one that failed first is then rethrown (one thrown
// because it was stopped is dropped).
template <class First, class Second, class After>
void side_by_side_then(First&& first, Second&& second, After&& after, std::atomic<bool>* stop = nullptr) {
  std::exception_ptr failed[3];
  std::atomic<int> first_failed{-1};
  std::atomic<bool> after_taken{false};
  auto fail = [&](int k) {
    failed[k] = std::current_exception();
    int none = -1;
    first_failed.compare_exchange_strong(none, k);
    if (stop) stop->store(true);
  };
  auto run = [&](int k, auto& part) {
    try {
      part();
    } catch (...) {
      fail(k);
      return;
    }
    if (first_failed.load() >= 0 || after_taken.exchange(true)) return;
    try {
      after();
    } catch (...) {
      fail(2);
    }
  };
  std::thread beside([&] { run(1, second); });
  run(0, first);
  beside.join();
  if (const int k = first_failed.load(); k >= 0) std::rethrow_exception(failed[k]);
}

// The same with nothing after.
template <class First, class Second>
void side_by_side(First&& first, Second&& second, std::atomic<bool>* stop = nullptr) {
  side_by_side_then(
      first, second, [] {}, stop);
}

}  // namespace musket
