#pragma once
// Where a track shift leaves the marker, when the user gives the current position. The NT
// Support Track never regresses below the first Declaration space once it is reached (11.1) and
// the game ends on the Treaty of Alliance space (11.2); the SS Political Will Track ends the
// game at 0 and 9 (14.0), checked only at the Victory Check. Track layouts are map data the
// rules text does not print, so the floor and end spaces are inputs.
#include <optional>

#include "core/pmf.hpp"

namespace musket::supply_lines {

struct track_position_setup {
  int position = 0;
  std::optional<int> floor;    // NT: the first Declaration space, once Independence is Declared
  std::optional<int> lowest;   // the track's first space
  std::optional<int> highest;  // the track's last space (NT Treaty of Alliance, SS 9)
};

// The distribution of the marker's new position: position + shift, held at the floor and ends.
pmf track_position_after(const pmf& shift, const track_position_setup& setup);

}  // namespace musket::supply_lines
