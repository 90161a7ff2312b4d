#include "calc/revolution/attrition.hpp"

#include <cctype>
#include <numeric>

#include "core/dice.hpp"
#include "core/invalid_input.hpp"

namespace musket::revolution {

loss_fraction parse_loss_fraction(const std::string& text, const std::string& field) {
  const std::string allowed =
      "allowed: 0, 1/3, 1/2, 2/3, 1 (a denominator of 1, 2 or 3: at most two survival rolls "
      "per Area, Attrition Interphase note)";
  const auto slash = text.find('/');
  auto parse_int = [&](const std::string& s) {
    if (s.empty() || s.size() > 3) throw invalid_input(field, "'" + text + "' is not a fraction; " + allowed);
    for (char c : s)
      if (!std::isdigit(static_cast<unsigned char>(c)))
        throw invalid_input(field, "'" + text + "' is not a fraction; " + allowed);
    return std::stoi(s);
  };
  loss_fraction f;
  f.numerator = parse_int(text.substr(0, slash));
  f.denominator = slash == std::string::npos ? 1 : parse_int(text.substr(slash + 1));
  if (f.denominator == 0 || f.numerator > f.denominator)
    throw invalid_input(field, "'" + text + "' is not a fraction from 0 to 1; " + allowed);
  const int g = std::gcd(f.numerator, f.denominator);
  if (g > 0) f.numerator /= g, f.denominator /= g;
  if (f.numerator == 0) f.denominator = 1;
  if (f.denominator > 3) throw invalid_input(field, "'" + text + "' would leave more than two points over; " + allowed);
  return f;
}

std::string to_string(const loss_fraction& f) {
  return f.denominator == 1 ? std::to_string(f.numerator)
                            : std::to_string(f.numerator) + "/" + std::to_string(f.denominator);
}

die_faces parse_faces(const std::string& text, const std::string& field) {
  die_faces faces{};
  const std::string allowed = "write die faces 1..6 as \"5-6\", \"4,5,6\", \"6\" or \"none\"";
  if (text == "none") return faces;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t comma = text.find(',', start);
    const std::string item = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    start = comma == std::string::npos ? text.size() + 1 : comma + 1;
    const auto dash = item.find('-');
    auto face = [&](const std::string& s) {
      if (s.size() != 1 || s[0] < '1' || s[0] > '6') throw invalid_input(field, "'" + text + "': " + allowed);
      return s[0] - '0';
    };
    const int low = face(item.substr(0, dash));
    const int high = dash == std::string::npos ? low : face(item.substr(dash + 1));
    if (high < low) throw invalid_input(field, "'" + text + "': " + allowed);
    for (int v = low; v <= high; ++v) faces[static_cast<std::size_t>(v - 1)] = true;
  }
  return faces;
}

std::string to_string(const die_faces& faces) {
  std::string out;
  for (int v = 1; v <= 6; ++v)
    if (faces[static_cast<std::size_t>(v - 1)]) out += (out.empty() ? "" : ",") + std::to_string(v);
  return out.empty() ? "none" : out;
}

int count(const die_faces& faces) {
  int n = 0;
  for (bool f : faces) n += f ? 1 : 0;
  return n;
}

attrition_table load_attrition(const data_source& source) {
  const json doc = read_json_file(source);
  attrition_table table;
  table.source = require_string(source, doc, "source", "(top level)");
  table.transcribed = require_bool(source, doc, "transcribed", "(top level)");
  const json& rows = require_field(source, doc, "rows", "(top level)");
  if (!rows.is_array()) data_error(source, "rows", "must be an array");
  if (!table.transcribed && !rows.empty()) data_error(source, "rows", "has rows but 'transcribed' is false");
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const std::string entry = "rows[" + std::to_string(i) + "]";
    attrition_row row;
    row.label = require_string(source, rows[i], "label", entry);
    row.source = require_string(source, rows[i], "source", entry);
    try {
      row.fraction = parse_loss_fraction(require_string(source, rows[i], "loss_fraction", entry), "loss_fraction");
      row.survive_on = parse_faces(require_string(source, rows[i], "survive_on", entry), "survive_on");
    } catch (const invalid_input& e) {
      data_error(source, entry + " (" + row.label + ")", e.field() + ": " + e.what());
    }
    table.rows.push_back(std::move(row));
  }
  return table;
}

attrition_result winter_attrition(int strength, const loss_fraction& fraction, const die_faces& survive_on) {
  require_in_range("strength", strength, 0, 999);
  attrition_result res;
  res.strength = strength;
  const int groups = strength / fraction.denominator;
  res.certain_losses = groups * fraction.numerator;
  res.certain_survivors = groups * (fraction.denominator - fraction.numerator);
  res.left_over = strength % fraction.denominator;
  res.survive_each = rational(count(survive_on), 6);
  const pmf rolls = binomial_successes<rational>(res.left_over, count(survive_on));
  res.survivors = transform(rolls, [&](int k) { return res.certain_survivors + k; });
  res.losses = transform(res.survivors, [&](int s) { return strength - s; });
  return res;
}

}  // namespace musket::revolution
