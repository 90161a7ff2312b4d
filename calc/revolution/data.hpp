#pragma once
// Reading the game's printed tables from data/ar/*.json. Every loader validates its file once
// and throws invalid_input naming the file, the entry and the problem; nothing here guesses a
// value the file does not give.
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace musket::revolution {

using json = nlohmann::json;

// Where a value came from, for error messages: the file, and the option that named it (the
// user's --crt FILE) or empty for the built-in data.
struct data_source {
  std::string path;
  std::string option;  // "crt", "chart"; empty for data/ar files
};

// Throws invalid_input: field = the option (or the path), message "<path>: entry '<entry>': <problem>".
[[noreturn]] void data_error(const data_source& source, const std::string& entry, const std::string& problem);

// Parses the file as JSON (an unreadable or malformed file is a data_error).
json read_json_file(const data_source& source);

// Typed field access that reports a missing or mistyped field as a data_error.
const json& require_field(const data_source& source, const json& object, const std::string& key,
                          const std::string& entry);
std::string require_string(const data_source& source, const json& object, const std::string& key,
                           const std::string& entry);
bool require_bool(const data_source& source, const json& object, const std::string& key, const std::string& entry);
// A data_error for the first key of `object` not in `allowed` (a misspelt "continentals" or
// "unknown" would otherwise be ignored), naming it and the allowed keys.
void require_known_keys(const data_source& source, const json& object, const std::string& entry,
                        const std::vector<std::string>& allowed);
// An integer or null (an unknown value); anything else is an error.
std::optional<int> optional_int(const data_source& source, const json& object, const std::string& key,
                                const std::string& entry, int lowest, int highest);

// An integer that must be known: null is refused like any other non-integer.
int require_int(const data_source& source, const json& object, const std::string& key, const std::string& entry,
                int lowest, int highest);

// A Region's four printed numbers; std::nullopt where the value is unknown to us.
struct region {
  std::string name;
  std::optional<int> victory_points;
  std::optional<int> continental;
  std::optional<int> militia;
  std::optional<int> tory;
  std::string source;
};

std::vector<region> load_regions(const data_source& source);
const region* find_region(const std::vector<region>& regions, const std::string& name);

}  // namespace musket::revolution
