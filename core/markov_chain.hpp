#pragma once
// An absorbing Markov chain built lazily from a start state: a caller's `expand` lists each
// transient state's successors, states are memoised by key, and the chain is solved by pushing
// probability forward in topological order. Requirements: apart from self-loops the transient
// states form a DAG (every change is progress), which is what makes the solve a single pass.
// A self-loop of probability q is solved in closed form: the state is left after a geometric
// number of steps, so its outflow is scaled by 1 / (1 - q) and it contributes 1 / (1 - q)
// expected steps per visit. Nothing is truncated; a settable state limit keeps memory bounded.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "core/step_tally.hpp"

namespace musket {

// Thrown when building would exceed the caller's state limit (nothing else is allocated after).
class state_limit_exceeded : public std::runtime_error {
 public:
  explicit state_limit_exceeded(std::size_t limit)
      : std::runtime_error("more than " + std::to_string(limit) + " reachable states"), limit_(limit) {}
  std::size_t limit() const noexcept { return limit_; }

 private:
  std::size_t limit_;
};

template <class Key, class Hash = std::hash<Key>>
class absorbing_chain {
 public:
  struct edge {
    std::uint32_t target;
    double probability;
  };

  // expand(key, index, emit) calls emit(next_key, probability, absorbing) once or more per
  // successor (duplicates are merged; an emit of the key itself is the self-loop). It is called
  // once per transient state, in index order. A caller may also let probability leave the chain
  // without naming an absorbing state (summing what it needs per state itself): the mass a
  // transient state does not pass on, apart from its self-loop, is absorbed "outside". Throws state_limit_exceeded past
  // `state_limit` states (transient + absorbing).
  template <class Expand>
  void build(const Key& start, bool start_absorbing, Expand&& expand, std::size_t state_limit) {
    clear();
    start_ = intern(start, start_absorbing, state_limit);
    std::vector<edge> scratch;
    local_sum merged;
    // States are numbered in discovery order; transient ones are expanded in that order, so the
    // edge lists are appended in index order (CSR).
    for (std::uint32_t i = 0; i < keys_.size(); ++i) {
      if (absorbing_[i]) {
        offsets_.push_back(static_cast<std::uint32_t>(edges_.size()));
        stay_.push_back(0.0);
        continue;
      }
      double stay = 0.0;
      const Key current = keys_[i];
      merged.clear();
      // Successors are summed in a small local table first: a state's expansion may emit the
      // same successor thousands of times, and the big memo table is consulted once per distinct one.
      expand(current, i, [&](const Key& next, double p, bool absorbing) {
        if (p == 0.0) return;
        if (!absorbing && next == current) {
          stay += p;
          return;
        }
        merged.add(next, absorbing, p, hash_);
      });
      scratch.clear();
      for (const auto& slot : merged.used()) scratch.push_back({intern(slot.key, slot.absorbing, state_limit), slot.p});
      std::sort(scratch.begin(), scratch.end(), [](const edge& a, const edge& b) { return a.target < b.target; });
      offsets_.push_back(static_cast<std::uint32_t>(edges_.size()));
      edges_.insert(edges_.end(), scratch.begin(), scratch.end());
      stay_.push_back(stay);
    }
    offsets_.push_back(static_cast<std::uint32_t>(edges_.size()));
  }

  std::size_t state_count() const { return keys_.size(); }
  // The bytes the chain holds so far (its keys, memo table, edges and per-state lists, by capacity).
  std::size_t bytes() const {
    return keys_.capacity() * sizeof(Key) + table_.capacity() * sizeof(std::uint32_t) + absorbing_.capacity() / 8 +
           offsets_.capacity() * sizeof(std::uint32_t) + edges_.capacity() * sizeof(edge) +
           stay_.capacity() * sizeof(double);
  }
  std::size_t transition_count() const { return edges_.size(); }
  const Key& key(std::size_t i) const { return keys_[i]; }
  bool is_absorbing(std::size_t i) const { return absorbing_[i]; }
  double self_loop(std::size_t i) const { return stay_[i]; }

  struct solution {
    std::vector<double> absorbed;  // by state index: probability of ending there (0 for transient)
    double expected_steps = 0;     // expected number of steps before absorption
    std::vector<double> visits;    // expected steps spent in each transient state
  };

  // One forward pass in topological order. Mass on a transient state with self-loop q leaves it
  // with total probability 1 (geometric), split over its other edges in proportion.
  solution solve() const {
    const std::size_t n = keys_.size();
    solution out;
    out.absorbed.assign(n, 0.0);
    out.visits.assign(n, 0.0);
    std::vector<double> mass(n, 0.0);
    mass[start_] = 1.0;
    for (std::uint32_t i : topological_order()) {
      if (absorbing_[i]) {
        out.absorbed[i] = mass[i];
        continue;
      }
      if (mass[i] == 0.0) continue;
      const double leave = 1.0 - stay_[i];
      const double scaled = mass[i] / leave;  // leave > 0: a state that can never change is absorbing by contract
      out.visits[i] = scaled;
      out.expected_steps += scaled;
      for (std::uint32_t e = offsets_[i]; e < offsets_[i + 1]; ++e)
        mass[edges_[e].target] += scaled * edges_[e].probability;
    }
    return out;
  }

  // P(absorbed at step t) for t = 1, 2, ... until the mass still moving is below `tolerance` or
  // `max_steps` is reached; `tail` receives the mass not yet absorbed at that point (step_tally).
  // `exits`, if given, is each state's one-step probability of leaving the chain outside it.
  std::vector<double> step_distribution(double tolerance, std::size_t max_steps, double& tail,
                                        const std::vector<double>* exits = nullptr) const {
    if (absorbing_[start_]) {
      tail = 0.0;
      return {};
    }
    step_tally tally(tolerance, max_steps);
    std::vector<std::vector<double>> arrive(keys_.size());
    arrive[start_].push_back(1.0);
    for (std::uint32_t i : topological_order()) {
      if (absorbing_[i] || arrive[i].empty()) continue;
      const std::vector<double> a = std::move(arrive[i]);  // freed once taken
      if (!tally.take(a, stay_[i])) continue;
      double absorb = exits && i < exits->size() ? (*exits)[i] : 0.0;
      for (std::uint32_t e = offsets_[i]; e < offsets_[i + 1]; ++e)
        if (absorbing_[edges_[e].target]) absorb += edges_[e].probability;
      tally.absorb(absorb);
      for (std::uint32_t e = offsets_[i]; e < offsets_[i + 1]; ++e)
        if (!absorbing_[edges_[e].target]) tally.pass_on(arrive[edges_[e].target], edges_[e].probability);
    }
    return tally.by_step(tail);
  }

 private:
  // Open addressing, cleared per expansion by walking only the slots used.
  class local_sum {
   public:
    struct slot {
      Key key;
      bool absorbing = false;
      double p = 0;
    };
    void clear() {
      for (std::uint32_t at : occupied_) index_[at] = 0;
      occupied_.clear();
      slots_.clear();
    }
    void add(const Key& key, bool absorbing, double p, const Hash& hash) {
      if ((slots_.size() + 1) * 2 > index_.size()) grow(hash);
      std::size_t at = hash(key) & (index_.size() - 1);
      while (index_[at] != 0) {
        slot& s = slots_[index_[at] - 1];
        if (s.key == key) {
          s.p += p;
          return;
        }
        at = (at + 1) & (index_.size() - 1);
      }
      slots_.push_back({key, absorbing, p});
      index_[at] = static_cast<std::uint32_t>(slots_.size());
      occupied_.push_back(static_cast<std::uint32_t>(at));
    }
    const std::vector<slot>& used() const { return slots_; }

   private:
    void grow(const Hash& hash) {
      std::vector<std::uint32_t> bigger(std::max<std::size_t>(64, index_.size() * 2), 0);
      occupied_.clear();
      for (std::uint32_t k = 0; k < slots_.size(); ++k) {
        std::size_t at = hash(slots_[k].key) & (bigger.size() - 1);
        while (bigger[at] != 0) at = (at + 1) & (bigger.size() - 1);
        bigger[at] = k + 1;
        occupied_.push_back(static_cast<std::uint32_t>(at));
      }
      index_.swap(bigger);
    }
    std::vector<slot> slots_;
    std::vector<std::uint32_t> index_;     // 0 = empty, else slot number + 1
    std::vector<std::uint32_t> occupied_;  // positions in index_ to reset
  };

  void clear() {
    keys_.clear();
    table_.clear();
    absorbing_.clear();
    offsets_.clear();
    edges_.clear();
    stay_.clear();
  }

  // The memo table: open addressing over state numbers (0 = empty, else index + 1); each key is
  // stored once, in keys_.
  std::uint32_t intern(const Key& key, bool absorbing, std::size_t limit) {
    if ((keys_.size() + 1) * 2 > table_.size()) rehash(std::max<std::size_t>(1024, table_.size() * 2));
    const std::size_t mask = table_.size() - 1;
    std::size_t at = hash_(key) & mask;
    while (table_[at] != 0) {
      const std::uint32_t id = table_[at] - 1;
      if (keys_[id] == key) return id;
      at = (at + 1) & mask;
    }
    if (keys_.size() >= limit) throw state_limit_exceeded(limit);
    const auto id = static_cast<std::uint32_t>(keys_.size());
    table_[at] = id + 1;
    keys_.push_back(key);
    absorbing_.push_back(absorbing);
    return id;
  }

  void rehash(std::size_t size) {
    std::vector<std::uint32_t> bigger(size, 0);
    for (std::uint32_t id = 0; id < keys_.size(); ++id) {
      std::size_t at = hash_(keys_[id]) & (size - 1);
      while (bigger[at] != 0) at = (at + 1) & (size - 1);
      bigger[at] = id + 1;
    }
    table_.swap(bigger);
  }

  // Kahn's algorithm over the edges (self-loops are not edges).
  std::vector<std::uint32_t> topological_order() const {
    const std::size_t n = keys_.size();
    std::vector<std::uint32_t> in_degree(n, 0), order;
    order.reserve(n);
    for (const auto& e : edges_) ++in_degree[e.target];
    for (std::uint32_t i = 0; i < n; ++i)
      if (in_degree[i] == 0) order.push_back(i);
    for (std::size_t k = 0; k < order.size(); ++k) {
      const std::uint32_t i = order[k];
      if (absorbing_[i]) continue;
      for (std::uint32_t e = offsets_[i]; e < offsets_[i + 1]; ++e)
        if (--in_degree[edges_[e].target] == 0) order.push_back(edges_[e].target);
    }
    if (order.size() != n) throw std::logic_error("absorbing_chain: transitions contain a cycle");
    return order;
  }

  Hash hash_{};
  std::uint32_t start_ = 0;
  std::vector<Key> keys_;
  std::vector<std::uint32_t> table_;
  std::vector<bool> absorbing_;
  std::vector<std::uint32_t> offsets_;
  std::vector<edge> edges_;
  std::vector<double> stay_;
};

}  // namespace musket
