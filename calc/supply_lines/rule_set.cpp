#include "calc/supply_lines/rule_set.hpp"

#include "core/invalid_input.hpp"

namespace musket::supply_lines {

const rule_set& northern_theater() {
  static const rule_set rules{game::northern_theater, "nt", true, false, 1, 2, +1, false, false, 0, 9};
  return rules;
}

const rule_set& southern_strategy() {
  static const rule_set rules{game::southern_strategy, "ss", true, true, 1, 1, -1, true, true, 4, 2};
  return rules;
}

const rule_set& rules_for(const std::string& code, const std::string& field) {
  if (code == "nt") return northern_theater();
  if (code == "ss") return southern_strategy();
  throw invalid_input(field, "unknown Supply Lines game '" + code + "'; allowed: nt, ss");
}

std::string to_string(side s) {
  return s == side::crown ? "crown" : "patriot";
}

std::string to_string(terrain t) {
  switch (t) {
    case terrain::point:
      return "point";
    case terrain::city:
      return "city";
    case terrain::fort:
      return "fort";
  }
  return "?";
}

side parse_side(const std::string& text, const std::string& field) {
  if (text == "crown") return side::crown;
  if (text == "patriot") return side::patriot;
  throw invalid_input(field, "'" + text + "' is not a side; allowed: crown, patriot");
}

terrain parse_terrain(const std::string& text, const std::string& field) {
  if (text == "point") return terrain::point;
  if (text == "city") return terrain::city;
  if (text == "fort") return terrain::fort;
  throw invalid_input(field, "'" + text + "' is not a terrain; allowed: point, city, fort");
}

}  // namespace musket::supply_lines
