#pragma once
// The folded exact engine's labels of one side (folded_solver.cpp explains the folded chain): beside each
// folded state, the probability of entering it with each way its out units can hold what they
// left the line with. A state knows which of the side's units are out, and each out unit holds one
// of a few things (eliminated, or failed morale with 1 to its starting SP; a garrison fails with
// none, GL 4.26), so a state's labels are indexed by those holdings as the digits of a mixed-radix
// number. A move that takes no unit of the side out of the line adds one state's labels into
// another's of the same layout; a move that does puts each label at a fixed stride in the larger
// layout of its target, its new units' holdings a fixed offset. A state holds few of the labels its
// layout can (the 5 v 4 Niagara battle of issue 20: 3.9 of 61 on average for the attacker), so a
// large layout's labels are kept as a short list of (index, mass), searched, until it grows past
// `sparse_most` (then a dense vector): the labels a state holds then lie on a cache line or two
// rather than spread over a vector mostly 0, and the solve holds a fraction of the memory.
#include <array>
#include <cstdint>
#include <deque>
#include <vector>

#include "calc/great_lakes/rules/round.hpp"
#include "core/block_pool.hpp"

namespace musket::great_lakes::folded {

// Where a state's labels of one side lie in its vector: one digit per out unit of the side, in
// listing order, the first varying fastest.
struct label_layout {
  std::uint32_t out = 0;   // the side's out units, a bit per unit index
  std::uint32_t size = 1;  // the labels the state can hold
  int count = 0;           // out units
  std::array<std::uint8_t, round::max_units> unit{};
  std::array<std::uint32_t, round::max_units> radix{}, stride{};
};

// A label's out units as key bytes (SP | status << 5, 0 for an eliminated unit), by unit index.
using label_bytes = std::array<std::uint8_t, round::max_units>;

class side_labels {
 public:
  // `state_limit`: the solve's; the labels taken may number labels_per_state times it (a label is a
  // state of the unfolded chain: this bounds the work, the memory meter the bytes held).
  side_labels(const round::battle_rules& r, int side, std::size_t state_limit);
  static constexpr std::size_t labels_per_state = 64;
  // The layout of a state whose out units (either side's) are `out_units`, kept once made (by the side's out units,
  // while the side has few units); valid until the next call.
  const label_layout& layout_of(std::uint32_t out_units);
  // The battle starts in `state` with nothing out.
  void start(std::uint32_t state);
  // Takes state `state`'s labels (out units `out_units`) times `scale` as the ones to carry; the
  // state's own vector is freed. Counts the labels held (non-zero) and throws
  // state_limit_exceeded past the limit. Returns their mass.
  double take(std::uint32_t state, std::uint32_t out_units, double scale);
  // Adds p times the labels taken into `target`, whose out units are `target_out`: each label
  // grown by what the side's units that left the line holding SP in this move hold (`left`: key
  // bytes, byte u unit u's; nullptr when none did). Units newly out and not in `left` were eliminated.
  void carry(double p, std::uint32_t target, std::uint32_t target_out, const std::uint64_t* left) {
    if ((target_out & side_mask_) == taken_->out && target < by_state_.size() && by_state_[target].data &&
        by_state_[target].capacity == 0) {
      // The same layout, the target's dense vector there: the labels move unchanged.
      double* to = by_state_[target].data;
      for (std::size_t e = 0; e < mass_.size(); ++e) to[place_[e]] += mass_[e] * p;
      return;
    }
    carry_apart(p, target, target_out & side_mask_, left);
  }
  // f(bytes, mass) for each label taken.
  template <class F>
  void for_each(F&& f) const {
    label_bytes bytes{};
    for (std::size_t e = 0; e < mass_.size(); ++e) {
      for (int k = 0; k < taken_->count; ++k) {
        const std::uint8_t u = taken_->unit[k];
        bytes[u] = value_[u][digits_[e * taken_->count + static_cast<std::size_t>(k)]];
      }
      f(bytes, mass_[e]);
    }
  }
  const label_layout& taken() const { return *taken_; }
  // Asks for `target`'s vector ahead of its carry (a move's target is seldom in cache).
  void prefetch(std::uint32_t target) const {
    // (An offset from null is undefined: clang's UBSan.)
    if (target < by_state_.size() && !place_.empty() && by_state_[target].data)
      __builtin_prefetch(by_state_[target].data + (by_state_[target].capacity == 0 ? place_[0] : 0), 1);
  }
  void prefetch_slot(std::uint32_t target) const {
    if (target < by_state_.size()) __builtin_prefetch(&by_state_[target], 0);
  }
  // Asks for a state's own labels ahead of its take().
  void prefetch_own(std::uint32_t state) const {
    if (state < by_state_.size() && by_state_[state].data) __builtin_prefetch(by_state_[state].data, 0);
  }
  std::size_t size() const { return count_; }                                  // labels held by the states played
  std::size_t bytes() const { return bytes_ + pool_.bytes() + taken_bytes_; }  // held now (memory_meter)

 private:
  label_layout layout(std::uint32_t out_units) const;  // (made each time: layout_of keeps them)
  // Where the labels taken go in a target with more out units: the target's size, each label's
  // place without the new units' holdings, and the strides of those units.
  struct spread {
    std::uint32_t out;
    const label_layout* to;  // (kept by layout_of, or to_own)
    label_layout to_own;
    std::vector<std::uint32_t> at;
  };
  // A layout of layout_of's to keep while others are asked for: itself where layout_of keeps it,
  // else copied into `own` (read in place: a layout is 120 bytes, and states are many).
  const label_layout* kept(const label_layout& layout, label_layout& own) {
    if (&layout != &made_now_) return &layout;
    own = layout;
    return &own;
  }
  void carry_apart(double p, std::uint32_t target, std::uint32_t target_out, const std::uint64_t* left);
  const spread& spread_to(std::uint32_t target_out);
  std::uint32_t side_mask_ = 0;
  std::array<std::uint32_t, round::max_units> radix_{};
  int first_unit_ = 0;                 // the side's first unit index
  std::vector<label_layout> layouts_;  // by out units >> first_unit_ (layouts_made_ says which)
  std::vector<bool> layouts_made_;
  label_layout made_now_;
  std::array<std::vector<std::uint8_t>, round::max_units> value_;        // by unit: digit -> key byte
  std::array<std::array<std::uint8_t, 256>, round::max_units> digit_{};  // by unit: key byte -> digit
  // A state's labels: a block of the pool (taken back once played). Dense (capacity 0): `size`
  // masses by index. Sparse: `count` of `capacity` entries, each its index and its mass (two
  // doubles: an index below 2^31 is exact in one), in the order first carried in.
  struct labels_block {
    double* data = nullptr;
    std::uint32_t size = 0;
    std::uint16_t capacity = 0, count = 0;
  };
  static constexpr std::uint32_t sparse_least = 4, sparse_most = 32;  // entries
  // Adds x at `index` of a block, sparse or dense; a full list grows, or turns dense once past
  // sparse_most (or as large).
  void add_sparse(labels_block& v, std::uint32_t index, double x);
  // The target's block, made for a layout of `size` about to receive `labels` labels.
  labels_block& block_of(std::uint32_t state, std::uint32_t size, std::size_t labels);
  std::vector<labels_block> by_state_;
  block_pool pool_;
  // The labels taken: their places, masses and digits (taken_->count a label).
  const label_layout* taken_ = &no_units_;
  label_layout taken_own_, no_units_;
  std::vector<std::uint32_t> place_;
  std::vector<double> mass_;
  std::vector<std::uint8_t> digits_;
  std::deque<spread> spreads_;  // the taken labels' spreads, by target out units (a deque: one may point into itself)
  std::size_t spreads_used_ = 0;
  // Where layouts are kept (by out units): the spread made for each since the last take, found in
  // one read (1 + its place in spreads_ where spread_taken_ holds this take's number).
  std::vector<std::uint32_t> spread_taken_, spread_place_;
  std::uint32_t takes_ = 0;
  std::size_t bytes_ = 0, taken_bytes_ = 0, count_ = 0, limit_;  // (limit_: the state limit)
  std::size_t spread_bytes_ = 0;                                 // the spreads' places held (their capacity only grows)
};

}  // namespace musket::great_lakes::folded
