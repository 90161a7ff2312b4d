#pragma once
// Charts an article can print: value types for a line chart (one parameter varied) and a heat map
// (two), and one drawing code (cairo, text through pango in DejaVu Sans) that writes them as SVG,
// PNG or PDF. Every chart has a title, a subtitle, axis labels and a legend; probabilities get a
// percent axis, points with an interval get error bars, a heat map a colour legend.
//
// The SVG is cairo's drawing (its text as glyph outlines) plus what a reader or a program can
// search: the title and subtitle as <title> and <desc>, every drawn text again as transparent
// <text> (class "title", "subtitle", "x-label", "y-label", "tick", "legend-entry", ...), and the
// data as transparent marks with tooltips: per series <g class="series"> holding one
// <path class="series">, a <circle class="point"> per value and a <path class="error-bar"> per
// interval; per heat-map cell <rect class="cell">. Each mark's <title> states its value.
// Any bytes may stand in a text: bytes that are not UTF-8 and control characters are drawn (and
// written) as U+FFFD, so the SVG is always well-formed XML and Pango always gets UTF-8.
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace musket::cli::chart {

// An x or y position: a number or a category ("fort", "D+H").
using axis_value = std::variant<double, std::string>;

struct point {
  axis_value x;
  std::optional<double> y;          // none: no value here (an illegal point), a gap in the line
  std::optional<double> low, high;  // an interval around y (a simulated answer): an error bar
};

struct series {
  std::string name;
  std::vector<point> points;
};

struct line_chart {
  std::string title, subtitle, x_label, y_label;
  bool y_is_probability = false;  // a percent axis
  bool full_scale = false;        // a probability axis from 0 to 100%, else fitted to the data (nice ticks)
  std::vector<series> lines;
  std::optional<double> interval_level;  // e.g. 0.95, named in the legend when points have intervals
};

struct heat_map {
  std::string title, subtitle, x_label, y_label, value_label;
  bool value_is_probability = false;  // percentages
  bool full_scale = false;            // the colours run over 0..100%, else over the data's range (nice ticks)
  std::vector<axis_value> xs, ys;
  std::vector<std::vector<std::optional<double>>> cells;  // cells[i][j] at (xs[i], ys[j]); none: not legal
  std::optional<double> interval_width;                   // the widest interval of any cell (simulated sweeps)
  std::optional<double> interval_level;
};

// Several heat maps over the same grid (a sweep of several metrics over two parameters): one panel
// per map, one above the other, each headed by its own title and with its own colour legend; in
// the SVG each panel's marks are grouped in a <g class="panel">.
struct heat_maps {
  std::string title, subtitle;
  std::vector<heat_map> panels;
};

using chart = std::variant<line_chart, heat_map, heat_maps>;

enum class format { svg, png, pdf };

// The format a file name asks for by its extension (.svg, .png, .pdf, any case); none otherwise.
std::optional<format> format_of_path(std::string_view path);

// The chart's size in CSS pixels (its width grows with a long legend). A PNG has png_scale times
// as many pixels each way; a PDF page is 0.75 pt a pixel (720 px = 7.5 in).
struct size {
  int width = 0, height = 0;
};
inline constexpr int png_scale = 2;
size chart_size(const chart& c);

// The chart drawn in the format: the file's bytes. Throws std::runtime_error if cairo fails.
std::string write_chart(const chart& c, format f);

}  // namespace musket::cli::chart
