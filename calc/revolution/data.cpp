#include "calc/revolution/data.hpp"

#include <algorithm>
#include <cstdlib>
#include <set>

#include "core/input_file.hpp"
#include "core/invalid_input.hpp"
#include "core/json_input.hpp"

namespace musket::revolution {

void data_error(const data_source& source, const std::string& entry, const std::string& problem) {
  const std::string field = source.option.empty() ? source.path : source.option;
  throw invalid_input(field, source.path + ": entry '" + entry + "': " + problem);
}

json read_json_file(const data_source& source) {
  const std::string field = source.option.empty() ? source.path : source.option;
  try {
    return read_json_input(source.path, field);
  } catch (const environment_problem&) {
    throw;
  } catch (const invalid_input& e) {
    // e.field() is "PATH: /json/pointer"; the entry says where in the file.
    const std::string at = e.field().size() > source.path.size() + 2 ? e.field().substr(source.path.size() + 2) : "/";
    data_error(source, "(file) at " + at, e.what());
  }
}

const json& require_field(const data_source& source, const json& object, const std::string& key,
                          const std::string& entry) {
  if (!object.is_object()) data_error(source, entry, "must be a JSON object");
  if (!object.contains(key)) data_error(source, entry, "field '" + key + "' is missing");
  return object.at(key);
}

std::string require_string(const data_source& source, const json& object, const std::string& key,
                           const std::string& entry) {
  const json& v = require_field(source, object, key, entry);
  if (!v.is_string()) data_error(source, entry, "field '" + key + "' must be a string");
  return v.get<std::string>();
}

bool require_bool(const data_source& source, const json& object, const std::string& key, const std::string& entry) {
  const json& v = require_field(source, object, key, entry);
  if (!v.is_boolean()) data_error(source, entry, "field '" + key + "' must be true or false");
  return v.get<bool>();
}

void require_known_keys(const data_source& source, const json& object, const std::string& entry,
                        const std::vector<std::string>& allowed) {
  if (!object.is_object()) data_error(source, entry, "must be a JSON object");
  for (auto it = object.begin(); it != object.end(); ++it)
    if (std::find(allowed.begin(), allowed.end(), it.key()) == allowed.end()) {
      std::string names;
      for (const auto& a : allowed) names += (names.empty() ? "" : ", ") + a;
      data_error(source, entry, "unknown key '" + it.key() + "'; allowed: " + names);
    }
}

std::optional<int> optional_int(const data_source& source, const json& object, const std::string& key,
                                const std::string& entry, int lowest, int highest) {
  const json& v = require_field(source, object, key, entry);
  if (v.is_null()) return std::nullopt;
  if (!v.is_number_integer()) data_error(source, entry, "field '" + key + "' must be an integer or null (unknown)");
  const long long value = v.get<long long>();  // exact: parse_json_text refuses integers past 2^63-1
  if (value < lowest || value > highest)
    data_error(source, entry,
               "field '" + key + "' is " + std::to_string(value) + "; allowed " + std::to_string(lowest) + ".." +
                   std::to_string(highest));
  return static_cast<int>(value);
}

int require_int(const data_source& source, const json& object, const std::string& key, const std::string& entry,
                int lowest, int highest) {
  const auto value = optional_int(source, object, key, entry, lowest, highest);
  if (!value) data_error(source, entry, "field '" + key + "' must be known (an integer), not null");
  return *value;
}

std::vector<region> load_regions(const data_source& source) {
  const json doc = read_json_file(source);
  const json& list = require_field(source, doc, "regions", "(top level)");
  if (!list.is_array() || list.empty()) data_error(source, "regions", "must be a non-empty array");
  std::vector<region> out;
  std::set<std::string> seen;
  for (std::size_t i = 0; i < list.size(); ++i) {
    const std::string entry = "regions[" + std::to_string(i) + "]";
    region r;
    r.name = require_string(source, list[i], "name", entry);
    const std::string named = entry + " (" + r.name + ")";
    if (!seen.insert(r.name).second) data_error(source, named, "the region is listed twice");
    r.victory_points = optional_int(source, list[i], "vp", named, 0, 100);
    r.continental = optional_int(source, list[i], "continental", named, 0, 100);
    r.militia = optional_int(source, list[i], "militia", named, 0, 100);
    r.tory = optional_int(source, list[i], "tory", named, 0, 100);
    r.source = require_string(source, list[i], "source", named);
    const bool any_unknown = !r.victory_points || !r.continental || !r.militia || !r.tory;
    const bool marked =
        list[i].contains("unknown") && list[i].at("unknown").is_array() && !list[i].at("unknown").empty();
    if (any_unknown && !marked)
      data_error(source, named, "has a null value but no 'unknown' list naming the unknown fields");
    out.push_back(std::move(r));
  }
  return out;
}

const region* find_region(const std::vector<region>& regions, const std::string& name) {
  for (const auto& r : regions)
    if (r.name == name) return &r;
  return nullptr;
}

}  // namespace musket::revolution
