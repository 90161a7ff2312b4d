#include "calc/revolution/levy.hpp"

#include <algorithm>

#include "core/invalid_input.hpp"

namespace musket::revolution {

levy_chart load_levy_chart(const data_source& source) {
  return parse_levy_chart(read_json_file(source), source);
}

levy_chart parse_levy_chart(const json& doc, const data_source& source) {
  levy_chart chart;
  chart.source = require_string(source, doc, "source", "(top level)");
  chart.transcribed = require_bool(source, doc, "transcribed", "(top level)");
  const json& faces = require_field(source, doc, "faces", "(top level)");
  if (!faces.is_object()) data_error(source, "faces", "must be an object keyed \"1\"..\"6\"");
  for (auto it = faces.begin(); it != faces.end(); ++it)
    if (it.key().size() != 1 || it.key()[0] < '1' || it.key()[0] > '6')
      data_error(source, "faces." + it.key(), "is not a die face; allowed \"1\"..\"6\"");
  for (int face = 1; face <= 6; ++face) {
    const std::string entry = "faces." + std::to_string(face);
    if (!faces.contains(std::to_string(face))) data_error(source, entry, "is missing (null marks an unknown face)");
    const json& calls = faces.at(std::to_string(face));
    if (calls.is_null()) continue;
    if (!calls.is_array()) data_error(source, entry, "must be an array of {\"region\": name} or null (unknown)");
    std::vector<levy_call> list;
    for (std::size_t i = 0; i < calls.size(); ++i) {
      const std::string call_entry = entry + "[" + std::to_string(i) + "]";
      levy_call call;
      require_known_keys(source, calls[i], call_entry, {"region", "continentals"});
      call.region = require_string(source, calls[i], "region", call_entry);
      if (calls[i].contains("continentals"))
        call.continentals = optional_int(source, calls[i], "continentals", call_entry, 0, 100);
      list.push_back(std::move(call));
    }
    chart.faces[static_cast<std::size_t>(face - 1)] = std::move(list);
  }
  return chart;
}

namespace {

// Sum of `n` independent rolls, each with face counts `weights` (value -> ways out of 6),
// done in integers over 6^n and turned into fractions once at the end.
pmf convolve_rolls(const std::vector<int>& weights, int n) {
  std::vector<big_integer> counts{1};
  for (int r = 0; r < n; ++r) {
    std::vector<big_integer> next(counts.size() + weights.size() - 1, 0);
    for (std::size_t i = 0; i < counts.size(); ++i) {
      if (counts[i] == 0) continue;
      for (std::size_t v = 0; v < weights.size(); ++v)
        if (weights[v] != 0) next[i + v] += counts[i] * weights[v];
    }
    counts = std::move(next);
  }
  const big_integer denominator = boost::multiprecision::pow(big_integer(6), static_cast<unsigned>(n));
  std::vector<rational> masses;
  masses.reserve(counts.size());
  for (const auto& c : counts) masses.push_back(rational(c, denominator));
  return pmf(0, std::move(masses));
}

}  // namespace

levy_result continental_levy(const levy_chart& chart, const std::string& chart_field,
                             const std::vector<region>& regions, const std::vector<std::string>& british_controlled,
                             int turns, int rolls_per_turn) {
  require_in_range("turns", turns, 1, 36, "Spring 1775 to Winter 1783 is 36 Game-Turns");
  require_in_range("rolls-per-turn", rolls_per_turn, 1, 3,
                   "1, 2 after the second Major Success or under Option F, 3 under F after it");
  for (const auto& name : british_controlled)
    if (!find_region(regions, name))
      throw invalid_input("british-controlled", "'" + name + "' is not a Region in regions.json");
  levy_result res;
  res.rolls = turns * rolls_per_turn;
  // raised[face][region index]
  std::array<std::vector<int>, 6> raised;
  for (int face = 1; face <= 6; ++face) {
    const auto& calls = chart.faces[static_cast<std::size_t>(face - 1)];
    if (!calls)
      throw invalid_input(chart_field, "face " + std::to_string(face) +
                                           " of the Continental Levy Chart is unknown; the levy needs all six faces "
                                           "(the chart is not in our transcript: supply it with --chart FILE)");
    for (const auto& call : *calls) {
      auto it = std::find(res.regions.begin(), res.regions.end(), call.region);
      if (it == res.regions.end()) {
        res.regions.push_back(call.region);
        for (auto& row : raised) row.push_back(0);
        it = res.regions.end() - 1;
      }
      const std::size_t index = static_cast<std::size_t>(it - res.regions.begin());
      int points = 0;
      if (call.continentals) {
        points = *call.continentals;
      } else {
        const region* r = find_region(regions, call.region);
        if (!r)
          throw invalid_input(chart_field,
                              "face " + std::to_string(face) + " names '" + call.region +
                                  "', which is not in regions.json; give its \"continentals\" in the chart");
        if (!r->continental)
          throw invalid_input(chart_field, "face " + std::to_string(face) + " names '" + call.region +
                                               "', whose Continental allowance is unknown; give its \"continentals\"");
        points = *r->continental;
      }
      const bool controlled =
          std::find(british_controlled.begin(), british_controlled.end(), call.region) != british_controlled.end();
      raised[static_cast<std::size_t>(face - 1)][index] += controlled ? 0 : points;  // Reinforcements C
    }
  }
  auto weights_of = [&](auto value_of_face) {
    std::vector<int> w;
    for (int face = 0; face < 6; ++face) {
      const int v = value_of_face(face);
      if (static_cast<int>(w.size()) <= v) w.resize(static_cast<std::size_t>(v) + 1, 0);
      ++w[static_cast<std::size_t>(v)];
    }
    return w;
  };
  for (std::size_t i = 0; i < res.regions.size(); ++i) {
    const auto w = weights_of([&](int face) { return raised[static_cast<std::size_t>(face)][i]; });
    res.region_per_roll.push_back(convolve_rolls(w, 1));
    res.region_total.push_back(convolve_rolls(w, res.rolls));
  }
  const auto w = weights_of([&](int face) {
    int sum = 0;
    for (int v : raised[static_cast<std::size_t>(face)]) sum += v;
    return sum;
  });
  res.per_roll = convolve_rolls(w, 1);
  res.total = convolve_rolls(w, res.rolls);
  return res;
}

}  // namespace musket::revolution
