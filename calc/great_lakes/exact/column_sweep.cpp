#include "calc/great_lakes/exact/column_sweep.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdint>
#include <map>
#include <stdexcept>
#include <utility>
#include <vector>

#include "calc/great_lakes/exact/column_solver.hpp"
#include "core/markov_chain.hpp"
#include "core/side_by_side.hpp"
#include "core/usable_threads.hpp"

namespace musket::great_lakes {

namespace sweep {

void column_solver::prepare() {
  // Each side alone: its states count against the state limit, and what they hold against the
  // memory bound.
  for (const side_states* s : {&a_, &d_}) {
    if (s->states.size() > options_.state_limit || s->hit.size() > options_.state_limit)
      throw state_limit_exceeded(options_.state_limit);
    std::size_t bytes = (s->states.size() + s->hit.size()) * sizeof(battle_state);
    for (const auto& by_hits : s->after_hits) bytes += list_bytes(by_hits);
    for (const auto& by_hits : s->other_allocations)
      for (const auto& options : by_hits)
        for (const auto& option : options) bytes += sizeof(option) + sizeof(side_move) * option.moves.capacity();
    hold(bytes);
  }
  int most = 0;  // (at most 200 dice a side: battle.cpp's validation, the tables' rows)
  for (int d : a_.dice) most = std::max(most, d);
  for (int d : d_.dice) most = std::max(most, d);
  shared_binomial_tables().ensure(most);
  ao_ = sweep::order_of(a_);
  do_ = sweep::order_of(d_);
  a_parts_ = a_.example.size();
  a_states_ = a_.states.size();
  d_parts_ = d_.example.size();
  d_states_ = d_.states.size();
  if (static_cast<double>(a_parts_) * static_cast<double>(d_parts_) > static_cast<double>(options_.state_limit))
    throw state_limit_exceeded(options_.state_limit);
  // The sweep's dense arrays (both sides' masses, the rounds stepped a round at a time); the moves
  // below are counted as they are made.
  hold(8 * (d_parts_ * a_states_ + d_states_ * a_parts_ + 2 * d_parts_ * a_parts_));
  for (int d : a_.dice) a_dice_count_ = std::max(a_dice_count_, d + 1);
  a_line_.resize(a_states_);
  a_dice_.resize(a_states_);
  a_rank_at_.resize(a_states_);
  for (std::uint32_t at = 0; at < a_states_; ++at) {
    a_rank_at_[at] = ao_.part_rank[a_.part[ao_.state_at[at]]];
    a_line_[at] = a_.line_sp[ao_.state_at[at]];
    a_dice_[at] = a_.dice[ao_.state_at[at]];
  }
  part_line_dice_.resize(a_parts_);
  part_line_units_.resize(a_parts_);
  for (std::uint32_t k = 0; k < a_parts_; ++k) {
    part_line_dice_[k] = a_.line_dice[ao_.example_of_rank(k)];
    part_line_units_[k] = a_.line_units[ao_.example_of_rank(k)];
  }
  auto a_place = [&](std::uint32_t s) { return ao_.place[s]; };
  auto a_rank = [&](std::uint32_t s) { return ao_.part_rank[a_.part[s]]; };
  auto d_place = [&](std::uint32_t s) { return do_.place[s]; };
  int d_most = 0;
  for (int d : d_.dice) d_most = std::max(d_most, d);
  a_moves_.resize(static_cast<std::size_t>(d_most) + 1);
  a_part_moves_.resize(static_cast<std::size_t>(d_most) + 1);
  // A side's moves under `fire` dice from each part (by rank) that `wanted` names and each of its
  // states (by place), targets mapped by `place` and `rank`; the attacker's keep the dice it fires
  // next.
  auto list_moves = [](const side_states& s, const side_order& o, int fire, bool keep_dice, auto&& place, auto&& rank,
                       std::vector<std::vector<side_move>>& moves, std::vector<std::vector<side_move>>& part_moves,
                       auto&& wanted) {
    moves.resize(s.states.size());
    part_moves.resize(s.example.size());
    for (std::uint32_t k = 0; k < s.example.size(); ++k) {
      if (!wanted(k)) continue;
      part_moves[k] = moves_under_fire(s, o.example_of_rank(k), fire, keep_dice, rank);
      for (std::uint32_t at = o.part_begin[k]; at < o.part_begin[k + 1]; ++at)
        moves[at] = moves_under_fire(s, o.state_at[at], fire, keep_dice, place);
    }
  };
  auto every = [](std::uint32_t) { return true; };
  // The attacker's under each fire the defender has, where some pair takes the rulings' allocation
  // (every part, but where a solved allocation takes another there).
  std::vector<std::vector<std::uint8_t>> rulings_taken(static_cast<std::size_t>(d_most) + 1);
  if (allocation_) list_solved_moves(rulings_taken);
  for (int f : d_.dice) {
    const auto fire = static_cast<std::size_t>(f);
    if (!a_part_moves_[fire].empty()) continue;
    auto taken = [&](std::uint32_t k) { return !allocation_ || rulings_taken[fire][k] != 0; };
    list_moves(a_, ao_, f, true, a_place, a_rank, a_moves_[fire], a_part_moves_[fire], taken);
  }
  auto d_rank = [&](std::uint32_t s) { return do_.part_rank[d_.part[s]]; };
  d_moves_.resize(static_cast<std::size_t>(a_dice_count_));
  d_part_moves_.resize(static_cast<std::size_t>(a_dice_count_));
  for (int n = 0; n < a_dice_count_; ++n) {
    const auto at = static_cast<std::size_t>(n);
    list_moves(d_, do_, n, false, d_place, d_rank, d_moves_[at], d_part_moves_[at], every);
  }
  d_part_line_.resize(d_parts_);
  d_part_line_units_.resize(d_parts_);
  for (std::uint32_t k = 0; k < d_parts_; ++k) {
    d_part_line_[k] = d_.line_sp[do_.example_of_rank(k)];
    d_part_line_units_[k] = d_.line_units[do_.example_of_rank(k)];
  }
  // Which side a retreat policy takes away from each pair (none with `never` or `optimal`).
  auto may_retreat = [](const retreat_policy& p) {
    return p.kind != retreat_kind::never && p.kind != retreat_kind::optimal;  // (rules/round.hpp's wants_retreat)
  };
  if (may_retreat(r_.policy[round::attacker]) || may_retreat(r_.policy[round::defender])) {
    withdraws_.assign(d_parts_ * a_parts_, -1);
    hold(withdraws_.size());
    std::array<round::side_sums, 2> sum{};
    for (std::uint32_t column = 0; column < d_parts_; ++column)
      for (std::uint32_t k = 0; k < a_parts_; ++k) {
        sum[round::attacker].line_sp = static_cast<std::int16_t>(a_line_[ao_.part_begin[k]]);
        sum[round::defender].line_sp = static_cast<std::int16_t>(d_part_line_[column]);
        for (int side : {round::attacker, round::defender})  // (the attacker is asked first)
          if (round::wants_retreat(r_, sum, side)) {
            withdraws_[column * a_parts_ + k] = static_cast<std::int8_t>(side);
            break;
          }
      }
  }
  // GL 13.3: where the attacker's fire leaves the defender a line after its checks (and the
  // attacker one: the sweep sends only those on), the round ends with reinforcement, the
  // defender's folded into its moves here (where no policy reads the pair first), the attacker's
  // added as the mass arrives.
  a_enter_ = entering_of(a_, ao_);
  d_enter_ = entering_of(d_, do_);
  // (Where a retreat policy reads the pair at a round's end, it does so before the reinforcement:
  // the defender's is then played at the round's end, after the policies.)
  d_in_moves_ = d_enter_.any && withdraws_.empty();
  if (d_in_moves_) {
    auto line_at = [&](std::uint32_t place) { return d_.line_sp[do_.state_at[place]]; };
    auto line_of_rank = [&](std::uint32_t k) { return d_.line_sp[do_.example_of_rank(k)]; };
    for (auto& moves : d_moves_)
      for (auto& list : moves) list = then_entering(list, d_enter_.by_place, line_at);
    for (auto& moves : d_part_moves_)
      for (auto& list : moves) list = then_entering(list, d_enter_.by_part, line_of_rank);
  }
  std::size_t bytes = 0;
  for (const side_entering* e : {&a_enter_, &d_enter_})
    for (const auto* lists : {&e->by_place, &e->by_part}) bytes += list_bytes(*lists);
  for (const auto* by_dice : {&a_moves_, &a_part_moves_, &d_moves_, &d_part_moves_})
    for (const auto& lists : *by_dice) bytes += list_bytes(lists);
  hold(bytes);
  d_rank_at_.resize(d_states_);
  for (std::uint32_t at = 0; at < d_states_; ++at) d_rank_at_[at] = do_.part_rank[d_.part[do_.state_at[at]]];
  start_apart_ = first_round_;
  if (start_apart_) {
    // Round 1's moves from the start (state 0 of each side), each with the dice fired in round 1
    // (those of every round where no attacker crossed).
    const int fire = d_.dice[0];
    const double* p = sixes(fire);
    if (allocation_) {
      start_options_.assign(static_cast<std::size_t>(std::max(fire, 0)) + 1, 0);
      for (int hits = 1; hits <= fire && hits < a_.line_sp[0]; ++hits)
        start_options_[static_cast<std::size_t>(hits)] = (*allocation_)(a_.part[0], d_.part[0], hits, true);
    }
    auto start_option = [&](int hits) {
      return start_options_.empty() ? 0 : start_options_[static_cast<std::size_t>(hits)];
    };
    std::map<std::pair<std::uint32_t, int>, double> to_place, to_part;
    for (int hits = 1; hits <= fire && hits < a_.line_sp[0]; ++hits) {
      const int dice = a_.hit_first_dice[a_.hit_of_option(0, hits, start_option(hits))];
      for (const side_move& m : a_.moves_of_option(0, hits, start_option(hits))) {
        to_place[{ao_.place[m.to], dice}] += p[hits] * m.p;
        to_part[{a_rank(m.to), dice}] += p[hits] * m.p;
      }
    }
    for (const auto& [to, q] : to_place) start_moves_.push_back({to.first, to.second, q});
    for (const auto& [to, q] : to_part) start_part_moves_.push_back({to.first, to.second, q});
  }
}

void column_solver::list_solved_moves(std::vector<std::vector<std::uint8_t>>& rulings_taken) {
  // (Most pairs take the rulings' allocation at every hit count; the rest share a few allocations
  // a part, each made once: a part's are found by a short scan.)
  allocation_of_.assign(d_parts_ * a_parts_, 0);
  solved_.resize(1);
  std::vector<std::vector<std::uint32_t>> of_part(a_parts_);  // by attacker rank: its entries of solved_
  std::vector<int> options;
  std::size_t bytes = allocation_of_.size() * sizeof(std::uint32_t);
  for (std::uint32_t column = 0; column < d_parts_; ++column) {
    const std::uint32_t d_part = d_.part[do_.state_at[do_.part_begin[column]]];
    const int fire = d_.dice[do_.state_at[do_.part_begin[column]]];
    std::vector<std::uint8_t>& rulings = rulings_taken[static_cast<std::size_t>(fire)];
    rulings.resize(a_parts_, 0);
    for (std::uint32_t k = 0; k < a_parts_; ++k) {
      const std::uint32_t example = ao_.example_of_rank(k);
      const int most = std::min(fire, a_.line_sp[example] - 1);  // (more hits take the whole line: no choice)
      options.assign(static_cast<std::size_t>(std::max(most, 0)) + 1, 0);
      bool other = false;
      for (int hits = 1; hits <= most; ++hits) {
        const int taken = (*allocation_)(a_.part[example], d_part, hits, false);
        options[static_cast<std::size_t>(hits)] = taken;
        other = other || taken != 0;
      }
      if (!other) {
        rulings[k] = 1;
        continue;
      }
      std::uint32_t& entry = allocation_of_[column * a_parts_ + k];
      for (const std::uint32_t e : of_part[k])
        if (solved_[e].fire == fire && solved_[e].options == options) entry = e;
      if (entry != 0) continue;
      entry = static_cast<std::uint32_t>(solved_.size());
      of_part[k].push_back(entry);
      solved_moves m;
      m.fire = fire;
      m.options = options;
      m.part = moves_under_fire(
          a_, example, fire, true, [&](std::uint32_t s) { return ao_.part_rank[a_.part[s]]; }, m.options.data());
      for (std::uint32_t place = ao_.part_begin[k]; place < ao_.part_begin[k + 1]; ++place)
        m.places.push_back(moves_under_fire(
            a_, ao_.state_at[place], fire, true, [&](std::uint32_t s) { return ao_.place[s]; }, m.options.data()));
      bytes += sizeof(m) + sizeof(side_move) * m.part.capacity() + sizeof(int) * m.options.capacity() +
               sizeof(std::vector<side_move>) * m.places.capacity();
      for (const std::vector<side_move>& place : m.places) bytes += sizeof(side_move) * place.capacity();
      solved_.push_back(std::move(m));
    }
  }
  for (const auto& parts : of_part) bytes += sizeof(parts) + sizeof(std::uint32_t) * parts.capacity();
  hold(bytes);
}

void column_solver::sweep(outcome_sums& sums, double& expected_rounds) {
  // by_attacker[d rank][a place]: the expected visits to each pair at a round's start, beside the
  // attacker's unfolded state; by_defender[d place][a rank]: beside the defender's.
  std::vector<double> by_attacker(d_parts_ * a_states_, 0.0), by_defender(d_states_ * a_parts_, 0.0);
  if (!start_apart_) {  // (else the start is played apart, below)
    by_attacker[do_.part_rank[d_.part[0]] * a_states_ + ao_.place[0]] = 1.0;
    by_defender[do_.place[0] * a_parts_ + ao_.part_rank[a_.part[0]]] = 1.0;
  }
  ends_to_play ends;
  ends.attacker_stands.assign(a_states_, 0.0);
  ends.attacker_hit_wins.assign(a_.hit.size(), 0.0);
  ends.attacker_checks_away.width = a_states_;
  ends.defender_stands.assign(d_states_, 0.0);
  ends.defender_line_taken.width = ends.defender_hit_holds.width = ends.defender_checks_away.width = d_states_;
  ends.attacker_withdraws.width = a_states_;
  ends.defender_withdraws.width = d_states_;
  if (!withdraws_.empty()) {  // (rows for every count of line units, made once: each a few states wide)
    for (int units = 0; units <= round::max_units; ++units) {
      ends.attacker_withdraws_at.push_back(ends.attacker_withdraws[units].data());
      ends.defender_withdraws_at.push_back(ends.defender_withdraws[units].data());
    }
  }
  const auto dice_count = static_cast<std::size_t>(a_dice_count_);
  std::vector<double> mid_attacker(dice_count * a_states_), mid_defender;
  const std::vector<int> rulings;  // (options by hits where the rulings' allocation is taken: none)
  // (The second halves' attacker after its reinforcement, by place and by part.)
  std::vector<double> entered(a_enter_.any ? a_states_ : 0), entered_parts(a_enter_.any ? a_parts_ : 0);
  expected_rounds = 0;
  for (std::uint32_t column = 0; column < d_parts_; ++column) {
    detail::throw_if_cancelled(options_);
    const std::uint32_t d_first = do_.part_begin[column], rows = do_.part_begin[column + 1] - d_first;
    const std::uint32_t d_rep = do_.state_at[d_first];
    const int fire = d_.dice[d_rep], d_line = d_.line_sp[d_rep];
    const double* fire_p = sixes(fire);
    const double miss = fire_p[0];
    double* column_mass = &by_attacker[column * a_states_];
    std::fill(mid_attacker.begin(), mid_attacker.end(), 0.0);
    const std::size_t dice_stride = static_cast<std::size_t>(rows) * a_parts_;
    mid_defender.assign(dice_count * dice_stride, 0.0);
    auto& line_taken = ends.attacker_line_taken[{fire, d_.line_dice[d_rep]}];
    if (line_taken.empty()) line_taken.assign(a_states_, 0.0);
    // A round's end where the attacker's fire missed (the defender as it was, this column's): mass m
    // beside the attacker at place `at` (its line standing) goes on to the next round's pair after
    // the reinforcement (GL 13.3: each side's own roll; none waiting, the pair itself). `self`: the
    // pair being played, whose staying as it is is the self-loop (divided out), not an arrival.
    auto missed_beside_attacker = [&](std::uint32_t at, double m, bool self) {
      if (round_ends_beside_attacker(ends, column, at, m)) return;
      each_entering(a_enter_.by_place[at], at, [&](std::uint32_t a_to, double qa) {
        each_entering(d_enter_.by_part[column], column, [&](std::uint32_t d_to, double qd) {
          if (!self || a_to != at || d_to != column) by_attacker[d_to * a_states_ + a_to] += m * qa * qd;
        });
      });
    };
    // The same beside the defender's state (`place`) with the attacker at part k.
    auto missed_beside_defender = [&](std::uint32_t place, std::uint32_t k, double m, bool self) {
      if (round_ends_beside_defender(ends, place, k, m)) return;
      each_entering(d_enter_.by_place[place], place, [&](std::uint32_t d_to, double qd) {
        each_entering(a_enter_.by_part[k], k, [&](std::uint32_t a_to, double qa) {
          if (!self || a_to != k || d_to != place) by_defender[d_to * a_parts_ + a_to] += m * qa * qd;
        });
      });
    };
    // The first half of a round from attacker state `at` (a place) with mass m, beside the attacker:
    // its line taken (played after the sweep: hits of `fire` >= line SP); the attacker's fire with its
    // dice after the hits, before its checks, taking the defender's whole line (the round ends there,
    // step 2, the attacker as it was then); the rest to the mid-round masses by the dice fired, and
    // where that fire misses, on to the next round (`self`: the pair's own round).
    auto attacker_half = [&](std::uint32_t at, double m, int line, int dice, const std::vector<side_move>& moves,
                             const std::vector<int>& dice_of_hit, bool self, const std::vector<int>& options) {
      const std::uint32_t state = ao_.state_at[at];
      line_taken[at] += m;
      for (int hits = 0; hits < line && hits <= fire; ++hits) {
        const std::uint32_t hit =
            a_.hit_of_option(state, hits, options.empty() ? 0 : options[static_cast<std::size_t>(hits)]);
        double falls = 0;
        const double* p = sixes(dice_of_hit[hit]);
        for (int h = d_line; h <= dice_of_hit[hit]; ++h) falls += p[h];
        ends.attacker_hit_wins[hit] += m * fire_p[hits] * falls;
      }
      mid_attacker[static_cast<std::size_t>(dice) * a_states_ + at] += miss * m;
      missed_beside_attacker(at, miss * m * sixes(dice)[0], self);
      for (const side_move& mv : moves) {
        mid_attacker[static_cast<std::size_t>(mv.dice) * a_states_ + mv.to] += mv.p * m;
        if (a_line_[mv.to] > 0) missed_beside_attacker(mv.to, mv.p * m * sixes(mv.dice)[0], false);
      }
    };
    // The same beside the defender's state (`row` of the column) from attacker part k.
    auto defender_half = [&](std::uint32_t row, std::uint32_t k, double m, int line, int dice,
                             const std::vector<side_move>& part_moves, const std::vector<int>& dice_of_hit, bool self,
                             const std::vector<int>& options) {
      const std::uint32_t example = ao_.example_of_rank(k);
      double taken = 0;
      for (int h = line; h <= fire; ++h) taken += fire_p[h];
      ends.defender_stands[d_first + row] += m * taken;  // the attacker's line taken (GL 12.1)
      for (int hits = 0; hits < line && hits <= fire; ++hits) {
        const int n =
            dice_of_hit[a_.hit_of_option(example, hits, options.empty() ? 0 : options[static_cast<std::size_t>(hits)])];
        ends.defender_line_taken[n][d_first + row] += m * fire_p[hits];  // (the falls played later)
      }
      double* mid = &mid_defender[row * a_parts_];
      mid[static_cast<std::size_t>(dice) * dice_stride + k] += miss * m;
      missed_beside_defender(d_first + row, k, miss * m * sixes(dice)[0], self);
      for (const side_move& mv : part_moves) {
        mid[static_cast<std::size_t>(mv.dice) * dice_stride + mv.to] += mv.p * m;
        if (a_line_[ao_.part_begin[mv.to]] > 0)
          missed_beside_defender(d_first + row, mv.to, mv.p * m * sixes(mv.dice)[0], false);
      }
    };
    // GL 11.22: where attackers that crossed roll a die less in round 1, the start is played once with
    // those dice (the battle leaves it after round 1: both missing lands on the same parts without
    // the flag, which the column then takes as any other pair).
    if (start_apart_ && column == do_.part_rank[d_.part[0]]) {
      const std::uint32_t k = ao_.part_rank[a_.part[0]];
      const int line = a_.line_sp[0], dice = a_.hit_first_dice[a_.hit_of[0][0]];
      ++pairs_visited;
      expected_rounds += 1.0;
      transitions += start_part_moves_.size() + 1;
      attacker_half(ao_.place[0], 1.0, line, dice, start_moves_, a_.hit_first_dice, false, start_options_);
      defender_half(do_.place[0] - d_first, k, 1.0, line, dice, start_part_moves_, a_.hit_first_dice, false,
                    start_options_);
    }
    // First halves: the defender's fire on each attacker part, highest line SP first (GL 11.18 step 1,
    // the attacker's allocation, checks and rerolls).
    for (std::uint32_t k = 0; k < a_parts_; ++k) {
      const std::uint32_t first = ao_.part_begin[k], last = ao_.part_begin[k + 1];
      const int line = a_line_[first], dice = a_dice_[first];
      if (line == 0) continue;  // (mid-round only: the attacker's line gone in its checks)
      const double loop = self_loop(column, k, miss, dice);
      if (loop >= 1.0) {  // RULINGS "stalemate": nobody can hit (no ships, nothing waiting)
        for (std::uint32_t at = first; at < last; ++at) {
          sums.ends[static_cast<std::size_t>(battle_end::stalemate)] += column_mass[at];
          ends.attacker_stands[at] += column_mass[at];
        }
        for (std::uint32_t row = 0; row < rows; ++row)
          ends.defender_stands[d_first + row] += by_defender[(d_first + row) * a_parts_ + k];
        continue;
      }
      const double scale = 1.0 / (1.0 - loop);
      // The attacker's moves: listed, or made for its solved allocation where it differs.
      const solved_moves* chosen = solved(column, k);
      const std::vector<side_move>& part_moves =
          chosen ? chosen->part : a_part_moves_[static_cast<std::size_t>(fire)][k];
      const std::vector<int>& options = chosen ? chosen->options : rulings;
      bool visited = false;
      for (std::uint32_t at = first; at < last; ++at) {
        double& m = column_mass[at];
        if (m == 0.0) continue;
        m *= scale;
        visited = true;
        expected_rounds += m;
        attacker_half(at, m, line, dice,
                      chosen ? chosen->places[at - first] : a_moves_[static_cast<std::size_t>(fire)][at], a_.hit_dice,
                      true, options);
      }
      if (visited) {
        ++pairs_visited;
        transitions += part_moves.size() + 1;  // (the miss)
      }
      for (std::uint32_t row = 0; row < rows; ++row) {
        double& m = by_defender[(d_first + row) * a_parts_ + k];
        if (m == 0.0) continue;
        m *= scale;
        defender_half(row, k, m, line, dice, part_moves, a_.hit_dice, true, options);
      }
    }
    // Second halves: each mid-round mass fires with the dice it had before its checks. A fire that
    // takes the defender's whole line was played above; a miss went on above; hits go to lower
    // columns (the defender's reinforcement in its moves, the attacker's added here, GL 13.3), or
    // take the defender's line in its checks.
    for (std::size_t n = 0; n < dice_count; ++n) {
      const double* hit_p = sixes(static_cast<int>(n));
      double* mid = &mid_attacker[n * a_states_];
      std::uint32_t low = static_cast<std::uint32_t>(a_states_), high = 0;
      std::uint32_t last_part = static_cast<std::uint32_t>(a_parts_);
      for (std::uint32_t at = 0; at < a_states_; ++at) {
        if (mid[at] == 0.0) continue;
        if (a_rank_at_[at] != last_part) {  // a mid-round node (places run part by part)
          last_part = a_rank_at_[at];
          transitions += d_part_moves_[n][column].size() + 1;
        }
        if (a_line_[at] == 0) {
          // GL 12.1: the attacker's line gone in its checks; the defender fires retreat fire with its
          // line after this fire's hits (none of its checks: the round ends).
          for (int h = 0; h < d_line && h <= static_cast<int>(n); ++h)
            ends.attacker_checks_away[d_.hit_line_dice[d_.hit_of[d_rep][static_cast<std::size_t>(h)]]][at] +=
                hit_p[h] * mid[at];
          mid[at] = 0.0;
          continue;
        }
        low = std::min(low, at);
        high = at + 1;
      }
      if (low < high && !withdraws_.empty()) {
        // A retreat policy reads each pair the round ends on before the reinforcement (GL 12.2 step
        // 4, then GL 13.3): each attacker part's places taken on their own.
        for (const side_move& mv : d_part_moves_[n][column]) {
          if (d_part_line_[mv.to] == 0) {  // the defender's line gone in its checks
            for (std::uint32_t at = low; at < high; ++at) ends.attacker_stands[at] += mv.p * mid[at];
            continue;
          }
          const auto& d_entering = d_entering_part(mv.to);
          double* to = &by_attacker[mv.to * a_states_];
          for (std::uint32_t at = low; at < high;) {
            const std::uint32_t k = a_rank_at_[at], end = std::min(high, ao_.part_begin[k + 1]);
            if (const int side = withdrawing(mv.to, k); side >= 0) {
              double* row = side == round::attacker
                                ? ends.attacker_withdraws_at[static_cast<std::size_t>(d_part_line_units_[mv.to])]
                                : ends.attacker_stands.data();
              for (; at < end; ++at) row[at] += mv.p * mid[at];
            } else if (a_enter_.by_part[k].empty() && d_entering.empty()) {
              for (; at < end; ++at) to[at] += mv.p * mid[at];
            } else {
              for (; at < end; ++at) {
                const double m = mv.p * mid[at];
                if (m == 0.0) continue;
                each_entering(a_enter_.by_place[at], at, [&](std::uint32_t a_to, double qa) {
                  each_entering(d_entering, mv.to, [&](std::uint32_t d_to, double qd) {
                    by_attacker[d_to * a_states_ + a_to] += m * qa * qd;
                  });
                });
              }
            }
          }
        }
      } else if (low < high) {
        const double* going_on = mid;  // the attacker as the round ends where it goes on (GL 13.3)
        std::uint32_t on_high = high;
        if (a_enter_.any) {
          on_high = after_entering(mid, low, high, a_enter_.by_place, entered);
          going_on = entered.data();
        }
        for (const side_move& mv : d_part_moves_[n][column]) {
          if (d_part_line_[mv.to] == 0) {  // the defender's line gone in its checks
            for (std::uint32_t at = low; at < high; ++at) ends.attacker_stands[at] += mv.p * mid[at];
            continue;
          }
          double* to = &by_attacker[mv.to * a_states_];
          for (std::uint32_t at = low; at < on_high; ++at) to[at] += mv.p * going_on[at];
        }
      }
      for (std::uint32_t row = 0; row < rows; ++row) {
        double* from = &mid_defender[n * dice_stride + row * a_parts_];
        double attacker_gone = 0;
        std::uint32_t part_low = static_cast<std::uint32_t>(a_parts_), part_high = 0;
        for (std::uint32_t k = 0; k < a_parts_; ++k) {
          if (from[k] == 0.0) continue;
          if (a_line_[ao_.part_begin[k]] == 0) {
            attacker_gone += from[k];
            from[k] = 0.0;
            continue;
          }
          part_low = std::min(part_low, k);
          part_high = k + 1;
        }
        if (attacker_gone > 0) ends.defender_hit_holds[static_cast<int>(n)][d_first + row] += attacker_gone;
        if (part_low >= part_high) continue;
        if (!withdraws_.empty()) {  // (as above: each attacker part on its own)
          for (const side_move& mv : d_moves_[n][d_first + row]) {
            const bool line_gone = d_.line_sp[do_.state_at[mv.to]] == 0;
            const std::uint32_t d_rank = d_rank_at_[mv.to];
            const auto& d_entering = d_entering_place(mv.to);
            double* to = &by_defender[mv.to * a_parts_];
            for (std::uint32_t k = part_low; k < part_high; ++k) {
              const double m = mv.p * from[k];
              if (m == 0.0) continue;
              if (line_gone) {  // retreat fire from the attacker's line after its checks (GL 12.2)
                ends.defender_checks_away[part_line_dice_[k]][mv.to] += m;
              } else if (const int side = withdrawing(d_rank, k); side >= 0) {
                if (side == round::defender)
                  ends.defender_withdraws_at[static_cast<std::size_t>(part_line_units_[k])][mv.to] += m;
                else
                  ends.defender_stands[mv.to] += m;
              } else if (a_enter_.by_part[k].empty() && d_entering.empty()) {
                to[k] += m;
              } else {
                each_entering(d_entering, mv.to, [&](std::uint32_t d_to, double qd) {
                  each_entering(a_enter_.by_part[k], k, [&](std::uint32_t a_to, double qa) {
                    by_defender[d_to * a_parts_ + a_to] += m * qa * qd;
                  });
                });
              }
            }
          }
          continue;
        }
        const double* going_on = from;  // the attacker as the round ends where it goes on (GL 13.3)
        std::uint32_t on_high = part_high;
        if (a_enter_.any) {
          on_high = after_entering(from, part_low, part_high, a_enter_.by_part, entered_parts);
          going_on = entered_parts.data();
        }
        for (const side_move& mv : d_moves_[n][d_first + row]) {
          if (d_.line_sp[do_.state_at[mv.to]] == 0) {
            // Retreat fire from the attacker's line after its checks (GL 12.2).
            for (std::uint32_t k = part_low; k < part_high; ++k)
              if (from[k] != 0.0) ends.defender_checks_away[part_line_dice_[k]][mv.to] += mv.p * from[k];
            continue;
          }
          double* to = &by_defender[mv.to * a_parts_];
          for (std::uint32_t k = part_low; k < on_high; ++k) to[k] += mv.p * going_on[k];
        }
      }
    }
  }
  play_ends(ends, sums);
}

// Each end summed in the sweep, played once: retreat fire (GL 12.2-12.3) where a side retreats, and
// each side's part of the report (outcome_sums::add_side).
void column_solver::play_ends(const ends_to_play& ends, outcome_sums& sums) const {
  const int att = round::attacker, def = round::defender;
  auto retreat = [&](const battle_state& from, int side, int dice, double w, bool forced = true) {
    round::round_state t = round::track(r_, from);
    detail::exact_chooser c;
    c.weight = w;
    auto ended = [&](const battle_state& final_state, battle_end end) {
      sums.ends[static_cast<std::size_t>(end)] += c.weight;
      sums.add_side(r_, side, final_state, c.weight);
    };
    round::resolve_retreat_under_fire(r_, t, side, forced, dice, c, ended);
  };
  // A fire of `dice` on `side` in state `from`, hits `low` .. `high` (capped at the dice): f(state, p).
  auto fired_on = [&](const battle_state& from, int side, int dice, int low, int high, auto&& f) {
    const double* p = sixes(dice);
    for (int h = low; h <= std::min(high, dice); ++h) {
      if (p[h] == 0.0) continue;
      round::round_state t = round::track(r_, from);
      round::hit_counts taken{};
      std::uint32_t checks = 0;
      round::allocate_hits(r_, t, taken, side, h, checks);
      f(t.s, p[h]);
    }
  };
  // (Entries named, not bound: clang 14, CI's, cannot capture a structured binding in a lambda.)
  for (const auto& entry : ends.attacker_line_taken) {
    const int fire = entry.first.first, line_dice = entry.first.second;
    for (std::uint32_t at = 0; at < a_states_; ++at) {
      const double w = entry.second[at];
      if (w == 0.0) continue;
      const std::uint32_t s = ao_.state_at[at];
      fired_on(a_.states[s], att, fire, a_.line_sp[s], fire,
               [&](const battle_state& hit, double p) { retreat(hit, att, line_dice, w * p); });
    }
  }
  for (std::uint32_t at = 0; at < a_states_; ++at)
    if (ends.attacker_stands[at] != 0.0) sums.add_side(r_, att, a_.states[ao_.state_at[at]], ends.attacker_stands[at]);
  for (std::size_t hit = 0; hit < a_.hit.size(); ++hit)
    if (ends.attacker_hit_wins[hit] != 0.0) sums.add_side(r_, att, a_.hit[hit], ends.attacker_hit_wins[hit]);
  for (const auto& [line_dice, masses] : ends.attacker_checks_away.rows)
    for (std::uint32_t at = 0; at < a_states_; ++at)
      if (masses[at] != 0.0) retreat(a_.states[ao_.state_at[at]], att, line_dice, masses[at]);
  for (std::uint32_t at = 0; at < d_states_; ++at)
    if (ends.defender_stands[at] != 0.0) sums.add_side(r_, def, d_.states[do_.state_at[at]], ends.defender_stands[at]);
  const int ship = r_.ship_dice[att];
  for (const auto& entry : ends.defender_line_taken.rows) {
    const int dice = entry.first;
    for (std::uint32_t at = 0; at < d_states_; ++at) {
      const double w = entry.second[at];
      if (w == 0.0) continue;
      const std::uint32_t s = do_.state_at[at];
      // The attacker's fire takes the whole line (step 2); retreat fire from its line (GL 12.2).
      fired_on(d_.states[s], def, dice, d_.line_sp[s], dice,
               [&](const battle_state& hit, double p) { retreat(hit, def, dice - ship, w * p); });
    }
  }
  for (const auto& entry : ends.defender_hit_holds.rows) {
    const int dice = entry.first;
    for (std::uint32_t at = 0; at < d_states_; ++at) {
      const double w = entry.second[at];
      if (w == 0.0) continue;
      const std::uint32_t s = do_.state_at[at];
      fired_on(d_.states[s], def, dice, 0, d_.line_sp[s] - 1,
               [&](const battle_state& hit, double p) { sums.add_side(r_, def, hit, w * p); });
    }
  }
  for (const auto& [line_dice, masses] : ends.defender_checks_away.rows)
    for (std::uint32_t at = 0; at < d_states_; ++at)
      if (masses[at] != 0.0) retreat(d_.states[do_.state_at[at]], def, line_dice, masses[at]);
  for (const auto& [dice, masses] : ends.attacker_withdraws.rows)
    for (std::uint32_t at = 0; at < a_states_; ++at)
      if (masses[at] != 0.0) retreat(a_.states[ao_.state_at[at]], att, dice, masses[at], false);
  for (const auto& [dice, masses] : ends.defender_withdraws.rows)
    for (std::uint32_t at = 0; at < d_states_; ++at)
      if (masses[at] != 0.0) retreat(d_.states[do_.state_at[at]], def, dice, masses[at], false);
}

}  // namespace sweep

namespace {

// The sweep and the rounds' distribution of a prepared solver. The rounds' distribution reads only
// the prepared moves: on a second core it runs beside the sweep (each makes its sums in one
// thread, so the answer is the same either way).
void solve_prepared(sweep::column_solver& solver, const exact_options& options, sweep::outcome_sums& sums,
                    double& expected_rounds, battle_result& out) {
  const unsigned threads = usable_threads(options.threads);
  std::size_t window_bytes = 0;
  if (!options.rounds) {
    solver.sweep(sums, expected_rounds);
    out.method.threads = 1;
  } else if (threads >= 2) {
    side_by_side([&] { solver.sweep(sums, expected_rounds); },
                 [&] { out.rounds_distribution = solver.rounds(out.rounds_tail, window_bytes); });
    out.method.threads = 2;
  } else {
    solver.sweep(sums, expected_rounds);
    out.rounds_distribution = solver.rounds(out.rounds_tail, window_bytes);
    out.method.threads = 1;
  }
  out.method.memory_bytes = solver.held_bytes() + window_bytes;
  out.method.states = solver.pairs_visited;
  out.method.transitions = solver.transitions;
}

}  // namespace

exact_engine choose_engine(const round::battle_rules& r) {
  // Garrison and reinforcements are among the units; a militia behind a standing fort checks at
  // one better (GL 2.5), so its fail faces say whether it can fail.
  for (const auto& u : r.units)
    if (u.fail_faces > 0) return exact_engine::column_sweep;
  return exact_engine::plain_chain;
}

battle_result solve_by_column_sweep(const battle& b, const exact_options& options, const sweep::battle_sides* listed,
                                    const attacker_allocation* allocation) {
  const auto started = std::chrono::steady_clock::now();
  const round::battle_rules r = round::compile(b);
  const round::battle_state start = round::initial_state(r);
  battle_result out;
  out.units = detail::unit_rows(r);
  sweep::outcome_sums sums(r);
  double expected_rounds = 0;
  if (round::is_stalemate(r, start)) {  // RULINGS "stalemate": nobody can hit from the start
    sums.ends[static_cast<std::size_t>(battle_end::stalemate)] = 1.0;
    for (int side = 0; side < 2; ++side) sums.add_side(r, side, start, 1.0);
  } else {
    // Each side listed alone once: by the cost prediction where it listed them whole, else here.
    sweep::battle_sides own;
    if (!listed || !listed->complete) {
      if (allocation) throw std::logic_error("column sweep: a solved allocation needs the sides listed with it");
      own = sweep::list_battle_sides(r, options.state_limit);
      if (!own.complete) throw state_limit_exceeded(options.state_limit);
      listed = &own;
    }
    if (allocation && listed->side[0].other_allocations.size() != listed->side[0].states.size())
      throw std::logic_error("column sweep: a solved allocation needs the attacker's allocations listed");
    sweep::column_solver solver(r, options, *listed, allocation);
    solver.prepare();
    solve_prepared(solver, options, sums, expected_rounds, out);
  }
  for (std::size_t e = 0; e < 7; ++e) out.ends[e] = sums.ends[e];
  out.attacker_sp_lost = sums.lost[0];
  out.defender_sp_lost = sums.lost[1];
  for (std::size_t u = 0; u < r.units.size(); ++u) {
    out.units[u].survives = sums.survives[u];
    out.units[u].expected_sp = sums.sp[u];
    out.units[u].fails_morale = sums.fails[u];
  }
  if (r.garrison >= 0) out.garrison_eliminated = 1.0 - sums.survives[static_cast<std::size_t>(r.garrison)];
  detail::fill_outcomes(out);
  detail::clamp_probabilities(out);
  out.rounds_mean = expected_rounds;
  for (auto& p : out.rounds_distribution) p = detail::unit_interval(p);
  out.method.name = "exact";
  out.method.pruned_mass = 0.0;
  out.method.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return out;
}

}  // namespace musket::great_lakes