#pragma once
// The charts' colours, shared by `sweep --plot` (cli/chart.cpp) and the dashboard's heat maps, so
// both run the same colour direction: light for low values, dark blue for high ones.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>

namespace musket::cli::chart {

// A line's colour, red, green, blue 0..255; series past the seventh reuse the palette.
inline std::array<int, 3> palette_rgb(std::size_t i) {
  static constexpr std::array<std::array<int, 3>, 7> colours{{{0x1f, 0x77, 0xb4},
                                                              {0xd6, 0x27, 0x28},
                                                              {0x2c, 0xa0, 0x2c},
                                                              {0xff, 0x7f, 0x0e},
                                                              {0x94, 0x67, 0xbd},
                                                              {0x8c, 0x56, 0x4b},
                                                              {0xe3, 0x77, 0xc2}}};
  return colours[i % colours.size()];
}

// The ramp's two ends: t = 0 (the lowest value) and t = 1 (the highest).
inline constexpr std::array<int, 3> ramp_low{247, 251, 255};
inline constexpr std::array<int, 3> ramp_high{8, 48, 107};

// White -> dark blue ramp for t in [0, 1], as red, green, blue 0..255: linear between the two ends,
// so a two-stop gradient draws exactly the same colours.
inline std::array<int, 3> ramp_rgb(double t) {
  t = std::clamp(t, 0.0, 1.0);
  std::array<int, 3> out{};
  for (std::size_t i = 0; i < 3; ++i)
    out[i] = static_cast<int>(std::lround(ramp_low[i] + (ramp_high[i] - ramp_low[i]) * t));
  return out;
}

}  // namespace musket::cli::chart
