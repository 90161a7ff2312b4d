#pragma once
// Draws without replacement from a cup (NT 9.0 reinforcement markers, SS 13.2 irregulars).
#include <stdexcept>
#include <utility>
#include <vector>

#include "core/dice.hpp"
#include "core/pmf.hpp"

namespace musket {

// How many of the `marked` chits in a cup of `cup_size` come out in `draws` draws:
// P(k) = C(marked, k) C(cup_size - marked, draws - k) / C(cup_size, draws).
template <class P>
basic_pmf<P> hypergeometric_draws(int cup_size, int marked, int draws) {
  if (cup_size < 0 || marked < 0 || marked > cup_size || draws < 0 || draws > cup_size)
    throw std::domain_error("hypergeometric_draws: need 0 <= marked, draws <= cup_size");
  const big_integer all = detail::choose(cup_size, draws);
  std::vector<P> masses;
  for (int k = 0; k <= draws; ++k) {
    if (k > marked || draws - k > cup_size - marked) {
      masses.push_back(P(0));
      continue;
    }
    masses.push_back(detail::ratio<P>(detail::choose(marked, k) * detail::choose(cup_size - marked, draws - k), all));
  }
  return basic_pmf<P>(0, std::move(masses));
}

// Every way the counts of each kind of chit can come out of `draws` draws from a cup holding
// `counts[i]` chits of kind i (multivariate hypergeometric), with its probability.
template <class P>
std::vector<std::pair<std::vector<int>, P>> multivariate_draws(const std::vector<int>& counts, int draws) {
  int cup_size = 0;
  for (int c : counts) {
    if (c < 0) throw std::domain_error("multivariate_draws: negative count");
    cup_size += c;
  }
  if (draws < 0 || draws > cup_size) throw std::domain_error("multivariate_draws: draws > cup size");
  const big_integer all = detail::choose(cup_size, draws);
  std::vector<std::pair<std::vector<int>, P>> outcomes;
  std::vector<int> drawn(counts.size(), 0);
  // Depth-first over kinds; each leaf is one count vector summing to `draws`.
  auto recurse = [&](auto&& self, std::size_t kind, int left, big_integer ways) -> void {
    if (kind + 1 == counts.size() || counts.empty()) {
      if (counts.empty()) return;
      if (left > counts[kind]) return;
      drawn[kind] = left;
      outcomes.emplace_back(drawn, detail::ratio<P>(ways * detail::choose(counts[kind], left), all));
      return;
    }
    for (int k = 0; k <= std::min(left, counts[kind]); ++k) {
      drawn[kind] = k;
      self(self, kind + 1, left - k, ways * detail::choose(counts[kind], k));
    }
  };
  recurse(recurse, 0, draws, big_integer(1));
  return outcomes;
}

}  // namespace musket
