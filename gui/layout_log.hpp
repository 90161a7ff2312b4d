#pragma once
// A test hook: where this frame drew its labels and bars, in screen coordinates, so a test can
// check that no label overlaps a bar or another label (musket-gui --screenshot --check-overlap).
// Off unless switched on; recording costs nothing when off.
#include <imgui.h>

#include <string>
#include <vector>

namespace musket::gui {

struct drawn_rect {
  ImVec2 min, max;
  bool text = false;  // a label; otherwise a bar (or a heat-map cell)
  std::string what;   // the label's text, or what the bar shows
};

void set_layout_logging(bool on);
bool layout_logging();
// Forgets the previous frame's rectangles (app::draw calls it at the start of each frame).
void begin_layout_frame();
// Records a rectangle as drawn in the current window, cut to its clip rectangle (a rectangle
// clipped away entirely is not recorded).
void log_drawn(ImVec2 min, ImVec2 max, bool text, const std::string& what);
// Records the last ImGui item (a Text line) as a label.
void log_last_item_text(const std::string& what);
// The labels that overlap another label, or a bar they are not wholly inside (a value written on
// its own bar is fine), each pair once: "'label' overlaps 'other' at (x,y)".
std::vector<std::string> layout_overlaps();
// What each bar drawn this frame shows (its label), in drawing order.
std::vector<std::string> layout_bars();

// ImDrawList calls that also log (charts.cpp and the results panel draw through these).
void draw_label(ImDrawList* draw, ImVec2 at, ImU32 colour, const std::string& text);
void draw_bar(ImDrawList* draw, ImVec2 min, ImVec2 max, ImU32 colour, float rounding, const std::string& what);

}  // namespace musket::gui
