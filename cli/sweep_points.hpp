#pragma once
// A sweep's points as data: each point's result keys flattened as `--format csv` prints them, the
// interval a simulated point gives a key, and the long CSV `--csv` writes. Nothing here runs a
// command (cli/sweep_command.cpp does).
#include <map>
#include <string>
#include <vector>

#include "cli/report.hpp"

namespace musket::cli {

// Flattened document keys, as `--format csv` prints them: "summary.attacker_victory".
void flatten_point(const std::string& path, const json& value, std::map<std::string, json>& out,
                   std::vector<std::string>& order);

// A simulated result's interval for `key` ("outcomes.defender_retreats", "steps.2.reached") from
// the command's `intervals` object (keyed by dotted path); false when it gives none.
bool find_interval(const json& intervals, const std::string& key, double& low, double& high);

// The long CSV: game, command, the varied parameters, metric, value (and low, high when any row
// has them); one row per point and metric. Shortest round-trip numbers, RFC 4180 quoting.
std::string sweep_csv_rows(const std::string& code, const std::string& target, const std::vector<std::string>& axes,
                           const json& rows);

}  // namespace musket::cli
