#pragma once
// One memory meter for every solver that bounds the memory it holds: the solver tells the meter
// how many bytes its structures hold (their entries and their lists' capacity, as it counts them)
// and the meter keeps the peak and throws memory_limit_exceeded once the count passes the bound.
// A solver may also ask, before building something, whether it would fit (`fits`, `room`).
#include <algorithm>
#include <cstddef>
#include <stdexcept>
#include <string>

namespace musket {

// Thrown by memory_meter once the bytes counted pass its bound: `counted` the bytes then, `states`
// how many states (or whatever unit the solver counts its work in) it held by then.
class memory_limit_exceeded : public std::runtime_error {
 public:
  memory_limit_exceeded(std::size_t limit, std::size_t counted, std::size_t states)
      : std::runtime_error("the memory counted passed " + std::to_string(limit) + " bytes"),
        limit_(limit),
        counted_(counted),
        states_(states) {}
  std::size_t limit() const noexcept { return limit_; }
  std::size_t counted() const noexcept { return counted_; }  // bytes counted when it stopped
  std::size_t states() const noexcept { return states_; }    // states found by then

 private:
  std::size_t limit_, counted_, states_;
};

class memory_meter {
 public:
  // `bound`: the most bytes allowed; 0 for no bound.
  explicit memory_meter(std::size_t bound = 0) noexcept : bound_(bound) {}

  // The structures now hold `bytes` in all: the peak follows it, and past the bound this throws
  // memory_limit_exceeded (with `states`, what the solver held by then).
  void hold(std::size_t bytes, std::size_t states = 0) {
    held_ = bytes;
    peak_ = std::max(peak_, bytes);
    if (bound_ > 0 && bytes > bound_) throw memory_limit_exceeded(bound_, bytes, states);
  }
  // `bytes` more (or fewer) than before, checked as hold() checks.
  void add(std::size_t bytes, std::size_t states = 0) { hold(held_ + bytes, states); }
  void release(std::size_t bytes) noexcept { held_ -= std::min(held_, bytes); }

  // Whether `bytes` more would stay within the bound (always, with none). A double, so that a
  // prediction past any size_t (or infinite) is simply too much.
  bool fits(double bytes) const noexcept {
    return bound_ == 0 || held_ + bytes <= static_cast<double>(bound_);  // (false for NaN)
  }
  // The bytes left before the bound; `unbounded` when there is none.
  std::size_t room(std::size_t unbounded) const noexcept {
    return bound_ == 0 ? unbounded : bound_ - std::min(bound_, held_);
  }

  std::size_t held() const noexcept { return held_; }
  std::size_t peak() const noexcept { return peak_; }
  std::size_t bound() const noexcept { return bound_; }

 private:
  std::size_t bound_ = 0, held_ = 0, peak_ = 0;
};

}  // namespace musket
