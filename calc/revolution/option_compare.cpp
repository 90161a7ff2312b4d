#include "calc/revolution/option_compare.hpp"

#include <algorithm>
#include <array>
#include <tuple>

namespace musket::revolution {

namespace {

// The tables' printed order; an unknown season (a cut-off row) comes last in its year.
int season_rank(const std::string& season) {
  static const std::array<std::string, 4> order{"Winter", "Spring", "Summer", "Fall"};
  return static_cast<int>(std::find(order.begin(), order.end(), season) - order.begin());
}

auto turn_key(const scheduled_change& c) {
  return std::pair{c.year, season_rank(c.season)};
}

std::optional<int> total(const std::vector<scheduled_change>& changes) {
  int sum = 0;
  for (const auto& c : changes) {
    if (!c.points) return std::nullopt;
    sum += *c.points;
  }
  return sum;
}

}  // namespace

std::vector<scheduled_change> reinforcement_schedule(const options_data& data, const std::vector<char>& letters) {
  std::vector<scheduled_change> out;
  for (char letter : letters)
    for (const auto& c : data.option(letter).changes) out.push_back({c.year, c.season, letter, c.points});
  std::stable_sort(out.begin(), out.end(), [](const auto& x, const auto& y) {
    return std::tuple{turn_key(x), x.option} < std::tuple{turn_key(y), y.option};
  });
  return out;
}

option_comparison compare_option_sets(const options_data& data, const std::vector<char>& first,
                                      const std::vector<char>& second) {
  option_comparison out;
  out.first = analyse_options(data, first);
  out.second = analyse_options(data, second);
  const auto a = reinforcement_schedule(data, out.first.letters);
  const auto b = reinforcement_schedule(data, out.second.letters);
  auto turn_of = [&](const scheduled_change& c) -> compared_turn& {
    auto it = std::find_if(out.turns.begin(), out.turns.end(),
                           [&](const compared_turn& t) { return t.year == c.year && t.season == c.season; });
    if (it != out.turns.end()) return *it;
    out.turns.push_back({c.year, c.season, {}, {}, std::nullopt, std::nullopt});
    return out.turns.back();
  };
  for (const auto& c : a) turn_of(c).first.push_back(c);
  for (const auto& c : b) turn_of(c).second.push_back(c);
  std::stable_sort(out.turns.begin(), out.turns.end(), [](const compared_turn& x, const compared_turn& y) {
    return std::pair{x.year, season_rank(x.season)} < std::pair{y.year, season_rank(y.season)};
  });
  for (auto& t : out.turns) {
    t.first_total = total(t.first);
    t.second_total = total(t.second);
  }
  return out;
}

}  // namespace musket::revolution
