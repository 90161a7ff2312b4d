#pragma once
// The American Fort limits (Combat F; Fortifications E; RULINGS.md "Forts (Combat case F)").
#include <string>

#include "calc/revolution/forces.hpp"

namespace musket::revolution {

inline constexpr int american_fort_capacity = 5;  // Strength Points (Combat F)

// Throws invalid_input(field, ...) naming case F when an American group in a Fort holds more
// than 5 Strength Points, or fewer non-Militia (Continental or French) points than Militia
// points. A British group has no such limit: nothing is checked for it.
void check_american_fort(const force& group, const std::string& field);

}  // namespace musket::revolution
