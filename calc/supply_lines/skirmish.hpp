#pragma once
// Skirmish (NT 7.4 / 8.8, SS 9.5 / 10.8): a Patriot army of one or two units rolls one die per
// War Supply at a Crown army on a Point; each 1-2 eliminates a Crown unit. The Crown rolls
// nothing. A skirmish never counts as a Victory; only a Crown surrender moves the track.
#include "calc/supply_lines/rule_set.hpp"
#include "core/pmf.hpp"

namespace musket::supply_lines {

struct skirmish_setup {
  side attacker = side::patriot;
  int war_supplies = 1;
  int patriot_units = 1;
  int crown_units = 1;
  int crown_leaders = 0;
  bool crown_commander = false;  // SS: Cornwallis with the skirmished army
};

struct skirmish_result {
  pmf crown_units_eliminated;  // 0..crown_units
  rational crown_army_surrenders{0};
  pmf track_shift;
  rational instant_victory{0};  // SS: Cornwallis eliminated
};

void validate(const rule_set& rules, const skirmish_setup& setup);
skirmish_result resolve_skirmish(const rule_set& rules, const skirmish_setup& setup);

}  // namespace musket::supply_lines
