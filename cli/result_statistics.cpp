#include "cli/result_statistics.hpp"

#include <charconv>
#include <cmath>
#include <optional>
#include <stdexcept>
#include <string_view>

#include "core/distribution_stats.hpp"
#include "core/mean_interval.hpp"
#include "core/proportion_interval.hpp"

namespace musket::cli {

namespace {

std::vector<std::string> split_path(const std::string& path) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  for (;;) {
    const std::size_t dot = path.find('.', start);
    parts.push_back(path.substr(start, dot == std::string::npos ? std::string::npos : dot - start));
    if (dot == std::string::npos) return parts;
    start = dot + 1;
  }
}

std::optional<int> integer_key(const std::string& key) {
  if (key.empty() || key.size() > 9) return std::nullopt;
  std::size_t i = key[0] == '-' ? 1 : 0;
  if (i == key.size()) return std::nullopt;
  for (std::size_t j = i; j < key.size(); ++j)
    if (key[j] < '0' || key[j] > '9') return std::nullopt;
  return std::stoi(key);
}

// A pmf as a document holds it: an array from 0, or an object keyed by integers.
bool is_pmf(const json& v) {
  if (v.is_array()) {
    for (const auto& p : v)
      if (!p.is_number() && !p.is_string()) return false;
    return !v.empty();
  }
  if (!v.is_object() || v.empty()) return false;
  for (auto it = v.begin(); it != v.end(); ++it)
    if (!integer_key(it.key()) || (!it.value().is_number() && !it.value().is_string())) return false;
  return true;
}

// A whole number as the document writes it: through a machine integer when it fits (the string
// constructor of a big integer costs far more), else digit by digit.
big_integer whole(std::string_view text) {
  long long value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error == std::errc() && end == text.data() + text.size()) return big_integer(value);
  return big_integer(std::string(text));
}

rational fraction(const json& v) {
  const std::string& text = v.get_ref<const std::string&>();
  const std::size_t slash = text.find('/');
  const std::string_view all(text);
  if (slash == std::string::npos) return rational(whole(all));
  return rational(whole(all.substr(0, slash)), whole(all.substr(slash + 1)));
}

template <class P>
basic_pmf<P> read_pmf(const json& v, int first) {
  auto d = basic_pmf<P>::empty();
  auto mass = [](const json& p) {
    if constexpr (std::is_same_v<P, rational>)
      return fraction(p);
    else
      return p.template get<double>();
  };
  if (v.is_array()) {
    d.cover(first, first + static_cast<int>(v.size()) - 1);
    for (std::size_t i = 0; i < v.size(); ++i) d.add_mass(first + static_cast<int>(i), mass(v[i]));
  } else {
    for (auto it = v.begin(); it != v.end(); ++it) d.add_mass(*integer_key(it.key()), mass(it.value()));
  }
  return d;
}

// A pmf's shape as the document holds it: an array from `first`, or an object keyed by the
// values listed (read once, so the document can be rebuilt while its stats are written).
struct pmf_shape {
  bool array = true;
  std::vector<int> values;
};

pmf_shape shape_of(const json& v, int first) {
  pmf_shape shape;
  shape.array = v.is_array();
  shape.values.reserve(v.size());
  if (shape.array)
    for (std::size_t i = 0; i < v.size(); ++i) shape.values.push_back(first + static_cast<int>(i));
  else
    for (auto it = v.begin(); it != v.end(); ++it) shape.values.push_back(*integer_key(it.key()));
  return shape;
}

// at_least / at_most shaped like the pmf: the array's indices, or the object's keys.
template <class P, class Write>
json cumulative(const pmf_shape& shape, const basic_distribution_stats<P>& s, const std::vector<P>& values,
                Write write) {
  auto at = [&](int v) { return write(values[static_cast<std::size_t>(v - s.lowest)]); };
  json out = shape.array ? json::array() : json::object();
  if (shape.array) {
    out.get_ref<json::array_t&>().reserve(shape.values.size());
    for (int v : shape.values) out.push_back(at(v));
  } else {
    for (int v : shape.values) out[std::to_string(v)] = at(v);
  }
  return out;
}

template <class P>
json stats_json(const pmf_shape& shape, const basic_distribution_stats<P>& s) {
  auto as_double = [](const P& p) { return to_double(p); };
  return json{{"mean", to_double(s.mean)},
              {"sd", standard_deviation(s)},
              {"median", s.median},
              {"p05", s.p05},
              {"p95", s.p95},
              {"min", s.min},
              {"max", s.max},
              {"at_least", cumulative(shape, s, s.at_least, as_double)},
              {"at_most", cumulative(shape, s, s.at_most, as_double)}};
}

json exact_stats_json(const pmf_shape& shape, const distribution_stats& s) {
  auto as_text = [](const rational& p) { return to_fraction_string(p); };
  return json{{"mean", to_fraction_string(s.mean)},
              {"variance", to_fraction_string(s.variance)},
              {"at_least", cumulative(shape, s, s.at_least, as_text)},
              {"at_most", cumulative(shape, s, s.at_most, as_text)}};
}

// doc[key] = value, a new key going just before the first of `anchors` the document has (so the
// results come first, then stats, then intervals, then exact and notes).
json& place(json& doc, const std::string& key, const std::vector<std::string>& anchors) {
  if (doc.contains(key)) return doc[key];
  std::string anchor;
  for (const auto& a : anchors)
    if (doc.contains(a)) {
      anchor = a;
      break;
    }
  if (anchor.empty()) return doc[key] = json::object();
  json rebuilt = json::object();
  for (auto it = doc.begin(); it != doc.end(); ++it) {
    if (it.key() == anchor) rebuilt[key] = json::object();
    rebuilt[it.key()] = std::move(it.value());
  }
  doc = std::move(rebuilt);
  return doc[key];
}

const std::vector<std::string> stats_anchors{"intervals", "exact", "dice", "notes"};
const std::vector<std::string> interval_anchors{"exact", "dice", "notes"};

json wilson(double p, const simulation_basis& sim) {
  const double n = static_cast<double>(sim.trials);
  const auto successes = static_cast<std::uint64_t>(std::llround(std::clamp(p, 0.0, 1.0) * n));
  const auto ci = wilson_interval(successes, sim.trials, sim.level);
  return interval_json(ci.lower, ci.upper, sim.level);
}

void add_intervals_at(json& doc, const std::string& path, const json& value, const simulation_basis& sim) {
  if (value.is_number()) {
    set_interval(doc, path, wilson(value.get<double>(), sim));
  } else if (is_pmf(value)) {
    json low = value.is_array() ? json::array() : json::object(), high = low;
    auto add = [&](const std::string& key, const json& p) {
      const json ci = wilson(p.get<double>(), sim);
      if (value.is_array()) {
        low.push_back(ci.at("low"));
        high.push_back(ci.at("high"));
      } else {
        low[key] = ci.at("low");
        high[key] = ci.at("high");
      }
    };
    for (auto it = value.begin(); it != value.end(); ++it) add(value.is_array() ? "" : it.key(), it.value());
    set_interval(doc, path, json{{"low", low}, {"high", high}, {"level", sim.level}});
  } else if (value.is_object()) {
    for (auto it = value.begin(); it != value.end(); ++it)
      if (it.value().is_number_float() || it.value().is_structured())
        add_intervals_at(doc, path + "." + it.key(), it.value(), sim);
  }
}

}  // namespace

const json* find_path(const json& doc, const std::string& path) {
  const json* at = &doc;
  for (const auto& part : split_path(path)) {
    if (at->is_object()) {
      if (!at->contains(part)) return nullptr;
      at = &at->at(part);
    } else if (at->is_array()) {
      const auto index = integer_key(part);
      if (!index || *index < 0 || static_cast<std::size_t>(*index) >= at->size()) return nullptr;
      at = &at->at(static_cast<std::size_t>(*index));
    } else {
      return nullptr;
    }
  }
  return at;
}

json interval_json(double low, double high, double level) {
  return json{{"low", low}, {"high", high}, {"level", level}};
}

void set_interval(json& doc, const std::string& path, json interval) {
  place(doc, "intervals", interval_anchors)[path] = std::move(interval);
}

namespace {

// stats.<path> and exact.stats.<path> of an exact distribution.
void put_exact_stats(json& doc, const std::string& path, const pmf_shape& shape, const distribution_stats& s) {
  json exact_stats = exact_stats_json(shape, s);
  place(doc, "stats", stats_anchors)[path] = stats_json(shape, s);
  doc["exact"]["stats"][path] = std::move(exact_stats);
}

// The document's distribution at `path`, checked; nullptr when it lists nothing (no mass).
const json* distribution_at(const json& doc, const std::string& path) {
  const json* found = find_path(doc, path);
  if (found && found->is_structured() && found->empty()) return nullptr;  // nothing listed: nothing to describe
  if (!found || !is_pmf(*found)) throw std::logic_error("no distribution at " + path);
  return found;
}

}  // namespace

void add_distribution_stats(json& doc, const std::vector<distribution_path>& paths,
                            const simulation_basis* simulation) {
  for (const auto& [path, first] : paths) {
    const json* found = distribution_at(doc, path);
    if (!found) continue;
    const pmf_shape shape = shape_of(*found, first);
    const json* exact = doc.contains("exact") ? find_path(doc.at("exact"), path) : nullptr;
    try {
      if (exact && is_pmf(*exact) && exact->begin()->is_string()) {
        put_exact_stats(doc, path, shape, describe(read_pmf<rational>(*exact, first)));
      } else {
        const distribution_stats_double s = describe(read_pmf<double>(*found, first));
        place(doc, "stats", stats_anchors)[path] = stats_json(shape, s);
        if (simulation && simulation->trials > 0) {
          const auto ci = mean_interval(s.mean, standard_deviation(s), static_cast<double>(simulation->trials) * s.mass,
                                        simulation->level);
          set_interval(doc, "stats." + path + ".mean", interval_json(ci.lower, ci.upper, simulation->level));
        }
      }
    } catch (const std::domain_error&) {
      // No mass: nothing to describe (a step no run reached).
    }
  }
}

void add_exact_distribution_stats(json& doc, const std::vector<exact_distribution>& laws) {
  for (const auto& [path, law] : laws) {
    const json* found = distribution_at(doc, path.path);
    if (!found || !law) continue;
    const pmf_shape shape = shape_of(*found, path.first_value);
    try {
      put_exact_stats(doc, path.path, shape, describe(*law));
    } catch (const std::domain_error&) {
      // No mass: nothing to describe.
    }
  }
}

void add_probability_intervals(json& doc, const std::vector<std::string>& paths, const simulation_basis& simulation) {
  for (const auto& path : paths) {
    const json* value = find_path(doc, path);
    if (!value) throw std::logic_error("no estimate at " + path);
    const json copy = *value;  // set_interval may rebuild the document
    add_intervals_at(doc, path, copy, simulation);
  }
}

}  // namespace musket::cli
