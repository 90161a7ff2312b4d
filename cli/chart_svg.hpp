#pragma once
// Article-ready SVG charts drawn by hand (no plotting dependency): a line chart for a sweep over
// one parameter (one line per metric, 95% bands when given) and a heat map for two parameters.
// Every chart has a title, a subtitle naming the fixed inputs, axis labels and a legend. Marks are
// tagged so tests can count them: class="point" (line chart), class="cell" (heat map).
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <string>
#include <vector>

namespace musket::cli::chart {

struct series {
  std::string name;
  std::vector<double> x, y;  // NaN y: no value at that point (not drawn)
};

inline std::string escape(const std::string& text) {
  std::string out;
  for (char c : text) {
    switch (c) {
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
  }
  return out;
}

inline const char* palette(std::size_t i) {
  static const char* colours[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2"};
  return colours[i % 7];
}

// "Nice" tick values covering [lo, hi].
inline std::vector<double> ticks(double lo, double hi, int wanted = 6) {
  if (!(hi > lo)) hi = lo + 1;
  const double raw = (hi - lo) / wanted;
  const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
  double step = magnitude;
  for (double m : {1.0, 2.0, 2.5, 5.0, 10.0})
    if (m * magnitude >= raw) {
      step = m * magnitude;
      break;
    }
  std::vector<double> out;
  for (double v = std::ceil(lo / step - 1e-9) * step; v <= hi + 1e-9 * step; v += step)
    out.push_back(std::fabs(v) < 1e-9 * step ? 0.0 : v);
  return out;
}

inline std::string number(double v) {
  if (std::fabs(v - std::round(v)) < 1e-9) return fmt::format("{}", static_cast<long long>(std::llround(v)));
  return fmt::format("{:.3g}", v);
}

struct frame {
  double width = 760, height = 480, left = 80, right = 200, top = 70, bottom = 60;
  double plot_w() const { return width - left - right; }
  double plot_h() const { return height - top - bottom; }
};

inline std::string header(const frame& f, const std::string& title, const std::string& subtitle) {
  std::string s = fmt::format(
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" height=\"{1}\" viewBox=\"0 0 {0} {1}\" "
      "font-family=\"Helvetica, Arial, sans-serif\">\n"
      "<rect x=\"0\" y=\"0\" width=\"{0}\" height=\"{1}\" fill=\"white\"/>\n"
      "<text class=\"title\" x=\"{2}\" y=\"28\" font-size=\"18\" font-weight=\"bold\">{3}</text>\n"
      "<text class=\"subtitle\" x=\"{2}\" y=\"50\" font-size=\"11\" fill=\"#555\">{4}</text>\n",
      f.width, f.height, f.left, escape(title), escape(subtitle));
  return s;
}

inline std::string axis_labels(const frame& f, const std::string& x_label, const std::string& y_label) {
  return fmt::format(
      "<text class=\"x-label\" x=\"{0}\" y=\"{1}\" font-size=\"13\" text-anchor=\"middle\">{2}</text>\n"
      "<text class=\"y-label\" x=\"18\" y=\"{3}\" font-size=\"13\" text-anchor=\"middle\" "
      "transform=\"rotate(-90 18 {3})\">{4}</text>\n",
      f.left + f.plot_w() / 2, f.height - 15, escape(x_label), f.top + f.plot_h() / 2, escape(y_label));
}

// A line chart: x is the varied parameter, each series one metric.
inline std::string line_chart(const std::string& title, const std::string& subtitle, const std::string& x_label,
                              const std::string& y_label, const std::vector<series>& lines) {
  frame f;
  // Room for the legend's longest name (about 7 px a character at 12 px).
  std::size_t longest = 0;
  for (const auto& l : lines) longest = std::max(longest, l.name.size());
  f.right = std::max(200.0, 50 + 7.0 * static_cast<double>(longest));
  f.width = 560 + f.right;
  double x_lo = 1e300, x_hi = -1e300, y_lo = 0, y_hi = 1;
  bool probabilities = true;
  for (const auto& l : lines)
    for (std::size_t i = 0; i < l.x.size(); ++i) {
      x_lo = std::min(x_lo, l.x[i]);
      x_hi = std::max(x_hi, l.x[i]);
      if (std::isnan(l.y[i])) continue;
      probabilities = probabilities && l.y[i] >= 0 && l.y[i] <= 1;
      y_lo = std::min(y_lo, l.y[i]);
      y_hi = std::max(y_hi, l.y[i]);
    }
  if (x_lo > x_hi) x_lo = 0, x_hi = 1;
  if (x_hi == x_lo) x_hi = x_lo + 1;
  if (probabilities) y_lo = 0, y_hi = 1;
  const auto px = [&](double x) { return f.left + (x - x_lo) / (x_hi - x_lo) * f.plot_w(); };
  const auto py = [&](double y) { return f.top + f.plot_h() - (y - y_lo) / (y_hi - y_lo) * f.plot_h(); };
  std::string s = header(f, title, subtitle);
  s += "<g class=\"axes\" stroke=\"#333\" stroke-width=\"1\">\n";
  s += fmt::format("<line x1=\"{0}\" y1=\"{1}\" x2=\"{2}\" y2=\"{1}\"/>\n", f.left, f.top + f.plot_h(),
                   f.left + f.plot_w());
  s += fmt::format("<line x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\"/>\n", f.left, f.top, f.top + f.plot_h());
  s += "</g>\n<g class=\"ticks\" font-size=\"11\" fill=\"#333\">\n";
  for (double t : ticks(x_lo, x_hi))
    s += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>\n", px(t), f.top + f.plot_h() + 16,
                     number(t));
  for (double t : ticks(y_lo, y_hi, 5)) {
    s += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text>\n", f.left - 6, py(t) + 4,
                     probabilities ? fmt::format("{:.0f}%", 100 * t) : number(t));
    s += fmt::format("<line x1=\"{0}\" y1=\"{1}\" x2=\"{2}\" y2=\"{1}\" stroke=\"#dddddd\"/>\n", f.left, py(t),
                     f.left + f.plot_w());
  }
  s += "</g>\n";
  s += axis_labels(f, x_label, y_label);
  for (std::size_t k = 0; k < lines.size(); ++k) {
    const auto& l = lines[k];
    std::string points;
    for (std::size_t i = 0; i < l.x.size(); ++i)
      if (!std::isnan(l.y[i])) points += fmt::format("{:.2f},{:.2f} ", px(l.x[i]), py(l.y[i]));
    s += fmt::format("<polyline class=\"series\" fill=\"none\" stroke=\"{}\" stroke-width=\"2\" points=\"{}\"/>\n",
                     palette(k), points);
    for (std::size_t i = 0; i < l.x.size(); ++i)
      if (!std::isnan(l.y[i]))
        s += fmt::format(
            "<circle class=\"point\" cx=\"{:.2f}\" cy=\"{:.2f}\" r=\"3.5\" fill=\"{}\"><title>{} {} = {}: "
            "{:.4g}</title></circle>\n",
            px(l.x[i]), py(l.y[i]), palette(k), escape(l.name), escape(x_label), number(l.x[i]), l.y[i]);
  }
  s += "<g class=\"legend\" font-size=\"12\">\n";
  for (std::size_t k = 0; k < lines.size(); ++k) {
    const double y = f.top + 10 + 20 * static_cast<double>(k);
    const double x = f.left + f.plot_w() + 16;
    s += fmt::format("<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"{}\" stroke-width=\"3\"/>\n", x, y, x + 18,
                     y, palette(k));
    s += fmt::format("<text x=\"{}\" y=\"{}\">{}</text>\n", x + 24, y + 4, escape(lines[k].name));
  }
  s += "</g>\n</svg>\n";
  return s;
}

// White -> dark blue ramp for t in [0, 1], as red, green, blue 0..255 (the dashboard's heat maps
// use it too, so both run the same colour direction).
inline std::array<int, 3> ramp_rgb(double t) {
  t = std::clamp(t, 0.0, 1.0);
  return {static_cast<int>(std::lround(247 + (8 - 247) * t)), static_cast<int>(std::lround(251 + (48 - 251) * t)),
          static_cast<int>(std::lround(255 + (107 - 255) * t))};
}
inline std::string ramp(double t) {
  const auto [r, g, b] = ramp_rgb(t);
  return fmt::format("#{:02x}{:02x}{:02x}", r, g, b);
}

// A heat map: values[i][j] at (xs[i], ys[j]); NaN cells are drawn grey (no value there).
inline std::string heat_map(const std::string& title, const std::string& subtitle, const std::string& x_label,
                            const std::string& y_label, const std::string& value_label, const std::vector<double>& xs,
                            const std::vector<double>& ys, const std::vector<std::vector<double>>& values) {
  const frame f;
  double lo = 1e300, hi = -1e300;
  bool probabilities = true;
  for (const auto& column : values)
    for (double v : column)
      if (!std::isnan(v)) {
        lo = std::min(lo, v);
        hi = std::max(hi, v);
        probabilities = probabilities && v >= 0 && v <= 1;
      }
  if (probabilities) lo = 0, hi = 1;
  if (!(hi > lo)) hi = lo + 1;
  const double cw = f.plot_w() / static_cast<double>(std::max<std::size_t>(1, xs.size()));
  const double ch = f.plot_h() / static_cast<double>(std::max<std::size_t>(1, ys.size()));
  std::string s = header(f, title, subtitle);
  for (std::size_t i = 0; i < xs.size(); ++i)
    for (std::size_t j = 0; j < ys.size(); ++j) {
      const double v = values[i][j];
      const double x = f.left + cw * static_cast<double>(i);
      const double y = f.top + f.plot_h() - ch * static_cast<double>(j + 1);
      const std::string fill = std::isnan(v) ? "#cccccc" : ramp((v - lo) / (hi - lo));
      s += fmt::format(
          "<rect class=\"cell\" x=\"{:.2f}\" y=\"{:.2f}\" width=\"{:.2f}\" height=\"{:.2f}\" "
          "fill=\"{}\"><title>{} = {}, {} = {}: {}</title></rect>\n",
          x, y, cw, ch, fill, escape(x_label), number(xs[i]), escape(y_label), number(ys[j]),
          std::isnan(v) ? std::string("not legal") : fmt::format("{:.4g}", v));
      if (cw >= 34 && ch >= 16 && !std::isnan(v))
        s += fmt::format(
            "<text x=\"{:.2f}\" y=\"{:.2f}\" font-size=\"10\" text-anchor=\"middle\" fill=\"{}\">{}</text>\n",
            x + cw / 2, y + ch / 2 + 3, (v - lo) / (hi - lo) > 0.55 ? "white" : "black",
            probabilities ? fmt::format("{:.0f}%", 100 * v) : fmt::format("{:.3g}", v));
    }
  s += "<g class=\"ticks\" font-size=\"11\" fill=\"#333\">\n";
  for (std::size_t i = 0; i < xs.size(); ++i)
    s += fmt::format("<text x=\"{:.2f}\" y=\"{}\" text-anchor=\"middle\">{}</text>\n",
                     f.left + cw * (static_cast<double>(i) + 0.5), f.top + f.plot_h() + 16, number(xs[i]));
  for (std::size_t j = 0; j < ys.size(); ++j)
    s += fmt::format("<text x=\"{}\" y=\"{:.2f}\" text-anchor=\"end\">{}</text>\n", f.left - 6,
                     f.top + f.plot_h() - ch * (static_cast<double>(j) + 0.5) + 4, number(ys[j]));
  s += "</g>\n";
  s += axis_labels(f, x_label, y_label);
  // Legend: the colour scale in five swatches.
  s += fmt::format("<g class=\"legend\" font-size=\"11\">\n<text x=\"{}\" y=\"{}\" font-size=\"12\">{}</text>\n",
                   f.left + f.plot_w() + 16, f.top + 4, escape(value_label));
  for (int k = 0; k <= 4; ++k) {
    const double t = k / 4.0;
    const double y = f.top + 14 + 22 * k;
    s += fmt::format(
        "<rect class=\"swatch\" x=\"{}\" y=\"{}\" width=\"18\" height=\"18\" fill=\"{}\" stroke=\"#999\"/>\n",
        f.left + f.plot_w() + 16, y, ramp(t));
    const double v = lo + t * (hi - lo);
    s += fmt::format("<text x=\"{}\" y=\"{}\">{}</text>\n", f.left + f.plot_w() + 40, y + 13,
                     probabilities ? fmt::format("{:.0f}%", 100 * v) : fmt::format("{:.3g}", v));
  }
  s += "</g>\n</svg>\n";
  return s;
}

}  // namespace musket::cli::chart
