#pragma once
// The game over pairs of side states, in the round's order (GL 11.18 in the RULINGS order), with
// a = the attacker's state at the round's start, d = the defender's, a' / d' a side's hit state
// (its units after a fire's hits, with the hits taken this round: what its morale checks read),
// a'' / d'' a side's state after its morale checks:
//   V(a, d)      = sum_h P(the defender's fire scores h) max over the attacker's allocations a' of h
//                  hits (GL 11.23) of [the attacker's line gone: its forced retreat; else FA(a', d)]
//   FA(a', d)    = sum_k P(the attacker's dice after the hits score k) min over the defender's
//                  allocations d' of k of [the defender's line gone: its forced retreat (the round
//                  ends before any morale check); else MA(a', d')]
//   MA(a', d')   = the attacker's morale checks and rerolls from a' (GL 11.24-11.27: expectation
//                  over the dice, max over its reroll choices) of [its line gone: forced retreat
//                  under the defender's fire from d'; else MD(a'', d')]
//   MD(a'', d')  = the defender's checks and rerolls from d' (min over its choices) of [its line
//                  gone: forced retreat under a'' 's fire; else R(a'', d'')]
//   R(a'', d'')  = the voluntary retreats (GL 12.2: the attacker's max, then the defender's min)
//                  over the expectation of the reinforcements (GL 13.3) of V(next pair), or a
//                  stalemate's payoff.
// Every stage but V reads one side's list for a state of the other side. The pairs are valued
// backward in a topological order: the defender's states by units waiting, then line SP, fewest
// first (a column), the attacker's the same way within a column; every round that changes a
// pair lowers a line's SP or lets a unit enter. MD is kept for the column's hit states (its
// values are shared by every attacker that ends its checks alike), MA by defender hit state for
// the columns that reach it, a key group's columns valued in lockstep (ma_rows, value_run); the
// round where both fires miss and nobody enters is the self-loop, solved as the stationary choice
// (solve_state's Newton steps, as the full-state game solved it). Ties go to option 0 (the
// rulings' default) unless another option is better by the tolerance, as the full-state game
// broke them.
// Internal linkage: included by optimal/pair_values.cpp alone.
#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <cmath>
#include <cstdint>
#include <exception>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "calc/great_lakes/exact/column_sweep.hpp"
#include "calc/great_lakes/exact/side_states.hpp"
#include "calc/great_lakes/optimal/game.hpp"
#include "calc/great_lakes/optimal/pair_values.hpp"
#include "calc/great_lakes/optimal/side_table.hpp"
#include "core/binomial_table.hpp"
#include "core/markov_chain.hpp"
#include "core/memory_meter.hpp"
#include "core/side_by_side.hpp"
#include "core/u64_memo.hpp"
#include "core/usable_threads.hpp"

namespace musket::great_lakes::optimal {
namespace {

class outcome_chain;

// f(hits, weight x P(hits)) for each score of a fire of `dice` (GL 11.22: sixes) capped at `cap` SP,
// its tail on the cap (more hits than the SP there change nothing); outcomes of chance 0 left out.
template <class F>
void capped_fire(int dice, int cap, double weight, F&& f) {
  const double* row = shared_binomial_tables().pmf_row(1, dice);
  if (cap >= dice) {
    for (int h = 0; h <= dice; ++h)
      if (row[h] != 0.0) f(h, weight * row[h]);
    return;
  }
  double tail = 0;
  for (int h = dice; h >= cap; --h) tail += row[h];
  for (int h = 0; h < cap; ++h)
    if (row[h] != 0.0) f(h, weight * row[h]);
  if (tail != 0.0) f(cap, weight * tail);
}

// What valuing one column (a defender state d) takes beside the game's tables and values: MD by
// (attacker state, place: d's hit states in its lists' order), each worked out once when first
// asked, a row read along the places by ma_row's walks, and the rows' scratch. One a thread: the
// columns of one key (units waiting, line SP) never reach one another, so two threads value them
// side by side; and one an outcome chain, which reads MD as the game did.
struct column_work {
  std::uint32_t column = no_index, first = 0;  // the open column and its first hit state
  std::size_t places = 0;
  std::vector<double> md;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> done;  // by attacker state: its row's places worked out
  std::vector<std::uint8_t> standing;                         // by place: its hit state's line stands
  std::vector<double> rest;            // in a run: by attacker hit state, FA but for the fire that scores nothing
  struct lockstep_run* run = nullptr;  // in a run (value_run): the run, and the column's place in it
  std::size_t run_index = 0;
  std::vector<double> ma;                    // MA by place (ma_row)
  std::vector<double> by_place;              // fill_column's MD by (place, attacker state)
  std::vector<std::vector<double>> scratch;  // tree_over's, by depth: the best option's row and a trial's
  // FA by attacker hit state, and the column it was worked out for (no_index: none): one hit state
  // is reached from several attacker states (a unit the hits eliminate keeps no SP), 2.2 times a
  // hit state on the Niagara 3 v 3 `--play optimal`, 2.8 on the 4 v 3.
  std::vector<double> fa;
  std::vector<std::uint32_t> fa_column;
  std::size_t bytes() const {
    std::size_t b = (md.capacity() + ma.capacity() + by_place.capacity() + fa.capacity()) * sizeof(double) +
                    done.capacity() * sizeof(done[0]) + standing.capacity() + rest.capacity() * sizeof(double) +
                    fa_column.capacity() * sizeof(std::uint32_t);
    for (const auto& v : scratch) b += v.capacity() * sizeof(double);
    return b;
  }
};

// A run of one key group's columns valued in lockstep, an attacker state in all of them at a time
// (pair_game::value_run): each column's work, MD at each column's unhit place by attacker state,
// and MA there by attacker hit state (each worked out in one walk of its tree for the whole run).
struct lockstep_run {
  std::vector<column_work> columns;
  std::size_t size = 0;
  std::vector<double> md0, ma0;        // by (attacker state / hit state, column of the run)
  std::vector<std::uint8_t> ma0_done;  // by attacker hit state
  std::vector<double> least, best;     // place_rows' scratch
  column_work scratch;                 // tree_over's
};

// The choices the outcome chain works out as it plays, kept for the pairs that meet them again,
// and its column's MD values. Every choice kept is one folded defender state's (a column's: the
// defender's allocations after the attacker's hit states, the attacker's rerolls by the column's
// places, the defender's in its hit states' trees), so a chain played a column at a time forgets
// them between columns (and opens the next column's MD). Each chain has its own: chains of one
// game can play side by side, on two threads.
struct chain_memos {
  // By side: each reroll node met, its row of choices in `reroll` (by place of the column for the
  // attacker's; by the attacker's folded state for the defender's).
  std::array<u64_memo<std::uint32_t>, 2> reroll_row;
  std::array<std::vector<std::uint8_t>, 2> reroll;
  u64_memo<int> def_choice;  // by (attacker hit state, defender row)
  column_work md;
  std::size_t bytes() const {
    return reroll_row[0].bytes() + reroll_row[1].bytes() + reroll[0].capacity() + reroll[1].capacity() +
           def_choice.bytes() + md.bytes();
  }
  void clear() {
    for (int side = 0; side < 2; ++side) {
      reroll_row[side].clear();
      reroll[side].clear();
    }
    def_choice.clear();
  }
};

class pair_game {
  friend class outcome_chain;  // (its round: the game's tables and choices)

 public:
  pair_game(const battle& b, const game_options& g, const exact_options& o)
      : r_(rd::compile(b)), g_(g), o_(o), decides_{plays_optimally(b.attacker), plays_optimally(b.defender)} {
    lo_ = g.goal == objective::win ? 0.0 : -static_cast<double>(r_.starting_sp[0]);
    hi_ = g.goal == objective::win ? 1.0 : g.win_value + static_cast<double>(r_.starting_sp[1]);
    scale_ = std::max({1.0, std::abs(lo_), std::abs(hi_)});
    tol_ = 1e-12 * scale_;
    // A retreat's fire: the line's dice (forced) or a die a line unit (voluntary), GL 12.2-12.3; the
    // rows rd::compile builds cover both (no more dice than that is ever rolled).
    int dice = 0;
    for (int side = 0; side < 2; ++side) {
      int d = 0;
      for (int i = r_.begin[side]; i < r_.end[side]; ++i) d += r_.dice[i];
      dice = std::max({dice, d, r_.end[side] - r_.begin[side]});
    }
    moments_dice_ = dice;
    const int most_sp = std::max(r_.starting_sp[0], r_.starting_sp[1]);
    moments_.reserve(static_cast<std::size_t>((dice + 1) * (most_sp + 1)));
    for (int n = 0; n <= dice; ++n)
      for (int sp = 0; sp <= most_sp; ++sp) moments_.push_back(fire_moments(n, sp));
  }

  const battle_rules& rules() const { return r_; }
  // The most dice a retreat's fire rolls: a side's line dice (forced) or a die a line unit.
  int retreat_dice() const { return moments_dice_; }
  const side_table& side(int s) const { return s == 0 ? att_ : def_; }

  // Both sides alone (every option of every choice), and the cost model's count of the pairs'
  // work: the attacker's hit states' trees walked against each of the defender's hit states where
  // its line stands, once for all the columns that reach it where MA is kept by defender hit state
  // (plan_rows; counted so where a row for each would fit the bound), else once for every column
  // that reaches it (its place in each); and per column, each of d's hit states' tree walked for
  // each attacker state. The sides are listed a state of each in turn and the count made as they
  // go: it only grows, so a battle past the budget is refused as soon as what is listed passes
  // twice the budget (a large battle's listing is most of what its refusal would otherwise wait
  // for: the value objective's 4 v 4 with the defender's hits optimal listed whole in 0.23 s), its
  // prediction then a lower bound; once
  // listed, past the budget, a lower bound too where the outcome chains will add their own
  // (`chains`: solve_over_pairs predicts them next).
  void list_sides(bool chains) {
    struct side_work {
      double tree = 0, hits = 0;  // the hit states' trees, the hit states (valued states only)
    };
    std::array<side_work, 2> w{};
    auto count = [&](const side_table& t, std::size_t x) {
      if (!valued(t, x)) return;
      side_work& s = w[static_cast<std::size_t>(t.side)];
      const std::uint32_t hb = t.hits_begin[x];
      s.hits += t.hit_begin[hb + static_cast<std::uint32_t>(t.sum[x].alive_sp) + 1] - t.hit_begin[hb];
      s.tree += hit_work(t, x);
    };
    std::size_t standing = 0, scanned = 0;  // the defender's hit states whose line stands, of those listed
    auto work = [&] {
      for (; scanned < def_.hsum.size(); ++scanned)
        if (def_.hsum[scanned].line_units > 0) ++standing;
      // (Beside the tables listed so far, which the meter holds only once they are listed: once
      // the rows would not fit, they never do again as the sides grow, so the count only grows.)
      const double rows = static_cast<double>(standing) * static_cast<double>(att_.hsum.size()) * sizeof(double) +
                          static_cast<double>(att_.bytes() + def_.bytes());
      const bool kept = meter_.bound() == 0 || rows <= static_cast<double>(meter_.bound());
      const double ma = kept ? static_cast<double>(standing) : w[1].hits;
      return w[0].tree * ma + w[1].tree * static_cast<double>(att_.state.size());
    };
    // While listing, the count goes on to twice the budget (a listing that ends first names the
    // pairs' whole count; how far past that matters less to the player than a quick answer).
    auto check = [&](bool listing) {
      const double predicted = work() * pair_seconds_per_work;
      if (g_.time_budget > 0 && predicted > (listing ? 2 : 1) * g_.time_budget)
        throw game_over_budget(predicted, g_.time_budget, listing || chains);
    };
    begin_side(att_, rd::attacker, true);
    begin_side(def_, rd::defender, true);
    for (std::size_t a = 0, d = 0; a < att_.state.size() || d < def_.state.size();) {
      if (a < att_.state.size()) {
        list_state(att_, a);
        count(att_, a++);
      }
      if (d < def_.state.size()) {
        list_state(def_, d);
        count(def_, d++);
      }
      check(a < att_.state.size() || d < def_.state.size());
    }
    end_side(att_);
    end_side(def_);
    held_ = att_.bytes() + def_.bytes();
    meter_.hold(held_);
    work_ = work();
    check(false);
  }
  double work() const { return work_; }

  // Every pair valued, backward in the topological order (the columns not valued yet: some may have
  // been while the unfolded tables were listed, list_all_sides); then the start's value.
  void solve() {
    if (!solving_) begin_solve();
    plan_rows();
    value_columns(usable_threads(o_.threads) >= 2, nullptr);
    const battle_state start = rd::initial_state(r_);
    const std::uint32_t a0 = att_.index.at(key(start, rd::attacker).data());
    const std::uint32_t d0 = def_.index.at(key(start, rd::defender).data());
    if (stalemate(a0, d0)) {
      start_value_ = stalemate_payoff(a0, d0);
    } else if (r_.first_round_matters) {
      open_column(d0, columns_[0]);
      start_value_ = round_value(a0, d0, true, false, columns_[0]);
    } else {
      start_value_ = v_[a0 * nd_ + d0];
    }
    held_ -= rows_.counted;
    kept_rows_ = rows_.counted;
    rows_ = {};
    meter_.hold(held_ + unfolded_bytes_);
    runs_ = {};
  }
  double start_value() const { return start_value_; }
  std::size_t kept_rows() const { return kept_rows_; }
  // The options of rd::hit_options the solved play takes for `hits` hits on the attacker in state
  // `s` against any defender (round 1's among them): those of `taken` set to 1.
  void allocations_taken(const battle_state& s, int hits, std::vector<std::uint8_t>& taken) const {
    const std::uint32_t a = att_.index.at(key(s, rd::attacker, true).data());
    const std::uint32_t row = choice_row_[att_.hits_begin[a] + static_cast<std::uint32_t>(hits)];
    if (row == no_index) return;
    auto take = [&](std::uint8_t k) {
      if (k >= taken.size()) throw std::logic_error("optimal play: an allocation past the options listed");
      taken[k] = 1;
    };
    for (std::size_t d = 0; d < nd_; ++d) take(att_choice_[row * nd_ + d]);
    if (r_.first_round_matters && a == att_.index.at(key(rd::initial_state(r_), rd::attacker, true).data()))
      take(start_choice_[static_cast<std::size_t>(hits)]);
  }
  // The attacker's allocations as solved, for the column sweep to play (exact/column_sweep.hpp) over
  // `sides`' folded parts (the game's folded states). Valid while the game lives.
  attacker_allocation solved_allocation(const sweep::battle_sides& sides) const {
    std::vector<std::uint32_t> a_of, d_of;  // by part of the sweep's sides: the game's state
    for (const std::uint32_t s : sides.side[0].example)
      a_of.push_back(att_.index.at(key(sides.side[0].states[s], rd::attacker, true).data()));
    for (const std::uint32_t s : sides.side[1].example)
      d_of.push_back(def_.index.at(key(sides.side[1].states[s], rd::defender, true).data()));
    return [this, a_of = std::move(a_of), d_of = std::move(d_of)](std::uint32_t a, std::uint32_t d, int hits,
                                                                  bool first) -> int {
      if (first) return start_choice_[static_cast<std::size_t>(hits)];
      const std::uint32_t row = choice_row_[att_.hits_begin[a_of[a]] + static_cast<std::uint32_t>(hits)];
      return row == no_index ? 0 : att_choice_[row * nd_ + d_of[d]];
    };
  }
  std::size_t pairs() const { return pairs_; }
  // The memory the game held at its peak, and the bytes its bound leaves for the outcome chain.
  std::size_t bytes() const { return meter_.peak(); }
  std::size_t held() const { return meter_.held(); }  // (now: what it keeps beside its outcome's work)
  std::size_t room() const { return meter_.room(0); }
  // Where a round of the chain stands: its start pair, and the attacker's allocation taken for the
  // hits it took (the chain's chooser keeps it as the round is played).
  struct round_place {
    const battle_state* start = nullptr;
    std::uint32_t a = no_index, d = no_index;
    int att_hits = -1, att_option = 0;
  };
  void place_round(round_place& p) {
    p.a = att_.index.at(key(*p.start, rd::attacker).data());
    p.d = def_.index.at(key(*p.start, rd::defender).data());
    if (memos_.md.md.empty()) memos_.md = std::move(columns_[0]);  // (the solve's, counted and done with)
    open_column(p.d, memos_.md);
    p.att_hits = -1;
    p.att_option = 0;
  }

  // The option the solved play takes at a choice met in a round (the chain's).
  int choose(const rd::decision& dc, int options, round_place& p) {
    const battle_state& s = *dc.state;
    int taken = 0;
    double best = 0;
    auto weigh = [&](int k, double v) {
      if (k == 0 || (dc.side == rd::attacker ? v > best + tol_ : v < best - tol_)) {
        best = v;
        taken = k;
      }
    };
    switch (dc.kind) {
      case rd::decision_kind::hits: {
        if (dc.side == rd::attacker) {
          // (As the solve chose it: its choices kept, hit_options' order being the lists'.)
          const std::uint32_t row = att_.hits_begin[p.a] + static_cast<std::uint32_t>(dc.hits);
          taken = s.first_round && r_.first_round_matters ? start_choice_[static_cast<std::size_t>(dc.hits)]
                                                          : att_choice_[choice_row_[row] * nd_ + p.d];
          p.att_hits = dc.hits;
          p.att_option = taken;
          return taken;
        }
        int h = 0;
        for (int i = r_.begin[0]; i < r_.end[0]; ++i) h += p.start->sp[i] - s.sp[i];
        const std::uint32_t arow = att_.hits_begin[p.a] + static_cast<std::uint32_t>(h);
        const std::uint32_t a1 =
            att_.hit_option[att_.hit_begin[arow] + static_cast<std::uint32_t>(p.att_hits == h ? p.att_option : 0)];
        return defender_allocation(a1, p.d, dc.hits, dc.hits, memos_);
      }
      case rd::decision_kind::reroll: {
        // The rest of the side's checks read its units now and the units pending; what follows
        // them, the other side's hit state (the attacker's checks) or state after its checks (the
        // defender's): a choice is worked out once for each.
        std::uint32_t other = 0;
        if (dc.side == rd::attacker) {
          rd::hit_counts hits{};
          for (int i = r_.begin[1]; i < r_.end[1]; ++i) hits[i] = static_cast<std::uint8_t>(p.start->sp[i] - s.sp[i]);
          other = def_.hindex.at(hit_key(s, hits, rd::defender).data());
        } else {
          other = att_.index.at(key(s, rd::attacker).data());
        }
        const side_key own = side_bytes(r_, s, dc.side);
        std::string at(reinterpret_cast<const char*>(own.data()), own.size);
        at.append(reinterpret_cast<const char*>(&dc.pending), sizeof dc.pending);
        at.append(reinterpret_cast<const char*>(&other), sizeof other);
        at.push_back(static_cast<char>(dc.side));
        const auto [known, fresh] = reroll_choice_.try_emplace(std::move(at), 0);
        if (!fresh) return known->second;
        const int n = std::popcount(dc.pending);
        for (int k = 0; k < options; ++k) {
          valuing_chooser c;
          c.tolerance = tol_;
          rd::round_state t = rd::track(r_, s);
          auto next = [&](rd::round_state& w) { c.acc += c.weight * after_morale(dc.side, w.s, other, memos_); };
          if (k < n) {
            std::uint32_t rest = dc.pending;
            for (int j = 0; j < k; ++j) rest &= rest - 1;
            rd::reroll_unit(r_, dc.side, t, std::countr_zero(rest), dc.pending, c, next);
          } else {
            for (std::uint32_t left = dc.pending; left; left &= left - 1)
              rd::fail_morale(r_, t, dc.side, std::countr_zero(left));
            next(t);
          }
          weigh(k, c.acc);
        }
        known->second = taken;
        return taken;
      }
      case rd::decision_kind::retreat: {
        return retreats_by_choice(dc.side, att_.index.at(key(s, rd::attacker).data()),
                                  def_.index.at(key(s, rd::defender).data()))
                   ? 1
                   : 0;
      }
    }
    return 0;
  }

  // The defender's allocation (its option among the hit states of `hits` hits of the defender state
  // d, whose column memos.md holds) after the attacker's hits left it in hit state a1: the least
  // value, ties to the rulings'. Asked for one hit count, it works out every count up to `most` (the
  // most the attacker's fire can score: the chain asks for each) by one walk of a1's tree over
  // their places (ma_row), as attacker_fire does. (Many of the outcome chain's pairs are one folded
  // pair: each worked out once.)
  int defender_allocation(std::uint32_t a1, std::uint32_t d, int hits, int most, chain_memos& memos) const {
    const std::uint32_t row0 = def_.hits_begin[d];
    const auto [known, fresh] = memos.def_choice.try_emplace(std::uint64_t{a1} << 32 | (row0 + hits), 0);
    if (!fresh) return known;
    column_work& cw = memos.md;
    // (An unfolded defender's fire cap counts SP out of the line: the folded rows stop at its line's.)
    // Counts past the last with a choice (hits that take the line whatever the allocation) are left out.
    auto last = static_cast<std::uint32_t>(std::min<int>(std::max(most, hits), def_.sum[d].alive_sp));
    while (last > static_cast<std::uint32_t>(hits) && def_.hit_begin[row0 + last + 1] - def_.hit_begin[row0 + last] < 2)
      --last;
    ma_row(a1, def_.hit_begin[row0 + 1] - cw.first, def_.hit_begin[row0 + last + 1] - cw.first, cw);
    int asked = 0;
    for (std::uint32_t k = 1; k <= last; ++k) {
      const std::uint32_t b = def_.hit_begin[row0 + k], e = def_.hit_begin[row0 + k + 1];
      if (e - b < 2) continue;
      double best = 0;
      int taken = 0;
      for (std::uint32_t j = b; j < e; ++j) {
        const double v = cw.standing[j - cw.first]
                             ? cw.ma[j - cw.first]
                             : retreat_value(rd::defender, true, a1, def_.hit_option[j], true, true);  // GL 12.3
        if (j == b || v < best - tol_) {
          best = v;
          taken = static_cast<int>(j - b);
        }
      }
      if (k == static_cast<std::uint32_t>(hits))
        asked = taken;
      else
        memos.def_choice.try_emplace(std::uint64_t{a1} << 32 | (row0 + k), taken);
    }
    memos.def_choice.try_emplace(std::uint64_t{a1} << 32 | (row0 + static_cast<std::uint32_t>(hits)), 0).first =
        asked;  // (the reference taken above may have moved as the memo grew)
    return asked;
  }

  // Whether `side` retreats voluntarily at the post-morale pair (a, d) as the solved play does (GL
  // 12.2, step 4; the win objective: fighting on, settled). Where nobody enters the pair is its own
  // successor, whose value, solved, is read.
  bool retreats_by_choice(int side, std::uint32_t a, std::uint32_t d) const {
    if (!decides_retreat(side)) return false;
    const double on = side == rd::attacker ? defender_retreats(a, d, no_index, no_index, 0.0).first
                                           : go_on(a, d, no_index, no_index).first;
    const double back = retreat_value(side, false, a, d, false, false);
    return side == rd::attacker ? back > on + tol_ : back < on - tol_;
  }

  // ---- The outcome chain: the battle played forward under the solved choices, over pairs of the
  // sides' states as they are (the unfolded tables: the game's own tables fold the units that left
  // the line, whose SP the outcome document reports unit by unit), each mapped to its folded state
  // for the choices. A pair's key: its attacker and defender states, and round 1's flag.

  // Both sides alone, and where the outcome chains follow (`chains`) the unfolded tables and the
  // maps to the folded states. Where two threads are allowed the unfolded tables are listed beside
  // the folded ones (a table a thread as each is free: on the Niagara 3 v 3 the defender's took
  // 0.045-0.053 s, eight times the attacker's and four times both folded ones), so the prediction
  // made before the solve waits for the larger, not for all; a folded listing that refuses the
  // battle stops them.
  void list_all_sides(bool chains) {
    if (!chains) return list_sides(chains);
    if (usable_threads(o_.threads) < 2) {
      list_sides(chains);
      build_side(uatt_, rd::attacker, false);
      build_side(udef_, rd::defender, false);
    } else {
      std::atomic<int> next{0};
      std::atomic<bool> stop{false}, folded_listed{false}, listed{false};
      auto unfold = [&] {
        for (int k = next.fetch_add(1); k < 2; k = next.fetch_add(1))
          build_side(k == 0 ? udef_ : uatt_, k == 0 ? rd::defender : rd::attacker, false, &stop);
      };
      // (The folded listing's failure, a refusal, is the one reported; the second thread's only where
      // the folded listing succeeds, as when the tables were listed one after the other.)
      std::exception_ptr beside_failed;
      std::atomic<int> listing{2};  // the parts still listing
      auto done = [&] {
        if (--listing == 0) listed = true;
      };
      // The core the folded listing leaves while the other lists its unfolded table (on the Niagara
      // 3 v 3 the defender's, twice the rest) values the first columns; a refusal that waits for
      // the unfolded tables comes no later for it (the solve stops as they are listed).
      auto solve_meanwhile = [&] {
        if (!folded_listed.load() || listed.load() || stop.load()) return;
        begin_solve();
        value_columns(false, &listed);
      };
      side_by_side_then(
          [&] {
            list_sides(chains);
            folded_listed = true;
            unfold();
            done();
          },
          [&] {
            try {
              unfold();
            } catch (const listing_stopped&) {
              throw;
            } catch (...) {
              beside_failed = std::current_exception();
            }
            done();
          },
          solve_meanwhile, &stop);
      if (beside_failed) std::rethrow_exception(beside_failed);
    }
    for (int side = 0; side < 2; ++side) map_unfolded(side);
    unfolded_bytes_ = uatt_.bytes() + udef_.bytes() +
                      (fold_of_[0].size() + fold_of_[1].size() + hit_fold_of_[0].size() + hit_fold_of_[1].size()) *
                          sizeof(std::uint32_t);
    meter_.hold(held_ + unfolded_bytes_, pairs_);
  }

  // The outcome chains' round outcomes, predicted before any pair is valued (once the unfolded
  // tables are listed): a fitted count per pair of the unfolded sides' valued states
  // (chain_outcomes_per_pair), by objective and by who decides what (the chains play only the pairs
  // the solved play reaches).
  double predicted_chain_outcomes() const {
    std::array<double, 2> valued_states{};
    for (int side = 0; side < 2; ++side) {
      const side_table& t = unfolded(side);
      for (std::size_t x = 0; x < t.state.size(); ++x) valued_states[static_cast<std::size_t>(side)] += valued(t, x);
    }
    const bool hits = r_.hit_allocation[0].kind == hit_allocation_kind::optimal ||
                      r_.hit_allocation[1].kind == hit_allocation_kind::optimal;
    const int who = decides_[0] && decides_[1] ? 2 : hits ? 1 : 0;
    return chain_outcomes_per_pair[g_.goal == objective::value][who] * valued_states[0] * valued_states[1];
  }

  static std::uint64_t pair_key(std::uint32_t a, std::uint32_t d, bool first) {
    return (first ? std::uint64_t{1} << 63 : 0) | std::uint64_t{a} << 32 | d;
  }
  const side_table& unfolded(int side) const { return side == rd::attacker ? uatt_ : udef_; }
  // The tables a pass of the outcome chain plays: the folded (the game's own) or the unfolded.
  const side_table& table(int side, bool folded) const {
    return folded ? (side == rd::attacker ? att_ : def_) : unfolded(side);
  }
  // (By side: its folded table or its unfolded.)
  std::uint64_t start_key(bool att_folded, bool def_folded) const {
    const battle_state s = rd::initial_state(r_);
    return pair_key(table(rd::attacker, att_folded).index.at(key(s, rd::attacker, att_folded).data()),
                    table(rd::defender, def_folded).index.at(key(s, rd::defender, def_folded).data()),
                    r_.first_round_matters);
  }

 private:
  // The folded state (or hit state) of a state of table u.
  std::uint32_t fold_of(const side_table& u, std::uint32_t x) const {
    return &u == &table(u.side, true) ? x : fold_of_[static_cast<std::size_t>(u.side)][x];
  }
  std::uint32_t hit_fold_of(const side_table& u, std::uint32_t x) const {
    return &u == &table(u.side, true) ? x : hit_fold_of_[static_cast<std::size_t>(u.side)][x];
  }

  // A state that plays rounds: its line stands.
  static bool valued(const side_table& t, std::size_t x) { return t.sum[x].line_units > 0; }

  double hit_work(const side_table& t, std::size_t x) const {
    double w = 0;
    const std::uint32_t hb = t.hits_begin[x];
    const std::uint32_t end = t.hit_begin[hb + static_cast<std::uint32_t>(t.sum[x].alive_sp) + 1];
    for (std::uint32_t j = t.hit_begin[hb]; j < end; ++j) {
      const std::uint32_t h = t.hit_option[j];
      w += t.hroot[h] == no_index ? 1.0 : static_cast<double>(t.lists[t.hroot[h]].end - t.lists[t.hroot[h]].begin) + 1;
    }
    return w;
  }

  // The valued states of a side in the topological order: fewest waiting, then lowest line SP.
  std::vector<std::uint32_t> order(side_table& t) const {
    std::vector<std::uint32_t> out;
    for (std::uint32_t x = 0; x < t.state.size(); ++x)
      if (valued(t, x)) out.push_back(x);
    std::stable_sort(out.begin(), out.end(), [&](std::uint32_t i, std::uint32_t j) {
      return std::pair(t.sum[i].waiting, t.sum[i].line_sp) < std::pair(t.sum[j].waiting, t.sum[j].line_sp);
    });
    return out;
  }

  // The sides' states folded: those that differ only in what is left of the units that left the
  // line for good (eliminated or failed morale) have one value and one best play.
  // - On the win objective, as the exact engine folds them: such a unit is `out` with no SP. What
  //   is left of it changes neither the rest of the battle nor who wins (hits past the line's SP
  //   end the battle whichever units take them).
  // - The value objective counts the SP lost, but its payoffs read them only as sums (SP lost, lost
  //   once a retreating defender's garrison is gone, on the field: stalemate_payoff, retreat_value),
  //   and hits reach those units only past the line (GL 11.23) or in retreat fire (GL 12.2, RULINGS:
  //   one pool with the line), a hit an SP of the pool whichever unit holds it. So their SP is one
  //   pool, held by them in list order each up to its start, all `failed` (taking hits as such);
  //   the garrison keeps its own (GL 4.17: lost with a retreat).
  battle_state folded(battle_state s, int side, bool fold) const {
    if (!fold) return s;
    const bool pool = g_.goal == objective::value;
    int sp = 0;
    for (int i = r_.begin[side]; i < r_.end[side]; ++i)
      if (rd::left_the_line(s, i) && (!pool || i != r_.garrison)) {
        sp += s.sp[i];
        s.st[i] = pool ? rd::failed : rd::out;
        s.sp[i] = 0;
      }
    if (pool)
      for (int i = r_.begin[side]; i < r_.end[side] && sp > 0; ++i)
        if (s.st[i] == rd::failed && i != r_.garrison) {
          const int held = std::min(sp, r_.units[static_cast<std::size_t>(i)].start_sp);
          s.sp[i] = static_cast<std::uint8_t>(held);
          sp -= held;
        }
    return s;
  }
  side_key key(const battle_state& s, int side, bool fold) const { return side_bytes(r_, folded(s, side, fold), side); }
  side_key key(const battle_state& s, int side) const { return key(s, side, true); }
  side_key hit_key(const battle_state& s, const rd::hit_counts& hits, int side) const {
    return hit_key(s, hits, side, true);
  }
  side_key hit_key(const battle_state& s, const rd::hit_counts& hits, int side, bool fold) const {
    const battle_state f = folded(s, side, fold);
    rd::hit_counts h = hits;
    for (int i = r_.begin[side]; i < r_.end[side]; ++i)
      if (f.st[i] == rd::out) h[i] = 0;  // (only the hits of units that check morale are read)
    return hit_bytes(r_, f, h, side);
  }

  std::uint32_t intern(side_table& t, const battle_state& full) {
    const battle_state s = folded(full, t.side, t.fold);
    const auto [at, fresh] = t.index.intern(side_bytes(r_, s, t.side).data());
    if (fresh) {
      if (t.state.size() >= o_.state_limit) throw state_limit_exceeded(o_.state_limit);
      t.state.push_back(s);
      const rd::side_sums sums = rd::sums_of(r_, s, t.side);
      t.sum.push_back(sums);
      const auto [lost, lost_after, alive_after] = losses(t.side, s, sums);
      t.lost.push_back(lost);
      t.lost_after.push_back(lost_after);
      t.alive_after.push_back(alive_after);
    }
    return at;
  }

  // SP lost; and where the side retreats, the SP lost and on the field once the garrison of a
  // retreating defender is eliminated (GL 4.17/4.26, rd::lose_garrison).
  std::array<int, 3> losses(int side, const battle_state& s, const rd::side_sums& sums) const {
    int lost = 0;
    for (int i = r_.begin[side]; i < r_.end[side]; ++i)
      lost += r_.units[static_cast<std::size_t>(i)].start_sp - s.sp[i];
    int lost_after = lost, alive_after = sums.alive_sp;
    if (side == rd::defender && r_.garrison >= 0) {
      const int g = r_.garrison, sp = s.sp[g];
      lost_after += sp;
      if (s.st[g] != rd::waiting) alive_after -= sp;
    }
    return {lost, lost_after, alive_after};
  }

  // The hit state of `side` taking `hits` (an allocation of hit_options) from the state s (the
  // side's units before them): found, or with `t`, made.
  std::uint32_t hit_state_of(side_table& t, const battle_state& s, const rd::hit_counts& option, side_table* make) {
    battle_state u = s;
    rd::hit_counts hits{};
    for (int i = r_.begin[t.side]; i < r_.end[t.side]; ++i) {
      u.sp[i] = static_cast<std::uint8_t>(u.sp[i] - option[i]);
      hits[i] = option[i];
    }
    if (!make) return t.hindex.at(hit_key(u, hits, t.side, t.fold).data());
    std::uint32_t checks = 0;
    rd::round_state w = rd::track(r_, u);
    w.sum[t.side] = rd::sums_of(r_, w.s, t.side, &hits, &checks);
    return intern_hit(t, w, hits, checks);
  }

  std::uint32_t intern_hit(side_table& t, const rd::round_state& w, const rd::hit_counts& hits, std::uint32_t checks) {
    const auto [h, fresh] = t.hindex.intern(hit_key(w.s, hits, t.side, t.fold).data());
    if (!fresh) return h;
    const rd::side_sums sums = t.fold ? rd::sums_of(r_, folded(w.s, t.side, true), t.side) : w.sum[t.side];
    t.hsum.push_back(sums);
    t.hstate.push_back(w.s);
    const auto [lost, lost_after, alive_after] = losses(t.side, w.s, sums);
    t.hlost.push_back(lost);
    t.hlost_after.push_back(lost_after);
    t.halive_after.push_back(alive_after);
    t.hroot.push_back(no_index);
    t.hleaf.push_back(no_index);
    if (sums.line_units == 0) return h;  // its line gone: a forced retreat (GL 12.3)
    if (checks == 0) {
      t.hleaf[h] = intern(t, w.s);
      return h;
    }
    tree_builder c;
    c.t = &t;
    c.tolerance = tol_;
    const auto root = static_cast<std::uint32_t>(t.lists.size());
    t.lists.emplace_back();
    rd::round_state u = w;
    auto next = [&](rd::round_state& after) { c.leaf(intern(t, after.s)); };
    rd::check_morale(r_, t.side, checks, u, hits, c, next);  // GL 11.24-11.27
    c.close(0, root);
    t.hroot[h] = root;
    t.tree_entries += t.lists[root].end - t.lists[root].begin;
    return h;
  }

  // `stop`: a flag that ends the listing early (list_all_sides' unfolded tables, once the folded
  // listing beside them has refused the battle).
  void build_side(side_table& t, int side, bool fold, const std::atomic<bool>* stop = nullptr) {
    begin_side(t, side, fold);
    for (std::size_t i = 0; i < t.state.size(); ++i) {
      if (stop && stop->load(std::memory_order_relaxed)) throw listing_stopped{};
      list_state(t, i);
    }
    end_side(t);
  }
  struct listing_stopped {};  // (dropped: the folded listing's refusal is the one reported)
  // A side's unfolded states and hit states mapped to their folded ones (the folded table listed).
  void map_unfolded(int side) {
    const side_table& u = unfolded(side);
    const side_table& f = side == rd::attacker ? att_ : def_;
    std::vector<std::uint32_t>& of = fold_of_[static_cast<std::size_t>(side)];
    std::vector<std::uint32_t>& hof = hit_fold_of_[static_cast<std::size_t>(side)];
    of.assign(u.state.size(), no_index);
    hof.assign(u.hsum.size(), no_index);
    for (std::size_t x = 0; x < u.state.size(); ++x) {
      const std::uint32_t fx = f.index.at(key(u.state[x], side, true).data());
      of[x] = fx;
      if (!valued(u, x)) continue;
      // Hits up to the line's SP are allocated alike folded or not (the folded state's alive SP is
      // its line's); past them the line is gone whichever units take them, and nothing is chosen.
      const std::uint32_t ub = u.hits_begin[x], fb = f.hits_begin[fx];
      for (std::uint32_t h = 0; h <= static_cast<std::uint32_t>(f.sum[fx].alive_sp); ++h) {
        const std::uint32_t uo = u.hit_begin[ub + h], fo = f.hit_begin[fb + h];
        const std::uint32_t n = u.hit_begin[ub + h + 1] - uo;
        if (n != f.hit_begin[fb + h + 1] - fo) throw std::logic_error("optimal play: folded options differ");
        for (std::uint32_t k = 0; k < n; ++k) hof[u.hit_option[uo + k]] = f.hit_option[fo + k];
      }
    }
  }
  // (Once every state is listed: the reinforcements' last bound.)
  void end_side(side_table& t) { t.enter_begin.push_back(static_cast<std::uint32_t>(t.enter.size())); }
  void begin_side(side_table& t, int side, bool fold) {
    t.side = side;
    t.fold = fold;
    t.index.reset(side_key_length(r_, side, false));
    t.hindex.reset(side_key_length(r_, side, true));
    battle_state start = rd::initial_state(r_);
    start.first_round = false;
    intern(t, start);
  }
  // State i's hit states (their morale trees) and reinforcements; the states they reach interned.
  void list_state(side_table& t, std::size_t i) {
    const int side = t.side;
    detail::throw_if_cancelled(o_);
    const battle_state s = t.state[i];
    const rd::round_state tracked = rd::track(r_, s);
    const rd::side_sums sums = tracked.sum[side];
    t.hits_begin.push_back(static_cast<std::uint32_t>(t.hit_begin.size()));
    if (sums.line_units > 0) {
      for (int h = 0; h <= sums.alive_sp; ++h) {
        t.hit_begin.push_back(static_cast<std::uint32_t>(t.hit_option.size()));
        if (h > 0 && r_.hit_allocation[side].kind == hit_allocation_kind::optimal && h < sums.line_sp) {
          for (const rd::hit_counts& option : rd::hit_options(r_, s, side, h))  // GL 11.23
            t.hit_option.push_back(hit_state_of(t, s, option, &t));
        } else {
          rd::round_state u = tracked;
          rd::hit_counts hits{};
          std::uint32_t checks = 0;
          if (h > 0) rd::allocate_hits(r_, u, hits, side, h, checks);
          t.hit_option.push_back(intern_hit(t, u, hits, checks));
        }
      }
      t.hit_begin.push_back(static_cast<std::uint32_t>(t.hit_option.size()));
    }
    t.enter_begin.push_back(static_cast<std::uint32_t>(t.enter.size()));
    if (sums.waiting > 0 && sums.line_units > 0) {  // GL 13.3
      detail::exact_chooser c;
      rd::round_state u = tracked;
      auto next = [&](rd::round_state& w) { t.enter.emplace_back(intern(t, w.s), c.weight); };
      rd::reinforce(r_, side, u, c, next);
    }
  }

  // The solve's tables, taken once the sides are listed: the values, the choices and each thread's
  // MD values for the largest column, checked before they are taken (the same count whichever
  // thread takes which column, and whether one or two do).
  void begin_solve() {
    as_ = order(att_);
    ds_ = order(def_);
    na_ = att_.state.size();
    nd_ = def_.state.size();
    // The attacker's allocation chosen for each pair and hit count with more than one (a row each).
    choice_row_.assign(att_.hit_begin.size(), no_index);
    std::size_t rows = 0;
    for (std::size_t j = 0; j + 1 < att_.hit_begin.size(); ++j)
      if (att_.hit_begin[j + 1] > att_.hit_begin[j] + 1) choice_row_[j] = static_cast<std::uint32_t>(rows++);
    const bool two = usable_threads(o_.threads) >= 2;
    std::size_t most_places = 0;
    for (const std::uint32_t d : ds_) {
      const std::uint32_t hb = def_.hits_begin[d];
      most_places = std::max<std::size_t>(
          most_places, def_.hit_begin[hb + static_cast<std::uint32_t>(def_.sum[d].alive_sp) + 1] - def_.hit_begin[hb]);
    }
    held_ = 2 * na_ * nd_ * sizeof(double) + rows * nd_ + att_.bytes() + def_.bytes() +
            (two ? 2 : 1) *
                (2 * most_places * na_ * sizeof(double) + att_.hsum.size() * (sizeof(double) + sizeof(std::uint32_t)));
    meter_.hold(held_ + unfolded_bytes_);
    att_choice_.assign(rows * nd_, 0);
    start_choice_.assign(static_cast<std::size_t>(r_.starting_sp[0]) + 1, 0);
    v_.assign(na_ * nd_, std::nan(""));
    post_.assign(na_ * nd_, std::nan(""));
    next_column_ = 0;
    solving_ = true;
  }

  // ---- MA(a', d') is the same in every column whose fire can leave d' (it reads the pairs after
  // d' 's checks, valued in lower columns): on the Niagara 5 v 4 `--play optimal` each was asked in
  // four columns, 3.4 in the 4 v 3, 2.9 in the 3 v 3. So each hit state d' (one hit or more) gets a
  // row of MA over every attacker hit state, made once before the first key group whose columns can
  // leave it and kept until the last such group is valued. Its slot is free for another after that
  // (the groups that use a hit state are known once the sides are listed: the slots are planned
  // then). Where the rows would pass the memory bound the columns work MA out each for itself.
  struct ma_rows {
    std::vector<std::uint32_t> group_of;           // by place in ds_: its key group
    std::vector<std::vector<std::uint32_t>> made;  // by key group: the hit states whose rows it makes
    std::vector<std::uint32_t> slot;               // by defender hit state: its slot (or no_index)
    std::size_t slots = 0, groups_made = 0;        // (groups_made: the groups whose rows are made)
    std::size_t largest_group = 0;                 // the most columns of one key group
    int most = 0;                                  // the most hits the attacker's fire scores
    std::vector<std::uint32_t> standing;           // the attacker hit states whose line stands
    std::vector<double> ma;                        // by (slot, attacker hit state): a column reads a few
    std::size_t counted = 0;                       // the bytes held for them (plan_rows)
  };
  // Counted as the plan over every column needs them (where the unfolded tables were listed beside,
  // the columns valued meanwhile need fewer: the count stays the same whichever thread took what).
  void plan_rows() {
    const std::uint32_t all = plan_slots(0);
    // (And the runs of the largest group, value_run's: each thread's least MA by hit count, and by
    // column of its run FA's rest and kept values, MA and MD at the unhit place.)
    const double ah = static_cast<double>(att_.hsum.size()), threads = usable_threads(o_.threads) >= 2 ? 2 : 1;
    const double run = static_cast<double>(rows_.largest_group);
    const double whole =
        (static_cast<double>(all) + threads * (rows_.most + 1)) * ah * sizeof(double) +
        run * (ah * (3 * sizeof(double) + sizeof(std::uint32_t)) + static_cast<double>(na_) * sizeof(double)) +
        static_cast<double>((ds_.size() + def_.hsum.size() + att_.hsum.size()) * sizeof(std::uint32_t));
    if (all == 0 || !meter_.fits(whole)) {
      rows_ = {};
      return;
    }
    // (Planned again only where some columns were valued meanwhile: the plan for the rest.)
    rows_.slots = next_column_ == 0 ? all : plan_slots(next_column_);
    rows_.ma.assign(rows_.slots * att_.hsum.size(), 0.0);
    rows_.counted = static_cast<std::size_t>(whole);
    held_ += rows_.counted;
    meter_.hold(held_ + unfolded_bytes_);
  }
  // The rows' slots for the columns from ds_[from] on (rows_ planned but not taken): their count.
  std::uint32_t plan_slots(std::size_t from) {
    rows_ = {};
    if (from >= ds_.size()) return 0;
    // The most hits the attacker's fire can score (round 1's dice too): no row past it is read.
    int most = 0;
    for (std::uint32_t a1 = 0; a1 < att_.hsum.size(); ++a1)
      if (att_.hsum[a1].line_units > 0) {
        rows_.standing.push_back(a1);
        for (const bool first : {false, true})
          most = std::max(most, rd::fire_dice(r_, att_.hsum[a1], rd::attacker, first));
      }
    rows_.most = most;
    const auto key_of = [&](std::uint32_t d) { return std::pair(def_.sum[d].waiting, def_.sum[d].line_sp); };
    std::vector<std::uint32_t> first(def_.hsum.size(), no_index), last(def_.hsum.size(), no_index);
    std::uint32_t groups = 0;
    std::size_t run = 0;
    rows_.group_of.assign(ds_.size(), 0);
    // (From the first column not valued yet: some may have been while the unfolded tables were
    // listed, without rows, list_all_sides.)
    for (std::size_t i = from; i < ds_.size(); ++i) {
      if (i > from && key_of(ds_[i]) != key_of(ds_[i - 1])) {
        ++groups;
        run = 0;
      }
      rows_.largest_group = std::max(rows_.largest_group, ++run);
      rows_.group_of[i] = groups;
      const std::uint32_t d = ds_[i], hb = def_.hits_begin[d];
      const auto top = static_cast<std::uint32_t>(std::min<int>(most, def_.sum[d].alive_sp));
      for (std::uint32_t j = def_.hit_begin[hb + 1]; j < def_.hit_begin[hb + top + 1]; ++j) {
        const std::uint32_t d1 = def_.hit_option[j];
        if (def_.hsum[d1].line_units == 0) continue;  // (its forced retreat: no MA)
        if (first[d1] == no_index) first[d1] = groups;
        last[d1] = groups;
      }
    }
    ++groups;
    // Slots as the groups go: a row's slot is free once its last group is valued.
    rows_.made.resize(groups);
    std::vector<std::vector<std::uint32_t>> ending(groups);
    for (std::uint32_t d1 = 0; d1 < def_.hsum.size(); ++d1)
      if (first[d1] != no_index) {
        rows_.made[first[d1]].push_back(d1);
        ending[last[d1]].push_back(d1);
      }
    rows_.slot.assign(def_.hsum.size(), no_index);
    std::vector<std::uint32_t> free;
    std::uint32_t slots = 0;
    for (std::uint32_t g = 0; g < groups; ++g) {
      for (const std::uint32_t d1 : rows_.made[g]) {
        if (free.empty()) free.push_back(slots++);
        rows_.slot[d1] = free.back();
        free.pop_back();
      }
      for (const std::uint32_t d1 : ending[g]) free.push_back(rows_.slot[d1]);
    }
    return slots;
  }

  // The rows group g makes, a block of hit states at a time (on two threads where `two`): MD of
  // every attacker state at the block's hit states as fill_column works it out, then each attacker
  // hit state's tree walked once over the block as ma_row walks it (the same sums, so the same
  // values as a column working them out).
  void make_rows(std::uint32_t g, bool two) {
    const std::vector<std::uint32_t>& made = rows_.made[g];
    constexpr std::size_t block = 64;
    const std::size_t blocks = (made.size() + block - 1) / block;
    std::atomic<std::size_t> next{0};
    std::atomic<bool> stop{false};
    auto take = [&](column_work& cw) {
      std::vector<double> md, by_state(na_), ma;
      for (std::size_t b = next.fetch_add(1); b < blocks && !stop.load(); b = next.fetch_add(1)) {
        detail::throw_if_cancelled(o_);
        const std::size_t from = b * block, n = std::min(block, made.size() - from);
        md.assign(na_ * n, 0.0);
        for (std::size_t i = 0; i < n; ++i) {
          const std::uint32_t d1 = made[from + i];
          std::fill(by_state.begin(), by_state.end(), 0.0);
          auto leaf = [&](std::uint32_t d2, double w, double* into) { leaf_vector(d2, w, into); };
          if (def_.hroot[d1] == no_index)
            leaf(def_.hleaf[d1], 1.0, by_state.data());
          else
            tree_over(def_, def_.hroot[d1], by_state.data(), 0, static_cast<std::uint32_t>(na_), 0, cw, leaf);
          for (std::uint32_t a2 = 0; a2 < na_; ++a2)
            md[a2 * n + i] = att_.sum[a2].line_units == 0 ? retreat_value(rd::attacker, true, a2, d1, false, true)
                                                          : by_state[a2];  // GL 12.3
        }
        const auto hi = static_cast<std::uint32_t>(n);
        auto leaf = [&](std::uint32_t a2, double w, double* out) {
          const double* m = md.data() + std::size_t{a2} * n;
          for (std::uint32_t i = 0; i < hi; ++i) out[i] += w * m[i];
        };
        for (std::uint32_t a1 = 0; a1 < att_.hsum.size(); ++a1) {
          if (att_.hsum[a1].line_units == 0) continue;
          ma.assign(n, 0.0);
          if (att_.hroot[a1] == no_index)
            leaf(att_.hleaf[a1], 1.0, ma.data());
          else
            tree_over(att_, att_.hroot[a1], ma.data(), 0, hi, 0, cw, leaf);
          for (std::size_t i = 0; i < n; ++i) rows_.ma[rows_.slot[made[from + i]] * att_.hsum.size() + a1] = ma[i];
        }
      }
    };
    if (two && blocks >= 2)
      side_by_side([&] { take(columns_[0]); }, [&] { take(columns_[1]); }, &stop);
    else
      take(columns_[0]);
  }
  // For every attacker hit state at once, the open column's FA but for the fire that scores nothing
  // (cw.rest): the defender's least MA over its allocations of each hit count the attacker's fire
  // can score, along its places' rows (by attacker hit state), each place's in the order and by the
  // tie rule attacker_fire's walk takes, then summed over the hits in attacker_fire's order.
  void place_rows(column_work& cw, std::vector<double>& least, std::vector<double>& best_row) const {
    const std::uint32_t d = cw.column, hb = def_.hits_begin[d];
    const std::size_t n = att_.hsum.size();
    const auto hits = static_cast<std::uint32_t>(std::min<int>(rows_.most, def_.sum[d].alive_sp));
    least.resize(n * hits);
    best_row.resize(n);
    double* best = best_row.data();
    for (std::uint32_t k = 1; k <= hits; ++k) {
      const std::uint32_t b = def_.hit_begin[hb + k] - cw.first, e = def_.hit_begin[hb + k + 1] - cw.first;
      for (std::uint32_t j = b; j < e; ++j) {
        if (cw.standing[j]) {
          const double* row = rows_.ma.data() + std::size_t{rows_.slot[def_.hit_option[cw.first + j]]} * n;
          if (j == b)
            std::copy(row, row + n, best);
          else
            for (std::size_t a1 = 0; a1 < n; ++a1) best[a1] = row[a1] < best[a1] - tol_ ? row[a1] : best[a1];
          continue;
        }
        const std::uint32_t d1 = def_.hit_option[cw.first + j];
        for (const std::uint32_t a1 : rows_.standing) {
          const double v = retreat_value(rd::defender, true, a1, d1, true, true);  // GL 12.3
          if (j == b || v < best[a1] - tol_) best[a1] = v;
        }
      }
      for (std::size_t a1 = 0; a1 < n; ++a1) least[a1 * hits + k - 1] = best[a1];
    }
    // FA but for the fire that scores nothing, in attacker_fire's order of hits.
    cw.rest.assign(n, 0.0);
    const int cap = def_.sum[d].alive_sp;
    for (const std::uint32_t a1 : rows_.standing) {
      const double* l = least.data() + std::size_t{a1} * hits;
      double sum = 0;
      capped_fire(rd::fire_dice(r_, att_.hsum[a1], rd::attacker, false), cap, 1.0, [&](int k, double p) {
        if (k > 0) sum += p * l[k - 1];
      });
      cw.rest[a1] = sum;
    }
  }

  // The columns [cols, cols + m) of one key group valued in lockstep: each attacker state (in the
  // order) in every column before the next, so that every attacker state below it is valued in
  // every column; MA at the unhit place is then worked out for the whole run in one walk of an
  // attacker hit state's tree (unhit_ma), where a column at a time walked it once a column.
  void value_run(const std::uint32_t* cols, std::size_t m, lockstep_run& w) {
    w.size = m;
    if (w.columns.size() < m) w.columns.resize(m);
    for (std::size_t i = 0; i < m; ++i) {
      detail::throw_if_cancelled(o_);
      column_work& cw = w.columns[i];
      cw.column = no_index;
      open_column(cols[i], cw, false);
      place_rows(cw, w.least, w.best);
      cw.run = &w;
      cw.run_index = i;
    }
    w.md0.assign(na_ * m, 0.0);
    for (std::uint32_t a2 = 0; a2 < na_; ++a2)
      if (att_.sum[a2].line_units == 0)
        for (std::size_t i = 0; i < m; ++i) w.md0[a2 * m + i] = md_place(a2, 0, w.columns[i]);
    w.ma0.resize(att_.hsum.size() * m);
    w.ma0_done.assign(att_.hsum.size(), 0);
    for (const std::uint32_t a : as_) {
      for (std::size_t i = 0; i < m; ++i) {
        const std::uint32_t d = cols[i];
        if (!stalemate(a, d)) {
          v_[a * nd_ + d] = solve_pair(a, d, w.columns[i]);
          if (++pairs_ > o_.state_limit) throw state_limit_exceeded(o_.state_limit);
        }
        post_[std::size_t{d} * na_ + a] = retreats(a, d, no_index, no_index, 0.0).first;
      }
      for (std::size_t i = 0; i < m; ++i) w.md0[a * m + i] = md_place(a, 0, w.columns[i]);
    }
    for (std::size_t i = 0; i < m; ++i) w.columns[i].run = nullptr;
  }
  // MA of attacker hit state a1 at the unhit place of every column of cw's run.
  const double* unhit_ma(std::uint32_t a1, const column_work& cw) const {
    lockstep_run& w = *cw.run;
    const std::size_t m = w.size;
    double* out = w.ma0.data() + std::size_t{a1} * m;
    if (!w.ma0_done[a1]) {
      std::fill(out, out + m, 0.0);
      const auto hi = static_cast<std::uint32_t>(m);
      auto leaf = [&](std::uint32_t a2, double wt, double* into) {
        const double* r = w.md0.data() + std::size_t{a2} * m;
        for (std::uint32_t i = 0; i < hi; ++i) into[i] += wt * r[i];
      };
      if (att_.hroot[a1] == no_index)
        leaf(att_.hleaf[a1], 1.0, out);
      else
        tree_over(att_, att_.hroot[a1], out, 0, hi, 0, w.scratch, leaf);
      w.ma0_done[a1] = 1;
    }
    return out;
  }

  // The columns from next_column_ on. A round lowers the defender's key (units waiting, then line
  // SP) or leaves the defender as it was, so the columns of one key read only columns of lower keys:
  // a key's columns at a time, shared out between two threads where `two`. On one thread, `until`
  // (where given) stops it before a column once set, to be taken up from there.
  void value_columns(bool two, const std::atomic<bool>* until) {
    const auto key_of = [&](std::uint32_t d) { return std::pair(def_.sum[d].waiting, def_.sum[d].line_sp); };
    while (next_column_ < ds_.size()) {
      const std::size_t from = next_column_;
      std::size_t to = from + 1;
      while (to < ds_.size() && key_of(ds_[to]) == key_of(ds_[from])) ++to;
      if (rows_.slots > 0 && rows_.group_of[from] >= rows_.groups_made) {
        make_rows(rows_.group_of[from], two);
        rows_.groups_made = rows_.group_of[from] + 1;
      }
      if (rows_.slots > 0) {
        // (Two runs side by side, each half the group's columns.)
        const std::size_t m = to - from, half = two && m >= 2 ? m / 2 : m;
        if (half == m) {
          value_run(ds_.data() + from, m, runs_[0]);
        } else {
          std::atomic<bool> stop{false};
          side_by_side([&] { value_run(ds_.data() + from, half, runs_[0]); },
                       [&] { value_run(ds_.data() + from + half, m - half, runs_[1]); }, &stop);
        }
        next_column_ = to;
      } else if (!two || to - from < 2) {
        for (; next_column_ < to; ++next_column_) {
          if (until && until->load()) return;
          value_column(ds_[next_column_], columns_[0]);
        }
      } else {
        std::atomic<std::size_t> next{from};
        std::atomic<bool> stop{false};
        auto take = [&](column_work& cw) {
          for (std::size_t i = next.fetch_add(1); i < to && !stop.load(); i = next.fetch_add(1))
            value_column(ds_[i], cw);
        };
        side_by_side([&] { take(columns_[0]); }, [&] { take(columns_[1]); }, &stop);
        next_column_ = to;
      }
    }
  }

  void value_column(std::uint32_t d, column_work& cw) {
    detail::throw_if_cancelled(o_);
    open_column(d, cw);
    fill_column(cw);
    for (const std::uint32_t a : as_) {
      if (!stalemate(a, d)) {
        v_[a * nd_ + d] = solve_pair(a, d, cw);
        if (++pairs_ > o_.state_limit) throw state_limit_exceeded(o_.state_limit);
      }
      // (What R reads is solved: V(a, d) itself, the pairs reinforcement reaches, lower in the order.)
      post_[std::size_t{d} * na_ + a] = retreats(a, d, no_index, no_index, 0.0).first;
    }
  }

  bool stalemate(std::uint32_t a, std::uint32_t d) const {
    return rd::is_stalemate(r_, std::array<rd::side_sums, 2>{att_.sum[a], def_.sum[d]});
  }
  double stalemate_payoff(std::uint32_t a, std::uint32_t d) const {
    if (g_.goal == objective::win) return 0.0;
    return -att_.lost[a] + def_.lost[d];
  }

  // Retreat fire's outcomes capped at the SP on the field: (their total, mean hits).
  // (All the battle's are worked out with the game, so the chains read them from any thread.)
  std::array<double, 2> moments(int dice, int sp) const {
    const int most_sp = std::max(r_.starting_sp[0], r_.starting_sp[1]);
    if (dice <= moments_dice_ && sp <= most_sp) return moments_[static_cast<std::size_t>(dice * (most_sp + 1) + sp)];
    return fire_moments(dice, sp);
  }
  std::array<double, 2> fire_moments(int dice, int sp) const {
    std::array<double, 2> m{0.0, 0.0};
    detail::exact_chooser c;
    c.binomial_capped(dice, r_.retreat_fire_faces, sp, [&](int h) {
      m[0] += c.weight;
      m[1] += c.weight * h;
    });
    return m;
  }

  // GL 12.2-12.3 with RULINGS (optimal/payoff.hpp's retreat_payoff): the payoff to the attacker of
  // `side` retreating, its fire (forced: the other side's line dice; voluntary: a die per line
  // unit) taking min(hits, SP on the field) SP; a and d are hit states where a_hit / d_hit.
  double retreat_value(int side, bool forced, std::uint32_t a, std::uint32_t d, bool a_hit, bool d_hit) const {
    const double win = side == rd::defender ? 1.0 : 0.0;
    if (g_.goal == objective::win) return win;
    const side_table& me = side == rd::attacker ? att_ : def_;
    const std::uint32_t x = side == rd::attacker ? a : d;
    const bool x_hit = side == rd::attacker ? a_hit : d_hit;
    int lost_a = a_hit ? att_.hlost[a] : att_.lost[a];
    int lost_d = d_hit ? def_.hlost[d] : def_.lost[d];
    int& lost = side == rd::attacker ? lost_a : lost_d;
    lost = x_hit ? me.hlost_after[x] : me.lost_after[x];
    const int alive = x_hit ? me.halive_after[x] : me.alive_after[x];
    if (!r_.route[side]) {
      lost += alive;  // every retreating unit eliminated
      return g_.win_value * win - lost_a + lost_d;
    }
    const rd::side_sums& other =
        side == rd::attacker ? (d_hit ? def_.hsum[d] : def_.sum[d]) : (a_hit ? att_.hsum[a] : att_.sum[a]);
    const std::array<double, 2> m = moments(forced ? other.line_dice : other.line_units, alive);
    const double base = g_.win_value * win - lost_a + lost_d;
    return base * m[0] + (side == rd::defender ? m[1] : -m[1]);
  }

  bool decides_retreat(int side) const {
    return g_.goal == objective::value && r_.policy[side].kind == retreat_kind::optimal;
  }

  // R(a, d) at a post-morale pair of valued states, as solve() worked it out.
  double post_morale(std::uint32_t a, std::uint32_t d) const { return post_[std::size_t{d} * na_ + a]; }

  // R's parts at the post-morale pair (a, d), as (sum, loop): the self-loop (self_a, self_d)
  // counted in loop. The round goes on: the defender's reinforcement, then the attacker's.
  std::pair<double, double> go_on(std::uint32_t a, std::uint32_t d, std::uint32_t self_a, std::uint32_t self_d) const {
    double sum = 0, loop = 0;
    const std::uint32_t db = def_.enter_begin[d], de = def_.enter_begin[d + 1];
    const std::uint32_t ab = att_.enter_begin[a], ae = att_.enter_begin[a + 1];
    auto add = [&](std::uint32_t a3, std::uint32_t d3, double w) {
      if (stalemate(a3, d3))
        sum += w * stalemate_payoff(a3, d3);
      else if (a3 == self_a && d3 == self_d)
        loop += w;
      else
        sum += w * v_[a3 * nd_ + d3];
    };
    auto attackers = [&](std::uint32_t d3, double w) {
      if (ab == ae) return add(a, d3, w);
      for (std::uint32_t j = ab; j < ae; ++j) add(att_.enter[j].first, d3, w * att_.enter[j].second);
    };
    if (db == de) {
      attackers(d, 1.0);
    } else {
      for (std::uint32_t j = db; j < de; ++j) attackers(def_.enter[j].first, def_.enter[j].second);
    }
    return {sum, loop};
  }

  // The defender's voluntary retreat (GL 12.2, step 4), then go_on; choices made at self-loop
  // value x.
  std::pair<double, double> defender_retreats(std::uint32_t a, std::uint32_t d, std::uint32_t sa, std::uint32_t sd,
                                              double x) const {
    if (decides_retreat(rd::defender)) {
      const std::pair<double, double> on = go_on(a, d, sa, sd);
      const double back = retreat_value(rd::defender, false, a, d, false, false);
      return back < on.first + on.second * x - tol_ ? std::pair(back, 0.0) : on;
    }
    if (rd::wants_retreat(r_, std::array<rd::side_sums, 2>{att_.sum[a], def_.sum[d]}, rd::defender))
      return {retreat_value(rd::defender, false, a, d, false, false), 0.0};
    return go_on(a, d, sa, sd);
  }

  // R(a, d): the attacker's voluntary retreat, then the defender's, then go_on.
  std::pair<double, double> retreats(std::uint32_t a, std::uint32_t d, std::uint32_t sa, std::uint32_t sd,
                                     double x) const {
    if (decides_retreat(rd::attacker)) {
      const std::pair<double, double> on = defender_retreats(a, d, sa, sd, x);
      const double back = retreat_value(rd::attacker, false, a, d, false, false);
      return back > on.first + on.second * x + tol_ ? std::pair(back, 0.0) : on;
    }
    if (rd::wants_retreat(r_, std::array<rd::side_sums, 2>{att_.sum[a], def_.sum[d]}, rd::attacker))
      return {retreat_value(rd::attacker, false, a, d, false, false), 0.0};
    return defender_retreats(a, d, sa, sd, x);
  }

  template <class Leaf>
  double tree_list(const side_table& t, std::uint32_t at, Leaf& leaf) const {
    const side_table::list l = t.lists[at];
    double s = 0;
    for (std::uint32_t e = l.begin; e < l.end; ++e) {
      const side_table::entry& en = t.entries[e];
      if (!en.choice) {
        s += en.w * leaf(en.to);
        continue;
      }
      const side_table::node n = t.nodes[en.to];
      double best = 0;
      for (std::uint32_t k = 0; k < n.options; ++k) {
        const double v = tree_list(t, n.first + k, leaf);
        if (k == 0 || (t.side == rd::attacker ? v > best + n.margin : v < best - n.margin)) best = v;
      }
      s += best;
    }
    return s;
  }

  // The column d's MD values, kept by attacker state and hit state.
  // (`md`: room for its MD rows; a lockstep run's columns read the rows of MA instead.)
  void open_column(std::uint32_t d, column_work& cw, bool md = true) const {
    if (cw.column == d) return;
    cw.column = d;
    const std::uint32_t hb = def_.hits_begin[d];
    const std::uint32_t first = def_.hit_begin[hb];
    const std::uint32_t last = def_.hit_begin[hb + static_cast<std::uint32_t>(def_.sum[d].alive_sp) + 1];
    cw.first = first;
    const std::size_t n = last - first;
    cw.places = n;
    if (md) {
      if (cw.md.size() < n * na_) cw.md.resize(n * na_);  // (read only where cw.done says it is worked out)
      cw.done.assign(na_, {0, 0});
    }
    cw.standing.resize(n);
    for (std::size_t j = 0; j < n; ++j) cw.standing[j] = def_.hsum[def_.hit_option[first + j]].line_units > 0;
  }

  // MD of every attacker state at every place of the open column but the first at once, where the
  // game values it (it asks for nearly all of them: 94% on the Niagara 3 v 3 with --play optimal): a
  // place's defender tree walked once, R of every attacker state along it (post_ is by defender
  // state), then laid out by attacker state as md_row keeps them. The sums and choices in
  // tree_list's order, so every value is the one md_place gives. Place 0 (the defender unhit) reads
  // R of the column's own pairs, worked out as the column is valued: md_row works it out when asked.
  void fill_column(column_work& cw) const {
    const std::size_t n = cw.places;
    if (n < 2) return;
    cw.by_place.assign(n * na_, 0.0);
    for (std::uint32_t j = 1; j < n; ++j) {
      if (!cw.standing[j]) continue;
      const std::uint32_t d1 = def_.hit_option[cw.first + j];
      double* out = cw.by_place.data() + j * na_;
      auto leaf = [&](std::uint32_t d2, double w, double* into) { leaf_vector(d2, w, into); };
      if (def_.hroot[d1] == no_index)
        leaf(def_.hleaf[d1], 1.0, out);
      else
        tree_over(def_, def_.hroot[d1], out, 0, static_cast<std::uint32_t>(na_), 0, cw, leaf);
      for (std::uint32_t a2 = 0; a2 < na_; ++a2)
        if (att_.sum[a2].line_units == 0) out[a2] = retreat_value(rd::attacker, true, a2, d1, false, true);  // GL 12.3
    }
    for (std::size_t a2 = 0; a2 < na_; ++a2) {
      double* row = cw.md.data() + a2 * n;
      for (std::size_t j = 1; j < n; ++j) row[j] = cw.by_place[j * na_ + a2];
    }
    cw.done.assign(na_, {1, static_cast<std::uint32_t>(n)});
  }
  void leaf_vector(std::uint32_t d2, double w, double* out) const {
    if (def_.sum[d2].line_units == 0) {
      for (std::uint32_t a2 = 0; a2 < na_; ++a2) out[a2] += w * retreat_value(rd::defender, true, a2, d2, false, false);
      return;
    }
    const double* r = post_.data() + std::size_t{d2} * na_;
    for (std::size_t a2 = 0; a2 < na_; ++a2) out[a2] += w * r[a2];
  }
  // MD(a2, d1) for the hit states d1 at places [lo, hi) of the open column (where a2's line is gone,
  // its forced retreat): a2's row of cw.md, its places worked out once each (the standing ones; 0
  // where the defender's line is gone, never read), so leaf_row's sums run along it without a check
  // per place.
  const double* md_row(std::uint32_t a2, std::uint32_t lo, std::uint32_t hi, column_work& cw) const {
    double* row = cw.md.data() + std::size_t{a2} * cw.places;
    std::pair<std::uint32_t, std::uint32_t>& done = cw.done[a2];
    // (Places already worked out, nearly every leaf of ma_row's walks: the row at once, inlined
    // there; working the rest out stays apart.)
    if (done.first <= lo && hi <= done.second && done.first < done.second) [[likely]]
      return row;
    return md_row_worked_out(a2, lo, hi, row, done, cw);
  }
  [[gnu::noinline]] const double* md_row_worked_out(std::uint32_t a2, std::uint32_t lo, std::uint32_t hi, double* row,
                                                    std::pair<std::uint32_t, std::uint32_t>& done,
                                                    column_work& cw) const {
    if (done.first == done.second) done = {lo, lo};
    // (What is done stays one range: a range asked apart from it is worked out with the places
    // between. The game asks ranges from place 0 or 1; the chains, a defender row's places.)
    for (std::uint32_t j = lo; j < done.first; ++j) row[j] = md_place(a2, j, cw);
    for (std::uint32_t j = done.second; j < hi; ++j) row[j] = md_place(a2, j, cw);
    done = {std::min(lo, done.first), std::max(hi, done.second)};
    return row;
  }
  double md_place(std::uint32_t a2, std::uint32_t j, column_work& cw) const {
    if (!cw.standing[j]) return 0.0;
    const std::uint32_t d1 = def_.hit_option[cw.first + j];
    if (att_.sum[a2].line_units == 0) return retreat_value(rd::attacker, true, a2, d1, false, true);  // GL 12.3
    auto leaf = [&](std::uint32_t d2) {
      if (def_.sum[d2].line_units == 0) return retreat_value(rd::defender, true, a2, d2, false, false);
      return post_morale(a2, d2);
    };
    return def_.hroot[d1] == no_index ? leaf(def_.hleaf[d1]) : tree_list(def_, def_.hroot[d1], leaf);
  }

  // MA(a1, d1) for every hit state d1 at places [lo, hi) of the open column whose line stands, by one
  // walk of a1's tree (each place's sum made in the tree's order): into cw.ma (by place).
  void ma_row(std::uint32_t a1, std::uint32_t lo, std::uint32_t hi, column_work& cw) const {
    cw.ma.assign(hi, 0.0);
    auto leaf = [&](std::uint32_t a2, double w, double* out) { leaf_row(a2, w, out, lo, hi, cw); };
    if (att_.hroot[a1] == no_index)
      leaf(att_.hleaf[a1], 1.0, cw.ma.data());
    else
      tree_over(att_, att_.hroot[a1], cw.ma.data(), lo, hi, 0, cw, leaf);
  }
  void leaf_row(std::uint32_t a2, double w, double* out, std::uint32_t lo, std::uint32_t hi, column_work& cw) const {
    const double* md = md_row(a2, lo, hi, cw);
    for (std::uint32_t j = lo; j < hi; ++j) out[j] += w * md[j];
  }
  // A morale tree of table t walked once for values at [lo, hi) at once (MA over the places, MD over
  // the attacker states): each leaf adds its chance times its values (leaf(state, w, out)), each
  // reroll choice takes the side's best place by place, by tree_list's rule and in its order of sums.
  template <class Leaf>
  void tree_over(const side_table& t, std::uint32_t at, double* out, std::uint32_t lo, std::uint32_t hi,
                 std::size_t depth, column_work& cw, const Leaf& leaf) const {
    const side_table::list l = t.lists[at];
    for (std::uint32_t e = l.begin; e < l.end; ++e) {
      const side_table::entry& en = t.entries[e];
      if (!en.choice) {
        leaf(en.to, en.w, out);
        continue;
      }
      const side_table::node n = t.nodes[en.to];
      if (cw.scratch.size() <= depth) cw.scratch.resize(depth + 1);
      if (cw.scratch[depth].size() < 2 * std::size_t{hi}) cw.scratch[depth].resize(2 * std::size_t{hi});
      double* best = cw.scratch[depth].data();
      double* v = best + hi;
      // (Only [lo, hi) is summed and read; each place's choice a select, not a branch, so that the
      // loops run in vector lanes: the same comparisons, so the same values.)
      for (std::uint32_t k = 0; k < n.options; ++k) {
        double* into = k == 0 ? best : v;
        std::fill(into + lo, into + hi, 0.0);
        tree_over(t, n.first + k, into, lo, hi, depth + 1, cw, leaf);
        if (k == 0) continue;
        const double m = n.margin;
        if (t.side == rd::attacker) {
          for (std::uint32_t j = lo; j < hi; ++j) best[j] = v[j] > best[j] + m ? v[j] : best[j];
        } else {
          for (std::uint32_t j = lo; j < hi; ++j) best[j] = v[j] < best[j] - m ? v[j] : best[j];
        }
      }
      for (std::uint32_t j = lo; j < hi; ++j) out[j] += best[j];
    }
  }

  // MD(a2, d1) for the hit state d1 at `place` of the column cw holds (an outcome chain's, round 1's).
  double md_at(std::uint32_t a2, std::uint32_t place, column_work& cw) const {
    return md_row(a2, place, place + 1, cw)[place];
  }

  // FA(a1, d) (the open column's d); skip_unhit: leave out the fire that scores nothing. Kept by
  // hit state for the column (round 1's dice and the self-loop's part aside): what it reads (MD of
  // hit states the fire leaves, R of pairs lower in the order, or of the column's attacker states
  // below a1's) is worked out before any pair that reaches a1 and does not change.
  double attacker_fire(std::uint32_t a1, std::uint32_t d, bool first, bool skip_unhit, column_work& cw) {
    const bool kept = !first && !skip_unhit;
    if (kept) {
      if (cw.fa_column.size() != att_.hsum.size()) {
        cw.fa_column.assign(att_.hsum.size(), no_index);
        cw.fa.resize(att_.hsum.size());
      }
      if (cw.fa_column[a1] == d) return cw.fa[a1];
    }
    const int dice = rd::fire_dice(r_, att_.hsum[a1], rd::attacker, first);
    const int cap = def_.sum[d].alive_sp;
    const std::uint32_t hb = def_.hits_begin[d];
    // MA of a1 against each hit state the fire can leave (its hits up to the dice or the cap).
    const auto most = static_cast<std::uint32_t>(std::min(dice, cap));
    const std::uint32_t lo = def_.hit_begin[hb + (skip_unhit ? 1 : 0)] - cw.first;
    const std::uint32_t hi = def_.hit_begin[hb + most + 1] - cw.first;
    double sum = 0;
    if (cw.run && !first) {
      // The rest of the fire is the column's (place_rows); the fire that scores nothing leaves the
      // defender unhit, whose MA reads the column's own pairs: the run's (unhit_ma).
      sum = cw.rest[a1];
      if (!skip_unhit) sum = shared_binomial_tables().pmf_row(1, dice)[0] * unhit_ma(a1, cw)[cw.run_index] + sum;
      if (kept) {
        cw.fa_column[a1] = d;
        cw.fa[a1] = sum;
      }
      return sum;
    }
    ma_row(a1, lo, hi, cw);
    // (The fire that scores nothing added last, as a lockstep run adds it to the rest.)
    double unhit = 0;
    capped_fire(dice, cap, 1.0, [&](int k, double p) {
      if (skip_unhit && k == 0) return;
      const std::uint32_t b = def_.hit_begin[hb + static_cast<std::uint32_t>(k)];
      const std::uint32_t e = def_.hit_begin[hb + static_cast<std::uint32_t>(k) + 1];
      double best = 0;
      for (std::uint32_t j = b; j < e; ++j) {
        const double v = cw.standing[j - cw.first]
                             ? cw.ma[j - cw.first]
                             : retreat_value(rd::defender, true, a1, def_.hit_option[j], true, true);  // GL 12.3
        if (j == b || v < best - tol_) best = v;
      }
      (k == 0 ? unhit : sum) += p * best;
    });
    sum = unhit + sum;
    if (kept) {
      cw.fa_column[a1] = d;
      cw.fa[a1] = sum;
    }
    return sum;
  }

  // The round from (a, d) (the open column's), the self-loop left out where skip_self.
  double round_value(std::uint32_t a, std::uint32_t d, bool first, bool skip_self, column_work& cw) {
    const int dice = rd::fire_dice(r_, def_.sum[d], rd::defender, false);
    const int cap = att_.sum[a].alive_sp;
    const std::uint32_t hb = att_.hits_begin[a];
    double sum = 0;
    capped_fire(dice, cap, 1.0, [&](int h, double p) {
      const std::uint32_t b = att_.hit_begin[hb + static_cast<std::uint32_t>(h)];
      const std::uint32_t e = att_.hit_begin[hb + static_cast<std::uint32_t>(h) + 1];
      double best = 0;
      std::uint32_t taken = 0;
      for (std::uint32_t j = b; j < e; ++j) {
        const std::uint32_t a1 = att_.hit_option[j];
        const double v = att_.hsum[a1].line_units == 0 ? retreat_value(rd::attacker, true, a1, d, true, false)
                                                       : attacker_fire(a1, d, first, skip_self && h == 0, cw);
        if (j == b || v > best + tol_) {
          best = v;
          taken = j - b;
        }
      }
      if (e - b > 1) {  // kept for the chain's play (choose)
        if (first)
          start_choice_[static_cast<std::size_t>(h)] = static_cast<std::uint8_t>(taken);
        else
          att_choice_[choice_row_[hb + static_cast<std::uint32_t>(h)] * nd_ + d] = static_cast<std::uint8_t>(taken);
      }
      sum += p * best;
    });
    return sum;
  }

  // V(a, d): the round's value with the self-loop (both fires miss, nobody enters) solved as the
  // stationary choice: V = C + q R(V), C the rest of the round, q the chance that both miss, R the
  // retreats and reinforcement at (a, d) itself (piecewise affine in V, increasing, slope < 1).
  double solve_pair(std::uint32_t a, std::uint32_t d, column_work& cw) {
    const double c = round_value(a, d, false, true, cw);
    const int ddice = rd::fire_dice(r_, def_.sum[d], rd::defender, false);
    const int adice = rd::fire_dice(r_, att_.sum[a], rd::attacker, false);
    // (Neither fire capped at 0 hits: both lines stand.)
    const double q = shared_binomial_tables().pmf_row(1, ddice)[0] * shared_binomial_tables().pmf_row(1, adice)[0];
    if (q == 0.0) return c;
    auto g = [&](double x) {
      const std::pair<double, double> r = retreats(a, d, a, d, x);
      return std::pair(c + q * r.first, q * r.second);
    };
    // The full-state game's Newton steps (solve_state).
    const bool saw_loop = go_on(a, d, a, d).second > 0;
    double lo = lo_, hi = hi_, x = lo_;
    for (int step = 0; step < 200; ++step) {
      const auto [sum, loop] = g(x);
      if (loop >= 1.0) return x;
      const double fixed = sum / (1.0 - loop);
      if (!saw_loop || std::abs(fixed - x) <= 1e-14 * scale_) return fixed;
      if (sum + loop * x > x)
        lo = x;
      else
        hi = x;
      x = fixed > lo && fixed < hi ? fixed : 0.5 * (lo + hi);
      if (hi - lo <= 1e-15 * scale_) return x;
    }
    return x;
  }

  // The value of the rest of the round once `side`'s morale checks end in s, `other` being the
  // defender's hit state (the attacker's checks) or the attacker's state after its checks (the
  // defender's): the chain's look-ahead at a reroll.
  double after_morale(int side, const battle_state& s, std::uint32_t other, chain_memos& memos) const {
    if (side == rd::attacker) {
      const std::uint32_t a2 = att_.index.at(key(s, rd::attacker).data());
      const column_work& cw = memos.md;
      for (std::uint32_t j = 0; j < cw.places; ++j)
        if (def_.hit_option[cw.first + j] == other) return md_at(a2, j, memos.md);
      throw std::logic_error("optimal play: a hit state not of its column");
    }
    const std::uint32_t d2 = def_.index.at(key(s, rd::defender).data());
    if (def_.sum[d2].line_units == 0) return retreat_value(rd::defender, true, other, d2, false, false);
    return post_morale(other, d2);
  }

  battle_rules r_;
  game_options g_;
  exact_options o_;
  std::array<bool, 2> decides_;  // by side: some choice of its own (plays_optimally)
  double lo_ = 0, hi_ = 1, scale_ = 1, tol_ = 0, work_ = 0, start_value_ = 0;
  side_table att_, def_;
  side_table uatt_, udef_;                                           // the outcome chains' unfolded tables
  std::array<std::vector<std::uint32_t>, 2> fold_of_, hit_fold_of_;  // by unfolded state / hit state
  std::size_t na_ = 0, nd_ = 0, held_ = 0, unfolded_bytes_ = 0;      // (held_: the side tables, then the solve's too)
  std::atomic<std::size_t> pairs_{0};
  memory_meter meter_{o_.memory_limit};  // (core/memory_meter.hpp: the game's tables, values and MD columns)
  std::vector<double> v_;
  std::vector<double> post_;  // R(a, d) by (d, a), worked out once V(a, d) is: every hit state's checks read it
  std::vector<std::uint32_t> choice_row_;   // by (attacker state, hits): its row of att_choice_, or no_index
  std::vector<std::uint8_t> att_choice_;    // by (row, defender state): the allocation taken
  std::vector<std::uint8_t> start_choice_;  // round 1's, by hits, where crossing attackers lose a die (GL 11.22)
  std::unordered_map<std::string, int> reroll_choice_;  // round 1's reroll choices (choose), as worked out
  chain_memos memos_;                                   // round 1's choices (choose), before any chain plays
  std::vector<std::uint32_t> as_, ds_;                  // the valued states in the topological order (the solve's)
  std::size_t next_column_ = 0;                         // ds_'s first column not valued yet
  bool solving_ = false;                                // (begin_solve has taken the solve's tables)
  std::array<column_work, 2> columns_;                  // by thread
  ma_rows rows_;                                        // (while the pairs are valued)
  std::array<lockstep_run, 2> runs_;                    // by thread, with the rows
  std::size_t kept_rows_ = 0;                           // the bytes they were counted, once valued
  int moments_dice_ = 0;
  std::vector<std::array<double, 2>> moments_;
};

}  // namespace
}  // namespace musket::great_lakes::optimal
