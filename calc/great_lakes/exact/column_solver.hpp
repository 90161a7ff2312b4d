#pragma once
// The column sweep's solver (exact/column_sweep.hpp explains the sweep), shared by exact/column_sweep.cpp (the
// sides, the sweep and its ends) and exact/column_rounds.cpp (the rounds' distribution). Internal to
// calc/great_lakes.
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <map>
#include <utility>
#include <vector>

#include "calc/great_lakes/battle.hpp"
#include "calc/great_lakes/exact/column_sweep.hpp"
#include "calc/great_lakes/exact/exact_chooser.hpp"
#include "calc/great_lakes/exact/side_states.hpp"
#include "calc/great_lakes/outcome.hpp"
#include "calc/great_lakes/rules/round.hpp"
#include "core/memory_meter.hpp"

namespace musket::great_lakes::sweep {

using round::battle_rules;
using round::battle_state;

// What the battle's ends add up to: each end's probability, each side's SP lost, each unit's
// survival, SP and morale failure (the report's numbers, battle_result).
struct outcome_sums {
  std::array<double, 7> ends{};
  std::array<std::vector<double>, 2> lost;
  std::vector<double> survives, sp, fails;
  explicit outcome_sums(const battle_rules& r)
      : survives(r.units.size(), 0.0), sp(r.units.size(), 0.0), fails(r.units.size(), 0.0) {
    for (int side = 0; side < 2; ++side) lost[side].assign(static_cast<std::size_t>(r.starting_sp[side]) + 1, 0.0);
  }
  // `side`'s part of a finished battle in state t.
  void add_side(const battle_rules& r, int side, const battle_state& t, double w) {
    int total = 0;
    for (int i = r.begin[side]; i < r.end[side]; ++i) {
      total += r.units[i].start_sp - t.sp[i];
      if (t.sp[i] > 0) survives[i] += w;
      sp[i] += w * t.sp[i];
      if (t.st[i] == round::failed) fails[i] += w;
    }
    lost[side][static_cast<std::size_t>(total)] += w;
  }
};

// Binomial probabilities of sixes (GL 11.22: every fire but retreat fire hits on 6), by hits.
inline const double* sixes(int dice) {
  return shared_binomial_tables().pmf_row(1, dice);
}

// Moves sorted by (target, dice), each such pair once with its chances summed.
inline void merge_moves(std::vector<side_move>& moves) {
  std::sort(moves.begin(), moves.end(),
            [](const side_move& x, const side_move& y) { return x.to != y.to ? x.to < y.to : x.dice < y.dice; });
  std::size_t kept = 0;
  for (std::size_t i = 0; i < moves.size(); ++i)
    if (kept > 0 && moves[kept - 1].to == moves[i].to && moves[kept - 1].dice == moves[i].dice)
      moves[kept - 1].p += moves[i].p;
    else
      moves[kept++] = moves[i];
  moves.resize(kept);
}

// The bytes a list of moves lists hold, the lists' own included (the memory meter's count).
inline std::size_t list_bytes(const std::vector<std::vector<side_move>>& lists) {
  std::size_t bytes = 0;
  for (const auto& list : lists) bytes += sizeof(side_move) * list.capacity() + sizeof(list);
  return bytes;
}

// A side's moves under `enemy_dice` of fire, summed over the hits below its line SP, each (target,
// dice) once, in target order; targets mapped by `to`. (More hits take the whole line.) `options`:
// by hits, the allocation taken (side_states' other_allocations); null: the rulings'.
template <class To>
inline std::vector<side_move> moves_under_fire(const side_states& s, std::uint32_t from, int enemy_dice, bool keep_dice,
                                               To&& to, const int* options = nullptr) {
  std::vector<side_move> moves;
  const double* p = sixes(enemy_dice);
  for (int hits = 1; hits <= enemy_dice && hits < s.line_sp[from]; ++hits)
    for (const side_move& m : s.moves_of_option(from, hits, options ? options[hits] : 0))
      moves.push_back({to(m.to), keep_dice ? m.dice : 0, p[hits] * m.p});
  merge_moves(moves);
  return moves;
}

// f(target, p) for each state the round's reinforcement (GL 13.3) makes of `self` (side_states'
// `entering`, mapped), or f(self, 1) where none wait.
template <class F>
inline void each_entering(const std::vector<side_move>& entering, std::uint32_t self, F&& f) {
  if (entering.empty()) {
    f(self, 1.0);
    return;
  }
  for (const side_move& m : entering) f(m.to, m.p);
}

// The moves whose target's line stands, each followed by the reinforcement there (`entering` by
// target; the battle goes on, GL 13.3), merged by (target, dice); the others kept as they are.
template <class LineOf>
inline std::vector<side_move> then_entering(const std::vector<side_move>& moves,
                                            const std::vector<std::vector<side_move>>& entering, LineOf&& line_of) {
  std::vector<side_move> out;
  for (const side_move& mv : moves) {
    if (line_of(mv.to) == 0) {
      out.push_back(mv);
      continue;
    }
    each_entering(entering[mv.to], mv.to, [&](std::uint32_t to, double p) { out.push_back({to, mv.dice, mv.p * p}); });
  }
  merge_moves(out);
  return out;
}

// A side's reinforcement (GL 13.3) by place and by part (side_states' `entering`, its targets
// mapped to places and ranks), and each part's chance that nobody enters.
struct side_entering {
  std::vector<std::vector<side_move>> by_place, by_part;  // empty where none wait
  std::vector<double> stay;                               // by rank
  bool any = false;
};
inline side_entering entering_of(const side_states& s, const side_order& o) {
  side_entering e;
  e.by_place.resize(s.states.size());
  e.by_part.resize(s.example.size());
  e.stay.assign(s.example.size(), 1.0);
  for (std::uint32_t place = 0; place < s.states.size(); ++place)
    for (const side_move& m : s.entering[o.state_at[place]]) {
      e.by_place[place].push_back({o.place[m.to], 0, m.p});
      e.any = true;
    }
  for (std::uint32_t k = 0; k < s.example.size(); ++k) {
    const std::uint32_t example = o.example_of_rank(k);
    if (s.entering[example].empty()) continue;  // (nobody waits: it stays)
    e.stay[k] = 0;                              // (a unit that always enters leaves no outcome where it stays)
    for (const side_move& m : s.entering[example]) {
      e.by_part[k].push_back({o.part_rank[s.part[m.to]], 0, m.p});
      if (m.to == example) e.stay[k] = m.p;
    }
  }
  return e;
}

// `from` over [low, high) after the reinforcement there (`entering` by index, GL 13.3) into `into`
// (zeroed first): one past the last index it reaches.
inline std::uint32_t after_entering(const double* from, std::uint32_t low, std::uint32_t high,
                                    const std::vector<std::vector<side_move>>& entering, std::vector<double>& into) {
  std::fill(into.begin(), into.end(), 0.0);
  std::uint32_t reached = low;
  for (std::uint32_t at = low; at < high; ++at)
    if (from[at] != 0.0)
      each_entering(entering[at], at, [&](std::uint32_t to, double q) {
        into[to] += q * from[at];
        reached = std::max(reached, to + 1);
      });
  return reached;
}

// Masses by (a small key: dice), each a dense row over a side's states, made on first use.
struct by_dice {
  std::size_t width = 0;
  std::map<int, std::vector<double>> rows;
  std::vector<double>& operator[](int dice) {
    auto& row = rows[dice];
    if (row.empty()) row.assign(width, 0.0);
    return row;
  }
};

// How the battle ended, summed by what each end depends on, to be played once after the sweep.
struct ends_to_play {
  // The attacker's line taken by the defender's fire (GL 12.1): by (defender's fire dice, its line
  // dice: the retreat fire, GL 12.2), the attacker's state before the fire.
  std::map<std::pair<int, int>, std::vector<double>> attacker_line_taken;
  std::vector<double> attacker_stands;    // by attacker state: the attacker won (or a stalemate)
  std::vector<double> attacker_hit_wins;  // by attacker hit state: its fire took the defender's line
  by_dice attacker_checks_away;           // by the defender's line dice, attacker state: its line gone in its checks
  std::vector<double> defender_stands;    // by defender state
  by_dice defender_line_taken;            // by the attacker's fire dice, defender state: its whole line taken
  by_dice defender_hit_holds;             // by the attacker's fire dice, defender state: holds (the attacker's checks)
  by_dice defender_checks_away;           // by the attacker's line dice, defender state: its line gone in its checks
  // A side's retreat policy taking it away at a round's end (GL 12.2 step 4): by the other side's
  // line units (a die each, GL 12.2), the retreating side's state.
  by_dice attacker_withdraws, defender_withdraws;
  // Their rows by the other side's line units, made before the sweep (no look-up per mass).
  std::vector<double*> attacker_withdraws_at, defender_withdraws_at;
};

class column_solver {
 public:
  // `sides`: both sides listed alone (list_battle_sides, complete), held while the solver lives.
  // `allocation`: the attacker's hits allocated so (`sides` listing each allocation it takes).
  column_solver(const battle_rules& r, const exact_options& options, const battle_sides& sides,
                const attacker_allocation* allocation = nullptr)
      : r_(r),
        options_(options),
        a_(sides.side[0]),
        d_(sides.side[1]),
        allocation_(allocation),
        meter_(options.memory_limit),
        first_round_(r.first_round_matters) {}

  // Lists the moves. Throws state_limit_exceeded where a side alone has more states than
  // options.state_limit or the pairs of parts pass it, memory_limit_exceeded past
  // options.memory_limit.
  void prepare();

  void sweep(outcome_sums& sums, double& expected_rounds);
  // `window_bytes`: what the rounds' window held, if one was used (beside the meter's count).
  std::vector<double> rounds(double& tail, std::size_t& window_bytes) const;
  // The bytes of the rounds' window (exact/column_rounds.cpp), and whether they fit the memory bound.
  double window_bytes() const;
  bool window_fits() const;
  // The first `window` rounds from one sweep over the folded pairs, each pair's arrivals by round
  // held in a window: present[t] the mass in the battle at round t + 1's start, `last` each
  // pair's then at the window's last round.
  void rounds_in_window(std::size_t window, std::vector<double>& present, std::vector<double>& last) const;

  // The attacker's moves under a solved allocation (allocation_) that takes another option than the
  // rulings' for some hit count: the fire, the options by hits, and the moves from the part and from
  // each of its places (in place order) under that fire.
  struct solved_moves {
    int fire = 0;
    std::vector<int> options;
    std::vector<side_move> part;
    std::vector<std::vector<side_move>> places;
  };
  // Those of the attacker's part of rank k under the defender's column, or null: the listed moves.
  const solved_moves* solved(std::uint32_t column, std::uint32_t k) const {
    const std::uint32_t at = allocation_of_.empty() ? 0 : allocation_of_[column * a_parts_ + k];
    return at == 0 ? nullptr : &solved_[at];
  }

  std::size_t pairs_visited = 0;
  std::size_t transitions = 0;  // folded half-round moves
  std::size_t held_bytes() const { return meter_.peak(); }

 private:
  // `bytes` more held (the sides, the dense arrays, each list of moves as it is made): past the
  // memory bound, memory_limit_exceeded (core/memory_meter.hpp).
  void hold(std::size_t bytes) { meter_.add(bytes, a_parts_ * d_parts_); }
  void play_ends(const ends_to_play& ends, outcome_sums& sums) const;
  // The side whose retreat policy (rules/round.hpp's wants_retreat: the attacker asked first) takes it
  // away from the pair of defender rank `column` and attacker rank `k` at a round's end, before
  // any reinforcement (GL 12.2 step 4 comes before GL 13.3), or -1.
  int withdrawing(std::uint32_t column, std::uint32_t k) const {
    return withdraws_.empty() ? -1 : withdraws_[column * a_parts_ + k];
  }
  // The round's end on the pair of defender rank `column` and attacker rank k: nothing changed
  // where both fires missed and nobody entered (GL 13.3), the self-loop's chance; none where a
  // policy takes a side away there (GL 12.2 step 4: both missing is then a retreat).
  double self_loop(std::uint32_t column, std::uint32_t k, double miss, int dice) const {
    if (withdrawing(column, k) >= 0) return 0.0;
    return miss * sixes(dice)[0] * a_enter_.stay[k] * d_enter_.stay[column];
  }
  // Mass m of a round ending on the pair of defender rank `column` and the attacker at place `at`,
  // before any reinforcement: where a policy takes a side away there (GL 12.2 step 4), summed as
  // its end (the side retreats under a die for each line unit of the other, which stands) and true.
  bool round_ends_beside_attacker(ends_to_play& ends, std::uint32_t column, std::uint32_t at, double m) const {
    const int side = withdrawing(column, a_rank_at_[at]);
    if (side < 0) return false;
    if (side == round::attacker)
      ends.attacker_withdraws_at[static_cast<std::size_t>(d_part_line_units_[column])][at] += m;
    else
      ends.attacker_stands[at] += m;
    return true;
  }
  // The same beside the defender at place `place`, the attacker at rank k.
  bool round_ends_beside_defender(ends_to_play& ends, std::uint32_t place, std::uint32_t k, double m) const {
    const int side = withdrawing(d_rank_at_[place], k);
    if (side < 0) return false;
    if (side == round::defender)
      ends.defender_withdraws_at[static_cast<std::size_t>(part_line_units_[k])][place] += m;
    else
      ends.defender_stands[place] += m;
    return true;
  }
  // The defender's reinforcement at a round's end from its part of rank k where it is not in its
  // moves already (d_in_moves_), for each_entering; else none (f(self, 1)).
  const std::vector<side_move>& d_entering_part(std::uint32_t k) const {
    static const std::vector<side_move> none;
    return d_in_moves_ ? none : d_enter_.by_part[k];
  }
  const std::vector<side_move>& d_entering_place(std::uint32_t place) const {
    static const std::vector<side_move> none;
    return d_in_moves_ ? none : d_enter_.by_place[place];
  }

  const battle_rules& r_;
  const exact_options& options_;
  const side_states &a_, &d_;
  const attacker_allocation* allocation_;
  memory_meter meter_;
  side_order ao_, do_;
  std::size_t a_parts_ = 0, a_states_ = 0, d_parts_ = 0, d_states_ = 0;
  int a_dice_count_ = 1;
  std::vector<std::vector<std::vector<side_move>>> a_moves_, a_part_moves_, d_moves_, d_part_moves_;
  std::vector<int> d_part_line_, d_part_line_units_;  // by defender rank
  // A first round that differs (GL 11.22): the start played apart, its moves by place and by part.
  bool first_round_ = false, start_apart_ = false;
  std::vector<side_move> start_moves_, start_part_moves_;
  std::vector<int> start_options_;  // by hits: the allocation round 1 takes (empty: the rulings')
  // By pair of parts (column * a_parts_ + k): its entry of solved_ (0: the listed moves); each
  // distinct (part, fire, options) made once. rulings_taken[fire][k] is set where some pair takes
  // the rulings' allocation (the listed moves it needs).
  std::vector<std::uint32_t> allocation_of_;
  std::vector<solved_moves> solved_;
  void list_solved_moves(std::vector<std::vector<std::uint8_t>>& rulings_taken);
  std::vector<int> a_line_, a_dice_;                   // by attacker place
  std::vector<std::uint32_t> a_rank_at_;               // by attacker place: its part's rank
  std::vector<int> part_line_dice_, part_line_units_;  // by attacker rank
  std::vector<std::int8_t> withdraws_;                 // withdrawing's, by pair; empty: no policy retreats
  side_entering a_enter_, d_enter_;                    // GL 13.3 at a round's end
  // Whether the defender's reinforcement is in its moves (d_moves_, d_part_moves_: no retreat
  // policy reads the pair before it), else played at each round's end after the policies.
  bool d_in_moves_ = false;
  std::vector<std::uint32_t> d_rank_at_;  // by defender place: its part's rank
};

}  // namespace musket::great_lakes::sweep
