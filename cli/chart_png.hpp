#pragma once
// PNG export of the charts in chart_svg.hpp: a small rasteriser for exactly the SVG subset those
// charts emit (rect, line, polyline, circle, text; <g> attributes inherited; rotate(-90) text),
// text drawn with stb_easy_font's built-in quads and written with stb_image_write (libstb-dev).
// Both stb headers are compiled here as static functions, so nothing clashes with other users.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
#pragma GCC diagnostic ignored "-Wsign-compare"
#pragma GCC diagnostic ignored "-Wunused-parameter"
#include <stb/stb_easy_font.h>
#ifndef STB_IMAGE_WRITE_IMPLEMENTATION
#define STB_IMAGE_WRITE_STATIC
#define STB_IMAGE_WRITE_IMPLEMENTATION
#endif
#include <stb/stb_image_write.h>
#pragma GCC diagnostic pop

namespace musket::cli::chart {

struct rgb {
  std::uint8_t r = 0, g = 0, b = 0;
  bool none = false;
};

inline rgb parse_colour(const std::string& text) {
  if (text.empty() || text == "none") return {0, 0, 0, true};
  if (text == "white") return {255, 255, 255, false};
  if (text == "black") return {0, 0, 0, false};
  if (text.size() == 7 && text[0] == '#') {
    const long v = std::strtol(text.c_str() + 1, nullptr, 16);
    return {static_cast<std::uint8_t>((v >> 16) & 255), static_cast<std::uint8_t>((v >> 8) & 255),
            static_cast<std::uint8_t>(v & 255), false};
  }
  return {0, 0, 0, false};
}

class canvas {
 public:
  canvas(int width, int height) : w_(width), h_(height), pixels_(static_cast<std::size_t>(width * height * 3), 255) {}
  void fill_rect(double x0, double y0, double x1, double y1, rgb c) {
    if (c.none) return;
    const int ax = std::max(0, static_cast<int>(std::lround(std::min(x0, x1))));
    const int bx = std::min(w_, static_cast<int>(std::lround(std::max(x0, x1))));
    const int ay = std::max(0, static_cast<int>(std::lround(std::min(y0, y1))));
    const int by = std::min(h_, static_cast<int>(std::lround(std::max(y0, y1))));
    for (int y = ay; y < by; ++y)
      for (int x = ax; x < bx; ++x) put(x, y, c);
  }
  void line(double x1, double y1, double x2, double y2, double width, rgb c) {
    if (c.none) return;
    const double length = std::hypot(x2 - x1, y2 - y1);
    const int steps = std::max(1, static_cast<int>(std::ceil(length * 2)));
    const double half = std::max(0.5, width / 2);
    for (int i = 0; i <= steps; ++i) {
      const double t = static_cast<double>(i) / steps;
      const double x = x1 + (x2 - x1) * t, y = y1 + (y2 - y1) * t;
      fill_rect(x - half, y - half, x + half, y + half, c);
    }
  }
  void circle(double cx, double cy, double r, rgb c) {
    if (c.none) return;
    for (int y = static_cast<int>(cy - r - 1); y <= static_cast<int>(cy + r + 1); ++y)
      for (int x = static_cast<int>(cx - r - 1); x <= static_cast<int>(cx + r + 1); ++x)
        if ((x + 0.5 - cx) * (x + 0.5 - cx) + (y + 0.5 - cy) * (y + 0.5 - cy) <= r * r) put(x, y, c);
  }
  // Text at an SVG baseline point; anchor "start" | "middle" | "end"; rotated -90 degrees if asked.
  void text(const std::string& content, double x, double y, double size, const std::string& anchor, bool rotated,
            rgb c) {
    std::vector<char> buffer(content.size() * 300 + 1000);
    std::string copy = content;
    const double scale = size / 9.0;
    const double width = stb_easy_font_width(copy.data()) * scale;
    double start = anchor == "middle" ? -width / 2 : (anchor == "end" ? -width : 0);
    const int quads = stb_easy_font_print(0, 0, copy.data(), nullptr, buffer.data(), static_cast<int>(buffer.size()));
    struct vertex {
      float x, y, z;
      unsigned char colour[4];
    };
    const auto* v = reinterpret_cast<const vertex*>(buffer.data());
    for (int q = 0; q < quads; ++q) {
      // Quad corners are axis-aligned: v[0] top-left, v[2] bottom-right (font units, y down, top at 0).
      const double qx0 = start + v[4 * q].x * scale, qx1 = start + v[4 * q + 2].x * scale;
      const double qy0 = (v[4 * q].y - 7) * scale, qy1 = (v[4 * q + 2].y - 7) * scale;  // baseline at 7
      if (!rotated)
        fill_rect(x + qx0, y + qy0, x + qx1, y + qy1, c);
      else  // rotate(-90 x y): (dx, dy) -> (dy, -dx)
        fill_rect(x + qy0, y - qx0, x + qy1, y - qx1, c);
    }
  }
  // The image as PNG bytes (empty if the encoder fails).
  std::string encode() const {
    std::string bytes;
    auto sink = [](void* out, void* data, int size) {
      static_cast<std::string*>(out)->append(static_cast<const char*>(data), static_cast<std::size_t>(size));
    };
    if (!stbi_write_png_to_func(sink, &bytes, w_, h_, 3, pixels_.data(), w_ * 3)) bytes.clear();
    return bytes;
  }

 private:
  void put(int x, int y, rgb c) {
    if (x < 0 || y < 0 || x >= w_ || y >= h_) return;
    auto* p = &pixels_[static_cast<std::size_t>((y * w_ + x) * 3)];
    p[0] = c.r, p[1] = c.g, p[2] = c.b;
  }
  int w_, h_;
  std::vector<std::uint8_t> pixels_;
};

namespace detail {
inline std::map<std::string, std::string> attributes(const std::string& tag) {
  std::map<std::string, std::string> out;
  std::size_t i = tag.find(' ');
  while (i != std::string::npos && i < tag.size()) {
    const std::size_t eq = tag.find("=\"", i);
    if (eq == std::string::npos) break;
    std::size_t name_start = tag.find_last_of(' ', eq);
    const std::string name = tag.substr(name_start + 1, eq - name_start - 1);
    const std::size_t end = tag.find('"', eq + 2);
    if (end == std::string::npos) break;
    out[name] = tag.substr(eq + 2, end - eq - 2);
    i = end + 1;
  }
  return out;
}
inline std::string unescape(std::string s) {
  const std::pair<const char*, const char*> entities[] = {
      {"&lt;", "<"}, {"&gt;", ">"}, {"&quot;", "\""}, {"&amp;", "&"}};
  for (const auto& [from, to] : entities)
    for (std::size_t p = s.find(from); p != std::string::npos; p = s.find(from, p + 1))
      s.replace(p, std::strlen(from), to);
  return s;
}
inline double number_of(const std::map<std::string, std::string>& a, const char* key, double fallback = 0) {
  const auto it = a.find(key);
  return it == a.end() ? fallback : std::atof(it->second.c_str());
}
}  // namespace detail

// Rasterises one of our SVG charts as PNG bytes (empty if the encoder fails).
inline std::string png_bytes(const std::string& svg) {
  using detail::attributes;
  using detail::number_of;
  std::vector<std::map<std::string, std::string>> groups;
  auto inherited = [&](const std::map<std::string, std::string>& a, const char* key, const std::string& fallback) {
    if (const auto it = a.find(key); it != a.end()) return it->second;
    for (auto g = groups.rbegin(); g != groups.rend(); ++g)
      if (const auto it = g->find(key); it != g->end()) return it->second;
    return fallback;
  };
  int width = 760, height = 480;
  if (const auto s = svg.find("<svg"); s != std::string::npos) {
    const auto a = attributes(svg.substr(s, svg.find('>', s) - s));
    width = static_cast<int>(number_of(a, "width", 760));
    height = static_cast<int>(number_of(a, "height", 480));
  }
  canvas c(width, height);
  std::size_t pos = 0;
  while ((pos = svg.find('<', pos)) != std::string::npos) {
    const std::size_t close = svg.find('>', pos);
    if (close == std::string::npos) break;
    const std::string tag = svg.substr(pos, close - pos);
    pos = close + 1;
    auto is = [&](const char* name) {
      return tag.compare(1, std::strlen(name), name) == 0 &&
             (tag.size() == std::strlen(name) + 1 || tag[std::strlen(name) + 1] == ' ');
    };
    if (tag.rfind("</g", 0) == 0) {
      if (!groups.empty()) groups.pop_back();
    } else if (is("g")) {
      groups.push_back(attributes(tag));
    } else if (is("title")) {
      pos = svg.find("</title>", pos);
    } else if (is("rect")) {
      const auto a = attributes(tag);
      const double x = number_of(a, "x"), y = number_of(a, "y"), w = number_of(a, "width"), h = number_of(a, "height");
      c.fill_rect(x, y, x + w, y + h, parse_colour(inherited(a, "fill", "black")));
      const rgb stroke = parse_colour(inherited(a, "stroke", "none"));
      if (!stroke.none) {
        c.line(x, y, x + w, y, 1, stroke), c.line(x + w, y, x + w, y + h, 1, stroke);
        c.line(x + w, y + h, x, y + h, 1, stroke), c.line(x, y + h, x, y, 1, stroke);
      }
    } else if (is("line")) {
      const auto a = attributes(tag);
      c.line(number_of(a, "x1"), number_of(a, "y1"), number_of(a, "x2"), number_of(a, "y2"),
             std::atof(inherited(a, "stroke-width", "1").c_str()), parse_colour(inherited(a, "stroke", "black")));
    } else if (is("polyline")) {
      const auto a = attributes(tag);
      std::vector<double> xy;
      std::string points = a.count("points") ? a.at("points") : "";
      std::replace(points.begin(), points.end(), ',', ' ');
      char* p = points.data();
      char* end = nullptr;
      for (double v = std::strtod(p, &end); end != p; v = std::strtod(p, &end)) {
        xy.push_back(v);
        p = end;
      }
      const rgb stroke = parse_colour(inherited(a, "stroke", "black"));
      const double w = std::atof(inherited(a, "stroke-width", "1").c_str());
      for (std::size_t i = 2; i + 1 < xy.size(); i += 2) c.line(xy[i - 2], xy[i - 1], xy[i], xy[i + 1], w, stroke);
    } else if (is("circle")) {
      const auto a = attributes(tag);
      c.circle(number_of(a, "cx"), number_of(a, "cy"), number_of(a, "r"), parse_colour(inherited(a, "fill", "black")));
    } else if (is("text")) {
      const auto a = attributes(tag);
      const std::size_t end = svg.find("</text>", pos);
      const std::string content = detail::unescape(svg.substr(pos, end - pos));
      pos = end;
      const bool rotated = a.count("transform") && a.at("transform").rfind("rotate(-90", 0) == 0;
      c.text(content, number_of(a, "x"), number_of(a, "y"), std::atof(inherited(a, "font-size", "12").c_str()),
             inherited(a, "text-anchor", "start"), rotated, parse_colour(inherited(a, "fill", "black")));
    }
  }
  return c.encode();
}

}  // namespace musket::cli::chart
