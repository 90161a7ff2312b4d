#pragma once
// What stage one of the folded engine gives stage two for each node it plays: its moves (alike
// outcomes summed), the parts of them in which units left the line, and what the rounds that end
// the battle leave (state_round); and the outcome sums both add to.
#include <array>
#include <bit>
#include <cstdint>
#include <utility>
#include <vector>

#include "calc/great_lakes/exact_parts.hpp"

namespace musket::great_lakes::folded {

using detail::battle_rules;
using detail::battle_state;
using detail::state_key;

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

}  // namespace musket::great_lakes::folded
