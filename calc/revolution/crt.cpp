#include "calc/revolution/crt.hpp"

namespace musket::revolution {

std::string key(crt_result r) {
  switch (r) {
    case crt_result::De:
      return "De";
    case crt_result::HalfDe:
      return "HalfDe";
    case crt_result::HalfEx:
      return "HalfEx";
  }
  return "?";
}

std::string label(crt_result r) {
  switch (r) {
    case crt_result::De:
      return "De";
    case crt_result::HalfDe:
      return "1/2De";
    case crt_result::HalfEx:
      return "1/2Ex";
  }
  return "?";
}

std::string column_name(int column) {
  return std::to_string(column) + ":1";
}

bool crt_table::complete() const {
  for (const auto& column : cells)
    for (const auto& cell : column)
      if (!cell.result) return false;
  return true;
}

namespace {

std::optional<crt_result> parse_code(const std::string& code) {
  if (code == "De" || code == "DE") return crt_result::De;
  if (code == "1/2De" || code == "\u00bdDe" || code == "HalfDe" || code == "1/2DE") return crt_result::HalfDe;
  if (code == "1/2Ex" || code == "\u00bdEx" || code == "HalfEx" || code == "1/2EX") return crt_result::HalfEx;
  return std::nullopt;
}

const char* allowed_codes = "allowed: De, 1/2De, 1/2Ex (or {\"result\": null, \"unknown\": true})";

crt_cell parse_cell(const json& v, const data_source& source, const std::string& entry) {
  crt_cell cell;
  if (v.is_string()) {
    cell.result = parse_code(v.get<std::string>());
    if (!cell.result) data_error(source, entry, "unknown result code '" + v.get<std::string>() + "'; " + allowed_codes);
    cell.source = source.option.empty() ? "data file" : "user-supplied table";
    return cell;
  }
  if (!v.is_object()) data_error(source, entry, std::string("must be a result code or an object; ") + allowed_codes);
  require_known_keys(source, v, entry, {"result", "unknown", "source"});
  const json& result = require_field(source, v, "result", entry);
  if (v.contains("source")) {
    if (!v.at("source").is_string()) data_error(source, entry, "field 'source' must be a string");
    cell.source = v.at("source").get<std::string>();
  }
  const bool unknown = v.contains("unknown") && require_bool(source, v, "unknown", entry);
  if (result.is_null()) {
    if (!unknown) data_error(source, entry, "a null result must be marked \"unknown\": true");
    return cell;
  }
  if (!result.is_string())
    data_error(source, entry, std::string("result must be a string code or null; ") + allowed_codes);
  if (unknown) data_error(source, entry, "is marked unknown but gives a result");
  cell.result = parse_code(result.get<std::string>());
  if (!cell.result)
    data_error(source, entry, "unknown result code '" + result.get<std::string>() + "'; " + allowed_codes);
  return cell;
}

}  // namespace

crt_table parse_crt(const json& doc, const data_source& source) {
  crt_table table;
  table.path = source.path;
  const json& columns = require_field(source, doc, "columns", "(top level)");
  if (!columns.is_object()) data_error(source, "columns", "must be an object keyed \"1:1\"..\"4:1\"");
  for (auto it = columns.begin(); it != columns.end(); ++it) {
    bool known = false;
    for (int c = 1; c <= crt_columns; ++c) known = known || it.key() == column_name(c);
    if (!known) data_error(source, "columns." + it.key(), "is not a column; allowed 1:1, 2:1, 3:1, 4:1");
  }
  for (int c = 1; c <= crt_columns; ++c) {
    const std::string name = column_name(c);
    const std::string entry = "columns." + name;
    if (!columns.contains(name)) data_error(source, entry, "column is missing; the table needs 1:1, 2:1, 3:1 and 4:1");
    const json& rows = columns.at(name);
    if (!rows.is_array() || rows.size() != 6)
      data_error(source, entry, "must be an array of 6 cells, die rolls 1 to 6");
    for (std::size_t die = 0; die < 6; ++die)
      table.cells[static_cast<std::size_t>(c - 1)][die] =
          parse_cell(rows[die], source, entry + "[die " + std::to_string(die + 1) + "]");
  }
  return table;
}

crt_table load_crt(const data_source& source) {
  return parse_crt(read_json_file(source), source);
}

}  // namespace musket::revolution
