#include "cli/sweep_points.hpp"

#include <fmt/format.h>

namespace musket::cli {

namespace {

// A CSV field (RFC 4180): quoted when it holds a comma, a quote or a line break.
std::string sweep_csv_field(const std::string& text) {
  if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
  std::string out = "\"";
  for (const char c : text) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

// Numbers as the shortest decimal that reads back to the same double; words quoted as needed.
std::string sweep_csv_value(const json& v) {
  if (v.is_number_float()) return fmt::format("{}", v.get<double>());
  if (v.is_number()) return v.dump();
  if (v.is_boolean()) return v.get<bool>() ? "1" : "0";
  if (v.is_string()) return sweep_csv_field(v.get<std::string>());
  return "";
}

const json* interval_walk(const json* node, const std::vector<std::string>& path, std::size_t from) {
  for (std::size_t i = from; node && i < path.size(); ++i) {
    if (node->is_object()) {
      const auto it = node->find(path[i]);
      node = it == node->end() ? nullptr : &*it;
    } else if (node->is_array() && !path[i].empty() && path[i].size() < 6 &&
               path[i].find_first_not_of("0123456789") == std::string::npos) {
      const std::size_t k = std::stoul(path[i]);
      node = k < node->size() ? &(*node)[k] : nullptr;
    } else {
      node = nullptr;
    }
  }
  return node;
}

// [low, high] or {"low", "high"}.
bool read_interval_node(const json* node, double& low, double& high) {
  if (!node) return false;
  if (node->is_array() && node->size() == 2 && (*node)[0].is_number() && (*node)[1].is_number()) {
    low = (*node)[0].get<double>();
    high = (*node)[1].get<double>();
    return true;
  }
  if (node->is_object() && node->contains("low") && node->contains("high") && node->at("low").is_number() &&
      node->at("high").is_number()) {
    low = node->at("low").get<double>();
    high = node->at("high").get<double>();
    return true;
  }
  return false;
}

}  // namespace

// Flattened document keys, as `--format csv` prints them: "summary.attacker_victory".
void flatten_point(const std::string& path, const json& value, std::map<std::string, json>& out,
                   std::vector<std::string>& order) {
  if (value.is_object()) {
    for (auto it = value.begin(); it != value.end(); ++it) flatten_point(path + "." + it.key(), it.value(), out, order);
  } else if (value.is_array()) {
    for (std::size_t i = 0; i < value.size(); ++i) flatten_point(path + "." + std::to_string(i), value[i], out, order);
  } else {
    out[path] = value;
    order.push_back(path);
  }
}

// The long CSV: game, command, the varied parameters, metric, value (and low, high when the
// points were simulated); one row per point and metric.
std::string sweep_csv_rows(const std::string& code, const std::string& target, const std::vector<std::string>& axes,
                           const json& rows) {
  bool intervals = false;
  for (const auto& row : rows) intervals = intervals || row.contains("low");
  std::string csv = "game,command";
  for (const auto& a : axes) csv += "," + sweep_csv_field(a);
  csv += intervals ? ",metric,value,low,high\n" : ",metric,value\n";
  for (const auto& row : rows) {
    csv += sweep_csv_field(code) + "," + sweep_csv_field(target);
    for (const auto& a : axes) csv += "," + sweep_csv_value(row.at(a));
    csv += "," + sweep_csv_field(row.at("metric").get<std::string>()) + "," + sweep_csv_value(row.at("value"));
    if (intervals)
      csv += "," + sweep_csv_value(row.value("low", json())) + "," + sweep_csv_value(row.value("high", json()));
    csv += "\n";
  }
  return csv;
}

// A simulated result's interval for `key` ("outcomes.defender_retreats", "steps.2.reached"): the
// commands put it under "intervals" or "intervals_95", at the key's path, at the path without its
// first part, or for a row of steps in the interval row with the same "step".
bool find_interval(const json& intervals, const std::map<std::string, json>& values, const std::string& key,
                   double& low, double& high) {
  std::vector<std::string> path;
  for (std::size_t start = 0;;) {
    const auto dot = key.find('.', start);
    path.push_back(key.substr(start, dot == std::string::npos ? std::string::npos : dot - start));
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
  for (const char* name : {"intervals", "intervals_95"}) {
    if (!intervals.contains(name)) continue;
    const json* root = &intervals.at(name);
    if (read_interval_node(interval_walk(root, path, 0), low, high) ||
        read_interval_node(interval_walk(root, path, 1), low, high))
      return true;
    if (path.size() < 3) continue;
    const auto id = values.find(path[0] + "." + path[1] + ".step");
    const json* rows = interval_walk(root, path, path.size());  // root itself
    rows = rows && rows->is_object() && rows->contains(path[0]) ? &rows->at(path[0]) : nullptr;
    if (id == values.end() || !rows || !rows->is_array()) continue;
    for (const auto& row : *rows) {
      if (!row.is_object() || !row.contains("step") || row.at("step") != id->second) continue;
      if (read_interval_node(interval_walk(&row, path, 2), low, high)) return true;
      if (row.contains("interval_95") && read_interval_node(interval_walk(&row.at("interval_95"), path, 2), low, high))
        return true;
    }
  }
  return false;
}

}  // namespace musket::cli
