#pragma once
// Exact probabilities: Boost.Multiprecision rationals, printed as "num/den".
#include <boost/multiprecision/cpp_int.hpp>
#include <string>

namespace musket {

using rational = boost::multiprecision::cpp_rational;
using big_integer = boost::multiprecision::cpp_int;

// "num/den" in lowest terms ("0/1", "1/1" at the ends), the form every JSON `exact` field uses.
std::string to_fraction_string(const rational& value);

double to_double(const rational& value);
inline double to_double(double value) {
  return value;
}

}  // namespace musket
