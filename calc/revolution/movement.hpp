#pragma once
// British movement (Land Movement case K, Sea Movement procedure): every Area a British group
// tries to enter by land, and every sea move, needs a die roll of 3-6; on 1-2 the group stops
// where it is for the rest of the phase.
#include "core/pmf.hpp"

namespace musket::revolution {

inline constexpr int movement_allowance = 5;  // Land Movement: every combat unit's allowance

struct movement_result {
  int rolls = 0;                     // Areas on the path (a sea move is one roll)
  int groups = 1;                    // independent groups with the same target (Land Movement case J)
  pmf reached;                       // Areas one group gets along the path, 0..rolls: (2/3)^k (1/3), (2/3)^n at n
  rational arrive{0};                // (2/3)^n
  rational at_least_one_arrives{0};  // 1 - (1 - (2/3)^n)^g
  pmf furthest;                      // the furthest any of the groups gets: F(k)^g - F(k-1)^g
};

// Throws invalid_input: rolls 1..5 (field "areas"), groups 1..20 (field "groups").
movement_result british_movement(int rolls, int groups);

}  // namespace musket::revolution
