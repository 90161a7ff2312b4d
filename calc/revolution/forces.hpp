#pragma once
// A side's Strength Points in one combat, by unit type, and the order in which they are lost
// (Combat, procedure; RULINGS.md "American Revolution (SPI) combat").
#include <array>
#include <string>

namespace musket::revolution {

enum class side { british, american };

// B British Regular, T Tory, C Continental, M Militia, F French Permanent, SF French Seasonal.
enum class unit_type { regular, tory, continental, militia, french_permanent, french_seasonal };
inline constexpr std::array<unit_type, 6> all_unit_types{unit_type::regular,          unit_type::tory,
                                                         unit_type::continental,      unit_type::militia,
                                                         unit_type::french_permanent, unit_type::french_seasonal};
std::string letters(unit_type t);  // "B", "T", "C", "M", "F", "SF"
side side_of(unit_type t);
// Tories and Militia are the irregulars of the loss-order rule; B, C, F and SF are regulars.
bool is_irregular(unit_type t);

using points_by_type = std::array<int, 6>;  // indexed by unit_type

struct force {
  side owner = side::british;
  points_by_type points{};

  int operator[](unit_type t) const { return points[static_cast<std::size_t>(t)]; }
  int& operator[](unit_type t) { return points[static_cast<std::size_t>(t)]; }
  int total() const;
};

// "15M,8C": comma-separated counts with type letters, one side's letters only. Throws
// invalid_input(field, ...) for an unknown letter, a mixed side, or a count below 1.
force parse_force(const std::string& text, const std::string& field);
// "15M,8C" back again, in type order; "none" for no points.
std::string to_string(const points_by_type& points);
std::string to_string(side s);  // "British", "American"

// The owner's choice for losses after the first two points (RULINGS.md): protect_regulars
// loses Tories / Militia before Regulars / Continentals / French; protect_irregulars the reverse.
enum class loss_policy { protect_regulars, protect_irregulars };
loss_policy parse_loss_policy(const std::string& text, const std::string& field);
std::string to_string(loss_policy p);

// The points of each type a force loses when it must remove `points` (at most its total):
// the first is a Tory or Militia point if any, the second a Regular or Continental (or French)
// point if any, the rest by the policy. Among American regulars Continentals go first, then
// French Seasonal, then French Permanent (our default; the rules leave it to the owner).
points_by_type allocate_losses(const force& f, int points, loss_policy policy);

}  // namespace musket::revolution
