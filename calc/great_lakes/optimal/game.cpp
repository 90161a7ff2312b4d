#include "calc/great_lakes/optimal/game.hpp"

#include <algorithm>
#include <bit>
#include <cassert>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <unordered_map>

#include "calc/great_lakes/exact/exact_chooser.hpp"
#include "calc/great_lakes/folded_keys.hpp"
#include "calc/great_lakes/optimal/advice.hpp"
#include "calc/great_lakes/optimal/payoff.hpp"
#include "calc/great_lakes/optimal/pair_values.hpp"
#include "calc/great_lakes/rules/round.hpp"
#include "calc/great_lakes/optimal/decision_tree.hpp"
#include "calc/great_lakes/exact/plain_chain.hpp"
#include "core/invalid_input.hpp"
#include "core/markov_chain.hpp"

namespace musket::great_lakes {

std::string to_string(objective o) {
  return o == objective::win ? "win" : "value";
}

bool plays_optimally(const army& a) {
  return a.retreat.kind == retreat_kind::optimal || a.hit_allocation.kind == hit_allocation_kind::optimal ||
         a.rerolls.kind == reroll_kind::optimal;
}

bool plays_optimally(const battle& b) {
  return plays_optimally(b.attacker) || plays_optimally(b.defender);
}

battle default_play(battle b, int side) {
  for (int s = 0; s < 2; ++s) {
    if (side >= 0 && s != side) continue;
    army& a = s == 0 ? b.attacker : b.defender;
    if (a.retreat.kind == retreat_kind::optimal) a.retreat = {};
    if (a.hit_allocation.kind == hit_allocation_kind::optimal) a.hit_allocation = {};
    if (a.rerolls.kind == reroll_kind::optimal) a.rerolls = {};
  }
  return b;
}

double play_value(const battle_result& r, const game_options& g) {
  if (g.goal == objective::win) return r.attacker_wins;
  double lost = 0;  // E[defender SP lost] - E[attacker SP lost]
  for (std::size_t k = 0; k < r.attacker_sp_lost.size(); ++k) lost -= static_cast<double>(k) * r.attacker_sp_lost[k];
  for (std::size_t k = 0; k < r.defender_sp_lost.size(); ++k) lost += static_cast<double>(k) * r.defender_sp_lost[k];
  return g.win_value * r.attacker_wins + lost;
}

// The game's parts have a header each (game_payoff, round_tree, game_advice); the game itself is
// here, in their namespace, where optimal/decision_tree.hpp's choosers find it.
namespace optimal {
namespace {

using namespace detail;

// The game over a battle's full states, solved depth first: each state's round is played once,
// every option of every choice, and recorded as its decision tree (its successors found as it is
// played); the successors not yet solved are solved first, then the state. A round that changes
// the state makes it strictly smaller (SP only fall; a unit only goes waiting -> line -> failed;
// rerolls only fall; the first round ends), so the states form no cycle but self-loops and the
// trees held at once are those of one path down (the solve's stack).
class game {
 public:
  // keep_plan: keep each state's choices for play (a forward pass follows); valuations: 2 (the game
  // and the default play), or 4 (max_valuations) when both sides play optimally and the one-side
  // games are wanted too (optimal/decision_tree.hpp's deciders).
  game(const battle_rules& r, const game_options& g, const exact_options& o, bool keep_plan, int valuations = 2)
      : r_(r), recording_(r), g_(g), o_(o), valuations_(valuations), keep_plan_(keep_plan) {
    // The settled retreat decisions (settled_retreats) fight on: the recording plays each optimal
    // retreat policy as `never`, which plays the same outcomes (wants_retreat) without asking.
    if (settled_retreats())
      for (retreat_policy& p : recording_.policy)
        if (p.kind == retreat_kind::optimal) p = {};
    lo_ = g.goal == objective::win ? 0.0 : -static_cast<double>(r.starting_sp[0]);
    hi_ = g.goal == objective::win ? 1.0 : g.win_value + static_cast<double>(r.starting_sp[1]);
    scale_ = std::max({1.0, std::abs(lo_), std::abs(hi_)});
    for (int side = 0; side < 2; ++side)
      listed_[static_cast<std::size_t>(side)].resize(static_cast<std::size_t>(r.starting_sp[side]) + 1);
  }

  std::size_t states() const { return keys_.size() - phases_; }
  std::size_t phase_positions() const { return phases_; }
  double outcomes() const { return outcomes_; }

  void solve() {
    const battle_state start = rd::initial_state(r_);
    if (rd::is_stalemate(r_, start)) return;
    intern(key_of(start));
    std::size_t depth = 0;  // the frames in use
    auto push = [&](std::uint32_t i) {
      throw_if_cancelled(o_);
      if (frames_.size() <= depth) frames_.emplace_back();
      frame& f = frames_[depth++];
      f.state = i;
      f.next = 0;
      if (phase_[i]) {
        take_phase_tree(i, f.tree);  // (recorded where the round first reached it)
      } else {
        record(f.tree, i);
        // Every option's round outcomes so far: the leaves the solve values (the time guard's count).
        const double predicted = outcomes_ * game_seconds_per_outcome;
        if (g_.time_budget > 0 && predicted > g_.time_budget) throw game_over_budget(predicted, g_.time_budget, true);
        count_memory();  // (a phase position's tree was counted where it was recorded)
      }
    };
    push(0);
    while (depth > 0) {
      frame& f = frames_[depth - 1];
      const std::vector<round_tree::leaf>& leaves = f.tree.leaves;
      while (f.next < leaves.size()) {
        const std::uint32_t to = leaves[f.next].to;
        if (to != round_tree::ended && to != f.state && !solved_[to]) break;
        ++f.next;
      }
      if (f.next < leaves.size()) {
        push(leaves[f.next].to);  // (frames_ may move: f is not used again)
        continue;
      }
      const std::uint32_t i = f.state;
      f.tree.finish(values_, i, valuations_);
      double* value = values_.data() + static_cast<std::size_t>(i) * static_cast<std::size_t>(valuations_);
      for (int v = 0; v < valuations_; ++v) value[v] = solve_state(f.tree, v);
      solved_[i] = 1;
      if (keep_plan_) {
        plan_begin_[i] = plan_.size();
        chosen_.assign(f.tree.nodes.size(), 0);
        f.tree.sum_of(f.tree.root, value[0], 0, chosen_.data());
        plan_of(f.tree, f.tree.root);
      }
      --depth;
    }
    count_memory();  // (solving a state adds only to its plan, counted at the next state recorded)
  }

  // The game's own data by capacity: its states' keys, index, values and plans, and the decision
  // trees held (the solve's stack, and the recorder's lists and successors). The process's code,
  // the allocator's overhead and the result are not in it (as solve_exact counts).
  std::size_t bytes() const {
    std::size_t b = keys_.capacity() * sizeof(state_key) + index_.capacity() * sizeof(std::uint64_t) +
                    values_.capacity() * sizeof(double) + solved_.capacity() +
                    plan_.capacity() * sizeof(std::uint32_t) + plan_begin_.capacity() * sizeof(std::size_t) +
                    chosen_.capacity() * sizeof(std::uint32_t) + frames_.capacity() * sizeof(frame);
    for (const frame& f : frames_) b += f.tree.bytes();
    for (const auto* open : {&open_, &phase_open_})
      for (const auto& o : *open) b += o.capacity() * sizeof(std::uint32_t);
    return b + phase_bytes_ + phase_scratch_.bytes() + phase_trees_.bucket_count() * sizeof(void*) + phase_.capacity() +
           (pending_.capacity() + phase_pending_.capacity()) * sizeof(state_key) +
           hashes_.capacity() * sizeof(std::uint64_t) + fire_.table.capacity() * sizeof(fire_.table[0]);
  }
  std::size_t peak_bytes() const { return peak_bytes_; }

  // The start state's value in valuation v.
  double start_value(int v = 0) const {
    const battle_state start = rd::initial_state(r_);
    if (rd::is_stalemate(r_, start)) return payoff(r_, g_, start, battle_end::stalemate);
    return values_[static_cast<std::size_t>(v)];
  }

  // One round from s played as solved: emit(t, end, w) for each outcome; chosen(decision, option)
  // sees each choice made.
  template <class Emit, class Chosen>
  void play(const battle_state& s, double weight, Emit&& emit, Chosen& chosen) {
    const std::uint32_t i = find(key_of(s));
    plan_follower<Chosen> c;
    c.host = this;
    c.fight_on = settled_retreats();
    c.next = plan_.data() + plan_begin_[i];
    c.chosen = &chosen;
    c.weight = weight;
    auto played = [&](const battle_state& t, battle_end end) { emit(t, end, c.weight); };
    // (Retreats handed to the chain, which plays each start's once: no choice is asked in one.)
    auto retreat = [&](battle_state& t, int side, bool forced, int) { emit.retreat(t, side, forced, c.weight); };
    rd::play_round_until_retreat(r_, s, c, played, retreat);
  }

  // The rest of the round from the defender's morale check on (GL 11.24: its checks, its rerolls,
  // voluntary retreats, reinforcement) reads only the state there and the hits of the defender's
  // units that check morale: a phase position. Many rounds (of states with the same defender and
  // attackers that end their own morale checks alike) reach the same one, so it is played and
  // recorded once, as a tree of its own the first time a round reaches it, and valued once (a
  // node of the solve like a state, solved before the states that reach it): a round's tree holds
  // one leaf for it, its weight. It holds no self-loop (the defender has lost SP), so its choices
  // do not depend on the value of any state that reaches it. With no defender's check there is
  // nothing to share, and a battle whose key has no room for the hits plays on (phase_key).
  template <class GoOn>
  void record_defender_morale(tree_recorder& c, rd::round_state& s, const rd::hit_counts& hits, std::uint32_t checks,
                              GoOn& go_on) {
    state_key key;
    if (std::popcount(checks) < min_checks || !phase_key(s.s, hits, checks, key)) {
      go_on(s);
      return;
    }
    ++outcomes_;  // (the phase position's leaf)
    const std::size_t known = keys_.size();
    const std::uint32_t q = intern(key, state_key_hash{}(key), true);
    c.add(c.weight, q);
    if (keys_.size() == known) return;
    // (Played into one tree kept for it, its storage reused; no phase position is reached within
    // one: no attacker's check is left.)
    round_tree& tree = phase_scratch_;
    tree.clear();
    tree.lists.emplace_back();
    tree.root = 0;
    const tree_recorder::place outer = c.here();
    phase_pending_.clear();
    if (phase_open_.empty()) phase_open_.resize(1);
    c.go_to({&tree, &phase_pending_, &phase_open_, 0, tree.root, 1.0});
    go_on(s);
    c.close(0, tree.root);
    resolve(tree, phase_pending_, round_tree::ended);
    c.go_to(outer);
    // Kept until it is solved as a copy of its own size: one allocation a vector, not one for each
    // time a vector outgrew its storage as the tree was played (malloc and free took 5% of
    // --play optimal's profile), and no room to spare held while it waits.
    const round_tree& kept = phase_trees_.emplace(q, tree).first->second;
    phase_bytes_ += kept.bytes();
  }

  // rd::hit_options(r, s, side, count), listed once for each state and count it is asked for in a
  // row: a round asks the attacker's from its own state for each of the defender's hit counts,
  // and the defender's from its own for each hit count and allocation of the attacker's, so the
  // list stays the same while the round is played (and while the chain's replay plays it), and a
  // reference to it stays valid (one entry per side and count, made at the start).
  const std::vector<rd::hit_counts>& listed_hit_options(const rd::battle_rules& r, const battle_state& s, int side,
                                                        int count) const {
    listed_options& l = listed_[static_cast<std::size_t>(side)][static_cast<std::size_t>(count)];
    const auto first = static_cast<std::size_t>(r.begin[side]);
    const auto units = static_cast<std::size_t>(r.end[side] - r.begin[side]);
    if (!l.listed || std::memcmp(l.sp.data() + first, s.sp.data() + first, units) != 0 ||
        std::memcmp(l.st.data() + first, s.st.data() + first, units) != 0) {
      l.options = rd::hit_options(r, s, side, count);
      l.sp = s.sp;
      l.st = s.st;
      l.listed = true;
    }
    return l.options;
  }

  // The plan of the phase position the round reaches there (record_defender_morale's), or null
  // where the recording played on.
  const std::uint32_t* phase_plan(const battle_state& s, const rd::hit_counts& hits, std::uint32_t checks) const {
    // Where no choice can be asked in it (the defender's reroll, GL 11.26-11.27, and a voluntary
    // retreat, GL 12.2, the only ones after its morale check) its plan is empty: not looked up.
    const bool reroll = r_.reroll[rd::defender].kind == reroll_kind::optimal && s.rerolls[rd::defender] > 0;
    const bool retreat = !settled_retreats() && (r_.policy[rd::attacker].kind == retreat_kind::optimal ||
                                                 r_.policy[rd::defender].kind == retreat_kind::optimal);
    if (!reroll && !retreat) return nullptr;
    state_key key;
    if (std::popcount(checks) < min_checks || !phase_key(s, hits, checks, key)) return nullptr;
    return plan_.data() + plan_begin_[find(key)];
  }

 private:
  struct frame {
    std::uint32_t state = 0;
    std::size_t next = 0;  // its tree's leaves before this lead to solved states
    round_tree tree;
  };

  double tolerance() const { return 1e-12 * scale_; }

  // On the win objective every retreat decision is settled before it is weighed: a voluntary
  // retreat loses the battle (RULINGS outcomes), worth 0 to the attacker, while every value and
  // payoff is at least 0 and at most 1, so fighting on is worth at least the retreat's 0 to the
  // attacker and at most the retreat's weight x 1 to the defender. Neither option then beats the
  // other by the margin (the sums' rounding is far below it) and the tie goes to option 0, fighting
  // on: the solve, unchanged, need not play the retreats at all.
  bool settled_retreats() const { return g_.goal == objective::win; }

  // Checked once per state recorded or solved (--memory-mb): past the bound the solve stops as
  // solve_exact does.
  void count_memory() {
    const std::size_t now = bytes();
    peak_bytes_ = std::max(peak_bytes_, now);
    if (o_.memory_limit > 0 && now > o_.memory_limit) throw memory_limit_exceeded(o_.memory_limit, now, states());
  }

  // The index: open addressing, linear probing, at most half full; a slot holds the key's hash's
  // high half and its state's number + 1 (0: empty), so most probes read no key.
  std::uint32_t find(const state_key& key) const {
    const std::uint64_t h = state_key_hash{}(key);
    const std::size_t mask = index_.size() - 1;
    for (std::size_t at = h & mask;; at = (at + 1) & mask) {
      const std::uint64_t slot = index_[at];
      if (slot == 0) throw std::out_of_range("optimal play: a state the game did not reach");
      const auto i = static_cast<std::uint32_t>(slot) - 1;
      if (slot >> 32 == h >> 32 && keys_[i] == key) return i;
    }
  }

  std::uint32_t intern(const state_key& key) { return intern(key, state_key_hash{}(key)); }

  // `h` being its hash; `phase`: a phase position (record_defender_morale), not counted as a state.
  std::uint32_t intern(const state_key& key, std::uint64_t h, bool phase = false) {
    std::size_t mask = index_.size() - 1;
    std::size_t at = h & mask;
    for (;; at = (at + 1) & mask) {
      const std::uint64_t slot = index_[at];
      if (slot == 0) break;
      const auto i = static_cast<std::uint32_t>(slot) - 1;
      if (slot >> 32 == h >> 32 && keys_[i] == key) return i;
    }
    if (!phase && keys_.size() - phases_ >= o_.state_limit) throw state_limit_exceeded(o_.state_limit);
    const auto i = static_cast<std::uint32_t>(keys_.size());
    keys_.push_back(key);
    phase_.push_back(phase);
    phases_ += phase;
    values_.resize(values_.size() + static_cast<std::size_t>(valuations_), 0.0);
    solved_.push_back(0);
    if (keep_plan_) plan_begin_.push_back(0);
    if (2 * keys_.size() > index_.size()) {  // grow: every key placed again
      std::vector<std::uint64_t>(2 * index_.size(), 0).swap(index_);
      mask = index_.size() - 1;
      for (std::uint32_t j = 0; j < keys_.size(); ++j) {
        const std::uint64_t hj = state_key_hash{}(keys_[j]);
        std::size_t a = hj & mask;
        while (index_[a] != 0) a = (a + 1) & mask;
        index_[a] = (hj >> 32 << 32) | (j + 1);
      }
    } else {
      index_[at] = (h >> 32 << 32) | (i + 1);
    }
    return i;
  }

  // The state's plan: the option its tree's best choices take at its value (chosen_), at each
  // choice the play of those choices meets, in the order the round meets them: what replaying
  // the round along the tree's best choices chose, without replaying it.
  void plan_of(const round_tree& tree, std::uint32_t at) {
    const round_tree::list& l = tree.lists[at];
    for (std::uint32_t c = l.choices_begin; c < l.choices_end; ++c) {
      const std::uint32_t n = tree.choices[c];
      const std::uint32_t k = tree.taken(n, chosen_.data());
      plan_.push_back(k);
      plan_of(tree, tree.nodes[n].first_option + k);
    }
  }

  // Plays the round of state i, every option of every choice, each outcome weighed from 1, into
  // `tree`: its successors (interned as found) and its finished battles' payoffs.
  void record(round_tree& tree, std::uint32_t i) {
    battle_end ignored;
    const battle_state s = decode(r_, keys_[i], ignored);
    tree.clear();
    tree_recorder c;
    c.host = this;
    c.successors = &pending_;
    c.tree = &tree;
    c.tolerance = tolerance();
    c.fight_on = settled_retreats();
    c.fire = &fire_;
    c.open = &open_;  // the lists' capacity kept from state to state
    if (open_.empty()) open_.resize(1);
    c.depth = 0;
    // (Also a phase position's, record_defender_morale's, played from the round: c's tree and
    // successors are then its.)
    auto played = [&](const battle_state& t, battle_end end) {
      ++outcomes_;
      if (end != battle_end::none) {
        c.add(c.weight * payoff(r_, g_, t, end), round_tree::ended);
        return;
      }
      c.successors->push_back(key_of(t));  // looked up once the round is played (resolve)
      c.add(c.weight, pending);
    };
    auto retreated = [&](double amount) {
      ++outcomes_;
      c.add(amount, round_tree::ended);
    };
    c.weight = 1.0;
    tree.lists.emplace_back();
    tree.root = 0;
    c.list = tree.root;
    pending_.clear();
    play_game_round(recording_, g_, s, c, played, retreated);
    c.close(0, tree.root);
    resolve(tree, pending_, i);
  }

  // A phase position's key (record_defender_morale): the state's bytes as encode makes them, but
  // the first round's flag clear (the rest of the round only clears it) and a mark where the end
  // goes, then the hits of each of the defender's units that checks morale, a byte a unit. False
  // where they do not fit in the key.
  bool phase_key(const battle_state& s, const rd::hit_counts& hits, std::uint32_t checks, state_key& key) const {
    const std::size_t n = r_.units.size();
    const auto first = static_cast<std::size_t>(r_.begin[rd::defender]);
    const auto last = static_cast<std::size_t>(r_.end[rd::defender]);
    if (n + 4 + (last - first) > sizeof key.words) return false;
    std::array<std::uint8_t, sizeof key.words> bytes{};
    for (std::size_t i = 0; i < n; ++i)
      bytes[i] = fold_ && rd::left_the_line(s, static_cast<int>(i))
                     ? folded_byte
                     : static_cast<std::uint8_t>(s.sp[i] | (s.st[i] << 5));
    bytes[n] = s.rerolls[0];
    bytes[n + 1] = s.rerolls[1];
    bytes[n + 3] = phase_mark;
    for (std::size_t i = first; i < last; ++i)
      if (checks >> i & 1u) bytes[n + 4 + (i - first)] = hits[i];
    std::memcpy(key.words.data(), bytes.data(), bytes.size());
    return true;
  }
  // (No battle_end is this.)
  static constexpr std::uint8_t phase_mark = 0x80;
  // A unit that left the line, in a folded key (fold_): `out`, no SP.
  static constexpr std::uint8_t folded_byte = rd::out << 5;
  // The defender's checks a phase position needs to be one: with one the rest of the round is
  // only a few outcomes, yet Brown v Riall (two defending units) loses time without those shared
  // (2: 3.17 M outcomes recorded, not 1.86 M, and 0.55-0.59 s, not 0.36-0.45 s, alternated).
  static constexpr int min_checks = 1;

  // Phase position i's tree into `tree` (a frame's: copied into its storage, which is kept for the
  // next state's round).
  void take_phase_tree(std::uint32_t i, round_tree& tree) {
    const auto it = phase_trees_.find(i);
    phase_bytes_ -= it->second.bytes();
    tree = it->second;
    phase_trees_.erase(it);
  }

  // encode(r_, t, battle_end::none) (t folded first where fold_: the folded engine's own key,
  // folded_keys.hpp), the units' bytes (SP | status << 5) made in one vector operation, the lanes
  // past the battle's units masked off: the same key.
  state_key key_of(const battle_state& t) const {
    if (fold_) {
      state_key key;
      std::array<state_key, 2> left;  // (who left the line this round: not needed here)
      std::array<bool, 2> any_left;
      folded::fold_successor(fold_masks_, t, state_key{}, key, left, any_left);
      assert(key == [&] {
        battle_state folded = t;
        rd::fold_out_of_line(r_, folded);
        return encode(r_, folded, battle_end::none);
      }());
      return key;
    }
    static_assert(rd::max_units == 32 && sizeof t.sp == 32 && sizeof t.st == 32);
    std::array<std::uint8_t, 40> bytes{};
    for (std::size_t half = 0; half < 32; half += 16) {  // (16-byte vectors: no AVX assumed)
      key_lanes sp, st, mask;
      std::memcpy(&sp, t.sp.data() + half, 16);
      std::memcpy(&st, t.st.data() + half, 16);
      std::memcpy(&mask, unit_mask_.data() + half, 16);
      const key_lanes units = (sp | (st << 5)) & mask;
      std::memcpy(bytes.data() + half, &units, 16);
    }
    const std::size_t n = r_.units.size();
    bytes[n] = t.rerolls[0];
    bytes[n + 1] = t.rerolls[1];
    bytes[n + 2] = static_cast<std::uint8_t>(t.first_round && r_.first_round_matters);
    bytes[n + 3] = static_cast<std::uint8_t>(battle_end::none);
    state_key key;
    std::memcpy(key.words.data(), bytes.data(), bytes.size());
    // A faster copy of encode's layout: checked against it wherever asserts are on (CI's
    // sanitizer tree), so the two cannot drift apart unnoticed.
    assert(key == encode(r_, t, battle_end::none));
    return key;
  }

  // A leaf's successor not yet looked up (record).
  static constexpr std::uint32_t pending = round_tree::ended - 1;

  // A tree's successors (`keys`, in play order) interned in that order, so numbered as if
  // each were looked up as played, into their leaves; `self` the state's own number. Most of a
  // look-up's time is the wait for its index slot (the index and keys outgrow the core's own
  // caches), so the slots of the look-ups a few ahead are fetched meanwhile.
  void resolve(round_tree& tree, const std::vector<state_key>& keys, std::uint32_t self) {
    const std::size_t n = keys.size();
    hashes_.resize(n);
    for (std::size_t k = 0; k < n; ++k) hashes_[k] = state_key_hash{}(keys[k]);
    constexpr std::size_t ahead = 8;
    auto fetch = [&](std::size_t k) { __builtin_prefetch(&index_[hashes_[k] & (index_.size() - 1)]); };
    for (std::size_t k = 0; k < std::min(ahead, n); ++k) fetch(k);
    std::size_t k = 0;
    for (round_tree::leaf& f : tree.leaves) {
      if (f.to != pending) continue;
      if (k + ahead < n) fetch(k + ahead);
      f.to = intern(keys[k], hashes_[k]);
      if (f.to == self) tree.saw_loop = true;
      ++k;
    }
  }

  // The state's value V = g(V), g(x) the round's value with its self-loops worth x: under a fixed
  // choice of options g is affine, x -> sum + loop x (loop < 1: some die can always change the
  // state, else it is a stalemate), and the best choices make g piecewise affine and increasing
  // with slope < 1, so g(x) - x falls and crosses 0 once. Newton's step to the fixed point of the
  // piece chosen at x, sum / (1 - loop), kept inside a bracket (bisecting when it would leave it),
  // ends at a point whose own piece fixes it: the choices made there are the stationary strategy
  // of the self-looping state and V its value. Without a self-loop one step is exact.
  // Valuation v's (finish's done).
  double solve_state(const round_tree& tree, int v) const {
    const bool saw_loop = tree.loops >> v & 1u;
    double lo = lo_, hi = hi_, x = lo_;
    for (int step = 0; step < 200; ++step) {
      const auto [sum, loop] = tree.sum_of(tree.root, x, v);
      if (loop >= 1.0) return x;  // (cannot happen: see above)
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

  struct listed_options {
    bool listed = false;
    std::array<std::uint8_t, rd::max_units> sp{}, st{};  // the state they were listed for (the side's units)
    std::vector<rd::hit_counts> options;
  };
  // (listed_hit_options') by side and count (fewer than the side's SP: hit_options' domain).
  mutable std::array<std::vector<listed_options>, 2> listed_;

  using key_lanes = std::uint8_t __attribute__((vector_size(16)));
  const battle_rules& r_;
  std::array<std::uint8_t, 32> unit_mask_ = [this] {  // (key_of's) 0xff for each of the battle's units
    std::array<std::uint8_t, 32> m{};
    for (std::size_t i = 0; i < r_.units.size(); ++i) m[i] = 0xff;
    return m;
  }();
  battle_rules recording_;  // r_ for record (the constructor's)
  retreat_fire_moments fire_{r_};
  game_options g_;
  exact_options o_;
  // On the win objective the game's states are folded as the exact engine's are (units that left
  // the line `out`, their SP dropped): what is left of such a unit changes neither the rest of the
  // battle nor who wins, so states that differ only there have one value and one best play, and the
  // game holds each once (Brown v Riall with --play optimal: 4,329 states, not 23,785). The value
  // objective counts the SP lost, theirs included: full states. (The outcome chain, which reports
  // the SP lost, plays full states; each looks up its plan by its folded key.)
  bool fold_ = g_.goal == objective::win;
  folded::fold_masks fold_masks_{r_};  // (key_of's where fold_)
  int valuations_ = 2;
  std::size_t phases_ = 0;  // phase positions among keys_ (record_defender_morale)
  double lo_ = 0, hi_ = 1, scale_ = 1, outcomes_ = 0;
  std::size_t peak_bytes_ = 0;
  std::vector<state_key> keys_;
  std::vector<std::uint64_t> index_ = std::vector<std::uint64_t>(1024, 0);  // (find, intern)
  std::vector<double> values_;  // valuations_ a state, from state x valuations_
  std::vector<std::uint8_t> solved_;
  std::vector<std::uint8_t> phase_;  // 1 for a phase position
  // Phase positions' trees recorded and not yet solved, their bytes, and the tree each is played
  // into (record_defender_morale).
  std::unordered_map<std::uint32_t, round_tree> phase_trees_;
  std::size_t phase_bytes_ = 0;
  round_tree phase_scratch_;
  // Each state's choices as solved (plan_of), from plan_begin_[state], when keep_plan_.
  bool keep_plan_ = false;
  std::vector<std::uint32_t> plan_;
  std::vector<std::size_t> plan_begin_;
  std::vector<std::uint32_t> chosen_;             // plan_of's, by node
  std::vector<frame> frames_;                     // the solve's stack, each frame's tree reused
  std::vector<std::vector<std::uint32_t>> open_;  // the recorder's, reused
  std::vector<state_key> pending_;                // record's successors to look up, reused
  std::vector<state_key> phase_pending_;          // the same for a phase position
  std::vector<std::vector<std::uint32_t>> phase_open_;
  std::vector<std::uint64_t> hashes_;  // (resolve)
};

template <class GoOn>
void tree_recorder::defender_morale(rd::round_state& s, const rd::hit_counts& hits, std::uint32_t checks,
                                    GoOn&& go_on) {
  host->record_defender_morale(*this, s, hits, checks, go_on);
}

const std::vector<rd::hit_counts>& tree_recorder::hit_options(const rd::battle_rules& r, const battle_state& s,
                                                              int side, int count) {
  return host->listed_hit_options(r, s, side, count);
}

template <class Chosen>
const std::vector<rd::hit_counts>& plan_follower<Chosen>::hit_options(const rd::battle_rules& r, const battle_state& s,
                                                                      int side, int count) {
  return host->listed_hit_options(r, s, side, count);
}

template <class Chosen>
template <class GoOn>
void plan_follower<Chosen>::defender_morale(rd::round_state& s, const rd::hit_counts& hits, std::uint32_t checks,
                                            GoOn&& go_on) {
  const std::uint32_t* plan = host->phase_plan(s.s, hits, checks);
  if (!plan) {
    go_on(s);
    return;
  }
  const std::uint32_t* outer = next;
  next = plan;
  go_on(s);
  next = outer;
}

}  // namespace
}  // namespace optimal

namespace {

using namespace detail;
using namespace optimal;
namespace rd = round;

struct solved_game {
  double value = 0;
  double value_default_play = 0;  // neither side deciding: every choice at its default
  // With both sides optimal (shared): the attacker's value when only the attacker decides (the
  // defender on its defaults), and when only the defender does.
  double att_only = 0, def_only = 0;
  std::size_t states = 0;
  double outcomes = 0, chain_outcomes = 0;
  battle_result outcome;
  std::array<side_advice, 2> advice;
};

// The outcome chain's emit, each outcome counted (the time guard's count of the chain's work).
template <class Emit>
struct counted_emit {
  Emit& emit;
  double& count;
  void operator()(const battle_state& t, battle_end end, double w) {
    ++count;
    emit(t, end, w);
  }
  void retreat(const battle_state& t, int side, bool forced, double w) {
    ++count;
    emit.retreat(t, side, forced, w);
  }
};

// shared: also value the one-side games (both sides optimal) from the same recorded rounds.
solved_game solve_game(const battle& b, const game_options& g, const exact_options& options, bool shared) {
  const battle_rules r = rd::compile(b);
  game gm(r, g, options, true, shared ? max_valuations : 2);
  gm.solve();
  solved_game out;
  out.value = gm.start_value();
  out.value_default_play = gm.start_value(1);
  if (shared) {
    out.att_only = gm.start_value(2);
    out.def_only = gm.start_value(3);
  }
  out.states = gm.states();
  out.outcomes = gm.outcomes();
  for (int side = 0; side < 2; ++side)
    for (int i = r.begin[side]; i < r.end[side]; ++i)
      out.advice[static_cast<std::size_t>(side)].units.push_back(r.units[static_cast<std::size_t>(i)].name);
  advice_recorder rec(r, out.advice);
  const state_key start_key = encode(r, rd::initial_state(r), battle_end::none);
  // The chain is built while the game is held: it gets what of --memory-mb the game leaves, and
  // the count reported is both.
  const std::size_t game_bytes = gm.bytes();
  exact_options chain_options = options;
  if (options.memory_limit > 0)
    chain_options.memory_limit = std::max<std::size_t>(1, options.memory_limit - game_bytes);
  try {
    // Both passes of the chain play each state's round with the same choices (its plan): the
    // advice recorder keeps the first sight of each.
    out.outcome = solve_unfolded_chain(r, chain_options, [&](const battle_state& s, double weight, auto&& emit) {
      const bool at_start = encode(r, s, battle_end::none) == start_key;
      auto chosen = [&](const rd::decision& d, int k) {
        if (at_start) rec.start_round(d, k);
        rec.any_round(d, k);
      };
      counted_emit<std::remove_reference_t<decltype(emit)>> counted{emit, out.chain_outcomes};
      gm.play(s, weight, counted, chosen);
      // The guard goes on counting (the game's states are fewer than the chain's where the win
      // objective folds them, so the chain can weigh more than the game).
      const double predicted = predicted_seconds(out.outcomes, out.chain_outcomes);
      if (g.time_budget > 0 && predicted > g.time_budget) throw game_over_budget(predicted, g.time_budget, true);
    });
  } catch (const memory_limit_exceeded& e) {
    throw memory_limit_exceeded(options.memory_limit, game_bytes + e.counted(), e.states());
  }
  out.outcome.method.memory_bytes = std::max(gm.peak_bytes(), game_bytes + out.outcome.method.memory_bytes);
  rec.finish();
  return out;
}

}  // namespace

game_result solve_optimal_play_full_states(const battle& b, const game_options& g, const exact_options& options) {
  if (!(g.win_value >= 0) || !std::isfinite(g.win_value))
    throw invalid_input("win-value", "must be a number of SP, 0 or more");
  game_result out;
  out.goal = g.goal;
  const bool att = plays_optimally(b.attacker), def = plays_optimally(b.defender);
  // One solve records each state's round once and values it as the game and as the default play
  // (neither side deciding); with both sides optimal also as each side deciding against the
  // other's defaults, for the gains (every such game's states are among the game's). The cost
  // model counts the recorded outcomes and the outcome chain's.
  solved_game main = solve_game(b, g, options, att && def);
  out.outcome = main.outcome;
  out.value = main.value;
  out.game_states = main.states;
  out.outcomes = main.outcomes;
  out.chain_outcomes = main.chain_outcomes;
  out.predicted_seconds = predicted_seconds(main.outcomes, main.chain_outcomes);
  out.advice = main.advice;
  out.value_default_play = main.value_default_play;
  // One side solved against the other's default: the same solve when only that side is optimal.
  const double att_only = !att ? out.value_default_play : !def ? out.value : main.att_only;
  const double def_only = !def ? out.value_default_play : !att ? out.value : main.def_only;
  out.gain_attacker = att_only - out.value_default_play;
  out.gain_defender = out.value_default_play - def_only;
  return out;
}

// The game over pairs of side states (optimal/pair_values.hpp); the default play by the exact
// engine; each side's gain from the game where only that side decides.
game_result solve_optimal_play(const battle& b, const game_options& g, const exact_options& options) {
  if (!(g.win_value >= 0) || !std::isfinite(g.win_value))
    throw invalid_input("win-value", "must be a number of SP, 0 or more");
  game_result out;
  out.goal = g.goal;
  const bool att = plays_optimally(b.attacker), def = plays_optimally(b.defender);
  optimal::pair_solution main = optimal::solve_over_pairs(b, g, options, true);
  out.outcome = std::move(main.outcome);
  out.value = main.value;
  out.game_states = main.pairs;
  out.outcomes = main.work;
  out.chain_outcomes = main.chain_outcomes;
  out.predicted_seconds =
      main.work * optimal::pair_seconds_per_work + main.chain_outcomes * optimal::chain_seconds_per_outcome;
  out.advice = std::move(main.advice);
  out.value_default_play = play_value(solve_exact(default_play(b), options), g);
  const double att_only = !att   ? out.value_default_play
                          : !def ? out.value
                                 : optimal::solve_over_pairs(default_play(b, 1), g, options, false).value;
  const double def_only = !def   ? out.value_default_play
                          : !att ? out.value
                                 : optimal::solve_over_pairs(default_play(b, 0), g, options, false).value;
  out.gain_attacker = att_only - out.value_default_play;
  out.gain_defender = out.value_default_play - def_only;
  return out;
}

}  // namespace musket::great_lakes
