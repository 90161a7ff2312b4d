// The sweep editor: what a Sweep panel varies and measures, and its results (a line or a heat map).
#include <fmt/format.h>
#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <sstream>

#include "cli/result_labels.hpp"
#include "core/invalid_input.hpp"
#include "gui/app.hpp"
#include "gui/charts.hpp"
#include "gui/input_editors.hpp"
#include "gui/layout_log.hpp"
#include "gui/result_view.hpp"

namespace musket::gui {

void app::draw_sweep_inputs(panel_state& panel) {
  sweep_setup& sw = *panel.sweep;
  const game_calculators* game = cat_.find_game(panel.calc->game);
  const calculator* target = sweep_target(panel);
  if (!game || !target) return;
  ImGui::TextWrapped("One calculator over one parameter (a line chart) or two (a heat map): `musket %s sweep`.",
                     game->code.c_str());
  ImGui::Separator();
  const float label_col = label_column(*target);
  auto label = [&](const char* text) {
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted(text);
    ImGui::SameLine(label_col);
    ImGui::SetNextItemWidth(-1);
  };
  // The calculator: switching starts from its own panel's values and its first sweepable input.
  label("calculator");
  if (ImGui::BeginCombo("##target", target->label.c_str())) {
    for (const auto& c : game->calculators) {
      bool any = false;
      for (const auto& in : c.inputs) any = any || sweepable(in);
      if (c.command == "sweep" || !any) continue;
      if (ImGui::Selectable(c.label.c_str(), c.command == sw.target) && c.command != sw.target) {
        sweep_setup fresh;
        fresh.target = c.command;
        fresh.fixed = initial_values(c);
        if (const tab_state* tab = find_tab(game->code))
          for (const auto& p : tab->panels)
            if (p.calc == &c) fresh.fixed = p.values;
        // Its first sweepable input that is always given, else one the CLI leaves optional.
        for (int pass = 0; pass < 2; ++pass)
          for (const auto& in : c.inputs)
            if (sweepable(in) && (pass == 1 || !in.optional) && fresh.axes.empty()) {
              const int start = fresh.fixed.value(in.name, json(in.lowest)).is_number_integer()
                                    ? fresh.fixed.at(in.name).get<int>()
                                    : in.lowest;
              fresh.axes.push_back({in.name, std::max(in.lowest, std::min(start, in.highest - 5)),
                                    std::min(in.highest, std::max(start, in.lowest) + 5)});
            }
        if (!fresh.axes.empty()) sw = fresh;
        target = sweep_target(panel);
      }
    }
    ImGui::EndCombo();
  }
  // One or two parameters, each a whole-number input of the calculator, over a range.
  bool heat = sw.axes.size() == 2;
  for (std::size_t a = 0; a < sw.axes.size(); ++a) {
    ImGui::PushID(static_cast<int>(a));
    sweep_axis& axis = sw.axes[a];
    label(a == 0 ? "vary" : "and vary");
    if (ImGui::BeginCombo("##axis", axis.name.c_str())) {
      for (const auto& in : target->inputs) {
        const bool taken = sw.axes.size() == 2 && sw.axes[1 - a].name == in.name;
        if (!sweepable(in) || taken) continue;
        if (ImGui::Selectable(in.name.c_str(), in.name == axis.name)) {
          axis.name = in.name;
          axis.lowest = std::max(axis.lowest, in.lowest);
          axis.highest = std::min(axis.highest, in.highest);
          if (axis.lowest > axis.highest) axis.lowest = in.lowest, axis.highest = std::min(in.highest, in.lowest + 5);
        }
      }
      ImGui::EndCombo();
    }
    if (const input_spec* in = target->find_input(axis.name)) {
      label("from .. to");
      const float half = (ImGui::GetContentRegionAvail().x - ImGui::GetStyle().ItemSpacing.x) / 2;
      ImGui::SetNextItemWidth(half);
      int lo = axis.lowest, hi = axis.highest;
      if (ImGui::InputInt("##lo", &lo)) axis.lowest = std::clamp(lo, in->lowest, axis.highest);
      ImGui::SameLine();
      ImGui::SetNextItemWidth(half);
      // At most 1000 points on a line and 10000 in a grid, as the CLI allows.
      const int most = heat ? 99 : 999;
      if (ImGui::InputInt("##hi", &hi))
        axis.highest = std::clamp(hi, axis.lowest, std::min(in->highest, axis.lowest + most));
    }
    ImGui::PopID();
  }
  if (ImGui::Checkbox("a second parameter (heat map)", &heat)) {
    if (heat && sw.axes.size() == 1) {
      for (const auto& in : target->inputs)
        if (sweepable(in) && in.name != sw.axes[0].name && sw.axes.size() == 1) {
          const int start = sw.fixed.value(in.name, json(in.lowest)).is_number_integer()
                                ? sw.fixed.at(in.name).get<int>()
                                : in.lowest;
          sw.axes.push_back({in.name, std::max(in.lowest, std::min(start, in.highest - 4)),
                             std::min(in.highest, std::max(start, in.lowest) + 4)});
        }
      if (sw.axes.size() == 1) report_status("this calculator has only one whole-number input to vary", true);
    } else if (!heat && sw.axes.size() == 2) {
      sw.axes.pop_back();
    }
  }
  // The metric: any result key as --format csv prints it; the calculator's own panel offers its keys.
  label("metric");
  ImGui::InputTextWithHint("##metric", "the first probability of the summary", &sw.metric);
  if (const tab_state* tab = find_tab(game->code)) {
    for (const auto& p : tab->panels) {
      if (p.calc != target || !p.result.ok) continue;
      std::vector<std::string> keys;
      std::istringstream csv(results_csv(p.result));
      std::string line;
      std::getline(csv, line);  // key,value,exact_num,exact_den
      while (std::getline(csv, line)) {
        const auto comma = line.find(',');
        if (comma == std::string::npos) continue;
        const std::string value = line.substr(comma + 1, line.find(',', comma + 1) - comma - 1);
        char* end = nullptr;
        std::strtod(value.c_str(), &end);
        if (!value.empty() && end && *end == '\0') keys.push_back(line.substr(0, comma));
      }
      ImGui::SetCursorPosX(label_col);
      ImGui::SetNextItemWidth(-1);
      if (!keys.empty() && ImGui::BeginCombo("##keys", "pick a key of its results...")) {
        for (const auto& k : keys)
          if (ImGui::Selectable(k.c_str(), k == sw.metric)) sw.metric = k;
        ImGui::EndCombo();
      }
    }
  }
  ImGui::Spacing();
  ImGui::TextDisabled("%s inputs (fixed):", target->label.c_str());
  ImGui::Separator();
  const std::string hidden_prefix = game->code == "nt" ? "(ss)" : game->code == "ss" ? "(nt)" : "(none)";
  for (const auto& in : target->inputs) {
    if (in.help.rfind(hidden_prefix, 0) == 0) continue;
    bool varied = false;
    for (const auto& a : sw.axes) varied = varied || a.name == in.name;
    if (varied) continue;
    any_input_widget(*target, in, sw.fixed, label_col);
  }
  ImGui::Spacing();
  if (ImGui::Button("Reset")) {
    if (auto d = default_sweep(*game)) sw = *d;
  }
  ImGui::SameLine();
  const bool have = panel.result.ok && panel.computed_key == panel.values.dump();
  if (ImGui::Button("Copy CSV") && have) {
    // The long CSV `musket <game> sweep --csv FILE` writes.
    ImGui::SetClipboardText(cli::sweep_csv(panel.result.report.document).c_str());
    report_status("sweep copied as CSV", false);
  }
  draw_command_line(panel);
}

void app::draw_sweep(const panel_state& panel) {
  const json& doc = panel.result.report.document;
  const sweep_points points = read_sweep(doc);
  if (points.axes.empty() || points.x.empty()) return;
  bool probability = true;
  for (const auto& column : points.value)
    for (double v : column)
      if (!std::isnan(v) && (v < 0 || v > 1)) probability = false;
  ImGui::Spacing();
  // The words of `musket`'s sweep charts (cli/result_labels.hpp).
  const std::string metric = cli::result_label(points.metric, probability && !cli::names_a_number(points.metric));
  std::vector<std::string> axes;
  for (const auto& a : points.axes) axes.push_back(cli::option_label(a));
  if (points.axes.size() == 1) {
    std::vector<double> ys;
    for (const auto& column : points.value) ys.push_back(column[0]);
    line_chart(metric + " by " + axes[0], axes[0], metric, points.x, ys, probability, ImGui::GetContentRegionAvail().x,
               std::min(360.0f, ImGui::GetContentRegionAvail().y - 40));
  } else {
    std::vector<std::vector<heat_cell>> cells;
    for (const auto& column : points.value) {
      std::vector<heat_cell> row;
      for (double v : column) row.push_back(heat_cell{std::isnan(v) ? 0.0 : v, !std::isnan(v)});
      cells.push_back(row);
    }
    ImGui::TextUnformatted(metric.c_str());
    heat_map(axes[0], axes[1], points.x, points.y, cells, {}, -1, -1, probability);
  }
  if (doc.contains("notes") && doc.at("notes").is_array() && !doc.at("notes").empty())
    ImGui::TextDisabled("%zu point(s) have no value (see Notes)", doc.at("notes").size());
}

}  // namespace musket::gui
