#include "cli/sweep_points.hpp"

#include "cli/csv_writer.hpp"
#include "cli/number_text.hpp"
#include "cli/result_labels.hpp"

namespace musket::cli {

namespace {

// {"low", "high", ...} as every document writes an interval.
bool read_interval(const json& node, double& low, double& high) {
  if (!node.is_object() || !node.contains("low") || !node.contains("high") || !node.at("low").is_number() ||
      !node.at("high").is_number())
    return false;
  low = node.at("low").get<double>();
  high = node.at("high").get<double>();
  return true;
}

// One element of a distribution's interval {low: [...] or {...}, high: ...}.
bool read_element(const json& node, const std::string& element, double& low, double& high) {
  if (!node.is_object() || !node.contains("low") || !node.contains("high")) return false;
  const json &lows = node.at("low"), &highs = node.at("high");
  if (lows.is_object() && highs.is_object()) {
    if (!lows.contains(element) || !highs.contains(element)) return false;
    return read_interval(json{{"low", lows.at(element)}, {"high", highs.at(element)}}, low, high);
  }
  if (!lows.is_array() || !highs.is_array() || element.empty() || element.size() > 6 ||
      element.find_first_not_of("0123456789") != std::string::npos)
    return false;
  const std::size_t k = std::stoul(element);
  if (k >= lows.size() || k >= highs.size()) return false;
  return read_interval(json{{"low", lows[k]}, {"high", highs[k]}}, low, high);
}

}  // namespace

// The long CSV: game, command, the varied parameters, metric, value (and exact_num, exact_den
// when a point was solved exactly, as `--format csv` splits a fraction; low, high when one was
// simulated); one row per point and metric.
std::string sweep_csv_rows(const std::string& code, const std::string& target, const std::vector<std::string>& axes,
                           const json& rows) {
  bool intervals = false, fractions = false;
  for (const auto& row : rows) {
    intervals = intervals || row.contains("low");
    fractions = fractions || row.contains("exact");
  }
  std::vector<std::string> header{"game", "command"};
  header.insert(header.end(), axes.begin(), axes.end());
  header.insert(header.end(), {"metric", "value"});
  if (fractions) header.insert(header.end(), {"exact_num", "exact_den"});
  if (intervals) header.insert(header.end(), {"low", "high"});
  std::string csv = csv_line(header);
  for (const auto& row : rows) {
    std::vector<std::string> fields{code, target};
    for (const auto& a : axes) fields.push_back(csv_value(row.at(a)));
    fields.push_back(row.at("metric").get<std::string>());
    // No value: an illegal point reads "illegal", a metric's own null its word ("no fort").
    const json& value = row.at("value");
    fields.push_back(row.contains("illegal") ? std::string(illegal_point_mark)
                     : value.is_null()       ? null_meaning(row.at("metric").get<std::string>())
                                             : csv_value(value));
    if (fractions) {
      const auto parts = row.contains("exact") ? fraction_parts(row.at("exact").get<std::string>()) : std::nullopt;
      fields.push_back(parts ? parts->first : "");
      fields.push_back(parts ? parts->second : "");
    }
    if (intervals) {
      fields.push_back(csv_value(row.value("low", json())));
      fields.push_back(csv_value(row.value("high", json())));
    }
    csv += csv_line(fields);
  }
  return csv;
}

// A simulated result's interval for `key`: the document's `intervals` are keyed by dotted path
// ("outcomes.defender_retreats", "steps.2.reached"), a distribution's by its own path with arrays
// or objects of bounds ("attacker_losses" for "attacker_losses.2").
bool find_interval(const json& intervals, const std::string& key, double& low, double& high) {
  if (!intervals.is_object()) return false;
  if (const auto it = intervals.find(key); it != intervals.end() && read_interval(*it, low, high)) return true;
  const auto dot = key.rfind('.');
  if (dot == std::string::npos) return false;
  const auto it = intervals.find(key.substr(0, dot));
  return it != intervals.end() && read_element(*it, key.substr(dot + 1), low, high);
}

}  // namespace musket::cli
