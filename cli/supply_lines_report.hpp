#pragma once
// The JSON of a simulated Supply Lines battle, shared by the CLI and the dashboard so both show
// the same keys: outcomes, 95% Wilson intervals, loss distributions, SS instant victory.
#include "calc/supply_lines/battle.hpp"
#include "cli/report.hpp"

namespace musket::cli {

json simulated_battle_results(const supply_lines::battle_estimate& estimate, bool southern_strategy);

}  // namespace musket::cli
