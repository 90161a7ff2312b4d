#pragma once
// The Continental Levy (Sequence of Play C; Reinforcements case A, C): one die roll names the
// Regions that raise their Continental allowance this turn; Regions the British control raise
// nothing. The chart is on the mapsheet, not in our transcript: data/ar/levy.json marks every
// face unknown and a user supplies the chart with --chart FILE.
#include <array>
#include <optional>
#include <string>
#include <vector>

#include "calc/revolution/data.hpp"
#include "core/pmf.hpp"

namespace musket::revolution {

struct levy_call {
  std::string region;
  std::optional<int> continentals;  // overrides the Region's allowance when the chart prints a number
};

struct levy_chart {
  bool transcribed = false;
  std::string source;
  std::array<std::optional<std::vector<levy_call>>, 6> faces;  // nullopt: unknown
};

// {"source": "...", "transcribed": bool, "faces": {"1": [{"region": "Virginia"}, ...] | null, ...}}
levy_chart load_levy_chart(const data_source& source);
// The chart from a parsed document (`source` names it in errors).
levy_chart parse_levy_chart(const json& doc, const data_source& source);

struct levy_result {
  int rolls = 0;                     // turns x rolls per turn
  std::vector<std::string> regions;  // every Region the chart names, in chart order
  std::vector<pmf> region_per_roll;  // Continentals one roll raises in each Region
  pmf per_roll;                      // Continentals one roll raises in all
  std::vector<pmf> region_total;     // over all rolls
  pmf total;                         // over all rolls
};

// Throws invalid_input: an unknown face or a Region whose Continental allowance is unknown
// (field `chart_field`), a controlled Region not in regions.json ("british-controlled"),
// turns 1..36 ("turns"), rolls per turn 1..3 ("rolls-per-turn").
levy_result continental_levy(const levy_chart& chart, const std::string& chart_field,
                             const std::vector<region>& regions, const std::vector<std::string>& british_controlled,
                             int turns, int rolls_per_turn);

}  // namespace musket::revolution
