#include "calc/revolution/fort.hpp"

#include "core/invalid_input.hpp"

namespace musket::revolution {

void check_american_fort(const force& group, const std::string& field) {
  if (group.owner != side::american) return;
  const int total = group.total();
  if (total > american_fort_capacity)  // Combat F; Fortifications E
    throw invalid_input(field, to_string(group.points) + " is " + std::to_string(total) +
                                   " Strength Points in a Fort; an American Fort holds at most " +
                                   std::to_string(american_fort_capacity) + " (Combat case F)");
  // "At least a 1:1 ratio of Continental to Militia"; Fortifications E counts the French with the
  // Continentals as non-Militia points.
  const int militia = group[unit_type::militia];
  const int regulars = total - militia;
  if (militia > regulars)
    throw invalid_input(field, to_string(group.points) + " has " + std::to_string(militia) + " Militia against " +
                                   std::to_string(regulars) +
                                   " Continental/French points in a Fort; an American Fort needs at least as many "
                                   "Continental (or French) as Militia points (Combat case F)");
}

}  // namespace musket::revolution
