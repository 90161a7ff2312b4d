#pragma once
// A test hook: where this frame drew its labels and bars, in screen coordinates, so a test can
// check that no label overlaps a bar or another label, and that none is cut short
// (musket-gui --screenshot --check-overlap).
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
// The labels cut short this frame: wider than their clip rectangle (a column, a window) or than
// the room given to them, each once: "'label' cut to 120 of 180 px at (x,y)". A label scrolled
// out of sight entirely is not cut; one scrolled partly out of sight sideways is (see
// log_text_in_room for the cells of a table that scrolls sideways).
std::vector<std::string> layout_truncations();
// Records a label `needed` pixels wide given `room` pixels from `min` (a table cell: its column's
// width), judged against that room rather than the clip rectangle.
void log_text_in_room(ImVec2 min, ImVec2 max, float needed, float room, const std::string& what);
// What each bar drawn this frame shows (its label), in drawing order.
std::vector<std::string> layout_bars();

// ImDrawList calls that also log (charts.cpp and the results panel draw through these).
void draw_label(ImDrawList* draw, ImVec2 at, ImU32 colour, const std::string& text);
// A label wrapped at `wrap_width` pixels (ImGui's word wrap; a word wider than that breaks).
void draw_wrapped_label(ImDrawList* draw, ImVec2 at, ImU32 colour, const std::string& text, float wrap_width);
void draw_bar(ImDrawList* draw, ImVec2 min, ImVec2 max, ImU32 colour, float rounding, const std::string& what);

}  // namespace musket::gui
