#include "gui/layout_log.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace musket::gui {

namespace {
bool logging = false;
std::vector<drawn_rect> rects;
std::vector<std::string> cut;

void note_cut(const std::string& what, float shown, float needed, ImVec2 at) {
  const std::string line =
      fmt::format("'{}' cut to {:.0f} of {:.0f} px at ({:.0f},{:.0f})", what, shown, needed, at.x, at.y);
  if (std::find(cut.begin(), cut.end(), line) == cut.end()) cut.push_back(line);
}

// The overlap of two rectangles, or an empty one; a touch or a sub-pixel graze is no overlap.
bool overlap(const drawn_rect& a, const drawn_rect& b) {
  const float w = std::min(a.max.x, b.max.x) - std::max(a.min.x, b.min.x);
  const float h = std::min(a.max.y, b.max.y) - std::max(a.min.y, b.min.y);
  return w > 1.0f && h > 1.0f;
}
bool inside(const drawn_rect& inner, const drawn_rect& outer) {
  return inner.min.x >= outer.min.x - 0.5f && inner.max.x <= outer.max.x + 0.5f && inner.min.y >= outer.min.y - 0.5f &&
         inner.max.y <= outer.max.y + 0.5f;
}
}  // namespace

void set_layout_logging(bool on) {
  logging = on;
}
bool layout_logging() {
  return logging;
}
void begin_layout_frame() {
  rects.clear();
  cut.clear();
}

namespace {
void record(ImDrawList* draw, ImVec2 min, ImVec2 max, bool text, const std::string& what) {
  if (!logging) return;
  const ImVec2 clip_min = draw->GetClipRectMin(), clip_max = draw->GetClipRectMax();
  const ImVec2 full_min = min, full_max = max;
  min = ImVec2(std::max(min.x, clip_min.x), std::max(min.y, clip_min.y));
  max = ImVec2(std::min(max.x, clip_max.x), std::min(max.y, clip_max.y));
  if (max.x <= min.x || max.y <= min.y) return;
  // A label seen in part: its sides clipped (scrolling hides whole lines, top or bottom, but a
  // line cut at a side is a cut label).
  if (text && (full_min.x < min.x - 1.0f || full_max.x > max.x + 1.0f))
    note_cut(what, max.x - min.x, full_max.x - full_min.x, full_min);
  // ... or elided by whoever drew it.
  if (text && what.size() > 3 && what.compare(what.size() - 3, 3, "...") == 0)
    note_cut(what, full_max.x - full_min.x, full_max.x - full_min.x, full_min);
  rects.push_back(drawn_rect{min, max, text, what});
}
}  // namespace

void log_drawn(ImVec2 min, ImVec2 max, bool text, const std::string& what) {
  record(ImGui::GetWindowDrawList(), min, max, text, what);
}

void log_last_item_text(const std::string& what) {
  if (logging) log_drawn(ImGui::GetItemRectMin(), ImGui::GetItemRectMax(), true, what);
}

std::vector<std::string> layout_overlaps() {
  std::vector<std::string> found;
  for (std::size_t i = 0; i < rects.size(); ++i) {
    if (!rects[i].text) continue;
    for (std::size_t j = 0; j < rects.size(); ++j) {
      if (i == j || (rects[j].text && j < i) || !overlap(rects[i], rects[j])) continue;
      if (!rects[j].text && inside(rects[i], rects[j])) continue;  // a value on its own bar
      found.push_back(fmt::format("'{}' overlaps {} '{}' at ({:.0f},{:.0f})", rects[i].what,
                                  rects[j].text ? "label" : "bar", rects[j].what, rects[i].min.x, rects[i].min.y));
    }
  }
  return found;
}

std::vector<std::string> layout_truncations() {
  return cut;
}

void log_text_in_room(ImVec2 min, ImVec2 max, float needed, float room, const std::string& what) {
  if (!logging) return;
  if (needed > room + 1.0f) note_cut(what, room, needed, min);
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const ImVec2 clip_min = draw->GetClipRectMin(), clip_max = draw->GetClipRectMax();
  min = ImVec2(std::max(min.x, clip_min.x), std::max(min.y, clip_min.y));
  max = ImVec2(std::min(max.x, clip_max.x), std::min(max.y, clip_max.y));
  if (max.x <= min.x || max.y <= min.y) return;
  rects.push_back(drawn_rect{min, max, true, what});
}

std::vector<std::string> layout_bars() {
  std::vector<std::string> out;
  for (const auto& r : rects)
    if (!r.text) out.push_back(r.what);
  return out;
}

void draw_label(ImDrawList* draw, ImVec2 at, ImU32 colour, const std::string& text) {
  draw->AddText(at, colour, text.c_str());
  if (logging) {
    const ImVec2 size = ImGui::CalcTextSize(text.c_str());
    record(draw, at, ImVec2(at.x + size.x, at.y + size.y), true, text);
  }
}

void draw_wrapped_label(ImDrawList* draw, ImVec2 at, ImU32 colour, const std::string& text, float wrap_width) {
  draw->AddText(ImGui::GetFont(), ImGui::GetFontSize(), at, colour, text.c_str(), nullptr, wrap_width);
  if (logging) {
    const ImVec2 size = ImGui::CalcTextSize(text.c_str(), nullptr, false, wrap_width);
    record(draw, at, ImVec2(at.x + size.x, at.y + size.y), true, text);
  }
}

void draw_bar(ImDrawList* draw, ImVec2 min, ImVec2 max, ImU32 colour, float rounding, const std::string& what) {
  draw->AddRectFilled(min, max, colour, rounding);
  record(draw, min, max, false, what);
}

}  // namespace musket::gui
