#pragma once
// A memo from 64-bit keys to values: open addressing with linear probing over one array of
// (key, value) slots, where std::unordered_map chases a pointer to a node per look-up (the choices
// optimal play looks up once per outcome of every pair it plays). Never shrinks; holds at most
// half its slots. A value's reference holds until the next try_emplace. clear() forgets every key
// at once (a slot is in use only if it carries the memo's current generation), so a memo that
// holds one stretch of work at a time stays as small as the largest stretch.
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace musket {

template <class Value>
class u64_memo {
 public:
  // The value kept for key, made from `fresh` if new; second: whether it was.
  std::pair<Value&, bool> try_emplace(std::uint64_t key, const Value& fresh) {
    if ((size_ + 1) * 2 > slots_.size()) grow();
    std::size_t at = spread(key) & (slots_.size() - 1);
    while (slots_[at].generation == generation_) {
      if (slots_[at].key == key) return {slots_[at].value, false};
      at = (at + 1) & (slots_.size() - 1);
    }
    slots_[at] = {key, fresh, generation_};
    ++size_;
    return {slots_[at].value, true};
  }
  void clear() {
    size_ = 0;
    if (++generation_ == 0) {  // (wrapped: every slot's mark made stale again)
      for (slot& s : slots_) s.generation = 0;
      generation_ = 1;
    }
  }
  std::size_t size() const { return size_; }
  std::size_t bytes() const { return slots_.capacity() * sizeof(slot); }

 private:
  struct slot {
    std::uint64_t key = 0;
    Value value{};
    std::uint32_t generation = 0;  // in use where it is the memo's
  };
  // (Keys are pairs of small indices: mixed so both halves reach the low bits.)
  static std::size_t spread(std::uint64_t k) {
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdULL;
    k ^= k >> 33;
    return static_cast<std::size_t>(k);
  }
  void grow() {
    std::vector<slot> old = std::move(slots_);
    slots_.assign(old.empty() ? 1024 : old.size() * 2, slot{});
    size_ = 0;
    for (const slot& s : old)
      if (s.generation == generation_) try_emplace(s.key, s.value);
  }
  std::vector<slot> slots_;
  std::size_t size_ = 0;
  std::uint32_t generation_ = 1;
};

}  // namespace musket
