#include "gui/charts.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "cli/chart_colours.hpp"
#include "cli/number_text.hpp"
#include "gui/layout_log.hpp"

namespace musket::gui {

namespace {

void bar_tooltip(const std::string& title, const bar& b) {
  ImGui::BeginTooltip();
  ImGui::TextUnformatted(title.c_str());
  ImGui::Text("%.6f  (%s)", b.value, percent_text(b.value).c_str());
  if (!b.exact.empty()) ImGui::Text("exact: %s", b.exact.c_str());
  if (b.has_interval) ImGui::Text("95%% interval: %.4f .. %.4f", b.lower, b.upper);
  ImGui::EndTooltip();
}

// The heat maps' colour for t in 0..1: the ramp of `sweep --plot`'s SVG heat maps (light to dark
// blue as the value rises).
ImU32 ramp_colour(double t) {
  const auto [r, g, b] = cli::chart::ramp_rgb(t);
  return IM_COL32(r, g, b, 255);
}

// A strip of the ramp from `lowest` to `highest` with the two ends and the middle labelled.
void colour_legend(double lowest, double highest, bool percent, float width) {
  const float line = ImGui::GetTextLineHeight();
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const int steps = 32;
  for (int k = 0; k < steps; ++k) {
    const float x0 = origin.x + width * static_cast<float>(k) / steps;
    const float x1 = origin.x + width * static_cast<float>(k + 1) / steps;
    draw->AddRectFilled(ImVec2(x0, origin.y), ImVec2(x1 + 0.5f, origin.y + line * 0.8f),
                        ramp_colour((k + 0.5) / steps));
  }
  const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text);
  for (int k = 0; k <= 2; ++k) {
    const double v = lowest + (highest - lowest) * k / 2.0;
    const std::string t = percent ? percent_text(v) : fmt::format("{:.3g}", v);
    const float tw = ImGui::CalcTextSize(t.c_str()).x;
    const float x = std::clamp(origin.x + width * static_cast<float>(k) / 2 - tw / 2, origin.x, origin.x + width - tw);
    draw_label(draw, ImVec2(x, origin.y + line * 0.9f), text, t);
  }
  log_drawn(origin, ImVec2(origin.x + width, origin.y + line * 0.8f), false, "colour legend");
  ImGui::Dummy(ImVec2(width, line * 2));
}

}  // namespace

std::string percent_text(double p) {
  return cli::percent(p);  // as the CLI prints it: 100% only for exactly 1, ">99.9999%" just below
}

ImU32 palette(int index) {
  static const ImVec4 colours[] = {{0.26f, 0.59f, 0.98f, 1}, {0.95f, 0.55f, 0.20f, 1}, {0.35f, 0.75f, 0.40f, 1},
                                   {0.85f, 0.30f, 0.35f, 1}, {0.65f, 0.45f, 0.85f, 1}, {0.30f, 0.75f, 0.75f, 1},
                                   {0.85f, 0.75f, 0.30f, 1}, {0.60f, 0.60f, 0.60f, 1}};
  const int n = static_cast<int>(std::size(colours));
  return ImGui::GetColorU32(colours[((index % n) + n) % n]);
}

void probability_bar(const bar& b, ImU32 colour, float label_width) {
  ImGui::PushID(b.label.c_str());
  // A label longer than its column wraps onto more lines (the row grows), never cut short.
  const float wrap = label_width - 8.0f;
  const float label_height = ImGui::CalcTextSize(b.label.c_str(), nullptr, false, wrap).y;
  const float height = std::max(ImGui::GetFrameHeight(), label_height + 4.0f);
  const float width = std::max(ImGui::GetContentRegionAvail().x, label_width + 120.0f);
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  ImGui::InvisibleButton("bar", ImVec2(width, height));
  const bool hovered = ImGui::IsItemHovered();
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const float text_y = origin.y + (height - ImGui::GetTextLineHeight()) * 0.5f;
  draw_wrapped_label(draw, ImVec2(origin.x, origin.y + (height - label_height) * 0.5f),
                     ImGui::GetColorU32(ImGuiCol_Text), b.label, wrap);
  const std::string value_text = cli::percent_cell(b.value);            // as the CLI's table: "-" when impossible
  const float value_width = ImGui::CalcTextSize(">99.9999%").x + 8.0f;  // the widest percent_text
  const float x0 = origin.x + label_width;
  const float x1 = origin.x + width - value_width;
  const float bar_width = std::max(x1 - x0, 10.0f);
  draw_bar(draw, ImVec2(x0, origin.y + 2), ImVec2(x0 + bar_width, origin.y + height - 2),
           ImGui::GetColorU32(ImGuiCol_FrameBg), 2.0f, b.label);
  const float filled = bar_width * static_cast<float>(std::clamp(b.value, 0.0, 1.0));
  if (filled > 0.5f)
    draw->AddRectFilled(ImVec2(x0, origin.y + 2), ImVec2(x0 + filled, origin.y + height - 2), colour, 2.0f);
  if (b.has_interval) {
    const float lo = x0 + bar_width * static_cast<float>(std::clamp(b.lower, 0.0, 1.0));
    const float hi = x0 + bar_width * static_cast<float>(std::clamp(b.upper, 0.0, 1.0));
    const float mid = origin.y + height * 0.5f;
    const ImU32 white = IM_COL32(255, 255, 255, 230);
    draw->AddLine(ImVec2(lo, mid), ImVec2(hi, mid), white, 1.5f);
    draw->AddLine(ImVec2(lo, origin.y + 5), ImVec2(lo, origin.y + height - 5), white, 1.5f);
    draw->AddLine(ImVec2(hi, origin.y + 5), ImVec2(hi, origin.y + height - 5), white, 1.5f);
  }
  if (hovered)
    draw->AddRect(ImVec2(x0, origin.y + 2), ImVec2(x0 + bar_width, origin.y + height - 2),
                  ImGui::GetColorU32(ImGuiCol_Text), 2.0f);
  draw_label(draw, ImVec2(x1 + 6, text_y), ImGui::GetColorU32(ImGuiCol_Text), value_text);
  if (hovered) bar_tooltip(b.label, b);
  ImGui::PopID();
}

void range_bar(const std::string& label, const bar& low, const bar& high, ImU32 colour, float label_width) {
  ImGui::PushID(label.c_str());
  const float wrap = label_width - 8.0f;
  const float label_height = ImGui::CalcTextSize(label.c_str(), nullptr, false, wrap).y;
  const float height = std::max(ImGui::GetFrameHeight(), label_height + 4.0f);
  const std::string value_text = percent_text(low.value) + " to " + percent_text(high.value);  // as the CLI
  const float value_width = std::max(ImGui::CalcTextSize("100.0%").x, ImGui::CalcTextSize(value_text.c_str()).x) + 8.0f;
  const float width = std::max(ImGui::GetContentRegionAvail().x, label_width + value_width + 60.0f);
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  ImGui::InvisibleButton("range", ImVec2(width, height));
  const bool hovered = ImGui::IsItemHovered();
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const float text_y = origin.y + (height - ImGui::GetTextLineHeight()) * 0.5f;
  draw_wrapped_label(draw, ImVec2(origin.x, origin.y + (height - label_height) * 0.5f),
                     ImGui::GetColorU32(ImGuiCol_Text), label, wrap);
  const float x0 = origin.x + label_width;
  const float bar_width = std::max(width - label_width - value_width, 10.0f);
  draw_bar(draw, ImVec2(x0, origin.y + 2), ImVec2(x0 + bar_width, origin.y + height - 2),
           ImGui::GetColorU32(ImGuiCol_FrameBg), 2.0f, label);
  // The span the value may take: solid from min to max, with a tick at each end.
  const float lo = x0 + bar_width * static_cast<float>(std::clamp(low.value, 0.0, 1.0));
  const float hi = x0 + bar_width * static_cast<float>(std::clamp(high.value, 0.0, 1.0));
  draw->AddRectFilled(ImVec2(lo, origin.y + 4), ImVec2(std::max(hi, lo + 2.0f), origin.y + height - 4), colour, 2.0f);
  const ImU32 white = IM_COL32(255, 255, 255, 230);
  for (float x : {lo, hi}) draw->AddLine(ImVec2(x, origin.y + 2), ImVec2(x, origin.y + height - 2), white, 2.0f);
  if (hovered)
    draw->AddRect(ImVec2(x0, origin.y + 2), ImVec2(x0 + bar_width, origin.y + height - 2),
                  ImGui::GetColorU32(ImGuiCol_Text), 2.0f);
  draw_label(draw, ImVec2(x0 + bar_width + 6, text_y), ImGui::GetColorU32(ImGuiCol_Text), value_text);
  if (hovered) {
    ImGui::BeginTooltip();
    ImGui::TextUnformatted(label.c_str());
    ImGui::TextUnformatted("unknown table entries: between");
    ImGui::Text("min %.6f  (%s)%s%s", low.value, percent_text(low.value).c_str(), low.exact.empty() ? "" : "  exact ",
                low.exact.c_str());
    ImGui::Text("max %.6f  (%s)%s%s", high.value, percent_text(high.value).c_str(),
                high.exact.empty() ? "" : "  exact ", high.exact.c_str());
    ImGui::EndTooltip();
  }
  ImGui::PopID();
}

void distribution_chart(const std::string& title, const std::vector<bar>& bars, ImU32 colour, float width,
                        float height) {
  ImGui::PushID(title.c_str());
  ImGui::BeginGroup();
  double top = 0;
  for (const auto& b : bars) top = std::max(top, b.has_interval ? b.upper : b.value);
  // A round ceiling for the axis: 10%, 20%, 25%, 50%, 100%.
  double axis = 1.0;
  for (double step : {0.05, 0.1, 0.2, 0.25, 0.4, 0.5, 0.6, 0.8, 1.0})
    if (top <= step + 1e-12) {
      axis = step;
      break;
    }
  // The title, and the axis's top value at the right of its line (inside the plot it would sit on
  // a tall bar); a title too long for both wraps onto more lines, never cut short.
  const std::string axis_text = "top " + percent_text(axis);
  const float axis_width = ImGui::CalcTextSize(axis_text.c_str()).x;
  const ImVec2 title_at = ImGui::GetCursorScreenPos();
  const float title_wrap = width - axis_width - 12.0f;
  ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + title_wrap);
  ImGui::TextUnformatted(title.c_str());
  ImGui::PopTextWrapPos();
  log_last_item_text(title);
  ImDrawList* draw = ImGui::GetWindowDrawList();
  draw_label(draw, ImVec2(title_at.x + width - axis_width, title_at.y), ImGui::GetColorU32(ImGuiCol_TextDisabled),
             axis_text);
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const float label_height = ImGui::GetTextLineHeightWithSpacing();
  ImGui::InvisibleButton("chart", ImVec2(width, height + label_height));
  draw->AddRectFilled(origin, ImVec2(origin.x + width, origin.y + height), ImGui::GetColorU32(ImGuiCol_FrameBg), 2.0f);
  const int n = std::max<int>(1, static_cast<int>(bars.size()));
  const float slot = width / static_cast<float>(n);
  const float gap = std::min(6.0f, slot * 0.2f);
  const ImU32 grid = ImGui::GetColorU32(ImGuiCol_Border);
  for (int g = 1; g <= 3; ++g) {
    const float y = origin.y + height - height * static_cast<float>(g) / 4.0f;
    draw->AddLine(ImVec2(origin.x, y), ImVec2(origin.x + width, y), grid);
  }
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  const bool chart_hovered = ImGui::IsItemHovered();
  for (int i = 0; i < static_cast<int>(bars.size()); ++i) {
    const auto& b = bars[static_cast<std::size_t>(i)];
    const float x0 = origin.x + slot * static_cast<float>(i) + gap * 0.5f;
    const float x1 = x0 + slot - gap;
    const float h = height * static_cast<float>(std::clamp(b.value / axis, 0.0, 1.0));
    const bool hovered = chart_hovered && mouse.x >= x0 - gap * 0.5f && mouse.x < x1 + gap * 0.5f;
    if (h > 0.0f)
      draw_bar(draw, ImVec2(x0, origin.y + height - std::max(h, 1.0f)), ImVec2(x1, origin.y + height),
               hovered ? ImGui::GetColorU32(ImGuiCol_PlotHistogramHovered) : colour, 0.0f, title + " = " + b.label);
    if (b.has_interval) {
      const float cx = (x0 + x1) * 0.5f;
      const float ylo = origin.y + height - height * static_cast<float>(std::clamp(b.lower / axis, 0.0, 1.0));
      const float yhi = origin.y + height - height * static_cast<float>(std::clamp(b.upper / axis, 0.0, 1.0));
      draw->AddLine(ImVec2(cx, ylo), ImVec2(cx, yhi), IM_COL32(255, 255, 255, 220), 1.5f);
    }
    const ImVec2 text_size = ImGui::CalcTextSize(b.label.c_str());
    if (text_size.x <= slot + 2 || i % std::max(1, static_cast<int>(text_size.x / slot) + 1) == 0)
      draw_label(draw, ImVec2((x0 + x1 - text_size.x) * 0.5f, origin.y + height + 2), ImGui::GetColorU32(ImGuiCol_Text),
                 b.label);
    if (hovered) bar_tooltip(title + " = " + b.label, b);
  }
  ImGui::EndGroup();
  ImGui::PopID();
}

void heat_map(const std::string& row_title, const std::string& column_title, const std::vector<int>& row_labels,
              const std::vector<int>& column_labels, const std::vector<std::vector<heat_cell>>& cells,
              const std::vector<int>& marked_column, int best_row, int best_column, bool percent) {
  double lowest = 0, highest = 0;
  bool any = false;
  for (const auto& row : cells)
    for (const auto& c : row)
      if (c.valid) {
        lowest = any ? std::min(lowest, c.value) : c.value;
        highest = any ? std::max(highest, c.value) : c.value;
        any = true;
      }
  // Probabilities run over 0..1, anything else over its own span: the scale of `sweep --plot`.
  if (percent) lowest = 0, highest = 1;
  if (!(highest > lowest)) highest = lowest + 1;
  const float label_width = ImGui::CalcTextSize("40  ").x + 4;
  const int columns = std::max<int>(1, static_cast<int>(column_labels.size()));
  const float avail = ImGui::GetContentRegionAvail().x - label_width - 8;
  const float cell = std::clamp(avail / static_cast<float>(columns), 14.0f, 46.0f);
  const float line = ImGui::GetTextLineHeight();
  ImGui::TextDisabled("%s (across) v %s (down)", column_title.c_str(), row_title.c_str());
  log_last_item_text(column_title + " v " + row_title);
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const float width = label_width + cell * static_cast<float>(columns);
  const float height = line + 4 + cell * static_cast<float>(row_labels.size());
  ImGui::InvisibleButton("heatmap", ImVec2(width, height));
  const bool hovered_map = ImGui::IsItemHovered();
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text);
  for (int c = 0; c < columns && c < static_cast<int>(column_labels.size()); ++c) {
    const std::string t = std::to_string(column_labels[static_cast<std::size_t>(c)]);
    const float tw = ImGui::CalcTextSize(t.c_str()).x;
    draw_label(draw, ImVec2(origin.x + label_width + cell * (static_cast<float>(c) + 0.5f) - tw * 0.5f, origin.y), text,
               t);
  }
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  ImVec2 best_min, best_max;
  bool have_best = false;
  for (std::size_t r = 0; r < row_labels.size(); ++r) {
    const float y = origin.y + line + 4 + cell * static_cast<float>(r);
    const std::string t = std::to_string(row_labels[r]);
    draw_label(draw, ImVec2(origin.x, y + (cell - line) * 0.5f), text, t);
    for (int c = 0; c < columns && r < cells.size() && c < static_cast<int>(cells[r].size()); ++c) {
      const auto& v = cells[r][static_cast<std::size_t>(c)];
      const ImVec2 a(origin.x + label_width + cell * static_cast<float>(c), y);
      const ImVec2 b(a.x + cell - 1, a.y + cell - 1);
      if (!v.valid) {
        draw->AddRectFilled(a, b, ImGui::GetColorU32(ImGuiCol_FrameBg));
        continue;
      }
      const double t01 = (v.value - lowest) / (highest - lowest);
      draw_bar(draw, a, b, ramp_colour(t01), 0.0f, "cell " + std::to_string(row_labels[r]));
      const std::string label = percent ? fmt::format("{:.0f}", 100 * v.value) : fmt::format("{:.1f}", v.value);
      const ImVec2 ts = ImGui::CalcTextSize(label.c_str());
      if (ts.x + 4 <= cell && ts.y <= cell)  // a value only where it fits
        draw_label(draw, ImVec2(a.x + (cell - ts.x) * 0.5f, a.y + (cell - ts.y) * 0.5f),
                   t01 > 0.55 ? IM_COL32(255, 255, 255, 255) : IM_COL32(20, 20, 20, 255), label);
      if (r < marked_column.size() && marked_column[r] == c)
        draw->AddCircleFilled(ImVec2(b.x - 5, a.y + 5), 3.0f, IM_COL32(255, 100, 40, 255));
      if (static_cast<int>(r) == best_row && c == best_column) best_min = a, best_max = b, have_best = true;
      if (hovered_map && mouse.x >= a.x && mouse.x < b.x + 1 && mouse.y >= a.y && mouse.y < b.y + 1) {
        ImGui::BeginTooltip();
        ImGui::Text("%s %d, %s %d", row_title.c_str(), row_labels[r], column_title.c_str(),
                    column_labels[static_cast<std::size_t>(c)]);
        if (percent)
          ImGui::Text("%.6f (%s)", v.value, percent_text(v.value).c_str());
        else
          ImGui::Text("%.6f", v.value);
        if (r < marked_column.size() && marked_column[r] == c) ImGui::TextUnformatted("the defender's best reply");
        ImGui::EndTooltip();
      }
    }
  }
  if (have_best) {
    draw->AddRect(ImVec2(best_min.x - 2, best_min.y - 2), ImVec2(best_max.x + 2, best_max.y + 2),
                  IM_COL32(255, 100, 40, 255), 0, 0, 3.0f);
  }
  colour_legend(lowest, highest, percent, std::min(width, 320.0f));
}

void line_chart(const std::string& title, const std::string& x_label, const std::string& y_label,
                const std::vector<int>& x, const std::vector<double>& y, bool percent, float width, float height) {
  if (x.empty() || x.size() != y.size()) return;
  ImGui::TextUnformatted(title.c_str());
  log_last_item_text(title);
  height = std::max(height, 160.0f);
  double low = percent ? 0.0 : INFINITY, high = percent ? 1.0 : -INFINITY;
  for (double v : y)
    if (!std::isnan(v)) low = std::min(low, v), high = std::max(high, v);
  if (!(high >= low)) low = 0, high = 1;  // no value at all
  if (high - low < 1e-12) low -= 0.5, high += 0.5;
  auto label = [&](double v) { return percent ? fmt::format("{:.0f}%", 100 * v) : fmt::format("{:.3g}", v); };
  const float line = ImGui::GetTextLineHeight();
  const float left = ImGui::CalcTextSize(label(high).c_str()).x + ImGui::CalcTextSize("00").x;
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  ImGui::InvisibleButton("line_chart", ImVec2(width, height));
  const bool hovered = ImGui::IsItemHovered();
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text), grid = ImGui::GetColorU32(ImGuiCol_Separator),
              colour = palette(0);
  const ImVec2 a(origin.x + left, origin.y + line * 0.5f), b(origin.x + width - 12, origin.y + height - 2.5f * line);
  const int x0 = x.front(), x1 = std::max(x.back(), x.front() + 1);
  auto px = [&](double v) { return a.x + static_cast<float>((v - x0) / (x1 - x0)) * (b.x - a.x); };
  auto py = [&](double v) { return b.y - static_cast<float>((v - low) / (high - low)) * (b.y - a.y); };
  // Horizontal grid: five levels, labelled on the left.
  for (int k = 0; k <= 4; ++k) {
    const double v = low + (high - low) * k / 4.0;
    const float yy = py(v);
    draw->AddLine(ImVec2(a.x, yy), ImVec2(b.x, yy), grid);
    const std::string t = label(v);
    draw_label(draw, ImVec2(a.x - ImGui::CalcTextSize(t.c_str()).x - 6, yy - line * 0.5f), text, t);
  }
  // x ticks: every point while they fit, else every few.
  const std::size_t every = std::max<std::size_t>(
      1, static_cast<std::size_t>(std::ceil(static_cast<float>(x.size()) * line * 2.2f / std::max(b.x - a.x, 1.0f))));
  for (std::size_t i = 0; i < x.size(); i += every) {
    const std::string t = std::to_string(x[i]);
    draw_label(draw, ImVec2(px(x[i]) - ImGui::CalcTextSize(t.c_str()).x * 0.5f, b.y + 4), text, t);
  }
  draw->AddLine(ImVec2(a.x, b.y), ImVec2(b.x, b.y), text);
  draw->AddLine(ImVec2(a.x, a.y), ImVec2(a.x, b.y), text);
  const ImVec2 xs = ImGui::CalcTextSize(x_label.c_str());
  draw_label(draw, ImVec2((a.x + b.x - xs.x) * 0.5f, b.y + line + 6), text, x_label);
  // The points, joined where neighbours both have values.
  for (std::size_t i = 0; i + 1 < x.size(); ++i)
    if (!std::isnan(y[i]) && !std::isnan(y[i + 1]))
      draw->AddLine(ImVec2(px(x[i]), py(y[i])), ImVec2(px(x[i + 1]), py(y[i + 1])), colour, 2.0f);
  int nearest = -1;
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (std::isnan(y[i])) continue;
    draw->AddCircleFilled(ImVec2(px(x[i]), py(y[i])), 3.5f, colour);
    if (hovered && (nearest < 0 || std::fabs(px(x[i]) - mouse.x) < std::fabs(px(x[nearest]) - mouse.x)))
      nearest = static_cast<int>(i);
  }
  if (nearest >= 0) {
    const auto i = static_cast<std::size_t>(nearest);
    draw->AddCircle(ImVec2(px(x[i]), py(y[i])), 6.0f, text);
    ImGui::BeginTooltip();
    ImGui::Text("%s = %d", x_label.c_str(), x[i]);
    ImGui::Text("%s: %.6g%s", y_label.c_str(), y[i], percent ? (" (" + percent_text(y[i]) + ")").c_str() : "");
    ImGui::EndTooltip();
  }
}

}  // namespace musket::gui
