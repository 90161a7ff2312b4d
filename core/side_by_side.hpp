#pragma once
// Two parts of one calculation run side by side, the second on a thread of its own (where
// usable_threads allows two): the column sweep and its rounds, optimal play's two outcome chains,
// the columns of one key of its game. Each part makes its own sums; what they share they only read.
#include <atomic>
#include <exception>
#include <thread>

namespace musket {

// Runs first() on this thread and second() on a new one, and returns once both have ended. Once
// either throws, `stop` (where given) is set, for the other to end early; the exception of the one
// that failed first is then rethrown (the other's, thrown because it was stopped, is dropped).
template <class First, class Second>
void side_by_side(First&& first, Second&& second, std::atomic<bool>* stop = nullptr) {
  std::exception_ptr failed[2];
  std::atomic<int> first_failed{-1};
  auto run = [&](int k, auto& part) {
    try {
      part();
    } catch (...) {
      failed[k] = std::current_exception();
      int none = -1;
      first_failed.compare_exchange_strong(none, k);
      if (stop) stop->store(true);
    }
  };
  std::thread beside([&] { run(1, second); });
  run(0, first);
  beside.join();
  if (const int k = first_failed.load(); k >= 0) std::rethrow_exception(failed[k]);
}

}  // namespace musket
