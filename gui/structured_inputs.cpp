#include "gui/structured_inputs.hpp"

#include <algorithm>
#include <optional>

#include "calc/great_lakes/game_data.hpp"
#include "calc/great_lakes/scenario.hpp"
#include "cli/data_location.hpp"

namespace musket::gui {

namespace gl = musket::great_lakes;
namespace ar = musket::revolution;

structured_kind structured_input(const calculator& calc, const input_spec& in) {
  if (in.kind != input_kind::text) return structured_kind::none;
  if (calc.game == "gl" && calc.command == "battle") {
    if (in.name == "att" || in.name == "def") return structured_kind::units;
    if (in.name == "att-reinforce" || in.name == "def-reinforce") return structured_kind::reinforcements;
    if (in.name == "fort") return structured_kind::fort;
    if (in.name == "att-leader" || in.name == "def-leader") return structured_kind::leaders;
  }
  if (calc.game == "ar" && (in.name == "attacker" || in.name == "defender")) return structured_kind::force;
  return structured_kind::none;
}

std::vector<std::string> leader_choices(gl::nation side) {
  static const gl::game_data data = gl::load_game_data(cli::game_data_directory("gl"));
  const std::vector<std::string> names = gl::commander_names(data, side);
  std::vector<std::string> choices{""};
  for (unsigned set = 1; set < (1u << names.size()) && names.size() < 8; ++set) {
    std::string text;
    for (std::size_t i = 0; i < names.size(); ++i)
      if (set & (1u << i)) text += (text.empty() ? "" : "; ") + names[i];
    choices.push_back(text);
  }
  // One leader before two: "Brown", "Scott", "Brown; Scott".
  std::stable_sort(choices.begin() + 1, choices.end(), [](const std::string& a, const std::string& b) {
    return std::count(a.begin(), a.end(), ';') < std::count(b.begin(), b.end(), ';');
  });
  return choices;
}

gl::nation leader_side(const json& values, const std::string& name) {
  auto side_of = [&](const char* key) -> std::optional<gl::nation> {
    if (!values.contains(key) || !values.at(key).is_string() || values.at(key).get<std::string>().empty())
      return std::nullopt;
    try {
      return gl::parse_nation(values.at(key).get<std::string>(), key);
    } catch (const std::exception&) {
      return std::nullopt;
    }
  };
  const gl::nation attacker = side_of("att-side").value_or(gl::nation::american);
  if (name == "att-leader") return attacker;
  return side_of("def-side").value_or(attacker == gl::nation::american ? gl::nation::british : gl::nation::american);
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
