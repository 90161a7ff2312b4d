#include "calc/great_lakes/optimal_play.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <functional>
#include <map>
#include <set>
#include <tuple>
#include <unordered_map>

#include "calc/great_lakes/exact_parts.hpp"
#include "calc/great_lakes/round.hpp"
#include "calc/great_lakes/unfolded_chain.hpp"
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

namespace {

using namespace detail;
namespace rd = round;

bool attacker_wins(battle_end e) {
  return e == battle_end::defender_eliminated || e == battle_end::defender_forced_retreat ||
         e == battle_end::defender_voluntary_retreat;
}

// The payoff to the attacker of a finished battle.
double payoff(const battle_rules& r, const game_options& g, const battle_state& t, battle_end end) {
  const double win = attacker_wins(end) ? 1.0 : 0.0;
  if (g.goal == objective::win) return win;
  std::array<int, 2> lost{};
  for (std::size_t u = 0; u < r.units.size(); ++u)
    lost[static_cast<std::size_t>(r.units[u].owner)] += r.units[u].start_sp - t.sp[u];
  return g.win_value * win - lost[0] + lost[1];
}

// GL 12.2-12.3 with RULINGS as rd::resolve_retreat plays it, for the game: the payoff to the
// attacker of `side` retreating from t, summed over the retreat fire's outcomes, each weighed by
// the chooser's weight. The battle ends there and its payoff reads only who retreated and how many
// SP each side lost, and retreat fire takes min(hits, the side's SP on the field) SP whichever
// units take them (nothing is decided in it), so no outcome's state is built.
template <class Chooser>
double retreat_payoff(const battle_rules& r, const game_options& g, const rd::round_state& from, int side, bool forced,
                      Chooser& c) {
  rd::round_state t = from;
  if (side == rd::defender && r.garrison >= 0) rd::lose_garrison(r, t);  // GL 4.17/4.26
  if (!r.route[side]) {
    for (int i = r.begin[side]; i < r.end[side]; ++i)
      if (rd::in_battle(t.s, i)) t.s.sp[i] = 0;
    return c.weight * payoff(r, g, t.s, rd::eliminated_end(side));
  }
  const battle_end end = side == rd::attacker
                             ? (forced ? battle_end::attacker_forced_retreat : battle_end::attacker_voluntary_retreat)
                             : (forced ? battle_end::defender_forced_retreat : battle_end::defender_voluntary_retreat);
  std::array<int, 2> lost{};
  for (std::size_t u = 0; u < r.units.size(); ++u)
    lost[static_cast<std::size_t>(r.units[u].owner)] += r.units[u].start_sp - t.s.sp[u];
  const int alive = t.sum[side].alive_sp;
  double sum = 0;
  c.binomial_capped(rd::retreat_fire_dice(r, t, side, forced), r.retreat_fire_faces, alive, [&](int h) {
    const int taken = std::min(h, alive);
    const double win = attacker_wins(taken < alive ? end : rd::eliminated_end(side)) ? 1.0 : 0.0;
    double value = win;
    if (g.goal != objective::win) {
      std::array<int, 2> now = lost;
      now[static_cast<std::size_t>(side)] += taken;
      value = g.win_value * win - now[0] + now[1];
    }
    sum += c.weight * value;
  });
  return sum;
}

// One round from s for the game's exploration and recording: rd::play_round's, except that each
// retreat is one outcome, retreated(its payoff summed as retreat_payoff sums it).
template <class Chooser, class Emit, class Retreated>
void play_game_round(const battle_rules& r, const game_options& g, const battle_state& s, Chooser& c, Emit& emit,
                     Retreated& retreated) {
  auto emit_state = [&](const rd::round_state& t, battle_end end) { emit(t.s, end); };
  auto retreat = [&](rd::round_state& t, int side, bool forced, int) {
    retreated(retreat_payoff(r, g, t, side, forced, c));
  };
  rd::round_state t = rd::track(r, s);
  rd::play_tracked_round_until_retreat(r, t, c, emit_state, retreat);
}

// Strictly decreases along every round that changes the state (SP only fall; a unit only goes
// waiting -> line -> failed; rerolls only fall; the first round ends): successors come first in
// this order, so backward induction solves them before the state itself.
int potential(const battle_rules& r, const battle_state& s) {
  int p = s.rerolls[0] + s.rerolls[1] + (s.first_round ? 1 : 0);
  for (std::size_t i = 0; i < r.units.size(); ++i)
    p += s.sp[i] + (s.st[i] == rd::waiting ? 2 : s.st[i] == rd::line ? 1 : 0);
  return p;
}

// The exact chooser that plays every option of every choice (round.hpp's decide): the game's states.
struct explore_chooser : exact_chooser {
  template <class F>
  void decide(const rd::decision&, int options, F&& f) {
    for (int k = 0; k < options; ++k) f(k);
  }
};

// One state's round recorded once as its decision tree (issue 17's speed): the Newton steps of
// solve_state value it at several x without replaying the round. A choice is a node whose options
// each hold, in the order the round played them, its outcomes (weight x the successor's value or
// payoff, already known; or the weight of a self-loop) and the nodes of the later choices it leads
// to. Valuing the tree makes the same sums in the same order as replaying the round with each
// choice's options valued in turn did (before the tree, issue 17's first solver), so the same value to the
// last bit; solve_state values it at each Newton step, and play follows its best choices.
struct round_tree {
  enum item_kind : std::uint8_t { value_leaf, loop_leaf, choice };
  struct item {
    item_kind kind;
    std::uint32_t node;  // choice: the node
    double amount;       // value_leaf: weight x value; loop_leaf: weight
  };
  struct node {
    int side;
    double margin;  // the tolerance x the weight reaching the choice
    std::uint32_t first_option, options;
    std::uint32_t nodes_end = 0;  // past the last node of its options' subtrees (nodes are in pre-order)
  };
  std::vector<item> items;                                            // each option's (and the root's) contiguous
  std::vector<std::pair<std::uint32_t, std::uint32_t>> option_items;  // [begin, end) per option
  std::vector<std::uint32_t> option_nodes;                            // each option's first node
  std::vector<node> nodes;
  std::pair<std::uint32_t, std::uint32_t> root{0, 0};
  bool saw_loop = false;

  void clear() {
    items.clear();
    option_items.clear();
    option_nodes.clear();
    nodes.clear();
    saw_loop = false;
  }

  // (sum, loop) of a list of items under the best choices at self-loop value x.
  std::pair<double, double> sum_of(std::pair<std::uint32_t, std::uint32_t> range, double x) const {
    double sum = 0, loop = 0;
    for (std::uint32_t i = range.first; i < range.second; ++i) {
      const item& it = items[i];
      if (it.kind == value_leaf)
        sum += it.amount;
      else if (it.kind == loop_leaf)
        loop += it.amount;
      else {
        const auto [s, l] = best_of(nodes[it.node], x);
        sum += s;
        loop += l;
      }
    }
    return {sum, loop};
  }

  // The choice at a node (ties to option 0, the rulings' default; another option only if better
  // by more than the margin for its side): (option, its sum, its loop).
  struct best_option {
    std::uint32_t option;
    double sum, loop;
  };
  best_option best(const node& n, double x) const {
    best_option b{0, 0, 0};
    double best_value = 0;
    for (std::uint32_t k = 0; k < n.options; ++k) {
      const auto [sum, loop] = sum_of(option_items[n.first_option + k], x);
      const double v = sum + loop * x;
      const bool better = n.side == rd::attacker ? v > best_value + n.margin : v < best_value - n.margin;
      if (k == 0 || better) {
        b = {k, sum, loop};
        best_value = v;
      }
    }
    return b;
  }
  std::pair<double, double> best_of(const node& n, double x) const {
    const best_option b = best(n, x);
    return {b.sum, b.loop};
  }
};

// Records a round's decision tree: each option's items gathered at its depth of `open`, then
// appended to the tree's items once the option is played.
struct tree_recorder : exact_chooser {
  round_tree* tree = nullptr;
  double tolerance = 0;
  std::vector<std::vector<round_tree::item>> open;  // open[depth]: the items of the option being played
  std::size_t depth = 0;

  void add(const round_tree::item& it) { open[depth].push_back(it); }

  std::pair<std::uint32_t, std::uint32_t> close(std::size_t d) {
    const auto begin = static_cast<std::uint32_t>(tree->items.size());
    tree->items.insert(tree->items.end(), open[d].begin(), open[d].end());
    open[d].clear();
    return {begin, static_cast<std::uint32_t>(tree->items.size())};
  }

  template <class F>
  void decide(const rd::decision& d, int options, F&& f) {
    if (options == 1) {
      f(0);
      return;
    }
    const auto index = static_cast<std::uint32_t>(tree->nodes.size());
    const auto first = static_cast<std::uint32_t>(tree->option_items.size());
    tree->nodes.push_back({d.side, tolerance * weight, first, static_cast<std::uint32_t>(options)});
    tree->option_items.resize(first + static_cast<std::size_t>(options));
    tree->option_nodes.resize(first + static_cast<std::size_t>(options));
    for (int k = 0; k < options; ++k) {
      tree->option_nodes[first + static_cast<std::size_t>(k)] = static_cast<std::uint32_t>(tree->nodes.size());
      ++depth;
      if (open.size() <= depth) open.resize(depth + 1);
      f(k);
      tree->option_items[first + static_cast<std::size_t>(k)] = close(depth);
      --depth;
    }
    tree->nodes[index].nodes_end = static_cast<std::uint32_t>(tree->nodes.size());
    add({round_tree::choice, index, 0.0});
  }
};

// Replays a round making the choices of a state's plan (game::plan_of): one option per choice of
// more than one, in the order the round asks them.
struct plan_follower : exact_chooser {
  const std::uint32_t* next = nullptr;
  const std::function<void(const rd::decision&, int)>* chosen = nullptr;

  template <class F>
  void decide(const rd::decision& d, int options, F&& f) {
    if (options == 1) {
      f(0);
      return;
    }
    const int k = static_cast<int>(*next++);
    if (chosen && *chosen) (*chosen)(d, k);
    f(k);
  }
};

// The game over a battle's full states: explored, solved, then played as solved.
class game {
 public:
  // keep_plan: keep each state's choices for play (a forward pass follows).
  game(const battle_rules& r, const game_options& g, const exact_options& o, bool keep_plan)
      : r_(r), g_(g), o_(o), keep_plan_(keep_plan) {
    lo_ = g.goal == objective::win ? 0.0 : -static_cast<double>(r.starting_sp[0]);
    hi_ = g.goal == objective::win ? 1.0 : g.win_value + static_cast<double>(r.starting_sp[1]);
    scale_ = std::max({1.0, std::abs(lo_), std::abs(hi_)});
  }

  std::size_t states() const { return keys_.size(); }
  double outcomes() const { return outcomes_; }

  // Every state any play reaches, then each one's value, successors first.
  void solve() {
    const battle_state start = rd::initial_state(r_);
    if (rd::is_stalemate(r_, start)) return;
    intern(encode(r_, start, battle_end::none));
    double outcomes = 0;  // every option's round outcomes: the leaves the solve will value
    for (std::size_t i = 0; i < keys_.size(); ++i) {
      throw_if_cancelled(o_);
      battle_end ignored;
      const battle_state s = decode(r_, keys_[i], ignored);
      explore_chooser c;
      if (cached_) leaves_begin_.push_back(leaves_.size());
      auto emit = [&](const battle_state& t, battle_end end) {
        ++outcomes;
        const std::uint32_t id = end == battle_end::none ? intern(encode(r_, t, end)) : ended;
        if (cached_) leaves_.push_back(id);
      };
      auto retreated = [&](double) {
        ++outcomes;
        if (cached_) leaves_.push_back(ended);
      };
      play_game_round(r_, g_, s, c, emit, retreated);
      if (cached_ && leaves_.size() > max_cached_leaves) drop_cache();  // past the bound: look successors up again
      const double predicted = outcomes * game_seconds_per_outcome;
      if (g_.time_budget > 0 && predicted > g_.time_budget) throw game_over_budget(predicted, g_.time_budget, true);
      count_memory();
    }
    outcomes_ = outcomes;
    std::vector<std::uint32_t> order(keys_.size());
    std::vector<int> level(keys_.size());
    for (std::uint32_t i = 0; i < keys_.size(); ++i) {
      order[i] = i;
      battle_end ignored;
      level[i] = potential(r_, decode(r_, keys_[i], ignored));
    }
    std::stable_sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) { return level[a] < level[b]; });
    values_.assign(keys_.size(), 0.0);
    if (keep_plan_) plan_begin_.assign(keys_.size(), 0);
    scratch_bytes_ = (order.capacity() + level.capacity()) * sizeof(std::uint32_t);
    for (const std::uint32_t i : order) {
      throw_if_cancelled(o_);
      values_[i] = solve_state(i);
      if (keep_plan_) {
        plan_begin_[i] = plan_.size();
        plan_of(tree_.root, values_[i]);
      }
      count_memory();
    }
    scratch_bytes_ = 0;
  }

  // The game's own data by capacity: its states' keys, index and values, the kept successors and
  // plans, the solve's order and its current decision tree. The process's code, the allocator's overhead and
  // the result are not in it (as solve_exact counts).
  std::size_t bytes() const {
    // A node of the index: its next pointer, its key and number, and the hash it keeps.
    constexpr std::size_t index_node =
        sizeof(void*) + sizeof(std::pair<const state_key, std::uint32_t>) + sizeof(std::size_t);
    std::size_t b = keys_.capacity() * sizeof(state_key) + index_.bucket_count() * sizeof(void*) +
                    index_.size() * index_node + values_.capacity() * sizeof(double) +
                    leaves_.capacity() * sizeof(std::uint32_t) + leaves_begin_.capacity() * sizeof(std::size_t) +
                    scratch_bytes_ + tree_.items.capacity() * sizeof(round_tree::item) +
                    tree_.option_items.capacity() * sizeof(std::pair<std::uint32_t, std::uint32_t>) +
                    tree_.option_nodes.capacity() * sizeof(std::uint32_t) +
                    tree_.nodes.capacity() * sizeof(round_tree::node) + plan_.capacity() * sizeof(std::uint32_t) +
                    plan_begin_.capacity() * sizeof(std::size_t);
    for (const auto& list : open_) b += list.capacity() * sizeof(round_tree::item);
    return b;
  }
  std::size_t peak_bytes() const { return peak_bytes_; }

  double start_value() const {
    const battle_state start = rd::initial_state(r_);
    if (rd::is_stalemate(r_, start)) return payoff(r_, g_, start, battle_end::stalemate);
    return values_[0];
  }

  // One round from s played as solved: emit(t, end, w) for each outcome; chosen (if set) sees each
  // choice made.
  template <class Emit>
  void play(const battle_state& s, double weight, Emit&& emit,
            const std::function<void(const rd::decision&, int)>& chosen = {}) {
    const state_key self = encode(r_, s, battle_end::none);
    const std::uint32_t i = index_.at(self);
    plan_follower c;
    c.next = plan_.data() + plan_begin_[i];
    c.chosen = &chosen;
    c.weight = weight;
    auto played = [&](const battle_state& t, battle_end end) { emit(t, end, c.weight); };
    rd::play_round(r_, s, c, played);
  }

 private:
  double tolerance() const { return 1e-12 * scale_; }

  // Checked once per state explored or solved (--memory-mb): the kept successors are only a
  // shortcut, so they go first (recording then looks successors up); past the bound without them
  // the solve stops as solve_exact does.
  void count_memory() {
    std::size_t now = bytes();
    if (o_.memory_limit > 0 && now > o_.memory_limit && cached_) {
      drop_cache();
      now = bytes();
    }
    peak_bytes_ = std::max(peak_bytes_, now);
    if (o_.memory_limit > 0 && now > o_.memory_limit) throw memory_limit_exceeded(o_.memory_limit, now, keys_.size());
  }

  void drop_cache() {
    cached_ = false;
    std::vector<std::uint32_t>().swap(leaves_);
    std::vector<std::size_t>().swap(leaves_begin_);
  }

  std::uint32_t intern(const state_key& key) {
    const auto [at, added] = index_.try_emplace(key, static_cast<std::uint32_t>(keys_.size()));
    if (added) {
      if (keys_.size() >= o_.state_limit) throw state_limit_exceeded(o_.state_limit);
      keys_.push_back(key);
    }
    return at->second;
  }

  // The state's plan: the option its tree's best choices take at self-loop value x (its value),
  // at each choice the play of those choices meets, in the order the round meets them (a choice
  // item sits among its list's items where the round made the choice): what replaying the round
  // along the tree's best choices chose, without replaying it.
  void plan_of(std::pair<std::uint32_t, std::uint32_t> range, double x) {
    for (std::uint32_t at = range.first; at < range.second; ++at) {
      const round_tree::item& it = tree_.items[at];
      if (it.kind != round_tree::choice) continue;
      const round_tree::node& n = tree_.nodes[it.node];
      const std::uint32_t k = tree_.best(n, x).option;
      plan_.push_back(k);
      plan_of(tree_.option_items[n.first_option + k], x);
    }
  }

  // Records the round of s (state i) into tree_, every option of every choice, each outcome
  // weighed from 1.
  void record(const battle_state& s, std::uint32_t i) {
    tree_.clear();
    tree_recorder c;
    c.tree = &tree_;
    c.tolerance = tolerance();
    c.open.swap(open_);  // the lists' capacity kept from state to state
    if (c.open.empty()) c.open.resize(1);
    c.depth = 0;
    // The exploration played the same outcomes in the same order: its successors, when kept.
    std::size_t next = cached_ ? leaves_begin_[i] : 0;
    auto played = [&](const battle_state& t, battle_end end) {
      if (end != battle_end::none) {
        ++next;
        c.add({round_tree::value_leaf, 0, c.weight * payoff(r_, g_, t, end)});
        return;
      }
      const std::uint32_t to = cached_ ? leaves_[next++] : index_.at(encode(r_, t, end));
      if (to == i) {
        c.add({round_tree::loop_leaf, 0, c.weight});
        tree_.saw_loop = true;
      } else
        c.add({round_tree::value_leaf, 0, c.weight * values_[to]});
    };
    auto retreated = [&](double amount) {
      ++next;
      c.add({round_tree::value_leaf, 0, amount});
    };
    c.weight = 1.0;
    play_game_round(r_, g_, s, c, played, retreated);
    tree_.root = c.close(0);
    c.open.swap(open_);
  }

  // The state's value V = g(V), g(x) the round's value with its self-loops worth x: under a fixed
  // choice of options g is affine, x -> sum + loop x (loop < 1: some die can always change the
  // state, else it is a stalemate), and the best choices make g piecewise affine and increasing
  // with slope < 1, so g(x) - x falls and crosses 0 once. Newton's step to the fixed point of the
  // piece chosen at x, sum / (1 - loop), kept inside a bracket (bisecting when it would leave it),
  // ends at a point whose own piece fixes it: the choices made there are the stationary strategy
  // of the self-looping state and V its value. Without a self-loop one step is exact.
  double solve_state(std::uint32_t i) {
    battle_end ignored;
    const battle_state s = decode(r_, keys_[i], ignored);
    record(s, i);
    double lo = lo_, hi = hi_, x = lo_;
    for (int step = 0; step < 200; ++step) {
      const auto [sum, loop] = tree_.sum_of(tree_.root, x);
      if (loop >= 1.0) return x;  // (cannot happen: see above)
      const double fixed = sum / (1.0 - loop);
      if (!tree_.saw_loop || std::abs(fixed - x) <= 1e-14 * scale_) return fixed;
      if (sum + loop * x > x)
        lo = x;
      else
        hi = x;
      x = fixed > lo && fixed < hi ? fixed : 0.5 * (lo + hi);
      if (hi - lo <= 1e-15 * scale_) return x;
    }
    return x;
  }

  const battle_rules& r_;
  game_options g_;
  exact_options o_;
  double lo_ = 0, hi_ = 1, scale_ = 1, outcomes_ = 0;
  std::size_t scratch_bytes_ = 0, peak_bytes_ = 0;
  std::vector<state_key> keys_;
  std::unordered_map<state_key, std::uint32_t, state_key_hash> index_;
  std::vector<double> values_;
  // Each state's round outcomes' successors (ended: a finished battle) in the order the exploration
  // played them, from leaves_begin_[state], while they number at most max_cached_leaves (4 bytes
  // each): recording a round then looks none up.
  static constexpr std::uint32_t ended = 0xffffffffu;
  static constexpr std::size_t max_cached_leaves = std::size_t{1} << 25;
  bool cached_ = true;
  std::vector<std::uint32_t> leaves_;
  std::vector<std::size_t> leaves_begin_;
  // Each state's choices as solved (plan_of), from plan_begin_[state], when keep_plan_.
  bool keep_plan_ = false;
  std::vector<std::uint32_t> plan_;
  std::vector<std::size_t> plan_begin_;
  round_tree tree_;                                  // solve_state's, reused
  std::vector<std::vector<round_tree::item>> open_;  // the recorder's, reused
};

// Advice from the start state's round (each choice the solved play makes there, with the case it
// is made in) and the retreats the solved play makes anywhere.
struct advice_recorder {
  const battle_rules& r;
  std::array<side_advice, 2>& advice;
  std::array<std::set<std::pair<int, int>>, 2> retreats, fights;
  // Round 1's choices as made, by side, what is decided (hits taken; units failed on one die) and
  // case: the choice, and the rulings' choice.
  std::map<std::tuple<int, int, choice_case>, std::pair<std::vector<int>, std::vector<int>>> allocations;
  std::map<std::tuple<int, std::vector<int>, choice_case>, std::pair<int, int>> rerolls;

  choice_case case_of(const rd::decision& d) const {
    choice_case c;
    for (std::size_t u = 0; u < r.units.size(); ++u) {
      c.hits.push_back(r.units[u].start_sp - d.state->sp[u]);
      if (d.state->st[u] == rd::failed) c.failed.push_back(static_cast<int>(u));
    }
    c.rerolls = d.state->rerolls[d.side];
    return c;
  }

  void start_round(const rd::decision& d, int option) {
    const int first = r.begin[d.side];
    if (d.kind == rd::decision_kind::hits) {
      std::vector<int> optimal, rulings;
      for (int i = first; i < r.end[d.side]; ++i) {
        optimal.push_back((*d.allocations)[static_cast<std::size_t>(option)][i]);
        rulings.push_back((*d.allocations)[0][i]);
      }
      allocations.try_emplace({d.side, d.hits, case_of(d)}, optimal, rulings);
    } else if (d.kind == rd::decision_kind::reroll) {
      std::vector<int> failed;
      int chosen = -1;
      for (std::uint32_t left = d.pending; left; left &= left - 1) {
        if (static_cast<int>(failed.size()) == option) chosen = std::countr_zero(left) - first;
        failed.push_back(std::countr_zero(left) - first);
      }
      rerolls.try_emplace({d.side, failed, case_of(d)}, chosen, failed.front());
    }
  }

  // Each side's choices grouped by what is decided: the choice of most cases (ties to the
  // rulings', then the first), and the cases where another is best. add(what, usual, rulings,
  // otherwise) makes the advice.
  template <class Key, class Choice, class Add>
  static void gather(const std::map<std::tuple<int, Key, choice_case>, std::pair<Choice, Choice>>& made, int side,
                     Add add) {
    auto it = made.lower_bound({side, Key{}, choice_case{}});
    while (it != made.end() && std::get<0>(it->first) == side) {
      const Key& what = std::get<1>(it->first);
      const Choice& rulings = it->second.second;
      std::map<Choice, int> count;
      auto end = it;
      for (; end != made.end() && std::get<0>(end->first) == side && std::get<1>(end->first) == what; ++end)
        ++count[end->second.first];
      Choice usual = rulings;
      int most = count.count(rulings) ? count.at(rulings) : 0;
      for (const auto& [choice, n] : count)
        if (n > most) {
          usual = choice;
          most = n;
        }
      std::vector<std::pair<choice_case, Choice>> otherwise;
      for (; it != end; ++it)
        if (it->second.first != usual) otherwise.emplace_back(std::get<2>(it->first), it->second.first);
      add(what, usual, rulings, std::move(otherwise));
    }
  }

  void any_round(const rd::decision& d, int option) {
    if (d.kind != rd::decision_kind::retreat) return;
    const auto t = rd::track(r, *d.state);
    const std::pair<int, int> sp{t.sum[d.side].line_sp, t.sum[1 - d.side].line_sp};
    (option == 1 ? retreats : fights)[static_cast<std::size_t>(d.side)].insert(sp);
  }

  void finish() {
    for (std::size_t side = 0; side < 2; ++side) {
      retreat_advice& a = advice[side].retreat;
      a.retreats.assign(retreats[side].begin(), retreats[side].end());
      a.fights.assign(fights[side].begin(), fights[side].end());
      if (a.retreats.empty()) continue;
      int own = 0, enemy = 1 << 20;
      for (const auto& [o, e] : a.retreats) {
        own = std::max(own, o);
        enemy = std::min(enemy, e);
      }
      a.threshold = std::none_of(a.fights.begin(), a.fights.end(),
                                 [&](const auto& p) { return p.first <= own && p.second >= enemy; });
      a.own_at_most = own;
      a.enemy_at_least = enemy;
    }
    for (int side = 0; side < 2; ++side) {
      side_advice& a = advice[static_cast<std::size_t>(side)];
      gather(allocations, side,
             [&](int hits, const std::vector<int>& usual, const std::vector<int>& rulings, auto otherwise) {
               a.allocations.push_back({hits, usual, rulings, std::move(otherwise)});
             });
      gather(rerolls, side, [&](const std::vector<int>& failed, int usual, int, auto otherwise) {
        a.rerolls.push_back({failed, usual, std::move(otherwise)});
      });
    }
  }
};

struct solved_game {
  double value = 0;
  std::size_t states = 0;
  double outcomes = 0;
  battle_result outcome;
  std::array<side_advice, 2> advice;
};

solved_game solve_game(const battle& b, const game_options& g, const exact_options& options, bool report) {
  const battle_rules r = rd::compile(b);
  game gm(r, g, options, report);
  gm.solve();
  solved_game out;
  out.value = gm.start_value();
  out.states = gm.states();
  out.outcomes = gm.outcomes();
  if (!report) return out;
  for (int side = 0; side < 2; ++side)
    for (int i = r.begin[side]; i < r.end[side]; ++i)
      out.advice[static_cast<std::size_t>(side)].units.push_back(r.units[static_cast<std::size_t>(i)].name);
  advice_recorder rec{r, out.advice, {}, {}, {}, {}};
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
      gm.play(s, weight, emit, [&](const rd::decision& d, int k) {
        if (at_start) rec.start_round(d, k);
        rec.any_round(d, k);
      });
    });
  } catch (const memory_limit_exceeded& e) {
    throw memory_limit_exceeded(options.memory_limit, game_bytes + e.counted(), e.states());
  }
  out.outcome.method.memory_bytes = std::max(gm.peak_bytes(), game_bytes + out.outcome.method.memory_bytes);
  rec.finish();
  return out;
}

}  // namespace

game_result solve_optimal_play(const battle& b, const game_options& g, const exact_options& options) {
  if (!(g.win_value >= 0) || !std::isfinite(g.win_value))
    throw invalid_input("win-value", "must be a number of SP, 0 or more");
  const battle both = b;
  const battle neither = default_play(b);
  game_result out;
  out.goal = g.goal;
  const bool att = plays_optimally(b.attacker), def = plays_optimally(b.defender);
  // The first solve predicts the whole cost (the budget is checked there; the one-side solves have
  // fewer options, and the cost model counts them in).
  solved_game main = solve_game(both, g, options, true);
  game_options unbounded = g;
  unbounded.time_budget = 0;
  out.outcome = main.outcome;
  out.value = main.value;
  out.game_states = main.states;
  out.outcomes = main.outcomes;
  out.predicted_seconds = main.outcomes * game_seconds_per_outcome;
  out.advice = main.advice;
  out.value_default_play = play_value(solve_exact(neither), g);
  // One side solved against the other's default: the same solve when only that side is optimal.
  const double att_only = !att   ? out.value_default_play
                          : !def ? out.value
                                 : solve_game(default_play(b, 1), unbounded, options, false).value;
  const double def_only = !def   ? out.value_default_play
                          : !att ? out.value
                                 : solve_game(default_play(b, 0), unbounded, options, false).value;
  out.gain_attacker = att_only - out.value_default_play;
  out.gain_defender = out.value_default_play - def_only;
  return out;
}

}  // namespace musket::great_lakes
