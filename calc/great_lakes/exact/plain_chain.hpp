#pragma once
// The plain exact chain of a Great Lakes battle over full states (no folding): every state's
// round played by `play`, the chain solved, and the finished battles reported: the fixed policies'
// plain engine (exact/solve_exact.cpp, solve_unfolded).
//
//   play(state, weight, emit)   plays one round from `state`, calling emit(t, end, w) for each
//                               outcome (end == battle_end::none: the battle goes on from t) with
//                               w its probability times `weight`; it may hand a retreat over
//                               instead of resolving it, emit.retreat(t, side, forced, w)
//                               (round::play_round_until_retreat's), for the chain to resolve
#include <algorithm>
#include <chrono>
#include <unordered_map>
#include <vector>

#include "calc/great_lakes/exact/exact_chooser.hpp"
#include "calc/great_lakes/outcome.hpp"
#include "core/markov_chain.hpp"

namespace musket::great_lakes::detail {

// The first pass keeps each state's finished battles summed into a row (outcome_layout) while the
// rows fit in this many bytes: 6 MB; and the same for each retreat's.
inline constexpr std::size_t kept_rows_bytes = std::size_t{6} << 20;
inline constexpr std::size_t rows_by_bytes = static_cast<std::size_t>(-1);

// Rows of an outcome_layout, numbered from 0 as taken, each zeroed when taken, in chunks of about
// 32 kB: they grow without copying, and a chunk that small comes from the heap (one vector past
// 128 kB would be mapped and unmapped by the allocator at every solve, its pages faulted in again:
// the 12 v 12 blocks' solve spent a quarter of its time so).
class outcome_rows {
 public:
  outcome_rows(std::size_t row_size, std::size_t most)
      : size_(row_size),
        per_chunk_(std::max<std::size_t>(1, (std::size_t{32} << 10) / (row_size * sizeof(double)))),
        most_(most) {}
  bool full() const { return count_ == most_; }
  // A new row (not full()): its number.
  std::size_t take() {
    // (A chunk is held whole and zeroed a row at a time.)
    if (count_ % per_chunk_ == 0) chunks_.emplace_back().reserve(per_chunk_ * size_);
    chunks_.back().resize(chunks_.back().size() + size_, 0.0);
    return count_++;
  }
  double* at(std::size_t row) { return chunks_[row / per_chunk_].data() + row % per_chunk_ * size_; }
  const double* at(std::size_t row) const { return chunks_[row / per_chunk_].data() + row % per_chunk_ * size_; }
  std::size_t bytes() const { return chunks_.size() * per_chunk_ * size_ * sizeof(double); }

 private:
  std::size_t size_, per_chunk_, most_, count_ = 0;
  std::vector<std::vector<double>> chunks_;
};

// What a state's round ends in, as `play` reports it (above): a battle going on or finished, or a
// retreat handed over.
template <class Outcome, class Retreat>
struct round_outcomes {
  Outcome outcome;
  Retreat retreat_of;
  void operator()(const battle_state& t, battle_end end, double w) { outcome(t, end, w); }
  void retreat(const battle_state& t, int side, bool forced, double w) { retreat_of(t, side, forced, w); }
};
template <class Outcome, class Retreat>
round_outcomes(Outcome, Retreat) -> round_outcomes<Outcome, Retreat>;  // (clang before 17: no aggregate CTAD)

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
  outcome_rows rows(layout.size, keep_rows);
  bool keeping = keep_rows > 0;
  // A retreat (GL 12.2-12.3) reads only the state it starts from and who retreats, and the rounds
  // of many states reach the same (Brown v Riall's plain chain: 54,710 retreats from 3,567
  // starts), so each start's retreat fire is played once, its finished battles summed into a row
  // of their own (at weight 1) that each retreat from it adds in, scaled; past the rows' bound a
  // retreat is played where it happens.
  outcome_rows retreat_rows(layout.size, kept_rows_bytes / (layout.size * sizeof(double)));
  std::unordered_map<state_key, std::uint32_t, state_key_hash> retreat_row_of;
  // Plays the retreat of `side` from t at weight w: add(u, end, weight) for each finished battle.
  auto play_retreat = [&](const battle_state& t, int side, bool forced, double w, auto&& add) {
    exact_chooser c;
    c.weight = w;
    battle_state from = t;
    auto finished = [&](const battle_state& u, battle_end end) { add(u, end, c.weight); };
    round::resolve_retreat(r, from, side, forced, c, finished);
  };
  auto retreat_row = [&](const battle_state& t, int side, bool forced) -> const double* {
    const state_key key = encode(r, t, round::retreat_end(side, forced));
    const auto found = retreat_row_of.find(key);
    if (found != retreat_row_of.end()) return retreat_rows.at(found->second);
    if (retreat_rows.full()) return nullptr;
    const std::size_t number = retreat_rows.take();
    retreat_row_of.emplace(key, static_cast<std::uint32_t>(number));
    double* row = retreat_rows.at(number);
    play_retreat(t, side, forced, 1.0,
                 [&](const battle_state& u, battle_end end, double w) { add_terminal(r, layout, row, u, end, w); });
    return row;
  };
  // Adds w x a retreat's row into `row`, or plays the retreat into add(t, end, w) past the bound.
  auto add_retreat = [&](double* row, const battle_state& t, int side, bool forced, double w, auto&& add) {
    if (const double* from = retreat_row(t, side, forced)) {
      for (std::size_t e = 0; e < layout.size; ++e) row[e] += w * from[e];
      return;
    }
    play_retreat(t, side, forced, w, add);
  };
  absorbing_chain<state_key, state_key_hash> chain;
  std::vector<double> totals(layout.size, 0.0);
  double expected_rounds = 0.0;
  memory_meter meter(options.memory_limit);  // (core/memory_meter.hpp)
  if (round::is_stalemate(r, start)) {
    add_terminal(r, layout, totals.data(), start, battle_end::stalemate, 1.0);
  } else {
    chain.build(
        encode(r, start, battle_end::none), false,
        [&](const state_key& key, std::uint32_t index, auto&& add) {
          throw_if_cancelled(options);
          // The chain's memory so far (its states and every transition), checked once per state.
          meter.hold(chain.bytes() + exit_probability.capacity() * sizeof(double) + rows.bytes() +
                         retreat_rows.bytes() + retreat_row_of.size() * (sizeof(state_key) + 32) +
                         row_of.capacity() * sizeof(std::uint32_t),
                     chain.state_count());
          battle_end ignored;
          const battle_state s = decode(r, key, ignored);
          exit_probability.resize(static_cast<std::size_t>(index) + 1, 0.0);
          row_of.resize(static_cast<std::size_t>(index) + 1, 0);
          double* row = nullptr;  // this state's row, once it has one
          auto row_now = [&]() -> double* {
            if (!row && keeping) {
              if (rows.full()) {
                keeping = false;  // this state and every later one: played again
              } else {
                const std::size_t number = rows.take();
                row = rows.at(number);
                row_of[index] = static_cast<std::uint32_t>(number + 1);
              }
            }
            return row;
          };
          auto finished = [&](const battle_state& t, battle_end end, double w) {
            if (double* to = row_now()) add_terminal(r, layout, to, t, end, w);
          };
          play(s, 1.0,
               round_outcomes{[&](const battle_state& t, battle_end end, double w) {
                                if (end == battle_end::none) {
                                  add(encode(r, t, end), w, false);
                                  return;
                                }
                                exit_probability[index] += w;
                                finished(t, end, w);
                              },
                              [&](const battle_state& t, int side, bool forced, double w) {
                                exit_probability[index] += w;
                                if (double* to = row_now()) add_retreat(to, t, side, forced, w, finished);
                              }});
        },
        options.state_limit);
    const auto solution = chain.solve();
    for (std::size_t i = 0; i < chain.state_count(); ++i) {
      const double visits = solution.visits[i];
      if (visits == 0.0 || exit_probability[i] == 0.0) continue;
      if (row_of[i] != 0) {  // kept
        const double* row = rows.at(row_of[i] - 1);
        for (std::size_t e = 0; e < layout.size; ++e) totals[e] += visits * row[e];
        continue;
      }
      battle_end ignored;
      const battle_state s = decode(r, chain.key(i), ignored);
      auto finished = [&](const battle_state& t, battle_end end, double w) {
        if (end != battle_end::none) add_terminal(r, layout, totals.data(), t, end, w);
      };
      play(s, visits, round_outcomes{finished, [&](const battle_state& t, int side, bool forced, double w) {
                                       add_retreat(totals.data(), t, side, forced, w, finished);
                                     }});
    }
    expected_rounds = solution.expected_steps;
  }

  battle_result out = result_of_sums(r, layout, totals);
  out.rounds_mean = expected_rounds;
  if (chain.state_count() > 0)
    out.rounds_distribution = chain.step_distribution(options.rounds_tolerance, options.max_listed_rounds,
                                                      out.rounds_tail, &exit_probability);
  for (auto& p : out.rounds_distribution) p = unit_interval(p);
  out.method.name = "exact";
  out.method.states = chain.state_count();
  out.method.transitions = chain.transition_count();
  out.method.memory_bytes = meter.peak();
  out.method.pruned_mass = 0.0;
  out.method.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return out;
}

}  // namespace musket::great_lakes::detail
