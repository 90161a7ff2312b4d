#include "cli/work_budget.hpp"

#include <fmt/format.h>

#include <cmath>
#include <iostream>
#include <map>

#include "core/invalid_input.hpp"

namespace musket::cli {

namespace {

// Seconds per simulated trial, by "game command": the examples' armies and plans (README,
// examples/) timed on the reference machine with two runs sharing its two cores, rounded up; a
// command not listed counts work_trial_seconds_default.
constexpr double work_trial_seconds_default = 1e-6;
const std::map<std::string, double>& work_trial_seconds() {
  static const std::map<std::string, double> rates{
      {"nt battle", 0.1e-6}, {"ss battle", 0.1e-6}, {"gl battle", 1e-6},
      {"nt campaign", 2e-6}, {"ss campaign", 2e-6}, {"gl campaign", 50e-6},
  };
  return rates;
}

// Seconds for one exact solve as a sweep point: the solve, its document and its flattened keys
// (10,000 points of `ss siege` take about 12 s).
constexpr double work_exact_solve_seconds = 2e-3;

}  // namespace

work_estimate estimate_work(const std::string& game, const std::string& command, const po::variables_map& vm) {
  const std::string key = game + " " + command;
  work_estimate w;
  const bool exact = vm.count("method") && vm["method"].value().type() == typeid(std::string) &&
                     vm["method"].as<std::string>() == "exact";
  if (vm.count("trials") && vm["trials"].value().type() == typeid(int) && !exact) {
    const int trials = vm["trials"].as<int>();
    if (trials > 0) {
      const auto it = work_trial_seconds().find(key);
      w.trials = static_cast<unsigned long long>(trials);
      w.seconds =
          static_cast<double>(trials) * (it == work_trial_seconds().end() ? work_trial_seconds_default : it->second);
      w.text = fmt::format("up to {} simulated trials", trials);
      return w;
    }
  }
  w.seconds = work_exact_solve_seconds;
  w.text = "one exact solve";
  return w;
}

std::string seconds_text(double seconds) {
  if (seconds < 1) return "under a second";
  if (seconds < 600) return fmt::format("about {} s", std::llround(seconds));
  if (seconds < 2 * 3600) return fmt::format("about {} minutes", std::llround(seconds / 60));
  return fmt::format("about {} hours", std::llround(seconds / 3600));
}

void check_work(const work_estimate& work, bool confirmed, const std::string& what) {
  if (work.seconds > work_confirm_seconds && !confirmed)
    throw invalid_input(work_confirm_option,
                        fmt::format("{} would run {}, {}: past the work budget of {} s; give --yes to run it, or "
                                    "ask for less work",
                                    what, work.text, seconds_text(work.seconds), work_confirm_seconds));
  if (work.seconds > work_stated_seconds && !current_run_context())
    std::cerr << "musket: " << what << ": " << work.text << ", " << seconds_text(work.seconds) << "\n";
}

json work_json(const work_estimate& work) {
  // To the millisecond: an estimate, and a sweep's sum of its points' would show its rounding.
  return json{{"text", work.text}, {"seconds", std::round(work.seconds * 1000) / 1000}, {"trials", work.trials}};
}

}  // namespace musket::cli
