#pragma once
// One work budget for every command that can run long: a sweep's points, a campaign's or a
// battle's simulated trials. The work is counted before anything runs and given in estimated
// seconds (each command's rate per simulated trial or per exact solve, measured on the reference
// machine of docs/benchmarks.md; docs/cli.md, "Work budget"). Past work_stated_seconds it is
// stated on stderr before the work starts; past work_confirm_seconds the command is refused
// unless given --yes. The estimate is in the document as method.work.
#include <string>

#include "cli/command.hpp"

namespace musket::cli {

inline constexpr double work_stated_seconds = 10;
inline constexpr double work_confirm_seconds = 120;

struct work_estimate {
  double seconds = 0;             // estimated run time; 0 when nothing is counted
  unsigned long long trials = 0;  // simulated trials, at most
  std::string text;               // "up to 100000000 simulated trials"
};

// The work of one run of `game command` with these options: its simulated trials when it has
// --trials and --method is not exact, else one exact solve (a few milliseconds).
work_estimate estimate_work(const std::string& game, const std::string& command, const po::variables_map& vm);

// "about 3 s", "about 40 minutes".
std::string seconds_text(double seconds);

// Past work_confirm_seconds without `confirmed`: invalid_input("yes", ...) naming the work and the
// budget. Past work_stated_seconds (and not under the dashboard): one line on stderr,
// "musket: WHAT: TEXT, about N s", before the work starts.
void check_work(const work_estimate& work, bool confirmed, const std::string& what);

// {"text": ..., "seconds": ..., "trials": ...}: method.work.
json work_json(const work_estimate& work);

// The option every command with a work budget takes (added by command_options).
inline constexpr const char* work_confirm_option = "yes";

}  // namespace musket::cli
