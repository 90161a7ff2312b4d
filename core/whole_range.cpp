#include "core/whole_range.hpp"

#include <charconv>
#include <limits>

#include "core/invalid_input.hpp"

namespace musket {

namespace {

// One whole number that fits an int, read in 64 bits; `bad` is the message for a malformed one.
long long whole_number(const std::string& part, const std::string& field, const std::string& bad) {
  long long v = 0;
  const auto [end, error] = std::from_chars(part.data(), part.data() + part.size(), v);
  if (part.empty() || error == std::errc::invalid_argument || end != part.data() + part.size())
    throw invalid_input(field, bad);
  if (error == std::errc::result_out_of_range || v < std::numeric_limits<int>::min() ||
      v > std::numeric_limits<int>::max())
    throw invalid_input(field, "'" + part + "' is out of range; allowed " +
                                   std::to_string(std::numeric_limits<int>::min()) + ".." +
                                   std::to_string(std::numeric_limits<int>::max()));
  return v;
}

}  // namespace

std::vector<int> parse_whole_list(const std::string& text, char separator, std::size_t count, const std::string& field,
                                  const std::string& shape) {
  const std::string bad = "'" + text + "' is not " + shape;
  std::vector<int> values;
  std::size_t start = 0;
  for (;;) {
    const auto at = text.find(separator, start);
    if (values.size() == count) throw invalid_input(field, bad);  // more parts than asked for
    values.push_back(static_cast<int>(
        whole_number(text.substr(start, at == std::string::npos ? std::string::npos : at - start), field, bad)));
    if (at == std::string::npos) break;
    start = at + 1;
  }
  if (values.size() != count) throw invalid_input(field, bad);
  return values;
}

std::vector<int> parse_whole_range(const std::string& text, const std::string& field, long long max_points) {
  const std::string bad = "'" + text + "' is not A..B or A..B:STEP with whole numbers";
  const auto dots = text.find("..", 1);
  if (dots == std::string::npos) throw invalid_input(field, bad);
  const auto colon = text.find(':', dots);
  auto whole = [&](const std::string& part) { return whole_number(part, field, bad); };
  const long long lo = whole(text.substr(0, dots));
  const long long hi = whole(text.substr(dots + 2, colon == std::string::npos ? std::string::npos : colon - dots - 2));
  const long long step = colon == std::string::npos ? 1 : whole(text.substr(colon + 1));
  if (step < 1) throw invalid_input(field, "the step must be 1 or more");
  if (hi < lo) throw invalid_input(field, "'" + text + "' runs backwards; give A <= B");
  const long long count = (hi - lo) / step + 1;
  if (count > max_points)
    throw invalid_input(field, "'" + text + "' has " + std::to_string(count) + " points; at most " +
                                   std::to_string(max_points) + " on one axis");
  std::vector<int> values;
  values.reserve(static_cast<std::size_t>(count));
  for (long long v = lo; v <= hi; v += step) values.push_back(static_cast<int>(v));
  return values;
}

}  // namespace musket
