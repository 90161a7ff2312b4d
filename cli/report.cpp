#include "cli/report.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <sstream>

#include "core/invalid_input.hpp"

namespace musket::cli {

output_format parse_format(const std::string& text) {
  if (text == "table") return output_format::table;
  if (text == "json") return output_format::json_format;
  if (text == "csv") return output_format::csv;
  throw invalid_input("format", "'" + text + "' is not a format; allowed: table, json, csv");
}

json exact_method() {
  return json{{"name", "exact"}};
}

json probability_array(const pmf& d) {
  json out = json::array();
  for (int v = 0; v <= d.highest(); ++v) out.push_back(to_double(d[v]));
  return out;
}

json exact_array(const pmf& d) {
  json out = json::array();
  for (int v = 0; v <= d.highest(); ++v) out.push_back(to_fraction_string(d[v]));
  return out;
}

json probability_object(const pmf& d) {
  json out = json::object();
  for (int v = d.lowest(); v <= d.highest(); ++v)
    if (d[v] != 0) out[std::to_string(v)] = to_double(d[v]);
  return out;
}

json exact_object(const pmf& d) {
  json out = json::object();
  for (int v = d.lowest(); v <= d.highest(); ++v)
    if (d[v] != 0) out[std::to_string(v)] = to_fraction_string(d[v]);
  return out;
}

std::string percent(double p) {
  return fmt::format("{:.1f}%", 100.0 * p);
}

namespace {

bool is_probability(const json& v) {
  return v.is_number() && v.get<double>() >= 0.0 && v.get<double>() <= 1.0 && !v.is_number_integer();
}

// Expectations and other plain numbers are named so ("expected_...", "mean...", "value").
bool is_plain_number_key(const std::string& key) {
  return key.rfind("expected", 0) == 0 || key.rfind("mean", 0) == 0 || key == "value" || key.rfind("sd", 0) == 0;
}

std::string scalar_text(const json& v) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_boolean()) return v.get<bool>() ? "yes" : "no";
  if (v.is_number_integer()) return std::to_string(v.get<long long>());
  if (v.is_number()) return fmt::format("{:.6g}", v.get<double>());
  if (v.is_null()) return "unknown";
  return v.dump(-1, ' ', false, json::error_handler_t::replace);
}

std::string label(const std::string& key) {
  std::string out = key;
  std::replace(out.begin(), out.end(), '_', ' ');
  return out;
}

std::string bar(double p, int width = 30) {
  const int n = static_cast<int>(p * width + 0.5);
  return std::string(static_cast<std::size_t>(std::max(0, n)), '#');
}

// exact mirrors the result's shape, except that a section's named probabilities may sit at the
// top level of `exact` (the contract's {"exact": {"defender_retreats": "num/den"}}).
const json* find_exact(const json& exact, const std::string& key) {
  if (!exact.is_object()) return nullptr;
  if (exact.contains(key)) return &exact.at(key);
  return &exact;
}

void render_value(std::ostringstream& out, const std::string& key, const json& value, const json* exact) {
  if (is_probability(value) && !is_plain_number_key(key)) {
    out << fmt::format("{:<28} {:>7}  {}\n", label(key), percent(value.get<double>()),
                       exact && exact->is_string() ? exact->get<std::string>() : "");
    return;
  }
  if (value.is_object()) {
    bool all_probabilities = !value.empty();
    for (auto it = value.begin(); it != value.end(); ++it)
      all_probabilities = all_probabilities && is_probability(it.value()) && !is_plain_number_key(it.key());
    out << "\n" << label(key) << "\n";
    if (all_probabilities && !value.empty()) {
      // Keys like "-1", "0" are values of a distribution; others are named outcomes.
      for (auto it = value.begin(); it != value.end(); ++it) {
        const json* e = exact && exact->is_object() && exact->contains(it.key()) ? &exact->at(it.key()) : nullptr;
        out << fmt::format("  {:<26} {:>7}  {:<14} {}\n", label(it.key()), percent(it.value().get<double>()),
                           e && e->is_string() ? e->get<std::string>() : "", bar(it.value().get<double>()));
      }
    } else {
      for (auto it = value.begin(); it != value.end(); ++it) {
        const json* e = exact && exact->is_object() && exact->contains(it.key()) ? &exact->at(it.key()) : nullptr;
        if (it.value().is_structured()) {
          std::ostringstream nested;
          render_value(nested, key + "." + it.key(), it.value(), e);
          out << nested.str();
        } else if (is_probability(it.value()) && !is_plain_number_key(it.key())) {
          out << fmt::format("  {:<26} {:>7}  {}\n", label(it.key()), percent(it.value().get<double>()),
                             e && e->is_string() ? e->get<std::string>() : "");
        } else {
          out << fmt::format("  {:<26} {}\n", label(it.key()), scalar_text(it.value()));
        }
      }
    }
    return;
  }
  if (value.is_array()) {
    bool numeric = !value.empty();
    for (const auto& v : value) numeric = numeric && is_probability(v);
    out << "\n" << label(key) << "\n";
    if (numeric) {
      for (std::size_t i = 0; i < value.size(); ++i) {
        const json* e = exact && exact->is_array() && i < exact->size() ? &exact->at(i) : nullptr;
        out << fmt::format("  {:>4} {:>7}  {:<14} {}\n", i, percent(value[i].get<double>()),
                           e && e->is_string() ? e->get<std::string>() : "", bar(value[i].get<double>()));
      }
    } else {
      // Rows of objects: a small aligned table with the keys of the first row as columns.
      std::vector<std::string> columns;
      if (!value.empty() && value[0].is_object())
        for (auto it = value[0].begin(); it != value[0].end(); ++it) columns.push_back(it.key());
      if (columns.empty()) {
        for (const auto& v : value) out << "  " << scalar_text(v) << "\n";
        return;
      }
      std::string header = " ";
      for (const auto& c : columns) header += fmt::format(" {:>18}", label(c));
      out << header << "\n";
      for (const auto& row : value) {
        std::string line = " ";
        for (const auto& c : columns) {
          const json& cell = row.contains(c) ? row.at(c) : json();
          line += fmt::format(" {:>18}", is_probability(cell) && !is_plain_number_key(c) ? percent(cell.get<double>())
                                                                                         : scalar_text(cell));
        }
        out << line << "\n";
      }
    }
    return;
  }
  out << fmt::format("{:<28} {}\n", label(key), scalar_text(value));
}

void flatten(const std::string& path, const json& value, const json* exact,
             std::vector<std::array<std::string, 3>>& rows) {
  if (value.is_object()) {
    for (auto it = value.begin(); it != value.end(); ++it) {
      const json* e = exact && exact->is_object() && exact->contains(it.key()) ? &exact->at(it.key()) : nullptr;
      flatten(path + "." + it.key(), it.value(), e, rows);
    }
  } else if (value.is_array()) {
    for (std::size_t i = 0; i < value.size(); ++i) {
      const json* e = exact && exact->is_array() && i < exact->size() ? &exact->at(i) : nullptr;
      flatten(path + "." + std::to_string(i), value[i], e, rows);
    }
  } else {
    rows.push_back({path, value.is_number_float() ? fmt::format("{:.17g}", value.get<double>()) : scalar_text(value),
                    exact && exact->is_string() ? exact->get<std::string>() : ""});
  }
}

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

}  // namespace

std::string render(const report& r, output_format format) {
  const json& doc = r.document;
  const json exact = doc.contains("exact") ? doc.at("exact") : json();
  // Text the user typed may not be UTF-8: it is replaced (U+FFFD) rather than refused mid-output.
  if (format == output_format::json_format) return doc.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
  if (format == output_format::csv) {
    std::vector<std::array<std::string, 3>> rows;
    for (const auto& key : r.result_keys)
      if (doc.contains(key)) flatten(key, doc.at(key), find_exact(exact, key), rows);
    std::string out = "key,value,exact\n";
    for (const auto& row : rows) out += csv_field(row[0]) + "," + csv_field(row[1]) + "," + csv_field(row[2]) + "\n";
    return out;
  }
  std::ostringstream out;
  if (!r.title.empty()) out << r.title << "\n";
  if (!r.verdict.empty()) out << r.verdict << "\n";
  out << "\n";
  for (const auto& key : r.result_keys)
    if (doc.contains(key)) render_value(out, key, doc.at(key), find_exact(exact, key));
  if (doc.contains("method") && doc.at("method").value("name", "") != "exact") {
    out << "\nmethod: " << doc.at("method").dump(-1, ' ', false, json::error_handler_t::replace) << "\n";
  }
  if (doc.contains("notes") && !doc.at("notes").empty()) {
    out << "\nNotes:\n";
    for (const auto& n : doc.at("notes")) out << "  - " << n.get<std::string>() << "\n";
  }
  return out.str();
}

}  // namespace musket::cli
