#pragma once
// The folded engine's node table and the order its nodes are taken in (the class comment).
#include <array>
#include <bit>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <vector>

#include "calc/great_lakes/folded_keys.hpp"
#include "calc/great_lakes/folded_numbering.hpp"
#include "core/markov_chain.hpp"

namespace musket::great_lakes::folded {

using detail::battle_rules;
using detail::battle_state;
using detail::state_key;

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

}  // namespace musket::great_lakes::folded
