#pragma once
// The `--vary` grammar of `musket <game> sweep`: which option of the swept command an axis
// changes and the values it takes. Nothing here runs a command (cli/sweep_command.cpp does).
#include <boost/program_options.hpp>
#include <string>
#include <vector>

namespace musket::cli {

// Sweep bounds: points on one axis and in the whole grid (each point runs a whole calculator).
inline constexpr long long max_axis_points = 1000;
inline constexpr long long max_grid_points = 10000;

struct axis {
  std::string name;
  std::vector<int> values;
};

// "NAME=A..B" or "NAME=A..B:STEP" against the swept command's options; invalid_input("vary", ...)
// naming what is wrong and what is allowed.
axis parse_vary(const std::string& text, const boost::program_options::options_description& target);

}  // namespace musket::cli
