#pragma once
// One combat (Combat; Combat Resolution Table; Major Success), read as RULINGS.md "American
// Revolution (SPI) combat". Each CRT result fixes every loss, so a combat is a mixture of at
// most three outcomes plus the unknown mass of blank table cells; every event's probability
// is reported as [min, max] over whatever those cells may hold.
#include <array>
#include <vector>

#include "calc/revolution/crt.hpp"
#include "calc/revolution/forces.hpp"
#include "core/rational.hpp"

namespace musket::revolution {

struct battle_setup {
  force attacker;
  force defender;
  bool fort = false;       // Combat D: defender's strength x3 in a Fort
  bool besieging = false;  // Combat D: besieging defenders attacked solely from a Fort, x2
  loss_policy policy = loss_policy::protect_regulars;
};

struct odds {
  int attacker = 0;            // basic strength
  int defender = 0;            // basic strength
  int multiplier = 1;          // 3 in a Fort, 2 besieging, else 1
  int defender_effective = 0;  // defender x multiplier
  int column = 1;              // 1..4 (1:1..4:1)
};

// Odds column, rounded in the defender's favour and capped at 4:1. Throws invalid_input for
// two forces of one side (field "defender"), --fort with --besieging ("besieging"), American
// defenders in a Fort beyond the case F limits ("defender"), and odds below 1:1 ("attacker"):
// attacks below 1:1 are not permitted (Combat A).
odds compute_odds(const battle_setup& setup);

struct result_outcome {
  crt_result result = crt_result::De;
  int defender_loss = 0;  // points, at basic strength (Combat G)
  int attacker_loss = 0;
  points_by_type defender_lost{};
  points_by_type attacker_lost{};
  int british_regulars_eliminated = 0;  // by an American attack's De or 1/2De (Major Success)
  bool major_success = false;           // >= 5 British Regular points
  bool partial_withdrawal = false;      // >= 15 (the first time it happens)
};

// The outcome a result gives for this setup: De all defending points; 1/2De ceil(half);
// 1/2Ex ceil(half) and an equal number of attacking points (at most all of them).
result_outcome apply_result(const battle_setup& setup, crt_result r);

struct probability_bounds {
  rational min{0};
  rational max{0};
  bool exact() const { return min == max; }
};

struct battle_result {
  odds o;
  std::array<int, 3> faces{};  // die faces giving each result (indexed by crt_result)
  int unknown_faces = 0;       // blank cells in this column
  std::array<result_outcome, 3> outcomes;

  rational probability(crt_result r) const { return rational(faces[static_cast<std::size_t>(r)], 6); }
  rational unknown() const { return rational(unknown_faces, 6); }
  const result_outcome& outcome(crt_result r) const { return outcomes[static_cast<std::size_t>(r)]; }

  // P(event): min counts the unknown mass only when every result satisfies the event, max
  // whenever any result does.
  template <class Event>
  probability_bounds probability_of(Event event) const {
    int known = 0;
    bool all = true, any = false;
    for (auto r : all_crt_results) {
      const bool holds = event(outcome(r));
      if (holds) known += faces[static_cast<std::size_t>(r)];
      all = all && holds;
      any = any || holds;
    }
    return {rational(known + (all ? unknown_faces : 0), 6), rational(known + (any ? unknown_faces : 0), 6)};
  }
  probability_bounds major_success() const;
  probability_bounds partial_withdrawal() const;
};

battle_result resolve_battle(const crt_table& table, const battle_setup& setup);

// The loss distributions: each points-lost value any result could give, with its bounds.
struct loss_bound {
  int points = 0;
  probability_bounds p;
};
std::vector<loss_bound> defender_loss_bounds(const battle_result& result);
std::vector<loss_bound> attacker_loss_bounds(const battle_result& result);

}  // namespace musket::revolution
