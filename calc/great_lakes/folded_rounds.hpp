#pragma once
// The folded engine's rounds distribution, carried along the chain by stage one.
#include <algorithm>
#include <bit>
#include <cstdint>
#include <vector>

#include "calc/great_lakes/folded_moves.hpp"
#include "core/block_pool.hpp"

namespace musket::great_lakes::folded {

using detail::battle_rules;
using detail::battle_state;
using detail::state_key;

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

}  // namespace musket::great_lakes::folded
