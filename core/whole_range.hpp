#pragma once
// Whole numbers as a user types them: a range "A..B" or "A..B:STEP" (`--vary att-war=1..10:2`),
// or a fixed-length list "3,2" / "2:2:4" (`--erie-dice`, `--fort`).
#include <string>
#include <vector>

namespace musket {

// The values A, A+STEP, ... up to B. A, B and STEP must fit an int, STEP >= 1, A <= B, and the
// range may hold at most `max_points` values. Every bound is read and the count computed in 64
// bits before anything is allocated, so no range overflows. Throws invalid_input naming `field`.
std::vector<int> parse_whole_range(const std::string& text, const std::string& field, long long max_points);

// Exactly `count` whole numbers separated by `separator` ("3,2" with ',' and 2), each fitting an
// int; `shape` says what was expected ("BRITISH,AMERICAN (e.g. 3,2)"). Anything else, a number
// past an int included, is invalid_input naming `field` (never a wrapped or partial read).
std::vector<int> parse_whole_list(const std::string& text, char separator, std::size_t count, const std::string& field,
                                  const std::string& shape);

}  // namespace musket
