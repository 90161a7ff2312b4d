#pragma once
// Who decides a round's random events and the players' choices: the Chooser concepts play_round is
// generic in (rules/round.hpp describes them), and the choices GL 11.23, 11.26-11.27 and 12.2 leave
// to the players.
#include <cstdint>
#include <vector>

#include "calc/great_lakes/rules/state.hpp"

namespace musket::great_lakes::round {

// The players' choices (optimal/game.hpp solves them). A Chooser that also decides has
//   decide(const decision& d, int options, f)   call f(k) for the options k in [0, options) it
//                                                weighs; option 0 is always the rulings' default
// and the round asks it only where the side's policy for that kind of choice is `optimal`. Any
// other Chooser (the fixed engines') never sees a choice: `optimal` plays as the default there, and
// the fixed policies run the same code as before these hooks.
enum class decision_kind {
  hits,     // GL 11.23: who takes the hits beyond the rule's (options: hit_options)
  reroll,   // GL 11.26-11.27: which unit that failed with one die is rerolled (options: each in
            // listing order, then none: the reroll is kept and every such unit fails)
  retreat,  // GL 12.2: voluntary retreat (options: fight on, retreat)
};
struct decision {
  int side = 0;
  decision_kind kind = decision_kind::hits;
  int hits = 0;                                          // hits: how many are taken
  const std::vector<hit_counts>* allocations = nullptr;  // hits: option k's hits per unit
  const battle_state* state = nullptr;                   // where the choice is made (before it)
  std::uint32_t pending = 0;                             // reroll: the units that failed with one die
  std::array<int, 2> line_sp{};                          // retreat: each side's line SP there
};
template <class Chooser>
concept deciding_chooser = requires(Chooser& c, const decision& d) {
  c.decide(d, 1, [](int) {});
};
// A Chooser that calls each choice's f exactly once (a simulation's) may say so with
// `static constexpr bool one_outcome = true`: the round then changes its state in place, since
// nothing reads a state again once an outcome has been taken from it. Any other chooser (the
// exact one visits every outcome of a choice from the same state) gets a copy to change.
template <class Chooser>
concept one_outcome_chooser = requires {
  requires Chooser::one_outcome;
};

// Calls f with the state an outcome may change: `s` itself or a copy, as above.
template <class Chooser, class State, class F>
void change(State& s, F&& f) {
  if constexpr (one_outcome_chooser<Chooser>) {
    f(s);
  } else {
    State t = s;
    f(t);
  }
}

}  // namespace musket::great_lakes::round
