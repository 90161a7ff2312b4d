#pragma once
// A sweep's points as data: the interval a simulated point gives a key, and the long CSV `--csv`
// writes (each point's keys are read from the `--format csv` rows, cli/csv_writer.hpp). Nothing here runs a
// command (cli/sweep_command.cpp does).
#include <string>
#include <vector>

#include "cli/report.hpp"

namespace musket::cli {

// A simulated result's interval for `key` ("outcomes.defender_retreats", "steps.2.reached") from
// the command's `intervals` object (keyed by dotted path); false when it gives none.
bool find_interval(const json& intervals, const std::string& key, double& low, double& high);

// The long CSV: game, command, the varied parameters, metric, value (and exact_num, exact_den when
// any row has an exact fraction; low, high when any row has an interval); one row per point and metric. Shortest
// round-trip numbers, RFC 4180 quoting.
std::string sweep_csv_rows(const std::string& code, const std::string& target, const std::vector<std::string>& axes,
                           const json& rows);

}  // namespace musket::cli
