#pragma once
// One side of a Great Lakes battle played alone for the game over pairs (optimal/pair_game.hpp):
// every option of every choice listed once, its states, hit states, allocations, morale trees and
// reinforcements. Internal linkage: included by optimal/pair_values.cpp alone.
#include <array>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "calc/great_lakes/exact/exact_chooser.hpp"
#include "calc/great_lakes/rules/round.hpp"
#include "core/key_index.hpp"

namespace musket::great_lakes::optimal {

using detail::battle_rules;
using detail::battle_state;
namespace rd = round;

namespace {

constexpr std::uint32_t no_index = 0xffffffffu;

// A side state's key: its units as bytes (SP | status << 5), then its rerolls left; a hit state's,
// the same and the hits each unit took this round. One length a side (key_index's keys).
struct side_key {
  std::array<std::uint8_t, 2 * rd::max_units + 1> bytes;
  std::size_t size = 0;
  const std::uint8_t* data() const { return bytes.data(); }
};
side_key side_bytes(const battle_rules& r, const battle_state& s, int side) {
  side_key key;
  for (int i = r.begin[side]; i < r.end[side]; ++i)
    key.bytes[key.size++] = static_cast<std::uint8_t>(s.sp[i] | s.st[i] << 5);
  key.bytes[key.size++] = s.rerolls[side];
  return key;
}
side_key hit_bytes(const battle_rules& r, const battle_state& s, const rd::hit_counts& hits, int side) {
  side_key key = side_bytes(r, s, side);
  for (int i = r.begin[side]; i < r.end[side]; ++i) key.bytes[key.size++] = hits[i];
  return key;
}
std::size_t side_key_length(const battle_rules& r, int side, bool hit) {
  return static_cast<std::size_t>((hit ? 2 : 1) * (r.end[side] - r.begin[side]) + 1);
}

// One side played alone, every option of every choice: its states (at a round's start, or after
// its morale checks: the same kind), its hit states, and for each state and hit count the hit
// states its allocations give, each hit state's morale checks as a small decision tree, each
// state's reinforcement.
// A side's part of a pair where the battle ends: a state of its table, or a hit state.
struct side_entry {
  std::uint32_t index;
  bool hit;
};

struct side_table {
  int side = 0;
  bool fold = false;                // its states folded (pair_game::folded)
  std::vector<battle_state> state;  // the other side's units as at the start (never read)
  std::vector<rd::side_sums> sum;
  std::vector<int> lost;                     // SP lost so far
  std::vector<int> lost_after, alive_after;  // the same where the side retreats (GL 4.17: the garrison lost)
  std::vector<std::uint32_t> hits_begin;     // by state: its entry of hit_begin for 0 hits
  std::vector<std::uint32_t> hit_begin;      // by (state, hits 0 .. alive SP) and one past: into hit_option
  std::vector<std::uint32_t> hit_option;     // hit states, the rulings' allocation first
  std::vector<std::uint32_t> enter_begin;    // by state, and one past: into enter (empty: nobody enters)
  std::vector<std::pair<std::uint32_t, double>> enter;
  std::vector<std::uint32_t> rank;  // by state: its place in the topological order (valued states only)
  // Hit states.
  std::vector<rd::side_sums> hsum;
  std::vector<int> hlost, hlost_after, halive_after;
  std::vector<std::uint32_t> hroot;  // its morale tree's root list, or no_index: one outcome, hleaf
  std::vector<std::uint32_t> hleaf;  // (no_index where its line is gone)
  std::vector<battle_state> hstate;  // its units after the hits (the other side's as at the start)
  // The morale trees: a list's entries are outcomes (to a state, weight from the hit state) or
  // choices (to a node), a node's options lists.
  struct entry {
    double w;
    std::uint32_t to;
    bool choice;
  };
  struct list {
    std::uint32_t begin = 0, end = 0;
  };
  struct node {
    double margin;
    std::uint32_t first, options;
  };
  std::vector<entry> entries;
  std::vector<list> lists;
  std::vector<node> nodes;
  key_index index, hindex;  // by side_bytes, hit_bytes
  double tree_entries = 0;  // over the hit states (the cost model's)

  std::size_t bytes() const {
    return (state.capacity() + hstate.capacity()) * sizeof(battle_state) + sum.capacity() * sizeof(rd::side_sums) +
           (lost.capacity() * 3 + hlost.capacity() * 3) * sizeof(int) +
           (hits_begin.capacity() + hit_begin.capacity() + hit_option.capacity() + enter_begin.capacity() +
            rank.capacity() + hroot.capacity() + hleaf.capacity()) *
               sizeof(std::uint32_t) +
           enter.capacity() * sizeof(enter[0]) + hsum.capacity() * sizeof(rd::side_sums) +
           entries.capacity() * sizeof(entry) + lists.capacity() * sizeof(list) + nodes.capacity() * sizeof(node) +
           index.bytes() + hindex.bytes();
  }
};

// Records a side's morale checks from a hit state into its table's trees.
struct tree_builder : detail::exact_chooser {
  side_table* t = nullptr;
  double tolerance = 0;
  std::vector<std::vector<side_table::entry>> open{1};
  std::size_t depth = 0;

  void leaf(std::uint32_t to) { open[depth].push_back({weight, to, false}); }
  void close(std::size_t d, std::uint32_t at) {
    t->lists[at].begin = static_cast<std::uint32_t>(t->entries.size());
    t->entries.insert(t->entries.end(), open[d].begin(), open[d].end());
    t->lists[at].end = static_cast<std::uint32_t>(t->entries.size());
    open[d].clear();
  }
  template <class F>
  void decide(const rd::decision&, int options, F&& f) {
    if (options == 1) {
      f(0);
      return;
    }
    const auto node = static_cast<std::uint32_t>(t->nodes.size());
    const auto first = static_cast<std::uint32_t>(t->lists.size());
    t->nodes.push_back({tolerance * weight, first, static_cast<std::uint32_t>(options)});
    t->lists.resize(first + static_cast<std::size_t>(options));
    open[depth].push_back({0.0, node, true});
    ++depth;
    if (open.size() <= depth) open.resize(depth + 1);
    for (int k = 0; k < options; ++k) {
      f(k);
      close(depth, first + static_cast<std::uint32_t>(k));
    }
    --depth;
  }
};

// Values a part of a round, every choice made by its side (max for the attacker, min for the
// defender, ties to option 0 unless another is better by the tolerance): acc gathers each outcome's
// weight x value (the chain's look-ahead at a reroll).
struct valuing_chooser : detail::exact_chooser {
  double acc = 0, tolerance = 0;
  template <class F>
  void decide(const rd::decision& d, int options, F&& f) {
    if (options == 1) {
      f(0);
      return;
    }
    const double base = acc;
    double best = 0;
    for (int k = 0; k < options; ++k) {
      acc = 0;
      f(k);
      const double margin = tolerance * weight;
      if (k == 0 || (d.side == rd::attacker ? acc > best + margin : acc < best - margin)) best = acc;
    }
    acc = base + best;
  }
};

}  // namespace
}  // namespace musket::great_lakes::optimal
