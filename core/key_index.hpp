#pragma once
// Dense indices 0, 1, 2, ... for byte keys of one fixed length, in the order they are first met:
// the keys kept end to end in one array, found by open addressing over slots that hold an index
// and the key's hash. A look-up builds nothing (std::unordered_map<std::string> makes a string a
// key and a node an entry: most of optimal play's listing of a side, whose keys are a few bytes).
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <utility>
#include <vector>

namespace musket {

class key_index {
 public:
  static constexpr std::uint32_t none = 0xffffffffu;

  // Forgets every key; keys are `length` bytes from now on.
  void reset(std::size_t length) {
    if (length == 0) throw std::invalid_argument("key_index: keys of no bytes");
    length_ = length;
    keys_.clear();
    slots_.assign(1024, slot{});
  }

  // The index of the key at `key` (length bytes), the next index where it is new; second: whether
  // it was.
  std::pair<std::uint32_t, bool> intern(const std::uint8_t* key) {
    if (length_ == 0) throw std::logic_error("key_index: interned before reset");
    if ((size() + 1) * 2 > slots_.size()) grow();
    const std::uint64_t h = hash(key);
    std::size_t at = h & (slots_.size() - 1);
    for (; slots_[at].index != none; at = (at + 1) & (slots_.size() - 1))
      if (same(slots_[at], h, key)) return {slots_[at].index, false};
    const auto index = static_cast<std::uint32_t>(size());
    if (index == none) throw std::length_error("key_index: more keys than 32-bit indices");
    keys_.insert(keys_.end(), key, key + length_);
    slots_[at] = {index, static_cast<std::uint32_t>(h >> 32)};
    return {index, true};
  }

  // The index of the key at `key`, or none.
  std::uint32_t find(const std::uint8_t* key) const {
    if (slots_.empty()) return none;
    const std::uint64_t h = hash(key);
    for (std::size_t at = h & (slots_.size() - 1); slots_[at].index != none; at = (at + 1) & (slots_.size() - 1))
      if (same(slots_[at], h, key)) return slots_[at].index;
    return none;
  }
  // The same, a key never interned being a logic error of the caller.
  std::uint32_t at(const std::uint8_t* key) const {
    const std::uint32_t i = find(key);
    if (i == none) throw std::out_of_range("key_index: a key never interned");
    return i;
  }

  std::size_t size() const { return length_ == 0 ? 0 : keys_.size() / length_; }
  std::size_t length() const { return length_; }
  std::size_t bytes() const { return keys_.capacity() + slots_.capacity() * sizeof(slot); }

 private:
  struct slot {
    std::uint32_t index = none;
    std::uint32_t check = 0;  // the hash's high half: most mismatches end without reading the key
  };
  // (Eight bytes at a time, each mixed in; the keys are short: a side's units and a few counts.)
  std::uint64_t hash(const std::uint8_t* key) const {
    std::uint64_t h = 0x9e3779b97f4a7c15ULL ^ length_;
    for (std::size_t i = 0; i < length_; i += 8) {
      std::uint64_t chunk = 0;
      std::memcpy(&chunk, key + i, length_ - i < 8 ? length_ - i : 8);
      h = (h ^ chunk) * 0xff51afd7ed558ccdULL;
      h ^= h >> 32;
    }
    h *= 0xc4ceb9fe1a85ec53ULL;
    return h ^ (h >> 29);
  }
  bool same(const slot& s, std::uint64_t h, const std::uint8_t* key) const {
    return s.check == static_cast<std::uint32_t>(h >> 32) &&
           std::memcmp(keys_.data() + std::size_t{s.index} * length_, key, length_) == 0;
  }
  void grow() {
    slots_.assign(slots_.empty() ? 1024 : slots_.size() * 2, slot{});
    for (std::uint32_t i = 0; i < size(); ++i) {
      const std::uint64_t h = hash(keys_.data() + std::size_t{i} * length_);
      std::size_t at = h & (slots_.size() - 1);
      while (slots_[at].index != none) at = (at + 1) & (slots_.size() - 1);
      slots_[at] = {i, static_cast<std::uint32_t>(h >> 32)};
    }
  }

  std::size_t length_ = 0;
  std::vector<std::uint8_t> keys_;  // key i at i x length_
  std::vector<slot> slots_;
};

}  // namespace musket
