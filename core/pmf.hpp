#pragma once
// A probability mass function over a small range of integers (units lost, hits, track shifts),
// in the manner of Boost.Math's distributions: a value type plus free functions. Probability is
// `rational` for exact answers or `double` for fast sweeps; `to_double` turns one into the other.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <stdexcept>
#include <vector>

#include "core/rational.hpp"

namespace musket {

template <class Probability>
class basic_pmf {
 public:
  using probability_type = Probability;

  // The certain value 0.
  basic_pmf() : lowest_(0), masses_{Probability(1)} {}
  basic_pmf(int lowest, std::vector<Probability> masses) : lowest_(lowest), masses_(std::move(masses)) {}

  static basic_pmf certain(int value) { return basic_pmf(value, {Probability(1)}); }
  // An empty accumulator: no mass anywhere yet (fill it with add_mass).
  static basic_pmf empty() {
    basic_pmf result;
    result.masses_.clear();
    return result;
  }

  int lowest() const { return lowest_; }
  int highest() const { return lowest_ + static_cast<int>(masses_.size()) - 1; }
  bool is_empty() const { return masses_.empty(); }
  const std::vector<Probability>& masses() const { return masses_; }

  // P(X = value); zero outside the support.
  Probability operator[](int value) const {
    if (masses_.empty() || value < lowest_ || value > highest()) return Probability(0);
    return masses_[static_cast<std::size_t>(value - lowest_)];
  }

  // Adds `mass` at `value`, widening the range as needed.
  void add_mass(int value, const Probability& mass) {
    if (masses_.empty()) {
      lowest_ = value;
      masses_.assign(1, mass);
      return;
    }
    if (value < lowest_) {
      masses_.insert(masses_.begin(), static_cast<std::size_t>(lowest_ - value), Probability(0));
      lowest_ = value;
    } else if (value > highest()) {
      masses_.resize(static_cast<std::size_t>(value - lowest_ + 1), Probability(0));
    }
    masses_[static_cast<std::size_t>(value - lowest_)] += mass;
  }

  // Widens the stored range to [lowest, highest] with zeros (for arrays indexed from 0..max).
  void cover(int lowest, int highest) {
    if (masses_.empty()) {
      lowest_ = lowest;
      masses_.assign(static_cast<std::size_t>(highest - lowest + 1), Probability(0));
      return;
    }
    if (lowest < lowest_) add_mass(lowest, Probability(0));
    if (highest > this->highest()) add_mass(highest, Probability(0));
  }

 private:
  int lowest_;
  std::vector<Probability> masses_;
};

using pmf = basic_pmf<rational>;
using pmf_double = basic_pmf<double>;

template <class P>
P total_mass(const basic_pmf<P>& d) {
  P sum(0);
  for (const auto& m : d.masses()) sum += m;
  return sum;
}

template <class P>
P mean(const basic_pmf<P>& d) {
  P sum(0);
  for (int v = d.lowest(); v <= d.highest(); ++v) sum += d[v] * P(v);
  return sum;
}

template <class P>
P variance(const basic_pmf<P>& d) {
  const P mu = mean(d);
  P sum(0);
  for (int v = d.lowest(); v <= d.highest(); ++v) sum += d[v] * (P(v) - mu) * (P(v) - mu);
  return sum;
}

template <class P>
double standard_deviation(const basic_pmf<P>& d) {
  return std::sqrt(to_double(variance(d)));
}

// P(X <= value)
template <class P>
P cdf(const basic_pmf<P>& d, int value) {
  P sum(0);
  for (int v = d.lowest(); v <= std::min(value, d.highest()); ++v) sum += d[v];
  return sum;
}

// P(X >= value)
template <class P>
P at_least(const basic_pmf<P>& d, int value) {
  P sum(0);
  for (int v = std::max(value, d.lowest()); v <= d.highest(); ++v) sum += d[v];
  return sum;
}

// The smallest value v with P(X <= v) >= q, for 0 < q <= 1.
template <class P>
int quantile(const basic_pmf<P>& d, double q) {
  if (!(q > 0.0 && q <= 1.0)) throw std::domain_error("quantile needs 0 < q <= 1");
  double running = 0.0;
  for (int v = d.lowest(); v <= d.highest(); ++v) {
    running += to_double(d[v]);
    if (running >= q - 1e-12) return v;
  }
  return d.highest();
}

// The distribution of X + Y for independent X and Y.
template <class P>
basic_pmf<P> convolve(const basic_pmf<P>& a, const basic_pmf<P>& b) {
  if (a.is_empty() || b.is_empty()) return basic_pmf<P>::empty();
  std::vector<P> out(a.masses().size() + b.masses().size() - 1, P(0));
  for (std::size_t i = 0; i < a.masses().size(); ++i)
    for (std::size_t j = 0; j < b.masses().size(); ++j) out[i + j] += a.masses()[i] * b.masses()[j];
  return basic_pmf<P>(a.lowest() + b.lowest(), std::move(out));
}

// Sum of `count` independent copies of d.
template <class P>
basic_pmf<P> convolve_power(const basic_pmf<P>& d, int count) {
  basic_pmf<P> result = basic_pmf<P>::certain(0);
  for (int i = 0; i < count; ++i) result = convolve(result, d);
  return result;
}

// accumulator += weight * d  (a mixture built one component at a time)
template <class P>
void add_scaled(basic_pmf<P>& accumulator, const basic_pmf<P>& d, const P& weight) {
  for (int v = d.lowest(); v <= d.highest(); ++v) {
    if (d[v] != P(0)) accumulator.add_mass(v, d[v] * weight);
  }
}

// The distribution of f(X).
template <class P, class Function>
basic_pmf<P> transform(const basic_pmf<P>& d, Function f) {
  auto result = basic_pmf<P>::empty();
  for (int v = d.lowest(); v <= d.highest(); ++v) result.add_mass(f(v), d[v]);
  return result;
}

inline pmf_double to_double(const pmf& d) {
  std::vector<double> out;
  out.reserve(d.masses().size());
  for (const auto& m : d.masses()) out.push_back(to_double(m));
  return pmf_double(d.lowest(), std::move(out));
}
inline const pmf_double& to_double(const pmf_double& d) {
  return d;
}

}  // namespace musket
