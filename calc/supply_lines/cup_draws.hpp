#pragma once
// Draws from a cup without replacement.
// NT 9.0: the Patriot player draws the number of Reinforcement Markers the Support Track shows
// (two more in a Winter Turn, 10.1); each marker naming a Patriot-occupied or vacant City brings
// two Units, a Crown-occupied one brings none. An empty cup yields nothing more.
// SS 13.2: three Irregulars come out of the Irregular Cup each Turn End.
#include <string>
#include <utility>
#include <vector>

#include "calc/supply_lines/rule_set.hpp"
#include "core/pmf.hpp"

namespace musket::supply_lines {

struct reinforcement_setup {
  int markers_in_cup = 0;
  int crown_occupied = 0;  // markers in the cup naming Crown-occupied Cities
  int draws = 0;           // from the Support Track
  bool winter = false;     // 10.1: two more draws
};

struct reinforcement_result {
  int markers_drawn = 0;     // min(draws, markers in cup)
  pmf new_units;             // 0..2 * markers_drawn
  pmf crown_occupied_drawn;  // 0..markers_drawn
};

reinforcement_result resolve_reinforcements(const rule_set& rules, const reinforcement_setup& setup);

// SS irregular chits: a colony (ga, sc, nc, va) and a kind (militia, loyalist), or the Swamp Fox.
struct irregular_kind {
  std::string name;  // "sc-militia", "ga-loyalist", "swamp-fox"
  int count = 0;
};

struct irregular_draw {
  std::vector<int> drawn;  // per kind, in the order given
  rational probability;
};

struct irregulars_result {
  int draws = 0;                   // min(3, chits in the cup)
  std::vector<pmf> drawn_by_kind;  // marginal distribution of each kind's count
  std::vector<irregular_draw> outcomes;
  rational swamp_fox_drawn{0};
};

// Parses "sc-militia=2,ga-loyalist=1,swamp-fox=1"; throws invalid_input naming `field`.
std::vector<irregular_kind> parse_irregular_cup(const std::string& text, const std::string& field);
irregulars_result resolve_irregulars(const rule_set& rules, const std::vector<irregular_kind>& cup, int draws = 3);

}  // namespace musket::supply_lines
