#include "calc/supply_lines/cup_draws.hpp"

#include <algorithm>
#include <sstream>

#include "core/hypergeometric.hpp"
#include "core/invalid_input.hpp"

namespace musket::supply_lines {

reinforcement_result resolve_reinforcements(const rule_set& rules, const reinforcement_setup& s) {
  if (rules.which != game::northern_theater)
    throw invalid_input("command", "Reinforcement Markers are drawn only in The Northern Theater (NT 9.0)");
  require_in_range("cup-markers", s.markers_in_cup, 0, max_units);
  require_in_range("crown-occupied", s.crown_occupied, 0, s.markers_in_cup, "at most the markers in the cup");
  require_in_range("draws", s.draws, 0, max_units, "the number the Support Track shows");
  reinforcement_result r;
  // 9.0: if the cup is empty no further Reinforcements are available.
  r.markers_drawn = std::min(s.draws + (s.winter ? 2 : 0), s.markers_in_cup);
  r.crown_occupied_drawn = hypergeometric_draws<rational>(s.markers_in_cup, s.crown_occupied, r.markers_drawn);
  r.new_units = transform(r.crown_occupied_drawn, [&](int crown) { return 2 * (r.markers_drawn - crown); });
  r.new_units.cover(0, 2 * r.markers_drawn);
  return r;
}

std::vector<irregular_kind> parse_irregular_cup(const std::string& text, const std::string& field) {
  static const std::vector<std::string> colonies{"ga", "sc", "nc", "va"};
  std::vector<irregular_kind> cup;
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, ',')) {
    const auto equals = item.find('=');
    if (equals == std::string::npos) throw invalid_input(field, "'" + item + "' is not KIND=COUNT (e.g. sc-militia=2)");
    irregular_kind k{item.substr(0, equals), 0};
    bool valid = k.name == "swamp-fox";
    for (const auto& c : colonies) valid = valid || k.name == c + "-militia" || k.name == c + "-loyalist";
    if (!valid)
      throw invalid_input(
          field, "unknown chit '" + k.name + "'; allowed: ga|sc|nc|va-militia, ga|sc|nc|va-loyalist, swamp-fox");
    try {
      std::size_t used = 0;
      k.count = std::stoi(item.substr(equals + 1), &used);
      if (used != item.size() - equals - 1) throw std::invalid_argument("trailing");
    } catch (const std::exception&) {
      throw invalid_input(field, "'" + item.substr(equals + 1) + "' is not a count for " + k.name);
    }
    require_in_range(field, k.count, 0, max_units);
    if (k.name == "swamp-fox" && k.count > 1)
      throw invalid_input(field, "there is one Swamp Fox; allowed swamp-fox=0..1");
    for (const auto& seen : cup)
      if (seen.name == k.name) throw invalid_input(field, k.name + " is listed twice");
    cup.push_back(k);
  }
  if (cup.empty())
    throw invalid_input(field, "the cup is empty; give KIND=COUNT pairs such as sc-militia=2,ga-loyalist=2");
  return cup;
}

irregulars_result resolve_irregulars(const rule_set& rules, const std::vector<irregular_kind>& cup, int draws) {
  if (rules.which != game::southern_strategy)
    throw invalid_input("command", "the Irregular Cup is a Southern Strategy rule (SS 13.2)");
  require_in_range("draws", draws, 0, max_units);
  std::vector<int> counts;
  int total = 0;
  for (const auto& k : cup) counts.push_back(k.count), total += k.count;
  irregulars_result r;
  r.draws = std::min(draws, total);  // an emptied cup gives what it has
  for (auto& [drawn, p] : multivariate_draws<rational>(counts, r.draws)) {
    r.outcomes.push_back({drawn, p});
  }
  r.drawn_by_kind.assign(cup.size(), pmf::empty());
  for (std::size_t i = 0; i < cup.size(); ++i) {
    r.drawn_by_kind[i] = hypergeometric_draws<rational>(total, cup[i].count, r.draws);
    if (cup[i].name == "swamp-fox") r.swamp_fox_drawn = at_least(r.drawn_by_kind[i], 1);
  }
  return r;
}

}  // namespace musket::supply_lines
