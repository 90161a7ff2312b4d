#include "core/rational.hpp"

#include <charconv>
#include <cstdint>
#include <limits>

namespace musket {

namespace {

// Below 2^53 a whole number is exactly a double, so one division is the correctly rounded
// quotient (what convert_to<double> computes, at a fraction of its cost).
constexpr std::int64_t exact_in_double = std::int64_t{1} << 53;

bool fits_word(const big_integer& n) {
  return n >= std::numeric_limits<std::int64_t>::min() && n <= std::numeric_limits<std::int64_t>::max();
}

}  // namespace

// Most fractions musket prints (dice laws over powers of 6) fit a machine word: written through
// std::to_chars rather than cpp_int's own str(), which costs several times as much.
std::string to_fraction_string(const rational& value) {
  const big_integer& num = numerator(value);
  const big_integer& den = denominator(value);
  if (fits_word(num) && fits_word(den)) {
    char text[48];
    char* end = std::to_chars(text, text + 20, num.convert_to<std::int64_t>()).ptr;
    *end++ = '/';
    end = std::to_chars(end, text + sizeof text, den.convert_to<std::int64_t>()).ptr;
    return std::string(text, end);
  }
  return num.str() + "/" + den.str();
}

double to_double(const rational& value) {
  const big_integer& num = numerator(value);
  const big_integer& den = denominator(value);
  if (num > -exact_in_double && num < exact_in_double && den < exact_in_double)
    return static_cast<double>(num.convert_to<std::int64_t>()) / static_cast<double>(den.convert_to<std::int64_t>());
  return value.convert_to<double>();
}

}  // namespace musket
