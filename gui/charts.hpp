#pragma once
// Pictures drawn with ImGui's draw lists: labelled probability bars, bar charts of a
// distribution, and a heat map. Every bar shows its exact fraction (when there is one) on hover.
#include <imgui.h>

#include <string>
#include <vector>

namespace musket::gui {

struct bar {
  std::string label;  // "defender retreats", "3"
  double value = 0;   // a probability (or, in a heat map, any number)
  std::string exact;  // "5/36" when known
  bool has_interval = false;
  double lower = 0, upper = 0;  // a confidence interval, drawn as a whisker
};

ImU32 palette(int index);
// One horizontal bar: label, a bar from 0 to 1, the percentage; the exact fraction on hover.
void probability_bar(const bar& b, ImU32 colour, float label_width);
// A min/max pair (a probability known only to lie between two values) as one bar: the span from
// min to max over a 0..1 track, "min .. max" beside it; both values and fractions on hover.
void range_bar(const std::string& label, const bar& low, const bar& high, ImU32 colour, float label_width);
// A vertical bar chart of a distribution over small integers, titled, `width` wide.
void distribution_chart(const std::string& title, const std::vector<bar>& bars, ImU32 colour, float width,
                        float height);

struct heat_cell {
  double value = 0;
  bool valid = false;
};
// rows x columns of values; `best_row`/`best_column` get a heavy frame, each row's marked column
// (the defender's best reply) a dot. Returns nothing; hover shows the cell.
void heat_map(const std::string& row_title, const std::string& column_title, const std::vector<int>& row_labels,
              const std::vector<int>& column_labels, const std::vector<std::vector<heat_cell>>& cells,
              const std::vector<int>& marked_column, int best_row, int best_column, bool percent);

// A line chart of y over whole-number x (a one-parameter sweep): axes with ticks and labels,
// the points joined; NaN leaves a gap. Hover shows the point.
void line_chart(const std::string& title, const std::string& x_label, const std::string& y_label,
                const std::vector<int>& x, const std::vector<double>& y, bool percent, float width, float height);

// A probability as the CLI prints it (cli/number_text.hpp): "100%" only for exactly 1.
std::string percent_text(double p);

}  // namespace musket::gui
