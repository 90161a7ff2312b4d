#pragma once
// The JSON of a Supply Lines battle, shared by the CLI and the dashboard so both show the same
// keys, exact or simulated: outcomes, losses, track shift (and position), SS instant victory,
// summary, stats; a simulation adds 95% Wilson intervals, an exact answer its fractions.
#include <optional>

#include "calc/supply_lines/battle.hpp"
#include "calc/supply_lines/track.hpp"
#include "cli/report.hpp"

namespace musket::cli {

// `exact_answer`: `res` holds exact probabilities, written also as fractions under `exact`.
json battle_results(const supply_lines::rule_set& rules, const supply_lines::battle_result<rational>& res,
                    const std::optional<supply_lines::track_position_setup>& track, bool exact_answer);

json simulated_battle_results(const supply_lines::rule_set& rules, const supply_lines::battle_setup& setup,
                              const supply_lines::battle_estimate& estimate,
                              const std::optional<supply_lines::track_position_setup>& track = std::nullopt);

}  // namespace musket::cli
