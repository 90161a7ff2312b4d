#include "calc/great_lakes/folded_solver.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <exception>
#include <memory>
#include <span>
#include <thread>
#include <vector>

#include "calc/great_lakes/exact_parts.hpp"
#include "calc/great_lakes/folded_keys.hpp"
#include "calc/great_lakes/folded_moves.hpp"
#include "calc/great_lakes/folded_numbering.hpp"
#include "calc/great_lakes/folded_rounds.hpp"
#include "calc/great_lakes/folded_stages.hpp"
#include "calc/great_lakes/folded_states.hpp"
#include "calc/great_lakes/rules/round.hpp"
#include "calc/great_lakes/side_labels.hpp"
#include "core/markov_chain.hpp"

namespace musket::great_lakes {

using namespace detail;  // exact_parts.hpp: shared with battle.cpp and optimal/game.cpp
using namespace folded;  // the engine's parts, a header each (folded_*.hpp, side_labels.hpp)

namespace {

// ---- The folded exact engine ----------------------------------------------------------------
// A unit that has left the line for good (eliminated, or failed morale: GL 11.24) never fires and
// takes no hit while any line unit of its side stands (RULINGS hit allocation); once none stands,
// that side retreats or is eliminated and the battle ends (GL 12). So the SP a failed unit carries
// changes nothing in any round but the last, yet keeping it in the state multiplies the states by
// every SP each unit could have failed with. The folded engine therefore runs the chain on states
// in which every unit out of the line is just `out`, and carries, beside each such state, the
// distribution of what the out units hold ("labels": their SP and status), one side at a time:
// a side's final SP, its units and the way it leaves depend only on its own out units, never on
// the other side's. Each label is pushed along the folded chain's transitions (a transition adds
// the units that left the line in that round); at the last round the real allocation and retreat
// fire are played on the state with that side's labels put back. Nothing is pruned or
// approximated: this is the same sum as the unfolded chain, grouped differently.

class folded_solver {
 public:
  folded_solver(const battle_rules& rules, const exact_options& options)
      : r(rules),
        n(rules.units.size()),
        states(rules, options.state_limit, options.ranked_keys),
        table{folded::side_labels(rules, 0, options.state_limit), folded::side_labels(rules, 1, options.state_limit)},
        sums(rules),
        options_(options),
        deltas{key_numbering(delta_bytes(rules, 0), options.ranked_keys),
               key_numbering(delta_bytes(rules, 1), options.ranked_keys)},
        masks_(rules),
        label_keys_{key_numbering(delta_bytes(rules, 0), options.ranked_keys),
                    key_numbering(delta_bytes(rules, 1), options.ranked_keys)},
        meter_(options.memory_limit, states_found_) {
    rounds.max_rounds = options.max_listed_rounds + 1;
    const auto never_chooses = [](const retreat_policy& p) {
      return p.kind == retreat_kind::never || p.kind == retreat_kind::optimal;
    };
    separable_ = never_chooses(rules.policy[0]) && never_chooses(rules.policy[1]);
    dice_values_ = mid_round_bytes(rules)[n + 2].size();
    set_tail_byte(after_round_tail_, n + 3, static_cast<std::uint8_t>(battle_end::none));
    for (int side = 0; side < 2; ++side) {
      deltas[side].place(state_key{});
      delta_keys_[side].push_back(state_key{});
    }
  }

  void solve(const battle_state& start) {
    states.intern(r, encode(r, start, battle_end::none));  // state 0
    rounds.enter(0, 0, 1.0);
    for (int side = 0; side < 2; ++side) table[side].start(0);
    const unsigned threads = options_.threads ? options_.threads : std::thread::hardware_concurrency();
    threads_used = threads < 2 ? 1 : 2;
    if (threads < 2) {  // one core: the stages take turns, in the same order, to the same sums
      state_round step;
      states.in_order([&](std::uint32_t i) {
        play(i, step);
        carry(step);
      });
    } else {
      solve_side_by_side();
    }
    resolve_retreats();
    memory_bytes = meter_.finish();
  }

 private:
  void solve_side_by_side() {
    round_queue queue;
    std::exception_ptr consumer_failed;
    std::thread consumer([&] {
      try {
        while (state_round* step = queue.take_full()) {
          // The next states' own labels, taken first thing: asked for ahead.
          for (int side = 0; side < 2; ++side) {
            if (const state_round* next = queue.peek(2)) table[side].prefetch_slot(next->state);
            if (const state_round* next = queue.peek(1)) table[side].prefetch_own(next->state);
          }
          carry(*step);
          recycle(*step);
          queue.give_back(step);
        }
      } catch (...) {
        consumer_failed = std::current_exception();
        queue.stop();
      }
    });
    try {
      states.in_order(
          [&](std::uint32_t i) {
            state_round* step = queue.take_empty();
            if (!step) throw stage_stopped();
            play(i, *step);
            queue.put_full(step);
          },
          [&](std::uint32_t next, int distance) {
            if (distance == 8) {
              states.prefetch(next);
              rounds.prefetch_slot(next);
            } else {
              rounds.prefetch(next);
            }
          });
      queue.finish();
    } catch (const stage_stopped&) {
    } catch (...) {
      queue.stop();
      consumer.join();
      throw;
    }
    consumer.join();
    if (consumer_failed) std::rethrow_exception(consumer_failed);
  }

 public:
  const battle_rules& r;
  const std::size_t n;
  // The stages' data on cache lines of their own: a line written by one thread and read by the
  // other moves between the cores at every write.
  alignas(64) folded_states states;  // stage one's
  round_profile rounds;
  alignas(64) std::array<folded::side_labels, 2> table;  // stage two's from here
  outcome_sums sums;
  double expected_rounds = 0.0;
  unsigned threads_used = 1;
  std::size_t memory_bytes = 0;  // the most counted (memory_meter)

 private:
  struct stage_stopped {};

  // Stage one: node i's part of a round, played once for all its labels. The round is split in two
  // (round::play_defender_fire): a state plays the defender's fire and the attacker's morale, and
  // goes on to a mid-round node (the attacker after its checks, its fire dice, the defender as it
  // was), which plays the attacker's fire and the rest of the round. Each half lists one side's
  // outcomes, where the whole round listed their products: many states share a mid-round node.
  void play(std::uint32_t i, state_round& step) {
    throw_if_cancelled(options_);
    battle_end ignored;
    const state_key key = states.key(i);
    const bool mid_round = states.kind(i) == folded_states::mid_round;
    battle_state s = decode(r, key, ignored);
    const int mid_round_dice = mid_round ? get_byte(key, n + 2) : 0;
    if (mid_round) s.first_round = false;  // (that byte holds the dice)
    step.state = i;
    step.mid_round = mid_round;
    step.out_units = 0;
    state_key out_mask;  // the same, 0xFF a byte, for fold_successor
    for (std::size_t u = 0; u < n; ++u)
      if (s.st[u] == round::out) {
        step.out_units |= 1u << u;
        set_byte(out_mask, u, 0xFF);
      }
    for (auto& d : step.new_deltas) d.clear();
    step.ends_now = step.stalemate = 0.0;
    std::array<state_key, 2> in_line;  // per side, its units not out (0xFF a byte)
    for (int side = 0; side < 2; ++side) {
      step.standing[side].reset(r, side);
      starts_here_[side].clear();
      step.new_starts[side].clear();
      for (std::size_t w = 0; w < in_line[side].words.size(); ++w)
        in_line[side].words[w] = masks_.side[side].words[w] & ~out_mask.words[w];
    }
    step.stay = 0.0;
    exact_chooser c;
    c.merge_capped = false;  // the spill onto out units is needed hit by hit
    round::round_state t = round::track(r, s);
    // A mid-round node whose second half is recorded already for its defender and dice replays it;
    // so does a state's round where the defender's fire misses (`unhit` below), from its own memo.
    // A half being recorded is played at weight 1 and its outcomes weighed by `half_scale` (the
    // weight it was reached with; 1 at a mid-round node): each outcome's weight is then the same
    // product whether the half is played or replayed.
    std::vector<half_memo>* memo = &memo_;
    std::size_t memo_at = mid_round ? second_half_memo_place(memo_, t, mid_round_dice, states.parts(i)) : no_memo;
    bool recording = memo_at != no_memo && memo_[memo_at].status == half_memo::not_yet;
    bool recording_failed = false;
    double half_scale = 1.0;
    first_recording_ = false;  // (play_first_half's)
    first_paused_ = 0;
    auto emit = [&](const battle_state& t, battle_end end) {
      const double weight = half_scale * c.weight;
      if (end == battle_end::none) {
        state_key fold;
        std::array<state_key, 2> left;
        std::array<bool, 2> any_left{false, false};
        fold_successor(masks_, t, out_mask, fold, left, any_left);
        if (fold == key) {  // the self-loop: nothing changed
          if (recording) memo_outcomes_.push_back({states.parts(i)[round::defender], 0, c.weight, 0, 0, 0, 0});
          step.stay += weight;
          return;
        }
        std::array<std::uint32_t, 2> left_number{0, 0};
        for (std::size_t side = 0; side < 2; ++side) {
          if (!any_left[side]) continue;
          // Outcomes come in runs that share one side's delta (the other side's morale varies).
          if (left[side] == last_delta_[side]) {
            left_number[side] = last_delta_number_[side];
            continue;
          }
          bool added;
          left_number[side] = deltas[side].place(left[side], added);
          if (added) step.new_deltas[side].push_back(left[side]);
          last_delta_[side] = left[side];
          last_delta_number_[side] = left_number[side];
        }
        const std::uint32_t node = states.intern(r, fold);
        if (recording) {
          if (any_left[round::attacker])
            recording_failed = true;
          else
            memo_outcomes_.push_back({states.parts(node)[1], left_number[round::defender], c.weight, 0, 0, 0, 0});
        }
        found_.add(node, false, out_units_of(fold, n), weight, left_number);
        return;
      }
      recording_failed = true;  // (a half that can end in a stalemate is played, not replayed)
      // RULINGS: nobody can ever hit; nobody retreats. Both sides' standing units end as they are.
      step.ends_now += weight;
      step.stalemate += weight;
      for (int side = 0; side < 2; ++side) step.standing[side].add(r, side, t, step.out_units, weight);
    };
    auto retreat = [&](const battle_state& t, int side, bool forced, int spill) {
      const double weight = half_scale * c.weight;
      if (recording) {
        const auto units_at = static_cast<std::uint32_t>(memo_units_.size());
        for (int u = r.begin[round::defender]; u < r.end[round::defender]; ++u) {
          memo_units_.push_back(t.sp[u]);
          memo_units_.push_back(t.st[u]);
        }
        memo_outcomes_.push_back({units_at, 0, c.weight, static_cast<std::int16_t>(spill), 1,
                                  static_cast<std::uint8_t>(side), static_cast<std::uint8_t>(forced)});
      }
      step.ends_now += weight;
      step.standing[1 - side].add(r, 1 - side, t, step.out_units, weight);
      // The retreating side's units not out, as unit_bytes gives them (its out units come from each
      // label), eight to a word; the rest of the retreat rides in the last word.
      state_key k;
      for (std::size_t w = 0; w * 8 < n; ++w) k.words[w] = unit_bytes(t, w) & in_line[side].words[w];
      const int dice = round::retreat_fire_dice(r, t, side, forced);
      k.words[4] = (forced ? 1u : 0u) | static_cast<std::uint64_t>(spill) << 8 | static_cast<std::uint64_t>(dice) << 24;
      bool added;
      const std::uint32_t start = retreat_starts_[side].place(k, added);
      if (added) {
        step.new_starts[side].push_back(k);
        retreat_sums_[side].push_back(0.0);
        start_seen_in_[side].push_back(0);
      }
      if (start_seen_in_[side][start] != i + 1) {  // the first time in this state
        start_seen_in_[side][start] = i + 1;
        retreat_sums_[side][start] = 0.0;
        starts_here_[side].push_back(start);
      }
      retreat_sums_[side][start] += weight;
    };
    // The attacker after its morale checks, rolling `dice` next: a mid-round node.
    auto emit_mid_round = [&](const round::round_state& t, int dice) {
      state_key fold;
      std::array<state_key, 2> left;
      std::array<bool, 2> any_left{false, false};
      fold_successor(masks_, t.s, out_mask, fold, left, any_left);
      set_tail_byte(fold, n + 2, static_cast<std::uint8_t>(dice));
      set_tail_byte(fold, n + 3, mid_round_mark);
      std::array<std::uint32_t, 2> left_number{0, 0};
      if (any_left[round::attacker]) {  // (the defender's side is as it was)
        bool added;
        left_number[round::attacker] = deltas[round::attacker].place(left[round::attacker], added);
        if (added) step.new_deltas[round::attacker].push_back(left[round::attacker]);
      }
      const std::uint32_t node = states.intern(r, fold, folded_states::mid_round);
      if (first_recording_ && first_paused_ == 0)
        first_events_.push_back({first_event::mid_round, static_cast<std::uint8_t>(dice), 0,
                                 states.parts(node)[round::attacker], left_number[round::attacker], c.weight});
      found_.add(node, true, out_units_of(fold, n), c.weight, left_number);
    };
    auto emit_state = [&](const round::round_state& t, battle_end end) { emit(t.s, end); };
    auto retreat_state = [&](round::round_state& t, int side, bool forced, int spill) {
      retreat(t.s, side, forced, spill);
    };
    auto checked_already = [](round::round_state& t, const round::hit_counts&, auto& next) { next(t); };
    const std::size_t held_before = ring_held(step);
    // Replays a recorded half: the same outcomes in the same order as its play, the same sums.
    auto replay = [&](const half_memo& recorded) {
      const std::uint32_t attacker_number = states.parts(i)[round::attacker];
      const state_key attacker_part = states.part_key(round::attacker, attacker_number);
      for (std::uint32_t k = recorded.begin; k < recorded.end; ++k) {
        const half_outcome& o = memo_outcomes_[k];
        c.weight = o.p;
        if (o.kind == 0) {
          const state_key fold =
              combine(combine(attacker_part, states.part_key(round::defender, o.part)), after_round_tail_);
          if (fold == key) {  // (a state's round where nothing changed)
            step.stay += half_scale * o.p;
            continue;
          }
          found_.add(states.intern(r, fold, folded_states::state, {attacker_number, o.part}), false,
                     out_units_of(fold, n), half_scale * o.p, {0, o.left});
        } else {
          battle_state u = s;
          const std::uint8_t* units = &memo_units_[o.part];
          for (int d = r.begin[round::defender]; d < r.end[round::defender]; ++d, units += 2) {
            u.sp[d] = units[0];
            u.st[d] = units[1];
          }
          retreat(u, o.side, o.forced != 0, o.spill);
        }
      }
    };
    // Replays a mid-round node's recorded half from its moves as summed (keep_summed), then its
    // retreats: the same lists, sums and numbering as replay() would make, each move found once.
    auto replay_summed = [&](const half_memo& recorded) {
      const std::uint32_t attacker_number = states.parts(i)[round::attacker];
      const state_key attacker_part = states.part_key(round::attacker, attacker_number);
      auto& moves = found_.replayed_moves();
      // Each target read by its parts (its key built only for a node never found before), its
      // out units the union of its parts'; the look-ups asked for some moves ahead.
      const std::uint32_t attacker_out = states.part_out(n, round::attacker, attacker_number);
      std::span<const std::uint32_t> row = states.row(folded_states::state, attacker_number, 0);
      constexpr std::uint32_t ahead = 8;
      for (std::uint32_t k = recorded.moves_begin; k < recorded.moves_end; ++k) {
        if (k + ahead < recorded.moves_end && summed_moves_[k + ahead].target < row.size())
          __builtin_prefetch(&row[summed_moves_[k + ahead].target], 0);
        successor_move move = summed_moves_[k];
        const std::uint32_t part = move.target;
        std::uint32_t node = states.find(folded_states::state, attacker_number, 0, part);
        if (node == folded_states::no_node) {
          const state_key fold =
              combine(combine(attacker_part, states.part_key(round::defender, part)), after_round_tail_);
          node = states.intern(r, fold, folded_states::state, {attacker_number, part});
          row = states.row(folded_states::state, attacker_number, 0);  // (the row may have grown)
        }
        move.target = node;
        move.out = attacker_out | states.part_out(n, round::defender, part);
        moves.push_back(move);
      }
      auto& left = found_.replayed_left(round::defender);
      for (std::uint32_t k = recorded.left_begin; k < recorded.left_end; ++k) {
        left_part part = summed_left_[k];
        const successor_move& move = moves[part.target];
        part.target = move.target;
        part.out = move.out;
        left.push_back(part);
      }
      replay(recorded);  // (its retreats)
    };
    // Plays a half, recording it where memo_at says so (it was never met).
    auto play_half = [&](round::round_state& u, int dice, round::defender_line line) {
      if (recording) (*memo)[memo_at].begin = static_cast<std::uint32_t>(memo_outcomes_.size());
      round::hit_counts hits{};
      round::play_attacker_fire(r, u, dice, hits, line, c, checked_already, emit_state, retreat_state);
      if (!recording) return;
      half_memo& played = (*memo)[memo_at];
      if (recording_failed) {
        memo_outcomes_.resize(played.begin);
        played.status = half_memo::not_separable;
        return;
      }
      played.end = static_cast<std::uint32_t>(memo_outcomes_.size());
      played.status = half_memo::recorded;
      if (memo == &memo_) keep_summed(played);
    };
    if (mid_round) {
      if (memo_at != no_memo && memo_[memo_at].status == half_memo::recorded)
        replay_summed(memo_[memo_at]);
      else
        play_half(t, mid_round_dice, round::defender_line::stands);
    } else {
      // The defender's fire missed: the attacker fires from the state as it is, its second half
      // the same for every attacker that can hit with these dice (not in round 1, whose end clears
      // the first-round flag).
      auto unhit = [&](round::round_state& u, int dice) {
        memo = &unhit_memo_;
        memo_at = s.first_round ? no_memo : second_half_memo_place(unhit_memo_, u, dice, states.parts(i));
        const double reached = c.weight;
        half_scale = memo_at == no_memo ? 1.0 : reached;
        if (memo_at != no_memo && unhit_memo_[memo_at].status == half_memo::recorded) {
          replay(unhit_memo_[memo_at]);
        } else {
          recording = memo_at != no_memo;
          recording_failed = false;
          if (recording) c.weight = 1.0;
          play_half(u, dice, round::defender_line::any);
          recording = false;
        }
        c.weight = reached;
        half_scale = 1.0;
      };
      play_first_half(i, s, t, c, unhit, retreat, retreat_state, emit_mid_round);
    }
    found_.hand_over(step.moves, step.left);
    // The rounds need no label: carried here, where the labels' stage has work enough.
    rounds.play(i, step.stay, step.ends_now, step.moves, step.mid_round);
    ring_bytes_ += ring_held(step) - held_before;
    states_found_.store(states.size(), std::memory_order_relaxed);
    meter_.set(0, states.bytes() + deltas[0].bytes() + deltas[1].bytes() + rounds.bytes() +
                      (ring_bytes_ - ring_freed_.load(std::memory_order_relaxed)) +
                      (retreat_starts_[0].size() + retreat_starts_[1].size()) * hashed_entry_bytes<state_key, char> +
                      (memo_.capacity() + unhit_memo_.capacity()) * sizeof(half_memo) +
                      summed_moves_.capacity() * sizeof(successor_move) + summed_left_.capacity() * sizeof(left_part) +
                      memo_outcomes_.capacity() * sizeof(half_outcome) + memo_units_.capacity() +
                      first_halves_.capacity() * sizeof(half_memo) + first_events_.capacity() * sizeof(first_event) +
                      first_units_.capacity() + first_hits_.capacity() * sizeof(round::hit_counts));
    for (int side = 0; side < 2; ++side) {
      step.retreats[side].clear();
      for (std::uint32_t start : starts_here_[side]) step.retreats[side].push_back({start, retreat_sums_[side][start]});
    }
  }

  // A state's first half (the defender's fire, the attacker's allocation, checks and rerolls)
  // depends on the defender only through its fire dice and where the attacker's fire takes its
  // whole line: within an attacker part's block (folded_states) it is recorded once per (defender's
  // dice, round 1 or not) and replayed, the fall of the line played live. The callbacks are play()'s:
  // `unhit` plays the second half where the defender missed, `emit_mid_round` moves on to a
  // mid-round node (and records the move while first_recording_ and not first_paused_).
  template <class Unhit, class Retreat, class RetreatState, class MidRound>
  void play_first_half(std::uint32_t i, const battle_state& s, round::round_state& t, exact_chooser& c, Unhit& unhit,
                       Retreat& retreat, RetreatState& retreat_state, MidRound& emit_mid_round) {
    bool first_failed = false;
    const std::uint32_t attacker_number = states.parts(i)[round::attacker];
    if (attacker_number != first_half_part_) {
      first_half_part_ = attacker_number;
      first_halves_.clear();
      first_events_.clear();
      first_units_.clear();
      first_hits_.clear();
    }
    const auto defender_dice =
        static_cast<std::size_t>(round::fire_dice(r, t.sum[round::defender], round::defender, false));
    const std::size_t at = 2 * defender_dice + (s.first_round ? 1 : 0);
    if (first_halves_.size() <= at) first_halves_.resize(at + 1);
    // The attacker's units and rerolls as some outcome left them, kept, or put back into s.
    const auto keep_attacker = [&](const battle_state& u) {
      const auto units_at = static_cast<std::uint32_t>(first_units_.size());
      for (int a = r.begin[round::attacker]; a < r.end[round::attacker]; ++a) {
        first_units_.push_back(u.sp[a]);
        first_units_.push_back(u.st[a]);
      }
      first_units_.push_back(u.rerolls[round::attacker]);
      return units_at;
    };
    const auto put_back = [&](std::uint32_t units_at) {
      battle_state u = s;
      const std::uint8_t* units = &first_units_[units_at];
      for (int a = r.begin[round::attacker]; a < r.end[round::attacker]; ++a, units += 2) {
        u.sp[a] = units[0];
        u.st[a] = units[1];
      }
      u.rerolls[round::attacker] = *units;
      return u;
    };
    if (first_halves_[at].status == half_memo::recorded) {
      const half_memo recorded = first_halves_[at];
      const std::uint32_t defender_number = states.parts(i)[round::defender];
      // A copy: the replay below can number new parts (an unhit half's states), moving the keys.
      const state_key defender_part = states.part_key(round::defender, defender_number);
      const std::uint32_t defender_out = states.part_out(n, round::defender, defender_number);
      for (std::uint32_t k = recorded.begin; k < recorded.end; ++k) {
        const first_event e = first_events_[k];
        c.weight = e.p;
        switch (e.kind) {
          case first_event::unhit: {
            round::round_state u = t;
            unhit(u, e.dice);
            break;
          }
          case first_event::retreat: {
            battle_state u = put_back(e.part);
            retreat(u, round::attacker, true, e.spill);
            break;
          }
          case first_event::falls: {
            round::round_state u = round::track(r, put_back(e.part));
            round::hit_counts hits = first_hits_[e.left];
            round::play_line_falls(r, u, hits, e.dice, c, retreat_state);
            break;
          }
          case first_event::mid_round: {
            // Found by its parts and dice; its key built only if it was never found before.
            std::uint32_t node = states.find(folded_states::mid_round, e.part, e.dice, defender_number);
            if (node == folded_states::no_node) {
              state_key fold = combine(states.part_key(round::attacker, e.part), defender_part);
              set_tail_byte(fold, n + 2, e.dice);
              set_tail_byte(fold, n + 3, mid_round_mark);
              node = states.intern(r, fold, folded_states::mid_round, {e.part, defender_number});
            }
            std::array<std::uint32_t, 2> left_number{e.left, 0};
            found_.add(node, true, defender_out | states.part_out(n, round::attacker, e.part), e.p, left_number);
            break;
          }
        }
      }
      c.weight = 1.0;
    } else {
      first_recording_ = first_halves_[at].status == half_memo::not_yet;
      const auto begin = static_cast<std::uint32_t>(first_events_.size());
      auto unhit_then = [&](round::round_state& u, int dice) {
        if (first_recording_ && first_paused_ == 0)
          first_events_.push_back({first_event::unhit, static_cast<std::uint8_t>(dice), 0, 0, 0, c.weight});
        ++first_paused_;
        unhit(u, dice);
        --first_paused_;
      };
      auto falls = [&](round::round_state& u, round::hit_counts& hits, int dice) {
        if (first_recording_ && first_paused_ == 0) {
          first_events_.push_back({first_event::falls, static_cast<std::uint8_t>(dice), 0, keep_attacker(u.s),
                                   static_cast<std::uint32_t>(first_hits_.size()), c.weight});
          first_hits_.push_back(hits);
        }
        ++first_paused_;
        round::play_line_falls(r, u, hits, dice, c, retreat_state);
        --first_paused_;
      };
      auto retreat_then = [&](round::round_state& u, int side, bool forced, int spill) {
        if (first_recording_ && first_paused_ == 0) {
          if (side == round::attacker && forced)
            first_events_.push_back(
                {first_event::retreat, 0, static_cast<std::int16_t>(spill), keep_attacker(u.s), 0, c.weight});
          else
            first_failed = true;  // (not a retreat this half can start: played every time)
        }
        retreat(u.s, side, forced, spill);
      };
      round::play_defender_fire(r, t, c, unhit_then, emit_mid_round, retreat_then, falls);
      if (first_recording_) {
        half_memo& played = first_halves_[at];
        if (first_failed) {
          first_events_.resize(begin);
          played.status = half_memo::not_separable;
        } else {
          played = {begin, static_cast<std::uint32_t>(first_events_.size()), 0, 0, 0, 0, half_memo::recorded};
        }
        first_recording_ = false;
      }
    }
  }

  // Stage two: the rounds and every label of state i along its moves.
  void carry(const state_round& step) {
    const std::uint32_t i = step.state;
    for (int side = 0; side < 2; ++side)
      retreat_start_keys_[side].insert(retreat_start_keys_[side].end(), step.new_starts[side].begin(),
                                       step.new_starts[side].end());
    for (int side = 0; side < 2; ++side)
      delta_keys_[side].insert(delta_keys_[side].end(), step.new_deltas[side].begin(), step.new_deltas[side].end());
    const double scale = 1.0 / (1.0 - step.stay);  // the self-loop in closed form
    for (int side = 0; side < 2; ++side) {
      double visits = 0.0;
      const standing_part& stand = step.standing[side];
      folded::side_labels& labels = table[side];
      visits = labels.take(i, step.out_units, scale);
      const folded::label_layout& layout = labels.taken();
      // The labels move along, growing by the units of their side that left the line.
      // Each target's vector asked for some moves ahead: the carries wait on memory, not on sums.
      const auto& moves = step.moves;
      constexpr std::size_t ahead = 8;
      for (std::size_t k = 0; k < std::min(ahead, moves.size()); ++k) labels.prefetch_slot(moves[k].target);
      for (std::size_t k = 0; k < moves.size(); ++k) {
        if (k + 2 * ahead < moves.size()) labels.prefetch_slot(moves[k + 2 * ahead].target);
        if (k + ahead < moves.size()) labels.prefetch(moves[k + ahead].target);
        if (moves[k].unchanged[side] > 0.0)
          labels.carry(moves[k].unchanged[side], moves[k].target, moves[k].out, nullptr);
      }
      const auto& parts = step.left[side];
      for (std::size_t k = 0; k < parts.size(); ++k) {
        if (k + ahead < parts.size()) labels.prefetch(parts[k + ahead].target);
        labels.carry(parts[k].p, parts[k].target, parts[k].out, delta_keys_[side][parts[k].left].words.data());
      }
      if (stand.mass > 0.0 || !step.retreats[side].empty())
        labels.for_each([&](const folded::label_bytes& label, double v) {
          // The other side retreats (or nobody can hit): this side's out units keep what they hold.
          if (stand.mass > 0.0) {
            int out_lost = 0;
            for (int k = 0; k < layout.count; ++k) {
              const std::size_t su = layout.unit[k];
              const std::uint8_t byte = label[su];
              const int held = byte & 31;
              out_lost += r.units[su].start_sp - held;
              if (held > 0) sums.survives[su] += v * stand.mass;
              sums.sp[su] += v * stand.mass * held;
              if ((byte >> 5) == round::failed) sums.fails[su] += v * stand.mass;
            }
            auto& lost = sums.lost[side];
            for (std::size_t l = 0; l + static_cast<std::size_t>(out_lost) < lost.size(); ++l)
              lost[l + static_cast<std::size_t>(out_lost)] += v * stand.lost[l];
          }
          // This side retreats: its out units go back in (the label), to be resolved at the end.
          if (step.retreats[side].empty()) return;
          state_key key;
          std::memcpy(key.words.data(), label.data(), label.size());
          const std::uint32_t number = label_keys_[side].place(key);
          for (const auto& [start, p] : step.retreats[side])
            all_retreats_[side].add(pair_key(number, static_cast<std::uint32_t>(start)), v * p);
        });
      for (std::size_t u = 0; u < n; ++u) {
        if (step.out_units >> u & 1u) continue;
        sums.survives[u] += visits * stand.survives[u];
        sums.sp[u] += visits * stand.sp[u];
        sums.fails[u] += visits * stand.fails[u];
      }
      if (side == 0) {
        sums.ends[static_cast<std::size_t>(battle_end::stalemate)] += visits * step.stalemate;
        if (!step.mid_round) expected_rounds += visits;
      }
    }
    std::size_t held = table[0].bytes() + table[1].bytes();
    for (int side = 0; side < 2; ++side)
      held += all_retreats_[side].bytes() + label_keys_[side].bytes() +
              (delta_keys_[side].capacity() + retreat_start_keys_[side].capacity()) * sizeof(state_key);
    meter_.set(1, held);
  }

  // A slot keeps its buffers for the next state it carries, unless a state with very many moves
  // grew it: the ring would end up holding the largest states' buffers in every slot (hundreds
  // of MB for the 5 v 4 of issue 20), so such a buffer is let go once carried. (On one thread
  // the one buffer is kept.)
  void recycle(state_round& step) {
    if (step.moves.capacity() <= max_kept_moves) return;
    ring_freed_.fetch_add(ring_held(step), std::memory_order_relaxed);
    std::vector<successor_move>().swap(step.moves);
    for (auto& part : step.left) std::vector<left_part>().swap(part);
  }

  // The retreats: the spill and the retreat fire fall on the side's units, labels put back.
  void resolve_retreats() {
    for (int side = 0; side < 2; ++side)
      for (const std::uint64_t label_start : all_retreats_[side].keys()) {
        const double p = all_retreats_[side].sum(label_start);
        const state_key k = combine(label_keys_[side].key(static_cast<std::uint32_t>(label_start >> 32)),
                                    retreat_start_keys_[side][static_cast<std::uint32_t>(label_start)]);
        battle_state merged{};
        for (int u = r.begin[side]; u < r.end[side]; ++u) {
          const std::uint8_t byte = get_byte(k, static_cast<std::size_t>(u));
          merged.sp[u] = byte & 31;
          merged.st[u] = static_cast<std::uint8_t>(byte >> 5);
        }
        const std::uint64_t w = k.words[4];
        round::hit_counts hits{};
        round::allocate_hits(r, merged, hits, side, static_cast<int>(w >> 8 & 0xFFFF));
        exact_chooser last;
        last.weight = p;
        auto finish = [&](const battle_state& t, battle_end end) {
          sums.ends[static_cast<std::size_t>(end)] += last.weight;
          sums.add_side(r, side, t, last.weight);
        };
        round::resolve_retreat_under_fire(r, merged, side, (w & 1) != 0, static_cast<int>(w >> 24), last, finish);
      }
  }

  // The second half of a round played from a mid-round node (the attacker's fire, the defender's
  // losses and morale, its reinforcements) depends only on the defender's part and the attacker's
  // dice where the attacker can change nothing in it: both sides never retreat by choice (their
  // policies never, or optimal, which never retreats in these engines), and the attacker has a line
  // that can hit (no stalemate) and no reinforcement waiting. Such a half is recorded the first
  // time (defender part, dice) is met, and replayed for every other attacker: the moves by the
  // defender's part after it, the retreats with the defender's units (the attacker's come from the
  // node). Many mid-round nodes share a defender and dice (the 5 v 4: 167,705 nodes).
  struct half_outcome {
    std::uint32_t part;  // a move: the defender's part after; a retreat: its units in memo_units_
    std::uint32_t left;  // a move: the defender's delta (its units that left the line holding SP)
    double p;
    std::int16_t spill;
    std::uint8_t kind;  // 0 a move, 1 a retreat starts
    std::uint8_t side, forced;
  };
  struct half_memo {
    enum status_kind : std::uint8_t { not_yet, recorded, not_separable };
    std::uint32_t begin = 0, end = 0;
    std::uint32_t moves_begin = 0, moves_end = 0, left_begin = 0, left_end = 0;  // (mid-round nodes': keep_summed)
    status_kind status = not_yet;
  };
  static constexpr std::size_t no_memo = ~std::size_t{0};
  // A state's first half as played, in order: each defender's fire that missed (the attacker's
  // dice), each retreat of an attacker whose line is gone (its units and rerolls in first_units_,
  // from `part`), each play of the fire that takes the defender's line (the same, and the hits in
  // first_hits_[left]), each move to a mid-round node (its attacker part, dice and delta).
  struct first_event {
    enum kind_t : std::uint8_t { unhit, retreat, falls, mid_round };
    kind_t kind;
    std::uint8_t dice;
    std::int16_t spill;
    std::uint32_t part, left;
    double p;
  };
  // By the defender's fire dice and the first-round flag, the halves of the block's attacker part.
  std::uint32_t first_half_part_ = ~std::uint32_t{0};
  std::vector<half_memo> first_halves_;
  std::vector<first_event> first_events_;
  std::vector<std::uint8_t> first_units_;
  std::vector<round::hit_counts> first_hits_;
  // A state's first half being recorded, and how deep the play is in a part of it that is not
  // recorded (the second half where the defender missed, the fire that takes its line).
  bool first_recording_ = false;
  int first_paused_ = 0;
  // The memo's place for a mid-round node (t its state, `dice` the attacker's), or no_memo where
  // the attacker could change something in the half.
  std::size_t second_half_memo_place(std::vector<half_memo>& memo, const round::round_state& t, int dice,
                                     const std::array<std::uint32_t, 2>& part) {
    if (!separable_) return no_memo;
    const round::side_sums& a = t.sum[round::attacker];
    if (a.line_units == 0 || a.waiting != 0 || (a.line_dice == 0 && !r.ships)) return no_memo;
    if (static_cast<std::size_t>(dice) >= dice_values_) return no_memo;
    const std::size_t at = part[round::defender] * dice_values_ + static_cast<std::size_t>(dice);
    if (memo.size() <= at) memo.resize(std::max(at + 1, memo.size() + memo.size() / 2));
    return memo[at].status == half_memo::not_separable ? no_memo : at;
  }
  // By defender part and dice: mid-round nodes' halves, and states' rounds where the defender
  // misses (the attacker's fire may then take the defender's whole line: a half of its own).
  std::vector<half_memo> memo_, unhit_memo_;
  // A mid-round node's half just recorded: its moves and the defender's parts as summed (found_
  // holds only them), by the defender's part after (a part: by its move's place in the half), and
  // only its retreats kept as outcomes. Replayed by the next mid-round node of the same defender
  // and dice without finding each outcome's move again.
  void keep_summed(half_memo& played) {
    played.moves_begin = static_cast<std::uint32_t>(summed_moves_.size());
    const auto& moves = found_.moves();
    for (const successor_move& move : moves) {
      successor_move kept = move;
      kept.target = states.parts(move.target)[round::defender];
      summed_moves_.push_back(kept);
    }
    played.moves_end = static_cast<std::uint32_t>(summed_moves_.size());
    played.left_begin = static_cast<std::uint32_t>(summed_left_.size());
    for (left_part part : found_.left(round::defender)) {
      std::uint32_t place = 0;
      while (moves[place].target != part.target) ++place;
      part.target = place;
      summed_left_.push_back(part);
    }
    played.left_end = static_cast<std::uint32_t>(summed_left_.size());
    // Only the retreats stay outcomes, in their order.
    std::uint32_t kept_end = played.begin;
    for (std::uint32_t k = played.begin; k < played.end; ++k)
      if (memo_outcomes_[k].kind != 0) memo_outcomes_[kept_end++] = memo_outcomes_[k];
    played.end = kept_end;
    memo_outcomes_.resize(kept_end);
  }
  std::vector<successor_move> summed_moves_;
  std::vector<left_part> summed_left_;
  std::vector<half_outcome> memo_outcomes_;
  std::vector<std::uint8_t> memo_units_;  // per recorded retreat, the defender's units: SP, status
  bool separable_ = false;
  std::size_t dice_values_ = 1;
  state_key after_round_tail_;  // a state's tail bytes after round 1: first-round flag 0, the end none

  const exact_options& options_;
  // Stage one's: per side, the units that left the line in one round, numbered (0: none holding
  // SP); the starts of a retreat, numbered, and this state's with their probabilities.
  alignas(64) std::array<key_numbering, 2> deltas;
  std::array<state_key, 2> last_delta_;  // (the empty delta is number 0)
  std::array<std::uint32_t, 2> last_delta_number_{0, 0};
  fold_masks masks_;
  std::array<numbering<state_key, state_key_hash>, 2> retreat_starts_;
  std::array<std::vector<double>, 2> retreat_sums_;          // by start: this state's probability
  std::array<std::vector<std::uint32_t>, 2> starts_here_;    // the starts this state has
  std::array<std::vector<std::uint32_t>, 2> start_seen_in_;  // by start: 1 + the state that last had it
  // Stage two's: per side, what the delta and retreat start numbers stand for (sent along with the
  // states); this state's moves; every retreat over all states by (label, start), resolved once at
  // the end with the label's units put back.
  alignas(64) std::array<std::vector<state_key>, 2> delta_keys_;
  std::array<std::vector<state_key>, 2> retreat_start_keys_;
  successor_moves found_;  // (stage one's: the node played)
  std::array<key_sums, 2> all_retreats_;
  // The labels that retreat, numbered (by rank: a label's bytes are a delta's).
  std::array<key_numbering, 2> label_keys_;
  static constexpr std::size_t max_kept_moves = 8192;  // (320 KB)
  // The bytes of a slot's move buffers.
  static std::size_t ring_held(const state_round& step) {
    return step.moves.capacity() * sizeof(successor_move) +
           (step.left[0].capacity() + step.left[1].capacity()) * sizeof(left_part);
  }
  // Counted memory: stage one's ring buffers (their moves), its state count, the meter.
  std::size_t ring_bytes_ = 0;              // grown by stage one
  std::atomic<std::size_t> ring_freed_{0};  // let go by stage two
  std::atomic<std::size_t> states_found_{0};
  memory_meter meter_;
};

}  // namespace

namespace detail {

battle_result solve_folded(const battle& b, const exact_options& options) {
  const auto started = std::chrono::steady_clock::now();
  const battle_rules r = round::compile(b);
  const battle_state start = round::initial_state(r);
  const std::size_t n = r.units.size();
  battle_result out;
  out.units = unit_rows(r);
  // On the heap, away from this stack frame's lines, which the first stage's thread writes.
  const auto solver_owned = std::make_unique<folded_solver>(r, options);
  folded_solver& solver = *solver_owned;
  outcome_sums& sums = solver.sums;
  if (round::is_stalemate(r, start)) {
    sums.ends[static_cast<std::size_t>(battle_end::stalemate)] = 1.0;
    for (int side = 0; side < 2; ++side) sums.add_side(r, side, start, 1.0);
  } else {
    solver.solve(start);
    out.rounds_distribution = solver.rounds.distribution(options.rounds_tolerance, out.rounds_tail);
  }

  for (std::size_t e = 0; e < 7; ++e) out.ends[e] = sums.ends[e];
  out.attacker_sp_lost = sums.lost[0];
  out.defender_sp_lost = sums.lost[1];
  for (std::size_t u = 0; u < n; ++u) {
    out.units[u].survives = sums.survives[u];
    out.units[u].expected_sp = sums.sp[u];
    out.units[u].fails_morale = sums.fails[u];
  }
  if (r.garrison >= 0) out.garrison_eliminated = 1.0 - sums.survives[static_cast<std::size_t>(r.garrison)];
  fill_outcomes(out);
  clamp_probabilities(out);
  out.rounds_mean = solver.expected_rounds;
  for (auto& p : out.rounds_distribution) p = unit_interval(p);
  out.method.name = "exact";
  out.method.states = solver.states.size();
  out.method.transitions = solver.rounds.transitions;
  out.method.labels = solver.table[0].size() + solver.table[1].size();
  out.method.memory_bytes = solver.memory_bytes;
  out.method.threads = solver.threads_used;
  out.method.pruned_mass = 0.0;
  out.method.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return out;
}

}  // namespace detail
}  // namespace musket::great_lakes
