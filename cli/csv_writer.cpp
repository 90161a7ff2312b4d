#include "cli/csv_writer.hpp"

#include <algorithm>

#include "cli/number_text.hpp"
#include "cli/report.hpp"
#include "cli/result_labels.hpp"

namespace musket::cli {

std::string csv_field(std::string_view text) {
  if (text.find_first_of(",\"\r\n") == std::string_view::npos) return std::string(text);
  std::string out = "\"";
  for (char c : text) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

std::string csv_line(const std::vector<std::string>& fields) {
  std::string out;
  for (std::size_t i = 0; i < fields.size(); ++i) out += (i ? "," : "") + csv_field(fields[i]);
  return out + "\n";
}

std::string csv_value(const json& value) {
  if (value.is_number_float()) return shortest_decimal(value.get<double>());
  if (value.is_number()) return value.dump();
  if (value.is_boolean()) return value.get<bool>() ? "true" : "false";
  if (value.is_string()) return value.get<std::string>();
  if (value.is_null()) return "";
  return value.dump(-1, ' ', false, json::error_handler_t::replace);
}

namespace {

// An exact fraction "num/den" (or a whole "n") as a leaf carries it: whole, and split in two.
struct exact_fields {
  std::string num, den, whole;
};
exact_fields exact_parts(const json* exact) {
  if (exact && exact->is_string())
    if (const auto parts = fraction_parts(exact->get<std::string>()))
      return {parts->first, parts->second, exact->get<std::string>()};
  return {};
}

void flatten(const std::string& path, const json& value, const json* exact, std::vector<csv_leaf>& out) {
  if (value.is_object()) {
    // A sweep's row: its fraction (`exact`) goes beside its value, as exact_num and exact_den; a
    // row with no value reads as the table reads it: "illegal" at a point the command refused (the
    // reason follows), else the metric's own null ("no fort").
    const bool sweep_row = value.contains("metric") && value.at("metric").is_string();
    for (auto it = value.begin(); it != value.end(); ++it) {
      if (sweep_row && it.key() == "exact") continue;
      if (sweep_row && it.key() == "value") {
        const auto e = exact_parts(value.contains("exact") ? &value.at("exact") : nullptr);
        const std::string text = !it.value().is_null()       ? csv_value(it.value())
                                 : value.contains("illegal") ? std::string(illegal_point_mark)
                                                             : null_meaning(value.at("metric").get<std::string>());
        out.push_back({path + ".value", it.value(), text, e.num, e.den, e.whole});
        continue;
      }
      flatten(path + "." + it.key(), it.value(), child_of(exact, it.key()), out);
    }
    return;
  }
  if (value.is_array()) {
    for (std::size_t i = 0; i < value.size(); ++i)
      flatten(path + "." + std::to_string(i), value[i], element_of(exact, i), out);
    return;
  }
  const auto e = exact_parts(exact);
  // A null by what it means for its key ("no fort"), as the table reads it.
  out.push_back({path, value, value.is_null() ? null_meaning(path) : csv_value(value), e.num, e.den, e.whole});
}

}  // namespace

std::vector<csv_leaf> document_leaves(const report& r) {
  const json& doc = r.document;
  const json* exact = doc.contains("exact") ? &doc.at("exact") : nullptr;
  std::vector<csv_leaf> out;
  auto listed = [&](const std::string& key) {
    return std::find(r.result_keys.begin(), r.result_keys.end(), key) != r.result_keys.end();
  };
  for (const auto& key : r.result_keys)
    if (doc.contains(key)) flatten(key, doc.at(key), exact_for(exact, key), out);
  // Statistics and intervals as long rows, whether or not a command lists them among its results.
  for (const std::string key : {"stats", "intervals"})
    if (doc.contains(key) && !listed(key)) flatten(key, doc.at(key), child_of(exact, key), out);
  return out;
}

std::string document_csv(const report& r) {
  std::string out = csv_line({"key", "value", "exact_num", "exact_den"});
  for (const auto& leaf : document_leaves(r)) out += csv_line({leaf.key, leaf.text, leaf.exact_num, leaf.exact_den});
  return out;
}

}  // namespace musket::cli
