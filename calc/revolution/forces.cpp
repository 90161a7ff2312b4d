#include "calc/revolution/forces.hpp"

#include <algorithm>
#include <cctype>
#include <vector>

#include "core/invalid_input.hpp"

namespace musket::revolution {

std::string letters(unit_type t) {
  switch (t) {
    case unit_type::regular:
      return "B";
    case unit_type::tory:
      return "T";
    case unit_type::continental:
      return "C";
    case unit_type::militia:
      return "M";
    case unit_type::french_permanent:
      return "F";
    case unit_type::french_seasonal:
      return "SF";
  }
  return "?";
}

side side_of(unit_type t) {
  return t == unit_type::regular || t == unit_type::tory ? side::british : side::american;
}

bool is_irregular(unit_type t) {
  return t == unit_type::tory || t == unit_type::militia;
}

int force::total() const {
  int sum = 0;
  for (int p : points) sum += p;
  return sum;
}

std::string to_string(side s) {
  return s == side::british ? "British" : "American";
}

namespace {

std::string trim(const std::string& s) {
  std::size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return s.substr(b, e - b);
}

const char* allowed_letters =
    "allowed letters: B (British Regular), T (Tory), C (Continental), M (Militia), "
    "F (French Permanent), SF (French Seasonal)";

}  // namespace

force parse_force(const std::string& text, const std::string& field) {
  force f;
  bool any = false;
  bool side_set = false;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t comma = text.find(',', start);
    const std::string item = trim(text.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    start = comma == std::string::npos ? text.size() + 1 : comma + 1;
    if (item.empty()) throw invalid_input(field, "'" + text + "' has an empty entry; write counts like \"15M,8C\"");
    std::size_t digits = 0;
    while (digits < item.size() && std::isdigit(static_cast<unsigned char>(item[digits]))) ++digits;
    if (item[0] == '-') throw invalid_input(field, "'" + item + "': strengths must be at least 1");
    if (digits == 0) throw invalid_input(field, "'" + item + "' needs a count before the type letter, e.g. \"15M\"");
    if (digits > 4) throw invalid_input(field, "'" + item + "': a count must be 1..9999");
    const int count = std::stoi(item.substr(0, digits));
    std::string type = trim(item.substr(digits));
    std::transform(type.begin(), type.end(), type.begin(), [](unsigned char c) { return std::toupper(c); });
    const auto it =
        std::find_if(all_unit_types.begin(), all_unit_types.end(), [&](unit_type t) { return letters(t) == type; });
    if (it == all_unit_types.end())
      throw invalid_input(field, "unknown type '" + type + "' in '" + item + "'; " + allowed_letters);
    if (count < 1) throw invalid_input(field, "'" + item + "': strengths must be at least 1");
    if (side_set && side_of(*it) != f.owner)
      throw invalid_input(field,
                          "'" + text + "' mixes British (B, T) and American (C, M, F, SF) letters; one side only");
    f.owner = side_of(*it);
    side_set = true;
    f[*it] += count;
    if (f[*it] > 9999) throw invalid_input(field, "more than 9999 points of " + type);
    any = true;
  }
  if (!any) throw invalid_input(field, "is empty; write counts like \"15M,8C\"");
  return f;
}

std::string to_string(const points_by_type& points) {
  std::string out;
  for (auto t : all_unit_types) {
    const int n = points[static_cast<std::size_t>(t)];
    if (n == 0) continue;
    if (!out.empty()) out += ",";
    out += std::to_string(n) + letters(t);
  }
  return out.empty() ? "none" : out;
}

loss_policy parse_loss_policy(const std::string& text, const std::string& field) {
  if (text == "protect-regulars") return loss_policy::protect_regulars;
  if (text == "protect-irregulars") return loss_policy::protect_irregulars;
  throw invalid_input(field, "'" + text + "' is not a loss policy; allowed: protect-regulars, protect-irregulars");
}

std::string to_string(loss_policy p) {
  return p == loss_policy::protect_regulars ? "protect-regulars" : "protect-irregulars";
}

points_by_type allocate_losses(const force& f, int points, loss_policy policy) {
  points_by_type lost{};
  force left = f;
  const std::vector<unit_type> irregulars{unit_type::tory, unit_type::militia};
  const std::vector<unit_type> regulars{unit_type::regular, unit_type::continental, unit_type::french_seasonal,
                                        unit_type::french_permanent};
  auto take_from = [&](const std::vector<unit_type>& order) {
    for (auto t : order)
      if (left[t] > 0) {
        --left[t];
        ++lost[static_cast<std::size_t>(t)];
        return true;
      }
    return false;
  };
  const auto& first_choice = policy == loss_policy::protect_regulars ? irregulars : regulars;
  const auto& second_choice = policy == loss_policy::protect_regulars ? regulars : irregulars;
  auto take_by_policy = [&] { return take_from(first_choice) || take_from(second_choice); };
  points = std::min(points, f.total());
  for (int i = 0; i < points; ++i) {
    if (i == 0 && take_from(irregulars)) continue;  // the first point: a Tory or Militia point if possible
    if (i == 1 && take_from(regulars)) continue;    // the second: a Regular or Continental point if possible
    take_by_policy();
  }
  return lost;
}

}  // namespace musket::revolution
