#pragma once
// The plain exact chain of a Great Lakes battle over full states (no folding): every state's
// round played by `play`, the chain solved, and the finished battles reported. Shared by the fixed
// policies' plain engine (battle.cpp, solve_unfolded) and the solved game (optimal_play.cpp), whose
// rounds differ only in who makes the players' choices.
//
//   play(state, weight, emit)   plays one round from `state`, calling emit(t, end, w) for each
//                               outcome (end == battle_end::none: the battle goes on from t) with
//                               w its probability times `weight`
#include <algorithm>
#include <chrono>
#include <vector>

#include "calc/great_lakes/exact_parts.hpp"
#include "core/markov_chain.hpp"

namespace musket::great_lakes::detail {

// The first pass keeps each state's finished battles summed into a row (outcome_layout) while the
// rows fit in this many bytes: 6 MB.
inline constexpr std::size_t kept_rows_bytes = std::size_t{6} << 20;
inline constexpr std::size_t rows_by_bytes = static_cast<std::size_t>(-1);

// `keep_rows`: the most states whose rows are kept (0: every state played again); by default as
// many as fit kept_rows_bytes.
template <class Play>
battle_result solve_unfolded_chain(const battle_rules& r, const exact_options& options, Play&& play,
                                   std::size_t keep_rows = rows_by_bytes) {
  const auto started = std::chrono::steady_clock::now();
  const battle_state start = round::initial_state(r);
  const outcome_layout layout(r);
  if (keep_rows == rows_by_bytes) keep_rows = kept_rows_bytes / (layout.size * sizeof(double));
  // Finished battles are not chain states. The first pass builds the chain of battles still going
  // and each state's chance of ending in a round; the solve gives the expected rounds spent in
  // each state; then what each state's round ends in is added, weighted by those expected rounds.
  // Everything reported is linear in the finished battles, so this is exact. The first pass sums
  // each state's finished battles into its row, what the state's round ends in (a state's round
  // ends in dozens of finished battles, its row is a few dozen numbers), while the rows fit
  // `keep_rows`; the states played after they ran out are played again after the solve.
  std::vector<double> exit_probability;  // per transient state: P(the battle ends this round)
  std::vector<std::uint32_t> row_of;     // per transient state: 1 + its row, or 0 (no finished battle, or not kept)
  // The kept rows, layout.size numbers each, in chunks of about 32 kB: they grow without copying,
  // and a chunk that small comes from the heap (a vector of them past 128 kB would be mapped and
  // unmapped by the allocator at every solve, its pages faulted in again: the 12 v 12 blocks' solve
  // spent a quarter of its time so).
  const std::size_t rows_per_chunk = std::max<std::size_t>(1, (std::size_t{32} << 10) / (layout.size * sizeof(double)));
  std::vector<std::vector<double>> row_chunks;
  std::size_t rows_kept = 0;
  auto row_at = [&](std::size_t row) {
    return row_chunks[row / rows_per_chunk].data() + row % rows_per_chunk * layout.size;
  };
  bool keeping = keep_rows > 0;
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
                                                    row_chunks.size() * rows_per_chunk * layout.size * sizeof(double) +
                                                    row_of.capacity() * sizeof(std::uint32_t));
          if (options.memory_limit > 0 && memory_bytes > options.memory_limit)
            throw memory_limit_exceeded(options.memory_limit, memory_bytes, chain.state_count());
          battle_end ignored;
          const battle_state s = decode(r, key, ignored);
          exit_probability.resize(static_cast<std::size_t>(index) + 1, 0.0);
          row_of.resize(static_cast<std::size_t>(index) + 1, 0);
          double* row = nullptr;  // this state's row, once it has one
          play(s, 1.0, [&](const battle_state& t, battle_end end, double w) {
            if (end == battle_end::none) {
              add(encode(r, t, end), w, false);
              return;
            }
            exit_probability[index] += w;
            if (!row && keeping) {
              if (rows_kept == keep_rows) {
                keeping = false;  // this state and every later one: played again
              } else {
                // (A chunk is held whole and zeroed a row at a time, as rows are taken.)
                if (rows_kept % rows_per_chunk == 0) row_chunks.emplace_back().reserve(rows_per_chunk * layout.size);
                row_chunks.back().resize(row_chunks.back().size() + layout.size, 0.0);
                row = row_at(rows_kept);
                row_of[index] = static_cast<std::uint32_t>(++rows_kept);
              }
            }
            if (row) add_terminal(r, layout, row, t, end, w);
          });
        },
        options.state_limit);
    const auto solution = chain.solve();
    for (std::size_t i = 0; i < chain.state_count(); ++i) {
      const double visits = solution.visits[i];
      if (visits == 0.0 || exit_probability[i] == 0.0) continue;
      if (row_of[i] != 0) {  // kept
        const double* row = row_at(row_of[i] - 1);
        for (std::size_t e = 0; e < layout.size; ++e) totals[e] += visits * row[e];
        continue;
      }
      battle_end ignored;
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
