#pragma once
// A battle's result filled from its sums, once for every engine: the ends' summaries, each unit's
// row, the terminal quantities' place in a row of sums (exact) or tallies (simulation), and the
// probabilities kept within [0, 1]. Internal to calc/great_lakes.
#include <algorithm>
#include <cstddef>
#include <vector>

#include "calc/great_lakes/battle.hpp"
#include "calc/great_lakes/rules/round.hpp"

namespace musket::great_lakes::detail {

using round::battle_rules;
using round::battle_state;

inline void fill_outcomes(battle_result& out) {
  out.attacker_wins = out.defender_holds = 0.0;  // (in the ends' order: the sums as they were)
  for (const battle_end e : all_battle_ends) {
    if (attacker_won(e)) out.attacker_wins += out[e];
    if (defender_held(e)) out.defender_holds += out[e];
  }
  out.stalemate = out[battle_end::stalemate];
}

// Sums of many doubles can stray by an ulp or two past 0 or 1; probabilities are reported in [0, 1].
inline double unit_interval(double p) {
  return std::clamp(p, 0.0, 1.0);
}

inline void clamp_probabilities(battle_result& out) {
  for (auto& e : out.ends) e = unit_interval(e);
  out.attacker_wins = unit_interval(out.attacker_wins);
  out.defender_holds = unit_interval(out.defender_holds);
  out.stalemate = unit_interval(out.stalemate);
  for (auto& p : out.attacker_sp_lost) p = unit_interval(p);
  for (auto& p : out.defender_sp_lost) p = unit_interval(p);
  for (auto& u : out.units) {
    u.survives = unit_interval(u.survives);
    u.fails_morale = unit_interval(u.fails_morale);
  }
  if (out.garrison_eliminated) *out.garrison_eliminated = unit_interval(*out.garrison_eliminated);
}

inline std::vector<unit_outcome> unit_rows(const battle_rules& r) {
  std::vector<unit_outcome> rows;
  for (const auto& u : r.units) {
    unit_outcome row;
    row.name = u.name;
    row.side = u.owner == round::attacker ? "attacker" : "defender";
    row.garrison = u.garrison;
    row.reinforcement = u.reinforcement;
    rows.push_back(row);
  }
  return rows;
}

// Where each terminal quantity sits in a per-state row of exit sums (exact) or tallies (simulation).
struct outcome_layout {
  std::size_t ends = 0, attacker_lost = 7, defender_lost = 0, units = 0, garrison = 0, size = 0;
  explicit outcome_layout(const battle_rules& r) {
    defender_lost = attacker_lost + static_cast<std::size_t>(r.starting_sp[0]) + 1;
    units = defender_lost + static_cast<std::size_t>(r.starting_sp[1]) + 1;
    garrison = units + 3 * r.units.size();
    size = garrison + 1;
  }
};

// Adds weight w of one side's part of a finished battle in state t (its units' rows, its SP lost,
// the defender's garrison) to a row laid out as above: the part read from that side's units alone.
inline void add_side_terminal(const battle_rules& r, const outcome_layout& l, double* row, const battle_state& t,
                              int side, double w) {
  int lost = 0;
  for (int u = r.begin[side]; u < r.end[side]; ++u) {
    const auto k = static_cast<std::size_t>(u);
    lost += r.units[k].start_sp - t.sp[k];
    if (t.sp[k] > 0) row[l.units + 3 * k] += w;
    row[l.units + 3 * k + 1] += w * t.sp[k];
    if (t.st[k] == round::failed) row[l.units + 3 * k + 2] += w;
  }
  row[(side == round::attacker ? l.attacker_lost : l.defender_lost) + static_cast<std::size_t>(lost)] += w;
  if (side == round::defender && r.garrison >= 0 && t.sp[static_cast<std::size_t>(r.garrison)] == 0)
    row[l.garrison] += w;
}

// Adds weight w of a finished battle (state t, end) to a row laid out as above.
inline void add_terminal(const battle_rules& r, const outcome_layout& l, double* row, const battle_state& t,
                         battle_end end, double w) {
  row[l.ends + static_cast<std::size_t>(end)] += w;
  add_side_terminal(r, l, row, t, round::attacker, w);
  add_side_terminal(r, l, row, t, round::defender, w);
}

// A battle's result from its row of sums over every finished battle (the ends, SP lost, units).
inline battle_result result_of_sums(const battle_rules& r, const outcome_layout& l, const std::vector<double>& totals) {
  battle_result out;
  out.units = unit_rows(r);
  for (std::size_t e = 0; e < out.ends.size(); ++e) out.ends[e] = totals[l.ends + e];
  out.attacker_sp_lost.assign(totals.begin() + static_cast<std::ptrdiff_t>(l.attacker_lost),
                              totals.begin() + static_cast<std::ptrdiff_t>(l.defender_lost));
  out.defender_sp_lost.assign(totals.begin() + static_cast<std::ptrdiff_t>(l.defender_lost),
                              totals.begin() + static_cast<std::ptrdiff_t>(l.units));
  for (std::size_t u = 0; u < r.units.size(); ++u) {
    out.units[u].survives = totals[l.units + 3 * u];
    out.units[u].expected_sp = totals[l.units + 3 * u + 1];
    out.units[u].fails_morale = totals[l.units + 3 * u + 2];
  }
  if (r.garrison >= 0) out.garrison_eliminated = totals[l.garrison];
  fill_outcomes(out);
  clamp_probabilities(out);
  return out;
}

}  // namespace musket::great_lakes::detail
