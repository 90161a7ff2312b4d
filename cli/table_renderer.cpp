#include "cli/table_renderer.hpp"

#include <fmt/format.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "cli/number_text.hpp"
#include "cli/report.hpp"
#include "cli/result_labels.hpp"

namespace musket::cli {

namespace {

constexpr int bar_width = 30;

bool is_fraction_of_one(const json& v) {
  return v.is_number() && v.get<double>() >= 0.0 && v.get<double>() <= 1.0;
}

// A probability: a non-integer number in [0, 1] under a key that does not name a number
// (cli/result_labels.hpp).
bool is_probability(const std::string& key, const json& v) {
  return is_fraction_of_one(v) && !v.is_number_integer() && !names_a_number(key);
}

bool is_scalar(const json& v) {
  return !v.is_structured();
}

std::string label(const std::string& key) {
  std::string out = key;
  std::replace(out.begin(), out.end(), '_', ' ');
  return out;
}

std::string bar(double p) {
  const int n = static_cast<int>(p * bar_width + 0.5);
  return std::string(static_cast<std::size_t>(std::clamp(n, 0, bar_width)), '#');
}

std::string join_path(const std::string& path, const std::string& key) {
  return path.empty() ? key : path + "." + key;
}

// An entry of a node shaped like a distribution: by position in an array, by key in an object.
const json* entry(const json* node, const std::string& key, std::size_t position) {
  if (node && node->is_array()) return element_of(node, position);
  return child_of(node, key);
}

// `root` keyed by a dotted path ("steps.2.attempts"), or nested along it.
const json* at_path(const json* root, const std::string& path) {
  if (!root || !root->is_object()) return nullptr;
  if (root->contains(path)) return &root->at(path);
  const json* node = root;
  for (std::size_t start = 0; node;) {
    const auto dot = path.find('.', start);
    const std::string part = path.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
    if (node->is_object())
      node = child_of(node, part);
    else if (node->is_array() && !part.empty() && part.find_first_not_of("0123456789") == std::string::npos)
      node = element_of(node, std::stoul(part));
    else
      node = nullptr;
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
  return node;
}

std::string scalar_text(const json& v) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_boolean()) return v.get<bool>() ? "yes" : "no";
  if (v.is_number_integer()) return v.dump();
  if (v.is_number()) return plain_number(v.get<double>());
  if (v.is_null()) return "unknown";
  return "";
}

// A null value by its key: the key's own word ("no fort"), else "unknown".
std::string null_text(const std::string& key) {
  const std::string word = null_meaning(key);
  return word.empty() ? "unknown" : word;
}

// A keyed scalar: a null by what it means for that key.
std::string scalar_text(const std::string& key, const json& v) {
  return v.is_null() ? null_text(key) : scalar_text(v);
}

// An interval is {low, high[, level]} (simulation) or, in older documents, a [low, high] pair.
std::optional<std::pair<double, double>> interval_bounds(const json* node) {
  if (!node) return std::nullopt;
  if (node->is_object() && node->contains("low") && node->contains("high") && node->at("low").is_number() &&
      node->at("high").is_number())
    return std::make_pair(node->at("low").get<double>(), node->at("high").get<double>());
  if (node->is_array() && node->size() == 2 && (*node)[0].is_number() && (*node)[1].is_number())
    return std::make_pair((*node)[0].get<double>(), (*node)[1].get<double>());
  return std::nullopt;
}

// Whether a map holds maps or lists (a map of maps: an advice case's `when`).
bool holds_structure(const json& v) {
  return v.is_object() && std::any_of(v.begin(), v.end(), [](const json& x) { return x.is_structured(); });
}

// A value a cell can hold on one line: a scalar, a list of scalars, or a map of such (at any depth).
bool flat_leaves(const json& v) {
  if (v.is_array()) return std::all_of(v.begin(), v.end(), is_scalar);
  if (v.is_object()) return std::all_of(v.begin(), v.end(), flat_leaves);
  return true;
}

std::string compact_text(const std::string& key, const json& v);

// A map of maps' non-empty leaves by their path, "hits attacker: 11th 1; failed: NYMil", appended to
// `text`; a leaf that is an empty list or a map of counts all zero is left out.
void path_leaves(const std::string& path, const std::string& key, const json& v, std::string& text) {
  if (holds_structure(v)) {
    for (auto x = v.begin(); x != v.end(); ++x)
      path_leaves(path.empty() ? label(x.key()) : path + " " + label(x.key()), x.key(), x.value(), text);
    return;
  }
  if (v.is_structured() && v.empty()) return;
  const std::string leaf = compact_text(key, v);
  if (leaf == "none") return;
  text += (text.empty() ? "" : "; ") + path + ": " + leaf;
}

// A record's field as its table cell shows it: a list of scalars space-separated, a flat map as
// "sc-militia 2, swamp-fox 1". A map of counts leaves out its zeros ("21st 1" for a hit
// allocation over five units), "none" where all are. A map of maps by its leaves' paths
// (path_leaves), "none" where every leaf is empty.
std::string compact_text(const std::string& key, const json& v) {
  std::string text;
  if (holds_structure(v)) {
    path_leaves("", key, v, text);
    if (text.empty()) text = "none";
  } else if (v.is_array()) {
    for (const auto& x : v) text += (text.empty() ? "" : " ") + scalar_text(x);
  } else if (v.is_object()) {
    const bool counts = !v.empty() && std::all_of(v.begin(), v.end(), [](const json& x) {
      return x.is_number_integer() && x.get<long long>() >= 0;
    });
    for (auto x = v.begin(); x != v.end(); ++x) {
      if (counts && x.value().get<long long>() == 0) continue;
      text += (text.empty() ? "" : ", ") + label(x.key()) + " " +
              (is_probability(x.key(), x.value()) ? percent_cell(x.value().get<double>())
                                                  : scalar_text(x.key(), x.value()));
    }
    if (counts && text.empty()) text = "none";
  } else
    text = is_probability(key, v) ? percent_cell(v.get<double>()) : scalar_text(key, v);
  return text;
}

// Whether a record's field fits in its cell: a scalar, a flat list or map of up to 72 characters (a
// cell wraps between its items: five units' hits, 49, stay in their row rather than a unit a line
// under the table), or a short map of such (read by its leaves' paths); anything bigger is drawn
// under the table.
bool inline_cell(const std::string& key, const json& v) {
  constexpr std::size_t inline_width = 72, inline_paths_width = 60;
  if (is_scalar(v)) return true;
  if (holds_structure(v)) return flat_leaves(v) && compact_text(key, v).size() <= inline_paths_width;
  return std::all_of(v.begin(), v.end(), is_scalar) && compact_text(key, v).size() <= inline_width;
}

bool whole_number_text(const std::string& key) {
  const std::size_t start = !key.empty() && key[0] == '-' ? 1 : 0;
  return key.size() > start && key.find_first_not_of("0123456789", start) == std::string::npos;
}

// The metric a long-format row ({"metric": KEY, "value": v, ...}) reports, or "".
std::string long_row_metric(const json& row) {
  if (!row.is_object() || !row.contains("value")) return "";
  const auto it = row.find("metric");
  return it != row.end() && it->is_string() ? it->get<std::string>() : "";
}

// The metrics of long-format rows whose values are probabilities: every value a fraction in [0, 1]
// (a whole number is a count), and a key that names no mean (cli/result_labels.hpp), as the sweep's chart reads them.
std::set<std::string> long_row_probabilities(const json& rows) {
  std::map<std::string, bool> probability;
  for (const auto& row : rows) {
    const std::string metric = long_row_metric(row);
    if (metric.empty()) continue;
    auto [it, fresh] = probability.emplace(metric, !names_a_number(metric));
    const json& v = row.at("value");
    if (v.is_number_integer() || (v.is_number() && !is_fraction_of_one(v))) it->second = false;  // a count
  }
  std::set<std::string> out;
  for (const auto& [metric, p] : probability)
    if (p) out.insert(metric);
  return out;
}

// A probability known only as a range: {"min": p, "max": q}.
bool is_range(const std::string& key, const json& v) {
  return v.is_object() && v.size() == 2 && v.contains("min") && v.contains("max") && is_fraction_of_one(v.at("min")) &&
         is_fraction_of_one(v.at("max")) && !names_a_number(key);
}

// "33.3% to 50.0%", or one percentage when both ends agree.
std::string range_text(double low, double high) {
  return low == high ? percent_cell(low) : percent(low) + " to " + percent(high);
}

struct cell {
  std::string text;
  bool right = false;
  double bar = -1.0;   // a bar of this probability, drawn to the column's width (text unused)
  bool items = false;  // a map's "name value, name value": wrapped between its items
};

// Columns a text takes on a terminal: one per UTF-8 code point.
std::size_t display_width(const std::string& text) {
  return static_cast<std::size_t>(
      std::count_if(text.begin(), text.end(), [](char ch) { return (static_cast<unsigned char>(ch) & 0xC0) != 0x80; }));
}

// `text` cut into lines at spaces, the first at most `first` columns, the others at most `rest`;
// a word longer than a line is cut where the line ends (never inside a UTF-8 sequence). Runs of
// spaces between words become one.
std::vector<std::string> wrap_text(const std::string& text, std::size_t first, std::size_t rest) {
  first = std::max<std::size_t>(first, 1);
  rest = std::max<std::size_t>(rest, 1);
  std::vector<std::string> lines;
  std::string line;
  auto room = [&] { return lines.empty() ? first : rest; };
  std::size_t at = 0;
  while (at < text.size()) {
    const std::size_t space = text.find(' ', at);
    std::string word = text.substr(at, space == std::string::npos ? std::string::npos : space - at);
    at = space == std::string::npos ? text.size() : space + 1;
    if (word.empty()) continue;
    if (!line.empty() && display_width(line) + 1 + display_width(word) <= room()) {
      line += " " + word;
      continue;
    }
    if (!line.empty()) lines.push_back(line);
    line.clear();
    while (display_width(word) > room()) {  // a word wider than the line: cut it
      std::size_t cut = 0;
      for (std::size_t n = 0, limit = room(); cut < word.size() && n < limit; ++n) {
        ++cut;  // past one character: its first byte and its continuation bytes
        while (cut < word.size() && (static_cast<unsigned char>(word[cut]) & 0xC0) == 0x80) ++cut;
      }
      lines.push_back(word.substr(0, cut));
      word.erase(0, cut);
    }
    line = word;
  }
  if (!line.empty() || lines.empty()) lines.push_back(line);
  return lines;
}

std::vector<std::string> wrap_text(const std::string& text, std::size_t width) {
  return wrap_text(text, width, width);
}

// A map's cell ("11th 1, 21st 2, NYMil 1") cut into lines between its items, each line but the
// last ending at its comma, so that no name is parted from its value; an item wider than a line
// is cut as wrap_text cuts it.
std::vector<std::string> wrap_items(const std::string& text, std::size_t width) {
  std::vector<std::string> lines;
  std::string line;
  for (std::size_t at = 0; at < text.size();) {
    const std::size_t comma = text.find(", ", at);
    std::string item = text.substr(at, comma == std::string::npos ? std::string::npos : comma - at + 1);
    at = comma == std::string::npos ? text.size() : comma + 2;
    if (!line.empty() && display_width(line) + 1 + display_width(item) <= width) {
      line += " " + item;
      continue;
    }
    if (!line.empty()) lines.push_back(line);
    std::vector<std::string> cut = wrap_text(item, width);
    line = cut.back();
    cut.pop_back();
    lines.insert(lines.end(), cut.begin(), cut.end());
  }
  if (!line.empty() || lines.empty()) lines.push_back(line);
  return lines;
}

// `text` padded with spaces to `width` columns, on the left (right-aligned) or the right.
std::string padded(const std::string& text, std::size_t width, bool right) {
  const std::size_t n = display_width(text);
  const std::string fill(width > n ? width - n : 0, ' ');
  return right ? fill + text : text + fill;
}

// A line longer than `width` wrapped at spaces, each further line indented two past its own.
std::string fitted_line(const std::string& line, std::size_t width) {
  if (display_width(line) <= width) return line + "\n";
  const std::size_t indent = std::min(line.find_first_not_of(' '), width / 2);
  const auto lines = wrap_text(line.substr(std::min(indent, line.size())), width - indent, width - indent - 2);
  std::string out;
  for (std::size_t i = 0; i < lines.size(); ++i) out += std::string(indent + (i ? 2 : 0), ' ') + lines[i] + "\n";
  return out;
}

// Every line of `text` fitted to `width` (the last resort for lines nothing else shaped).
std::string fitted(const std::string& text, std::size_t width) {
  std::string out;
  for (std::size_t at = 0; at < text.size();) {
    const std::size_t end = text.find('\n', at);
    out += fitted_line(text.substr(at, end == std::string::npos ? std::string::npos : end - at), width);
    at = end == std::string::npos ? text.size() : end + 1;
  }
  return out;
}

// A table too wide for the terminal as records: one block per row, a "column  value" line per
// non-empty cell (the header names the columns), the value wrapped beside its name.
void print_records(std::string& out, const std::string& indent, const std::vector<std::vector<cell>>& rows,
                   std::size_t width) {
  const auto& header = rows.front();
  std::size_t key_width = 0;
  for (const auto& h : header) key_width = std::max(key_width, display_width(h.text));
  const std::size_t value_width =
      std::max<std::size_t>(width > indent.size() + key_width + 2 ? width - indent.size() - key_width - 2 : 0, 20);
  for (std::size_t r = 1; r < rows.size(); ++r) {
    if (r > 1) out += "\n";
    for (std::size_t c = 0; c < rows[r].size(); ++c) {
      const cell& v = rows[r][c];
      if (v.bar >= 0.0 || v.text.empty()) continue;
      const std::string key = c < header.size() ? header[c].text : "";
      const auto lines = wrap_text(v.text, value_width);
      for (std::size_t l = 0; l < lines.size(); ++l) {
        std::string line = indent + padded(l ? "" : key, key_width, false) + "  " + lines[l];
        while (!line.empty() && line.back() == ' ') line.pop_back();
        out += line + "\n";
      }
    }
  }
}

// Rows of cells printed as aligned columns (the last column left unpadded), within `width`
// columns: bars shortened, then text columns wrapped (widest first, none below a readable
// width); a table with a header row that still does not fit, or whose rows would wrap past a
// few lines, is folded into records (print_records). A column empty in every row, its header
// aside (no fraction for a simulated distribution, no exception to an advice), is left out.
void print_grid(std::string& out, const std::string& indent, std::vector<std::vector<cell>> rows,
                std::size_t width = std::numeric_limits<std::size_t>::max(), bool header = false) {
  std::size_t columns = 0;
  for (const auto& row : rows) columns = std::max(columns, row.size());
  for (std::size_t c = columns; c-- > 0;) {
    bool empty = true;
    for (std::size_t r = header && rows.size() > 1 ? 1 : 0; r < rows.size(); ++r)
      empty = empty && (c >= rows[r].size() || (rows[r][c].text.empty() && rows[r][c].bar < 0.0));
    if (empty)
      for (auto& row : rows)
        if (c < row.size()) row.erase(row.begin() + static_cast<std::ptrdiff_t>(c));
  }
  columns = 0;
  for (const auto& row : rows) columns = std::max(columns, row.size());
  if (columns == 0) return;
  std::vector<std::size_t> natural(columns, 0);
  std::vector<bool> bars(columns, false), wrappable(columns, false);
  // A column wraps when it holds words: text on the left, or a header over numbers.
  for (std::size_t r = 0; r < rows.size(); ++r)
    for (std::size_t c = 0; c < rows[r].size(); ++c) {
      const cell& x = rows[r][c];
      if (x.bar >= 0.0) {
        bars[c] = true;
        natural[c] = std::max(natural[c], bar(x.bar).size());
      } else {
        natural[c] = std::max(natural[c], display_width(x.text));
        wrappable[c] = wrappable[c] || ((!x.right || (header && r == 0)) && x.text.find(' ') != std::string::npos);
      }
    }
  // A column of bars is as wide as its longest bar, at the full scale.
  std::vector<std::size_t> w = natural;
  const std::size_t room = width > indent.size() ? width - indent.size() : 0;
  auto need = [&] {
    std::size_t n = 2 * (columns - 1);
    for (const auto x : w) n += x;
    return n;
  };
  constexpr std::size_t shortest_bar = 10, narrowest_wrap = 16;
  std::size_t bar_scale = bar_width;
  for (std::size_t c = 0; c < columns; ++c)
    if (bars[c] && need() > room && w[c] > shortest_bar) {
      const std::size_t cut = std::min(w[c] - shortest_bar, need() - room);
      bar_scale = bar_width * (w[c] - cut) / std::max<std::size_t>(w[c], 1);
      w[c] -= cut;
    }
  while (need() > room) {  // narrow the widest wrappable column by one
    std::size_t widest = columns;
    for (std::size_t c = 0; c < columns; ++c)
      if (wrappable[c] && w[c] > std::min(natural[c], narrowest_wrap) && (widest == columns || w[c] > w[widest]))
        widest = c;
    if (widest == columns) break;
    --w[widest];
  }
  std::vector<std::vector<std::vector<std::string>>> lines(rows.size());
  std::size_t tallest = 1;
  for (std::size_t r = 0; r < rows.size(); ++r)
    for (std::size_t c = 0; c < rows[r].size(); ++c) {
      const cell& x = rows[r][c];
      if (x.bar >= 0.0) {
        const int n = static_cast<int>(x.bar * static_cast<double>(bar_scale) + 0.5);
        lines[r].push_back({std::string(static_cast<std::size_t>(std::clamp(n, 0, static_cast<int>(w[c]))), '#')});
      } else {
        lines[r].push_back(display_width(x.text) <= w[c] ? std::vector<std::string>{x.text}
                           : x.items                     ? wrap_items(x.text, w[c])
                                                         : wrap_text(x.text, w[c]));
      }
      tallest = std::max(tallest, lines[r].back().size());
    }
  // A wrapped column is as wide as its longest line.
  for (std::size_t c = 0; c < columns; ++c)
    if (!bars[c] && w[c] < natural[c]) {
      std::size_t longest = 0;
      for (const auto& row : lines)
        if (c < row.size())
          for (const auto& l : row[c]) longest = std::max(longest, display_width(l));
      w[c] = longest;
    }
  constexpr std::size_t tallest_wrapped_row = 3, few_columns = 4;
  if (header && rows.size() > 1 && (need() > room || (tallest > tallest_wrapped_row && columns > few_columns)))
    return print_records(out, indent, rows, width);
  for (std::size_t r = 0; r < rows.size(); ++r) {
    std::size_t height = 0;
    for (const auto& l : lines[r]) height = std::max(height, l.size());
    for (std::size_t h = 0; h < height; ++h) {
      std::string line = indent;
      for (std::size_t c = 0; c < rows[r].size(); ++c) {
        if (c) line += "  ";
        const std::string text = h < lines[r][c].size() ? lines[r][c][h] : "";
        const bool last = c + 1 == rows[r].size();
        line += last && !rows[r][c].right ? text : padded(text, w[c], rows[r][c].right);
      }
      while (!line.empty() && line.back() == ' ') line.pop_back();
      out += line + "\n";
    }
  }
}

class table_writer {
 public:
  table_writer(const json& doc, std::size_t width)
      : width_(width),
        exact_(doc.contains("exact") ? &doc.at("exact") : nullptr),
        stats_(doc.contains("stats") ? &doc.at("stats") : nullptr),
        exact_stats_(child_of(exact_, "stats")),
        intervals_(doc.contains("intervals") ? &doc.at("intervals") : nullptr) {}

  // The results: a section body at the top level (its scalars aligned, each structure a section).
  std::string results(const json& doc, const std::vector<std::string>& keys) {
    json top = json::object();
    for (const auto& key : keys)
      if (doc.contains(key) && key != "stats" && key != "intervals") top[key] = doc.at(key);
    body(0, "", top, exact_, true);
    return out_;
  }

 private:
  std::size_t width_;
  const json* exact_;
  const json* stats_;
  const json* exact_stats_;
  const json* intervals_;
  std::string out_;

  // exact mirrors the result's shape, except that a section's named probabilities may sit at the
  // top level of `exact` (the contract's {"exact": {"defender_retreats": "num/den"}}).
  const json* exact_child(const json* exact, const std::string& key, bool top) const {
    if (const json* e = child_of(exact, key)) return e;
    return top ? exact : nullptr;
  }

  const json* interval_at(const std::string& path) const {
    if (const json* i = at_path(intervals_, path)) return i;
    // Older documents key a section's intervals by the outcome's own name.
    const auto dot = path.rfind('.');
    return dot == std::string::npos ? nullptr : child_of(intervals_, path.substr(dot + 1));
  }

  std::string fraction_text(const json* exact) const {
    return exact && exact->is_string() ? readable_fraction(exact->get<std::string>()) : "";
  }

  // "1/3 to 1/2" (or one fraction when both ends agree), when both are short enough to read.
  std::string range_fraction(const json* exact) const {
    const std::string low = fraction_text(child_of(exact, "min")), high = fraction_text(child_of(exact, "max"));
    if (low.empty() || high.empty()) return "";
    return low == high ? low : low + " to " + high;
  }

  std::string probability_text(double p, const std::string& path) const {
    std::string text = percent_cell(p);
    if (const auto b = interval_bounds(interval_at(path))) text += " " + percent_interval(b->first, b->second);
    return text;
  }

  // A section body: scalars aligned by label, each structured child a subsection.
  void body(int indent, const std::string& path, const json& value, const json* exact, bool top) {
    const std::string pad(static_cast<std::size_t>(indent), ' ');
    std::vector<std::vector<cell>> pending;
    bool after_section = false;
    auto flush = [&] {
      if (!pending.empty()) print_grid(out_, pad, pending, width_);
      pending.clear();
    };
    for (auto it = value.begin(); it != value.end(); ++it) {
      const std::string& key = it.key();
      const json& v = it.value();
      const std::string p = join_path(path, key);
      const json* e = exact_child(exact, key, top);
      if (is_range(key, v)) {  // AR's blank CRT cells: a probability known only as [min, max]
        if (top && after_section) out_ += "\n";
        after_section = false;
        pending.push_back({{label(key), whole_number_text(key)},
                           {range_text(v.at("min").get<double>(), v.at("max").get<double>()), true},
                           {range_fraction(e)}});
        continue;
      }
      if (is_scalar(v)) {
        if (top && after_section) out_ += "\n";
        after_section = false;
        if (is_probability(key, v))
          pending.push_back({{label(key)}, {probability_text(v.get<double>(), p), true}, {fraction_text(e)}});
        else
          pending.push_back({{label(key)}, {scalar_text(key, v), v.is_number()}});
        continue;
      }
      flush();
      if (top && !out_.empty()) out_ += "\n";
      out_ += pad + label(key) + "\n";
      structure(indent + 2, p, v, e);
      after_section = true;
    }
    flush();
  }

  void structure(int indent, const std::string& path, const json& value, const json* exact) {
    if (value.empty()) {
      out_ += std::string(static_cast<std::size_t>(indent), ' ') + "(none)\n";
      return;
    }
    if (is_distribution(path, value)) return distribution(indent, path, value, exact);
    if (value.is_object()) return body(indent, path, value, exact, false);
    bool records = true, scalars = true, rows_of_scalars = true;
    for (const auto& v : value) {
      records = records && v.is_object();
      scalars = scalars && is_scalar(v);
      rows_of_scalars = rows_of_scalars && v.is_array() && std::all_of(v.begin(), v.end(), is_scalar);
    }
    if (records) return record_table(indent, path, value);
    if (scalars) {
      for (const auto& v : value) out_ += std::string(static_cast<std::size_t>(indent), ' ') + scalar_text(v) + "\n";
      return;
    }
    if (rows_of_scalars) return matrix(indent, path, value);
    // Anything else: each element as its own subsection.
    const std::string pad(static_cast<std::size_t>(indent), ' ');
    for (std::size_t i = 0; i < value.size(); ++i) {
      out_ += pad + std::to_string(i) + "\n";
      structure(indent + 2, join_path(path, std::to_string(i)), value[i], element_of(exact, i));
    }
  }

  // Every entry a probability (at least one written as a fraction of one, not a count).
  bool is_distribution(const std::string& path, const json& value) const {
    if (value.empty()) return false;
    const auto dot = path.rfind('.');
    if (names_a_number(dot == std::string::npos ? path : path.substr(dot + 1))) return false;
    bool any_float = false;
    for (auto it = value.begin(); it != value.end(); ++it) {
      if (!is_fraction_of_one(it.value())) return false;
      if (value.is_object() && names_a_number(it.key())) return false;
      any_float = any_float || it.value().is_number_float();
    }
    return any_float;
  }

  void distribution(int indent, const std::string& path, const json& value, const json* exact) {
    const json* stats = at_path(stats_, path);
    const json* exact_stats = at_path(exact_stats_, path);
    const json* at_least = child_of(stats, "at_least");
    // The interval of each entry: {low: [...], high: [...]} shaped like the distribution, or one
    // interval per entry's own path.
    const json* interval = at_path(intervals_, path);
    const json* lows = child_of(interval, "low");
    const json* highs = child_of(interval, "high");
    auto entry_interval = [&](const std::string& key,
                              std::size_t position) -> std::optional<std::pair<double, double>> {
      const json* low = entry(lows, key, position);
      const json* high = entry(highs, key, position);
      if (low && high && low->is_number() && high->is_number())
        return std::make_pair(low->get<double>(), high->get<double>());
      return interval_bounds(interval_at(join_path(path, key)));
    };
    bool intervals = false;
    std::size_t counted = 0;
    for (auto it = value.begin(); it != value.end(); ++it, ++counted)
      intervals =
          intervals || entry_interval(value.is_array() ? std::to_string(counted) : it.key(), counted).has_value();
    const double level = interval && interval->is_object() ? interval->value("level", 0.95) : 0.95;
    const bool by_position = value.is_array();
    // Values of a map distribution ("-1", "0", "1") read as numbers, right-aligned.
    bool numbered = true;
    for (auto it = value.begin(); it != value.end() && !by_position; ++it)
      numbered = numbered && whole_number_text(it.key());
    std::vector<std::vector<cell>> rows;
    if (at_least || intervals) {
      std::vector<cell> header{{""}, {"chance", true}};
      if (at_least) header.push_back({"at least", true});
      if (intervals) header.push_back({fmt::format("{:g}% interval", 100.0 * level)});
      bool any_fraction = false;
      std::size_t i = 0;
      for (auto it = value.begin(); it != value.end(); ++it, ++i)
        any_fraction =
            any_fraction || !fraction_text(entry(exact, by_position ? std::to_string(i) : it.key(), i)).empty();
      header.push_back({any_fraction ? "exact" : ""});
      rows.push_back(header);
    }
    std::size_t position = 0;
    for (auto it = value.begin(); it != value.end(); ++it, ++position) {
      const std::string key = by_position ? std::to_string(position) : it.key();
      const double p = it.value().get<double>();
      std::vector<cell> row{{by_position ? key : label(key), numbered}, {percent_cell(p), true}};
      if (at_least) {
        const json* a = entry(at_least, key, position);
        row.push_back({a && a->is_number() ? percent_cell(a->get<double>()) : "", true});
      }
      if (intervals) {
        const auto b = entry_interval(key, position);
        row.push_back({b ? percent_interval(b->first, b->second) : ""});
      }
      row.push_back({fraction_text(entry(exact, key, position))});
      row.push_back({"", false, p});
      rows.push_back(row);
    }
    print_grid(out_, std::string(static_cast<std::size_t>(indent), ' '), rows, width_);
    if (stats) statistics(indent, path, *stats, exact_stats);
  }

  // The statistics of a distribution, on one line under it.
  void statistics(int indent, const std::string& path, const json& stats, const json* exact_stats) {
    auto number = [&](const char* name) -> std::string {
      if (!stats.contains(name) || !stats.at(name).is_number()) return "";
      std::string text = plain_number(stats.at(name).get<double>());
      const json* e = child_of(exact_stats, name);
      const std::string fraction = e && e->is_string() ? readable_fraction(e->get<std::string>()) : "";
      if (!fraction.empty() && fraction != text && fraction.find('/') != std::string::npos)
        text += " (" + fraction + ")";
      if (const auto b = interval_bounds(at_path(intervals_, "stats." + path + "." + name)))
        text += " [" + plain_number(b->first) + ", " + plain_number(b->second) + "]";
      return text;
    };
    std::vector<std::string> parts;
    if (const auto mean = number("mean"); !mean.empty()) parts.push_back("mean " + mean);
    if (const auto sd = number("sd"); !sd.empty()) parts.push_back("sd " + sd);
    if (const auto median = number("median"); !median.empty()) parts.push_back("median " + median);
    const auto p05 = number("p05"), p95 = number("p95");
    if (!p05.empty() && !p95.empty()) parts.push_back("90% between " + p05 + " and " + p95);
    const auto low = number("min"), high = number("max");
    if (!low.empty() && !high.empty()) parts.push_back("range " + low + " to " + high);
    if (parts.empty()) return;
    std::string line(static_cast<std::size_t>(indent), ' ');
    for (std::size_t i = 0; i < parts.size(); ++i) line += (i ? ", " : "") + parts[i];
    out_ += line + "\n";
  }

  // A list of records: one aligned row per record with the union of their keys as columns;
  // a structured field is drawn after the table, one subsection per record.
  void record_table(int indent, const std::string& path, const json& value) {
    // A field goes under the table when any record's value of it does not fit a cell.
    std::vector<std::string> keys, columns, nested;
    for (const auto& row : value)
      for (auto it = row.begin(); it != row.end(); ++it)
        // A sweep's illegal point reads "illegal" in its value cell; the reason is in the notes.
        if (std::find(keys.begin(), keys.end(), it.key()) == keys.end() &&
            !(it.key() == "illegal" && !long_row_metric(row).empty()))
          keys.push_back(it.key());
    for (const auto& key : keys) {
      const bool fits = std::all_of(value.begin(), value.end(), [&](const json& row) {
        return !row.contains(key) || inline_cell(key, row.at(key));
      });
      (fits ? columns : nested).push_back(key);
    }
    std::vector<std::vector<cell>> rows;
    std::vector<cell> header;
    // A sweep's long rows name their varied parameters by label ("att-war" is "Attacker War").
    const bool long_rows =
        std::any_of(value.begin(), value.end(), [](const json& row) { return !long_row_metric(row).empty(); });
    for (const auto& c : columns) {
      const bool parameter = long_rows && c != "metric" && c != "value" && c != "low" && c != "high" && c != "level";
      header.push_back({parameter ? option_label(c) : label(c)});
    }
    rows.push_back(header);
    std::vector<bool> numeric(columns.size(), true);
    const std::set<std::string> probability_metrics = long_row_probabilities(value);
    for (std::size_t r = 0; r < value.size(); ++r) {
      std::vector<cell> row;
      // A long row ({metric, value, low, high}, a sweep's): the metric by its label, its value and
      // interval bounds alike, percentages for a probability.
      const std::string metric = long_row_metric(value[r]);
      const bool metric_probability = probability_metrics.count(metric) > 0;
      for (std::size_t c = 0; c < columns.size(); ++c) {
        const std::string& key = columns[c];
        const json& v = value[r].contains(key) ? value[r].at(key) : json();
        const std::string p = join_path(join_path(path, std::to_string(r)), key);
        std::string text;
        bool items = false;
        if (!metric.empty() && key == "metric") {
          text = result_label(metric, metric_probability);
        } else if (!metric.empty() && (key == "value" || key == "low" || key == "high") && v.is_number()) {
          text = metric_probability ? percent_cell(v.get<double>()) : plain_number(v.get<double>());
        } else if (!metric.empty() && (key == "value" || key == "low" || key == "high") && v.is_null()) {
          // No value: an illegal point (its reason in the notes), or the metric's own null ("no
          // fort"); never "-", which is an impossible outcome. No interval for either.
          text = key != "value" ? "" : value[r].contains("illegal") ? illegal_point_mark : null_text(metric);
        } else if (!metric.empty() && key == "exact" && v.is_string()) {
          text = readable_fraction(v.get<std::string>());  // beside the value when short, as a command's table
        } else if (v.is_structured()) {
          text = compact_text(key, v);
          items = v.is_object();
        } else if (v.is_null()) {
          text = value[r].contains(key) ? null_text(key) : "";
        } else if (is_probability(key, v)) {
          text = probability_text(v.get<double>(), p);
        } else {
          text = scalar_text(v);
        }
        numeric[c] = numeric[c] && (v.is_number() || v.is_null());
        row.push_back({text, false, -1.0, items});
      }
      rows.push_back(row);
    }
    for (auto& row : rows)
      for (std::size_t c = 0; c < row.size(); ++c) row[c].right = numeric[c];
    print_grid(out_, std::string(static_cast<std::size_t>(indent), ' '), rows, width_, true);
    const std::string pad(static_cast<std::size_t>(indent), ' ');
    // (A list past longest_drawn_list is counted, not drawn; an empty one draws nothing.)
    for (std::size_t r = 0; r < value.size(); ++r)
      for (const auto& key : nested) {
        if (!value[r].contains(key) || value[r].at(key).is_null() || value[r].at(key).empty()) continue;
        // (Named by its first field where that is a short list, "failed on one die 11th 21st";
        // else by its first text field; else by its first field, "hits 6".)
        const json* first = columns.empty() || !value[r].contains(columns[0]) ? nullptr : &value[r].at(columns[0]);
        std::string name = first && is_scalar(*first) ? label(columns[0]) + " " + scalar_text(columns[0], *first)
                                                      : "row " + std::to_string(r + 1);
        if (first && first->is_array() && inline_cell(columns[0], *first)) {
          name = label(columns[0]) + " " + compact_text(columns[0], *first);
        } else {
          for (const auto& c : columns)
            if (value[r].contains(c) && value[r].at(c).is_string()) {
              name = value[r].at(c).get<std::string>();
              break;
            }
        }
        const json& field = value[r].at(key);
        if (field.is_array() && field.size() > longest_drawn_list) {
          out_ += pad + name + ": " + label(key) + ": " + std::to_string(field.size()) +
                  " entries (--format json lists them)\n";
          continue;
        }
        out_ += pad + name + ": " + label(key) + "\n";
        const std::string p = join_path(join_path(path, std::to_string(r)), key);
        structure(indent + 2, p, value[r].at(key), at_path(exact_, p));
      }
  }

  // A list of lists of scalars (a payoff matrix): rows and columns numbered.
  void matrix(int indent, const std::string& path, const json& value) {
    const auto dot = path.rfind('.');
    const std::string key = dot == std::string::npos ? path : path.substr(dot + 1);
    std::size_t width = 0;
    for (const auto& row : value) width = std::max(width, row.size());
    std::vector<std::vector<cell>> rows;
    std::vector<cell> header{{""}};
    for (std::size_t c = 0; c < width; ++c) header.push_back({std::to_string(c), true});
    rows.push_back(header);
    for (std::size_t r = 0; r < value.size(); ++r) {
      std::vector<cell> row{{std::to_string(r), true}};
      for (const auto& v : value[r])
        row.push_back({is_probability(key, v) ? percent_cell(v.get<double>()) : scalar_text(v), true});
      rows.push_back(row);
    }
    print_grid(out_, std::string(static_cast<std::size_t>(indent), ' '), rows, width_, true);
  }
};

// "method: simulation, trials 10000, seed 1775" and its reason, for a method other than exact.
std::string method_text(const json& method) {
  std::string line = "method: " + method.value("name", std::string("?"));
  for (auto it = method.begin(); it != method.end(); ++it)
    if (it.key() != "name" && it.key() != "why" && is_scalar(it.value()))
      line += ", " + label(it.key()) + " " + scalar_text(it.value());
  line += "\n";
  if (method.contains("why") && method.at("why").is_string()) line += "  " + method.at("why").get<std::string>() + "\n";
  return line;
}

// "defaults: --def-leaders 0, --def-war 0": inputs the user left at a default, once. Engine
// settings, and simulation settings in an exact answer, are left out: they do not change it.
std::string defaults_text(const json& doc) {
  if (!doc.contains("defaults") || !doc.contains("inputs")) return "";
  const bool exact = !doc.contains("method") || doc.at("method").value("name", "") == "exact";
  std::string list;
  for (const auto& name : doc.at("defaults")) {
    const std::string n = name.get<std::string>();
    // How the answer is computed, not what it is: the engine's limits and threads.
    static const std::vector<std::string> engine_settings{"method", "threads", "memory-mb", "state-limit",
                                                          "time-budget"};
    if (std::find(engine_settings.begin(), engine_settings.end(), n) != engine_settings.end()) continue;
    if (exact && (n == "trials" || n == "seed")) continue;
    if (!doc.at("inputs").contains(n)) continue;
    const json& v = doc.at("inputs").at(n);
    if (v.is_structured()) continue;
    list += (list.empty() ? "" : ", ") + ("--" + n + " " + (v.is_string() ? v.get<std::string>() : scalar_text(v)));
  }
  return list.empty() ? "" : "defaults: " + list + "\n";
}

}  // namespace

std::size_t output_width() {
  constexpr std::size_t narrowest = 40, pipe_width = 100;
  if (const char* columns = std::getenv("COLUMNS"); columns && *columns) {
    char* end = nullptr;
    const long n = std::strtol(columns, &end, 10);
    if (*end == '\0' && n > 0) return std::max(static_cast<std::size_t>(n), narrowest);
  }
  winsize size{};
  if (isatty(STDOUT_FILENO) && ioctl(STDOUT_FILENO, TIOCGWINSZ, &size) == 0 && size.ws_col > 0)
    return std::max<std::size_t>(size.ws_col, narrowest);
  return pipe_width;
}

std::string cell_text(const std::string& key, const json& v) {
  return compact_text(key, v);
}

std::string render_table(const report& r, std::size_t width) {
  const json& doc = r.document;
  std::string out;
  if (!r.title.empty()) out += r.title + "\n";
  out += defaults_text(doc);
  if (!r.verdict.empty()) out += r.verdict + "\n";
  out += "\n";
  table_writer writer(doc, width);
  out += writer.results(doc, r.result_keys);
  if (doc.contains("method") && doc.at("method").is_object() && doc.at("method").value("name", "") != "exact")
    out += "\n" + method_text(doc.at("method"));
  if (doc.contains("notes") && !doc.at("notes").empty()) {
    out += "\nNotes:\n";
    // Each note wrapped under its own dash.
    for (const auto& n : doc.at("notes")) {
      const auto lines = wrap_text(n.is_string() ? n.get<std::string>() : scalar_text(n), width - 4);
      for (std::size_t i = 0; i < lines.size(); ++i) out += (i ? "    " : "  - ") + lines[i] + "\n";
    }
  }
  // Titles, verdicts, statistics lines and anything else still too long: wrapped at spaces.
  return fitted(out, width);
}

}  // namespace musket::cli
