#pragma once
// Morale check (NT 8.7, SS 10.7): a beaten defender rolls one die per check; a check passes when
// the die meets or exceeds the difference in units plus leaders. At a Point it fails outright.
#include <algorithm>

#include "core/rational.hpp"

namespace musket::supply_lines {

// Faces of a d6 that pass one check against `difference` (0 when the difference exceeds 6).
inline int morale_passing_faces(int difference) {
  return std::clamp(7 - difference, 0, 6);
}

// P(every one of `checks` checks passes); checks = 0 means the check fails automatically.
inline rational morale_pass(int difference, int checks) {
  if (checks <= 0) return 0;
  rational one(morale_passing_faces(difference), 6);
  rational all = 1;
  for (int c = 0; c < checks; ++c) all *= one;
  return all;
}

}  // namespace musket::supply_lines
