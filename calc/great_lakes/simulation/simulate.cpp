#include <algorithm>
#include <array>
#include <chrono>
#include <cstdint>
#include <span>
#include <vector>

#include "calc/great_lakes/battle.hpp"
#include "calc/great_lakes/outcome.hpp"
#include "calc/great_lakes/rules/round.hpp"
#include "calc/great_lakes/simulation/battle_loop.hpp"
#include "core/monte_carlo.hpp"
#include "core/proportion_interval.hpp"

namespace musket::great_lakes {

using namespace detail;  // outcome.hpp
using round::battle_rules;
using round::battle_state;

battle_result simulate(const battle& b, const simulation_options& options) {
  require_fixed_play(b, "simulation");
  const auto started = std::chrono::steady_clock::now();
  const battle_rules r = round::compile(b);
  const battle_state start = round::initial_state(r);
  const std::size_t n = r.units.size();
  constexpr std::size_t listed_rounds = 200;
  // Tally layout: ends, attacker loss, defender loss, per unit its final SP and status as one of 64
  // buckets (SP | status << 4: one count per battle, the unit's figures summed from them at the end),
  // rounds histogram (1..listed_rounds, then one overflow bucket), total rounds.
  const std::size_t at_ends = 0;
  const std::size_t at_att = at_ends + 7;
  const std::size_t at_def = at_att + static_cast<std::size_t>(r.starting_sp[0]) + 1;
  const std::size_t at_units = at_def + static_cast<std::size_t>(r.starting_sp[1]) + 1;
  constexpr std::size_t unit_buckets = 64;
  static_assert(round::out < 4);  // SP <= 15 (validate) and status < 4 fit 6 bits
  const std::size_t at_rounds = at_units + unit_buckets * n;
  const std::size_t at_total_rounds = at_rounds + listed_rounds + 1;
  const std::size_t size = at_total_rounds + 1;

  const round::round_state tracked_start = round::track(r, start);
  std::vector<std::size_t> owner(n);
  for (std::size_t u = 0; u < n; ++u) owner[u] = static_cast<std::size_t>(r.units[u].owner);
  const simulation_tally tally = run_trials(options, size, [&](random_engine& engine, std::span<std::uint64_t> t) {
    round::round_state now = tracked_start;  // the sums ride along from round to round
    const auto [end, rounds] = play_battle(r, now, engine);
    const battle_state& s = now.s;
    ++t[at_ends + static_cast<std::size_t>(end)];
    std::array<int, 2> left{};
    for (std::size_t u = 0; u < n; ++u) {
      left[owner[u]] += s.sp[u];
      ++t[at_units + unit_buckets * u + (s.sp[u] | static_cast<std::size_t>(s.st[u]) << 4)];
    }
    ++t[at_att + static_cast<std::size_t>(r.starting_sp[0] - left[0])];
    ++t[at_def + static_cast<std::size_t>(r.starting_sp[1] - left[1])];
    if (rounds >= 1) ++t[at_rounds + std::min<std::size_t>(rounds, listed_rounds + 1) - 1];
    t[at_total_rounds] += rounds;
  });

  battle_result out;
  const std::uint64_t trials = tally.trials;
  const double scale = trials ? 1.0 / static_cast<double>(trials) : 0.0;
  auto p = [&](std::size_t at) { return static_cast<double>(tally.counts[at]) * scale; };
  auto ci = [&](std::uint64_t count) {
    if (trials == 0) return interval{0.0, 1.0};  // cancelled before any battle: no information
    const auto w = wilson_interval(count, trials);
    return interval{w.lower, w.upper};
  };
  for (std::size_t e = 0; e < 7; ++e) {
    out.ends[e] = p(at_ends + e);
    out.ends_interval[e] = ci(tally.counts[at_ends + e]);
  }
  fill_outcomes(out);
  const auto& k = tally.counts;
  std::uint64_t wins = 0, holds = 0;
  for (const battle_end e : all_battle_ends) {
    if (attacker_won(e)) wins += k[at_ends + static_cast<std::size_t>(e)];
    if (defender_held(e)) holds += k[at_ends + static_cast<std::size_t>(e)];
  }
  out.outcomes_interval = {ci(wins), ci(holds), ci(k[6])};
  for (std::size_t i = 0; i <= static_cast<std::size_t>(r.starting_sp[0]); ++i) {
    out.attacker_sp_lost.push_back(p(at_att + i));
    out.attacker_sp_lost_interval.push_back(ci(k[at_att + i]));
  }
  for (std::size_t i = 0; i <= static_cast<std::size_t>(r.starting_sp[1]); ++i) {
    out.defender_sp_lost.push_back(p(at_def + i));
    out.defender_sp_lost_interval.push_back(ci(k[at_def + i]));
  }
  out.units = unit_rows(r);
  std::vector<std::uint64_t> survived(n, 0);
  for (std::size_t u = 0; u < n; ++u) {
    std::uint64_t sp = 0, failed = 0;
    for (std::size_t bucket = 0; bucket < unit_buckets; ++bucket) {
      const std::uint64_t count = k[at_units + unit_buckets * u + bucket];
      survived[u] += (bucket & 15) > 0 ? count : 0;
      sp += (bucket & 15) * count;
      failed += (bucket >> 4) == round::failed ? count : 0;
    }
    out.units[u].survives = static_cast<double>(survived[u]) * scale;
    out.units[u].expected_sp = static_cast<double>(sp) * scale;
    out.units[u].fails_morale = static_cast<double>(failed) * scale;
    out.units[u].survives_interval = ci(survived[u]);
    out.units[u].fails_morale_interval = ci(failed);
  }
  if (r.garrison >= 0) {
    const std::uint64_t eliminated = trials - survived[static_cast<std::size_t>(r.garrison)];
    out.garrison_eliminated = static_cast<double>(eliminated) * scale;
    out.garrison_eliminated_interval = ci(eliminated);
  }
  std::size_t last = 0;
  for (std::size_t i = 0; i < listed_rounds; ++i)
    if (k[at_rounds + i]) last = i + 1;
  for (std::size_t i = 0; i < last; ++i) {
    out.rounds_distribution.push_back(p(at_rounds + i));
    out.rounds_interval.push_back(ci(k[at_rounds + i]));
  }
  out.rounds_tail = p(at_rounds + listed_rounds);
  out.rounds_mean = static_cast<double>(k[at_total_rounds]) * scale;
  out.method.name = "simulation";
  out.method.trials = trials;
  out.method.cancelled = tally.cancelled;
  out.method.seed = options.seed;
  out.method.rounds_simulated = k[at_total_rounds];
  out.method.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return out;
}

}  // namespace musket::great_lakes
