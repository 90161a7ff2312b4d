#include "gui/structured_inputs.hpp"

#include "calc/great_lakes/scenario.hpp"

namespace musket::gui {

namespace gl = musket::great_lakes;
namespace ar = musket::revolution;

structured_kind structured_input(const calculator& calc, const input_spec& in) {
  if (in.kind != input_kind::text) return structured_kind::none;
  if (calc.game == "gl" && calc.command == "battle") {
    if (in.name == "att" || in.name == "def") return structured_kind::units;
    if (in.name == "att-reinforce" || in.name == "def-reinforce") return structured_kind::reinforcements;
    if (in.name == "fort") return structured_kind::fort;
  }
  if (calc.game == "ar" && (in.name == "attacker" || in.name == "defender")) return structured_kind::force;
  return structured_kind::none;
}

std::vector<std::string> repeated_parts(const std::string& text) {
  std::vector<std::string> parts;
  for (std::size_t start = 0; start <= text.size();) {
    auto end = text.find(';', start);
    if (end == std::string::npos) end = text.size();
    std::string part = text.substr(start, end - start);
    part.erase(0, part.find_first_not_of(" \t"));
    part.erase(part.find_last_not_of(" \t") + 1);
    if (!part.empty()) parts.push_back(part);
    start = end + 1;
  }
  return parts;
}

std::vector<gl::reinforcement> read_units(const std::string& text, const std::string& option, bool reinforcements) {
  std::vector<gl::reinforcement> units;
  for (const auto& part : repeated_parts(text))
    units.push_back(reinforcements ? gl::parse_reinforcement_spec(part, option)
                                   : gl::reinforcement{gl::parse_unit_spec(part, option), false});
  return units;
}

std::string write_units(const std::vector<gl::reinforcement>& units, bool reinforcements) {
  std::string out;
  for (const auto& r : units)
    out += (out.empty() ? "" : "; ") + (reinforcements ? gl::reinforcement_spec(r) : gl::unit_spec(r.u));
  return out;
}

std::optional<gl::fort> read_fort(const std::string& text, const std::string& option) {
  if (text.find_first_not_of(" \t") == std::string::npos) return std::nullopt;
  return gl::parse_fort_spec(text, option);
}

std::string write_fort(const std::optional<gl::fort>& fort) {
  return fort ? gl::fort_spec(*fort) : "";
}

ar::points_by_type read_force(const std::string& text, const std::string& option) {
  if (text.find_first_not_of(" \t") == std::string::npos) return {};
  return ar::parse_force(text, option).points;
}

std::string write_force(const ar::points_by_type& points) {
  for (int p : points)
    if (p != 0) return ar::to_string(points);
  return "";
}

}  // namespace musket::gui
