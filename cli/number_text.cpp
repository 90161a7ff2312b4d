#include "cli/number_text.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>

namespace musket::cli {

namespace {

constexpr int max_percent_decimals = 4;  // 0.0001%

bool all_digits(const std::string& s) {
  if (s.empty()) return false;
  for (char c : s)
    if (c < '0' || c > '9') return false;
  return true;
}

// Decimals that show `x` percent (0 < x < 100) with two significant digits of its distance from
// 0 or 100 once one decimal is too coarse.
int decimals_for(double x) {
  const double distance = std::min(x, 100.0 - x);
  if (distance >= 0.1 - 1e-9) return 1;  // 99.9 is 0.1 from 100, give or take a rounding
  return std::min(max_percent_decimals, static_cast<int>(std::floor(-std::log10(distance))) + 2);
}

}  // namespace

std::optional<double> decimal_number(const std::string& text) {
  if (text.empty() || text.find_first_not_of("0123456789.-eE") != std::string::npos) return std::nullopt;
  errno = 0;
  char* end = nullptr;
  const double value = std::strtod(text.c_str(), &end);  // no locale is set: '.' is the decimal point
  if (end != text.c_str() + text.size() || errno == ERANGE || !std::isfinite(value)) return std::nullopt;
  return value;
}

std::string percent(double p) {
  if (std::isnan(p)) return "?";
  if (p <= 0.0) return "0%";
  if (p >= 1.0) return "100%";
  const double x = 100.0 * p;
  for (int d = decimals_for(x); d <= max_percent_decimals; ++d) {
    const std::string text = fmt::format("{:.{}f}", x, d);
    const double shown = std::stod(text);
    if (shown > 0.0 && shown < 100.0) return text + "%";
  }
  return x < 50.0 ? fmt::format("<{:.{}f}%", std::pow(10.0, -max_percent_decimals), max_percent_decimals)
                  : fmt::format(">{:.{}f}%", 100.0 - std::pow(10.0, -max_percent_decimals), max_percent_decimals);
}

std::string percent_cell(double p) {
  return p == 0.0 ? "-" : percent(p);
}

std::string percent_interval(double low, double high) {
  // Both bounds to the precision the narrower end needs, without the % signs.
  auto bare = [](double p) {
    constexpr double rounding = 1e-12;  // a Wilson bound at 0 or 1 comes out a hair off
    std::string text = p < rounding ? "0" : p > 1.0 - rounding ? "100" : percent(p);
    if (!text.empty() && text.back() == '%') text.pop_back();
    return text;
  };
  return "[" + bare(low) + ", " + bare(high) + "]";
}

std::string plain_number(double v) {
  if (std::isnan(v)) return "?";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  if (v == std::floor(v) && std::fabs(v) < 1e15) return fmt::format("{:.0f}", v);
  const double magnitude = std::fabs(v);
  const int whole_digits = magnitude >= 1.0 ? static_cast<int>(std::floor(std::log10(magnitude))) + 1 : 0;
  const int leading_zeros = magnitude < 1.0 ? static_cast<int>(std::floor(-std::log10(magnitude))) : 0;
  const int decimals = magnitude >= 1.0 ? std::max(1, 4 - whole_digits) : 4 + leading_zeros;
  std::string text = fmt::format("{:.{}f}", v, std::min(decimals, 12));
  if (text.find('.') != std::string::npos) {
    while (text.back() == '0') text.pop_back();
    if (text.back() == '.') text.pop_back();
  }
  return text;
}

std::string shortest_decimal(double v) {
  return fmt::format("{}", v);
}

std::optional<std::pair<std::string, std::string>> fraction_parts(const std::string& text) {
  const auto slash = text.find('/');
  const bool negative = !text.empty() && text[0] == '-';
  const std::string num = text.substr(0, slash);
  if (!all_digits(negative ? num.substr(1) : num)) return std::nullopt;
  if (slash == std::string::npos) return std::make_pair(num, std::string("1"));
  const std::string den = text.substr(slash + 1);
  if (!all_digits(den)) return std::nullopt;
  return std::make_pair(num, den);
}

std::string readable_fraction(const std::string& text) {
  constexpr std::size_t readable_length = 11;
  if (text == "0/1" || text == "0" || text.size() > readable_length) return "";
  return text;
}

}  // namespace musket::cli
