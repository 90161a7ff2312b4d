#pragma once
// One memory bound shared by the parts of a calculation played side by side (optimal play's
// outcome chains, up to three on two threads), each publishing the bytes it holds as it goes, so
// that together they stop as they pass the bound rather than once all have ended; and room under
// it lent, once parts have ended and let go of what they held, to other work beside the part still
// running (the default play and each side's game alone). The running parts count the loan as held;
// where one would pass the bound with it, it takes it back: the borrower is told to stop (recalled)
// and the part waits until it has let go (repay), so the bound holds for all and a running part
// never fails for what was lent.
#include <array>
#include <atomic>
#include <cstddef>
#include <thread>

namespace musket {

class shared_bound {
 public:
  static constexpr int most_parts = 3;

  // `bound`: the most bytes the parts (and a loan) may hold together; 0 for no bound.
  explicit shared_bound(std::size_t bound) noexcept : bound_(bound) {}

  // Part `part` (0 to most_parts - 1) now holds `bytes`: the bytes all parts hold, once a loan that
  // would take them past the bound has been taken back.
  std::size_t hold(int part, std::size_t bytes) {
    held_[static_cast<std::size_t>(part)].store(bytes);
    const std::size_t all = total();
    const std::size_t lent = lent_.load();
    if (bound_ > 0 && lent > 0 && all + lent > bound_) {
      recalled_.store(true);
      while (out_.load()) std::this_thread::yield();
    }
    return all;
  }

  // Part `part` has ended and let go of what it last held.
  void end(int part) { ended_[static_cast<std::size_t>(part)].store(true); }

  // Lends room to work beside the parts still running: what the ended parts last held and half the
  // room all leave. Returns the bytes the borrower may hold (0: no bound). One loan at a time, until
  // repay().
  std::size_t lend() {
    if (bound_ == 0) return 0;
    std::size_t gone = 0;
    for (std::size_t k = 0; k < held_.size(); ++k)
      if (ended_[k].load()) gone += held_[k].load();
    const std::size_t all = total();
    const std::size_t half = bound_ > all ? (bound_ - all) / 2 : 0;
    out_.store(true);
    lent_.store(half);
    return gone + half;
  }
  // The borrower has let go of the loan.
  void repay() {
    lent_.store(0);
    out_.store(false);
  }
  // Set once a loan is taken back (and kept: one loan a calculation): the borrower's signal to stop.
  const std::atomic<bool>& recalled() const noexcept { return recalled_; }

 private:
  std::size_t bound_;
  std::size_t total() const {
    std::size_t all = 0;
    for (const auto& h : held_) all += h.load();
    return all;
  }

  std::array<std::atomic<std::size_t>, most_parts> held_{};
  std::array<std::atomic<bool>, most_parts> ended_{};
  std::atomic<std::size_t> lent_{0};
  std::atomic<bool> out_{false}, recalled_{false};
};

}  // namespace musket
