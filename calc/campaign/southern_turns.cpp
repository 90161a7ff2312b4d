#include "calc/campaign/southern_turns.hpp"

#include <utility>

#include "core/invalid_input.hpp"
#include "core/state_distribution.hpp"

namespace musket::campaign {

siege_result resolve_siege(const siege_setup& s) {
  require_in_range("food", s.food, 0, 99);
  require_in_range("turns", s.turns, 1, 200);
  if (s.resupply_chance < 0 || s.resupply_chance > 1) throw invalid_input("resupply", "a chance is between 0 and 1");
  // State: Food in hand, or -1 once surrendered.
  auto d = state_distribution<int, rational>::certain(s.food);
  siege_result r;
  rational cumulative = 0;
  for (int t = 1; t <= s.turns; ++t) {
    d = propagate(
        d,
        [&](const int& food, auto&& emit) {
          if (food < 0) return emit(food, rational(1));
          auto turn_end = [](int f) { return f >= 1 ? f - 1 : -1; };  // 13.1
          if (s.resupply_chance != 0) emit(turn_end(food + 1), s.resupply_chance);
          if (s.resupply_chance != 1) emit(turn_end(food), 1 - s.resupply_chance);
        },
        1000);
    const rational fallen = d.probability([](int f) { return f < 0; });
    r.surrenders_on.push_back(fallen - cumulative);
    r.surrendered_by.push_back(fallen);
    cumulative = fallen;
  }
  r.holds_out = 1 - cumulative;
  return r;
}

std::vector<navy_turn> resolve_navy_turns(const navy_turns_setup& s) {
  require_in_range("turns", s.turns, 1, 200);
  if (s.winter.size() != static_cast<std::size_t>(s.turns))
    throw invalid_input("winter", "one entry per turn is needed");
  using state = std::pair<bool, bool>;  // (Crown on map, French on map)
  auto d = state_distribution<state, rational>::certain({s.crown_on_map, s.french_on_map});
  std::vector<navy_turn> out;
  for (int t = 1; t <= s.turns; ++t) {
    const bool winter = s.winter[static_cast<std::size_t>(t - 1)];
    d = propagate(
        d,
        [&](const state& st, auto&& emit) {
          if (winter) return emit(state{false, false}, rational(1));  // 12.3, and no rolls (12.4)
          // Crown rolls first (12.4), then the French against the Crown's new position.
          auto french_roll = [&](bool crown, const rational& w) {
            if (st.second) return emit(state{crown, true}, w);
            const rational back(crown ? 3 : 2, 6);
            emit(state{crown, true}, w * back);
            emit(state{crown, false}, w * (1 - back));
          };
          if (st.first) return french_roll(true, rational(1));
          const rational back(st.second ? 3 : 2, 6);
          french_roll(true, back);
          french_roll(false, 1 - back);
        },
        16);
    navy_turn n;
    n.crown_on_map = d.probability([](const state& x) { return x.first; });
    n.french_on_map = d.probability([](const state& x) { return x.second; });
    n.both_on_map = d.probability([](const state& x) { return x.first && x.second; });
    out.push_back(n);
  }
  return out;
}

}  // namespace musket::campaign
