// cli/chart.hpp in the web build, which has no cairo: `sweep --plot` is refused before any point
// runs (format_of_path is the first call), with one line saying where charts are drawn instead
// (the page draws a sweep from its JSON itself).
#include "cli/chart.hpp"
#include "core/invalid_input.hpp"

namespace musket::cli::chart {

namespace {
[[noreturn]] void refuse() {
  throw invalid_input("plot",
                      "chart files are not written in the web build (the page draws a sweep itself); musket on a "
                      "computer writes FILE.svg, FILE.png or FILE.pdf");
}
}  // namespace

std::optional<format> format_of_path(std::string_view) {
  refuse();
}

size chart_size(const chart&) {
  refuse();
}

std::string write_chart(const chart&, format) {
  refuse();
}

}  // namespace musket::cli::chart
