#pragma once
// The chart of a sweep, built from the sweep's JSON document alone (doc["inputs"] with vary,
// metric and fixed; doc["points"] rows {<parameter>: value, "metric", "value", optional "low",
// "high", "level"}): one varied parameter draws a line chart (a line per metric, error bars where
// a point has an interval), two a heat map (a panel per metric, one above
// the other, each with its colour legend), or with `lines` a line chart with a line per value of
// the second parameter (per metric). Titles, axis and legend names are
// the human labels of cli/result_labels.hpp unless the user gave others.
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "cli/chart.hpp"

namespace musket::cli {

// What the user said about a chart: --title, --label KEY=TEXT, --subtitle, --full-scale, --lines.
struct chart_words {
  std::optional<std::string> title;
  std::map<std::string, std::string> labels;  // a result key or a varied parameter -> its label
  std::optional<std::string> subtitle;        // "" for none; default: the fixed inputs by their labels
  bool full_scale = false;                    // probabilities over 0..100%, not fitted to the data
  bool lines = false;                         // two parameters: a line per value of the second, not a heat map
};

// Reads --label texts (KEY=TEXT, repeatable) and --title; throws invalid_input("label", ...).
chart_words parse_chart_words(const std::vector<std::string>& label_texts, const std::optional<std::string>& title);

// Throws invalid_input("label", ...) for a label whose key is neither a metric nor a varied
// parameter of the sweep (a misspelt key would otherwise be ignored).
void check_label_keys(const chart_words& words, const std::vector<std::string>& metrics,
                      const std::vector<std::string>& parameters);

// The varied parameters' names, from doc["inputs"]["vary"] ("att-war=1..8" -> "att-war").
std::vector<std::string> sweep_parameters(const nlohmann::ordered_json& doc);

// The chart's title: --title, else the metrics' labels by the parameters' ("P(defender dislodged) by
// Attacker War"); the sweep's table is titled the same.
std::string sweep_title(const nlohmann::ordered_json& doc, const chart_words& words);

// The names the chart gives the sweep's varied parameters and metrics (--label's, else musket's:
// cli/result_labels.hpp), by key: the sweep document's "labels", so a reader that draws the sweep
// itself (the web page, web/app.js) names its axes as `--plot` does.
nlohmann::ordered_json sweep_labels(const nlohmann::ordered_json& doc, const chart_words& words);

chart::chart chart_from_sweep(const nlohmann::ordered_json& doc, const chart_words& words);

}  // namespace musket::cli
