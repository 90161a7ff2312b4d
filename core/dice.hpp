#pragma once
// Fair six-sided dice: how many of n dice hit, sums, highest die, single-die targets.
// "Hit on 1-2" is hit_faces = 2 (p = 2/6), "1-3" is 3, "6" is 1, "5-6" is 2.
#include <stdexcept>
#include <vector>

#include "core/pmf.hpp"
#include "core/rational.hpp"

namespace musket {

namespace detail {
template <class P>
P ratio(const big_integer& numerator, const big_integer& denominator) {
  if constexpr (std::is_same_v<P, double>) {
    return numerator.convert_to<double>() / denominator.convert_to<double>();
  } else {
    return P(numerator, denominator);
  }
}
inline big_integer choose(int n, int k) {
  big_integer result = 1;
  for (int i = 1; i <= k; ++i) result = result * (n - k + i) / i;
  return result;
}
}  // namespace detail

// Number of hits among `dice` fair d6 when `hit_faces` of the six faces hit:
// P(j) = C(n, j) h^j (6 - h)^(n - j) / 6^n.
template <class P>
basic_pmf<P> binomial_successes(int dice, int hit_faces) {
  if (dice < 0) throw std::domain_error("binomial_successes: negative dice");
  if (hit_faces < 0 || hit_faces > 6) throw std::domain_error("binomial_successes: faces 0..6");
  if constexpr (std::is_same_v<P, double>) {
    // Direct products in double: exact enough for n <= 99 and free of big-integer work.
    const double p = hit_faces / 6.0;
    const double q = 1.0 - p;
    std::vector<double> masses(static_cast<std::size_t>(dice) + 1);
    double coefficient = 1.0;
    for (int j = 0; j <= dice; ++j) {
      masses[static_cast<std::size_t>(j)] = coefficient * std::pow(p, j) * std::pow(q, dice - j);
      coefficient = coefficient * (dice - j) / (j + 1);
    }
    return basic_pmf<double>(0, std::move(masses));
  } else {
    const big_integer denominator = boost::multiprecision::pow(big_integer(6), static_cast<unsigned>(dice));
    std::vector<P> masses;
    masses.reserve(static_cast<std::size_t>(dice) + 1);
    for (int j = 0; j <= dice; ++j) {
      const big_integer ways = detail::choose(dice, j) *
                               boost::multiprecision::pow(big_integer(hit_faces), static_cast<unsigned>(j)) *
                               boost::multiprecision::pow(big_integer(6 - hit_faces), static_cast<unsigned>(dice - j));
      masses.push_back(detail::ratio<P>(ways, denominator));
    }
    return basic_pmf<P>(0, std::move(masses));
  }
}

// P(one d6 >= target): 1 for target <= 1, 0 for target > 6.
template <class P>
P die_at_least(int target) {
  if (target <= 1) return P(1);
  if (target > 6) return P(0);
  return detail::ratio<P>(7 - target, 6);
}

// Sum of `dice` fair d6.
template <class P>
basic_pmf<P> sum_of_dice(int dice) {
  std::vector<P> faces(6, detail::ratio<P>(1, 6));
  return convolve_power(basic_pmf<P>(1, faces), dice);
}

// Highest of `dice` fair d6: P(max <= v) = (v/6)^n.
template <class P>
basic_pmf<P> highest_of_dice(int dice) {
  if (dice < 1) throw std::domain_error("highest_of_dice needs at least one die");
  const big_integer denominator = boost::multiprecision::pow(big_integer(6), static_cast<unsigned>(dice));
  std::vector<P> masses;
  for (int v = 1; v <= 6; ++v) {
    const big_integer ways = boost::multiprecision::pow(big_integer(v), static_cast<unsigned>(dice)) -
                             boost::multiprecision::pow(big_integer(v - 1), static_cast<unsigned>(dice));
    masses.push_back(detail::ratio<P>(ways, denominator));
  }
  return basic_pmf<P>(1, std::move(masses));
}

}  // namespace musket
