#include "calc/supply_lines/track.hpp"

#include <algorithm>

#include "core/invalid_input.hpp"

namespace musket::supply_lines {

pmf track_position_after(const pmf& shift, const track_position_setup& s) {
  const int lowest = s.lowest.value_or(-1000), highest = s.highest.value_or(1000);
  if (lowest > highest) throw invalid_input("track-lowest", "the track's first space is after its last");
  require_in_range("track-position", s.position, lowest, highest, "on the track");
  if (s.floor) {
    require_in_range("track-floor", *s.floor, lowest, highest, "on the track");
    if (s.position < *s.floor)
      throw invalid_input("track-floor", "the marker at " + std::to_string(s.position) +
                                             " is already below the floor " + std::to_string(*s.floor) +
                                             "; the floor applies only once it is reached (NT 11.1)");
  }
  const int bottom = std::max(lowest, s.floor.value_or(lowest));
  return transform(shift, [&](int d) { return std::clamp(s.position + d, bottom, highest); });
}

}  // namespace musket::supply_lines
