#pragma once
// The one simulation battle loop: a Great Lakes battle played round after round (rules/round.hpp's
// public API, GL 11-13), every die rolled, until it ends. `simulate` (simulation/simulate.cpp) tallies many of
// them; the campaign (calc/campaign/great_lakes_campaign.cpp) plays one per battle step and carries
// the survivors on. There is no cap on rounds: a battle ends with probability 1, since a position
// where neither side can hit is a stalemate at once (round::is_stalemate) and from any other some
// side scores a hit with a chance bounded away from 0.
#include <algorithm>
#include <cassert>
#include <cstdint>
#include <type_traits>

#include "calc/great_lakes/rules/round.hpp"
#include "core/binomial_table.hpp"
#include "core/monte_carlo.hpp"

namespace musket::great_lakes {

// rules/round.hpp's Chooser that rolls: one outcome per choice, drawn from the binomial tables
// (exact_parts.hpp; round::compile builds every row a battle reads) with one 32-bit draw each.
struct sampling_chooser {
  static constexpr bool one_outcome = true;  // f called once per choice: the round changes its state in place
  const binomial_tables& t = shared_binomial_tables();
  random_engine* engine = nullptr;
  template <class F>
  void binomial(int n, int faces, F&& f) {
    if (n == 0 || faces == 0) return f(0);
    assert(n <= t.built());  // (round::compile's ensure)
    const auto& sm = t.flat[static_cast<std::size_t>(faces * (max_table_dice + 1) + n)];
    const std::uint32_t x = (*engine)();
    std::size_t k = sm.start[x >> 24];
    k += x >= sm.at_least[k];         // the usual last step, taken without a branch to mispredict
    while (x >= sm.at_least[k]) ++k;  // seldom: a bucket holding more than one outcome's edge
    f(static_cast<int>(k));
  }
  template <class F>
  void binomial_capped(int n, int faces, int cap, F&& f) {
    binomial(n, faces, [&](int k) { f(std::min(k, cap)); });
  }
  template <class F>
  void choose3(double p0, double p1, double, F&& f) {
    const double u = static_cast<double>((*engine)()) * (1.0 / 4294967296.0);
    f(u < p0 ? 0 : (u < p0 + p1 ? 1 : 2));
  }
};

struct played_battle {
  battle_end end = battle_end::none;  // never none on return
  std::uint64_t rounds = 0;           // rounds played (0: it started stalemated)
};

// Plays one battle to its end with dice from `engine`. `now` holds the start on entry (round::track
// of round::initial_state, or any position of the battle) and the final position on return:
// per-unit SP and status in now.s, as rules/round.hpp lists them.
inline played_battle play_battle(const round::battle_rules& r, round::round_state& now, random_engine& engine) {
  sampling_chooser c;
  c.engine = &engine;
  played_battle out;
  if (round::is_stalemate(r, now.sum)) {
    out.end = battle_end::stalemate;
    return out;
  }
  auto emit = [&](const auto& u, battle_end e) {
    if constexpr (std::is_same_v<std::decay_t<decltype(u)>, round::battle_state>) {
      if (&u != &now.s) now.s = u;  // a retreat's end (in place too: see round::change)
    } else if (&u != &now)
      now = u;  // (a round changes `now` in place)
    out.end = e;
  };
  while (out.end == battle_end::none) {
    round::play_tracked_round(r, now, c, emit);
    ++out.rounds;
  }
  return out;
}

}  // namespace musket::great_lakes
