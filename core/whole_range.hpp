#pragma once
// A range of whole numbers as a user types it: "A..B" or "A..B:STEP" (`--vary att-war=1..10:2`).
#include <string>
#include <vector>

namespace musket {

// The values A, A+STEP, ... up to B. A, B and STEP must fit an int, STEP >= 1, A <= B, and the
// range may hold at most `max_points` values. Every bound is read and the count computed in 64
// bits before anything is allocated, so no range overflows. Throws invalid_input naming `field`.
std::vector<int> parse_whole_range(const std::string& text, const std::string& field, long long max_points);

}  // namespace musket
