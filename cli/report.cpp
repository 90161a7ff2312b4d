#include "cli/report.hpp"

#include "cli/csv_writer.hpp"
#include "cli/table_renderer.hpp"
#include "core/invalid_input.hpp"
#include "core/printable.hpp"

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

const json* child_of(const json* node, const std::string& key) {
  return node && node->is_object() && node->contains(key) ? &node->at(key) : nullptr;
}

const json* element_of(const json* node, std::size_t i) {
  return node && node->is_array() && i < node->size() ? &node->at(i) : nullptr;
}

const json* exact_for(const json* exact, const std::string& key) {
  if (!exact || !exact->is_object()) return nullptr;
  if (exact->contains(key)) return &exact->at(key);
  return exact;
}

json versioned(const json& document) {
  json out = json::object();
  out["schema_version"] = schema_version;
  for (auto it = document.begin(); it != document.end(); ++it)
    if (it.key() != "schema_version") out[it.key()] = it.value();
  return out;
}

std::string render(const report& r, output_format format) {
  // Text the user typed may not be UTF-8: it is replaced (U+FFFD) rather than refused mid-output.
  if (format == output_format::json_format)
    return versioned(r.document).dump(2, ' ', false, json::error_handler_t::replace) + "\n";
  if (format == output_format::csv) return document_csv(r);
  // A table goes to a terminal: a control character from a file or an option (an escape sequence
  // in a plan's name) is shown escaped, line by line, never obeyed.
  const std::string table = render_table(r);
  std::string out;
  for (std::size_t start = 0; start < table.size();) {
    const auto end = table.find('\n', start);
    out += printable(std::string_view(table).substr(start, end == std::string::npos ? end : end - start));
    if (end == std::string::npos) break;
    out += '\n';
    start = end + 1;
  }
  return out;
}

}  // namespace musket::cli
