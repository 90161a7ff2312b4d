#pragma once
// A probability distribution over discrete states (a campaign's army, supplies, track marker...)
// carried forward exactly: each step maps every state to weighted successors, and equal successors
// merge. States are kept in an ordered map so iteration, sums and sampling are deterministic.
// Probability is `rational` (exact fractions) or `double`. A settable state limit bounds memory:
// past it, propagate() throws state_space_exceeded and the caller switches to simulation.
#include <cstddef>
#include <cstdint>
#include <map>
#include <random>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "core/pmf.hpp"

namespace musket {

// Thrown when a propagated distribution would hold more states than the caller allows.
class state_space_exceeded : public std::runtime_error {
 public:
  explicit state_space_exceeded(std::size_t limit)
      : std::runtime_error("more than " + std::to_string(limit) + " states"), limit_(limit) {}
  std::size_t limit() const noexcept { return limit_; }

 private:
  std::size_t limit_;
};

template <class State, class Probability>
class state_distribution {
 public:
  using state_type = State;
  using probability_type = Probability;

  state_distribution() = default;
  static state_distribution certain(const State& s) {
    state_distribution d;
    d.add(s, Probability(1));
    return d;
  }

  void add(const State& s, const Probability& mass) {
    if (mass == Probability(0)) return;
    auto [it, inserted] = masses_.try_emplace(s, mass);
    if (!inserted) it->second += mass;
  }
  std::size_t size() const { return masses_.size(); }
  bool empty() const { return masses_.empty(); }
  const std::map<State, Probability>& masses() const { return masses_; }

  Probability total() const {
    Probability sum(0);
    for (const auto& [s, p] : masses_) sum += p;
    return sum;
  }
  // P(predicate(state))
  template <class Predicate>
  Probability probability(Predicate&& predicate) const {
    Probability sum(0);
    for (const auto& [s, p] : masses_)
      if (predicate(s)) sum += p;
    return sum;
  }
  // The distribution of an integer field(state).
  template <class Field>
  basic_pmf<Probability> marginal(Field&& field) const {
    auto result = basic_pmf<Probability>::empty();
    for (const auto& [s, p] : masses_) result.add_mass(field(s), p);
    return result;
  }
  // The distribution of field(state) among states where predicate holds (unnormalised).
  template <class Field, class Predicate>
  basic_pmf<Probability> marginal_where(Field&& field, Predicate&& predicate) const {
    auto result = basic_pmf<Probability>::empty();
    for (const auto& [s, p] : masses_)
      if (predicate(s)) result.add_mass(field(s), p);
    return result;
  }

 private:
  std::map<State, Probability> masses_;
};

// One step of exact propagation: step(state, emit) calls emit(next_state, weight) for each
// successor, the weights of one state summing to 1. Throws state_space_exceeded when the result
// would hold more than `state_limit` states.
template <class State, class Probability, class Step>
state_distribution<State, Probability> propagate(const state_distribution<State, Probability>& from, Step&& step,
                                                 std::size_t state_limit) {
  state_distribution<State, Probability> next;
  for (const auto& [s, p] : from.masses()) {
    const Probability& mass = p;
    step(s, [&](const State& successor, const Probability& weight) {
      next.add(successor, mass * weight);
      if (next.size() > state_limit) throw state_space_exceeded(state_limit);
    });
  }
  return next;
}

// Draws states in proportion to their mass (doubles), to start simulated steps where the exact
// distribution left off.
template <class State>
class state_sampler {
 public:
  template <class Probability>
  explicit state_sampler(const state_distribution<State, Probability>& d) {
    double running = 0;
    for (const auto& [s, p] : d.masses()) {
      running += to_double(p);
      states_.push_back(s);
      cumulative_.push_back(running);
    }
  }
  template <class Engine>
  const State& operator()(Engine& engine) const {
    // 53 random bits from two 32-bit draws; the last state catches rounding at the top.
    const std::uint64_t bits = (static_cast<std::uint64_t>(engine()) << 21) ^ static_cast<std::uint64_t>(engine());
    const double u =
        static_cast<double>(bits & ((std::uint64_t{1} << 53) - 1)) / 9007199254740992.0 * cumulative_.back();
    std::size_t lo = 0, hi = states_.size() - 1;
    while (lo < hi) {
      const std::size_t mid = (lo + hi) / 2;
      if (cumulative_[mid] > u)
        hi = mid;
      else
        lo = mid + 1;
    }
    return states_[lo];
  }
  std::size_t size() const { return states_.size(); }

 private:
  std::vector<State> states_;
  std::vector<double> cumulative_;
};

}  // namespace musket
