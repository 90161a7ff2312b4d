#pragma once
// One side of a Great Lakes battle played alone (exact/column_sweep.hpp): every state its units can be in
// at a round's start, and for each count of hits it can take below its line SP what its
// allocation, morale checks and rerolls make of it (GL 11.23-11.27, rules/round.hpp's rules). A side's
// half of a round reads the other side only through the hits it takes, so this is played once a
// battle, whatever the other side does. Internal to calc/great_lakes.
#include <array>
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "calc/great_lakes/rules/round.hpp"

namespace musket::great_lakes::sweep {

struct side_move {
  std::uint32_t to = 0;
  int dice = 0;  // the dice the side fires this round: after the hits, before its checks (GL 11.18)
  double p = 0;
};

struct side_states {
  int side = 0;
  // Round-start states (after a round's checks), unfolded: each unit's SP and status, rerolls left.
  std::vector<round::battle_state> states;
  std::vector<std::uint32_t> part;     // by state: its folded part (units out of the line just out)
  std::vector<std::uint32_t> example;  // by part: one of its states
  std::vector<int> line_sp, dice;      // by state: line SP; fire dice, the ship's included (GL 7.13)
  std::vector<int> line_dice;          // by state: the line's dice alone (retreat fire, GL 12.2)
  std::vector<int> line_units;         // by state: its units in the line (the other's retreat fire)
  // States after a fire's hits, before any check: per state, by hits 0 .. line SP - 1.
  std::vector<round::battle_state> hit;
  std::vector<int> hit_dice, hit_line_dice;  // by hit state, as above
  std::vector<int> hit_first_dice;           // by hit state: its fire dice in round 1 (GL 11.22)
  std::vector<std::vector<std::uint32_t>> hit_of;
  // Per state, by hits 1 .. line SP - 1: the round-start states after the checks (a line gone in
  // them is a state whose line SP is 0), each with the dice fired (hit_dice of the hit state).
  std::vector<std::vector<std::vector<side_move>>> after_hits;
  // By state: its units waiting to enter (GL 13), and where its line stands and some wait, the
  // states the round's reinforcement makes of it (GL 13.3: each waiting unit enters on a roll
  // within its enter faces), each with its probability, itself among them; else empty.
  std::vector<int> waiting;
  std::vector<std::vector<side_move>> entering;
  // Listed with other allocations than the rulings' (optimal play's, GL 11.23: the sweep then plays
  // a solved one): per state, by hits 1 .. line SP - 1, the options of round::hit_options past the
  // rulings' (option 0: hit_of and after_hits) that were asked for, in its order: the option, its hit
  // state and its checks' moves. Else empty.
  struct allocation {
    int option = 0;
    std::uint32_t hit = 0;
    std::vector<side_move> moves;
  };
  std::vector<std::vector<std::vector<allocation>>> other_allocations;
  // Option `option`'s hit state of `hits` hits from `state`, and its moves (an option listed).
  const allocation& other_allocation(std::uint32_t state, int hits, int option) const {
    for (const allocation& a : other_allocations[state][static_cast<std::size_t>(hits)])
      if (a.option == option) return a;
    throw std::logic_error("side_states: an allocation not listed");
  }
  std::uint32_t hit_of_option(std::uint32_t state, int hits, int option) const {
    return option == 0 ? hit_of[state][static_cast<std::size_t>(hits)] : other_allocation(state, hits, option).hit;
  }
  const std::vector<side_move>& moves_of_option(std::uint32_t state, int hits, int option) const {
    return option == 0 ? after_hits[state][static_cast<std::size_t>(hits)]
                       : other_allocation(state, hits, option).moves;
  }
};

// A side state's key: per unit SP | status << 5, then the rerolls left; folded, a unit out of the
// line for good (eliminated, failed morale, or already `out`) is just 0xFF, as the folded engine
// holds it (exact/cost.cpp counts sides by it too).
std::string side_key(const round::battle_rules& r, const round::battle_state& s, int side, bool folded);

// Which allocations of `hits` hits from a state (its units at a round's start) to list beside the
// rulings': `taken` (sized to round::hit_options' count, all 0) set to 1 at each option to list.
using allocations_taken = std::function<void(const round::battle_state& s, int hits, std::vector<std::uint8_t>& taken)>;

// Lists `side`'s states from the battle's start. Returns false (and stops) once it has found more
// than `state_limit` states or hit states, or listed more than `move_limit` moves (a side whose one
// round has millions of morale outcomes, 16 units that can all fail: 3^16, is past any budget).
// `allocations`: the allocations listed beside the rulings' (other_allocations), and the states
// they reach.
bool list_side_states(const round::battle_rules& r, int side, std::size_t state_limit, side_states& out,
                      std::size_t move_limit = static_cast<std::size_t>(-1),
                      const allocations_taken* allocations = nullptr);

// Both sides of a battle, listed once: the cost prediction (exact/cost.hpp) reads them and the
// sweep plays them. `complete` false: a side passed a limit and its list stops short.
struct battle_sides {
  std::array<side_states, 2> side;
  bool complete = false;
};
battle_sides list_battle_sides(const round::battle_rules& r, std::size_t state_limit,
                               std::size_t move_limit = static_cast<std::size_t>(-1),
                               const allocations_taken* attacker_allocations = nullptr);

// A side's parts ranked by units waiting, most first, then by line SP, highest first (every move
// but the self-loop lowers the line SP or lets a unit enter, so this is a topological order), and
// its states listed part by part in that order ("places").
struct side_order {
  std::vector<std::uint32_t> part_rank;   // by part
  std::vector<std::uint32_t> part_begin;  // by rank: its first place (and one past the last)
  std::vector<std::uint32_t> place;       // by state
  std::vector<std::uint32_t> state_at;    // by place
  std::uint32_t example_of_rank(std::uint32_t k) const { return state_at[part_begin[k]]; }  // its first state
};
side_order order_of(const side_states& s);

}  // namespace musket::great_lakes::sweep
