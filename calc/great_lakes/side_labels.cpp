#include "calc/great_lakes/side_labels.hpp"

#include <algorithm>
#include <bit>
#include <stdexcept>

#include "core/markov_chain.hpp"

namespace musket::great_lakes::folded {

side_labels::side_labels(const round::battle_rules& r, int side, std::size_t state_limit)
    : first_unit_(r.begin[side]), limit_(state_limit) {
  // A side of up to 12 units keeps every layout it meets (4,096 at most).
  if (r.end[side] - r.begin[side] <= 12) {
    layouts_.resize(std::size_t{1} << (r.end[side] - r.begin[side]));
    layouts_made_.assign(layouts_.size(), false);
    spread_taken_.assign(layouts_.size(), 0);
    spread_place_.assign(layouts_.size(), 0);
  }
  for (int u = r.begin[side]; u < r.end[side]; ++u) {
    const auto& rule = r.units[static_cast<std::size_t>(u)];
    side_mask_ |= 1u << u;
    // What an out unit holds: eliminated (byte 0), or failed morale with its SP; a failing
    // garrison is eliminated but counted as failed (GL 4.26: failed with 0).
    auto& values = value_[static_cast<std::size_t>(u)];
    values.push_back(0);
    if (rule.garrison) {
      values.push_back(static_cast<std::uint8_t>(round::failed << 5));
    } else {
      for (int sp = 1; sp <= rule.start_sp; ++sp) values.push_back(static_cast<std::uint8_t>(sp | round::failed << 5));
    }
    auto& digit = digit_[static_cast<std::size_t>(u)];
    digit.fill(0xFF);
    for (std::size_t d = 0; d < values.size(); ++d) digit[values[d]] = static_cast<std::uint8_t>(d);
    radix_[static_cast<std::size_t>(u)] = static_cast<std::uint32_t>(values.size());
  }
}

label_layout side_labels::layout(std::uint32_t out_units) const {
  label_layout a;
  a.out = out_units & side_mask_;
  std::uint64_t size = 1;
  for (std::uint32_t rest = a.out; rest != 0; rest &= rest - 1) {
    const int u = std::countr_zero(rest);
    a.unit[a.count] = static_cast<std::uint8_t>(u);
    a.radix[a.count] = radix_[u];
    a.stride[a.count] = static_cast<std::uint32_t>(size);
    size *= radix_[u];
    ++a.count;
  }
  if (size > (std::uint64_t{1} << 31)) throw state_limit_exceeded(limit_);  // labels past any count
  a.size = static_cast<std::uint32_t>(size);
  return a;
}

const label_layout& side_labels::layout_of(std::uint32_t out_units) {
  const std::uint32_t out = out_units & side_mask_;
  const std::size_t at = out >> first_unit_;
  if (at >= layouts_.size()) {  // (a side of many units: made each time, copied by the caller)
    made_now_ = layout(out);
    return made_now_;
  }
  if (!layouts_made_[at]) {
    layouts_[at] = layout(out);
    layouts_made_[at] = true;
  }
  return layouts_[at];
}

side_labels::labels_block& side_labels::block_of(std::uint32_t state, std::uint32_t size, std::size_t labels) {
  if (by_state_.size() <= state) {
    const std::size_t before = by_state_.capacity();
    by_state_.resize(std::max<std::size_t>(state + 1, by_state_.size() * 2));
    bytes_ += (by_state_.capacity() - before) * sizeof(labels_block);
  }
  labels_block& v = by_state_[state];
  if (v.data) return v;
  const auto entries = std::bit_ceil(std::max<std::uint32_t>(sparse_least, static_cast<std::uint32_t>(labels)));
  if (entries <= sparse_most && 2 * entries < size)
    v = {pool_.take(2 * entries), size, static_cast<std::uint16_t>(entries), 0};
  else
    v = {pool_.take(size), size, 0, 0};
  return v;
}

void side_labels::add_sparse(labels_block& v, std::uint32_t index, double x) {
  if (v.capacity == 0) {  // (turned dense by an earlier label of the same move)
    v.data[index] += x;
    return;
  }
  const double key = index;  // (exact: an index is below 2^31)
  for (std::uint32_t k = 0; k < v.count; ++k)
    if (v.data[2 * k] == key) {
      v.data[2 * k + 1] += x;
      return;
    }
  if (v.count == v.capacity) {
    const std::uint32_t entries = 2u * v.capacity;
    if (entries > sparse_most || 2 * entries >= v.size) {  // dense from here: the same sums, by index
      double* dense = pool_.take(v.size);
      for (std::uint32_t k = 0; k < v.count; ++k) dense[static_cast<std::uint32_t>(v.data[2 * k])] = v.data[2 * k + 1];
      pool_.give_back(v.data, 2u * v.capacity);
      v = {dense, v.size, 0, 0};
      dense[index] += x;
      return;
    }
    double* grown = pool_.take(2 * entries);
    std::copy(v.data, v.data + 2 * v.count, grown);
    pool_.give_back(v.data, 2u * v.capacity);
    v.data = grown;
    v.capacity = static_cast<std::uint16_t>(entries);
  }
  v.data[2 * v.count] = key;
  v.data[2 * v.count + 1] = x;  // (as a dense vector's 0 + x)
  ++v.count;
}

void side_labels::start(std::uint32_t state) {
  block_of(state, 1, 1).data[0] += 1.0;
}

double side_labels::take(std::uint32_t state, std::uint32_t out_units, double scale) {
  taken_ = kept(layout_of(out_units), taken_own_);
  place_.clear();
  mass_.clear();
  digits_.clear();
  spreads_used_ = 0;
  if (++takes_ == 0) {  // (numbers wrapped: none is this take's)
    std::fill(spread_taken_.begin(), spread_taken_.end(), 0);
    takes_ = 1;
  }
  if (state >= by_state_.size() || !by_state_[state].data) return 0.0;
  const labels_block v = by_state_[state];
  std::array<std::uint8_t, round::max_units> digit{};
  double visits = 0.0;
  const auto keep = [&](std::uint32_t at, double mass) {
    place_.push_back(at);
    mass_.push_back(mass * scale);
    visits += mass_.back();
    digits_.insert(digits_.end(), digit.begin(), digit.begin() + taken_->count);
  };
  if (v.capacity == 0) {
    for (std::size_t at = 0; at < v.size; ++at) {
      if (v.data[at] != 0.0) keep(static_cast<std::uint32_t>(at), v.data[at]);
      for (int k = 0; k < taken_->count; ++k) {  // the next place's digits, as an odometer
        if (++digit[k] < taken_->radix[k]) break;
        digit[k] = 0;
      }
    }
    pool_.give_back(v.data, v.size);
  } else {
    // In the order of their indexes, as a dense vector lists them (the sums downstream follow it).
    struct entry {  // (no initialiser: the array is written before it is read, not zeroed each take)
      std::uint32_t at;
      double mass;
    };
    std::array<entry, sparse_most> entries;
    for (std::uint32_t k = 0; k < v.count; ++k)
      entries[k] = {static_cast<std::uint32_t>(v.data[2 * k]), v.data[2 * k + 1]};
    std::sort(entries.begin(), entries.begin() + v.count, [](const entry& x, const entry& y) { return x.at < y.at; });
    for (std::uint32_t k = 0; k < v.count; ++k) {
      if (entries[k].mass == 0.0) continue;
      for (int j = 0; j < taken_->count; ++j)
        digit[j] = static_cast<std::uint8_t>(entries[k].at / taken_->stride[j] % taken_->radix[j]);
      keep(entries[k].at, entries[k].mass);
    }
    pool_.give_back(v.data, 2u * v.capacity);
  }
  count_ += mass_.size();
  taken_bytes_ = place_.capacity() * sizeof(std::uint32_t) + mass_.capacity() * sizeof(double) + digits_.capacity() +
                 spread_bytes_;
  if (count_ / labels_per_state > limit_) throw state_limit_exceeded(limit_);
  by_state_[state] = {};
  return visits;
}

const side_labels::spread& side_labels::spread_to(std::uint32_t target_out) {
  // A state's moves reach a few dozen layouts at most, but each move asks: one read where layouts
  // are kept (a tenth of the instructions of issue 20's 4 v 4 went to searching), else a search.
  const std::size_t at = target_out >> first_unit_;
  const bool kept_layouts = at < spread_taken_.size();
  if (kept_layouts) {
    if (spread_taken_[at] == takes_) return spreads_[spread_place_[at]];
    spread_taken_[at] = takes_;
    spread_place_[at] = static_cast<std::uint32_t>(spreads_used_);
  } else {
    for (std::size_t k = 0; k < spreads_used_; ++k)
      if (spreads_[k].out == target_out) return spreads_[k];
  }
  if (spreads_used_ == spreads_.size()) spreads_.emplace_back();
  spread& s = spreads_[spreads_used_++];
  s.out = target_out;
  s.to = kept(layout_of(target_out), s.to_own);
  // The taken units' strides in the target's layout.
  std::array<std::uint32_t, round::max_units> stride{};
  for (int k = 0, j = 0; k < s.to->count && j < taken_->count; ++k)
    if (s.to->unit[k] == taken_->unit[j]) stride[j++] = s.to->stride[k];
  const std::size_t before = s.at.capacity();
  s.at.resize(mass_.size());
  taken_bytes_ += (s.at.capacity() - before) * sizeof(std::uint32_t);
  spread_bytes_ += (s.at.capacity() - before) * sizeof(std::uint32_t);
  const std::size_t count = static_cast<std::size_t>(taken_->count);
  for (std::size_t e = 0; e < mass_.size(); ++e) {
    std::uint32_t at = 0;
    for (std::size_t k = 0; k < count; ++k) at += digits_[e * count + k] * stride[k];
    s.at[e] = at;
  }
  return s;
}

void side_labels::carry_apart(double p, std::uint32_t target, std::uint32_t target_out, const std::uint64_t* left) {
  const std::size_t labels = mass_.size();
  if (labels == 0) return;
  if (target_out == taken_->out) {  // the same layout: the labels move unchanged
    labels_block& v = block_of(target, taken_->size, labels);
    if (v.capacity == 0) {
      for (std::size_t e = 0; e < labels; ++e) v.data[place_[e]] += mass_[e] * p;
    } else {
      for (std::size_t e = 0; e < labels; ++e) add_sparse(v, place_[e], mass_[e] * p);
    }
    return;
  }
  // A larger layout: the taken labels' digits at the target's strides, the new units' holdings an offset.
  const spread& s = spread_to(target_out);
  std::size_t offset = 0;
  for (int k = 0; k < s.to->count; ++k) {
    const std::uint8_t u = s.to->unit[k];
    if (taken_->out >> u & 1u) continue;
    const std::uint8_t byte = left ? static_cast<std::uint8_t>(left[u / 8] >> (8 * (u % 8))) : 0;
    const std::uint8_t digit = digit_[u][byte];
    if (digit == 0xFF) throw std::logic_error("a unit left the line holding what no label holds");
    offset += std::size_t{digit} * s.to->stride[k];
  }
  labels_block& v = block_of(target, s.to->size, labels);
  if (v.capacity == 0) {
    double* to = v.data + offset;
    for (std::size_t e = 0; e < labels; ++e) to[s.at[e]] += mass_[e] * p;
  } else {
    for (std::size_t e = 0; e < labels; ++e) add_sparse(v, static_cast<std::uint32_t>(s.at[e] + offset), mass_[e] * p);
  }
}

}  // namespace musket::great_lakes::folded
