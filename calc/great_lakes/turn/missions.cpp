#include "calc/great_lakes/turn/missions.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/dice.hpp"
#include "core/invalid_input.hpp"

namespace musket::great_lakes {

rational ship_battle_a_wins(int a_dice, int b_dice) {
  require_in_range("dice", a_dice, 1, 12, "a squadron's dice");
  require_in_range("vs", b_dice, 1, 12, "a squadron's dice");
  const pmf a = highest_of_dice<rational>(a_dice), b = highest_of_dice<rational>(b_dice);
  rational a_higher = 0, b_higher = 0;
  for (int x = 1; x <= 6; ++x)
    for (int y = 1; y <= 6; ++y) {
      if (x > y) a_higher += a[x] * b[y];
      if (y > x) b_higher += a[x] * b[y];
    }
  return a_higher / (a_higher + b_higher);  // GL 7.8: a tie rerolls, so condition on no tie
}

std::string to_string(mission m) {
  return std::string(name_of(names_of_mission, m));
}

mission parse_mission(const std::string& text, const std::string& field) {
  if (const auto m = value_of(names_of_mission, text)) return *m;
  throw invalid_input(field, "unknown mission '" + text + "'; allowed: " + names_list(names_of_mission));
}

pmf commander_cap(const game_data& data, int side) {
  const auto& bands = side == british ? data.drummond : data.brown;
  const int base = side == british ? data.base_cap_british : data.base_cap_american;
  pmf out = pmf::empty();
  for (const auto& b : bands) out.add_mass(base + b.extra, rational(b.high - b.low + 1, 6));
  return out;
}

namespace {

// One lake's possible results: probability, CAP change per side, mission success per side.
struct lake_branch {
  rational p;
  std::array<int, 2> cap{};
  std::array<bool, 2> success{};
};

std::vector<lake_branch> lake_branches(const game_data& data, int which, mission b, mission a, int b_dice, int a_dice) {
  const std::array<mission, 2> m{b, a};
  const int supply = which == ontario ? data.supply_ontario : data.supply_erie;
  auto cap_for = [&](int side, bool success) { return m[side] == mission::supply && success ? supply : 0; };
  if (b != mission::intercept && a != mission::intercept) {
    lake_branch only{rational(1), {cap_for(0, true), cap_for(1, true)}, {true, true}};
    return {only};
  }
  const std::string field = which == ontario ? "ontario-dice" : "erie-dice";
  if (b_dice <= 0 || a_dice <= 0)
    throw invalid_input(field,
                        std::string("a ship battle on Lake ") + (which == ontario ? "Ontario" : "Erie") +
                            " needs both squadrons' dice (BRITISH,AMERICAN)" +
                            (which == erie ? std::string("; Lake Erie's are not in our rules text") : std::string()));
  const rational british_wins = ship_battle_a_wins(b_dice, a_dice);
  std::vector<lake_branch> out;
  for (int winner = 0; winner < 2; ++winner) {
    lake_branch br;
    br.p = winner == british ? british_wins : 1 - british_wins;
    const int loser = 1 - winner;
    // GL 7.8: the winner's mission goes ahead (an intercept "succeeds" by winning); an intercepted
    // loser's mission fails; a losing interceptor merely fails to stop the other.
    br.success[winner] = true;
    br.success[loser] = false;
    for (int s = 0; s < 2; ++s) br.cap[s] = cap_for(s, br.success[s]);
    if (b == mission::intercept && a == mission::intercept) br.cap[loser] += data.intercept_loser_cap;
    out.push_back(br);
  }
  return out;
}

}  // namespace

turn_result resolve_turn(const game_data& data, const turn_setup& setup) {
  turn_result out;
  std::array<std::vector<lake_branch>, 2> lakes;
  for (int l = 0; l < 2; ++l) {
    lakes[l] = lake_branches(data, l, setup.orders[l][british], setup.orders[l][american], setup.ship_dice[l][british],
                             setup.ship_dice[l][american]);
    out.ship_battle[l] = lakes[l].size() > 1 ? rational(1) : rational(0);
    for (int s = 0; s < 2; ++s) out.mission_success[l][s] = 0;
  }
  const pmf base_b = commander_cap(data, british), base_a = commander_cap(data, american);
  out.cap = {pmf::empty(), pmf::empty()};
  out.americans_first = 0;
  out.expected_cap_difference = 0;
  for (const auto& o : lakes[ontario])
    for (const auto& e : lakes[erie]) {
      const rational p = o.p * e.p;
      for (int s = 0; s < 2; ++s) {
        if (o.success[s]) out.mission_success[ontario][s] += p;
        if (e.success[s]) out.mission_success[erie][s] += p;
      }
      const int db = o.cap[british] + e.cap[british], da = o.cap[american] + e.cap[american];
      const pmf cb = transform(base_b, [&](int v) { return v + db; });
      const pmf ca = transform(base_a, [&](int v) { return v + da; });
      add_scaled(out.cap[british], cb, p);
      add_scaled(out.cap[american], ca, p);
      for (int x = cb.lowest(); x <= cb.highest(); ++x)
        for (int y = ca.lowest(); y <= ca.highest(); ++y)
          if (y >= x) out.americans_first += p * cb[x] * ca[y];  // GL 8.2: ties go to the Americans
      out.expected_cap_difference += p * (mean(cb) - mean(ca));
    }
  return out;
}

missions_result solve_missions(const game_data& data, const std::array<std::array<int, 2>, 2>& ship_dice,
                               mission_objective objective) {
  missions_result out;
  for (auto o : all_missions)
    for (auto e : all_missions) out.strategy_names.push_back("ontario=" + to_string(o) + ",erie=" + to_string(e));
  out.payoff.assign(16, std::vector<double>(16, 0.0));
  for (std::size_t b = 0; b < 16; ++b)
    for (std::size_t a = 0; a < 16; ++a) {
      turn_setup s;
      s.orders[ontario] = {all_missions[b / 4], all_missions[a / 4]};
      s.orders[erie] = {all_missions[b % 4], all_missions[a % 4]};
      s.ship_dice = ship_dice;
      const turn_result r = resolve_turn(data, s);
      out.payoff[b][a] = objective == mission_objective::first ? 1.0 - to_double(r.americans_first)
                                                               : to_double(r.expected_cap_difference);
    }
  const auto g = solve_matrix_game(out.payoff);
  out.british_strategy = g.row;
  out.american_strategy = g.column;
  out.value = g.value;
  return out;
}

}  // namespace musket::great_lakes
