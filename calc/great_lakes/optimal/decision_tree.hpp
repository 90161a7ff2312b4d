#pragma once
// A state's round as the game of optimal play (optimal/game.cpp) records it: its decision tree
// (round_tree), the chooser that records it (tree_recorder), and the one that replays it making
// the solved choices (plan_follower). Both ask the game (class game, optimal/game.cpp) for what
// it shares between rounds.
#include <array>
#include <cstdint>
#include <vector>

#include "calc/great_lakes/exact/exact_chooser.hpp"
#include "calc/great_lakes/optimal/payoff.hpp"
#include "calc/great_lakes/rules/round.hpp"

namespace musket::great_lakes::optimal {

namespace {  // (internal linkage: optimal/payoff.hpp says why; its using-declarations serve here)

// The valuations of one recorded game (issue 17's speed): valuation 0 is the game as posed (every
// choice recorded is made by its side); valuation 1 the default play, where neither side decides
// (every choice takes option 0, its default: rules/round.hpp's decide and the fixed choosers' code agree
// on it, GL 11.23's rulings, the first unit a reroll saves, fighting on), for value_default_play;
// when both sides play optimally, valuation 2 is the game where only the attacker decides (the
// defender's choices at option 0) and valuation 3 the one where only the defender does, for the
// gains. A game with some choices forced is the same tree, and its states are among the game's, so
// each state's round, recorded once, is valued once per valuation.
inline constexpr int max_valuations = 4;
// The sides that decide in each valuation (bit 0: attacker, bit 1: defender).
inline constexpr std::array<unsigned, max_valuations> deciders{3u, 0u, 1u << rd::attacker, 1u << rd::defender};

// One state's round recorded once as its decision tree (issue 17's speed). A list (the round's, or
// one option's of a choice) holds the outcomes played under it before any later choice, as leaves
// (a successor's weight, a finished battle's weighted payoff, or a self-loop's weight), and the
// later choices it leads to, each a node whose options are lists. Once the successors are solved
// (finish) each list's leaves are summed once, in play order, into the list's `sum` (weight x
// value or payoff; one per valuation) and `loop` (the self-loops' weight), and each choice with no
// self-loop below it is made once per valuation (its best does not depend on the self-loop's
// value), so that solve_state's Newton steps value the tree at each x by walking only the choices
// above a self-loop; play follows valuation 0's best choices.
struct round_tree {
  static constexpr std::uint32_t ended = 0xffffffffu;  // a leaf of a finished battle
  using sums = std::array<double, max_valuations>;
  struct leaf {
    double weight;       // ended: weight x payoff
    std::uint32_t to;    // the successor (the state itself: a self-loop), or ended
    std::uint32_t list;  // the list it is in
  };
  struct list {
    std::uint32_t choices_begin = 0, choices_end = 0;  // its choices' nodes, in the order the round makes them
    double loop = 0;                                   // finish's (the same in every valuation)
    sums sum{};                                        // finish's, by valuation
  };
  struct node {
    int side;
    double margin;                        // the tolerance x the weight reaching the choice
    std::uint32_t first_option, options;  // its options' lists
    // finish's, by valuation (bit v of `fixed`) where no self-loop is below the choice as that
    // valuation plays it: that option's sum, and (valuation 0's) best option.
    unsigned fixed = 0;
    std::uint32_t best = 0;
    sums sum{};
  };
  std::vector<leaf> leaves;  // in play order
  std::vector<std::uint32_t> choices;
  std::vector<list> lists;
  std::vector<node> nodes;  // in pre-order (a choice before those of its options)
  std::uint32_t root = 0;   // the round's list
  bool saw_loop = false;
  unsigned loops = 0;  // finish's: bit v where valuation v's play can meet a self-loop

  void clear() {
    leaves.clear();
    choices.clear();
    lists.clear();
    nodes.clear();
    saw_loop = false;
    loops = 0;
  }
  std::size_t bytes() const {
    return leaves.capacity() * sizeof(leaf) + choices.capacity() * sizeof(std::uint32_t) +
           lists.capacity() * sizeof(list) + nodes.capacity() * sizeof(node);
  }

  // Each list's leaves summed, in play order, for each of the first `valuations` valuations,
  // `values` holding each state's values (valuations a state, from state x valuations) and `self`
  // being the state's own number; then each choice with no self-loop below it made, per
  // valuation, the later choices first.
  void finish(const std::vector<double>& values, std::uint32_t self, int valuations) {
    if (valuations == max_valuations)
      finish_as<max_valuations>(values, self);
    else
      finish_as<2>(values, self);
  }

  template <int NV>
  void finish_as(const std::vector<double>& values, std::uint32_t self) {
    constexpr auto nv = static_cast<std::size_t>(NV);
    for (const leaf& f : leaves) {
      list& l = lists[f.list];
      if (f.to == ended) {
        for (std::size_t v = 0; v < nv; ++v) l.sum[v] += f.weight;
      } else if (f.to == self) {
        l.loop += f.weight;
      } else {
        const double* x = values.data() + static_cast<std::size_t>(f.to) * nv;
        for (std::size_t v = 0; v < nv; ++v) l.sum[v] += f.weight * x[v];
      }
    }
    for (std::size_t at = nodes.size(); at-- > 0;) {
      node& n = nodes[at];
      bool loop_free = true;  // in valuation 0, which weighs every option
      for (std::uint32_t k = 0; k < n.options && loop_free; ++k) loop_free = list_loop_free(n.first_option + k, 0);
      if (loop_free) {
        // No self-loop below in any valuation: every valuation's choice made in one pass over the
        // options (the sums as sum_of adds them, each compared as best compares them at x = 0).
        sums value{};
        for (std::uint32_t k = 0; k < n.options; ++k) {
          const list& l = lists[n.first_option + k];
          sums s = l.sum;
          for (std::uint32_t c = l.choices_begin; c < l.choices_end; ++c)
            for (std::size_t v = 0; v < nv; ++v) s[v] += nodes[choices[c]].sum[v];
          for (std::size_t v = 0; v < nv; ++v) {
            if (k > 0 && !(deciders[v] >> n.side & 1u)) continue;  // forced to option 0 there
            const bool better = n.side == rd::attacker ? s[v] > value[v] + n.margin : s[v] < value[v] - n.margin;
            if (k == 0 || better) {
              value[v] = s[v];
              if (v == 0) n.best = k;
            }
          }
        }
        n.sum = value;
        n.fixed = (1u << NV) - 1;
        continue;
      }
      // A self-loop below: still, where the side does not decide, option 0 may have none.
      for (int v = 1; v < NV; ++v) {
        if (deciders[static_cast<std::size_t>(v)] >> n.side & 1u || !list_loop_free(n.first_option, v)) continue;
        n.sum[static_cast<std::size_t>(v)] = sum_of(n.first_option, 0.0, v).first;
        n.fixed |= 1u << v;
      }
    }
    // (Valuation 0 is the game's own: any self-loop recorded, as its solve has always taken it.)
    for (int v = 0; v < NV; ++v)
      if (saw_loop && (v == 0 || !list_loop_free(root, v))) loops |= 1u << v;
  }

  // No self-loop in the list nor below any of its choices, in valuation v (after finish's fixing).
  bool list_loop_free(std::uint32_t at, int v) const {
    const list& l = lists[at];
    if (l.loop != 0.0) return false;
    for (std::uint32_t c = l.choices_begin; c < l.choices_end; ++c)
      if (!(nodes[choices[c]].fixed >> v & 1u)) return false;
    return true;
  }

  // (sum, loop) of a list in valuation v under the best choices at self-loop value x; with
  // `chosen` (by node), each choice's best option made at x noted there.
  std::pair<double, double> sum_of(std::uint32_t at, double x, int v, std::uint32_t* chosen = nullptr) const {
    const list& l = lists[at];
    double sum = l.sum[static_cast<std::size_t>(v)], loop = l.loop;
    for (std::uint32_t c = l.choices_begin; c < l.choices_end; ++c) {
      const std::uint32_t n = choices[c];
      if (nodes[n].fixed >> v & 1u) {
        sum += nodes[n].sum[static_cast<std::size_t>(v)];
        continue;
      }
      const best_option b = best(n, x, v, chosen);
      sum += b.sum;
      loop += b.loop;
    }
    return {sum, loop};
  }

  // The choice at a node in valuation v (ties to option 0, the rulings' default; another option
  // only if better by more than the margin for its side; option 0 where the side does not decide).
  struct best_option {
    double sum, loop;
    std::uint32_t option;
  };
  best_option best(std::uint32_t at, double x, int v, std::uint32_t* chosen) const {
    const node& n = nodes[at];
    const std::uint32_t weighed = deciders[static_cast<std::size_t>(v)] >> n.side & 1u ? n.options : 1;
    best_option b{0, 0, 0};
    double best_value = 0;
    for (std::uint32_t k = 0; k < weighed; ++k) {
      const auto [sum, loop] = sum_of(n.first_option + k, x, v, chosen);
      const double value = sum + loop * x;
      const bool better = n.side == rd::attacker ? value > best_value + n.margin : value < best_value - n.margin;
      if (k == 0 || better) {
        b = {sum, loop, k};
        best_value = value;
      }
    }
    if (chosen) chosen[at] = b.option;
    return b;
  }

  // The option valuation 0 takes at node n, having noted its choices in `chosen` (by node).
  std::uint32_t taken(std::uint32_t n, const std::uint32_t* chosen) const {
    return nodes[n].fixed & 1u ? nodes[n].best : chosen[n];
  }
};

class game;  // optimal/game.cpp: the game these choosers record and replay for

// Records a round's decision tree: each leaf tagged with the list being played, each list's choices
// gathered at its depth of `open` and appended to the tree's once the list is played.
struct tree_recorder : exact_chooser {
  game* host = nullptr;  // (defender_morale's)
  round_tree* tree = nullptr;
  std::vector<state_key>* successors = nullptr;  // the tree's successors to look up once it is played
  retreat_fire_moments* fire = nullptr;          // (retreat_payoff's)
  double tolerance = 0;
  bool fight_on = false;  // settled_retreats: each retreat decision plays fighting on, unrecorded
  std::vector<std::vector<std::uint32_t>>* open = nullptr;  // (*open)[depth]: the choices of the list being played
  std::size_t depth = 0;
  std::uint32_t list = 0;  // the list being played

  void add(double w, std::uint32_t to) { tree->leaves.push_back({w, to, list}); }

  // Where the recorder writes: a state's tree, or a phase position's played from inside it (then
  // put back once that is recorded).
  struct place {
    round_tree* tree;
    std::vector<state_key>* successors;
    std::vector<std::vector<std::uint32_t>>* open;
    std::size_t depth;
    std::uint32_t list;
    double weight;
  };
  place here() const { return {tree, successors, open, depth, list, weight}; }
  void go_to(const place& p) {
    tree = p.tree;
    successors = p.successors;
    open = p.open;
    depth = p.depth;
    list = p.list;
    weight = p.weight;
  }

  // The rest of the round from the defender's morale check on, valued once per phase position
  // (game::record_defender_morale).
  template <class GoOn>
  void defender_morale(rd::round_state& s, const rd::hit_counts& hits, std::uint32_t checks, GoOn&& go_on);

  // rd::hit_options as the game keeps them (game::listed_hit_options).
  const std::vector<rd::hit_counts>& hit_options(const rd::battle_rules& r, const battle_state& s, int side, int count);

  void close(std::size_t d, std::uint32_t at) {
    std::vector<std::uint32_t>& o = (*open)[d];
    round_tree::list& l = tree->lists[at];
    l.choices_begin = static_cast<std::uint32_t>(tree->choices.size());
    tree->choices.insert(tree->choices.end(), o.begin(), o.end());
    l.choices_end = static_cast<std::uint32_t>(tree->choices.size());
    o.clear();
  }

  template <class F>
  void decide(const rd::decision& d, int options, F&& f) {
    if (options == 1 || (fight_on && d.kind == rd::decision_kind::retreat)) {
      f(0);
      return;
    }
    const auto index = static_cast<std::uint32_t>(tree->nodes.size());
    const auto first = static_cast<std::uint32_t>(tree->lists.size());
    tree->nodes.push_back({d.side, tolerance * weight, first, static_cast<std::uint32_t>(options)});
    tree->lists.resize(first + static_cast<std::size_t>(options));
    (*open)[depth].push_back(index);
    const std::uint32_t outer = list;
    ++depth;
    if (open->size() <= depth) open->resize(depth + 1);
    for (int k = 0; k < options; ++k) {
      list = first + static_cast<std::uint32_t>(k);
      f(k);
      close(depth, list);
    }
    --depth;
    list = outer;
  }
};

// Replays a round making the choices of a state's plan (game::plan_of): one option per choice of
// more than one, in the order the round asks them; chosen(decision, option), if set, sees each
// choice made (a template parameter: the chain's replay meets every decision of every state).
template <class Chosen>
struct plan_follower : exact_chooser {
  const game* host = nullptr;  // (defender_morale's)
  const std::uint32_t* next = nullptr;
  Chosen* chosen = nullptr;
  bool fight_on = false;  // settled_retreats: each retreat decision fights on, with no entry in the plan

  template <class F>
  void decide(const rd::decision& d, int options, F&& f) {
    if (options == 1) {
      f(0);
      return;
    }
    if (fight_on && d.kind == rd::decision_kind::retreat) {
      if (chosen) (*chosen)(d, 0);
      f(0);
      return;
    }
    const int k = static_cast<int>(*next++);
    if (chosen) (*chosen)(d, k);
    f(k);
  }

  // Where the recording valued the rest of the round as a phase position, its choices are that
  // position's plan (none where game::phase_plan finds that it can ask none).
  template <class GoOn>
  void defender_morale(rd::round_state& s, const rd::hit_counts& hits, std::uint32_t checks, GoOn&& go_on);

  const std::vector<rd::hit_counts>& hit_options(const rd::battle_rules& r, const battle_state& s, int side, int count);
};

}  // namespace
}  // namespace musket::great_lakes::optimal
