#include "cli/sweep_chart.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <set>
#include <type_traits>

#include "cli/result_labels.hpp"
#include "core/invalid_input.hpp"
#include "core/printable.hpp"

namespace musket::cli {

// The same alias as cli/report.hpp's: the documents commands print (a unity build puts both in one
// file).
using json = nlohmann::ordered_json;

namespace {

chart::axis_value axis_value_of(const json& v) {
  if (v.is_number()) return v.get<double>();
  if (v.is_string()) return v.get<std::string>();
  return v.dump();
}

std::optional<double> number_of(const json& row, const char* key) {
  const auto it = row.find(key);
  if (it == row.end() || !it->is_number()) return std::nullopt;
  return it->get<double>();
}

// The metric is a probability: every value it takes lies in 0..1 and its name names no number
// (cli/result_labels.hpp).
bool is_probability(const json& points, const std::string& metric) {
  if (names_a_number(metric)) return false;
  bool any = false;
  for (const auto& row : points) {
    if (row.value("metric", "") != metric) continue;
    const auto v = number_of(row, "value");
    if (!v) continue;
    if (*v < 0 || *v > 1) return false;
    any = true;
  }
  return any;
}

std::string metric_label(const chart_words& words, const std::string& key, bool probability) {
  const auto it = words.labels.find(key);
  return it != words.labels.end() ? it->second : result_label(key, probability);
}

std::string parameter_label(const chart_words& words, const std::string& name) {
  const auto it = words.labels.find(name);
  return it != words.labels.end() ? it->second : option_label(name);
}

// --subtitle, else the fixed inputs by their labels: "musket nt sweep campaign; File
// examples/nt-campaign.json, Defender War 2" ("; all other options at their defaults" when none).
std::string subtitle_of(const json& doc, const chart_words& words) {
  if (words.subtitle) return *words.subtitle;
  const json& inputs = doc.at("inputs");
  std::string fixed;
  if (const auto it = inputs.find("fixed"); it != inputs.end() && it->is_object())
    for (auto f = it->begin(); f != it->end(); ++f)
      fixed += (fixed.empty() ? "" : ", ") + parameter_label(words, f.key()) +
               (f.value().is_string() ? " " + f.value().get<std::string>() : "");
  return "musket " + doc.value("game", std::string()) + " sweep " + inputs.value("command", std::string()) + "; " +
         (fixed.empty() ? std::string("all other options at their defaults") : fixed);
}

std::vector<std::string> metrics_of(const json& doc) {
  std::vector<std::string> out;
  for (const auto& m : doc.at("inputs").at("metric")) out.push_back(m.get<std::string>());
  return out;
}

// Each metric's label and whether it is a probability; the parameters' " by A and B".
struct sweep_words {
  std::vector<std::string> metric_labels;
  std::vector<bool> probability;
  std::string by;
};

sweep_words words_of_sweep(const json& doc, const chart_words& words) {
  sweep_words w;
  const json& points = doc.at("points");
  for (const auto& m : metrics_of(doc)) {
    w.probability.push_back(is_probability(points, m));
    w.metric_labels.push_back(metric_label(words, m, w.probability.back()));
  }
  const auto parameters = sweep_parameters(doc);
  for (std::size_t a = 0; a < parameters.size(); ++a)
    w.by += (a == 0 ? " by " : " and ") + parameter_label(words, parameters[a]);
  return w;
}

// "P(defender dislodged) by Attacker War", "3 results by ...": the labels of up to three metrics.
std::string default_title(const sweep_words& w) {
  std::string joined;
  for (const auto& l : w.metric_labels) joined += (joined.empty() ? "" : ", ") + l;
  return (w.metric_labels.size() <= 3 ? joined : std::to_string(w.metric_labels.size()) + " results") + w.by;
}

}  // namespace

std::string sweep_title(const json& doc, const chart_words& words) {
  return words.title ? *words.title : default_title(words_of_sweep(doc, words));
}

json sweep_labels(const json& doc, const chart_words& words) {
  json labels = json::object();
  for (const auto& p : sweep_parameters(doc)) labels[p] = parameter_label(words, p);
  const auto metrics = metrics_of(doc);
  const sweep_words w = words_of_sweep(doc, words);
  for (std::size_t k = 0; k < metrics.size(); ++k) labels[metrics[k]] = w.metric_labels[k];
  return labels;
}

chart_words parse_chart_words(const std::vector<std::string>& label_texts, const std::optional<std::string>& title) {
  // Checked once, here: the text goes into the chart, its SVG and the table's title.
  if (title) require_plain_text(*title, "title");
  chart_words words;
  words.title = title;
  words.labels = parse_label_overrides(label_texts, "label");
  for (const auto& [key, text] : words.labels) {
    require_plain_text(key, "label");
    require_plain_text(text, "label");
  }
  return words;
}

void check_label_keys(const chart_words& words, const std::vector<std::string>& metrics,
                      const std::vector<std::string>& parameters) {
  for (const auto& [key, text] : words.labels)
    if (std::find(metrics.begin(), metrics.end(), key) == metrics.end() &&
        std::find(parameters.begin(), parameters.end(), key) == parameters.end()) {
      std::string known;
      for (const auto& k : metrics) known += (known.empty() ? "" : ", ") + k;
      for (const auto& k : parameters) known += (known.empty() ? "" : ", ") + k;
      throw invalid_input("label",
                          "'" + key + "' is neither a metric nor a varied parameter of this sweep; allowed: " + known);
    }
}

std::vector<std::string> sweep_parameters(const json& doc) {
  std::vector<std::string> out;
  for (const auto& v : doc.at("inputs").at("vary")) {
    const std::string text = v.get<std::string>();
    out.push_back(text.substr(0, text.find('=')));
  }
  return out;
}

chart::chart chart_from_sweep(const json& doc, const chart_words& words) {
  const auto parameters = sweep_parameters(doc);
  const auto metrics = metrics_of(doc);
  const json& points = doc.at("points");
  std::optional<double> level;
  for (const auto& row : points)
    if (!level) level = number_of(row, "level");
  const sweep_words w = words_of_sweep(doc, words);
  const auto& metric_labels = w.metric_labels;
  const auto& probability = w.probability;
  const std::string title = words.title ? *words.title : default_title(w);

  // --lines: a line per value of the second parameter (per metric), in the order the sweep ran them.
  if (parameters.size() == 2 && words.lines) {
    chart::line_chart c;
    c.subtitle = subtitle_of(doc, words);
    c.x_label = parameter_label(words, parameters[0]);
    c.y_is_probability = std::all_of(probability.begin(), probability.end(), [](bool p) { return p; });
    c.full_scale = words.full_scale;
    c.interval_level = level;
    std::string joined;
    for (const auto& l : metric_labels) joined += (joined.empty() ? "" : ", ") + l;
    c.y_label = metrics.size() == 1 ? metric_labels[0] : c.y_is_probability ? "Probability" : joined;
    c.title = title;
    const std::string second = parameter_label(words, parameters[1]);
    for (std::size_t k = 0; k < metrics.size(); ++k) {
      std::vector<std::string> values;  // the second parameter's values, as the JSON spells them
      for (const auto& row : points)
        if (row.value("metric", "") == metrics[k] &&
            std::find(values.begin(), values.end(), row.at(parameters[1]).dump()) == values.end())
          values.push_back(row.at(parameters[1]).dump());
      for (const auto& value : values) {
        const std::string shown = std::visit(
            [](const auto& v) -> std::string {
              if constexpr (std::is_same_v<std::decay_t<decltype(v)>, double>)
                return fmt::format("{:g}", v);
              else
                return v;
            },
            axis_value_of(json::parse(value)));
        chart::series s{(metrics.size() == 1 ? "" : metric_labels[k] + ", ") + second + " " + shown, {}};
        for (const auto& row : points)
          if (row.value("metric", "") == metrics[k] && row.at(parameters[1]).dump() == value)
            s.points.push_back(chart::point{axis_value_of(row.at(parameters[0])), number_of(row, "value"),
                                            number_of(row, "low"), number_of(row, "high")});
        c.lines.push_back(std::move(s));
      }
    }
    return c;
  }

  if (parameters.size() == 1) {
    chart::line_chart c;
    c.full_scale = words.full_scale;
    c.subtitle = subtitle_of(doc, words);
    c.x_label = parameter_label(words, parameters[0]);
    c.y_is_probability = std::all_of(probability.begin(), probability.end(), [](bool p) { return p; });
    c.interval_level = level;
    std::string joined;
    for (const auto& l : metric_labels) joined += (joined.empty() ? "" : ", ") + l;
    c.y_label = metrics.size() == 1 ? metric_labels[0] : c.y_is_probability ? "Probability" : joined;
    c.title = title;
    for (std::size_t k = 0; k < metrics.size(); ++k) {
      chart::series s{metric_labels[k], {}};
      for (const auto& row : points) {
        if (row.value("metric", "") != metrics[k]) continue;
        s.points.push_back(chart::point{axis_value_of(row.at(parameters[0])), number_of(row, "value"),
                                        number_of(row, "low"), number_of(row, "high")});
      }
      c.lines.push_back(std::move(s));
    }
    return c;
  }

  // Two parameters: a heat map per metric (one panel each, in --metric order), values in the
  // order the sweep ran them.
  auto index_of = [](std::vector<chart::axis_value>& values, const chart::axis_value& v) {
    const auto it = std::find(values.begin(), values.end(), v);
    if (it != values.end()) return static_cast<std::size_t>(it - values.begin());
    values.push_back(v);
    return values.size() - 1;
  };
  std::vector<chart::heat_map> panels;
  for (std::size_t k = 0; k < metrics.size(); ++k) {
    chart::heat_map h;
    h.subtitle = subtitle_of(doc, words);
    h.x_label = parameter_label(words, parameters[0]);
    h.y_label = parameter_label(words, parameters[1]);
    h.value_label = metric_labels[k];
    h.value_is_probability = probability[k];
    h.full_scale = words.full_scale;
    h.interval_level = level;
    h.title = metrics.size() == 1 ? title : metric_labels[k];
    struct cell {
      std::size_t i, j;
      std::optional<double> value;
    };
    std::vector<cell> cells;
    for (const auto& row : points) {
      if (row.value("metric", "") != metrics[k]) continue;
      const std::size_t i = index_of(h.xs, axis_value_of(row.at(parameters[0])));
      const std::size_t j = index_of(h.ys, axis_value_of(row.at(parameters[1])));
      cells.push_back(cell{i, j, number_of(row, "value")});
      const auto low = number_of(row, "low"), high = number_of(row, "high");
      if (low && high) h.interval_width = std::max(h.interval_width.value_or(0.0), *high - *low);
    }
    h.cells.assign(h.xs.size(), std::vector<std::optional<double>>(h.ys.size()));
    for (const auto& c : cells) h.cells[c.i][c.j] = c.value;
    panels.push_back(std::move(h));
  }
  if (panels.size() == 1) return panels[0];
  return chart::heat_maps{title, subtitle_of(doc, words), std::move(panels)};
}

}  // namespace musket::cli
