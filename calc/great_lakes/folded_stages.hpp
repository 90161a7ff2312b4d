#pragma once
// How the folded engine's two stages run side by side: the ring of state_rounds they meet in,
// and the memory both count against one bound.
#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <thread>
#include <vector>

#include "calc/great_lakes/exact_parts.hpp"
#include "calc/great_lakes/folded_moves.hpp"

namespace musket::great_lakes::folded {

using detail::battle_rules;
using detail::battle_state;
using detail::state_key;

// The exact solve's memory, counted as it grows (issue 19): each stage of the folded solve sets,
// once per state, the bytes its own structures hold (their entries, and the capacity of their
// lists), and publishes the count to the other stage when it has moved by 64 KB; past the bound
// (the two stages' counts summed) the stage that sees it throws memory_limit_exceeded. The count
// is the solve's own data; the process's code, the allocator's overhead and the result are not in it.
class memory_meter {
 public:
  memory_meter(std::size_t limit, const std::atomic<std::size_t>& states) : limit_(limit), states_(states) {}
  void set(int stage, std::size_t bytes) {
    stage_count& own = stages_[stage];
    own.counted = bytes;
    if (bytes > own.published_at + granule || bytes + granule < own.published_at) publish(stage);
  }
  // Both stages' counts published (called where no stage runs any more): the peak, and the check.
  std::size_t finish() {
    for (int stage = 0; stage < 2; ++stage) publish(stage);
    return std::max(stages_[0].peak, stages_[1].peak);
  }

 private:
  static constexpr std::size_t granule = std::size_t{1} << 16;
  void publish(int stage) {
    stage_count& own = stages_[stage];
    own.published_at = own.counted;
    own.published.store(own.counted, std::memory_order_relaxed);
    const std::size_t total = own.counted + stages_[1 - stage].published.load(std::memory_order_relaxed);
    own.peak = std::max(own.peak, total);
    if (limit_ > 0 && total > limit_)
      throw memory_limit_exceeded(limit_, total, states_.load(std::memory_order_relaxed));
  }
  struct alignas(64) stage_count {
    std::size_t counted = 0, published_at = 0, peak = 0;  // the stage's own
    std::atomic<std::size_t> published{0};                // read by the other stage
  };
  std::array<stage_count, 2> stages_;
  std::size_t limit_;
  const std::atomic<std::size_t>& states_;  // stage one's count of states, for the message
};

// The folded chain is solved in two stages that run side by side: one plays each state's round,
// finds its successors (the chain) and carries the rounds along them, the other carries the labels.
// The chain never depends on the labels, so the second stage only follows the first, state by
// state in the same order; each stage's sums are made in one thread, in that order, so the answer
// is the same on any machine. The stages meet in a ring of state_rounds (their buffers reused),
// one writer and one reader. A stage that finds the ring full (or empty) spins a little, then
// yields, then naps: a state takes microseconds, and waking a sleeping thread through the kernel
// for each one cost more than the second thread saved. States differ in cost, and so do the
// stages state by state: a longer ring lets each run ahead (the 4 v 4 benchmark: 64 slots near
// 91 ms, 256 near 78, 512 near 76), but each slot's buffers are fresh memory the first time, and
// a single solve from the command line pays for that (256: 107 ms, 512: 120).
class round_queue {
 public:
  static constexpr std::size_t capacity = 256;
  // The producer's next buffer to fill (nullptr once the consumer has stopped).
  state_round* take_empty() {
    const std::size_t head = head_.load(std::memory_order_relaxed);
    if (!wait([&] { return head - tail_.load(std::memory_order_acquire) < capacity; })) return nullptr;
    return &ring_[head % capacity];
  }
  void put_full(state_round*) { head_.store(head_.load(std::memory_order_relaxed) + 1, std::memory_order_release); }
  // The consumer's next state (nullptr when the producer is done and all is taken, or stopped).
  state_round* take_full() {
    const std::size_t tail = tail_.load(std::memory_order_relaxed);
    const auto ready = [&] { return head_.load(std::memory_order_acquire) != tail; };
    if (!wait([&] { return ready() || finished_.load(std::memory_order_acquire); })) return nullptr;
    return ready() ? &ring_[tail % capacity] : nullptr;
  }
  // The consumer's state `k` places after the one it holds, if the producer has put it (else nullptr).
  const state_round* peek(std::size_t k) const {
    const std::size_t at = tail_.load(std::memory_order_relaxed) + k;
    return head_.load(std::memory_order_acquire) > at ? &ring_[at % capacity] : nullptr;
  }
  void give_back(state_round*) { tail_.store(tail_.load(std::memory_order_relaxed) + 1, std::memory_order_release); }
  void finish() { finished_.store(true, std::memory_order_release); }  // the producer has put its last state
  void stop() { stopped_.store(true, std::memory_order_release); }     // either side failed: the other gives up

 private:
  // Waits until ready() (true) or a stop (false).
  template <class Ready>
  bool wait(Ready ready) {
    for (unsigned spins = 0; !ready(); ++spins) {
      if (stopped_.load(std::memory_order_acquire)) return false;
      if (spins < 512)
        pause();
      else if (spins < 4096)
        std::this_thread::yield();
      else
        std::this_thread::sleep_for(std::chrono::microseconds(50));
    }
    return !stopped_.load(std::memory_order_acquire);
  }
  static void pause() {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();  // lets the other hyperthread run while this one waits
#endif
  }
  std::vector<state_round> ring_ = std::vector<state_round>(capacity);
  // Counts of states put and taken: each written by one thread only, on its own cache line.
  alignas(64) std::atomic<std::size_t> head_{0};
  alignas(64) std::atomic<std::size_t> tail_{0};
  alignas(64) std::atomic<bool> finished_{false}, stopped_{false};
};

}  // namespace musket::great_lakes::folded
