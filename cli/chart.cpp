#include "cli/chart.hpp"

#include <cairo-pdf.h>
#include <cairo-svg.h>
#include <cairo.h>
#include <fmt/format.h>
#include <pango/pangocairo.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <memory>
#include <numbers>
#include <stdexcept>

#include "cli/chart_colours.hpp"
#include "core/printable.hpp"

namespace musket::cli::chart {

namespace {

constexpr const char* font_family = "DejaVu Sans";  // fonts-dejavu-core: a zero without a slash
constexpr double margin = 16;                       // around the whole chart
constexpr double plot_width = 520, plot_height = 330;
constexpr double legend_text_width = 230;  // a legend name wraps past this
constexpr double title_size = 17, subtitle_size = 11, label_size = 13, tick_size = 11, legend_size = 12;

struct colour {
  double r = 0, g = 0, b = 0;
};
colour colour_of(const std::array<int, 3>& c) {
  return {c[0] / 255.0, c[1] / 255.0, c[2] / 255.0};
}
const colour black{0, 0, 0}, ink{0.2, 0.2, 0.2}, grey_text{0.33, 0.33, 0.33}, grid{0.87, 0.87, 0.87}, white{1, 1, 1},
    empty_cell{0.85, 0.85, 0.85};

enum class anchor { start, middle, end };

std::string xml_escape(std::string_view text) {
  std::string out;
  for (char c : text) switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += c;
    }
  return out;
}

// --- numbers as the chart prints them ------------------------------------------------------------

std::string number_text(double v) {
  if (std::fabs(v - std::round(v)) < 1e-9) return fmt::format("{}", static_cast<long long>(std::llround(v)));
  return fmt::format("{:.3g}", v);
}

std::string axis_text(const axis_value& v) {
  return std::holds_alternative<double>(v) ? number_text(std::get<double>(v)) : std::get<std::string>(v);
}

// A probability as a percentage with `decimals` places; a value that is neither 0 nor 1 never
// reads as 0% or 100%.
std::string percent_text(double v, int decimals) {
  const double scale = std::pow(10.0, decimals);
  const double shown = std::round(v * 100 * scale) / scale;
  const std::string step = fmt::format("{:.{}f}", 1 / scale, decimals);
  if (v > 0 && shown <= 0) return "<" + step + "%";
  if (v < 1 && shown >= 100) return ">" + fmt::format("{:.{}f}", 100 - 1 / scale, decimals) + "%";
  return fmt::format("{:.{}f}%", shown, decimals);
}

// A value as a tooltip states it: a probability in percent to two places, or to two significant
// digits when it is that close to 0 or 1.
std::string value_text(double v, bool probability) {
  if (!probability) return fmt::format("{:.4g}", v);
  if (v > 0 && v < 0.001) return fmt::format("{:.2g}%", 100 * v);
  if (v < 1 && v > 0.999) {
    const std::string shown = fmt::format("{:.6g}%", 100 * v);
    return shown == "100%" ? ">99.9999%" : shown;
  }
  return percent_text(v, 2);
}

// A mark's tooltip: <title> with its text escaped.
std::string tooltip(const std::string& text) {
  return "<title>" + xml_escape(text) + "</title>";
}

// "95% interval", or "interval" when the level is not known.
std::string interval_name(const std::optional<double>& level) {
  return level ? number_text(100 * *level) + "% interval" : "interval";
}

// "Nice" tick values inside [lo, hi] (or, when `cover`, from the last at or below lo to the first
// at or above hi); whole steps only when `whole`.
std::vector<double> nice_ticks(double lo, double hi, int wanted, bool whole, bool cover = false) {
  if (!(hi > lo)) hi = lo + 1;
  const double raw = (hi - lo) / wanted;
  const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
  double step = magnitude;
  for (double m : {1.0, 2.0, 2.5, 5.0, 10.0})
    if (m * magnitude >= raw && !(whole && m == 2.5)) {
      step = m * magnitude;
      break;
    }
  if (whole) step = std::max(1.0, std::round(step));
  std::vector<double> out;
  const double first = cover ? std::floor(lo / step + 1e-9) * step : std::ceil(lo / step - 1e-9) * step;
  const double last = cover ? std::ceil(hi / step - 1e-9) * step : hi;
  for (double v = first; v <= last + 1e-9 * step; v += step) out.push_back(std::fabs(v) < 1e-9 * step ? 0.0 : v);
  return out;
}

// The ticks of a probability axis: 0..100% in tenths at full scale, else nice ticks covering the
// values (at least five points wide), kept inside 0..1.
std::vector<double> probability_ticks(double lo, double hi, bool full_scale, int wanted) {
  if (full_scale || !(hi >= lo)) return nice_ticks(0, 1, wanted, false, true);
  constexpr double narrowest = 0.05;
  if (hi - lo < narrowest) {
    const double mid = (lo + hi) / 2;
    lo = std::clamp(mid - narrowest / 2, 0.0, 1.0 - narrowest);
    hi = lo + narrowest;
  }
  std::vector<double> out;
  for (double t : nice_ticks(lo, hi, wanted, false, true))
    if (t >= -1e-9 && t <= 1 + 1e-9) out.push_back(std::clamp(t, 0.0, 1.0));
  return out;
}

// A probability tick: "60%", "62.5%", "0.5%".
std::string percent_tick(double t) {
  return number_text(100 * t) + "%";
}

// --- the pen: cairo for shapes, pango for text, and the SVG's searchable copy ---------------------

struct text_mark {
  std::string role, text;
  double x, y, size;
  anchor where;
  bool bold, rotated;
};

// What the SVG adds over cairo's drawing: the texts and the data marks.
struct svg_layer {
  std::vector<text_mark> texts;
  std::string data;
};

template <class T, void (*Free)(T*)>
struct freer {
  void operator()(T* p) const { Free(p); }
};
void unref_object(void* p) {
  g_object_unref(p);
}

class pen {
 public:
  pen(cairo_t* cr, svg_layer* layer) : cr_(cr), layer_(layer), context_(pango_cairo_create_context(cr)) {
    // No hinting: the same text measures the same on every surface, so SVG, PNG and PDF agree.
    std::unique_ptr<cairo_font_options_t, freer<cairo_font_options_t, cairo_font_options_destroy>> options(
        cairo_font_options_create());
    cairo_font_options_set_hint_metrics(options.get(), CAIRO_HINT_METRICS_OFF);
    cairo_font_options_set_hint_style(options.get(), CAIRO_HINT_STYLE_NONE);
    pango_cairo_context_set_font_options(context_, options.get());
  }
  ~pen() { unref_object(context_); }
  pen(const pen&) = delete;
  pen& operator=(const pen&) = delete;

  cairo_t* cr() const { return cr_; }

  double width_of(const std::string& text, double size, bool bold = false) const {
    PangoLayout* l = layout(text, size, bold);
    PangoRectangle logical;
    pango_layout_get_extents(l, nullptr, &logical);
    unref_object(l);
    return static_cast<double>(logical.width) / PANGO_SCALE;
  }

  // Words filled greedily into lines no wider than `width` (a longer word keeps a line alone).
  std::vector<std::string> wrap(const std::string& text, double size, double width, bool bold = false) const {
    std::vector<std::string> lines;
    std::string line, word;
    auto place = [&] {
      if (word.empty()) return;
      const std::string longer = line.empty() ? word : line + " " + word;
      if (!line.empty() && width_of(longer, size, bold) > width) {
        lines.push_back(line);
        line = word;
      } else {
        line = longer;
      }
      word.clear();
    };
    for (char c : text) {
      if (c == ' ')
        place();
      else
        word += c;
    }
    place();
    if (!line.empty() || lines.empty()) lines.push_back(line);
    return lines;
  }

  // Text with its baseline at (x, y), read upwards when `rotated`; recorded for the SVG under `role`.
  void text(const std::string& role, const std::string& content, double x, double y, double size, anchor where,
            colour c, bool bold = false, bool rotated = false) {
    if (content.empty()) return;
    PangoLayout* l = layout(content, size, bold);
    PangoRectangle logical;
    pango_layout_get_extents(l, nullptr, &logical);
    const double width = static_cast<double>(logical.width) / PANGO_SCALE;
    const double baseline = static_cast<double>(pango_layout_get_baseline(l)) / PANGO_SCALE;
    const double shift = where == anchor::start ? 0 : where == anchor::middle ? width / 2 : width;
    cairo_save(cr_);
    cairo_set_source_rgb(cr_, c.r, c.g, c.b);
    cairo_translate(cr_, x, y);
    if (rotated) cairo_rotate(cr_, -std::numbers::pi / 2);
    cairo_move_to(cr_, -shift, -baseline);
    pango_cairo_update_layout(cr_, l);
    pango_cairo_show_layout(cr_, l);
    cairo_restore(cr_);
    unref_object(l);
    if (layer_) layer_->texts.push_back(text_mark{role, content, x, y, size, where, bold, rotated});
  }

  void data(const std::string& element) {
    if (layer_) layer_->data += element;
  }

  void fill_rect(double x, double y, double w, double h, colour c) {
    cairo_rectangle(cr_, x, y, w, h);
    cairo_set_source_rgb(cr_, c.r, c.g, c.b);
    cairo_fill(cr_);
  }
  void line(double x1, double y1, double x2, double y2, double width, colour c) {
    cairo_move_to(cr_, x1, y1);
    cairo_line_to(cr_, x2, y2);
    stroke(width, c);
  }
  void stroke(double width, colour c) {
    cairo_set_source_rgb(cr_, c.r, c.g, c.b);
    cairo_set_line_width(cr_, width);
    cairo_stroke(cr_);
  }
  void dot(double x, double y, double r, colour c) {
    cairo_new_sub_path(cr_);
    cairo_arc(cr_, x, y, r, 0, 2 * std::numbers::pi);
    cairo_set_source_rgb(cr_, c.r, c.g, c.b);
    cairo_fill_preserve(cr_);
    stroke(1, white);
  }

 private:
  PangoLayout* layout(const std::string& text, double size, bool bold) const {
    PangoLayout* l = pango_layout_new(context_);
    std::unique_ptr<PangoFontDescription, freer<PangoFontDescription, pango_font_description_free>> font(
        pango_font_description_new());
    pango_font_description_set_family(font.get(), font_family);
    pango_font_description_set_absolute_size(font.get(), size * PANGO_SCALE);
    pango_font_description_set_weight(font.get(), bold ? PANGO_WEIGHT_BOLD : PANGO_WEIGHT_NORMAL);
    pango_layout_set_font_description(l, font.get());
    pango_layout_set_text(l, text.c_str(), -1);
    return l;
  }

  cairo_t* cr_;
  svg_layer* layer_;
  PangoContext* context_;
};

// --- layout: where everything goes, measured before any surface exists --------------------------

struct frame {
  double width = 0, height = 0;
  double left = 0, top = 0;  // the plot area's top-left corner
  double plot_w = plot_width, plot_h = plot_height;
  double legend_x = 0;
  std::vector<std::string> title_lines, subtitle_lines;
  double right() const { return left + plot_w; }
  double bottom() const { return top + plot_h; }
};

struct chart_words {
  const std::string &title, &subtitle;
};
chart_words words_of(const chart& c) {
  return std::visit([](const auto& v) { return chart_words{v.title, v.subtitle}; }, c);
}

// The widest legend text of a chart, wrapped at legend_text_width.
double legend_width(const pen& p, const chart& c) {
  double widest = 0;
  auto take = [&](const std::string& text, double size) {
    for (const auto& line : p.wrap(text, size, legend_text_width)) widest = std::max(widest, p.width_of(line, size));
  };
  if (const auto* l = std::get_if<line_chart>(&c)) {
    for (const auto& s : l->lines) take(s.name, legend_size);
    return 30 + widest;  // the line sample, then the name
  }
  auto heat_legend = [&](const heat_map& h) { take(h.value_label, legend_size); };
  if (const auto* h = std::get_if<heat_map>(&c)) heat_legend(*h);
  if (const auto* maps = std::get_if<heat_maps>(&c))
    for (const auto& h : maps->panels) heat_legend(h);
  return std::max(widest, 150.0);
}

// Panels of a heat_maps chart: each one's heading, plot and x labels take this much height.
constexpr double panel_heading = 26, panel_step = panel_heading + plot_height + 58;
std::size_t panel_count(const chart& c) {
  const auto* maps = std::get_if<heat_maps>(&c);
  return maps ? std::max<std::size_t>(1, maps->panels.size()) : 0;
}

frame layout_of(const pen& p, const chart& c) {
  frame f;
  f.left = margin + 62;  // the y label, then the tick labels
  f.legend_x = f.left + f.plot_w + 28;
  f.width = std::ceil(f.legend_x + legend_width(p, c) + margin);
  const auto words = words_of(c);
  f.title_lines = p.wrap(words.title, title_size, f.width - 2 * margin, true);
  f.subtitle_lines = p.wrap(words.subtitle, subtitle_size, f.width - 2 * margin);
  if (words.subtitle.empty()) f.subtitle_lines.clear();
  f.top = margin + 22.0 * static_cast<double>(f.title_lines.size()) +
          15.0 * static_cast<double>(f.subtitle_lines.size()) + 28;
  f.height = std::ceil(f.top + f.plot_h + 58);
  if (const std::size_t panels = panel_count(c)) f.height = std::ceil(f.top + panel_step * static_cast<double>(panels));
  return f;
}

void draw_header(pen& p, const frame& f) {
  double y = margin + title_size;
  for (const auto& line : f.title_lines) {
    p.text("title", line, margin, y, title_size, anchor::start, black, true);
    y += 22;
  }
  y += 15 - 22 + subtitle_size;
  for (const auto& line : f.subtitle_lines) {
    p.text("subtitle", line, margin, y, subtitle_size, anchor::start, grey_text);
    y += 15;
  }
}

void draw_axis_labels(pen& p, const frame& f, const std::string& x_label, const std::string& y_label) {
  p.text("x-label", x_label, f.left + f.plot_w / 2, f.bottom() + 44, label_size, anchor::middle, black);
  p.text("y-label", y_label, margin + label_size, f.top + f.plot_h / 2, label_size, anchor::middle, black, false, true);
}

// Category labels under (or beside) evenly spaced positions, every k-th one when they would touch.
std::size_t label_stride(const pen& p, const std::vector<std::string>& labels, double spacing, bool across) {
  double widest = 0;
  for (const auto& l : labels) widest = std::max(widest, across ? p.width_of(l, tick_size) : tick_size);
  return std::max<std::size_t>(1, static_cast<std::size_t>(std::ceil((widest + 8) / std::max(spacing, 1.0))));
}

// --- the line chart -----------------------------------------------------------------------------

void draw_line_chart(pen& p, const frame& f, const line_chart& c) {
  cairo_t* cr = p.cr();
  // The x axis: categories in order of first appearance, or numbers on a linear scale.
  bool categorical = false;
  std::vector<std::string> categories;
  double x_lo = 1e300, x_hi = -1e300;
  bool whole_x = true;
  for (const auto& s : c.lines)
    for (const auto& pt : s.points) {
      if (const auto* text = std::get_if<std::string>(&pt.x)) {
        categorical = true;
        if (std::find(categories.begin(), categories.end(), *text) == categories.end()) categories.push_back(*text);
      } else {
        const double x = std::get<double>(pt.x);
        x_lo = std::min(x_lo, x), x_hi = std::max(x_hi, x);
        whole_x = whole_x && std::fabs(x - std::round(x)) < 1e-9;
      }
    }
  if (categorical)  // a mix: numbers become categories too, after the named ones
    for (const auto& s : c.lines)
      for (const auto& pt : s.points)
        if (const auto* x = std::get_if<double>(&pt.x))
          if (std::find(categories.begin(), categories.end(), number_text(*x)) == categories.end())
            categories.push_back(number_text(*x));
  if (x_lo > x_hi) x_lo = 0, x_hi = 1;
  if (x_hi == x_lo) x_lo -= 1, x_hi += 1;
  const double pad = categorical ? 0 : 0.03 * (x_hi - x_lo);
  const auto px = [&](const axis_value& x) {
    if (categorical) {
      const std::string key = axis_text(x);
      const auto i = static_cast<double>(std::find(categories.begin(), categories.end(), key) - categories.begin());
      return f.left + (i + 0.5) * f.plot_w / static_cast<double>(categories.size());
    }
    return f.left + (std::get<double>(x) - x_lo + pad) / (x_hi - x_lo + 2 * pad) * f.plot_w;
  };

  // The y axis: for probabilities nice ticks around the values and their intervals (0..100% at
  // full scale), else from 0 (or below) to the highest value or interval end.
  double y_lo = 0, y_hi = -1e300;
  std::vector<double> y_ticks;
  if (c.y_is_probability) {
    double lo = 1e300, hi = -1e300;
    for (const auto& s : c.lines)
      for (const auto& pt : s.points)
        for (const auto& v : {pt.y, pt.low, pt.high})
          if (v) lo = std::min(lo, *v), hi = std::max(hi, *v);
    y_ticks = probability_ticks(lo, hi, c.full_scale, 5);
    y_lo = y_ticks.front(), y_hi = y_ticks.back();
  } else {
    for (const auto& s : c.lines)
      for (const auto& pt : s.points)
        for (const auto& v : {pt.y, pt.low, pt.high})
          if (v) y_lo = std::min(y_lo, *v), y_hi = std::max(y_hi, *v);
    if (!(y_hi > y_lo)) y_hi = y_lo + 1;
    y_ticks = nice_ticks(y_lo, y_hi, 5, false, true);
    y_lo = std::min(y_lo, y_ticks.front()), y_hi = std::max(y_hi, y_ticks.back());
  }
  const auto py = [&](double y) { return f.bottom() - (y - y_lo) / (y_hi - y_lo) * f.plot_h; };

  for (double t : y_ticks) {
    p.line(f.left, py(t), f.right(), py(t), 1, grid);
    p.text("tick", c.y_is_probability ? percent_tick(t) : number_text(t), f.left - 6, py(t) + 4, tick_size, anchor::end,
           ink);
  }
  p.line(f.left, f.bottom(), f.right(), f.bottom(), 1, ink);
  p.line(f.left, f.top, f.left, f.bottom(), 1, ink);
  if (categorical) {
    const std::size_t stride = label_stride(p, categories, f.plot_w / static_cast<double>(categories.size()), true);
    for (std::size_t i = 0; i < categories.size(); i += stride) {
      const double x = px(categories[i]);
      p.line(x, f.bottom(), x, f.bottom() + 4, 1, ink);
      p.text("tick", categories[i], x, f.bottom() + 18, tick_size, anchor::middle, ink);
    }
  } else {
    for (double t : nice_ticks(x_lo, x_hi, 8, whole_x)) {
      p.line(px(t), f.bottom(), px(t), f.bottom() + 4, 1, ink);
      p.text("tick", number_text(t), px(t), f.bottom() + 18, tick_size, anchor::middle, ink);
    }
  }
  draw_axis_labels(p, f, c.x_label, c.y_label);

  bool any_interval = false;
  for (std::size_t k = 0; k < c.lines.size(); ++k) {
    const auto& s = c.lines[k];
    const colour col = colour_of(palette_rgb(k));
    std::string marks, d;
    // Error bars first, under the line: a vertical bar with short caps.
    for (const auto& pt : s.points) {
      if (!pt.y || !pt.low || !pt.high) continue;
      any_interval = true;
      const double x = px(pt.x), lo = py(*pt.low), hi = py(*pt.high);
      p.line(x, lo, x, hi, 1.2, col);
      p.line(x - 3.5, lo, x + 3.5, lo, 1.2, col);
      p.line(x - 3.5, hi, x + 3.5, hi, 1.2, col);
      marks += fmt::format(
          "<path class=\"error-bar\" d=\"M {:.2f} {:.2f} L {:.2f} {:.2f}\" fill=\"none\" stroke=\"#000\" "
          "stroke-opacity=\"0\" stroke-width=\"6\">{}</path>\n",
          x, lo, x, hi,
          tooltip(fmt::format("{}, {} = {}: {} {} to {}", s.name, c.x_label, axis_text(pt.x),
                              interval_name(c.interval_level), value_text(*pt.low, c.y_is_probability),
                              value_text(*pt.high, c.y_is_probability))));
    }
    // The line through consecutive values; a point without one breaks it.
    bool open = false;
    for (const auto& pt : s.points) {
      if (!pt.y) {
        open = false;
        continue;
      }
      const double x = px(pt.x), y = py(*pt.y);
      if (open)
        cairo_line_to(cr, x, y);
      else
        cairo_move_to(cr, x, y);
      d += fmt::format("{} {:.2f} {:.2f} ", open ? "L" : "M", x, y);
      open = true;
    }
    cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
    p.stroke(2, col);
    for (const auto& pt : s.points) {
      if (!pt.y) continue;
      const double x = px(pt.x), y = py(*pt.y);
      p.dot(x, y, 3.5, col);
      marks += fmt::format("<circle class=\"point\" cx=\"{:.2f}\" cy=\"{:.2f}\" r=\"6\">{}</circle>\n", x, y,
                           tooltip(fmt::format("{}, {} = {}: {}", s.name, c.x_label, axis_text(pt.x),
                                               value_text(*pt.y, c.y_is_probability))));
    }
    if (!d.empty()) d.pop_back();
    p.data(
        fmt::format("<g class=\"series\">{}\n<path class=\"series\" d=\"{}\" fill=\"none\" "
                    "stroke=\"#000\" stroke-opacity=\"0\" stroke-width=\"8\"/>\n{}</g>\n",
                    tooltip(s.name), d, marks));
  }

  // The legend: a line sample and the name (wrapped) per series, then what the bars mean.
  double y = f.top + 8;
  for (std::size_t k = 0; k < c.lines.size(); ++k) {
    const colour col = colour_of(palette_rgb(k));
    p.line(f.legend_x, y, f.legend_x + 20, y, 2, col);
    p.dot(f.legend_x + 10, y, 3.5, col);
    for (const auto& line : p.wrap(c.lines[k].name, legend_size, legend_text_width)) {
      p.text("legend-entry", line, f.legend_x + 28, y + 4, legend_size, anchor::start, black);
      y += 16;
    }
    y += 6;
  }
  if (any_interval) {
    y += 4;
    p.line(f.legend_x + 10, y - 7, f.legend_x + 10, y + 7, 1.2, ink);
    p.line(f.legend_x + 6.5, y - 7, f.legend_x + 13.5, y - 7, 1.2, ink);
    p.line(f.legend_x + 6.5, y + 7, f.legend_x + 13.5, y + 7, 1.2, ink);
    p.text("legend-note", "bars: " + interval_name(c.interval_level) + "s", f.legend_x + 28, y + 4, tick_size,
           anchor::start, grey_text);
  }
}

// --- the heat map -------------------------------------------------------------------------------

void draw_heat_map(pen& p, const frame& f, const heat_map& c) {
  // The colours run over the values' range: for probabilities widened to nice ticks (0..100% at
  // full scale), else from the lowest value to the highest.
  double lo = 1e300, hi = -1e300;
  for (const auto& column : c.cells)
    for (const auto& v : column)
      if (v) lo = std::min(lo, *v), hi = std::max(hi, *v);
  if (c.value_is_probability) {
    const auto ticks = probability_ticks(lo, hi, c.full_scale, 4);
    lo = ticks.front(), hi = ticks.back();
  } else {
    if (lo > hi) lo = 0, hi = 1;
    if (!(hi > lo)) hi = lo + 1;
  }
  const auto share = [&](double v) { return (v - lo) / (hi - lo); };
  const double cw = f.plot_w / static_cast<double>(std::max<std::size_t>(1, c.xs.size()));
  const double ch = f.plot_h / static_cast<double>(std::max<std::size_t>(1, c.ys.size()));
  bool any_empty = false;
  for (std::size_t i = 0; i < c.xs.size(); ++i)
    for (std::size_t j = 0; j < c.ys.size(); ++j) {
      const std::optional<double> v = i < c.cells.size() && j < c.cells[i].size() ? c.cells[i][j] : std::nullopt;
      const double x = f.left + cw * static_cast<double>(i);
      const double y = f.bottom() - ch * static_cast<double>(j + 1);
      any_empty = any_empty || !v;
      p.fill_rect(x, y, cw, ch, v ? colour_of(ramp_rgb(share(*v))) : empty_cell);
      if (v) {
        const std::string shown = c.value_is_probability ? percent_text(*v, 0) : fmt::format("{:.3g}", *v);
        if (p.width_of(shown, 10) + 4 <= cw && ch >= 13)
          p.text("cell-value", shown, x + cw / 2, y + ch / 2 + 3.5, 10, anchor::middle,
                 share(*v) > 0.55 ? white : black);
      }
      p.data(fmt::format(
          "<rect class=\"cell\" x=\"{:.2f}\" y=\"{:.2f}\" width=\"{:.2f}\" height=\"{:.2f}\">{}</rect>\n", x, y, cw, ch,
          tooltip(fmt::format("{} = {}, {} = {}: {}", c.x_label, axis_text(c.xs[i]), c.y_label, axis_text(c.ys[j]),
                              v ? value_text(*v, c.value_is_probability) : std::string("not legal")))));
    }
  // Thin white lines between cells.
  for (std::size_t i = 1; i < c.xs.size(); ++i)
    p.line(f.left + cw * static_cast<double>(i), f.top, f.left + cw * static_cast<double>(i), f.bottom(), 0.5, white);
  for (std::size_t j = 1; j < c.ys.size(); ++j)
    p.line(f.left, f.bottom() - ch * static_cast<double>(j), f.right(), f.bottom() - ch * static_cast<double>(j), 0.5,
           white);

  std::vector<std::string> x_names, y_names;
  for (const auto& x : c.xs) x_names.push_back(axis_text(x));
  for (const auto& y : c.ys) y_names.push_back(axis_text(y));
  const std::size_t x_stride = label_stride(p, x_names, cw, true), y_stride = label_stride(p, y_names, ch, false);
  for (std::size_t i = 0; i < x_names.size(); i += x_stride)
    p.text("tick", x_names[i], f.left + cw * (static_cast<double>(i) + 0.5), f.bottom() + 18, tick_size, anchor::middle,
           ink);
  for (std::size_t j = 0; j < y_names.size(); j += y_stride)
    p.text("tick", y_names[j], f.left - 6, f.bottom() - ch * (static_cast<double>(j) + 0.5) + 4, tick_size, anchor::end,
           ink);
  draw_axis_labels(p, f, c.x_label, c.y_label);

  // The colour legend: the value's name, the ramp as a vertical bar (low at the bottom) with ticks,
  // the colour of an empty cell, and how wide the intervals are.
  double y = f.top + 8;
  for (const auto& line : p.wrap(c.value_label, legend_size, 150)) {
    p.text("legend-title", line, f.legend_x, y + 4, legend_size, anchor::start, black);
    y += 16;
  }
  const double bar_top = y + 4, bar_h = std::min(180.0, f.bottom() - bar_top - 70), bar_w = 16;
  cairo_t* cr = p.cr();
  std::unique_ptr<cairo_pattern_t, freer<cairo_pattern_t, cairo_pattern_destroy>> ramp(
      cairo_pattern_create_linear(0, bar_top + bar_h, 0, bar_top));
  const colour low = colour_of(ramp_low), high = colour_of(ramp_high);
  cairo_pattern_add_color_stop_rgb(ramp.get(), 0, low.r, low.g, low.b);
  cairo_pattern_add_color_stop_rgb(ramp.get(), 1, high.r, high.g, high.b);
  cairo_rectangle(cr, f.legend_x, bar_top, bar_w, bar_h);
  cairo_set_source(cr, ramp.get());
  cairo_fill_preserve(cr);
  p.stroke(0.5, ink);
  for (double t : nice_ticks(lo, hi, 4, false)) {
    const double ty = bar_top + bar_h - share(t) * bar_h;
    p.line(f.legend_x + bar_w, ty, f.legend_x + bar_w + 4, ty, 1, ink);
    p.text("legend-entry", c.value_is_probability ? percent_tick(t) : number_text(t), f.legend_x + bar_w + 7, ty + 4,
           tick_size, anchor::start, ink);
  }
  y = bar_top + bar_h + 22;
  if (any_empty) {
    p.fill_rect(f.legend_x, y - 10, bar_w, 12, empty_cell);
    p.text("legend-entry", "no legal point", f.legend_x + bar_w + 7, y, tick_size, anchor::start, ink);
    y += 20;
  }
  if (c.interval_width) {
    const std::string width = c.value_is_probability ? fmt::format("{:.1f} percentage points", 100 * *c.interval_width)
                                                     : fmt::format("{:.3g}", *c.interval_width);
    std::string note = interval_name(c.interval_level) + "s at most " + width + " wide";
    note[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(note[0])));
    for (const auto& line : p.wrap(note, tick_size, 150)) {
      p.text("legend-note", line, f.legend_x, y, tick_size, anchor::start, grey_text);
      y += 14;
    }
  }
}

// --- surfaces -----------------------------------------------------------------------------------

cairo_status_t append_bytes(void* out, const unsigned char* data, unsigned int length) {
  static_cast<std::string*>(out)->append(reinterpret_cast<const char*>(data), length);
  return CAIRO_STATUS_SUCCESS;
}

using surface_ptr = std::unique_ptr<cairo_surface_t, freer<cairo_surface_t, cairo_surface_destroy>>;
using context_ptr = std::unique_ptr<cairo_t, freer<cairo_t, cairo_destroy>>;

void check(cairo_status_t status) {
  if (status != CAIRO_STATUS_SUCCESS)
    throw std::runtime_error(std::string("cairo could not draw the chart: ") + cairo_status_to_string(status));
}

// A pen on a scratch surface, for measuring text before the chart's surface exists.
struct measuring_pen {
  surface_ptr surface{cairo_image_surface_create(CAIRO_FORMAT_RGB24, 1, 1)};
  context_ptr cr{cairo_create(surface.get())};
  pen p{cr.get(), nullptr};
};

void draw(pen& p, const frame& f, const chart& c) {
  p.fill_rect(0, 0, f.width, f.height, white);
  draw_header(p, f);
  if (const auto* l = std::get_if<line_chart>(&c)) {
    draw_line_chart(p, f, *l);
  } else if (const auto* h = std::get_if<heat_map>(&c)) {
    draw_heat_map(p, f, *h);
  } else {
    const auto& maps = std::get<heat_maps>(c);
    for (std::size_t k = 0; k < maps.panels.size(); ++k) {
      frame panel = f;
      const double top = f.top + panel_step * static_cast<double>(k);
      panel.top = top + panel_heading;
      p.text("panel-title", maps.panels[k].title, margin, top + 12, label_size, anchor::start, black, true);
      p.data("<g class=\"panel\">\n");
      draw_heat_map(p, panel, maps.panels[k]);
      p.data("</g>\n");
    }
  }
}

// cairo's SVG with the title, the subtitle, the texts and the data marks added (see chart.hpp).
std::string with_svg_layer(std::string svg, const chart& c, const svg_layer& layer) {
  const auto open = svg.find("<svg");
  const auto open_end = open == std::string::npos ? open : svg.find('>', open);
  const auto close = svg.rfind("</svg>");
  if (open_end == std::string::npos || close == std::string::npos || close < open_end)
    throw std::runtime_error("cairo wrote an SVG without its <svg> element");
  std::string texts =
      fmt::format("<g class=\"texts\" font-family=\"{}\" fill=\"#000\" fill-opacity=\"0\">\n", font_family);
  for (const auto& t : layer.texts) {
    texts += fmt::format("<text class=\"{}\" x=\"{:.2f}\" y=\"{:.2f}\" font-size=\"{}\"", t.role, t.x, t.y, t.size);
    if (t.bold) texts += " font-weight=\"bold\"";
    if (t.where != anchor::start)
      texts += t.where == anchor::middle ? " text-anchor=\"middle\"" : " text-anchor=\"end\"";
    if (t.rotated) texts += fmt::format(" transform=\"rotate(-90 {:.2f} {:.2f})\"", t.x, t.y);
    texts += ">" + xml_escape(t.text) + "</text>\n";
  }
  texts += "</g>\n<g class=\"data\" fill=\"#000\" fill-opacity=\"0\">\n" + layer.data + "</g>\n";
  svg.insert(close, texts);
  const auto words = words_of(c);
  svg.insert(open_end + 1,
             "\n<title>" + xml_escape(words.title) + "</title>\n<desc>" + xml_escape(words.subtitle) + "</desc>");
  return svg;
}

// The chart with every text made plain (core/printable.hpp): whatever bytes a title, a label or
// a category holds, Pango gets UTF-8 and the SVG only characters XML allows.
void make_plain(axis_value& v) {
  if (auto* text = std::get_if<std::string>(&v)) *text = plain_text(*text);
}
void make_plain(heat_map& h) {
  for (std::string* text : {&h.title, &h.subtitle, &h.x_label, &h.y_label, &h.value_label}) *text = plain_text(*text);
  for (auto& x : h.xs) make_plain(x);
  for (auto& y : h.ys) make_plain(y);
}
chart plain_chart(chart c) {
  if (auto* l = std::get_if<line_chart>(&c)) {
    for (std::string* text : {&l->title, &l->subtitle, &l->x_label, &l->y_label}) *text = plain_text(*text);
    for (auto& s : l->lines) {
      s.name = plain_text(s.name);
      for (auto& p : s.points) make_plain(p.x);
    }
  } else if (auto* h = std::get_if<heat_map>(&c)) {
    make_plain(*h);
  } else {
    auto& maps = std::get<heat_maps>(c);
    maps.title = plain_text(maps.title);
    maps.subtitle = plain_text(maps.subtitle);
    for (auto& panel : maps.panels) make_plain(panel);
  }
  return c;
}

}  // namespace

std::optional<format> format_of_path(std::string_view path) {
  const auto dot = path.rfind('.');
  if (dot == std::string_view::npos || path.find('/', dot) != std::string_view::npos) return std::nullopt;
  std::string ext(path.substr(dot + 1));
  for (char& ch : ext) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  if (ext == "svg") return format::svg;
  if (ext == "png") return format::png;
  if (ext == "pdf") return format::pdf;
  return std::nullopt;
}

size chart_size(const chart& given) {
  const chart c = plain_chart(given);
  measuring_pen m;
  const frame f = layout_of(m.p, c);
  return {static_cast<int>(f.width), static_cast<int>(f.height)};
}

std::string write_chart(const chart& given, format kind) {
  const chart c = plain_chart(given);
  frame f;
  {
    measuring_pen m;
    f = layout_of(m.p, c);
  }
  std::string bytes;
  surface_ptr surface;
  double scale = 1;
  switch (kind) {
    case format::svg:
      surface.reset(cairo_svg_surface_create_for_stream(append_bytes, &bytes, f.width, f.height));
      cairo_svg_surface_set_document_unit(surface.get(), CAIRO_SVG_UNIT_PX);
      break;
    case format::pdf:
      scale = 0.75;  // 1 px = 0.75 pt
      surface.reset(cairo_pdf_surface_create_for_stream(append_bytes, &bytes, f.width * scale, f.height * scale));
      cairo_pdf_surface_set_metadata(surface.get(), CAIRO_PDF_METADATA_TITLE, words_of(c).title.c_str());
      cairo_pdf_surface_set_metadata(surface.get(), CAIRO_PDF_METADATA_CREATOR, "musket");
      break;
    case format::png:
      scale = png_scale;
      surface.reset(cairo_image_surface_create(CAIRO_FORMAT_RGB24, static_cast<int>(f.width * scale),
                                               static_cast<int>(f.height * scale)));
      break;
  }
  check(cairo_surface_status(surface.get()));
  svg_layer layer;
  {
    context_ptr cr(cairo_create(surface.get()));
    cairo_scale(cr.get(), scale, scale);
    pen p(cr.get(), kind == format::svg ? &layer : nullptr);
    draw(p, f, c);
    check(cairo_status(cr.get()));
  }
  if (kind == format::png) check(cairo_surface_write_to_png_stream(surface.get(), append_bytes, &bytes));
  cairo_surface_finish(surface.get());
  check(cairo_surface_status(surface.get()));
  surface.reset();
  return kind == format::svg ? with_svg_layer(std::move(bytes), c, layer) : bytes;
}

}  // namespace musket::cli::chart
