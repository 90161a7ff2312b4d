#pragma once
// Reading plan files' JSON values with their types and ranges checked: every campaign plan parser
// uses these, thin over core/json_input.hpp's checked accessors, so a number where a string
// belongs, a fraction, or a number too large for an int (never wrapped) is one invalid_input
// naming "FILE: path" and what is allowed.
#include <nlohmann/json.hpp>
#include <string>

#include "core/invalid_input.hpp"
#include "core/json_input.hpp"

namespace musket::campaign {

// A whole number in [lowest, highest]; `where` is the field invalid_input names
// (core/json_input.hpp's json_integer: a fraction, a string or a number past the range is refused).
inline int plan_whole_number(const nlohmann::json& v, const std::string& where, int lowest, int highest) {
  return static_cast<int>(json_integer(v, where, lowest, highest));
}

// object[key] as a whole number in [lowest, highest], or fallback when absent.
inline int plan_whole_number(const nlohmann::json& object, const char* key, int fallback, const std::string& where,
                             int lowest, int highest) {
  return object.contains(key) ? plan_whole_number(object.at(key), where, lowest, highest) : fallback;
}

// object[key] as a string, or fallback when absent.
inline std::string plan_text(const nlohmann::json& object, const char* key, const std::string& fallback,
                             const std::string& where) {
  return object.contains(key) ? json_string(object.at(key), where) : fallback;
}

// object[key] as true/false, or fallback when absent.
inline bool plan_flag(const nlohmann::json& object, const char* key, bool fallback, const std::string& where) {
  return object.contains(key) ? json_boolean(object.at(key), where) : fallback;
}

}  // namespace musket::campaign
