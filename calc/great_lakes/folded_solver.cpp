#include "calc/great_lakes/folded_solver.hpp"

#include <algorithm>
#include <atomic>
#include <bit>
#include <chrono>
#include <cstring>
#include <exception>
#include <memory>
#include <span>
#include <stdexcept>
#include <thread>
#include <vector>

#include "calc/great_lakes/exact_parts.hpp"
#include "calc/great_lakes/round.hpp"
#include "calc/great_lakes/side_labels.hpp"
#include "core/block_pool.hpp"
#include "core/markov_chain.hpp"

namespace musket::great_lakes {

using namespace detail;  // exact_parts.hpp: shared with battle.cpp and optimal_play.cpp

namespace {

// ---- The folded exact engine ----------------------------------------------------------------
// A unit that has left the line for good (eliminated, or failed morale: GL 11.24) never fires and
// takes no hit while any line unit of its side stands (RULINGS hit allocation); once none stands,
// that side retreats or is eliminated and the battle ends (GL 12). So the SP a failed unit carries
// changes nothing in any round but the last, yet keeping it in the state multiplies the states by
// every SP each unit could have failed with. The folded engine therefore runs the chain on states
// in which every unit out of the line is just `out`, and carries, beside each such state, the
// distribution of what the out units hold ("labels": their SP and status), one side at a time:
// a side's final SP, its units and the way it leaves depend only on its own out units, never on
// the other side's. Each label is pushed along the folded chain's transitions (a transition adds
// the units that left the line in that round); at the last round the real allocation and retreat
// fire are played on the state with that side's labels put back. Nothing is pruned or
// approximated: this is the same sum as the unfolded chain, grouped differently.

// A side's progress: smaller after every change of the side (a hit, a unit leaving the line, a
// reinforcement entering, a reroll spent), the same while it does not change. folded_states orders
// the nodes by it.
int side_progress(const battle_rules& r, const battle_state& s, int side) {
  int p = s.rerolls[static_cast<std::size_t>(side)];
  for (int i = r.begin[side]; i < r.end[side]; ++i) {
    if (s.st[i] == round::line) p += s.sp[i] + 1;
    if (s.st[i] == round::waiting) p += s.sp[i] + 2;
  }
  return p;
}

// The most a side's progress can be: all its units waiting at full SP, every reroll left.
int most_progress(const battle_rules& r, int side) {
  int p = r.rerolls[static_cast<std::size_t>(side)];
  for (int i = r.begin[side]; i < r.end[side]; ++i) p += r.units[static_cast<std::size_t>(i)].start_sp + 2;
  return p;
}

// Units 8w to 8w + 7 of a state as key bytes (SP | status << 5), one word: the status (<= 3)
// shifted stays inside its byte.
std::uint64_t unit_bytes(const battle_state& s, std::size_t w) {
  static_assert(round::max_units % 8 == 0 && round::out <= 3);
  std::uint64_t sp, st;
  std::memcpy(&sp, &s.sp[8 * w], 8);
  std::memcpy(&st, &s.st[8 * w], 8);
  return sp | st << 5;
}

void set_byte(state_key& k, std::size_t i, std::uint8_t b) {
  k.words[i / 8] |= static_cast<std::uint64_t>(b) << (8 * (i % 8));
}

// Byte i of a key set to b (whatever it held).
void set_tail_byte(state_key& k, std::size_t i, std::uint8_t b) {
  k.words[i / 8] &= ~(std::uint64_t{0xFF} << (8 * (i % 8)));
  set_byte(k, i, b);
}

std::uint8_t get_byte(const state_key& k, std::size_t i) {
  return static_cast<std::uint8_t>(k.words[i / 8] >> (8 * (i % 8)));
}

// Byte masks of a battle's units (0xFF per unit byte), for fold_successor.
struct fold_masks {
  state_key units;                // every unit
  std::array<state_key, 2> side;  // each side's
  std::size_t unit_count = 0;
  bool first_round_matters = false;
  explicit fold_masks(const battle_rules& r) : unit_count(r.units.size()), first_round_matters(r.first_round_matters) {
    for (std::size_t u = 0; u < unit_count; ++u) {
      const std::uint64_t byte = std::uint64_t{0xFF} << (8 * (u % 8));
      units.words[u / 8] |= byte;
      side[static_cast<std::size_t>(r.units[u].owner)].words[u / 8] |= byte;
    }
  }
};

// A successor t of a folded state (whose out units have 0xFF in out_before) folded: each unit that
// left the line for good (failed, out, or in the line with no SP) is `out`. Per side, `delta` gets the units that left
// it this round, as unit_bytes gives them, and any_left says whether one of them still holds SP (an eliminated unit's
// byte is 0, so a delta of eliminations only is the empty one). Worked eight units to a word, without a branch per
// unit: which unit leaves is a coin toss the branch predictor cannot learn.
void fold_successor(const fold_masks& m, const battle_state& t, const state_key& out_before, state_key& fold,
                    std::array<state_key, 2>& delta, std::array<bool, 2>& any_left) {
  constexpr std::uint64_t ones = 0x0101010101010101ull, low7 = 0x7F7F7F7F7F7F7F7Full, high = 0x8080808080808080ull;
  static_assert(round::max_units == 32 && round::line == 0 && round::failed == 1 && round::out == 3);
  std::array<std::uint64_t, 2> left_any{};
  fold = state_key{};  // whole keys at once: a loop over the words past the units cost more
  delta = {};
  for (std::size_t w = 0; w * 8 < m.unit_count; ++w) {
    const std::uint64_t byte = unit_bytes(t, w);
    std::uint64_t st;
    std::memcpy(&st, &t.st[8 * w], 8);
    // Left the line: failed or out (status bit 0), or nothing left (a zero byte; bytes are < 0x80).
    const std::uint64_t zero = ~(((byte & low7) + low7) | byte) & high;
    const std::uint64_t left = (((st & ones) << 7 | zero) >> 7) * 0xFF & m.units.words[w];
    fold.words[w] = (byte & ~left & m.units.words[w]) | (left & (ones * (round::out << 5)));
    const std::uint64_t fresh = byte & left & ~out_before.words[w];
    for (std::size_t side = 0; side < 2; ++side) {
      delta[side].words[w] = fresh & m.side[side].words[w];
      left_any[side] |= delta[side].words[w];
    }
  }
  for (std::size_t side = 0; side < 2; ++side) any_left[side] = left_any[side] != 0;
  // Then the rerolls, the first-round flag and the end (none), from byte unit_count on.
  const std::uint64_t tail = std::uint64_t{t.rerolls[0]} | std::uint64_t{t.rerolls[1]} << 8 |
                             std::uint64_t{t.first_round && m.first_round_matters} << 16 |
                             std::uint64_t{static_cast<std::uint8_t>(battle_end::none)} << 24;
  const std::size_t at = m.unit_count;
  fold.words[at / 8] |= tail << (8 * (at % 8));
  if (at % 8 > 4) fold.words[at / 8 + 1] |= tail >> (64 - 8 * (at % 8));
}

// The units a folded state holds out of the line (bytes `out << 5`), a bit per unit: each word's
// matching bytes found without a branch, their high bits gathered by one multiply.
std::uint32_t out_units_of(const state_key& k, std::size_t unit_count) {
  constexpr std::uint64_t low7 = 0x7F7F7F7F7F7F7F7Full, high = 0x8080808080808080ull,
                          out_bytes = 0x0101010101010101ull * (round::out << 5);
  std::uint32_t bits = 0;
  for (std::size_t w = 0; w * 8 < unit_count; ++w) {
    const std::uint64_t x = k.words[w] ^ out_bytes;
    const std::uint64_t zero = ~(((x & low7) + low7) | x) & high;
    bits |= static_cast<std::uint32_t>(((zero >> 7) * 0x0102040810204080ull) >> 56) << (8 * w);
  }
  return unit_count >= 32 ? bits : bits & ((1u << unit_count) - 1);
}

state_key combine(const state_key& a, const state_key& b) {
  state_key k;
  for (std::size_t w = 0; w < k.words.size(); ++w) k.words[w] = a.words[w] | b.words[w];
  return k;
}

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

std::uint64_t pair_key(std::uint32_t high, std::uint32_t low) {
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

// The byte sets of a folded state's key: a unit is out, in the line with 1 to its starting SP, or
// (a reinforcement) waiting with all of them; then the rerolls left, the first-round flag, the end.
std::vector<std::vector<std::uint8_t>> folded_state_bytes(const battle_rules& r) {
  std::vector<std::vector<std::uint8_t>> allowed;
  for (const auto& u : r.units) {
    std::vector<std::uint8_t> values{static_cast<std::uint8_t>(round::out << 5)};
    for (int sp = 1; sp <= u.start_sp; ++sp) values.push_back(static_cast<std::uint8_t>(sp));
    if (u.reinforcement) values.push_back(static_cast<std::uint8_t>(u.start_sp | round::waiting << 5));
    allowed.push_back(values);
  }
  for (int side = 0; side < 2; ++side) {
    std::vector<std::uint8_t> rerolls;
    for (int k = 0; k <= r.rerolls[side]; ++k) rerolls.push_back(static_cast<std::uint8_t>(k));
    allowed.push_back(rerolls);
  }
  allowed.push_back(r.first_round_matters ? std::vector<std::uint8_t>{0, 1} : std::vector<std::uint8_t>{0});
  allowed.push_back({static_cast<std::uint8_t>(battle_end::none)});
  return allowed;
}

// The byte sets of a mid-round node's key (folded_solver::play): a folded state's, with the
// attacker's fire dice in place of the first-round flag and a mark of its own in place of the end.
constexpr std::uint8_t mid_round_mark = 0xEE;
std::vector<std::vector<std::uint8_t>> mid_round_bytes(const battle_rules& r) {
  std::vector<std::vector<std::uint8_t>> allowed = folded_state_bytes(r);
  int most_dice = r.ship_dice[round::attacker];
  for (int i = r.begin[round::attacker]; i < r.end[round::attacker]; ++i) most_dice += r.dice[i];
  std::vector<std::uint8_t> dice;
  for (int d = 0; d <= most_dice; ++d) dice.push_back(static_cast<std::uint8_t>(d));
  allowed[allowed.size() - 2] = dice;
  allowed.back() = {mid_round_mark};
  return allowed;
}

// The byte sets of what a side's units that left the line hold (fold_successor's delta, and a
// label): nothing, or failed with 0 (a garrison: GL 4.26) to the unit's starting SP; the other
// side's bytes are 0.
std::vector<std::vector<std::uint8_t>> delta_bytes(const battle_rules& r, int side) {
  std::vector<std::vector<std::uint8_t>> allowed(static_cast<std::size_t>(r.end[side]), std::vector<std::uint8_t>{0});
  for (int i = r.begin[side]; i < r.end[side]; ++i)
    for (int sp = 0; sp <= r.units[static_cast<std::size_t>(i)].start_sp; ++sp)
      allowed[static_cast<std::size_t>(i)].push_back(static_cast<std::uint8_t>(sp | round::failed << 5));
  return allowed;
}

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

// Outcome sums, accumulated straight from the last rounds.
struct outcome_sums {
  std::array<double, 7> ends{};
  std::array<std::vector<double>, 2> lost;
  std::vector<double> survives, sp, fails;
  explicit outcome_sums(const battle_rules& r)
      : survives(r.units.size(), 0.0), sp(r.units.size(), 0.0), fails(r.units.size(), 0.0) {
    for (int side = 0; side < 2; ++side) lost[side].assign(static_cast<std::size_t>(r.starting_sp[side]) + 1, 0.0);
  }
  // `side`'s part of a finished battle in state t.
  void add_side(const battle_rules& r, int side, const battle_state& t, double w) {
    int total = 0;
    for (int i = r.begin[side]; i < r.end[side]; ++i) {
      total += r.units[i].start_sp - t.sp[i];
      if (t.sp[i] > 0) survives[i] += w;
      sp[i] += w * t.sp[i];
      if (t.st[i] == round::failed) fails[i] += w;
    }
    lost[side][static_cast<std::size_t>(total)] += w;
  }
};

// What one side's still-standing units end with when the battle ends with that side not
// retreating (the other side retreats, or a stalemate), from one folded state: SP lost by them
// (a histogram) and their unit sums. The side's out units are untouched and added per label.
struct standing_part {
  std::vector<double> lost;
  std::vector<double> survives, sp, fails;
  double mass = 0;
  void reset(const battle_rules& r, int side) {
    if (mass == 0 && !lost.empty()) return;  // nothing was added since the last reset
    lost.assign(static_cast<std::size_t>(r.starting_sp[side]) + 1, 0.0);
    survives.assign(r.units.size(), 0.0);
    sp.assign(r.units.size(), 0.0);
    fails.assign(r.units.size(), 0.0);
    mass = 0;
  }
  // The side's units not in `out` (a bit per unit: state_round::out_units), whose SP the state holds.
  void add(const battle_rules& r, int side, const battle_state& t, std::uint32_t out, double w) {
    int total = 0;
    const std::uint64_t side_units =
        ((std::uint64_t{1} << r.end[side]) - 1) & ~((std::uint64_t{1} << r.begin[side]) - 1);
    for (std::uint64_t in = side_units & ~std::uint64_t{out}; in != 0; in &= in - 1) {
      const int i = std::countr_zero(in);
      total += r.units[i].start_sp - t.sp[i];
      if (t.sp[i] > 0) survives[i] += w;
      sp[i] += w * t.sp[i];
      if (t.st[i] == round::failed) fails[i] += w;
    }
    lost[static_cast<std::size_t>(total)] += w;
    mass += w;
  }
};

// One move of a folded state: its successor (by number), the probability, and per side the part
// of it in which no unit of that side left the line holding SP (the side's labels move unchanged).
struct successor_move {
  std::uint32_t target;
  std::uint32_t out;  // the successor's out units, a bit per unit
  double p;
  bool same_round;  // a mid-round node: the round goes on there
  std::array<double, 2> unchanged;
  std::array<std::uint32_t, 2> first_left;  // per side, 1 + its first part in successor_moves::left, 0 if none
};

// The part of a move in which units of a side left the line holding SP (numbered `left`).
struct left_part {
  std::uint32_t target, left, out;
  double p;
  std::uint32_t next;  // 1 + the move's next part of this side, 0 if none
};

// One state's moves, by successor in the order found; the parts in which units of a side left the
// line holding SP are listed in left(side), alike ones summed, in the order found.
class successor_moves {
 public:
  void clear() {
    for (const auto& move : moves_)
      if (move.target < slot_.size()) slot_[move.target] = 0;  // (a replayed move may lie past it)
    moves_.clear();
    for (auto& l : left_) l.clear();
  }
  void add(std::uint32_t target, bool same_round, std::uint32_t out, double p,
           const std::array<std::uint32_t, 2>& left_number) {
    if (slot_.size() <= target) slot_.resize(std::max<std::size_t>(target + 1, slot_.size() * 2), 0);
    std::uint32_t& at = slot_[target];
    if (at == 0) {
      moves_.push_back({target, out, 0.0, same_round, {0.0, 0.0}, {0, 0}});
      at = static_cast<std::uint32_t>(moves_.size());
    }
    successor_move& move = moves_[at - 1];
    move.p += p;
    for (std::size_t side = 0; side < 2; ++side) {
      if (left_number[side] == 0) {
        move.unchanged[side] += p;
        continue;
      }
      auto& parts = left_[side];
      std::uint32_t k = move.first_left[side];
      while (k != 0 && parts[k - 1].left != left_number[side]) k = parts[k - 1].next;
      if (k != 0) {
        parts[k - 1].p += p;
      } else {
        parts.push_back({target, left_number[side], out, p, move.first_left[side]});
        move.first_left[side] = static_cast<std::uint32_t>(parts.size());
      }
    }
  }
  // A replayed half's lists (its outcomes summed as add() sums them when it was recorded) are
  // written in whole, in place of add(), while the lists are empty (slot_ is then left as it is).
  std::vector<successor_move>& replayed_moves() { return moves_; }
  std::vector<left_part>& replayed_left(int side) { return left_[static_cast<std::size_t>(side)]; }
  const std::vector<successor_move>& moves() const { return moves_; }
  const std::vector<left_part>& left(int side) const { return left_[static_cast<std::size_t>(side)]; }
  // Hands the moves and parts over (swapped with the buffers given, which come back cleared).
  void hand_over(std::vector<successor_move>& moves, std::array<std::vector<left_part>, 2>& left) {
    for (const auto& move : moves_)
      if (move.target < slot_.size()) slot_[move.target] = 0;  // (a replayed move may lie past it)
    moves.swap(moves_);
    moves_.clear();
    for (std::size_t side = 0; side < 2; ++side) {
      left[side].swap(left_[side]);
      left_[side].clear();
    }
  }

 private:
  std::vector<std::uint32_t> slot_;  // by state: 1 + its place in moves_, 0 if not a successor
  std::vector<successor_move> moves_;
  std::array<std::vector<left_part>, 2> left_;
};

// The byte sets of one side's part of a folded state's key (its units and its rerolls left); the
// other side's bytes are 0.
std::vector<std::vector<std::uint8_t>> side_part_bytes(const battle_rules& r, int side) {
  std::vector<std::vector<std::uint8_t>> allowed = folded_state_bytes(r);
  const std::size_t n = r.units.size();
  allowed.resize(n + 2);  // the units and both sides' rerolls
  for (std::size_t b = 0; b < n + 2; ++b) {
    const bool own = b < n ? r.units[b].owner == side : b == n + static_cast<std::size_t>(side);
    if (!own) allowed[b] = {0};
  }
  return allowed;
}

// The folded chain's nodes: its states, and the mid-round nodes of the split round (folded_solver::play),
// numbered in one sequence as found. A node is its two sides' parts (each side's units and rerolls
// left, numbered per side by rank: a few hundred each, so the lookups stay in cache) and the byte
// after them (a state's first-round flag, a mid-round node's attacker dice): its number is read
// from a table by (kind, attacker part, that byte) and defender part, never by hashing the whole
// 40-byte key.
// They are visited in blocks, one per attacker part. A state's moves go to mid-round nodes whose
// attacker has taken the hits (its progress smaller: side_progress) or, when the defender's fire
// missed, to states of the same attacker; a mid-round node's to states of its attacker (the
// defender's fire is over; or an attacker's reinforcement has entered, its progress smaller). So
// the blocks are taken by their attacker's progress from the top, and within a block its nodes by
// the defender's progress from the top, at one progress a state in round 1 first, then the
// mid-round nodes, then the other states (a mid-round node whose attacker's fire misses leads to
// the state of its two parts; a round-1 state whose round changes nothing, to the same state out
// of round 1): each node comes after all its predecessors. Three quarters of the moves stay inside
// their block (the 5 v 4 Niagara battle of issue 20), whose nodes are few and whose data were
// written a moment before, so a block's carries mostly find their targets in cache, where an order
// by the two sides' progress summed sent them all over the solve's data.
class folded_states {
 public:
  folded_states(const battle_rules& r, std::size_t limit, std::size_t max_ranks)
      : parts_{key_numbering(side_part_bytes(r, 0), max_ranks), key_numbering(side_part_bytes(r, 1), max_ranks)},
        tail_byte_(r.units.size() + 2),
        limit_(limit) {
    const std::size_t n = r.units.size();
    for (std::size_t b = 0; b < n + 2; ++b) {
      const int side = b < n ? r.units[b].owner : static_cast<int>(b - n);
      masks_[static_cast<std::size_t>(side)].words[b / 8] |= std::uint64_t{0xFF} << (8 * (b % 8));
    }
    tail_values_[state] = folded_state_bytes(r)[n + 2].size();
    tail_values_[mid_round] = mid_round_bytes(r)[n + 2].size();
    for (auto& part : last_part_) part.words.fill(~std::uint64_t{0});  // (no part's key)
    blocks_by_progress_.resize(static_cast<std::size_t>(most_progress(r, round::attacker)) + 1);
    block_.resize(3 * (static_cast<std::size_t>(most_progress(r, round::defender)) + 1));
    block_used_.resize((block_.size() + 63) / 64);
  }
  static constexpr int state = 0, mid_round = 1;
  std::uint32_t intern(const battle_rules& r, const state_key& key, int kind = state) {
    return intern(r, key, kind, parts_of(key));
  }
  // The same where the key's side parts are known (numbered before: part_key gives their keys).
  std::uint32_t intern(const battle_rules& r, const state_key& key, int kind,
                       const std::array<std::uint32_t, 2>& part) {
    const std::size_t tail = get_byte(key, tail_byte_);
    if (tail >= tail_values_[kind]) throw std::logic_error("a folded node's key holds a value it cannot hold");
    auto& rows = rows_[kind];
    const std::size_t row_at = part[0] * tail_values_[kind] + tail;
    if (rows.size() <= row_at) {
      const std::size_t before = rows.capacity();
      rows.resize(std::max(row_at + 1, rows.size() + rows.size() / 2));
      table_bytes_ += (rows.capacity() - before) * sizeof(rows[0]);
    }
    auto& row = rows[row_at];
    if (row.size() <= part[1]) {
      const std::size_t before = row.capacity();
      row.resize(std::max<std::size_t>(part[1] + 1, row.size() + row.size() / 2), 0);
      table_bytes_ += (row.capacity() - before) * sizeof(std::uint32_t);
    }
    if (row[part[1]] != 0) return row[part[1]] - 1;
    if (kind == state && ++states_ > limit_) throw state_limit_exceeded(limit_);
    const auto node = static_cast<std::uint32_t>(keys_.size());
    row[part[1]] = node + 1;
    keys_.push_back(key);
    kinds_.push_back(static_cast<std::uint8_t>(kind));
    parts_by_node_.push_back(part);
    // Its place in the order (in_order): in its attacker's block, by the defender's progress, and
    // at one progress a round-1 state, then a mid-round node, then another state.
    const std::size_t place =
        3 * static_cast<std::size_t>(part_progress(r, round::defender, part[1])) + (kind == mid_round ? 1
                                                                                    : tail != 0       ? 2
                                                                                                      : 0);
    if (part[0] == block_part_) {
      if (place > block_place_) throw std::logic_error("a folded node before the one that reaches it");
      add_to_block(node, place);
      return node;
    }
    if (pending_.size() <= part[0]) pending_.resize(part[0] + 1);
    auto& pending = pending_[part[0]];
    if (pending.taken) throw std::logic_error("a folded node of an attacker part already played");
    if (pending.nodes.empty()) {
      const auto progress = static_cast<std::size_t>(part_progress(r, round::attacker, part[0]));
      if (progress >= block_progress_) throw std::logic_error("a folded node before the one that reaches it");
      blocks_by_progress_[progress].push_back(part[0]);
    }
    pending.nodes.push_back({node, static_cast<std::uint32_t>(place)});
    return node;
  }
  // A key's side parts, numbered (new ones added).
  std::array<std::uint32_t, 2> parts_of(const state_key& key) {
    std::array<std::uint32_t, 2> part;
    for (std::size_t side = 0; side < 2; ++side) {
      state_key masked;
      for (std::size_t w = 0; w < masked.words.size(); ++w) masked.words[w] = key.words[w] & masks_[side].words[w];
      // Outcomes come in runs that share one side's part (the other side's varies).
      if (!(masked == last_part_[side])) {
        last_part_[side] = masked;
        last_number_[side] = parts_[side].place(masked);
      }
      part[side] = last_number_[side];
    }
    return part;
  }
  const state_key& key(std::uint32_t node) const { return keys_[node]; }
  const std::array<std::uint32_t, 2>& parts(std::uint32_t node) const { return parts_by_node_[node]; }
  // The node of these parts and tail byte, or no_node if not found yet; the row of an attacker part
  // and tail byte (by defender part: 1 + the node, 0 if not found; empty while it has none).
  static constexpr std::uint32_t no_node = ~std::uint32_t{0};
  std::span<const std::uint32_t> row(int kind, std::uint32_t attacker, std::size_t tail) const {
    const auto& rows = rows_[static_cast<std::size_t>(kind)];
    const std::size_t row_at = attacker * tail_values_[static_cast<std::size_t>(kind)] + tail;
    if (row_at >= rows.size()) return {};
    return rows[row_at];
  }
  std::uint32_t find(int kind, std::uint32_t attacker, std::size_t tail, std::uint32_t defender) const {
    const auto& rows = rows_[static_cast<std::size_t>(kind)];
    const std::size_t row_at = attacker * tail_values_[static_cast<std::size_t>(kind)] + tail;
    if (row_at >= rows.size() || rows[row_at].size() <= defender) return no_node;
    return rows[row_at][defender] - 1;  // (0 - 1: no_node)
  }
  // The out units of a side's part (out_units_of its key), kept once found.
  std::uint32_t part_out(std::size_t unit_count, int side, std::uint32_t part) {
    auto& known = part_out_[static_cast<std::size_t>(side)];
    while (known.size() <= part)
      known.push_back(out_units_of(parts_[static_cast<std::size_t>(side)].key(static_cast<std::uint32_t>(known.size())),
                                   unit_count));
    return known[part];
  }
  // A side's part numbered `part`: the key with only that side's bytes.
  const state_key& part_key(int side, std::uint32_t part) const { return parts_[side].key(part); }
  const state_key& mask(int side) const { return masks_[side]; }
  int kind(std::uint32_t node) const { return kinds_[node]; }
  std::size_t size() const { return states_; }  // the states
  std::size_t nodes() const { return keys_.size(); }
  std::size_t bytes() const {
    return parts_[0].bytes() + parts_[1].bytes() + table_bytes_ +
           keys_.capacity() * (sizeof(state_key) + 1 + 3 * sizeof(std::uint32_t));  // (kinds_, parts, its place)
  }
  // Calls f(node) for every node, predecessors first, block by block (the class comment); f may
  // intern successors (always after the node being taken). Before f for a node, ahead(next, 8)
  // and ahead(next, 4) are called for the nodes eight and four on in the block (node_ahead):
  // their data can be asked for in time (a node's data lies anywhere in tens of MB).
  template <class F, class Ahead>
  void in_order(F&& f, Ahead&& ahead) {
    for (block_progress_ = blocks_by_progress_.size(); block_progress_-- > 0;) {
      // (No block is added at the progress being taken: a move between attacker parts lowers it.)
      for (const std::uint32_t part : blocks_by_progress_[block_progress_]) {
        block_part_ = part;
        pending& pending = pending_[part];
        for (const auto& [node, place] : pending.nodes) add_to_block(node, place);
        pending.taken = true;
        std::vector<pending_node>().swap(pending.nodes);
        // The places taken from the top, each found by its bit (most places of a block are empty).
        for (std::size_t word = block_used_.size(); word-- > 0;) {
          while (block_used_[word] != 0) {
            block_place_ = 64 * word + 63 - static_cast<std::size_t>(std::countl_zero(block_used_[word]));
            const std::vector<std::uint32_t>& nodes = block_[block_place_];
            for (std::size_t k = 0; k < nodes.size(); ++k) {
              // (A place holds a few nodes: the ones ahead are often at the next places.)
              if (const std::uint32_t next = node_ahead(block_place_, k, 8); next != no_node) ahead(next, 8);
              if (const std::uint32_t next = node_ahead(block_place_, k, 4); next != no_node) ahead(next, 4);
              f(nodes[k]);
            }
            block_[block_place_].clear();
            block_used_[word] &= ~(std::uint64_t{1} << (block_place_ % 64));
          }
        }
        block_place_ = 0;
        block_part_ = no_part;
      }
      std::vector<std::uint32_t>().swap(blocks_by_progress_[block_progress_]);
    }
  }
  template <class F>
  void in_order(F&& f) {
    in_order(f, [](std::uint32_t, int) {});
  }
  // Asks for a node's key ahead of its play.
  void prefetch(std::uint32_t node) const {
    if (node < keys_.size()) {
      __builtin_prefetch(&keys_[node], 0);
      __builtin_prefetch(reinterpret_cast<const char*>(&keys_[node] + 1) - 1, 0);  // (a key may cross a line)
    }
  }

 private:
  std::array<key_numbering, 2> parts_;  // per side, its parts
  std::array<state_key, 2> masks_;      // per side, its bytes (0xFF) in a key
  std::array<state_key, 2> last_part_;  // per side, the part last numbered, and its number
  std::array<std::uint32_t, 2> last_number_{};
  std::size_t tail_byte_;
  std::array<std::size_t, 2> tail_values_{};
  // By kind, by attacker part and tail byte, by defender part: 1 + the node, 0 if not found yet.
  std::array<std::vector<std::vector<std::uint32_t>>, 2> rows_;
  std::size_t table_bytes_ = 0;
  std::vector<state_key> keys_;      // by node
  std::vector<std::uint8_t> kinds_;  // by node
  std::vector<std::array<std::uint32_t, 2>> parts_by_node_;
  // A side's progress by part number (side_progress of the part's units), found on first asking.
  int part_progress(const battle_rules& r, int side, std::uint32_t part) {
    auto& known = part_progress_[static_cast<std::size_t>(side)];
    while (known.size() <= part) {
      battle_end ignored;
      const battle_state s =
          decode(r, parts_[static_cast<std::size_t>(side)].key(static_cast<std::uint32_t>(known.size())), ignored);
      known.push_back(side_progress(r, s, side));
    }
    return known[part];
  }
  static constexpr std::uint32_t no_part = ~std::uint32_t{0};
  // The node `distance` on from node k at `place` in the block being taken, or no_node (nodes found
  // after this call may come between: for asking data ahead only).
  std::uint32_t node_ahead(std::size_t place, std::size_t k, std::size_t distance) const {
    std::size_t at = k + distance;
    for (;;) {
      if (at < block_[place].size()) return block_[place][at];
      at -= block_[place].size();
      // The next place down holding nodes.
      std::size_t word = place / 64;
      std::uint64_t below = block_used_[word] & ((std::uint64_t{1} << (place % 64)) - 1);
      while (below == 0) {
        if (word == 0) return no_node;
        below = block_used_[--word];
      }
      place = 64 * word + 63 - static_cast<std::size_t>(std::countl_zero(below));
    }
  }
  void add_to_block(std::uint32_t node, std::size_t place) {
    block_[place].push_back(node);
    block_used_[place / 64] |= std::uint64_t{1} << (place % 64);
  }
  struct pending_node {
    std::uint32_t node, place;
  };
  // The blocks not taken yet: by attacker part, its nodes found so far and their places; by the
  // attacker's progress, the parts with nodes, in the order first found.
  struct pending {
    std::vector<pending_node> nodes;
    bool taken = false;
  };
  std::vector<pending> pending_;
  std::vector<std::vector<std::uint32_t>> blocks_by_progress_;
  std::array<std::vector<int>, 2> part_progress_;
  std::array<std::vector<std::uint32_t>, 2> part_out_;
  // The block being taken: its part, its nodes by place, the place being taken, and its progress.
  std::uint32_t block_part_ = no_part;
  std::vector<std::vector<std::uint32_t>> block_;
  std::vector<std::uint64_t> block_used_;  // a bit per place of block_ holding nodes
  std::size_t block_place_ = 0, block_progress_ = ~std::size_t{0};
  std::size_t states_ = 0, limit_;
};

// Rounds (they do not depend on what the out units hold), carried by the stage that finds the
// chain (folded_solver): each folded state keeps arrive[t] = P(entering it after t rounds); its occupancy at the start
// of round t + 1 is o[t] = arrive[t] + stay * o[t - 1] (the self-loop), which ends the battle with its exit probability
// and moves on along its transitions into arrive[t + 1] of the successors. Occupancy below 1e-18 is let go (its mass
// shows in the tail).
struct round_profile {
  // A node's arrivals by round, from round 0: a block of the pool, `size` used, `capacity` held.
  struct arrivals {
    double* data = nullptr;
    std::uint32_t size = 0, capacity = 0;
  };
  std::vector<arrivals> arrive;        // by folded state, given back once played
  std::vector<double> ended, present;  // by round - 1: P(ends in it), P(still fighting at its start)
  std::vector<double> occupancy;       // the state being played
  std::size_t max_rounds;
  std::size_t transitions = 0;
  block_pool pool;

  std::size_t bytes() const { return arrive.capacity() * sizeof(arrivals) + pool.bytes(); }  // (memory_meter)

  void grow_states(std::uint32_t state) {
    if (arrive.size() > state) return;
    arrive.resize(std::max<std::size_t>(state + 1, arrive.size() * 2));
  }
  // At least `size` rounds (the new ones 0), in blocks of a power of two (a pool block is all 0
  // and only its first `size` are ever written, so growing within it costs nothing).
  void grow_rounds(arrivals& a, std::size_t size) {
    if (size > a.capacity) {
      const auto capacity = static_cast<std::uint32_t>(std::bit_ceil(std::max<std::size_t>(size, 8)));
      double* data = pool.take(capacity);
      if (a.data) {
        std::copy(a.data, a.data + a.size, data);
        pool.give_back(a.data, a.capacity);
      }
      a.data = data;
      a.capacity = capacity;
    }
    a.size = static_cast<std::uint32_t>(size);
  }
  void prefetch_slot(std::uint32_t node) const {
    if (node < arrive.size()) __builtin_prefetch(&arrive[node], 0);
  }
  void prefetch(std::uint32_t node) const {
    if (node >= arrive.size() || !arrive[node].data) return;
    for (std::uint32_t t = 0; t < arrive[node].size; t += 8) __builtin_prefetch(arrive[node].data + t, 0);
  }
  void enter(std::uint32_t state, std::size_t t, double p) {
    grow_states(state);
    auto& a = arrive[state];
    if (a.size <= t) grow_rounds(a, t + 1);
    a.data[t] += p;
  }
  // Plays node i's rounds: its self-loop, its ending mass, and its moves (target, p), into the next
  // round or, to a mid-round node, on in the same one. A mid-round node (`mid_round`) has no
  // self-loop, and its mass is already counted as fighting in its round.
  void play(std::uint32_t i, double stay, double exit, const std::vector<successor_move>& moves, bool mid_round) {
    occupancy.clear();
    if (i < arrive.size() && arrive[i].data) {
      const auto& a = arrive[i];
      double o = 0.0;
      for (std::size_t t = 0; t < max_rounds; ++t) {
        o = (t < a.size ? a.data[t] : 0.0) + stay * o;
        if (t >= a.size && o < 1e-18) break;
        occupancy.push_back(o);
      }
      pool.give_back(a.data, a.capacity);
      arrive[i] = {};
    }
    if (ended.size() < occupancy.size()) {
      ended.resize(occupancy.size(), 0.0);
      present.resize(occupancy.size(), 0.0);
    }
    // A node reached only after some rounds has nothing before them: those are skipped.
    std::size_t first = 0;
    while (first < occupancy.size() && occupancy[first] == 0.0) ++first;
    for (std::size_t t = first; t < occupancy.size(); ++t) {
      ended[t] += occupancy[t] * exit;
      if (!mid_round) present[t] += occupancy[t];
    }
    transitions += moves.size();
    // Sized once per move, then a plain loop the compiler can vectorise (the same sums as enter()).
    const std::size_t steps = std::min(occupancy.size(), max_rounds - 1);
    if (occupancy.empty()) return;
    constexpr std::size_t ahead = 8;  // a move's target is seldom in cache: asked for ahead
    for (std::size_t k = 0; k < moves.size(); ++k) {
      if (k + 2 * ahead < moves.size() && moves[k + 2 * ahead].target < arrive.size())
        __builtin_prefetch(&arrive[moves[k + 2 * ahead].target], 0);
      if (k + ahead < moves.size() && moves[k + ahead].target < arrive.size() &&
          arrive[moves[k + ahead].target].size > first + 1)
        __builtin_prefetch(arrive[moves[k + ahead].target].data + first + 1, 1);
      const std::uint32_t target = moves[k].target;
      const double p = moves[k].p;
      const std::size_t next = moves[k].same_round ? 0 : 1, count = moves[k].same_round ? occupancy.size() : steps;
      grow_states(target);
      auto& a = arrive[target];
      if (a.size < count + next) grow_rounds(a, count + next);
      double* to = a.data + next;
      const double* from = occupancy.data();
      for (std::size_t t = first; t < count; ++t) to[t] += from[t] * p;
    }
  }
  // Listed until less than `tolerance` is still fighting, like absorbing_chain::step_distribution.
  std::vector<double> distribution(double tolerance, double& tail) const {
    std::vector<double> by_round;
    double moving = 1.0;
    while (moving > tolerance && by_round.size() + 1 < max_rounds) {
      const std::size_t t = by_round.size();
      by_round.push_back(t < ended.size() ? ended[t] : 0.0);
      moving = t + 1 < present.size() ? present[t + 1] : 0.0;
    }
    tail = moving;
    return by_round;
  }
};

// What playing one folded state's round gives, before any label is looked at: its successors
// (with the units of each side that left the line holding SP), the rounds that end the battle,
// summed, and the self-loop.
struct state_round {
  std::uint32_t state = 0;      // the node played
  bool mid_round = false;       // (its kind)
  std::uint32_t out_units = 0;  // bit u: unit u is out of the line in this state
  // Its moves, alike outcomes summed by stage one (successor_moves), and per side the parts of them
  // in which units of the side left the line holding SP.
  std::vector<successor_move> moves;
  std::array<std::vector<left_part>, 2> left;
  std::array<std::vector<state_key>, 2> new_deltas;  // per side, what the left numbers first seen here stand for
  // The rounds that end the battle (a side starts to retreat, before retreat fire; or a
  // stalemate), summed: their probability, the stalemate's, what they leave each side's standing
  // units when the other side retreats (or nobody does), and per side its retreat starts
  // (numbered: the side's units still in the line, spill, retreat fire dice, forced) with their
  // probabilities, and what the numbers first seen here stand for.
  double ends_now = 0, stalemate = 0;
  std::array<standing_part, 2> standing;
  std::array<std::vector<std::pair<std::uint64_t, double>>, 2> retreats;
  std::array<std::vector<state_key>, 2> new_starts;
  double stay = 0;
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

class folded_solver {
 public:
  folded_solver(const battle_rules& rules, const exact_options& options)
      : r(rules),
        n(rules.units.size()),
        states(rules, options.state_limit, options.ranked_keys),
        table{folded::side_labels(rules, 0, options.state_limit), folded::side_labels(rules, 1, options.state_limit)},
        sums(rules),
        options_(options),
        deltas{key_numbering(delta_bytes(rules, 0), options.ranked_keys),
               key_numbering(delta_bytes(rules, 1), options.ranked_keys)},
        masks_(rules),
        label_keys_{key_numbering(delta_bytes(rules, 0), options.ranked_keys),
                    key_numbering(delta_bytes(rules, 1), options.ranked_keys)},
        meter_(options.memory_limit, states_found_) {
    rounds.max_rounds = options.max_listed_rounds + 1;
    const auto never_chooses = [](const retreat_policy& p) {
      return p.kind == retreat_kind::never || p.kind == retreat_kind::optimal;
    };
    separable_ = never_chooses(rules.policy[0]) && never_chooses(rules.policy[1]);
    dice_values_ = mid_round_bytes(rules)[n + 2].size();
    set_tail_byte(after_round_tail_, n + 3, static_cast<std::uint8_t>(battle_end::none));
    for (int side = 0; side < 2; ++side) {
      deltas[side].place(state_key{});
      delta_keys_[side].push_back(state_key{});
    }
  }

  void solve(const battle_state& start) {
    states.intern(r, encode(r, start, battle_end::none));  // state 0
    rounds.enter(0, 0, 1.0);
    for (int side = 0; side < 2; ++side) table[side].start(0);
    const unsigned threads = options_.threads ? options_.threads : std::thread::hardware_concurrency();
    threads_used = threads < 2 ? 1 : 2;
    if (threads < 2) {  // one core: the stages take turns, in the same order, to the same sums
      state_round step;
      states.in_order([&](std::uint32_t i) {
        play(i, step);
        carry(step);
      });
    } else {
      solve_side_by_side();
    }
    resolve_retreats();
    memory_bytes = meter_.finish();
  }

 private:
  void solve_side_by_side() {
    round_queue queue;
    std::exception_ptr consumer_failed;
    std::thread consumer([&] {
      try {
        while (state_round* step = queue.take_full()) {
          // The next states' own labels, taken first thing: asked for ahead.
          for (int side = 0; side < 2; ++side) {
            if (const state_round* next = queue.peek(2)) table[side].prefetch_slot(next->state);
            if (const state_round* next = queue.peek(1)) table[side].prefetch_own(next->state);
          }
          carry(*step);
          recycle(*step);
          queue.give_back(step);
        }
      } catch (...) {
        consumer_failed = std::current_exception();
        queue.stop();
      }
    });
    try {
      states.in_order(
          [&](std::uint32_t i) {
            state_round* step = queue.take_empty();
            if (!step) throw stage_stopped();
            play(i, *step);
            queue.put_full(step);
          },
          [&](std::uint32_t next, int distance) {
            if (distance == 8) {
              states.prefetch(next);
              rounds.prefetch_slot(next);
            } else {
              rounds.prefetch(next);
            }
          });
      queue.finish();
    } catch (const stage_stopped&) {
    } catch (...) {
      queue.stop();
      consumer.join();
      throw;
    }
    consumer.join();
    if (consumer_failed) std::rethrow_exception(consumer_failed);
  }

 public:
  const battle_rules& r;
  const std::size_t n;
  // The stages' data on cache lines of their own: a line written by one thread and read by the
  // other moves between the cores at every write.
  alignas(64) folded_states states;  // stage one's
  round_profile rounds;
  alignas(64) std::array<folded::side_labels, 2> table;  // stage two's from here
  outcome_sums sums;
  double expected_rounds = 0.0;
  unsigned threads_used = 1;
  std::size_t memory_bytes = 0;  // the most counted (memory_meter)

 private:
  struct stage_stopped {};

  // Stage one: node i's part of a round, played once for all its labels. The round is split in two
  // (round::play_defender_fire): a state plays the defender's fire and the attacker's morale, and
  // goes on to a mid-round node (the attacker after its checks, its fire dice, the defender as it
  // was), which plays the attacker's fire and the rest of the round. Each half lists one side's
  // outcomes, where the whole round listed their products: many states share a mid-round node.
  void play(std::uint32_t i, state_round& step) {
    throw_if_cancelled(options_);
    battle_end ignored;
    const state_key key = states.key(i);
    const bool mid_round = states.kind(i) == folded_states::mid_round;
    battle_state s = decode(r, key, ignored);
    const int mid_round_dice = mid_round ? get_byte(key, n + 2) : 0;
    if (mid_round) s.first_round = false;  // (that byte holds the dice)
    step.state = i;
    step.mid_round = mid_round;
    step.out_units = 0;
    state_key out_mask;  // the same, 0xFF a byte, for fold_successor
    for (std::size_t u = 0; u < n; ++u)
      if (s.st[u] == round::out) {
        step.out_units |= 1u << u;
        set_byte(out_mask, u, 0xFF);
      }
    for (auto& d : step.new_deltas) d.clear();
    step.ends_now = step.stalemate = 0.0;
    std::array<state_key, 2> in_line;  // per side, its units not out (0xFF a byte)
    for (int side = 0; side < 2; ++side) {
      step.standing[side].reset(r, side);
      starts_here_[side].clear();
      step.new_starts[side].clear();
      for (std::size_t w = 0; w < in_line[side].words.size(); ++w)
        in_line[side].words[w] = masks_.side[side].words[w] & ~out_mask.words[w];
    }
    step.stay = 0.0;
    exact_chooser c;
    c.merge_capped = false;  // the spill onto out units is needed hit by hit
    round::round_state t = round::track(r, s);
    // A mid-round node whose second half is recorded already for its defender and dice replays it;
    // so does a state's round where the defender's fire misses (`unhit` below), from its own memo.
    // A half being recorded is played at weight 1 and its outcomes weighed by `half_scale` (the
    // weight it was reached with; 1 at a mid-round node): each outcome's weight is then the same
    // product whether the half is played or replayed.
    std::vector<half_memo>* memo = &memo_;
    std::size_t memo_at = mid_round ? second_half_memo_place(memo_, t, mid_round_dice, states.parts(i)) : no_memo;
    bool recording = memo_at != no_memo && memo_[memo_at].status == half_memo::not_yet;
    bool recording_failed = false;
    double half_scale = 1.0;
    // A state's first half being recorded (below), and how deep the play is in a part of it that
    // is not recorded (the second half where the defender missed, the fire that takes its line).
    bool first_recording = false, first_failed = false;
    int first_paused = 0;
    auto emit = [&](const battle_state& t, battle_end end) {
      const double weight = half_scale * c.weight;
      if (end == battle_end::none) {
        state_key fold;
        std::array<state_key, 2> left;
        std::array<bool, 2> any_left{false, false};
        fold_successor(masks_, t, out_mask, fold, left, any_left);
        if (fold == key) {  // the self-loop: nothing changed
          if (recording) memo_outcomes_.push_back({states.parts(i)[round::defender], 0, c.weight, 0, 0, 0, 0});
          step.stay += weight;
          return;
        }
        std::array<std::uint32_t, 2> left_number{0, 0};
        for (std::size_t side = 0; side < 2; ++side) {
          if (!any_left[side]) continue;
          // Outcomes come in runs that share one side's delta (the other side's morale varies).
          if (left[side] == last_delta_[side]) {
            left_number[side] = last_delta_number_[side];
            continue;
          }
          bool added;
          left_number[side] = deltas[side].place(left[side], added);
          if (added) step.new_deltas[side].push_back(left[side]);
          last_delta_[side] = left[side];
          last_delta_number_[side] = left_number[side];
        }
        const std::uint32_t node = states.intern(r, fold);
        if (recording) {
          if (any_left[round::attacker])
            recording_failed = true;
          else
            memo_outcomes_.push_back({states.parts(node)[1], left_number[round::defender], c.weight, 0, 0, 0, 0});
        }
        found_.add(node, false, out_units_of(fold, n), weight, left_number);
        return;
      }
      recording_failed = true;  // (a half that can end in a stalemate is played, not replayed)
      // RULINGS: nobody can ever hit; nobody retreats. Both sides' standing units end as they are.
      step.ends_now += weight;
      step.stalemate += weight;
      for (int side = 0; side < 2; ++side) step.standing[side].add(r, side, t, step.out_units, weight);
    };
    auto retreat = [&](const battle_state& t, int side, bool forced, int spill) {
      const double weight = half_scale * c.weight;
      if (recording) {
        const auto units_at = static_cast<std::uint32_t>(memo_units_.size());
        for (int u = r.begin[round::defender]; u < r.end[round::defender]; ++u) {
          memo_units_.push_back(t.sp[u]);
          memo_units_.push_back(t.st[u]);
        }
        memo_outcomes_.push_back({units_at, 0, c.weight, static_cast<std::int16_t>(spill), 1,
                                  static_cast<std::uint8_t>(side), static_cast<std::uint8_t>(forced)});
      }
      step.ends_now += weight;
      step.standing[1 - side].add(r, 1 - side, t, step.out_units, weight);
      // The retreating side's units not out, as unit_bytes gives them (its out units come from each
      // label), eight to a word; the rest of the retreat rides in the last word.
      state_key k;
      for (std::size_t w = 0; w * 8 < n; ++w) k.words[w] = unit_bytes(t, w) & in_line[side].words[w];
      const int dice = round::retreat_fire_dice(r, t, side, forced);
      k.words[4] = (forced ? 1u : 0u) | static_cast<std::uint64_t>(spill) << 8 | static_cast<std::uint64_t>(dice) << 24;
      bool added;
      const std::uint32_t start = retreat_starts_[side].place(k, added);
      if (added) {
        step.new_starts[side].push_back(k);
        retreat_sums_[side].push_back(0.0);
        start_seen_in_[side].push_back(0);
      }
      if (start_seen_in_[side][start] != i + 1) {  // the first time in this state
        start_seen_in_[side][start] = i + 1;
        retreat_sums_[side][start] = 0.0;
        starts_here_[side].push_back(start);
      }
      retreat_sums_[side][start] += weight;
    };
    // The attacker after its morale checks, rolling `dice` next: a mid-round node.
    auto emit_mid_round = [&](const round::round_state& t, int dice) {
      state_key fold;
      std::array<state_key, 2> left;
      std::array<bool, 2> any_left{false, false};
      fold_successor(masks_, t.s, out_mask, fold, left, any_left);
      set_tail_byte(fold, n + 2, static_cast<std::uint8_t>(dice));
      set_tail_byte(fold, n + 3, mid_round_mark);
      std::array<std::uint32_t, 2> left_number{0, 0};
      if (any_left[round::attacker]) {  // (the defender's side is as it was)
        bool added;
        left_number[round::attacker] = deltas[round::attacker].place(left[round::attacker], added);
        if (added) step.new_deltas[round::attacker].push_back(left[round::attacker]);
      }
      const std::uint32_t node = states.intern(r, fold, folded_states::mid_round);
      if (first_recording && first_paused == 0)
        first_events_.push_back({first_event::mid_round, static_cast<std::uint8_t>(dice), 0,
                                 states.parts(node)[round::attacker], left_number[round::attacker], c.weight});
      found_.add(node, true, out_units_of(fold, n), c.weight, left_number);
    };
    auto emit_state = [&](const round::round_state& t, battle_end end) { emit(t.s, end); };
    auto retreat_state = [&](round::round_state& t, int side, bool forced, int spill) {
      retreat(t.s, side, forced, spill);
    };
    auto checked_already = [](round::round_state& t, const round::hit_counts&, auto& next) { next(t); };
    const std::size_t held_before = ring_held(step);
    // Replays a recorded half: the same outcomes in the same order as its play, the same sums.
    auto replay = [&](const half_memo& recorded) {
      state_key attacker_part;
      for (std::size_t w = 0; w < key.words.size(); ++w)
        attacker_part.words[w] = key.words[w] & states.mask(0).words[w];
      const std::uint32_t attacker_number = states.parts(i)[round::attacker];
      for (std::uint32_t k = recorded.begin; k < recorded.end; ++k) {
        const half_outcome& o = memo_outcomes_[k];
        c.weight = o.p;
        if (o.kind == 0) {
          const state_key fold =
              combine(combine(attacker_part, states.part_key(round::defender, o.part)), after_round_tail_);
          if (fold == key) {  // (a state's round where nothing changed)
            step.stay += half_scale * o.p;
            continue;
          }
          found_.add(states.intern(r, fold, folded_states::state, {attacker_number, o.part}), false,
                     out_units_of(fold, n), half_scale * o.p, {0, o.left});
        } else {
          battle_state u = s;
          const std::uint8_t* units = &memo_units_[o.part];
          for (int d = r.begin[round::defender]; d < r.end[round::defender]; ++d, units += 2) {
            u.sp[d] = units[0];
            u.st[d] = units[1];
          }
          retreat(u, o.side, o.forced != 0, o.spill);
        }
      }
    };
    // Replays a mid-round node's recorded half from its moves as summed (keep_summed), then its
    // retreats: the same lists, sums and numbering as replay() would make, each move found once.
    auto replay_summed = [&](const half_memo& recorded) {
      state_key attacker_part;
      for (std::size_t w = 0; w < key.words.size(); ++w)
        attacker_part.words[w] = key.words[w] & states.mask(0).words[w];
      const std::uint32_t attacker_number = states.parts(i)[round::attacker];
      auto& moves = found_.replayed_moves();
      // Each target read by its parts (its key built only for a node never found before), its
      // out units the union of its parts'; the look-ups asked for some moves ahead.
      const std::uint32_t attacker_out = states.part_out(n, round::attacker, attacker_number);
      std::span<const std::uint32_t> row = states.row(folded_states::state, attacker_number, 0);
      constexpr std::uint32_t ahead = 8;
      for (std::uint32_t k = recorded.moves_begin; k < recorded.moves_end; ++k) {
        if (k + ahead < recorded.moves_end && summed_moves_[k + ahead].target < row.size())
          __builtin_prefetch(&row[summed_moves_[k + ahead].target], 0);
        successor_move move = summed_moves_[k];
        const std::uint32_t part = move.target;
        std::uint32_t node = states.find(folded_states::state, attacker_number, 0, part);
        if (node == folded_states::no_node) {
          const state_key fold =
              combine(combine(attacker_part, states.part_key(round::defender, part)), after_round_tail_);
          node = states.intern(r, fold, folded_states::state, {attacker_number, part});
          row = states.row(folded_states::state, attacker_number, 0);  // (the row may have grown)
        }
        move.target = node;
        move.out = attacker_out | states.part_out(n, round::defender, part);
        moves.push_back(move);
      }
      auto& left = found_.replayed_left(round::defender);
      for (std::uint32_t k = recorded.left_begin; k < recorded.left_end; ++k) {
        left_part part = summed_left_[k];
        const successor_move& move = moves[part.target];
        part.target = move.target;
        part.out = move.out;
        left.push_back(part);
      }
      replay(recorded);  // (its retreats)
    };
    // Plays a half, recording it where memo_at says so (it was never met).
    auto play_half = [&](round::round_state& u, int dice, round::defender_line line) {
      if (recording) (*memo)[memo_at].begin = static_cast<std::uint32_t>(memo_outcomes_.size());
      round::hit_counts hits{};
      round::play_attacker_fire(r, u, dice, hits, line, c, checked_already, emit_state, retreat_state);
      if (!recording) return;
      half_memo& played = (*memo)[memo_at];
      if (recording_failed) {
        memo_outcomes_.resize(played.begin);
        played.status = half_memo::not_separable;
        return;
      }
      played.end = static_cast<std::uint32_t>(memo_outcomes_.size());
      played.status = half_memo::recorded;
      if (memo == &memo_) keep_summed(played);
    };
    if (mid_round) {
      if (memo_at != no_memo && memo_[memo_at].status == half_memo::recorded)
        replay_summed(memo_[memo_at]);
      else
        play_half(t, mid_round_dice, round::defender_line::stands);
    } else {
      // The defender's fire missed: the attacker fires from the state as it is, its second half
      // the same for every attacker that can hit with these dice (not in round 1, whose end clears
      // the first-round flag).
      auto unhit = [&](round::round_state& u, int dice) {
        memo = &unhit_memo_;
        memo_at = s.first_round ? no_memo : second_half_memo_place(unhit_memo_, u, dice, states.parts(i));
        const double reached = c.weight;
        half_scale = memo_at == no_memo ? 1.0 : reached;
        if (memo_at != no_memo && unhit_memo_[memo_at].status == half_memo::recorded) {
          replay(unhit_memo_[memo_at]);
        } else {
          recording = memo_at != no_memo;
          recording_failed = false;
          if (recording) c.weight = 1.0;
          play_half(u, dice, round::defender_line::any);
          recording = false;
        }
        c.weight = reached;
        half_scale = 1.0;
      };
      // The first half depends on the defender only through its fire dice and where the attacker's
      // fire takes its whole line: within an attacker part's block (folded_states) it is recorded
      // once per (defender's dice, round 1 or not) and replayed, the fall of the line played live.
      const std::uint32_t attacker_number = states.parts(i)[round::attacker];
      if (attacker_number != first_half_part_) {
        first_half_part_ = attacker_number;
        first_halves_.clear();
        first_events_.clear();
        first_units_.clear();
        first_hits_.clear();
      }
      const auto defender_dice =
          static_cast<std::size_t>(round::fire_dice(r, t.sum[round::defender], round::defender, false));
      const std::size_t at = 2 * defender_dice + (s.first_round ? 1 : 0);
      if (first_halves_.size() <= at) first_halves_.resize(at + 1);
      // The attacker's units and rerolls as some outcome left them, kept, or put back into s.
      const auto keep_attacker = [&](const battle_state& u) {
        const auto units_at = static_cast<std::uint32_t>(first_units_.size());
        for (int a = r.begin[round::attacker]; a < r.end[round::attacker]; ++a) {
          first_units_.push_back(u.sp[a]);
          first_units_.push_back(u.st[a]);
        }
        first_units_.push_back(u.rerolls[round::attacker]);
        return units_at;
      };
      const auto put_back = [&](std::uint32_t units_at) {
        battle_state u = s;
        const std::uint8_t* units = &first_units_[units_at];
        for (int a = r.begin[round::attacker]; a < r.end[round::attacker]; ++a, units += 2) {
          u.sp[a] = units[0];
          u.st[a] = units[1];
        }
        u.rerolls[round::attacker] = *units;
        return u;
      };
      if (first_halves_[at].status == half_memo::recorded) {
        const half_memo recorded = first_halves_[at];
        state_key defender_part;
        for (std::size_t w = 0; w < key.words.size(); ++w)
          defender_part.words[w] = key.words[w] & states.mask(1).words[w];
        const std::uint32_t defender_number = states.parts(i)[round::defender];
        const std::uint32_t defender_out = states.part_out(n, round::defender, defender_number);
        for (std::uint32_t k = recorded.begin; k < recorded.end; ++k) {
          const first_event e = first_events_[k];
          c.weight = e.p;
          switch (e.kind) {
            case first_event::unhit: {
              round::round_state u = t;
              unhit(u, e.dice);
              break;
            }
            case first_event::retreat: {
              battle_state u = put_back(e.part);
              retreat(u, round::attacker, true, e.spill);
              break;
            }
            case first_event::falls: {
              round::round_state u = round::track(r, put_back(e.part));
              round::hit_counts hits = first_hits_[e.left];
              round::play_line_falls(r, u, hits, e.dice, c, retreat_state);
              break;
            }
            case first_event::mid_round: {
              // Found by its parts and dice; its key built only if it was never found before.
              std::uint32_t node = states.find(folded_states::mid_round, e.part, e.dice, defender_number);
              if (node == folded_states::no_node) {
                state_key fold = combine(states.part_key(round::attacker, e.part), defender_part);
                set_tail_byte(fold, n + 2, e.dice);
                set_tail_byte(fold, n + 3, mid_round_mark);
                node = states.intern(r, fold, folded_states::mid_round, {e.part, defender_number});
              }
              std::array<std::uint32_t, 2> left_number{e.left, 0};
              found_.add(node, true, defender_out | states.part_out(n, round::attacker, e.part), e.p, left_number);
              break;
            }
          }
        }
        c.weight = 1.0;
      } else {
        first_recording = first_halves_[at].status == half_memo::not_yet;
        const auto begin = static_cast<std::uint32_t>(first_events_.size());
        auto unhit_then = [&](round::round_state& u, int dice) {
          if (first_recording && first_paused == 0)
            first_events_.push_back({first_event::unhit, static_cast<std::uint8_t>(dice), 0, 0, 0, c.weight});
          ++first_paused;
          unhit(u, dice);
          --first_paused;
        };
        auto falls = [&](round::round_state& u, round::hit_counts& hits, int dice) {
          if (first_recording && first_paused == 0) {
            first_events_.push_back({first_event::falls, static_cast<std::uint8_t>(dice), 0, keep_attacker(u.s),
                                     static_cast<std::uint32_t>(first_hits_.size()), c.weight});
            first_hits_.push_back(hits);
          }
          ++first_paused;
          round::play_line_falls(r, u, hits, dice, c, retreat_state);
          --first_paused;
        };
        auto retreat_then = [&](round::round_state& u, int side, bool forced, int spill) {
          if (first_recording && first_paused == 0) {
            if (side == round::attacker && forced)
              first_events_.push_back(
                  {first_event::retreat, 0, static_cast<std::int16_t>(spill), keep_attacker(u.s), 0, c.weight});
            else
              first_failed = true;  // (not a retreat this half can start: played every time)
          }
          retreat(u.s, side, forced, spill);
        };
        round::play_defender_fire(r, t, c, unhit_then, emit_mid_round, retreat_then, falls);
        if (first_recording) {
          half_memo& played = first_halves_[at];
          if (first_failed) {
            first_events_.resize(begin);
            played.status = half_memo::not_separable;
          } else {
            played = {begin, static_cast<std::uint32_t>(first_events_.size()), 0, 0, 0, 0, half_memo::recorded};
          }
          first_recording = false;
        }
      }
    }
    found_.hand_over(step.moves, step.left);
    // The rounds need no label: carried here, where the labels' stage has work enough.
    rounds.play(i, step.stay, step.ends_now, step.moves, step.mid_round);
    ring_bytes_ += ring_held(step) - held_before;
    states_found_.store(states.size(), std::memory_order_relaxed);
    meter_.set(0, states.bytes() + deltas[0].bytes() + deltas[1].bytes() + rounds.bytes() +
                      (ring_bytes_ - ring_freed_.load(std::memory_order_relaxed)) +
                      (retreat_starts_[0].size() + retreat_starts_[1].size()) * hashed_entry_bytes<state_key, char> +
                      (memo_.capacity() + unhit_memo_.capacity()) * sizeof(half_memo) +
                      summed_moves_.capacity() * sizeof(successor_move) + summed_left_.capacity() * sizeof(left_part) +
                      memo_outcomes_.capacity() * sizeof(half_outcome) + memo_units_.capacity() +
                      first_halves_.capacity() * sizeof(half_memo) + first_events_.capacity() * sizeof(first_event) +
                      first_units_.capacity() + first_hits_.capacity() * sizeof(round::hit_counts));
    for (int side = 0; side < 2; ++side) {
      step.retreats[side].clear();
      for (std::uint32_t start : starts_here_[side]) step.retreats[side].push_back({start, retreat_sums_[side][start]});
    }
  }

  // Stage two: the rounds and every label of state i along its moves.
  void carry(const state_round& step) {
    const std::uint32_t i = step.state;
    for (int side = 0; side < 2; ++side)
      retreat_start_keys_[side].insert(retreat_start_keys_[side].end(), step.new_starts[side].begin(),
                                       step.new_starts[side].end());
    for (int side = 0; side < 2; ++side)
      delta_keys_[side].insert(delta_keys_[side].end(), step.new_deltas[side].begin(), step.new_deltas[side].end());
    const double scale = 1.0 / (1.0 - step.stay);  // the self-loop in closed form
    for (int side = 0; side < 2; ++side) {
      double visits = 0.0;
      const standing_part& stand = step.standing[side];
      folded::side_labels& labels = table[side];
      visits = labels.take(i, step.out_units, scale);
      const folded::label_layout& layout = labels.taken();
      // The labels move along, growing by the units of their side that left the line.
      // Each target's vector asked for some moves ahead: the carries wait on memory, not on sums.
      const auto& moves = step.moves;
      constexpr std::size_t ahead = 8;
      for (std::size_t k = 0; k < std::min(ahead, moves.size()); ++k) labels.prefetch_slot(moves[k].target);
      for (std::size_t k = 0; k < moves.size(); ++k) {
        if (k + 2 * ahead < moves.size()) labels.prefetch_slot(moves[k + 2 * ahead].target);
        if (k + ahead < moves.size()) labels.prefetch(moves[k + ahead].target);
        if (moves[k].unchanged[side] > 0.0)
          labels.carry(moves[k].unchanged[side], moves[k].target, moves[k].out, nullptr);
      }
      const auto& parts = step.left[side];
      for (std::size_t k = 0; k < parts.size(); ++k) {
        if (k + ahead < parts.size()) labels.prefetch(parts[k + ahead].target);
        labels.carry(parts[k].p, parts[k].target, parts[k].out, delta_keys_[side][parts[k].left].words.data());
      }
      if (stand.mass > 0.0 || !step.retreats[side].empty())
        labels.for_each([&](const folded::label_bytes& label, double v) {
          // The other side retreats (or nobody can hit): this side's out units keep what they hold.
          if (stand.mass > 0.0) {
            int out_lost = 0;
            for (int k = 0; k < layout.count; ++k) {
              const std::size_t su = layout.unit[k];
              const std::uint8_t byte = label[su];
              const int held = byte & 31;
              out_lost += r.units[su].start_sp - held;
              if (held > 0) sums.survives[su] += v * stand.mass;
              sums.sp[su] += v * stand.mass * held;
              if ((byte >> 5) == round::failed) sums.fails[su] += v * stand.mass;
            }
            auto& lost = sums.lost[side];
            for (std::size_t l = 0; l + static_cast<std::size_t>(out_lost) < lost.size(); ++l)
              lost[l + static_cast<std::size_t>(out_lost)] += v * stand.lost[l];
          }
          // This side retreats: its out units go back in (the label), to be resolved at the end.
          if (step.retreats[side].empty()) return;
          state_key key;
          std::memcpy(key.words.data(), label.data(), label.size());
          const std::uint32_t number = label_keys_[side].place(key);
          for (const auto& [start, p] : step.retreats[side])
            all_retreats_[side].add(pair_key(number, static_cast<std::uint32_t>(start)), v * p);
        });
      for (std::size_t u = 0; u < n; ++u) {
        if (step.out_units >> u & 1u) continue;
        sums.survives[u] += visits * stand.survives[u];
        sums.sp[u] += visits * stand.sp[u];
        sums.fails[u] += visits * stand.fails[u];
      }
      if (side == 0) {
        sums.ends[static_cast<std::size_t>(battle_end::stalemate)] += visits * step.stalemate;
        if (!step.mid_round) expected_rounds += visits;
      }
    }
    std::size_t held = table[0].bytes() + table[1].bytes();
    for (int side = 0; side < 2; ++side)
      held += all_retreats_[side].bytes() + label_keys_[side].bytes() +
              (delta_keys_[side].capacity() + retreat_start_keys_[side].capacity()) * sizeof(state_key);
    meter_.set(1, held);
  }

  // A slot keeps its buffers for the next state it carries, unless a state with very many moves
  // grew it: the ring would end up holding the largest states' buffers in every slot (hundreds
  // of MB for the 5 v 4 of issue 20), so such a buffer is let go once carried. (On one thread
  // the one buffer is kept.)
  void recycle(state_round& step) {
    if (step.moves.capacity() <= max_kept_moves) return;
    ring_freed_.fetch_add(ring_held(step), std::memory_order_relaxed);
    std::vector<successor_move>().swap(step.moves);
    for (auto& part : step.left) std::vector<left_part>().swap(part);
  }

  // The retreats: the spill and the retreat fire fall on the side's units, labels put back.
  void resolve_retreats() {
    for (int side = 0; side < 2; ++side)
      for (const std::uint64_t label_start : all_retreats_[side].keys()) {
        const double p = all_retreats_[side].sum(label_start);
        const state_key k = combine(label_keys_[side].key(static_cast<std::uint32_t>(label_start >> 32)),
                                    retreat_start_keys_[side][static_cast<std::uint32_t>(label_start)]);
        battle_state merged{};
        for (int u = r.begin[side]; u < r.end[side]; ++u) {
          const std::uint8_t byte = get_byte(k, static_cast<std::size_t>(u));
          merged.sp[u] = byte & 31;
          merged.st[u] = static_cast<std::uint8_t>(byte >> 5);
        }
        const std::uint64_t w = k.words[4];
        round::hit_counts hits{};
        round::allocate_hits(r, merged, hits, side, static_cast<int>(w >> 8 & 0xFFFF));
        exact_chooser last;
        last.weight = p;
        auto finish = [&](const battle_state& t, battle_end end) {
          sums.ends[static_cast<std::size_t>(end)] += last.weight;
          sums.add_side(r, side, t, last.weight);
        };
        round::resolve_retreat_under_fire(r, merged, side, (w & 1) != 0, static_cast<int>(w >> 24), last, finish);
      }
  }

  // The second half of a round played from a mid-round node (the attacker's fire, the defender's
  // losses and morale, its reinforcements) depends only on the defender's part and the attacker's
  // dice where the attacker can change nothing in it: both sides never retreat by choice (their
  // policies never, or optimal, which never retreats in these engines), and the attacker has a line
  // that can hit (no stalemate) and no reinforcement waiting. Such a half is recorded the first
  // time (defender part, dice) is met, and replayed for every other attacker: the moves by the
  // defender's part after it, the retreats with the defender's units (the attacker's come from the
  // node). Many mid-round nodes share a defender and dice (the 5 v 4: 167,705 nodes).
  struct half_outcome {
    std::uint32_t part;  // a move: the defender's part after; a retreat: its units in memo_units_
    std::uint32_t left;  // a move: the defender's delta (its units that left the line holding SP)
    double p;
    std::int16_t spill;
    std::uint8_t kind;  // 0 a move, 1 a retreat starts
    std::uint8_t side, forced;
  };
  struct half_memo {
    enum status_kind : std::uint8_t { not_yet, recorded, not_separable };
    std::uint32_t begin = 0, end = 0;
    std::uint32_t moves_begin = 0, moves_end = 0, left_begin = 0, left_end = 0;  // (mid-round nodes': keep_summed)
    status_kind status = not_yet;
  };
  static constexpr std::size_t no_memo = ~std::size_t{0};
  // A state's first half as played, in order: each defender's fire that missed (the attacker's
  // dice), each retreat of an attacker whose line is gone (its units and rerolls in first_units_,
  // from `part`), each play of the fire that takes the defender's line (the same, and the hits in
  // first_hits_[left]), each move to a mid-round node (its attacker part, dice and delta).
  struct first_event {
    enum kind_t : std::uint8_t { unhit, retreat, falls, mid_round };
    kind_t kind;
    std::uint8_t dice;
    std::int16_t spill;
    std::uint32_t part, left;
    double p;
  };
  // By the defender's fire dice and the first-round flag, the halves of the block's attacker part.
  std::uint32_t first_half_part_ = ~std::uint32_t{0};
  std::vector<half_memo> first_halves_;
  std::vector<first_event> first_events_;
  std::vector<std::uint8_t> first_units_;
  std::vector<round::hit_counts> first_hits_;
  // The memo's place for a mid-round node (t its state, `dice` the attacker's), or no_memo where
  // the attacker could change something in the half.
  std::size_t second_half_memo_place(std::vector<half_memo>& memo, const round::round_state& t, int dice,
                                     const std::array<std::uint32_t, 2>& part) {
    if (!separable_) return no_memo;
    const round::side_sums& a = t.sum[round::attacker];
    if (a.line_units == 0 || a.waiting != 0 || (a.line_dice == 0 && !r.ships)) return no_memo;
    if (static_cast<std::size_t>(dice) >= dice_values_) return no_memo;
    const std::size_t at = part[round::defender] * dice_values_ + static_cast<std::size_t>(dice);
    if (memo.size() <= at) memo.resize(std::max(at + 1, memo.size() + memo.size() / 2));
    return memo[at].status == half_memo::not_separable ? no_memo : at;
  }
  // By defender part and dice: mid-round nodes' halves, and states' rounds where the defender
  // misses (the attacker's fire may then take the defender's whole line: a half of its own).
  std::vector<half_memo> memo_, unhit_memo_;
  // A mid-round node's half just recorded: its moves and the defender's parts as summed (found_
  // holds only them), by the defender's part after (a part: by its move's place in the half), and
  // only its retreats kept as outcomes. Replayed by the next mid-round node of the same defender
  // and dice without finding each outcome's move again.
  void keep_summed(half_memo& played) {
    played.moves_begin = static_cast<std::uint32_t>(summed_moves_.size());
    const auto& moves = found_.moves();
    for (const successor_move& move : moves) {
      successor_move kept = move;
      kept.target = states.parts(move.target)[round::defender];
      summed_moves_.push_back(kept);
    }
    played.moves_end = static_cast<std::uint32_t>(summed_moves_.size());
    played.left_begin = static_cast<std::uint32_t>(summed_left_.size());
    for (left_part part : found_.left(round::defender)) {
      std::uint32_t place = 0;
      while (moves[place].target != part.target) ++place;
      part.target = place;
      summed_left_.push_back(part);
    }
    played.left_end = static_cast<std::uint32_t>(summed_left_.size());
    // Only the retreats stay outcomes, in their order.
    std::uint32_t kept_end = played.begin;
    for (std::uint32_t k = played.begin; k < played.end; ++k)
      if (memo_outcomes_[k].kind != 0) memo_outcomes_[kept_end++] = memo_outcomes_[k];
    played.end = kept_end;
    memo_outcomes_.resize(kept_end);
  }
  std::vector<successor_move> summed_moves_;
  std::vector<left_part> summed_left_;
  std::vector<half_outcome> memo_outcomes_;
  std::vector<std::uint8_t> memo_units_;  // per recorded retreat, the defender's units: SP, status
  bool separable_ = false;
  std::size_t dice_values_ = 1;
  state_key after_round_tail_;  // a state's tail bytes after round 1: first-round flag 0, the end none

  const exact_options& options_;
  // Stage one's: per side, the units that left the line in one round, numbered (0: none holding
  // SP); the starts of a retreat, numbered, and this state's with their probabilities.
  alignas(64) std::array<key_numbering, 2> deltas;
  std::array<state_key, 2> last_delta_;  // (the empty delta is number 0)
  std::array<std::uint32_t, 2> last_delta_number_{0, 0};
  fold_masks masks_;
  std::array<numbering<state_key, state_key_hash>, 2> retreat_starts_;
  std::array<std::vector<double>, 2> retreat_sums_;          // by start: this state's probability
  std::array<std::vector<std::uint32_t>, 2> starts_here_;    // the starts this state has
  std::array<std::vector<std::uint32_t>, 2> start_seen_in_;  // by start: 1 + the state that last had it
  // Stage two's: per side, what the delta and retreat start numbers stand for (sent along with the
  // states); this state's moves; every retreat over all states by (label, start), resolved once at
  // the end with the label's units put back.
  alignas(64) std::array<std::vector<state_key>, 2> delta_keys_;
  std::array<std::vector<state_key>, 2> retreat_start_keys_;
  successor_moves found_;  // (stage one's: the node played)
  std::array<key_sums, 2> all_retreats_;
  // The labels that retreat, numbered (by rank: a label's bytes are a delta's).
  std::array<key_numbering, 2> label_keys_;
  static constexpr std::size_t max_kept_moves = 8192;  // (320 KB)
  // The bytes of a slot's move buffers.
  static std::size_t ring_held(const state_round& step) {
    return step.moves.capacity() * sizeof(successor_move) +
           (step.left[0].capacity() + step.left[1].capacity()) * sizeof(left_part);
  }
  // Counted memory: stage one's ring buffers (their moves), its state count, the meter.
  std::size_t ring_bytes_ = 0;              // grown by stage one
  std::atomic<std::size_t> ring_freed_{0};  // let go by stage two
  std::atomic<std::size_t> states_found_{0};
  memory_meter meter_;
};

}  // namespace

namespace detail {

battle_result solve_folded(const battle& b, const exact_options& options) {
  const auto started = std::chrono::steady_clock::now();
  const battle_rules r = round::compile(b);
  const battle_state start = round::initial_state(r);
  const std::size_t n = r.units.size();
  battle_result out;
  out.units = unit_rows(r);
  // On the heap, away from this stack frame's lines, which the first stage's thread writes.
  const auto solver_owned = std::make_unique<folded_solver>(r, options);
  folded_solver& solver = *solver_owned;
  outcome_sums& sums = solver.sums;
  if (round::is_stalemate(r, start)) {
    sums.ends[static_cast<std::size_t>(battle_end::stalemate)] = 1.0;
    for (int side = 0; side < 2; ++side) sums.add_side(r, side, start, 1.0);
  } else {
    solver.solve(start);
    out.rounds_distribution = solver.rounds.distribution(options.rounds_tolerance, out.rounds_tail);
  }

  for (std::size_t e = 0; e < 7; ++e) out.ends[e] = sums.ends[e];
  out.attacker_sp_lost = sums.lost[0];
  out.defender_sp_lost = sums.lost[1];
  for (std::size_t u = 0; u < n; ++u) {
    out.units[u].survives = sums.survives[u];
    out.units[u].expected_sp = sums.sp[u];
    out.units[u].fails_morale = sums.fails[u];
  }
  if (r.garrison >= 0) out.garrison_eliminated = 1.0 - sums.survives[static_cast<std::size_t>(r.garrison)];
  fill_outcomes(out);
  clamp_probabilities(out);
  out.rounds_mean = solver.expected_rounds;
  for (auto& p : out.rounds_distribution) p = unit_interval(p);
  out.method.name = "exact";
  out.method.states = solver.states.size();
  out.method.transitions = solver.rounds.transitions;
  out.method.labels = solver.table[0].size() + solver.table[1].size();
  out.method.memory_bytes = solver.memory_bytes;
  out.method.threads = solver.threads_used;
  out.method.pruned_mass = 0.0;
  out.method.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return out;
}

}  // namespace detail
}  // namespace musket::great_lakes
