#pragma once
// A Great Lakes battle as the rules read it (GL 11-13): the compiled rules of one battle
// (battle_rules, from battle.hpp's description), a state between rounds (battle_state: each unit's SP
// and status, rerolls left) and what a round reads of a side, summed (side_sums).
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "calc/great_lakes/battle.hpp"

namespace musket::great_lakes::round {

inline constexpr int max_units = 32;  // units in one battle, garrison and reinforcements included
inline constexpr int attacker = 0;
inline constexpr int defender = 1;

// `out` marks, in the exact engine's folded states only, a unit that has left the line for good
// (eliminated or failed morale) whose SP is carried beside the state (folded_solver.cpp explains why).
enum status : std::uint8_t { line = 0, failed = 1, waiting = 2, out = 3 };

struct unit_rule {
  std::string name;
  int owner = attacker;
  int start_sp = 0;
  int dice = 0;
  int first_round_dice = 0;  // GL 11.22: river/amphibious attackers roll one less in round 1
  int fail_faces = 0;        // faces above the (effective) morale: 6 - morale
  int enter_faces = 0;       // reinforcements: faces that enter (rating, -1 across the Niagara)
  bool garrison = false;
  bool reinforcement = false;
  // P(no failed die) and P(exactly one) when checking morale with h dice (h = hits, <= 15 SP).
  std::array<double, 16> morale_none{}, morale_one{};
};

struct battle_rules {
  std::vector<unit_rule> units;       // listing order: attacker's, then defender's (garrison, reinforcements)
  std::array<int, 2> begin{}, end{};  // each side's unit index range
  std::array<int, 2> ship_dice{};
  std::array<int, 2> rerolls{};
  std::array<retreat_policy, 2> policy{};
  std::array<hit_allocation_policy, 2> hit_allocation{};
  std::array<reroll_policy, 2> reroll{};
  std::array<bool, 2> route{};
  std::array<int, 2> starting_sp{};  // total, garrison and reinforcements included
  int retreat_fire_faces = 1;        // 6, or 5-6 across the Niagara (GL 12.2-12.3)
  int garrison = -1;                 // index of the defender's garrison, if any
  // Hot per-unit values kept contiguous (copies of units[i].dice, .first_round_dice, .fail_faces;
  // can_enter: a reinforcement with an enter face, GL 13.3).
  std::array<std::uint8_t, max_units> dice{}, first_round_dice{}, fail_faces{}, can_enter{};
  // allocate_rulings_lanes', per side: its units if they fit the lanes (at most 8, the last
  // within max_units), else 0; each unit's place after SP in the rulings' order of hits,
  // (15 - dice) << 3 | (7 - position in the side); -1 for a unit that can fail morale; -1 for
  // each lane that is one of the side's units.
  std::array<int, 2> lane_units{};
  std::array<std::array<std::int16_t, 8>, 2> hit_tiebreak{}, checks_morale{}, side_lanes{};
  bool first_round_matters = false;  // any attacker dice lost in round 1
  std::array<bool, 2> has_reinforcements{};
  bool ships = false;  // a squadron on either side: somebody can always hit, so never a stalemate
};

battle_rules compile(const battle& b);

struct battle_state {
  std::array<std::uint8_t, max_units> sp{};
  std::array<std::uint8_t, max_units> st{};
  std::array<std::uint8_t, 2> rerolls{};
  bool first_round = false;
};

battle_state initial_state(const battle_rules& r);

using hit_counts = std::array<std::uint8_t, max_units>;

inline bool in_battle(const battle_state& s, int i) {
  return s.st[i] != waiting;
}
inline bool in_line(const battle_state& s, int i) {
  return s.st[i] == line && s.sp[i] > 0;
}
// Left the line for good: failed morale, eliminated (in the line with no SP), or already `out`.
// What is left of such a unit changes neither the battle's course nor who wins, only the SP lost.
inline bool left_the_line(const battle_state& s, int i) {
  return s.st[i] == failed || s.st[i] == out || (s.st[i] == line && s.sp[i] == 0);
}
// Each unit of s that left the line marked `out` with no SP: the exact engine's folded state.
inline void fold_out_of_line(const battle_rules& r, battle_state& s) {
  for (std::size_t i = 0; i < r.units.size(); ++i)
    if (left_the_line(s, static_cast<int>(i))) {
      s.st[i] = out;
      s.sp[i] = 0;
    }
}

// What the rules below read of a side, summed over its units. A round reads these many times, so
// play_round sums them once (sums_of) and keeps them up to date at each change it makes (hits,
// fail_morale, enter): a cache of these definitions, no more.
struct side_sums {
  std::int16_t line_units = 0;       // in the line with SP left
  std::int16_t line_dice = 0;        // their dice (GL 11.22), the ship's not included
  std::int16_t line_first_dice = 0;  // the same in round 1 (GL 11.22: crossing attackers roll one less)
  std::int16_t line_sp = 0;          // SP of the line units
  std::int16_t alive_sp = 0;         // SP still on the field: line and failed-morale units
  std::int16_t waiting = 0;          // reinforcements not yet entered that can (GL 13.3: rating > 0)
};

// The sums of `side`; given this round's `hits`, also sets `checks` to the units that check morale
// (GL 11.24): hit this round, still in the line with SP left, able to fail (morale below 6), one bit
// per unit index.
inline side_sums sums_of(const battle_rules& r, const battle_state& s, int side, const hit_counts* hits = nullptr,
                         std::uint32_t* checks = nullptr) {
  int units = 0, dice = 0, first_dice = 0, sp_in_line = 0, sp_alive = 0, waits = 0;
  std::uint32_t check = 0;
  for (int i = r.begin[side]; i < r.end[side]; ++i) {
    const int st = s.st[i], sp = s.sp[i];
    const int fires = (st == line) & (sp > 0);
    units += fires;
    dice += fires * r.dice[i];
    first_dice += fires * r.first_round_dice[i];
    sp_in_line += (st == line) * sp;
    sp_alive += (st != waiting) * sp;
    waits += (st == waiting) & (r.can_enter[i] != 0);
    if (hits) check |= static_cast<std::uint32_t>(((*hits)[i] > 0) & fires & (r.fail_faces[i] > 0)) << i;
  }
  if (checks) *checks = check;
  side_sums t;
  t.line_units = static_cast<std::int16_t>(units);
  t.line_dice = static_cast<std::int16_t>(dice);
  t.line_first_dice = static_cast<std::int16_t>(first_dice);
  t.line_sp = static_cast<std::int16_t>(sp_in_line);
  t.alive_sp = static_cast<std::int16_t>(sp_alive);
  t.waiting = static_cast<std::int16_t>(waits);
  return t;
}

// A state with both sides' sums beside it (the form a round works on).
struct round_state {
  battle_state s;
  std::array<side_sums, 2> sum;
};

inline round_state track(const battle_rules& r, const battle_state& s) {
  return {s, {sums_of(r, s, attacker), sums_of(r, s, defender)}};
}

// Unit i of a side, in the line with `sp` SP (more than 0), leaves the line: the side's line sums
// drop (its alive SP does not).
inline void leave_line(const battle_rules& r, side_sums& sum, int i, int sp) {
  sum.line_units = static_cast<std::int16_t>(sum.line_units - 1);
  sum.line_dice = static_cast<std::int16_t>(sum.line_dice - r.dice[i]);
  sum.line_first_dice = static_cast<std::int16_t>(sum.line_first_dice - r.first_round_dice[i]);
  sum.line_sp = static_cast<std::int16_t>(sum.line_sp - sp);
}

// GL 11.22: the dice a side's line (plus its supporting ship, 7.13) rolls this round.
inline int fire_dice(const battle_rules& r, const side_sums& t, int side, bool first_round) {
  return r.ship_dice[side] + (first_round ? t.line_first_dice : t.line_dice);
}
inline int fire_dice(const battle_rules& r, const battle_state& s, int side, bool first_round) {
  return fire_dice(r, sums_of(r, s, side), side, first_round);
}

}  // namespace musket::great_lakes::round
