#include "core/rational.hpp"

namespace musket {

std::string to_fraction_string(const rational& value) {
  return numerator(value).str() + "/" + denominator(value).str();
}

double to_double(const rational& value) {
  return value.convert_to<double>();
}

}  // namespace musket
