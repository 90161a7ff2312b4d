#pragma once
// Reading plan files' JSON values with their types and ranges checked: every campaign plan parser
// uses these, so a number where a string belongs, a fraction, or a number too large for an int
// (never wrapped) is one invalid_input naming "FILE: path" and what is allowed.
#include <nlohmann/json.hpp>
#include <string>

#include "core/invalid_input.hpp"

namespace musket::campaign {

// A whole number in [lowest, highest]; `where` is the field invalid_input names.
inline int plan_whole_number(const nlohmann::json& v, const std::string& where, int lowest, int highest) {
  const std::string range = "allowed " + std::to_string(lowest) + ".." + std::to_string(highest);
  if (!v.is_number_integer()) throw invalid_input(where, "must be a whole number; " + range);
  if (v.is_number_unsigned() && v.get<unsigned long long>() > static_cast<unsigned long long>(highest))
    throw invalid_input(where, v.dump() + " is out of range; " + range);
  const long long n = v.get<long long>();
  if (n < lowest || n > highest) throw invalid_input(where, std::to_string(n) + " is out of range; " + range);
  return static_cast<int>(n);
}

// object[key] as a whole number in [lowest, highest], or fallback when absent.
inline int plan_whole_number(const nlohmann::json& object, const char* key, int fallback, const std::string& where,
                             int lowest, int highest) {
  return object.contains(key) ? plan_whole_number(object.at(key), where, lowest, highest) : fallback;
}

// object[key] as a string, or fallback when absent.
inline std::string plan_text(const nlohmann::json& object, const char* key, const std::string& fallback,
                             const std::string& where) {
  if (!object.contains(key)) return fallback;
  if (!object.at(key).is_string()) throw invalid_input(where, "must be a string");
  return object.at(key).get<std::string>();
}

// object[key] as true/false, or fallback when absent.
inline bool plan_flag(const nlohmann::json& object, const char* key, bool fallback, const std::string& where) {
  if (!object.contains(key)) return fallback;
  if (!object.at(key).is_boolean()) throw invalid_input(where, "must be true or false");
  return object.at(key).get<bool>();
}

}  // namespace musket::campaign
