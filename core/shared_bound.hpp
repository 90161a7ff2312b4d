#pragma once
// One memory bound shared by two parts of a calculation played side by side (optimal play's two
// outcome chains), each publishing the bytes it holds as it goes, so that together they stop as they
// pass the bound rather than once both have ended; and room under it lent, once one part has ended
// and let go of what it held, to other work beside the part still running (the default play and
// each side's game alone). The running part counts the loan as held; where it would pass the bound
// with it, it takes it back: the borrower is told to stop (recalled) and the part waits until it
// has let go (repay), so the bound holds for all three and the running part never fails for what
// it lent.
#include <array>
#include <atomic>
#include <cstddef>
#include <thread>

namespace musket {

class shared_bound {
 public:
  // `bound`: the most bytes both parts (and a loan) may hold together; 0 for no bound.
  explicit shared_bound(std::size_t bound) noexcept : bound_(bound) {}

  // Part `part` (0 or 1) now holds `bytes`: the bytes both parts hold, once a loan that would take
  // them past the bound has been taken back.
  std::size_t hold(int part, std::size_t bytes) {
    held_[static_cast<std::size_t>(part)].store(bytes);
    const std::size_t both = bytes + held_[static_cast<std::size_t>(1 - part)].load();
    const std::size_t lent = lent_.load();
    if (bound_ > 0 && lent > 0 && both + lent > bound_) {
      recalled_.store(true);
      while (out_.load()) std::this_thread::yield();
    }
    return both;
  }

  // Lends room to work beside the part still running, `ended` having let go of what it last held:
  // that and half the room the two parts leave. Returns the bytes the borrower may hold (0: no
  // bound). One loan at a time, until repay().
  std::size_t lend(int ended) {
    if (bound_ == 0) return 0;
    const std::size_t gone = held_[static_cast<std::size_t>(ended)].load();
    const std::size_t both = gone + held_[static_cast<std::size_t>(1 - ended)].load();
    const std::size_t half = bound_ > both ? (bound_ - both) / 2 : 0;
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
  std::array<std::atomic<std::size_t>, 2> held_{};
  std::atomic<std::size_t> lent_{0};
  std::atomic<bool> out_{false}, recalled_{false};
};

}  // namespace musket
