#include "calc/great_lakes/rules/state.hpp"

#include <algorithm>
#include <cmath>

#include "core/binomial_table.hpp"

namespace musket::great_lakes {

namespace round {

battle_rules compile(const battle& b) {
  validate(b);
  battle_rules r;
  const bool fort_stands = b.defender.fortification && !b.defender.fortification->destroyed;
  auto add_side = [&](const army& a, int side) {
    r.begin[side] = static_cast<int>(r.units.size());
    auto add = [&](const unit& u, bool is_reinforcement, bool across_niagara) {
      unit_rule ur;
      ur.name = u.name;
      ur.owner = side;
      ur.start_sp = u.sp;
      ur.dice = u.dice;
      ur.first_round_dice = u.crossed == crossing::none ? u.dice : std::max(0, u.dice - 1);  // GL 11.22
      int morale = u.morale;
      if (side == defender && fort_stands && u.type == unit_type::militia) morale = std::min(6, morale + 1);  // GL 2.5
      ur.fail_faces = 6 - morale;
      const double q = ur.fail_faces / 6.0;
      for (int h = 1; h < 16; ++h) {
        ur.morale_none[static_cast<std::size_t>(h)] = std::pow(1.0 - q, h);
        ur.morale_one[static_cast<std::size_t>(h)] = h * q * std::pow(1.0 - q, h - 1);
      }
      ur.reinforcement = is_reinforcement;
      ur.enter_faces = std::clamp(a.reinforcement_rating - (across_niagara ? 1 : 0), 0, 6);  // GL 13.3
      if (ur.first_round_dice != ur.dice) r.first_round_matters = true;
      r.units.push_back(ur);
    };
    for (const auto& u : a.units) add(u, false, false);
    if (side == defender && fort_stands) {
      const fort& f = *a.fortification;
      unit g;
      g.name = "garrison";
      g.type = unit_type::garrison;
      g.sp = g.max_sp = f.sp;
      g.morale = f.morale;  // RULINGS: the garrison gets no militia bonus
      g.dice = f.dice;
      add(g, false, false);
      r.units.back().garrison = true;
      r.garrison = static_cast<int>(r.units.size()) - 1;
    }
    for (const auto& re : a.reinforcements) add(re.u, true, re.across_niagara);
    r.end[side] = static_cast<int>(r.units.size());
    r.ship_dice[side] = a.ship_dice;
    r.rerolls[side] = morale_rerolls(a);
    r.policy[side] = a.retreat;
    r.hit_allocation[side] = a.hit_allocation;
    r.has_reinforcements[side] = !a.reinforcements.empty();
    r.reroll[side] = a.rerolls;
    r.route[side] = a.retreat_route;
    for (int i = r.begin[side]; i < r.end[side]; ++i) r.starting_sp[side] += r.units[i].start_sp;
  };
  add_side(b.attacker, attacker);
  add_side(b.defender, defender);
  r.retreat_fire_faces = b.niagara ? 2 : 1;
  // The most dice rolled at once: a side's line and ship, or its voluntary retreat fire, one die
  // per line unit whatever its printed dice, a unit of 0 dice included (GL 12.2, RULINGS;
  // round::retreat_fire_dice). Every row a battle reads must be built here: a row past the ones
  // built holds no probabilities.
  int most_dice = 1;  // (morale and reinforcement rolls: one die)
  for (int side = 0; side < 2; ++side) {
    int dice = r.ship_dice[side], units = 0;
    for (int i = r.begin[side]; i < r.end[side]; ++i) {
      dice += r.units[static_cast<std::size_t>(i)].dice;
      ++units;
    }
    most_dice = std::max({most_dice, dice, units});
  }
  shared_binomial_tables().ensure(most_dice);
  r.ships = r.ship_dice[0] > 0 || r.ship_dice[1] > 0;
  for (std::size_t i = 0; i < r.units.size(); ++i) {
    r.dice[i] = static_cast<std::uint8_t>(r.units[i].dice);
    r.first_round_dice[i] = static_cast<std::uint8_t>(r.units[i].first_round_dice);
    r.fail_faces[i] = static_cast<std::uint8_t>(r.units[i].fail_faces);
    r.can_enter[i] = r.units[i].reinforcement && r.units[i].enter_faces > 0;  // (never pending else: a stalemate)
  }
  for (int side = 0; side < 2; ++side) {  // the hit lanes' constants (round::allocate_rulings_lanes)
    const int n = r.end[side] - r.begin[side];
    if (n > 8 || r.begin[side] + 8 > round::max_units) continue;
    r.lane_units[side] = n;
    for (int k = 0; k < n; ++k) {
      const auto& u = r.units[static_cast<std::size_t>(r.begin[side] + k)];
      r.hit_tiebreak[side][k] = static_cast<std::int16_t>((15 - u.dice) << 3 | (7 - k));
      r.checks_morale[side][k] = static_cast<std::int16_t>(u.fail_faces > 0 ? -1 : 0);
      r.side_lanes[side][k] = -1;
    }
  }
  return r;
}

battle_state initial_state(const battle_rules& r) {
  battle_state s;
  for (std::size_t i = 0; i < r.units.size(); ++i) {
    s.sp[i] = static_cast<std::uint8_t>(r.units[i].start_sp);
    s.st[i] = r.units[i].reinforcement ? waiting : line;
  }
  s.rerolls = {static_cast<std::uint8_t>(r.rerolls[0]), static_cast<std::uint8_t>(r.rerolls[1])};
  s.first_round = r.first_round_matters;
  return s;
}

}  // namespace round

}  // namespace musket::great_lakes
