#pragma once
// Numbering and summing by key for the folded engine: an ordered open-addressing map, sums by
// 64-bit key, and key_numbering, which numbers a key by its mixed-radix rank where its bytes come
// from small sets known beforehand.
#include <algorithm>
#include <array>
#include <cstdint>
#include <stdexcept>
#include <utility>
#include <vector>

#include "calc/great_lakes/exact_parts.hpp"

namespace musket::great_lakes::folded {

using detail::battle_rules;
using detail::battle_state;
using detail::state_key;
using detail::state_key_hash;

struct number_hash {
  std::size_t operator()(std::uint64_t x) const {  // the splitmix64 finaliser: every bit moves every bit
    x ^= x >> 30;
    x *= 0xBF58476D1CE4E5B9ull;
    x ^= x >> 27;
    x *= 0x94D049BB133111EBull;
    return static_cast<std::size_t>(x ^ (x >> 31));
  }
};

// Keys in the order found, each with a value, behind an open-addressing index kept at most half
// full. clear() costs only what was added, so one map serves every state in turn.
template <class Key, class Value, class Hash>
class ordered_map {
 public:
  // The key's place in items(); a new key is added with Value{} and `added` set.
  std::uint32_t place(const Key& k, bool& added) {
    if ((items_.size() + 1) * 2 > index_.size()) grow();
    const std::size_t mask = index_.size() - 1;
    const std::uint64_t h = Hash{}(k);
    const std::uint64_t tag = h & tag_mask;
    std::size_t at = h & mask;
    while (index_[at] != 0) {
      // Most probes that miss are told by the tag, without reading the key.
      if ((index_[at] & tag_mask) == tag && items_[(index_[at] & place_mask) - 1].first == k) {
        added = false;
        return static_cast<std::uint32_t>((index_[at] & place_mask) - 1);
      }
      at = (at + 1) & mask;
    }
    items_.push_back({k, Value{}});
    index_[at] = tag | items_.size();
    used_.push_back(static_cast<std::uint32_t>(at));
    added = true;
    return static_cast<std::uint32_t>(items_.size() - 1);
  }
  std::uint32_t place(const Key& k) {
    bool added;
    return place(k, added);
  }
  Value& operator[](const Key& k) { return items_[place(k)].second; }
  void clear() {
    for (std::uint32_t at : used_) index_[at] = 0;
    used_.clear();
    items_.clear();
  }
  const std::vector<std::pair<Key, Value>>& items() const { return items_; }
  const Key& key(std::uint32_t place) const { return items_[place].first; }
  Value& value(std::uint32_t place) { return items_[place].second; }
  std::size_t size() const { return items_.size(); }

 private:
  // A slot holds the hash's top half (the tag) and 1 + the key's place (0: a free slot).
  static constexpr std::uint64_t tag_mask = 0xFFFFFFFF00000000ull, place_mask = 0xFFFFFFFFull;
  void grow() {
    std::vector<std::uint64_t> bigger(std::max<std::size_t>(64, index_.size() * 2), 0);
    index_.swap(bigger);
    used_.clear();
    const std::size_t mask = index_.size() - 1;
    for (std::uint32_t j = 0; j < items_.size(); ++j) {
      const std::uint64_t h = Hash{}(items_[j].first);
      std::size_t at = h & mask;
      while (index_[at] != 0) at = (at + 1) & mask;
      index_[at] = (h & tag_mask) | (j + 1);
      used_.push_back(static_cast<std::uint32_t>(at));
    }
  }
  std::vector<std::pair<Key, Value>> items_;
  std::vector<std::uint64_t> index_;
  std::vector<std::uint32_t> used_;  // the slots taken, for clear()
};

// Sums by 64-bit key, each key's sum beside it in one open-addressing table (kept at most half
// full): an addition reads one slot, where ordered_map reads its index and then the entry. The
// keys are listed in the order first added (the order sums are used in, for the same answer on
// any run). For sums added to millions of times over a few tens of thousands of keys.
class key_sums {
 public:
  void add(std::uint64_t key, double x) {
    if (key == empty) throw std::logic_error("key_sums: the empty key");
    if ((order_.size() + 1) * 2 > slots_.size()) grow();
    const std::size_t mask = slots_.size() - 1, hash = number_hash{}(key);
    std::size_t at = hash & mask;
    while (slots_[at].key != key) {
      if (slots_[at].key == empty) {
        slots_[at] = {key, 0.0};
        order_.push_back(key);
        break;
      }
      at = (at + 1) & mask;
    }
    slots_[at].sum += x;
  }
  // The key's sum (0 if never added).
  double sum(std::uint64_t key) const {
    if (slots_.empty()) return 0.0;
    const std::size_t mask = slots_.size() - 1, hash = number_hash{}(key);
    for (std::size_t at = hash & mask; slots_[at].key != empty; at = (at + 1) & mask)
      if (slots_[at].key == key) return slots_[at].sum;
    return 0.0;
  }
  const std::vector<std::uint64_t>& keys() const { return order_; }  // in the order first added
  std::size_t bytes() const { return slots_.capacity() * sizeof(slot) + order_.capacity() * sizeof(std::uint64_t); }

 private:
  static constexpr std::uint64_t empty = ~std::uint64_t{0};
  struct slot {
    std::uint64_t key = empty;
    double sum = 0.0;
  };
  void grow() {
    std::vector<slot> bigger(std::max<std::size_t>(64, slots_.size() * 2));
    const std::size_t mask = bigger.size() - 1;
    for (const slot& kept : slots_) {
      if (kept.key == empty) continue;
      std::size_t at = number_hash{}(kept.key) & mask;
      while (bigger[at].key != empty) at = (at + 1) & mask;
      bigger[at] = kept;
    }
    slots_.swap(bigger);
  }
  std::vector<slot> slots_;
  std::vector<std::uint64_t> order_;
};

// Keys numbered as found (the number is the place).
template <class Key, class Hash>
using numbering = ordered_map<Key, char, Hash>;

// Bytes of a hashed ordered_map entry: the key and value, two index slots (kept at most half
// full), the slot's place in used_.
template <class Key, class Value>
constexpr std::size_t hashed_entry_bytes = sizeof(std::pair<Key, Value>) + 2 * sizeof(std::uint64_t) + 4;

inline std::uint64_t pair_key(std::uint32_t high, std::uint32_t low) {
  return static_cast<std::uint64_t>(high) << 32 | low;
}

// Keys numbered as found, like `numbering`, for keys whose every byte comes from a small set known
// beforehand (what a unit can hold in a folded state, say). While all those sets multiplied stay
// within `max_ranks` (exact_options::ranked_keys), a key's number is found by its mixed-radix rank in one array read,
// with no hash and no key compared; past that, or on a key outside the sets, it is a hashed numbering. The numbers are
// the same either way.
class key_numbering {
 public:
  static constexpr std::uint64_t no_rank = ~std::uint64_t{0};
  // allowed[b]: the values byte b of a key takes (bytes past the list are always 0).
  key_numbering(const std::vector<std::vector<std::uint8_t>>& allowed, std::size_t max_ranks) {
    std::uint64_t radix = 1;
    for (std::size_t b = 0; b < allowed.size() && b < 40; ++b) {
      std::array<std::uint32_t, 256> weight;
      weight.fill(outside);
      for (std::size_t d = 0; d < allowed[b].size(); ++d) weight[allowed[b][d]] = static_cast<std::uint32_t>(d * radix);
      weights_.push_back(weight);
      used_.words[b / 8] |= std::uint64_t{0xFF} << (8 * (b % 8));
      radix *= std::max<std::size_t>(allowed[b].size(), 1);
      if (radix > max_ranks) break;
    }
    if (radix <= max_ranks) number_.assign(radix, 0);
  }
  std::uint32_t place(const state_key& k, bool& added) {
    if (ranked()) {
      if (const std::uint64_t at = rank(k); at != no_rank) {
        std::uint32_t& number = number_[at];
        added = number == 0;
        if (added) {
          keys_.push_back(k);
          number = static_cast<std::uint32_t>(keys_.size());
        }
        return number - 1;
      }
      number_.clear();  // a key outside the sets: hashed from now on
      number_.shrink_to_fit();
      for (const auto& known : keys_) hashed_.place(known);
    }
    const std::uint32_t i = hashed_.place(k, added);
    if (added) keys_.push_back(k);
    return i;
  }
  std::uint32_t place(const state_key& k) {
    bool added;
    return place(k, added);
  }
  const state_key& key(std::uint32_t i) const { return keys_[i]; }
  std::size_t size() const { return keys_.size(); }
  // The bytes held (memory_meter).
  std::size_t bytes() const {
    return number_.capacity() * sizeof(std::uint32_t) + keys_.capacity() * sizeof(state_key) +
           weights_.capacity() * sizeof(weights_[0]) + hashed_.size() * hashed_entry_bytes<state_key, char>;
  }

 private:
  bool ranked() const { return !number_.empty(); }
  // The key's rank (ranked() only), or no_rank outside the sets.
  std::uint64_t rank(const state_key& k) const {
    // Each byte shifted out of its word in a register (a key just written as words, read back as
    // bytes through memory, would wait on the store); whole words unrolled, since a loop with a
    // count and a bound per byte cost a third more.
    std::uint64_t sum = 0;
    const std::size_t count = weights_.size();
    std::size_t w = 0;
    for (; 8 * w + 8 <= count; ++w) {
      const std::uint64_t word = k.words[w];
      const auto* weight = &weights_[8 * w];
      // (Summed in 64 bits: two bytes outside their sets must not wrap back into the ranks.)
      const std::uint64_t low = std::uint64_t{weight[0][word & 0xFF]} + weight[1][word >> 8 & 0xFF] +
                                weight[2][word >> 16 & 0xFF] + weight[3][word >> 24 & 0xFF];
      const std::uint64_t high = std::uint64_t{weight[4][word >> 32 & 0xFF]} + weight[5][word >> 40 & 0xFF] +
                                 weight[6][word >> 48 & 0xFF] + weight[7][word >> 56];
      sum += low + high;
    }
    std::uint64_t word = w < k.words.size() ? k.words[w] : 0;
    for (std::size_t b = 8 * w; b < count; ++b, word >>= 8) sum += weights_[b][word & 0xFF];
    std::uint64_t rest = 0;
    for (std::size_t v = 0; v < k.words.size(); ++v) rest |= k.words[v] & ~used_.words[v];
    return sum < number_.size() && rest == 0 ? sum : no_rank;
  }
  static constexpr std::uint32_t outside = 1u << 31;     // a byte not in its set: the rank goes past the end
  std::vector<std::array<std::uint32_t, 256>> weights_;  // by byte: digit * radix
  state_key used_;                                       // the bytes that have a set
  std::vector<std::uint32_t> number_;                    // by rank: 1 + number, 0 if not found yet
  std::vector<state_key> keys_;
  numbering<state_key, state_key_hash> hashed_;
};

}  // namespace musket::great_lakes::folded
