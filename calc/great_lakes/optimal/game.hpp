#pragma once
// Optimal play in a War Along the Great Lakes battle (issue 17): the choices GL 11-12 leave to the
// players (who takes the hits beyond one per line unit, GL 11.23; which failed die a leader
// rerolls, or keeping the reroll, GL 11.26-11.27; voluntary retreat, GL 12.2) solved as a
// two-player zero-sum game of perfect information by backward induction over pairs of side states
// (optimal/pair_values.hpp; README "Optimal play" gives the rulings). A side plays a kind of choice optimally where
// its policy is `optimal` (retreat_kind, hit_allocation_kind, reroll_kind); a side with fixed
// policies is a fixed opponent, so one side optimal is the one-player optimisation.
#include <array>
#include <optional>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "calc/great_lakes/battle.hpp"

namespace musket::great_lakes {

namespace round {
struct battle_rules;  // rules/state.hpp
}

// What the attacker maximises and the defender minimises.
enum class objective {
  win,    // P(the attacker wins)
  value,  // win_value x [attacker wins] - attacker SP lost + defender SP lost
};
std::string to_string(objective o);

struct game_options {
  objective goal = objective::win;
  double win_value = 0;  // objective::value: what winning is worth in SP (>= 0)
  // Refuse (throw game_over_budget) a solve predicted to take longer than this many seconds (0: no
  // bound). The prediction counts the round outcomes of every option of every choice as the
  // game's states are recorded, and stops the solve once they alone pass it; then adds the outcome
  // chain's predicted from the pairs it may play, before any pair is valued; and as a backstop
  // counts those the chain plays, and stops it once they take the pairs' count past it.
  double time_budget = 0;
};

class game_over_budget : public std::runtime_error {
 public:
  game_over_budget(double predicted, double budget, bool partial)
      : std::runtime_error("optimal play's predicted cost is past its time budget"),
        predicted_(predicted),
        budget_(budget),
        partial_(partial) {}
  double predicted() const { return predicted_; }  // seconds
  double budget() const { return budget_; }
  bool partial() const { return partial_; }  // the solve stopped early: the cost is at least this
 private:
  double predicted_, budget_;
  bool partial_;
};

// Where a round-1 choice is made, in a case the solved play reaches: the hits each unit has taken
// so far this round and the units that have failed morale by then (both over the battle's units:
// the attacker's in listing order, then the defender's), and the deciding side's rerolls left.
// The attacker allocates first, at the start; the defender allocates after the attacker's fire,
// knowing the hits the attacker took (GL 11.18); a reroll is chosen after the side's morale rolls.
struct choice_case {
  std::vector<int> hits;
  std::vector<int> failed;
  int rerolls = 0;
  // Ordered member by member (a map key); < written out, as libc++ 14 (the web build's) has no <=> for std::vector.
  bool operator==(const choice_case&) const = default;
  friend bool operator<(const choice_case& a, const choice_case& b) {
    return std::tie(a.hits, a.failed, a.rerolls) < std::tie(b.hits, b.failed, b.rerolls);
  }
};

// One side's best allocation of `hits` hits in round 1: the allocation best in most of the cases
// the solved play reaches (ties to the rulings'), and each case where another is best.
struct allocation_advice {
  int hits = 0;
  std::vector<int> optimal;  // hits per unit of the side, in its listing order
  std::vector<int> rulings;  // the rulings' allocation of the same hits
  std::vector<std::pair<choice_case, std::vector<int>>> otherwise;
};

// One side's best use of a reroll in round 1 (GL 11.26-11.27) when `failed_on_one` failed morale
// with one die: reroll one of them (the rulings reroll the first) or keep the reroll; as
// allocation_advice, the choice of most cases and the cases where another is best.
struct reroll_advice {
  std::vector<int> failed_on_one;  // the side's units (indices in its listing)
  int reroll = -1;                 // the unit rerolled (an index in the side's listing); -1: kept, they all fail
  std::vector<std::pair<choice_case, int>> otherwise;
};

// Where the solved strategy retreats voluntarily, over the states its play reaches: own and enemy
// line SP (after both morale checks) of each state where the side retreats and of each where it
// fights on.
struct retreat_advice {
  std::vector<std::pair<int, int>> retreats, fights;
  // "own line SP <= own_at_most and enemy line SP >= enemy_at_least" describes exactly where it
  // retreats (among the pairs seen), when such a rule exists and it retreats somewhere.
  bool threshold = false;
  int own_at_most = 0, enemy_at_least = 0;
};

struct side_advice {
  std::vector<std::string> units;              // the side's unit names, listing order
  std::vector<allocation_advice> allocations;  // by hits
  std::vector<reroll_advice> rerolls;          // by units failed
  retreat_advice retreat;
};

struct game_result {
  battle_result outcome;  // under the solved strategies
  objective goal = objective::win;
  double value = 0;                   // to the attacker, both sides playing as solved
  double value_default_play = 0;      // every `optimal` policy played as the rulings' default
  double gain_attacker = 0;           // value(attacker solved, defender default) - value_default_play
  double gain_defender = 0;           // value_default_play - value(attacker default, defender solved)
  std::array<side_advice, 2> advice;  // attacker, defender
  std::size_t game_states = 0;        // states of the game (every choice's), solved by backward induction
  double outcomes = 0;                // round outcomes over every option of every choice (the solve's leaves)
  double chain_outcomes = 0;          // round outcomes the outcome chain played (its both passes)
  double chain_predicted = 0;         // those predicted before the solve (chain_outcomes_per_pair)
  double predicted_seconds = 0;       // the cost model's prediction before the solve: outcomes, chain_predicted
                                      // (where swept, the column sweep's predicted cost in its place)
  bool choices = true;                // false: no choice to solve (has_choice), the default play's answer
  bool swept = false;                 // the outcome by the column sweep under the solved allocation, not chains
};

// Any of the battle's policies `optimal`.
bool plays_optimally(const battle& b);
bool plays_optimally(const army& a);
// The battle with every `optimal` policy of `side` (or both: side < 0) replaced by the rulings'
// default (never retreat, rulings hits, first reroll).
battle default_play(battle b, int side = -1);
// The objective's value of a solved fixed-policy battle (to the attacker).
double play_value(const battle_result& r, const game_options& g);

// Whether an `optimal` policy leaves a choice to solve. On the win objective a voluntary retreat
// loses the battle, so an optimal retreat never retreats (RULINGS; the game offers no retreat
// there): a battle whose only `optimal` policies are retreats is then its default play.
bool has_choice(const battle& b, objective goal);
// Each side's advice with nothing decided yet but its units' names (listing order, the garrison's
// among them): where every game's advice starts.
std::array<side_advice, 2> advice_of_units(const round::battle_rules& r);
// Such a battle's game from its default play solved (`outcome`): the value both ways, no gain, and
// for a side whose retreat is `optimal` the advice that it never retreats.
game_result game_of_default_play(const battle& b, const game_options& g, battle_result outcome);

// Throws invalid_input (bad win_value), state_limit_exceeded past options.state_limit pairs of
// side states (or pairs in the outcome chain), solve_cancelled, game_over_budget
// (g.time_budget), memory_limit_exceeded once the pair game's side tables, values, choices and
// MD columns, and then the outcome chain beside them, pass options.memory_limit.
// outcome.method.memory_bytes is the peak counted.
game_result solve_optimal_play(const battle& b, const game_options& g, const exact_options& options = {});

}  // namespace musket::great_lakes
