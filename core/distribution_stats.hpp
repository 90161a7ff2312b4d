#pragma once
// The statistics printed beside every distribution a command reports: mean, standard deviation,
// median and the 5% / 95% quantiles, the smallest and largest possible values, and the
// cumulative views "at least v" and "at most v". A value type plus one free function over
// core/pmf; exact (rational) where the pmf carries fractions, double where it carries estimates.
//
// Some reported distributions are joint with an event and so hold less than the whole mass (a
// campaign step's attempts, over the runs that reached the step). Their at_least / at_most are
// sums of the listed masses, so they read beside the pmf's own rows; the mean, spread and
// quantiles are those of the value given the event (the masses divided by their total).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <stdexcept>
#include <type_traits>
#include <vector>

#include "core/pmf.hpp"

namespace musket {

template <class Probability>
struct basic_distribution_stats {
  Probability mass{};      // the total of the masses (1 for a whole distribution)
  Probability mean{};      // E[X]
  Probability variance{};  // Var[X]
  int median = 0;          // lower quantiles: the smallest v with P(X <= v) >= q
  int p05 = 0;
  int p95 = 0;
  int min = 0;  // the smallest value with positive probability
  int max = 0;  // the largest value with positive probability
  // For each value from the pmf's lowest() to its highest(): P(X >= v) and P(X <= v).
  int lowest = 0;
  std::vector<Probability> at_least;
  std::vector<Probability> at_most;
};

using distribution_stats = basic_distribution_stats<rational>;
using distribution_stats_double = basic_distribution_stats<double>;

template <class P>
double standard_deviation(const basic_distribution_stats<P>& s) {
  return std::sqrt(std::max(0.0, to_double(s.variance)));
}

namespace detail {
// running / mass >= num / den, exactly for fractions, with a rounding allowance for estimates.
inline bool reaches(const rational& running, const rational& mass, int num, int den) {
  return running * den >= mass * num;
}
inline bool reaches(double running, double mass, int num, int den) {
  return running * den >= mass * num - 1e-12 * den;
}
}  // namespace detail

// The statistics of d; throws std::domain_error when d has no positive mass (nothing to describe).
template <class P>
basic_distribution_stats<P> describe(const basic_pmf<P>& d);

namespace detail {

// A whole number of up to 127 bits as a big integer.
inline big_integer big_of(__int128 v) {
  const bool negative = v < 0;
  const unsigned __int128 m =
      negative ? static_cast<unsigned __int128>(-(v + 1)) + 1 : static_cast<unsigned __int128>(v);
  big_integer out(static_cast<std::uint64_t>(m >> 64));
  out <<= 64;
  out += static_cast<std::uint64_t>(m);
  return negative ? big_integer(-out) : out;
}

// The fraction num / den in lowest terms (den > 0), reduced in machine words: the rational's own
// normalisation then finds a gcd of 1 at once.
inline rational reduced(std::int64_t num, std::int64_t den) {
  if (num == 0) return rational(0);  // whole numbers need no normalisation
  if (num == den) return rational(1);
  const std::int64_t g = std::gcd(num, den);
  return g > 1 ? rational(num / g, den / g) : rational(num, den);
}

// The statistics in machine words: every mass over the common denominator as a 62-bit whole
// number, sums in 128 bits. False (nothing written) when a denominator or weight does not fit.
inline bool describe_in_words(const pmf& d, distribution_stats& s) {
  constexpr std::int64_t limit = std::int64_t{1} << 62;
  const std::size_t n = d.masses().size();
  std::int64_t common = 1;
  for (const auto& m : d.masses()) {
    const auto& den = denominator(m);
    if (den > limit) return false;
    const auto v = den.convert_to<std::int64_t>();
    const __int128 l = static_cast<__int128>(common / std::gcd(common, v)) * v;
    if (l > limit) return false;
    common = static_cast<std::int64_t>(l);
  }
  std::vector<std::int64_t> weight(n);
  __int128 total = 0, first = 0, second = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const auto& num = numerator(d.masses()[i]);
    if (num < 0) throw std::domain_error("a negative probability");
    if (num > limit) return false;
    const __int128 w = static_cast<__int128>(num.convert_to<std::int64_t>()) *
                       (common / denominator(d.masses()[i]).convert_to<std::int64_t>());
    if (w > limit) return false;
    weight[i] = static_cast<std::int64_t>(w);
    const __int128 v = d.lowest() + static_cast<long long>(i);
    total += w;
    first += w * v;
    second += w * v * v;
  }
  if (n == 0 || total == 0) throw std::domain_error("a distribution without mass has no statistics");
  if (total > limit) return false;
  const auto whole = static_cast<std::int64_t>(total);
  s.mass = reduced(whole, common);
  s.mean = first >= -limit && first <= limit ? reduced(static_cast<std::int64_t>(first), whole)
                                             : rational(big_of(first), big_of(total));
  s.variance = rational(big_of(second) * big_of(total) - big_of(first) * big_of(first), big_of(total) * big_of(total));
  s.lowest = d.lowest();
  s.at_most.resize(n);
  s.at_least.resize(n);
  std::int64_t running = 0;
  s.min = d.highest();
  s.max = d.lowest();
  for (std::size_t i = 0; i < n; ++i) {
    s.at_least[i] = reduced(whole - running, common);
    running += weight[i];
    s.at_most[i] = reduced(running, common);
    if (weight[i] > 0) {
      s.min = std::min(s.min, d.lowest() + static_cast<int>(i));
      s.max = d.lowest() + static_cast<int>(i);
    }
  }
  auto lower_quantile = [&](int num, int den) {
    std::int64_t cumulative = 0;
    for (std::size_t i = 0; i < n; ++i) {
      cumulative += weight[i];
      if (weight[i] > 0 && static_cast<__int128>(cumulative) * den >= total * num)
        return d.lowest() + static_cast<int>(i);
    }
    return s.max;
  };
  s.median = lower_quantile(1, 2);
  s.p05 = lower_quantile(1, 20);
  s.p95 = lower_quantile(19, 20);
  return true;
}

}  // namespace detail

// Exact: every mass is put over the masses' common denominator first, so the sums are sums of
// whole numbers and each result is normalised once (a fraction sum per step costs a gcd each, and
// made the statistics cost several times the battle they describe). Where the common denominator
// fits a machine word (a battle's laws over powers of 6), the sums are machine arithmetic.
template <>
inline distribution_stats describe(const pmf& d) {
  distribution_stats s;
  if (detail::describe_in_words(d, s)) return s;
  const std::size_t n = d.masses().size();
  big_integer common(1);
  for (const auto& m : d.masses()) common = boost::multiprecision::lcm(common, denominator(m));
  std::vector<big_integer> weight(n);
  big_integer total(0), first(0), second(0);
  for (std::size_t i = 0; i < n; ++i) {
    const rational& m = d.masses()[i];
    if (m < 0) throw std::domain_error("a negative probability");
    weight[i] = numerator(m) * (common / denominator(m));
    const long long v = d.lowest() + static_cast<long long>(i);
    total += weight[i];
    first += weight[i] * v;
    second += weight[i] * (v * v);
  }
  if (n == 0 || total == 0) throw std::domain_error("a distribution without mass has no statistics");
  s.mass = rational(total, common);
  s.mean = rational(first, total);
  s.variance = rational(second * total - first * first, total * total);
  s.lowest = d.lowest();
  s.at_most.resize(n);
  s.at_least.resize(n);
  std::vector<big_integer> at_most(n);
  big_integer running(0);
  for (std::size_t i = 0; i < n; ++i) at_most[i] = running += weight[i];
  for (std::size_t i = 0; i < n; ++i) {
    s.at_most[i] = rational(at_most[i], common);
    s.at_least[i] = rational(total - (i == 0 ? big_integer(0) : at_most[i - 1]), common);
  }
  s.min = d.highest();
  s.max = d.lowest();
  for (std::size_t i = n; i-- > 0;)
    if (weight[i] > 0) s.min = d.lowest() + static_cast<int>(i);
  for (std::size_t i = 0; i < n; ++i)
    if (weight[i] > 0) s.max = d.lowest() + static_cast<int>(i);
  auto lower_quantile = [&](int num, int den) {
    for (std::size_t i = 0; i < n; ++i)
      if (weight[i] > 0 && at_most[i] * den >= total * num) return d.lowest() + static_cast<int>(i);
    return s.max;
  };
  s.median = lower_quantile(1, 2);
  s.p05 = lower_quantile(1, 20);
  s.p95 = lower_quantile(19, 20);
  return s;
}

template <class P>
basic_distribution_stats<P> describe(const basic_pmf<P>& d) {
  basic_distribution_stats<P> s;
  const P zero(0);
  s.mass = total_mass(d);
  if (d.is_empty() || !(s.mass > zero)) throw std::domain_error("a distribution without mass has no statistics");
  s.lowest = d.lowest();
  const std::size_t n = d.masses().size();
  s.at_most.assign(n, zero);
  s.at_least.assign(n, zero);
  P running = zero;
  for (std::size_t i = 0; i < n; ++i) s.at_most[i] = running += d.masses()[i];
  running = zero;
  for (std::size_t i = n; i-- > 0;) s.at_least[i] = running += d.masses()[i];
  // Summed doubles can pass 1 by a few ulps (a law whose masses add to 1 + 4e-16); a cumulative
  // probability is at most 1, so such rounding is taken off (never a real excess: 1e-9 at most).
  // They can fall short of it as well (0.1 + 0.2 + 0.7 summed from the top is 1 - 1.1e-16): in a
  // whole law (its mass 1 within that rounding) the lowest value is reached for certain, so P(X >=
  // lowest) is 1, not a sum that reads ">99.9999%" beside another law's "100%".
  if constexpr (std::is_floating_point_v<P>) {
    const P one(1);
    if (s.mass <= one + P(1e-9))
      for (auto* cumulative : {&s.at_most, &s.at_least})
        for (P& v : *cumulative) v = std::min(v, one);
    if (s.mass >= one - P(1e-9)) s.at_least.front() = one;
  }

  P first_moment = zero;
  for (int v = d.lowest(); v <= d.highest(); ++v) first_moment += d[v] * P(v);
  s.mean = first_moment / s.mass;
  P second = zero;
  for (int v = d.lowest(); v <= d.highest(); ++v) second += d[v] * (P(v) - s.mean) * (P(v) - s.mean);
  s.variance = second / s.mass;

  s.min = d.highest();
  s.max = d.lowest();
  for (int v = d.highest(); v >= d.lowest(); --v)
    if (d[v] > zero) s.min = v;
  for (int v = d.lowest(); v <= d.highest(); ++v)
    if (d[v] > zero) s.max = v;
  auto lower_quantile = [&](int num, int den) {
    for (std::size_t i = 0; i < n; ++i)
      if (d.masses()[i] > zero && detail::reaches(s.at_most[i], s.mass, num, den))
        return d.lowest() + static_cast<int>(i);
    return s.max;
  };
  s.median = lower_quantile(1, 2);
  s.p05 = lower_quantile(1, 20);
  s.p95 = lower_quantile(19, 20);
  return s;
}

}  // namespace musket
