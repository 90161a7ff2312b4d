#pragma once
// The plain exact chain of a Great Lakes battle over full states (no folding): every state's
// round played by `play`, the chain solved, and the finished battles reported. Shared by the fixed
// policies' plain engine (battle.cpp, solve_unfolded) and the solved game (optimal_play.cpp), whose
// rounds differ only in who makes the players' choices.
//
//   play(state, weight, emit)   plays one round from `state`, calling emit(t, end, w) for each
//                               outcome (end == battle_end::none: the battle goes on from t) with
//                               w its probability times `weight`
#include <chrono>
#include <vector>

#include "calc/great_lakes/exact_parts.hpp"
#include "core/markov_chain.hpp"

namespace musket::great_lakes::detail {

// At most this many finished battles are kept from the first pass (below): 6 MB.
inline constexpr std::size_t kept_finished_battles = std::size_t{1} << 17;

// `keep_finished`: a power of two (the list's capacity never passes it), or 0 to replay every state.
template <class Play>
battle_result solve_unfolded_chain(const battle_rules& r, const exact_options& options, Play&& play,
                                   std::size_t keep_finished = kept_finished_battles) {
  const auto started = std::chrono::steady_clock::now();
  const battle_state start = round::initial_state(r);
  const outcome_layout layout(r);
  // Finished battles are not chain states. The first pass builds the chain of battles still going
  // and each state's chance of ending in a round; the solve gives the expected rounds spent in
  // each state; then what each state's round ends in is added, weighted by those expected rounds.
  // Everything reported is linear in the finished battles, so this is exact. The first pass keeps
  // each state's finished battles (key and probability) while they fit `keep_finished`; the
  // states played after it ran out are played again after the solve. (Keeping them spares a
  // small battle its second pass: the 8 v 8 blocks' 64 states, a quarter of the solve.)
  std::vector<double> exit_probability;  // per transient state: P(the battle ends this round)
  struct finished_battle {
    state_key key;
    double p;
  };
  std::vector<finished_battle> finished;
  std::vector<std::uint32_t> finished_from;  // per state kept: its first in `finished`; then the end
  bool keeping = keep_finished > 0;
  absorbing_chain<state_key, state_key_hash> chain;
  std::vector<double> totals(layout.size, 0.0);
  double expected_rounds = 0.0;
  std::size_t memory_bytes = 0;
  if (round::is_stalemate(r, start)) {
    add_terminal(r, layout, totals.data(), start, battle_end::stalemate, 1.0);
  } else {
    chain.build(
        encode(r, start, battle_end::none), false,
        [&](const state_key& key, std::uint32_t index, auto&& add) {
          throw_if_cancelled(options);
          // The chain's memory so far (its states and every transition), checked once per state.
          memory_bytes = std::max(memory_bytes, chain.bytes() + exit_probability.capacity() * sizeof(double) +
                                                    finished.capacity() * sizeof(finished_battle) +
                                                    finished_from.capacity() * sizeof(std::uint32_t));
          if (options.memory_limit > 0 && memory_bytes > options.memory_limit)
            throw memory_limit_exceeded(options.memory_limit, memory_bytes, chain.state_count());
          battle_end ignored;
          const battle_state s = decode(r, key, ignored);
          exit_probability.resize(static_cast<std::size_t>(index) + 1, 0.0);
          const std::size_t from = finished.size();
          play(s, 1.0, [&](const battle_state& t, battle_end end, double w) {
            if (end == battle_end::none) {
              add(encode(r, t, end), w, false);
            } else {
              exit_probability[index] += w;
              if (keeping && finished.size() == keep_finished) {
                keeping = false;  // this state and every later one: played again
                finished.resize(from);
              }
              if (keeping) finished.push_back({encode(r, t, end), w});
            }
          });
          if (keeping) finished_from.push_back(static_cast<std::uint32_t>(from));
        },
        options.state_limit);
    finished_from.push_back(static_cast<std::uint32_t>(finished.size()));
    const auto solution = chain.solve();
    for (std::size_t i = 0; i < chain.state_count(); ++i) {
      const double visits = solution.visits[i];
      if (visits == 0.0 || exit_probability[i] == 0.0) continue;
      battle_end ignored;
      if (i + 1 < finished_from.size()) {  // kept
        for (std::uint32_t k = finished_from[i]; k < finished_from[i + 1]; ++k) {
          battle_end end;
          const battle_state t = decode(r, finished[k].key, end);
          add_terminal(r, layout, totals.data(), t, end, visits * finished[k].p);
        }
        continue;
      }
      const battle_state s = decode(r, chain.key(i), ignored);
      play(s, visits, [&](const battle_state& t, battle_end end, double w) {
        if (end != battle_end::none) add_terminal(r, layout, totals.data(), t, end, w);
      });
    }
    expected_rounds = solution.expected_steps;
  }

  battle_result out;
  out.units = unit_rows(r);
  for (std::size_t e = 0; e < 7; ++e) out.ends[e] = totals[layout.ends + e];
  out.attacker_sp_lost.assign(totals.begin() + static_cast<std::ptrdiff_t>(layout.attacker_lost),
                              totals.begin() + static_cast<std::ptrdiff_t>(layout.defender_lost));
  out.defender_sp_lost.assign(totals.begin() + static_cast<std::ptrdiff_t>(layout.defender_lost),
                              totals.begin() + static_cast<std::ptrdiff_t>(layout.units));
  for (std::size_t u = 0; u < r.units.size(); ++u) {
    out.units[u].survives = totals[layout.units + 3 * u];
    out.units[u].expected_sp = totals[layout.units + 3 * u + 1];
    out.units[u].fails_morale = totals[layout.units + 3 * u + 2];
  }
  if (r.garrison >= 0) out.garrison_eliminated = totals[layout.garrison];
  fill_outcomes(out);
  clamp_probabilities(out);
  out.rounds_mean = expected_rounds;
  if (chain.state_count() > 0)
    out.rounds_distribution = chain.step_distribution(options.rounds_tolerance, options.max_listed_rounds,
                                                      out.rounds_tail, &exit_probability);
  for (auto& p : out.rounds_distribution) p = unit_interval(p);
  out.method.name = "exact";
  out.method.states = chain.state_count();
  out.method.transitions = chain.transition_count();
  out.method.memory_bytes = memory_bytes;
  out.method.pruned_mass = 0.0;
  out.method.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return out;
}

}  // namespace musket::great_lakes::detail
