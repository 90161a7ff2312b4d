#pragma once
// The statistics and intervals every result document carries, added from the document itself so
// no command writes them by hand:
//   stats.<path>        {mean, sd, median, p05, p95, min, max, at_least, at_most} for each
//                       distribution (at_least/at_most shaped like the pmf: an array from 0, or an
//                       object with the pmf's keys);
//   exact.stats.<path>  {mean, variance, at_least, at_most} as "num/den", where `exact` holds the
//                       distribution's fractions at the same path;
//   intervals.<path>    {low, high, level} for each simulated probability ({low: [...], high: [...]}
//                       shaped like a pmf), and intervals."stats.<path>.mean" for each mean.
// <path> is the dotted document path: "attacker_losses", "steps.2.attempts".
#include <cstdint>
#include <string>
#include <vector>

#include "cli/report.hpp"

namespace musket::cli {

// How a simulated document's estimates were made: `trials` independent trials.
struct simulation_basis {
  std::uint64_t trials = 0;
  double level = 0.95;
};

// A distribution in the document: its dotted path, and for an array the value of its element 0
// (GL rounds.distribution starts at round 1); an object's keys are its values.
struct distribution_path {
  distribution_path(std::string p, int first = 0) : path(std::move(p)), first_value(first) {}  // NOLINT
  distribution_path(const char* p) : path(p) {}                                                // NOLINT
  std::string path;
  int first_value = 0;
};

// Adds stats (and exact.stats) for the distributions at `paths`; a path whose distribution has no
// mass (a step never reached) gets none. With `simulation`, also the intervals of the means.
void add_distribution_stats(json& doc, const std::vector<distribution_path>& paths,
                            const simulation_basis* simulation = nullptr);

// The same for exact distributions the caller holds: each law is described as it is, not read
// back from the fractions the document wrote (a battle's three laws cost more to reparse than to
// describe). The document must hold `law` at `path` (with its fractions under `exact`).
struct exact_distribution {
  distribution_path path;
  const pmf* law = nullptr;
};
void add_exact_distribution_stats(json& doc, const std::vector<exact_distribution>& laws);

// Adds Wilson intervals for every probability at `paths` of a document whose probabilities are
// counts over simulation.trials: a number at the path, each named probability of an object, or a
// whole pmf (array, or object keyed by integers).
void add_probability_intervals(json& doc, const std::vector<std::string>& paths, const simulation_basis& simulation);

// One interval entry as the document writes it, for a caller that has its intervals already.
json interval_json(double low, double high, double level);
// Sets intervals.<path> (creating `intervals` where it belongs: after the results and stats).
void set_interval(json& doc, const std::string& path, json interval);

// The value at a dotted path, or nullptr.
const json* find_path(const json& doc, const std::string& path);

}  // namespace musket::cli
