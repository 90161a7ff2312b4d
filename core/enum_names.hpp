#pragma once
// One name table per enum: `inline constexpr enum_names<E, N> names_of_E{{{E::a, "a"}, ...}};`
// and from it alone the name printed (name_of), the value parsed (value_of) and the list a
// refusal names ("allowed: a, b, c": names_list). A name is written once, in its table.
#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace musket {

template <class E, std::size_t N>
using enum_names = std::array<std::pair<E, std::string_view>, N>;

// The value's name; "?" for a value the table does not list (a table lists every value: its test
// says so).
template <class E, std::size_t N>
constexpr std::string_view name_of(const enum_names<E, N>& table, E value) {
  for (const auto& [v, name] : table)
    if (v == value) return name;
  return "?";
}

// The value named `text` exactly, if any.
template <class E, std::size_t N>
constexpr std::optional<E> value_of(const enum_names<E, N>& table, std::string_view text) {
  for (const auto& [v, name] : table)
    if (name == text) return v;
  return std::nullopt;
}

// "a, b, c": every name in the table's order, joined by `separator` (", " for a refusal's
// "allowed:", " | " for a help text).
template <class E, std::size_t N>
std::string names_list(const enum_names<E, N>& table, std::string_view separator = ", ") {
  std::string out;
  for (const auto& [v, name] : table) {
    if (!out.empty()) out += separator;
    out += name;
  }
  return out;
}

// The names of `values` only, in their order (an enum whose input takes fewer values than it
// prints, or spells one with a parameter: `suffix(value)` is appended to its name).
template <class E, std::size_t N, class Values, class Suffix>
std::string names_list_of(const enum_names<E, N>& table, const Values& values, std::string_view separator,
                          Suffix&& suffix) {
  std::string out;
  for (const E v : values) {
    if (!out.empty()) out += separator;
    out += name_of(table, v);
    out += suffix(v);
  }
  return out;
}
template <class E, std::size_t N, class Values>
std::string names_list_of(const enum_names<E, N>& table, const Values& values, std::string_view separator = ", ") {
  return names_list_of(table, values, separator, [](E) { return std::string_view{}; });
}

}  // namespace musket
