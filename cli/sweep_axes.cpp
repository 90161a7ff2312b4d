#include "cli/sweep_axes.hpp"

#include "core/invalid_input.hpp"
#include "core/whole_range.hpp"

namespace musket::cli {

axis parse_vary(const std::string& text, const boost::program_options::options_description& target) {
  const auto eq = text.find('=');
  const auto dots = text.find("..");
  if (eq == std::string::npos || dots == std::string::npos || dots < eq)
    throw invalid_input("vary", "'" + text + "' is not NAME=A..B (or NAME=A..B:STEP)");
  axis a;
  a.name = text.substr(0, eq);
  const auto* option = target.find_nothrow(a.name, false);
  if (!option) throw invalid_input("vary", "'" + a.name + "' is not an option of this command");
  if (option->semantic()->max_tokens() == 0)
    throw invalid_input("vary", "'" + a.name + "' is a switch, not a number to vary");
  a.values = parse_whole_range(text.substr(eq + 1), "vary", max_axis_points);
  return a;
}

}  // namespace musket::cli
