#include "calc/revolution/movement.hpp"

#include "core/invalid_input.hpp"

namespace musket::revolution {

movement_result british_movement(int rolls, int groups) {
  require_in_range("areas", rolls, 1, movement_allowance, "a unit enters at most 5 Areas a phase");
  require_in_range("groups", groups, 1, 20);
  movement_result res;
  res.rolls = rolls;
  res.groups = groups;
  const rational pass(2, 3);  // case K: 3-6 on the die
  res.reached = pmf::empty();
  rational through(1);  // P(the first k rolls all pass)
  for (int k = 0; k < rolls; ++k) {
    res.reached.add_mass(k, through * (1 - pass));
    through *= pass;
  }
  res.reached.add_mass(rolls, through);
  res.arrive = through;
  rational none_arrive(1);
  for (int g = 0; g < groups; ++g) none_arrive *= 1 - through;
  res.at_least_one_arrives = 1 - none_arrive;
  res.furthest = pmf::empty();
  rational previous(0);
  for (int k = 0; k <= rolls; ++k) {
    const rational f = cdf(res.reached, k);
    rational fg(1);
    for (int g = 0; g < groups; ++g) fg *= f;
    res.furthest.add_mass(k, fg - previous);
    previous = fg;
  }
  return res;
}

}  // namespace musket::revolution
