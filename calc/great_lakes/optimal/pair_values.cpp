#include "calc/great_lakes/optimal/pair_values.hpp"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <optional>
#include <utility>

#include "calc/great_lakes/exact/column_sweep.hpp"
#include "calc/great_lakes/exact/cost.hpp"
#include "calc/great_lakes/exact/side_states.hpp"
#include "calc/great_lakes/optimal/advice.hpp"
#include "calc/great_lakes/optimal/outcome_chain.hpp"
#include "calc/great_lakes/optimal/pair_game.hpp"
#include "calc/great_lakes/rules/round.hpp"
#include "core/side_by_side.hpp"
#include "core/usable_threads.hpp"

// The game's value by optimal/pair_game.hpp, its outcome document by optimal/outcome_chain.hpp and
// its advice by optimal/advice.hpp.

namespace musket::great_lakes::optimal {
namespace {

// Thrown in a chain whose partner failed: the partner's failure is the one reported.
struct chain_stopped {};

// The chain's chooser: each choice as the solved play makes it.
template <class Chosen>
struct solved_chooser : detail::exact_chooser {
  pair_game* game = nullptr;
  pair_game::round_place place;
  Chosen* chosen = nullptr;
  template <class F>
  void decide(const rd::decision& d, int options, F&& f) {
    if (options == 1) {
      f(0);
      return;
    }
    const double w = weight;
    const int k = game->choose(d, options, place);
    weight = w;
    (*chosen)(d, k);
    f(k);
  }
};

}  // namespace

bool swept_document(const battle& b, const game_options& g) {
  auto decides_only_hits = [](const army& a) {
    return a.retreat.kind != retreat_kind::optimal && a.rerolls.kind != reroll_kind::optimal;
  };
  return g.goal == objective::win && b.attacker.hit_allocation.kind == hit_allocation_kind::optimal &&
         b.defender.hit_allocation.kind != hit_allocation_kind::optimal && decides_only_hits(b.attacker) &&
         decides_only_hits(b.defender);
}

pair_solution solve_over_pairs(const battle& b, const game_options& g, const exact_options& options, bool with_outcome,
                               const beside_chains& beside) {
  pair_game game(b, g, options);
  pair_solution out;
  out.swept = with_outcome && swept_document(b, g);
  game.list_all_sides(with_outcome && !out.swept);  // (the unfolded tables are the chains')
  if (with_outcome && !out.swept) {
    // The chains' cost predicted beside the pairs' before any pair is valued, so that a battle past
    // the budget is refused at once rather than once its chains have played up to it.
    out.chain_predicted = game.predicted_chain_outcomes();
    out.predicted_seconds = out.chain_predicted * chain_seconds_per_outcome;
  }
  if (out.swept) {
    // The sweep's cost predicted from the sides as the default play lists them (those the solved
    // play reaches are known only once it is solved).
    out.predicted_seconds =
        predict_exact_cost(game.rules(), sweep::list_battle_sides(game.rules(), predicted_side_limit, move_limit))
            .seconds;
  }
  if (with_outcome) {
    out.predicted_seconds += game.work() * pair_seconds_per_work;
    if (g.time_budget > 0 && out.predicted_seconds > g.time_budget)
      throw game_over_budget(out.predicted_seconds, g.time_budget, false);
  }
  game.solve();
  out.value = game.start_value();
  out.pairs = game.pairs();
  out.work = game.work();
  out.kept_rows = game.kept_rows();
  for (int s = 0; s < 2; ++s) {
    out.side_states[static_cast<std::size_t>(s)] = game.side(s).state.size();
    out.hit_states[static_cast<std::size_t>(s)] = game.side(s).hsum.size();
  }
  if (!with_outcome) return out;
  const battle_rules& r = game.rules();
  out.advice = advice_of_units(r);
  advice_recorder rec(r, out.advice);
  // Round 1's choices for the advice, each with the case it is made in: the start's round played
  // once through the rules' own round under the solved choices. It reads the solved game and writes
  // only the game's own choice memos (each chain has its own) and the recorder's round-1 tables (the
  // chains write only its retreats), so it is played on the core the shorter chain leaves (0.5 s
  // of the Niagara 5 v 4 `--play optimal`, where the chains differ by seconds).
  auto advise_start = [&] {
    if (const battle_state start = rd::initial_state(r); !rd::is_stalemate(r, start)) {
      auto chosen = [&](const rd::decision& d, int k) { rec.start_round(d, k); };
      solved_chooser<decltype(chosen)> c;
      c.game = &game;
      c.place.start = &start;
      game.place_round(c.place);
      c.chosen = &chosen;
      auto ignore = [](const battle_state&, battle_end) {};
      auto ignore_retreat = [](battle_state&, int, bool, int) {};
      rd::play_round_until_retreat(r, start, c, ignore, ignore_retreat);
    }
  };
  exact_options chain_options = options;
  const std::size_t game_bytes = game.bytes();
  if (options.memory_limit > 0) chain_options.memory_limit = std::max<std::size_t>(1, game.room());
  if (out.swept) {
    // The outcome under the solved allocation by the column sweep, in the room the game leaves; the
    // work beside is the caller's after it (the sweep takes both cores).
    const sweep::allocations_taken taken = [&game](const battle_state& s, int hits, std::vector<std::uint8_t>& used) {
      game.allocations_taken(s, hits, used);
    };
    const sweep::battle_sides listed = sweep::list_battle_sides(r, options.state_limit, move_limit, &taken);
    if (!listed.complete) throw state_limit_exceeded(options.state_limit);
    const attacker_allocation allocation = game.solved_allocation(listed);
    const std::size_t kept = game.held();
    try {
      out.outcome = solve_by_column_sweep(b, chain_options, &listed, &allocation);
    } catch (const memory_limit_exceeded& e) {
      throw memory_limit_exceeded(options.memory_limit, kept + e.counted(), e.states());
    }
    advise_start();
    // (The peak: the solve's, or what the game keeps beside the sweep's.)
    out.outcome.method.memory_bytes = std::max(game_bytes, kept + out.outcome.method.memory_bytes);
    rec.finish();
    return out;
  }
  // The time guard counts every chain's round outcomes; a chain that fails stops the others.
  std::atomic<std::uint64_t> outcomes{0};
  std::atomic<bool> stop{false};
  auto count = [&](std::size_t n) {
    if (stop.load(std::memory_order_relaxed)) throw chain_stopped{};
    const auto total = static_cast<double>(outcomes.fetch_add(n, std::memory_order_relaxed) + n);
    const double predicted = out.work * pair_seconds_per_work + total * chain_seconds_per_outcome;
    if (g.time_budget > 0 && predicted > g.time_budget) throw game_over_budget(predicted, g.time_budget, true);
  };
  try {
    // The chains: the rounds tallied over the folded pairs (a tenth as many as the unfolded on the
    // win objective), and the ends summed by side. What a side's part of a finished battle reports
    // reads its own units alone (outcome.hpp), and the battle played over the pairs of one side's
    // unfolded states and the other's folded ones is the battle played over the unfolded pairs,
    // lumped (the folded states play alike, map_unfolded): so each side's part is summed over its
    // own unfolded states against the other's folded ones (on the Niagara 3 v 3 `--play optimal`,
    // 65,157 and 81,294 pairs where the unfolded pairs were 233,402).
    std::vector<std::optional<outcome_chain>> chains(3);
    chains[0].emplace(game, chain_options, -1);
    chains[1].emplace(game, chain_options, rd::attacker);
    chains[2].emplace(game, chain_options, rd::defender);
    const int n = static_cast<int>(chains.size());
    shared_bound held(chain_options.memory_limit);
    for (int k = 0; k < n; ++k) chains[static_cast<std::size_t>(k)]->share_bound(held, k);
    std::vector<outcome_chain::part> parts(chains.size());
    // The advice's retreats as the chain documenting the attacker meets them (each chain reaches
    // the same folded pairs).
    constexpr int advising = 1;
    // Each chain played whole, then let go: the room for the work beside the others.
    auto play_chain = [&](int k) {
      std::optional<outcome_chain>& chain = chains[static_cast<std::size_t>(k)];
      auto told = [&, k](int side, int own, int enemy, bool retreats) {
        if (k == advising) rec.retreat_decided(side, own, enemy, retreats);
      };
      chain->begin(told, count);
      for (const std::uint32_t column : chain->columns()) chain->take_column(column, told, count);
      parts[static_cast<std::size_t>(k)] = chain->end();
      chain.reset();
      held.end(k);
    };
    unsigned threads = 1;
    // The caller's work beside the last chains: in what the ended chains last counted and half the
    // bound's room left, lent (a running chain counts it as held, and takes it back, stopping that
    // work, where it would pass the bound with it). Left undone where it passes its bound or is
    // stopped: the caller does it after the game, under the whole bound.
    auto beside_last = [&] {
      exact_options o = options;
      o.recall = &held.recalled();
      if (chain_options.memory_limit > 0) o.memory_limit = std::max<std::size_t>(1, held.lend());
      try {
        beside(o);
      } catch (const memory_limit_exceeded&) {
      } catch (const solve_cancelled&) {  // (recalled; or the player's cancel, which the chains throw too)
      }
      held.repay();
    };
    // The jobs, taken in turn by two threads, each as a thread is free: the chains (the rounds
    // chain first: on the Niagara it takes about as long as each side's part), round 1's advice,
    // then the work beside the last chain.
    const int jobs = n + 1 + (beside ? 1 : 0);
    std::atomic<int> next_job{0};
    auto take_jobs = [&] {
      for (int k = next_job.fetch_add(1); k < jobs && !stop.load(); k = next_job.fetch_add(1)) {
        if (k < n)
          play_chain(k);
        else if (k == n)
          advise_start();
        else
          beside_last();
      }
    };
    if (usable_threads(options.threads) >= 2) {
      threads = 2;
      side_by_side(take_jobs, take_jobs, &stop);
    } else {
      for (int k = 0; k < n; ++k) play_chain(k);
      advise_start();
    }
    // The document: the sides' parts added, the rounds chain's tally; every chain's peak as if at
    // once (each counts only itself: the same count on one thread or two, so the same answer; side
    // by side they also stop as soon as what all hold passes it).
    const detail::outcome_layout layout(r);
    std::vector<double> totals(layout.size, 0.0);
    std::size_t all = 0, documented = 0, transitions = 0;
    for (std::size_t k = 0; k < parts.size(); ++k) {
      all += parts[k].bytes;
      if (k == 0) continue;
      for (std::size_t j = 0; j < totals.size(); ++j) totals[j] += parts[k].totals[j];
      documented += parts[k].pairs;
      transitions += parts[k].transitions;
    }
    if (chain_options.memory_limit > 0 && all > chain_options.memory_limit)
      throw memory_limit_exceeded(chain_options.memory_limit, all, parts[0].pairs);
    out.outcome = detail::result_of_sums(r, layout, totals);
    out.outcome.rounds_mean = parts[0].rounds_mean;
    out.outcome.rounds_distribution = std::move(parts[0].rounds);
    for (double& p : out.outcome.rounds_distribution) p = detail::unit_interval(p);
    out.outcome.rounds_tail = parts[0].rounds_tail;
    out.outcome.method.name = "exact";
    out.outcome.method.states = documented;
    out.outcome.method.transitions = transitions;
    out.outcome.method.memory_bytes = all;
    out.outcome.method.pruned_mass = 0.0;
    out.outcome.method.threads = threads;
    out.chain_outcomes = static_cast<double>(outcomes.load());
  } catch (const memory_limit_exceeded& e) {
    throw memory_limit_exceeded(options.memory_limit, game.held() + e.counted(), e.states());
  }
  // (The peak: the solve's, or what the game keeps beside the chains'.)
  out.outcome.method.memory_bytes = std::max(game_bytes, game.held() + out.outcome.method.memory_bytes);
  rec.finish();
  return out;
}

}  // namespace musket::great_lakes::optimal
