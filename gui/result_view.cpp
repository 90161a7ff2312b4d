#include "gui/result_view.hpp"

#include <fmt/format.h>
#include <imgui.h>

#include <algorithm>
#include <cstdlib>
#include <sstream>

#include "cli/result_labels.hpp"
#include "gui/charts.hpp"
#include "gui/layout_log.hpp"

namespace musket::gui {

const json* child(const json* parent, const std::string& key) {
  if (!parent || !parent->is_object() || !parent->contains(key)) return nullptr;
  return &parent->at(key);
}
const json* child(const json* parent, std::size_t index) {
  if (!parent || !parent->is_array() || index >= parent->size()) return nullptr;
  return &(*parent)[index];
}
namespace {

bool is_integer_text(const std::string& s) {
  if (s.empty()) return false;
  std::size_t i = (s[0] == '-' || s[0] == '+') ? 1 : 0;
  if (i >= s.size()) return false;
  for (; i < s.size(); ++i)
    if (!std::isdigit(static_cast<unsigned char>(s[i]))) return false;
  return true;
}

bool is_probability(const std::string& key, const json& v) {
  return v.is_number_float() && v.get<double>() >= 0.0 && v.get<double>() <= 1.0 && key.rfind("expected", 0) != 0;
}

std::string exact_text(const json* e) {
  return e && e->is_string() ? e->get<std::string>() : "";
}

bool all_numbers(const json& v) {
  if (v.empty()) return false;
  for (const auto& x : v)
    if (!x.is_number()) return false;
  return true;
}

// Lays consecutive charts side by side while they fit.
struct chart_flow {
  float used = 0;  // width used on the current row, 0 = at a fresh line
  void place(float width) {
    const float spacing = ImGui::GetStyle().ItemSpacing.x * 3;
    if (used > 0 &&
        used + spacing + width <= ImGui::GetWindowContentRegionMax().x - ImGui::GetStyle().WindowPadding.x) {
      ImGui::SameLine(0, spacing);
      used += spacing + width;
    } else {
      used = width + ImGui::GetCursorPosX();
    }
  }
  void reset() { used = 0; }
};

struct renderer {
  const json* intervals = nullptr;   // a simulation's intervals by dotted path ("outcomes.defender_stands")
  std::string path;                  // the dotted path of the value being drawn
  const json* exact_root = nullptr;  // the report's "exact" object, when it has one
  chart_flow flow;
  int colour = 0;
  float label_width = 200;

  // {low, high, level} at `at`: numbers for a probability, arrays or objects for a pmf.
  const json* interval_at(const std::string& at) const {
    return intervals && intervals->is_object() && intervals->contains(at) ? &intervals->at(at) : nullptr;
  }
  static void set_interval(bar& b, const json* low, const json* high) {
    if (low && high && low->is_number() && high->is_number()) {
      b.has_interval = true;
      b.lower = low->get<double>();
      b.upper = high->get<double>();
    }
  }

  std::vector<bar> bars_of(const json& v, const json* exact, bool signed_labels) {
    std::vector<bar> bars;
    const json* ci = interval_at(path);
    const json* low = child(ci, "low");
    const json* high = child(ci, "high");
    if (v.is_array()) {
      for (std::size_t i = 0; i < v.size(); ++i) {
        bars.push_back(bar{std::to_string(i), v[i].get<double>(), exact_text(child(exact, i))});
        set_interval(bars.back(), child(low, i), child(high, i));
      }
    } else {
      std::vector<std::pair<int, bar>> keyed;
      for (auto it = v.begin(); it != v.end(); ++it) {
        keyed.push_back({static_cast<int>(std::clamp(std::strtol(it.key().c_str(), nullptr, 10), -1000000L, 1000000L)),
                         bar{it.key(), it.value().get<double>(), exact_text(child(exact, it.key()))}});
        set_interval(keyed.back().second, child(low, it.key()), child(high, it.key()));
      }
      std::sort(keyed.begin(), keyed.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
      for (auto& k : keyed) {
        if (k.first > 0 && signed_labels) k.second.label = "+" + k.second.label;
        bars.push_back(k.second);
      }
    }
    return bars;
  }

  // The words `musket` charts and tables use for the value at dotted path `at`
  // (cli/result_labels.hpp): "P(defender dislodged)", "Attacker losses"; a grouping with no words
  // of its own ("summary") keeps its key's.
  static std::string label_at(const std::string& at, const std::string& key, bool probability) {
    const std::string label = cli::result_label(at, probability);
    return label.empty() ? readable_key(key) : label;
  }

  void chart(const std::string& key, const json& v, const json* exact) {
    const float width = std::clamp(ImGui::GetContentRegionAvail().x * 0.48f, 220.0f, 420.0f);
    flow.place(width);
    distribution_chart(label_at(path, key, false), bars_of(v, exact, key.find("shift") != std::string::npos),
                       palette(colour++), width, 110.0f * ImGui::GetFontSize() / 16.0f);
  }

  // Every value's widgets (tables, charts, bars) sit under the IDs of its path in the report, so
  // two tables of one name ("units" of the attacker and of the defender) never share an ID.
  void value(const std::string& key, const json& v, const json* exact, int depth) {
    struct id_scope {
      explicit id_scope(const std::string& k) { ImGui::PushID(k.c_str()); }
      ~id_scope() { ImGui::PopID(); }
    } scope(key);
    struct path_scope {
      std::string& path;
      std::string saved;
      path_scope(std::string& p, const std::string& k) : path(p), saved(p) { path = p.empty() ? k : p + "." + k; }
      ~path_scope() { path = saved; }
    } in_path(path, key);
    if (v.is_array() && all_numbers(v)) {
      chart(key, v, exact);
      return;
    }
    bool keyed_by_integers = v.is_object() && !v.empty() && all_numbers(v);
    if (keyed_by_integers)
      for (auto it = v.begin(); it != v.end(); ++it) keyed_by_integers = keyed_by_integers && is_integer_text(it.key());
    if (keyed_by_integers) {
      chart(key, v, exact);
      return;
    }
    flow.reset();
    if (is_min_max(v)) {
      // A min/max pair is one range bar, not two bars; a pair of equal values is just a value.
      const json* lo_exact = child(exact, std::string("min"));
      const json* hi_exact = child(exact, std::string("max"));
      if (v.at("min") == v.at("max")) {
        probability_bar(bar{label_at(path, key, true), v.at("min").get<double>(), exact_text(lo_exact)},
                        palette(colour++), label_width);
        return;
      }
      range_bar(label_at(path, key, true), bar{"min", v.at("min").get<double>(), exact_text(lo_exact)},
                bar{"max", v.at("max").get<double>(), exact_text(hi_exact)}, palette(colour++), label_width);
      return;
    }
    if (v.is_object()) {
      if (depth > 0 || key.empty()) {
        if (!key.empty()) ImGui::TextDisabled("%s", label_at(path, key, false).c_str());
        if (!key.empty()) log_last_item_text(label_at(path, key, false));
      } else {
        ImGui::Spacing();
        ImGui::TextUnformatted(label_at(path, key, false).c_str());
        log_last_item_text(label_at(path, key, false));
        ImGui::Separator();
      }
      ImGui::Indent(8.0f);
      int index = 0;
      for (auto it = v.begin(); it != v.end(); ++it, ++index) {
        if (is_probability(it.key(), it.value())) {
          // The exact fraction where the report's "exact" mirrors this object, else where it keeps
          // the same key at its top ("summary.defender_dislodged" -> "exact.defender_dislodged").
          std::string fraction = exact_text(child(exact, it.key()));
          if (fraction.empty()) fraction = exact_text(child(exact_root, it.key()));
          bar b{label_at(path + "." + it.key(), it.key(), true), it.value().get<double>(), fraction};
          const json* ci = interval_at(path + "." + it.key());
          set_interval(b, child(ci, "low"), child(ci, "high"));
          flow.reset();
          probability_bar(b, palette(index), label_width);
        } else {
          value(it.key(), it.value(), child(exact, it.key()), depth + 1);
        }
      }
      ImGui::Unindent(8.0f);
      flow.reset();
      return;
    }
    if (v.is_array() && !v.empty() && v[0].is_object()) {
      table(key, v);
      return;
    }
    if (is_probability(key, v)) {
      bar b{label_at(path, key, true), v.get<double>(), exact_text(exact)};
      const json* ci = interval_at(path);
      set_interval(b, child(ci, "low"), child(ci, "high"));
      probability_bar(b, palette(colour++), label_width);
      return;
    }
    const std::string text = keyed_value_text(key, v);
    ImGui::PushTextWrapPos(0);
    ImGui::Text("%s: %s", label_at(path, key, false).c_str(), text.c_str());
    ImGui::PopTextWrapPos();
    log_last_item_text(label_at(path, key, false));
    if (!exact_text(exact).empty() && ImGui::IsItemHovered()) ImGui::SetTooltip("exact: %s", exact_text(exact).c_str());
  }

  void table(const std::string& key, const json& rows) {
    std::vector<std::string> columns;
    for (const auto& row : rows)
      if (row.is_object())
        for (auto it = row.begin(); it != row.end(); ++it)
          if (std::find(columns.begin(), columns.end(), it.key()) == columns.end()) columns.push_back(it.key());
    ImGui::Spacing();
    ImGui::TextUnformatted(label_at(path, key, false).c_str());
    log_last_item_text(label_at(path, key, false));
    const int n = static_cast<int>(columns.size());
    if (n == 0 || n > 32) return;
    // Nothing is cut: headers keep their whole width and cells wrap. Each column gets its natural
    // width (header or widest cell) when all fit side by side; else at least its header and its
    // widest word, sharing what is left; and when even that does not fit, the table scrolls
    // sideways.
    const auto widest_word = [](const std::string& text) {
      float widest = 0;
      std::istringstream words(text);
      for (std::string w; words >> w;) widest = std::max(widest, ImGui::CalcTextSize(w.c_str()).x);
      return widest;
    };
    const float pad = 2 * ImGui::GetStyle().CellPadding.x;
    const float arrow = ImGui::GetFontSize();  // the sort arrow beside a header
    std::vector<float> natural, least;
    float natural_sum = 0, least_sum = 0;
    for (const auto& c : columns) {
      const float header = ImGui::CalcTextSize(readable_key(c).c_str()).x + arrow;
      float whole = header, word = header;
      for (const auto& row : rows)
        if (row.is_object() && row.contains(c)) {
          const std::string text = row_cell_text(row, c);
          whole = std::max(whole, ImGui::CalcTextSize(text.c_str()).x);
          word = std::max(word, widest_word(text));
        }
      natural.push_back(whole + pad);
      least.push_back(word + pad);
      natural_sum += natural.back() + pad;
      least_sum += least.back() + pad;
    }
    const float avail = ImGui::GetContentRegionAvail().x;
    std::vector<float> widths = natural;
    const bool fits = natural_sum <= avail;
    if (!fits && least_sum <= avail) {
      // The room left after every column's least, shared in proportion to what each lacks.
      const float lacking = natural_sum - least_sum, spare = avail - least_sum;
      for (std::size_t c = 0; c < widths.size(); ++c)
        widths[c] = least[c] + (lacking > 0 ? (natural[c] - least[c]) * spare / lacking : 0.0f) - 1.0f;
    } else if (!fits) {
      widths = least;
    }
    const ImGuiTableFlags sizing =
        fits ? ImGuiTableFlags_SizingStretchProp
             : (least_sum <= avail ? ImGuiTableFlags_SizingFixedFit
                                   : ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_ScrollX);
    const float sideways = (sizing & ImGuiTableFlags_ScrollX) ? ImGui::GetStyle().ScrollbarSize : 0.0f;
    const float height =
        std::min(ImGui::GetTextLineHeightWithSpacing() * (static_cast<float>(rows.size()) + 2.5f) + sideways,
                 std::max(260.0f, ImGui::GetContentRegionAvail().y - 3 * ImGui::GetFrameHeightWithSpacing()));
    if (ImGui::BeginTable(key.c_str(), n,
                          ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_ScrollY |
                              ImGuiTableFlags_Sortable | ImGuiTableFlags_SortTristate | sizing,
                          ImVec2(0, height))) {
      ImGui::TableSetupScrollFreeze(0, 1);
      // Those widths, or in their proportion when they all fit.
      for (std::size_t c = 0; c < columns.size(); ++c)
        ImGui::TableSetupColumn(readable_key(columns[c]).c_str(),
                                fits ? ImGuiTableColumnFlags_WidthStretch : ImGuiTableColumnFlags_WidthFixed,
                                widths[c]);
      // The header row, each header checked whole in its column.
      ImGui::TableNextRow(ImGuiTableRowFlags_Headers);
      for (int c = 0; c < n; ++c) {
        if (!ImGui::TableSetColumnIndex(c)) continue;
        const std::string header = readable_key(columns[static_cast<std::size_t>(c)]);
        const float room = ImGui::GetContentRegionAvail().x;
        ImGui::PushID(c);
        ImGui::TableHeader(header.c_str());
        ImGui::PopID();
        const ImVec2 at = ImGui::GetItemRectMin(), size = ImGui::CalcTextSize(header.c_str());
        log_text_in_room(at, ImVec2(at.x + size.x, at.y + size.y), size.x + arrow, room, header);
      }
      // Sort by the chosen column (numbers numerically, anything else as text).
      std::vector<std::size_t> order(rows.size());
      for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
      if (ImGuiTableSortSpecs* specs = ImGui::TableGetSortSpecs(); specs && specs->SpecsCount > 0) {
        const auto& spec = specs->Specs[0];
        const std::string& column = columns[static_cast<std::size_t>(spec.ColumnIndex)];
        const bool ascending = spec.SortDirection == ImGuiSortDirection_Ascending;
        std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
          const json va = rows[a].is_object() ? rows[a].value(column, json()) : json();
          const json vb = rows[b].is_object() ? rows[b].value(column, json()) : json();
          const bool less =
              (va.is_number() && vb.is_number()) ? va.get<double>() < vb.get<double>() : va.dump() < vb.dump();
          const bool greater =
              (va.is_number() && vb.is_number()) ? vb.get<double>() < va.get<double>() : vb.dump() < va.dump();
          return ascending ? less : greater;
        });
      }
      for (std::size_t r : order) {
        if (!rows[r].is_object()) continue;
        ImGui::TableNextRow();
        for (int c = 0; c < n; ++c) {
          ImGui::TableSetColumnIndex(c);
          const json cell = rows[r].value(columns[static_cast<std::size_t>(c)], json());
          const std::string text = row_cell_text(rows[r], columns[static_cast<std::size_t>(c)]);
          const float room = ImGui::GetContentRegionAvail().x;
          ImGui::PushTextWrapPos(0.0f);  // at the column's edge
          ImGui::TextUnformatted(text.c_str());
          ImGui::PopTextWrapPos();
          log_text_in_room(ImGui::GetItemRectMin(), ImGui::GetItemRectMax(), ImGui::GetItemRectSize().x, room, text);
          if (distribution_summary(cell) && ImGui::IsItemHovered()) {
            // The whole distribution behind its summary.
            ImGui::BeginTooltip();
            for (auto it = cell.begin(); it != cell.end(); ++it)
              ImGui::Text("%s: %s", it.key().c_str(), percent_text(it.value().get<double>()).c_str());
            ImGui::EndTooltip();
          }
        }
      }
      ImGui::EndTable();
    }
  }
};

}  // namespace

void draw_report_values(const json& doc, const std::vector<std::string>& keys, const json* intervals,
                        const json* exact) {
  renderer r;
  r.label_width = ImGui::CalcTextSize("only french navy defeated  ").x;
  r.exact_root = exact;
  r.intervals = intervals;
  for (const auto& key : keys) {
    if (key == "intervals") continue;  // drawn on the bars
    if (doc.contains(key)) r.value(key, doc.at(key), child(exact, key), 0);
  }
}

}  // namespace musket::gui
