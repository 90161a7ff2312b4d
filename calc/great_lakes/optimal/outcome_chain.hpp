#pragma once
// Internal linkage: included by optimal/pair_values.cpp alone.
#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <deque>
#include <stdexcept>
#include <utility>
#include <vector>

#include "calc/great_lakes/optimal/pair_game.hpp"
#include "calc/great_lakes/outcome.hpp"
#include "core/binomial_table.hpp"
#include "core/markov_chain.hpp"
#include "core/memory_meter.hpp"
#include "core/shared_bound.hpp"
#include "core/step_tally.hpp"

namespace musket::great_lakes::optimal {
namespace {

// The outcome chain: the battle played forward under the solved choices over pairs of side states
// (each side's folded states, the game's own, or its unfolded ones: optimal/pair_values.cpp plays
// three chains), each pair taken once in a topological order (a round lowers a line's SP or lets a
// unit enter, or leaves the pair as it was: the defender's states by units waiting, then line SP,
// most first, a column; the attacker's the same way within it), so all the mass that will reach a
// pair has arrived when it is taken: its expected visits are that mass over 1 - its self-loop, and
// its rounds' occupancy is tallied by step (core/step_tally.hpp). What a finished battle reports is
// a sum of each side's part (outcome.hpp's add_side_terminal), so the ends are summed by side entry,
// and a retreat by the retreating side's entry and the fire it takes, each played once at the end.
// The folded states of a side play alike (the same options, the same trees, the same choices), so
// the battle over one side's unfolded states and the other's folded ones is the battle over the
// unfolded pairs lumped, and sums that side's part as that battle would; so each side's part is
// summed, and the rounds a battle lasts, which do not depend on what is left of the units that
// left the line, are tallied over the folded pairs. The pairs that fold to one folded pair have
// its keys, so they are taken together, a folded defender state (a column of the game) at a time:
// the choices a chain works out for a column (its chain_memos) are looked up while they are warm,
// and forgotten once it is done. A chain reads the solved game and writes only its own memos and
// sums, so chains play side by side on two threads.
class outcome_chain {
 public:
  // `documented`: the side whose part of every finished battle the chain sums, its pairs holding
  // that side's unfolded states and the other's folded ones (the chain documenting the attacker
  // also counts the stalemates); or -1, the rounds chain, over the folded pairs (the game's own),
  // which tallies the rounds.
  outcome_chain(const pair_game& game, const exact_options& options, int documented)
      : game_(game),
        r_(game.rules()),
        o_(options),
        layout_(r_),
        folded_{documented != rd::attacker, documented != rd::defender},
        documents_{documented == rd::attacker, documented == rd::defender},
        rounds_(documented < 0),
        meter_(options.memory_limit),
        tally_(options.rounds_tolerance, options.max_listed_rounds) {}

  // What a chain leaves for the outcome document once every column is taken: its sides' parts of
  // every finished battle summed as outcome.hpp lays them out, where it counts rounds their tally,
  // and its counts.
  struct part {
    std::vector<double> totals;
    double rounds_mean = 0, rounds_tail = 0;
    std::vector<double> rounds;
    std::size_t pairs = 0, transitions = 0, bytes = 0;
  };

  // The chain is played a folded defender state at a time (columns(), in order: take_column),
  // between begin() and end(); each chain has its own memos, so chains of one game play side by
  // side. count(n) is told of each round's n outcomes (the time guard's).
  template <class Seen, class Count>
  void begin(Seen& seen, Count& count) {
    totals_.assign(layout_.size, 0.0);
    const battle_state start = rd::initial_state(r_);
    if (rd::is_stalemate(r_, start)) {
      if (documents_[0]) totals_[layout_.ends + static_cast<std::size_t>(battle_end::stalemate)] += 1.0;
      for (int side = 0; side < 2; ++side)
        if (documents_[static_cast<std::size_t>(side)])
          detail::add_side_terminal(r_, layout_, totals_.data(), start, side, 1.0);
      return;
    }
    const side_table &ua = table(rd::attacker), &ud = table(rd::defender);
    na_ = ua.state.size();
    nd_ = ud.state.size();
    most_dice_ = game_.retreat_dice();
    for (int side = 0; side < 2; ++side) {
      if (!documents_[static_cast<std::size_t>(side)]) continue;
      const side_table& t = side == rd::attacker ? ua : ud;
      exit_[static_cast<std::size_t>(side)][0].assign(t.state.size(), 0.0);
      exit_[static_cast<std::size_t>(side)][1].assign(t.hsum.size(), 0.0);
      retreats_[static_cast<std::size_t>(side)].assign(
          2 * (t.state.size() + t.hsum.size()) * static_cast<std::size_t>(most_dice_ + 1), 0.0);
    }
    columns_.assign(nd_, {});
    gather_row_.assign(na_, no_index);
    // The pairs one folded pair stands for are taken together (they have its keys, so this is
    // still a topological order), and the pairs of one folded defender state, a column, together.
    const side_table &fa = game_.table(rd::attacker, true), &fd = game_.table(rd::defender, true);
    a_of_ = members(ua, fa);
    d_of_ = members(ud, fd);
    fas_ = descending(fa);
    fds_ = descending(fd);
    hold();
    // Round 1 from the start where it differs (GL 11.22: its own key), then every pair in order.
    const std::uint64_t first = game_.start_key(folded_[0], folded_[1]);
    const std::uint64_t start_pair = first & ~(std::uint64_t{1} << 63);
    if (first != start_pair) {
      std::vector<double> arrive{1.0};
      take(first, 1.0, arrive, seen, count);
    } else {
      column& c = column_of(static_cast<std::uint32_t>(start_pair));
      const auto a = static_cast<std::uint32_t>(start_pair >> 32);
      c.mass[a] = 1.0;
      if (rounds_) arrive_of(c, a) = {1.0};
    }
  }

  // The folded defender states with pairs to take (a stalemate at the start: none), in order.
  const std::vector<std::uint32_t>& columns() const { return fds_; }

  // Takes the pairs of the folded defender state fdx (every pair that stands for it).
  template <class Seen, class Count>
  void take_column(std::uint32_t fdx, Seen& seen, Count& count) {
    const std::vector<std::uint32_t>& group = d_of_[fdx];
    memos_.clear();
    forget_replays();
    if (std::all_of(group.begin(), group.end(), [&](std::uint32_t d) { return columns_[d].mass.empty(); })) return;
    game_.open_column(fdx, memos_.md);
    for (const std::uint32_t d : group) {
      if (rounds_)
        take_tallied(d, count);
      else
        take_gathered(d, seen, count);
    }
    for (const std::uint32_t d : group) {
      held_columns_ -= columns_[d].mass.size();
      columns_[d] = {};  // (nothing comes back to a column taken)
    }
  }

  // Plays under one bound (core/shared_bound.hpp) with the chain that is its other part.
  void share_bound(shared_bound& held, int part) {
    beside_ = &held;
    slot_ = part;
  }

  // The chain's part of the outcome document, once every column is taken.
  part end() {
    const side_table &ua = table(rd::attacker), &ud = table(rd::defender);
    // The sides' parts of every finished battle, and the retreats' fire.
    for (int side = 0; side < 2; ++side) {
      if (!documents_[static_cast<std::size_t>(side)]) continue;
      const side_table& t = side == rd::attacker ? ua : ud;
      for (int hit = 0; hit < 2; ++hit) {
        const std::vector<double>& mass = exit_[static_cast<std::size_t>(side)][static_cast<std::size_t>(hit)];
        for (std::size_t x = 0; x < mass.size(); ++x)
          if (mass[x] != 0.0)
            detail::add_side_terminal(r_, layout_, totals_.data(), hit ? t.hstate[x] : t.state[x], side, mass[x]);
      }
    }
    for (int side = 0; side < 2; ++side) {
      if (!documents_[static_cast<std::size_t>(side)]) continue;
      const side_table& t = side == rd::attacker ? ua : ud;
      if (retreats_[static_cast<std::size_t>(side)].empty()) continue;  // (a stalemate at the start)
      for (int forced = 0; forced < 2; ++forced)
        for (int hit = 0; hit < 2; ++hit)
          for (std::uint32_t x = 0; x < (hit ? t.hsum.size() : t.state.size()); ++x) {
            const double* by_dice = retreat_mass(side, forced, {x, hit == 1});
            for (int dice = 0; dice <= most_dice_; ++dice) {
              if (by_dice[dice] == 0.0) continue;
              battle_state s = hit ? t.hstate[x] : t.state[x];
              detail::exact_chooser c;
              c.weight = by_dice[dice];
              auto finished = [&](const battle_state& u, battle_end end) {
                totals_[layout_.ends + static_cast<std::size_t>(end)] += c.weight;
                detail::add_side_terminal(r_, layout_, totals_.data(), u, side, c.weight);
              };
              rd::resolve_retreat_under_fire(r_, s, side, forced == 1, dice, c, finished);  // GL 12.2-12.3
            }
          }
    }
    for (std::size_t e = 0; e < 7; ++e) totals_[layout_.ends + e] += ends_[e];
    part out;
    out.totals = std::move(totals_);
    out.rounds_mean = expected_rounds_;
    if (pairs_ > 0 && rounds_) out.rounds = tally_.by_step(out.rounds_tail);
    out.pairs = pairs_;
    out.transitions = transitions_;
    out.bytes = meter_.peak();
    return out;
  }

  // The chain's structures' bytes, its memos among them (each chain counts its own, so what it
  // counts is the same whichever thread plays it and however far the other has got).
  std::size_t bytes() const {
    return columns_.capacity() * sizeof(column) +
           held_columns_ * (sizeof(double) + (rounds_ ? sizeof(std::uint32_t) : 0)) +
           next_.capacity() * sizeof(cell_move) + arrives_.capacity() * sizeof(std::vector<double>) +
           (arrive_doubles_ + retreats_[0].size() + retreats_[1].size()) * sizeof(double) +
           (exit_[0][0].size() + exit_[0][1].size() + exit_[1][0].size() + exit_[1][1].size()) * sizeof(double) +
           memos_.bytes() + gather_row_.capacity() * sizeof(std::uint32_t) + gathered_bytes_ +
           (gathered_.capacity() + unhit_.capacity() + cell_at_.capacity() + reached_.capacity()) *
               sizeof(std::uint32_t) +
           by_place_.capacity() * sizeof(double) + groups_bytes() + cell_spans_.capacity() * sizeof(cell_span) +
           cell_moves_.capacity() * sizeof(cell_move) + run_doubles_ * sizeof(double) +
           runs_.capacity() * sizeof(tallied_run) +
           (unhit_runs_.capacity() + hit_runs_.capacity()) * sizeof(std::uint32_t);
  }

 private:
  // A round under the solved choices, as round::play_round_until_retreat plays it (GL 11.18 in the
  // RULINGS order), each side's part read from its table, in four parts each handing what it leaves
  // to the next (attacker_part joins the first three, defender_part plays the fourth on what they
  // gathered): emit.next(key, w) where the battle goes on, emit.stalemate(a, d, w) where it ends so,
  // emit.retreat(side, forced, a, d, w) where a side retreats (a and d the sides' entries then).
  // seen(side, own line SP, enemy line SP, retreats) is told of each voluntary retreat the solved
  // play decides (the advice's).

  // 1. The defender's fire on A; the attacker allocates (GL 11.23) as solved: hit(A1, w) where
  // its line stands.
  template <class Emit, class Hit>
  void defender_fire(const side_table& ua, const side_table& ud, std::uint32_t A, std::uint32_t D, bool first,
                     double weight, Emit& emit, Hit&& hit) {
    const std::uint32_t a = game_.fold_of(ua, A), d = game_.fold_of(ud, D);
    capped_fire(rd::fire_dice(r_, ud.sum[D], rd::defender, false), ua.sum[A].alive_sp, weight, [&](int h, double w) {
      const std::uint32_t row = ua.hits_begin[A] + static_cast<std::uint32_t>(h);
      std::uint32_t option = 0;
      if (ua.hit_begin[row + 1] - ua.hit_begin[row] > 1)
        option = first ? game_.start_choice_[static_cast<std::size_t>(h)]
                       : game_.att_choice_[game_.choice_row_[game_.att_.hits_begin[a] + static_cast<std::uint32_t>(h)] *
                                               game_.nd_ +
                                           d];
      const std::uint32_t A1 = ua.hit_option[ua.hit_begin[row] + option];
      if (ua.hsum[A1].line_units == 0) return emit.retreat(rd::attacker, true, {A1, true}, {D, false}, w);
      hit(A1, w);
    });
  }

  // 2. The attacker's fire from its hit state A1 on D; the defender allocates as solved: hit(D1,
  // its place among D's hit states, w) where its line stands.
  template <class Emit, class Hit>
  void attacker_fire(const side_table& ua, const side_table& ud, std::uint32_t A1, std::uint32_t D, bool first,
                     double weight, Emit& emit, Hit&& hit) {
    const std::uint32_t a1 = game_.hit_fold_of(ua, A1), d = game_.fold_of(ud, D);
    const std::uint32_t place0 = ud.hit_begin[ud.hits_begin[D]];
    const int dice = rd::fire_dice(r_, ua.hsum[A1], rd::attacker, first), cap = ud.sum[D].alive_sp;
    capped_fire(dice, cap, weight, [&](int k, double w) {
      const std::uint32_t drow = ud.hits_begin[D] + static_cast<std::uint32_t>(k);
      const std::uint32_t dopt =
          ud.hit_begin[drow + 1] - ud.hit_begin[drow] > 1
              ? static_cast<std::uint32_t>(game_.defender_allocation(a1, d, k, std::min(dice, cap), memos_))
              : 0;
      const std::uint32_t j = ud.hit_begin[drow] + dopt;
      const std::uint32_t D1 = ud.hit_option[j];
      if (ud.hsum[D1].line_units == 0) return emit.retreat(rd::defender, true, {A1, true}, {D1, true}, w);
      hit(D1, j - place0, w);
    });
  }

  // 3. The attacker's morale checks and rerolls (GL 11.24-11.27) from A1, the defender in hit state
  // at each of `places` of its column (whose MD memos_.md holds), the fire's weight there in
  // by_place_: checked_to(A2, its places, the outcome's weight) where its line stands (a hit state
  // with one outcome: weight 1). The tree is walked once for all the places: where a reroll's
  // choice differs by place (it reads the defender's hit state), the places go on in groups, one a
  // choice.
  template <class Emit, class Checked>
  void attacker_checks(const side_table& ua, std::uint32_t A1, const std::vector<std::uint32_t>& places, Emit& emit,
                       Checked&& checked_to) {
    auto leaf = [&](std::uint32_t A2, const std::vector<std::uint32_t>& at, double w) {
      if (ua.sum[A2].line_units > 0) return checked_to(A2, at, w);
      for (const std::uint32_t place : at)  // GL 12.1: the line gone, under the defender's fire
        emit.retreat(rd::attacker, true, {A2, false}, {table(rd::defender).hit_option[place0_ + place], true},
                     by_place_[place] * w);
    };
    if (places.empty()) return;
    if (ua.hroot[A1] == no_index) return leaf(ua.hleaf[A1], places, 1.0);
    walk_grouped(ua, A1, ua.hroot[A1], no_index, places, 0, leaf);
  }
  // The attacker's tree list ul of hit state A1 (fl: the folded tree's, no_index: not read yet; the
  // two have one shape, and the folded one holds the choices) walked for `places`.
  template <class Leaf>
  void walk_grouped(const side_table& u, std::uint32_t A1, std::uint32_t ul, std::uint32_t fl,
                    const std::vector<std::uint32_t>& places, std::size_t depth, Leaf& leaf) {
    const side_table& f = game_.att_;
    const side_table::list us = u.lists[ul];
    side_table::list fs;
    bool folded = false;  // (read where a choice is met: most lists hold none)
    for (std::uint32_t e = 0; e < us.end - us.begin; ++e) {
      const side_table::entry& ue = u.entries[us.begin + e];
      if (!ue.choice) {
        leaf(ue.to, places, ue.w);
        continue;
      }
      if (!folded) {
        if (fl == no_index) fl = f.hroot[game_.hit_fold_of(u, A1)];
        fs = f.lists[fl];
        if (us.end - us.begin != fs.end - fs.begin) throw std::logic_error("optimal play: folded morale checks differ");
        folded = true;
      }
      const std::uint32_t node = f.entries[fs.begin + e].to;
      if (groups_.size() <= depth) groups_.resize(depth + 1);
      choice_group& g = groups_[depth];
      const std::uint8_t* row = reroll_row(f, node);
      g.kinds.clear();
      bool one = true;
      for (const std::uint32_t place : places) {
        g.kinds.push_back(row[place]);
        one = one && g.kinds.back() == g.kinds.front();
      }
      if (one) {  // (every place takes the same reroll: no groups to make)
        const std::uint32_t k = g.kinds.front();
        walk_grouped(u, A1, u.nodes[ue.to].first + k, f.nodes[node].first + k, places, depth + 1, leaf);
        continue;
      }
      for (std::uint32_t k = 0; k < f.nodes[node].options; ++k) {
        g.places.clear();
        for (std::size_t i = 0; i < places.size(); ++i)
          if (g.kinds[i] == k) g.places.push_back(places[i]);
        if (!g.places.empty())
          walk_grouped(u, A1, u.nodes[ue.to].first + k, f.nodes[node].first + k, g.places, depth + 1, leaf);
      }
    }
  }

  // 4. The defender's checks from D1, the attacker after its checks in A2; then the voluntary
  // retreats, the attacker's then the defender's (GL 12.2), and the reinforcements, the defender's
  // then the attacker's (GL 13.3); a stalemate ends the battle.
  template <class Emit, class Seen>
  void defender_morale(const side_table& ua, const side_table& ud, std::uint32_t A2, std::uint32_t D1, double weight,
                       Emit& emit, Seen& seen) {
    const std::uint32_t a2 = game_.fold_of(ua, A2), d1 = game_.hit_fold_of(ud, D1);
    checked(ud, game_.def_, D1, d1, weight, a2, [&](std::uint32_t D2, std::uint32_t d2, double w) {
      if (ud.sum[D2].line_units == 0) return emit.retreat(rd::defender, true, {A2, false}, {D2, false}, w);
      for (int side = 0; side < 2; ++side) {
        bool back = false;
        if (r_.policy[side].kind == retreat_kind::optimal) {
          back = game_.retreats_by_choice(side, a2, d2);
          const int own = side == rd::attacker ? ua.sum[A2].line_sp : ud.sum[D2].line_sp;
          const int enemy = side == rd::attacker ? ud.sum[D2].line_sp : ua.sum[A2].line_sp;
          seen(side, own, enemy, back);
        } else {
          back = rd::wants_retreat(r_, std::array<rd::side_sums, 2>{ua.sum[A2], ud.sum[D2]}, side);
        }
        if (back) return emit.retreat(side, false, {A2, false}, {D2, false}, w);
      }
      entering(ud, D2, w, [&](std::uint32_t D3, double w5) {
        entering(ua, A2, w5, [&](std::uint32_t A3, double w6) {
          if (rd::is_stalemate(r_, std::array<rd::side_sums, 2>{ua.sum[A3], ud.sum[D3]}))
            emit.stalemate({A3, false}, {D3, false}, w6);
          else
            emit.next(game_.pair_key(A3, D3, false), w6);
        });
      });
    });
  }

  // f(entered state, weight) for each way the side's reinforcements enter from state x (none: x).
  template <class F>
  static void entering(const side_table& t, std::uint32_t x, double weight, F&& f) {
    const std::uint32_t b = t.enter_begin[x], e = t.enter_begin[x + 1];
    if (b == e) return f(x, weight);
    for (std::uint32_t j = b; j < e; ++j) f(t.enter[j].first, weight * t.enter[j].second);
  }

  // The morale checks of unfolded hit state X (folded x) played under the solved rerolls:
  // done(state after, its folded state, weight). The two trees have one shape (units out of the
  // line check nothing); each choice is the folded tree's, its options valued by leaf, made once
  // for each (node, other side's folded state).
  template <class Done>
  void checked(const side_table& u, const side_table& f, std::uint32_t X, std::uint32_t x, double weight,
               std::uint32_t other, Done&& done) {
    if (u.hroot[X] == no_index) {
      const std::uint32_t X2 = u.hleaf[X];
      return done(X2, game_.fold_of(u, X2), weight);
    }
    walk_checks(u, f, u.hroot[X], f.hroot[x], weight, other, done);
  }
  template <class Done>
  void walk_checks(const side_table& u, const side_table& f, std::uint32_t ul, std::uint32_t fl, double weight,
                   std::uint32_t other, Done& done) {
    const side_table::list us = u.lists[ul], fs = f.lists[fl];
    if (us.end - us.begin != fs.end - fs.begin) throw std::logic_error("optimal play: folded morale checks differ");
    for (std::uint32_t e = 0; e < us.end - us.begin; ++e) {
      const side_table::entry& ue = u.entries[us.begin + e];
      if (!ue.choice) {
        done(ue.to, game_.fold_of(u, ue.to), weight * ue.w);
        continue;
      }
      const std::uint32_t node = f.entries[fs.begin + e].to;
      const std::uint32_t k = reroll_choice(f, node, other);
      walk_checks(u, f, u.nodes[ue.to].first + k, f.nodes[node].first + k, weight, other, done);
    }
  }

  // The reroll the solved play takes at the folded node `node` of side f's morale trees, `other`
  // being the defender's hit state's place in the open column (the attacker's checks) or the
  // attacker's folded state after its checks (the defender's): worked out for every place (every
  // attacker state) at once, by one walk of each option's tree over the column's MD rows (R's rows
  // by defender state), the solve's walks, so the same values and choices; kept as a row by node
  // until the column is done. (The chains ask a node at a quarter to most of its places: 5.4 of
  // 18.7 on the Niagara 3 v 3 with every choice optimal; a scalar walk each cost more than the
  // vector walk's lanes left unread.)
  std::uint32_t reroll_choice(const side_table& f, std::uint32_t node, std::uint32_t other) {
    return reroll_row(f, node)[other];
  }
  // The node's row of choices (valid until another node's row is made).
  const std::uint8_t* reroll_row(const side_table& f, std::uint32_t node) {
    const auto side = static_cast<std::size_t>(f.side);
    column_work& cw = memos_.md;
    std::vector<std::uint8_t>& choices = memos_.reroll[side];
    const auto [at, fresh] = memos_.reroll_row[side].try_emplace(node, static_cast<std::uint32_t>(choices.size()));
    const std::uint32_t row = at;
    if (fresh) {
      const auto n = static_cast<std::uint32_t>(f.side == rd::attacker ? cw.places : game_.na_);
      const side_table::node fn = f.nodes[node];
      choices.resize(choices.size() + n, 0);
      row_best_.assign(n, 0.0);
      row_trial_.resize(n);
      auto walk = [&](std::uint32_t list, double* out) {
        if (f.side == rd::attacker) {
          auto leaf = [&](std::uint32_t a2, double w, double* into) { game_.leaf_row(a2, w, into, 0, n, cw); };
          game_.tree_over(f, list, out, 0, n, 0, cw, leaf);
        } else {
          auto leaf = [&](std::uint32_t d2, double w, double* into) { game_.leaf_vector(d2, w, into); };
          game_.tree_over(f, list, out, 0, n, 0, cw, leaf);
        }
      };
      walk(fn.first, row_best_.data());
      std::uint8_t* choice = choices.data() + row;
      for (std::uint32_t k = 1; k < fn.options; ++k) {
        std::fill(row_trial_.begin(), row_trial_.end(), 0.0);
        walk(fn.first + k, row_trial_.data());
        for (std::uint32_t j = 0; j < n; ++j)
          if (f.side == rd::attacker ? row_trial_[j] > row_best_[j] + fn.margin
                                     : row_trial_[j] < row_best_[j] - fn.margin) {
            row_best_[j] = row_trial_[j];
            choice[j] = static_cast<std::uint8_t>(k);
          }
      }
    }
    return choices.data() + row;
  }

  // A defender state's pairs, by attacker state: the mass that reached each (0: none yet), and where
  // rounds are tallied the index of its arrivals by round in arrives_ (no_index: none). Made when
  // first reached, let go when taken: dense cells where a slot index and a slot each meant two
  // scattered reads.
  struct column {
    std::vector<double> mass;
    std::vector<std::uint32_t> arrive;
  };

  column& column_of(std::uint32_t d) {
    column& c = columns_[d];
    if (c.mass.empty()) {
      c.mass.assign(na_, 0.0);
      if (rounds_) c.arrive.assign(na_, no_index);
      held_columns_ += na_;
    }
    return c;
  }
  std::vector<double>& arrive_of(column& c, std::uint32_t a) {
    if (c.arrive[a] == no_index) {
      if (free_arrives_.empty()) {
        c.arrive[a] = static_cast<std::uint32_t>(arrives_.size());
        arrives_.emplace_back();
      } else {
        c.arrive[a] = free_arrives_.back();
        free_arrives_.pop_back();
      }
    }
    return arrives_[c.arrive[a]];
  }

  // A side's valued states (its line stands), most waiting and line SP first.
  static std::vector<std::uint32_t> descending(const side_table& t) {
    std::vector<std::uint32_t> out;
    for (std::uint32_t x = 0; x < t.state.size(); ++x)
      if (t.sum[x].line_units > 0) out.push_back(x);
    std::stable_sort(out.begin(), out.end(), [&](std::uint32_t i, std::uint32_t j) {
      return std::pair(t.sum[i].waiting, t.sum[i].line_sp) > std::pair(t.sum[j].waiting, t.sum[j].line_sp);
    });
    return out;
  }

  // By folded state of table f: the valued states of table u that fold to it.
  std::vector<std::vector<std::uint32_t>> members(const side_table& u, const side_table& f) const {
    std::vector<std::vector<std::uint32_t>> out(f.state.size());
    for (std::uint32_t x = 0; x < u.state.size(); ++x)
      if (u.sum[x].line_units > 0) out[game_.fold_of(u, x)].push_back(x);
    return out;
  }

  // What a part of a round leads to, from its source (a pair, or a gathered cell) of `mass`, each
  // outcome's weight relative to the source: the ends (summed by side entry where the chain
  // documents, absorbed in the tally where it counts rounds), the next pairs (their mass; where the
  // chain counts rounds, listed in next_ with their weights for the tally), and the source's own
  // self-loop, left out (the source's visits count it).
  struct emitter {
    outcome_chain& c;
    std::uint32_t defender = no_index;  // take_gathered's defender state: its pairs of `key` are self-loops
    std::pair<int, int> key{};
    bool open = true;                        // (false: the column's end, where nothing comes back to it)
    std::uint64_t pair = ~std::uint64_t{0};  // take's pair: the self-loop
    double mass = 0, self = 0, absorb = 0;
    std::size_t outcomes = 0;
    void next(std::uint64_t to, double w) {
      if (!onward(to, mass * w)) return;
      column& into = c.column_of(static_cast<std::uint32_t>(to));
      if (!c.rounds_) {
        into.mass[static_cast<std::uint32_t>(to >> 32)] += mass * w;
        return;
      }
      c.next_.push_back({to, w});
    }
    // Whether the outcome reaching the pair `to` with mass m goes on, the source's self-loop being
    // counted instead (take's pair itself, or a pair of the column being taken with the key taken).
    bool onward(std::uint64_t to, double m) {
      ++outcomes;
      const auto A3 = static_cast<std::uint32_t>(to >> 32), D3 = static_cast<std::uint32_t>(to);
      if (to == pair) {
        self += m;
        return false;
      }
      if (D3 == defender) {
        const std::pair<int, int> k = c.attacker_key(A3);
        if (!open || k > key) throw std::logic_error("optimal play: a round reached a pair taken");
        if (k == key) {  // (only the pair itself has its key: its self-loop, counted in its visits)
          self += m;
          return false;
        }
      }
      return true;
    }
    void stalemate(side_entry a, side_entry d, double w) {
      ++outcomes;
      absorb += w;
      if (c.documents()) c.stalemate_end(a, d, mass * w);
    }
    void retreat(int side, bool forced, side_entry a, side_entry d, double w) {
      ++outcomes;
      absorb += w;
      if (c.documents()) c.retreat_end(side, forced, a, d, mass * w);
    }
  };

  // Where rounds are counted: the pair the tally holds (stepped: it holds one) passes its listed
  // next pairs their mass and arrivals, and its ends are absorbed.
  void pass_on_next(emitter& emit, bool stepped) {
    for (const cell_move& m : next_) {
      column& c = columns_[static_cast<std::uint32_t>(m.to)];
      const auto a = static_cast<std::uint32_t>(m.to >> 32);
      c.mass[a] += emit.mass * m.w;
      if (stepped) {
        std::vector<double>& into = arrive_of(c, a);
        counted(arrive_doubles_, into, [&] { tally_.pass_on(into, m.w); });
      }
    }
    next_.clear();
    if (stepped) tally_.absorb(emit.absorb);
  }

  // The cells: what the attacker's part of a round leaves (the attacker's state after its checks)
  // by the defender's hit state (its place among D's), gathered so that the defender's part is
  // played once a cell, however many pairs and checks lead there (where each pair's round played
  // whole walks the defender's checks once for each of its attacker's outcomes: the product of the
  // two sides' checks). A cell's mass is its sources' mass times their weights there.
  void open_cells(std::uint32_t D) {
    const side_table& ud = table(rd::defender);
    place0_ = ud.hit_begin[ud.hits_begin[D]];
    places_ = ud.hit_begin[ud.hits_begin[D] + static_cast<std::uint32_t>(ud.sum[D].alive_sp) + 1] - place0_;
    if (by_place_.size() < places_) by_place_.resize(places_, 0.0);
  }
  std::size_t groups_bytes() const {
    std::size_t b = groups_.size() * sizeof(groups_[0]);
    for (const auto& g : groups_) b += g.kinds.capacity() + g.places.capacity() * sizeof(std::uint32_t);
    return b;
  }
  // A2's row of cells, made where it has none yet.
  double* row_of(std::uint32_t A2) {
    std::uint32_t& row = gather_row_[A2];
    if (row == no_index) {
      row = static_cast<std::uint32_t>(gathered_.size());
      gathered_.push_back(A2);
      cells_.resize(cells_.size() + places_, 0.0);
    }
    return &cells_[std::size_t{row} * places_];
  }
  // The attacker's part of the round of (A, D) (the fires, the attacker's checks) into the cells,
  // its ends to emit (with emit.mass), its cells' weights times `weight`. The attacker's fire from
  // each hit state is placed first, then its checks walked once for all the places it reached
  // (where walked once a place, each outcome was a scattered add; now it adds along its row).
  template <class Emit>
  void attacker_part(std::uint32_t A, std::uint32_t D, bool first, double weight, Emit& emit) {
    const side_table &ua = table(rd::attacker), &ud = table(rd::defender);
    defender_fire(ua, ud, A, D, first, 1.0, emit, [&](std::uint32_t A1, double w) {
      reached_.clear();
      attacker_fire(ua, ud, A1, D, first, w, emit, [&](std::uint32_t, std::uint32_t place, double w2) {
        by_place_[place] = w2;
        reached_.push_back(place);
      });
      attacker_checks(ua, A1, reached_, emit,
                      [&](std::uint32_t A2, const std::vector<std::uint32_t>& at, double leaf_w) {
                        emit.outcomes += at.size();
                        double* cells = row_of(A2);
                        for (const std::uint32_t place : at) {
                          double& cell = cells[place];
                          if (place == 0 && cell == 0.0) unhit_.push_back(A2);
                          cell += weight * (by_place_[place] * leaf_w);
                        }
                      });
      for (const std::uint32_t place : reached_) by_place_[place] = 0.0;
    });
  }
  // The defender's part for the cells against the unhit defender (unhit: those of place 0 only,
  // listed as they were first reached), or for every cell; each cell's mass the weight of its
  // outcomes (to emit, with emit.mass). Where every cell is played they are let go.
  template <class Emit, class Seen>
  void defender_part(bool unhit, Emit& emit, Seen& seen) {
    const side_table &ua = table(rd::attacker), &ud = table(rd::defender);
    auto play = [&](std::size_t at, std::uint32_t A2, std::uint32_t place) {
      const double w = cells_[at];
      cells_[at] = 0.0;
      if (w == 0.0) return;
      if (!documents()) return replay(A2, place, w, emit);
      defender_morale(ua, ud, A2, ud.hit_option[place0_ + place], w, emit, seen);
    };
    if (unhit) {
      for (const std::uint32_t A2 : unhit_) play(std::size_t{gather_row_[A2]} * places_, A2, 0);
      unhit_.clear();
      return;
    }
    for (std::uint32_t r = 0; r < gathered_.size(); ++r)
      for (std::uint32_t place = 0; place < places_; ++place)
        play(std::size_t{r} * places_ + place, gathered_[r], place);
    gathered_bytes_ = std::max(gathered_bytes_, cells_.capacity() * sizeof(double));
    for (const std::uint32_t A2 : gathered_) gather_row_[A2] = no_index;
    gathered_.clear();
    unhit_.clear();
    cells_.clear();
  }

  // The defender's part of a cell (A2, place) of the open column, where the chain counts rounds
  // only: played once, its outcomes kept (next pairs and their weights, the weight that ends), and
  // read again wherever the cell passes mass on (take_tallied's runs, round 1's pair: replay). Where
  // a pair ends or goes on does not depend on which pair reached the cell. (The retreats the play
  // decides are told to the advice by a chain that sums the ends, which plays every cell.)
  struct cell_move {
    std::uint64_t to;
    double w;
  };
  struct cell_span {
    std::uint32_t begin = 0, end = 0, ends = 0;
    double absorb = 0;
    std::uint32_t run = no_index;  // take_tallied's: the cell's run in runs_ (no_index: none yet)
  };
  struct cell_recorder {
    std::vector<cell_move>& moves;
    cell_span& span;
    void next(std::uint64_t to, double w) { moves.push_back({to, w}); }
    void stalemate(side_entry, side_entry, double w) { ends(w); }
    void retreat(int, bool, side_entry, side_entry, double w) { ends(w); }
    void ends(double w) {
      span.absorb += w;
      ++span.ends;
    }
  };
  // (Forgotten with the column's other choices, take_column; sized once a pair of it is taken.)
  void forget_replays() {
    runs_used_ = 0;
    cell_at_.clear();
    cell_spans_.clear();
    cell_moves_.clear();
  }
  // (A cell's outcomes are few, its checks' leaves times the reinforcements: merged pairwise.)
  void merge_moves(std::uint32_t begin) {
    std::uint32_t kept = begin;
    for (std::uint32_t j = begin; j < cell_moves_.size(); ++j) {
      std::uint32_t k = begin;
      while (k < kept && cell_moves_[k].to != cell_moves_[j].to) ++k;
      if (k < kept)
        cell_moves_[k].w += cell_moves_[j].w;
      else
        cell_moves_[kept++] = cell_moves_[j];
    }
    cell_moves_.resize(kept);
  }
  template <class Emit>
  void replay(std::uint32_t A2, std::uint32_t place, double weight, Emit& emit) {
    const cell_span& span = cell_spans_[recorded(A2, place)];
    for (std::uint32_t j = span.begin; j < span.end; ++j) emit.next(cell_moves_[j].to, weight * cell_moves_[j].w);
    emit.absorb += weight * span.absorb;
    emit.outcomes += span.ends;
  }
  // The cell (A2, place) of the open column's span of outcomes, its defender's part played once.
  std::uint32_t recorded(std::uint32_t A2, std::uint32_t place) {
    if (cell_at_.empty()) cell_at_.assign(na_ * places_, no_index);
    std::uint32_t& at = cell_at_[std::size_t{A2} * places_ + place];
    if (at == no_index) {
      at = static_cast<std::uint32_t>(cell_spans_.size());
      cell_span span;
      span.begin = static_cast<std::uint32_t>(cell_moves_.size());
      cell_recorder rec{cell_moves_, span};
      const side_table &ua = table(rd::attacker), &ud = table(rd::defender);
      auto unseen = [](int, int, int, bool) {};
      defender_morale(ua, ud, A2, ud.hit_option[place0_ + place], 1.0, rec, unseen);
      // (Outcomes that reach one pair by different checks merged, in the order first met.)
      merge_moves(span.begin);
      span.end = static_cast<std::uint32_t>(cell_moves_.size());
      cell_spans_.push_back(span);
    }
    return at;
  }

  // The pairs of the defender state D taken together: each attacker state's part of its round into
  // the column's cells, the defender's part once a cell. A round that leaves the defender unhit
  // reaches the column again with a lower attacker key (its self-loop aside), so the column's
  // attacker states are taken a key at a time, most first: pair(A, visits, self-loop) for each with
  // mass, its expected visits worked out (its self-loop's due counted); unhit() plays on the cells
  // against the unhit defender before the next key and after the last, rest() the others at the
  // column's end, each settling the outcomes it played with the time guard.
  template <class Count, class Pair, class Unhit, class Rest>
  void take_pairs(std::uint32_t D, emitter& emit, Count& count, Pair&& pair, Unhit&& unhit, Rest&& rest) {
    const column& c = columns_[D];
    double self_due = 0;  // the key's visits times their self-loops
    auto settle = [&] {
      if (std::abs(emit.self - self_due) > 1e-9 * self_due)
        throw std::logic_error("optimal play: the outcome chain's self-loop was mistaken");
      emit.self = self_due = 0;
      count(emit.outcomes);
      transitions_ += emit.outcomes;
      emit.outcomes = 0;
    };
    for (const std::uint32_t fax : fas_)
      for (const std::uint32_t A : a_of_[fax]) {
        if (attacker_key(A) != emit.key) {  // (what the last key left unhit may reach this one)
          unhit();
          settle();
          emit.key = attacker_key(A);
        }
        const double mass = c.mass[A];
        if (mass == 0.0) continue;
        if (++pairs_ > o_.state_limit) throw state_limit_exceeded(o_.state_limit);
        if ((pairs_ & 1023) == 0) {
          detail::throw_if_cancelled(o_);
          hold();
        }
        const double self = self_loop(game_.pair_key(A, D, false));
        const double visits = mass / (1.0 - self);  // (self < 1: a pair nobody can leave is a stalemate)
        expected_rounds_ += visits;
        self_due += visits * self;
        pair(A, visits, self);
      }
    unhit();
    settle();
    emit.open = false;
    rest();
    settle();
  }

  // A chain that sums ends: each cell's mass gathered from the pairs that reach it.
  template <class Seen, class Count>
  void take_gathered(std::uint32_t D, Seen& seen, Count& count) {
    if (columns_[D].mass.empty()) return;
    open_cells(D);
    emitter emit{*this, D};
    auto pair = [&](std::uint32_t A, double visits, double) {
      emit.mass = visits;
      attacker_part(A, D, false, visits, emit);
    };
    emit.mass = 1.0;  // (the cells hold masses)
    take_pairs(
        D, emit, count, pair,
        [&] {
          emit.mass = 1.0;
          defender_part(true, emit, seen);
        },
        [&] { defender_part(false, emit, seen); });
  }

  // The chain that counts rounds: each pair's occupancy by round (its arrivals and self-loop)
  // gathered into the cells its attacker's part reaches, a run a cell (step_tally::run), and each
  // cell's run passed on once through its defender's part (its span of outcomes, played once) with
  // what it has gathered since it was last played, where played a pair at a time a cell was
  // replayed for every pair that reached it: on the Niagara 5 v 4 with the attacker's hits optimal,
  // 11.6 M meetings of a pair and a cell at 0.69 M cells, whose 2.8 M outcomes the pairs met as
  // 36 M successors.
  template <class Count>
  void take_tallied(std::uint32_t D, Count& count) {
    column& c = columns_[D];
    if (c.mass.empty()) return;
    open_cells(D);
    emitter emit{*this, D};
    auto pair = [&](std::uint32_t A, double visits, double self) {
      const std::uint32_t at = c.arrive[A];
      const bool stepped = tally_.take(at == no_index ? none_ : arrives_[at], self);
      if (at != no_index) {
        arrive_doubles_ -= std::min(arrive_doubles_, arrives_[at].capacity());
        arrives_[at] = {};
        free_arrives_.push_back(at);
      }
      // The attacker's part by weight (its ends absorbed from the pair's occupancy), then its
      // cells' weights times the occupancy into their runs.
      emit.mass = visits;
      emit.absorb = 0;
      attacker_part(A, D, false, 1.0, emit);
      if (stepped) tally_.absorb(emit.absorb);
      for (std::uint32_t r = 0; r < gathered_.size(); ++r) {
        const std::uint32_t A2 = gathered_[r];
        for (std::uint32_t place = 0; place < places_; ++place) {
          double& w = cells_[std::size_t{r} * places_ + place];
          if (w == 0.0) continue;
          const std::uint32_t span_at = recorded(A2, place);
          cell_span& span = cell_spans_[span_at];
          if (span.run == no_index) {
            span.run = static_cast<std::uint32_t>(runs_used_++);
            if (runs_.size() < runs_used_) runs_.emplace_back();
          }
          tallied_run& run = runs_[span.run];
          if (!run.queued) {
            run.queued = true;
            (place == 0 ? unhit_runs_ : hit_runs_).push_back(span_at);
          }
          run.mass += visits * w;
          if (stepped) counted(run_doubles_, run.steps.steps, [&] { tally_.gather(run.steps, w); });
          w = 0.0;
        }
        gather_row_[A2] = no_index;
      }
      gathered_bytes_ = std::max(gathered_bytes_, cells_.capacity() * sizeof(double));
      gathered_.clear();
      unhit_.clear();
      cells_.clear();
    };
    take_pairs(
        D, emit, count, pair, [&] { play_runs(unhit_runs_, emit); }, [&] { play_runs(hit_runs_, emit); });
  }
  // The cells listed (their spans' indices) passed on: each run's mass and occupancy to the pairs
  // its outcomes reach (a pair of the open column with the key being taken: the pair's self-loop,
  // counted in its visits), its ends absorbed; then emptied.
  void play_runs(std::vector<std::uint32_t>& cells, emitter& emit) {
    for (const std::uint32_t at : cells) {
      const cell_span& span = cell_spans_[at];
      tallied_run& run = runs_[span.run];
      const double m = run.mass;
      for (std::uint32_t j = span.begin; j < span.end; ++j) {
        const std::uint64_t to = cell_moves_[j].to;
        const double w = cell_moves_[j].w;
        if (!emit.onward(to, m * w)) continue;
        const auto A3 = static_cast<std::uint32_t>(to >> 32);
        column& into = column_of(static_cast<std::uint32_t>(to));
        into.mass[A3] += m * w;
        if (!run.steps.empty()) {
          std::vector<double>& arrive = arrive_of(into, A3);
          counted(arrive_doubles_, arrive, [&] { tally_.pass_on(run.steps, arrive, w); });
        }
      }
      emit.outcomes += span.ends;
      if (!run.steps.empty()) tally_.absorb(run.steps, span.absorb);
      run.mass = 0;
      run.queued = false;
      step_tally::clear(run.steps);
    }
    cells.clear();
  }

  // add(), counting in `doubles` the room it adds to v (the chain's bytes).
  template <class Add>
  static void counted(std::size_t& doubles, const std::vector<double>& v, Add&& add) {
    const std::size_t before = v.capacity();
    add();
    doubles += v.capacity() - before;
  }
  std::pair<int, int> attacker_key(std::uint32_t A) const {
    const rd::side_sums& s = table(rd::attacker).sum[A];
    return {s.waiting, s.line_sp};
  }

  // Plays the round of the pair `key` on its own, its cells its own (round 1 from the start, its own
  // key), reached by `mass` (arrive: by round, where tallied). Its self-loop is known before it is
  // played (self_loop), so its expected visits are too and what it leads to is added where it goes
  // as it is played; where rounds are counted its successors are listed first, each with its chance.
  template <class Seen, class Count>
  void take(std::uint64_t key, double mass, std::vector<double>& arrive, Seen& seen, Count& count) {
    if (++pairs_ > o_.state_limit) throw state_limit_exceeded(o_.state_limit);
    if ((pairs_ & 1023) == 0) {
      detail::throw_if_cancelled(o_);
      hold();
    }
    const double self = self_loop(key);
    const double visits = mass / (1.0 - self);  // (self < 1: a pair nobody can leave is a stalemate)
    expected_rounds_ += visits;
    emitter emit{*this};
    emit.pair = key;
    const auto A = static_cast<std::uint32_t>(key >> 32 & 0x7fffffffu), D = static_cast<std::uint32_t>(key);
    open_cells(D);
    game_.open_column(game_.fold_of(table(rd::defender), D), memos_.md);
    // The attacker's part's ends from the pair's visits (the rounds tally absorbs their weights);
    // its cells hold weights where the tally passes the pair's occupancy on, masses where not.
    emit.mass = visits;
    attacker_part(A, D, key >> 63, rounds_ ? 1.0 : visits, emit);
    emit.mass = rounds_ ? visits : 1.0;
    defender_part(false, emit, seen);
    if (std::abs(emit.self - visits * self) > 1e-9 * visits * self)
      throw std::logic_error("optimal play: the outcome chain's self-loop was mistaken");
    count(emit.outcomes);
    transitions_ += emit.outcomes;
    if (rounds_) pass_on_next(emit, tally_.take(arrive, self));
  }

  // The chance that the round of the pair `key` leaves it as it was: both fires miss (no hits, so
  // no checks), nobody retreats and nobody enters; as the round's parts' product makes it.
  double self_loop(std::uint64_t key) {
    if (key >> 63) return 0.0;  // (round 1 from the start: its own key, never reached again)
    const side_table &ua = table(rd::attacker), &ud = table(rd::defender);
    const auto A = static_cast<std::uint32_t>(key >> 32), D = static_cast<std::uint32_t>(key);
    const std::uint32_t A1 = ua.hit_option[ua.hit_begin[ua.hits_begin[A]]];  // (no hits: one option)
    const std::uint32_t D1 = ud.hit_option[ud.hit_begin[ud.hits_begin[D]]];
    if (ua.hroot[A1] != no_index || ua.hleaf[A1] != A || ud.hroot[D1] != no_index || ud.hleaf[D1] != D) return 0.0;
    const std::uint32_t a = game_.fold_of(ua, A), d = game_.fold_of(ud, D);
    for (int side = 0; side < 2; ++side)
      if (r_.policy[side].kind == retreat_kind::optimal
              ? game_.retreats_by_choice(side, a, d)
              : rd::wants_retreat(r_, std::array<rd::side_sums, 2>{ua.sum[A], ud.sum[D]}, side))
        return 0.0;
    const double* miss_d = shared_binomial_tables().pmf_row(1, rd::fire_dice(r_, ud.sum[D], rd::defender, false));
    const double* miss_a = shared_binomial_tables().pmf_row(1, rd::fire_dice(r_, ua.hsum[A1], rd::attacker, false));
    double w = 1.0 * miss_d[0] * miss_a[0];
    w *= staying(ud, D);  // (the defender's reinforcement first, GL 13.3)
    w *= staying(ua, A);
    return w;
  }
  // (The weight entering leaves on state x itself: 1 where nobody waits.)
  static double staying(const side_table& t, std::uint32_t x) {
    const std::uint32_t b = t.enter_begin[x], e = t.enter_begin[x + 1];
    if (b == e) return 1.0;
    for (std::uint32_t j = b; j < e; ++j)
      if (t.enter[j].first == x) return t.enter[j].second;
    return 0.0;
  }

  void stalemate_end(side_entry a, side_entry d, double w) {
    if (documents_[0]) {
      ends_[static_cast<std::size_t>(battle_end::stalemate)] += w;
      exit_[0][a.hit][a.index] += w;
    }
    if (documents_[1]) exit_[1][d.hit][d.index] += w;
  }
  void retreat_end(int side, bool forced, side_entry a, side_entry d, double w) {
    const side_entry me = side == rd::attacker ? a : d, other = side == rd::attacker ? d : a;
    if (documents_[static_cast<std::size_t>(1 - side)])
      exit_[static_cast<std::size_t>(1 - side)][other.hit][other.index] += w;
    if (!documents_[static_cast<std::size_t>(side)]) return;
    const side_table& o = table(1 - side);
    const rd::side_sums& sums = other.hit ? o.hsum[other.index] : o.sum[other.index];
    const int dice = forced ? sums.line_dice : sums.line_units;  // GL 12.2-12.3 (rd::retreat_fire_dice)
    if (dice > most_dice_) throw std::logic_error("optimal play: a retreat fire of more dice than the battle has");
    retreat_mass(side, forced, me)[static_cast<std::size_t>(dice)] += w;
  }

  double* retreat_mass(int side, bool forced, side_entry e) {
    const side_table& t = table(side);
    const std::size_t entries = t.state.size() + t.hsum.size();
    const std::size_t at = (forced ? entries : 0) + (e.hit ? t.state.size() : 0) + e.index;
    return retreats_[static_cast<std::size_t>(side)].data() + at * static_cast<std::size_t>(most_dice_ + 1);
  }

  // The chain's bytes against its bound, and where it plays beside another under one bound, the two
  // chains' bytes now (each publishes its own as it holds them; room lent to other work taken back
  // where it is needed), so that together they stop as they pass it, not only once both have ended.
  void hold() {
    const std::size_t b = bytes();
    meter_.hold(b, pairs_);
    if (!beside_) return;
    const std::size_t both = beside_->hold(slot_, b);
    if (meter_.bound() > 0 && both > meter_.bound()) throw memory_limit_exceeded(meter_.bound(), both, pairs_);
  }

  const pair_game& game_;
  const battle_rules& r_;
  const exact_options& o_;
  detail::outcome_layout layout_;
  std::array<bool, 2> folded_, documents_;
  bool rounds_;
  const side_table& table(int side) const { return game_.table(side, folded_[static_cast<std::size_t>(side)]); }
  bool documents() const { return documents_[0] || documents_[1]; }
  memory_meter meter_;
  shared_bound* beside_ = nullptr;
  int slot_ = 0;
  step_tally tally_;
  std::size_t na_ = 0, nd_ = 0, pairs_ = 0, transitions_ = 0, arrive_doubles_ = 0, held_columns_ = 0;
  chain_memos memos_;
  std::vector<double> row_best_, row_trial_;  // reroll_choice's values by place (attacker state)
  std::vector<double> totals_, none_;
  std::vector<std::vector<std::uint32_t>> a_of_, d_of_;     // by folded state: the table's states that fold to it
  std::vector<std::uint32_t> fas_, fds_;                    // the folded states, in the chain's order
  std::vector<column> columns_;                             // by defender state (empty: not reached, or taken)
  std::vector<std::vector<double>> arrives_;                // the pairs' arrivals by round (column::arrive)
  std::vector<std::uint32_t> free_arrives_;                 // arrives_ let go, to be used again
  std::vector<cell_move> next_;                             // take's pair's successors and their weights
  std::array<std::array<std::vector<double>, 2>, 2> exit_;  // by side, hit or not, entry: mass ended there
  std::array<double, 7> ends_{};
  int most_dice_ = 0;
  std::array<std::vector<double>, 2> retreats_;  // by side: (forced, entry, fire's dice): mass retreating so
  // take_gathered's: by attacker state its row of cells (no_index: none), the rows' attacker
  // states, the cells (a row's mass by the defender's hit state's place), those with mass unhit.
  std::vector<std::uint32_t> gather_row_, gathered_, unhit_;
  std::vector<double> cells_;
  std::uint32_t place0_ = 0, places_ = 0;
  std::vector<double> by_place_;        // attacker_part's: the attacker's fire's weight by place (0 between)
  std::vector<std::uint32_t> reached_;  // and the places it reached
  // walk_grouped's: by depth, the places of one choice (a deque: growing it keeps the groups of the
  // depths above, which the walk holds, where they are).
  struct choice_group {
    std::vector<std::uint8_t> kinds;    // by place walked: its choice
    std::vector<std::uint32_t> places;  // the places of one choice
  };
  std::deque<choice_group> groups_;
  std::size_t gathered_bytes_ = 0;
  // replay's: by (attacker state, place) of the open column its cell's span (no_index: not played
  // yet), the spans, their outcomes.
  std::vector<std::uint32_t> cell_at_;
  std::vector<cell_span> cell_spans_;
  std::vector<cell_move> cell_moves_;
  // take_tallied's: the cells' runs (the first runs_used_ of the open column's; their room kept for
  // the next), the cells with mass since last played (by span), against the unhit defender or not.
  struct tallied_run {
    step_tally::run steps;
    double mass = 0;
    bool queued = false;
  };
  std::vector<tallied_run> runs_;
  std::size_t runs_used_ = 0, run_doubles_ = 0;
  std::vector<std::uint32_t> unhit_runs_, hit_runs_;
  double expected_rounds_ = 0;
};

}  // namespace
}  // namespace musket::great_lakes::optimal
