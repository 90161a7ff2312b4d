#pragma once
// The distribution of the step at which an absorbing chain ends, tallied as its transient states are
// taken once each in a topological order (apart from self-loops the chain is a DAG): all the mass
// that will ever reach a state has arrived when it is taken, by step, arrive[t]. Its occupancy at
// step t is o[t] = arrive[t] + q o[t - 1] (q its self-loop); o[t] times its one-step absorption is
// absorbed in step t + 1, and o[t] times an edge's probability arrives at the edge's target at
// t + 1. Each state's sums are one contiguous loop per edge, where stepping the whole chain a step at
// a time went through every edge once a step, each time by one scattered add (the 8 v 8 GL blocks:
// 82 steps, some 200 us of a 0.5 ms solve). Once nothing more arrives, an occupancy below the
// cutoff (1e-18, or a millionth of the tolerance if that is less: a tolerance of 0 keeps every
// step) is let go, so the tail may miss up to that much a state. Used by absorbing_chain
// (core/markov_chain.hpp) and by chains that walk their own states in order.
#include <algorithm>
#include <cstddef>
#include <vector>

namespace musket {

class step_tally {
 public:
  step_tally(double tolerance, std::size_t max_steps)
      : tolerance_(tolerance), max_steps_(max_steps), cutoff_(std::min(1e-18, tolerance * 1e-6)) {}

  // Takes a state's arrivals (arrive[t]: mass reaching it at step t) and self-loop q; false where
  // nothing arrived. Its occupancy is then held for absorb() and pass_on() until the next take().
  bool take(const std::vector<double>& a, double q) {
    first_ = 0;
    while (first_ < a.size() && a[first_] == 0.0) ++first_;
    if (first_ == a.size()) return false;
    // Four steps at a time, each the arrivals' own run (free of o) plus q^k times the occupancy
    // before them: one multiply-add per four steps waits on the last, where one a step did.
    const double q2 = q * q, q3 = q2 * q, q4 = q2 * q2;
    if (occupancy_.size() < a.size()) occupancy_.resize(a.size());
    double* occupied = occupancy_.data();
    double o = 0.0;
    std::size_t t = first_;
    for (; t + 4 <= a.size(); t += 4) {
      const double p0 = a[t], p1 = a[t + 1] + q * p0, p2 = a[t + 2] + q * p1, p3 = a[t + 3] + q * p2;
      occupied[t] = p0 + q * o;
      occupied[t + 1] = p1 + q2 * o;
      occupied[t + 2] = p2 + q3 * o;
      o = occupied[t + 3] = p3 + q4 * o;
    }
    for (; t < a.size(); ++t) o = occupied[t] = a[t] + q * o;
    for (; t <= max_steps_; ++t) {  // nothing more arrives
      o *= q;
      if (o < cutoff_) break;
      if (t == occupancy_.size()) {
        occupancy_.resize(std::min(max_steps_ + 1, 2 * t + 64));
        occupied = occupancy_.data();
      }
      occupied[t] = o;
    }
    length_ = t;
    return true;
  }

  // The state taken leaves the chain with probability p a step.
  void absorb(double p) {
    hold_steps(length_);
    for (std::size_t k = first_; k < length_; ++k) {
      absorbed_[k] += occupancy_[k] * p;
      present_[k] += occupancy_[k];
    }
  }

  // The state taken passes probability p a step on to the state whose arrivals are `to`: arrivals
  // at t + 1 <= max_steps, enough for the listing's last step and its tail.
  void pass_on(std::vector<double>& to, double p) const { shift_into(occupancy_.data(), first_, length_, to, p); }

  // A run of steps [first, end) of occupancy gathered from several states (a tally of a chain whose
  // states pass their mass on through shared intermediate points: what reaches such a point from
  // the states taken is passed on from it once): steps[t] for t in [first, end).
  struct run {
    std::vector<double> steps;
    std::size_t first = 0, end = 0;
    bool empty() const { return end == 0; }
  };
  // The state taken's occupancy times p, added to the run.
  void gather(run& r, double p) const {
    if (r.steps.size() < length_) r.steps.resize(length_, 0.0);
    for (std::size_t k = first_; k < length_; ++k) r.steps[k] += occupancy_[k] * p;
    r.first = r.empty() ? first_ : std::min(r.first, first_);
    r.end = std::max(r.end, length_);
  }
  // The run passes probability p a step on to the state whose arrivals are `to` (as pass_on does).
  void pass_on(const run& r, std::vector<double>& to, double p) const {
    shift_into(r.steps.data(), r.first, r.end, to, p);
  }
  // The run leaves the chain with probability p a step (its mass counted present by the states
  // taken that gathered it).
  void absorb(const run& r, double p) {
    hold_steps(r.end);
    for (std::size_t k = r.first; k < r.end; ++k) absorbed_[k] += r.steps[k] * p;
  }
  // Empties the run, its room kept.
  static void clear(run& r) {
    std::fill(r.steps.begin() + static_cast<std::ptrdiff_t>(r.first),
              r.steps.begin() + static_cast<std::ptrdiff_t>(r.end), 0.0);
    r.first = r.end = 0;
  }

  // P(absorbed at step t) for t = 1, 2, ... until the mass still moving is below the tolerance or
  // max_steps is reached; `tail` receives the mass not yet absorbed then.
  std::vector<double> by_step(double& tail) const {
    std::vector<double> out;
    double moving = 1.0;
    while (moving > tolerance_ && out.size() < max_steps_) {
      const std::size_t t = out.size();
      out.push_back(t < absorbed_.size() ? absorbed_[t] : 0.0);
      moving = t + 1 < present_.size() ? present_[t + 1] : 0.0;
    }
    tail = moving;
    return out;
  }

 private:
  // from[t] p added to to[t + 1] for t in [first, min(end, max_steps)).
  void shift_into(const double* from, std::size_t first, std::size_t end, std::vector<double>& to, double p) const {
    const std::size_t count = std::min(end, max_steps_);
    if (count <= first) return;
    if (to.size() < count + 1) to.resize(count + 1, 0.0);
    double* next = to.data() + 1;
    for (std::size_t k = first; k < count; ++k) next[k] += from[k] * p;
  }
  // The absorbed and present sums held for steps [0, n).
  void hold_steps(std::size_t n) {
    if (absorbed_.size() >= n) return;
    absorbed_.resize(n, 0.0);
    present_.resize(n, 0.0);
  }

  double tolerance_;
  std::size_t max_steps_;
  double cutoff_;
  std::vector<double> occupancy_;           // the state taken's, by step: [first_, length_) written
  std::size_t first_ = 0, length_ = 0;      // a state reached only after some steps has nothing before them
  std::vector<double> absorbed_, present_;  // by step t: absorbed in step t + 1; still moving at t
};

}  // namespace musket
