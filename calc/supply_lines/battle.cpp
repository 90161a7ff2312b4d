#include "calc/supply_lines/battle.hpp"

#include <algorithm>
#include <boost/multiprecision/cpp_int.hpp>
#include <cstdint>
#include <type_traits>

#include "calc/supply_lines/morale.hpp"
#include "core/dice.hpp"
#include "core/invalid_input.hpp"

namespace musket::supply_lines {

std::string to_string(battle_outcome o) {
  switch (o) {
    case battle_outcome::attacker_surrenders:
      return "attacker_surrenders";
    case battle_outcome::defender_victory:
      return "defender_victory";
    case battle_outcome::defender_stands:
      return "defender_stands";
    case battle_outcome::defender_retreats:
      return "defender_retreats";
    case battle_outcome::defender_surrenders:
      return "defender_surrenders";
  }
  return "?";
}

namespace {

side defender_side(const battle_setup& s) {
  return opponent(s.attacker);
}
int crown_units(const battle_setup& s) {
  return s.attacker == side::crown ? s.attacker_units : s.defender_units;
}
int crown_leaders(const battle_setup& s) {
  return s.attacker == side::crown ? s.attacker_leaders : s.defender_leaders;
}
int patriot_units(const battle_setup& s) {
  return s.attacker == side::patriot ? s.attacker_units : s.defender_units;
}
int patriot_leaders(const battle_setup& s) {
  return s.attacker == side::patriot ? s.attacker_leaders : s.defender_leaders;
}
std::string leaders_field(const battle_setup& s, side who) {
  return who == s.attacker ? "att-leaders" : "def-leaders";
}
std::string units_field(const battle_setup& s, side who) {
  return who == s.attacker ? "att-units" : "def-units";
}

// Leaders whose loss moves the track: every leader in NT; in SS only subordinates, since
// Cornwallis's capture ends the game instead (SS 10.4, 14.0).
int shifting_leaders(const rule_set& rules, const battle_setup& s, side army) {
  if (army == side::patriot) return patriot_leaders(s);
  const int leaders = crown_leaders(s);
  return (rules.crown_commander_instant_win && s.crown_commander) ? leaders - 1 : leaders;
}

// Shift when `army` surrenders: a Crown surrender helps the Patriot cause, and vice versa.
int surrender_shift(const rule_set& rules, const battle_setup& s, side army) {
  const int magnitude = 1 + shifting_leaders(rules, s, army);
  return (army == side::crown ? +1 : -1) * magnitude * rules.patriot_track_direction;
}

}  // namespace

int army_surrender_shift(const rule_set& rules, const battle_setup& s, side army) {
  return surrender_shift(rules, s, army);
}

void validate(const rule_set& rules, const battle_setup& s) {
  const bool ss = rules.which == game::southern_strategy;
  require_in_range("att-units", s.attacker_units, 1, max_units);
  require_in_range("def-units", s.defender_units, 1, max_units, "an army with no units is not there to attack");
  if (s.attacker_leaders < 1)
    throw invalid_input("att-leaders",
                        std::to_string(s.attacker_leaders) + " leaders: only an Army with a Leader may Attack (" +
                            (ss ? "SS 9.4" : "NT 7.3") + "); allowed 1.." + std::to_string(rules.max_leaders_per_army));
  require_in_range("att-leaders", s.attacker_leaders, 1, rules.max_leaders_per_army,
                   ss ? "each side has one Leader and one Subordinate, SS 2.2" : "");
  require_in_range("def-leaders", s.defender_leaders, 0, rules.max_leaders_per_army,
                   ss ? "each side has one Leader and one Subordinate, SS 2.2" : "");
  require_in_range("att-war", s.attacker_war_supplies, 0, max_war_supplies, "the War Supply cube limit");
  require_in_range("def-war", s.defender_war_supplies, 0, max_war_supplies, "the War Supply cube limit");
  if (s.dug_in && s.where == terrain::point)
    throw invalid_input("dug-in", "an army at a point cannot Dig-In; only in a city or fort (" +
                                      std::string(ss ? "SS 9.6" : "NT 7.5") + ")");
  if (!ss && s.under_siege) throw invalid_input("siege", "sieges exist only in The Southern Strategy (ss)");
  if (!ss && s.crown_commander)
    throw invalid_input("crown-commander", "only The Southern Strategy (ss) has an overall Crown commander");
  if (!ss && s.patriot_subordinate)
    throw invalid_input("patriot-subordinate", "only The Southern Strategy (ss) has Subordinate Leaders");
  if (s.under_siege && s.where == terrain::point)
    throw invalid_input("siege", "only a city or fort can be under siege (SS 11.0)");
  if (ss) {
    // SS 2.2 / 9.2: one overall Leader and one Subordinate per side.
    const int crown = crown_leaders(s);
    if (s.crown_commander && crown < 1)
      throw invalid_input("crown-commander",
                          "Cornwallis is a leader: the Crown army needs at least 1 leader for --crown-commander");
    if (!s.crown_commander && crown > 1)
      throw invalid_input(leaders_field(s, side::crown),
                          "a Crown army without Cornwallis has at most 1 leader, its Subordinate (SS 9.2); allowed "
                          "0..1, or add --crown-commander");
    if (!s.crown_commander && crown == 1 && crown_units(s) > rules.subordinate_unit_limit)
      throw invalid_input(units_field(s, side::crown),
                          std::to_string(crown_units(s)) + " units under a Crown Subordinate; allowed 1.." +
                              std::to_string(rules.subordinate_unit_limit) +
                              " (SS 9.2), or add --crown-commander if Cornwallis leads this army");
    if (s.patriot_subordinate) {
      if (patriot_leaders(s) != 1)
        throw invalid_input(leaders_field(s, side::patriot),
                            "--patriot-subordinate means the Patriot army has exactly 1 leader, its Subordinate");
      if (patriot_units(s) > rules.subordinate_unit_limit)
        throw invalid_input(units_field(s, side::patriot),
                            std::to_string(patriot_units(s)) + " units under a Patriot Subordinate; allowed 1.." +
                                std::to_string(rules.subordinate_unit_limit) + " (SS 9.2)");
    }
  }
  if (attacker_dice(rules, s) == 0) {
    const bool fortified = s.where != terrain::point;
    throw invalid_input(
        "att-war",
        std::to_string(s.attacker_war_supplies) + " War Supplies earn no battle dice" +
            (fortified
                 ? " against a " + to_string(s.where) + " (2 per die, the " +
                       std::string(s.attacker == side::crown ? "Crown" : "Patriot") + " rounds " +
                       ((s.attacker == side::crown ? rules.crown_rounds_up : rules.patriot_rounds_up) ? "up" : "down") +
                       ")"
                 : std::string()) +
            "; an Attack needs at least one die (" + (ss ? "SS 10.2" : "NT 8.2") + ")");
  }
}

int attacker_dice(const rule_set& rules, const battle_setup& s) {
  if (s.where == terrain::point) return s.attacker_war_supplies;  // 8.2: one die per supply
  const bool round_up = s.attacker == side::crown ? rules.crown_rounds_up : rules.patriot_rounds_up;
  return round_up ? (s.attacker_war_supplies + 1) / 2 : s.attacker_war_supplies / 2;
}

int attacker_hit_faces(side attacker) {
  return attacker == side::crown ? 3 : 2;
}

int defender_morale_checks(const rule_set& rules, const battle_setup& s) {
  if (s.where == terrain::point) return 0;  // 8.7: at a Point the check fails automatically
  return defender_side(s) == side::crown ? rules.crown_defender_checks : rules.patriot_defender_checks;
}

bool failed_check_surrenders(const rule_set& rules, const battle_setup& s) {
  return !s.retreat_available || (rules.has_sieges && s.under_siege);  // 8.7; SS 11.1
}

int track_shift(const rule_set& rules, const battle_setup& s, battle_outcome o) {
  const int direction = rules.patriot_track_direction;
  int victory = 0;  // 8.6 / 10.6: only an attacker's Victory moves the track
  if (s.attacker == side::patriot)
    victory = +1 * direction;
  else if (s.defender_leaders > 0)
    victory = -1 * direction;
  switch (o) {
    case battle_outcome::attacker_surrenders:
      return surrender_shift(rules, s, s.attacker);
    case battle_outcome::defender_victory:
      return 0;
    case battle_outcome::defender_stands:
    case battle_outcome::defender_retreats:
      return victory;
    case battle_outcome::defender_surrenders:
      return victory + surrender_shift(rules, s, defender_side(s));
  }
  return 0;
}

bool eliminates_crown_commander(const rule_set& rules, const battle_setup& s, battle_outcome o) {
  if (!rules.crown_commander_instant_win || !s.crown_commander) return false;
  return (o == battle_outcome::attacker_surrenders && s.attacker == side::crown) ||
         (o == battle_outcome::defender_surrenders && s.attacker == side::patriot);
}

namespace {

// Exact battles count equally likely dice faces: every weight is a whole number of
// 6^-(defender dice + attacker dice + morale dice), so the sums need no fractions until the end.
// 40 + 40 + 2 dice at most gives 6^82 < 2^213; a battle of at most 24 dice (6^24 < 2^64, most
// battles) counts in machine words, several times faster than 256-bit counts.
using dice_count = boost::multiprecision::uint256_t;
constexpr int most_dice_in_a_word = 24;

template <class Count>
Count power_of_six(int exponent) {
  Count result = 1;
  for (int i = 0; i < exponent; ++i) result *= 6;
  return result;
}

template <class Count>
Count binomial_ways(int n, int k, int hit_faces) {
  Count ways = 1;
  for (int i = 1; i <= k; ++i) ways = ways * static_cast<unsigned>(n - k + i) / static_cast<unsigned>(i);
  for (int i = 0; i < k; ++i) ways *= static_cast<unsigned>(hit_faces);
  for (int i = 0; i < n - k; ++i) ways *= static_cast<unsigned>(6 - hit_faces);
  return ways;
}

// The weights each engine type works in: whole dice counts for rational, probabilities for double.
template <class Probability>
struct battle_weights;

template <>
struct battle_weights<double> {
  using weight = double;
  std::vector<double> defender;               // P(defender scores h hits)
  std::vector<std::vector<double>> attacker;  // [dice][g] P(g hits)
  double attacker_total = 1.0;
  double morale_pass(int difference, int checks) const {
    const double one = morale_passing_faces(difference) / 6.0;
    return checks == 1 ? one : one * one;
  }
  double morale_total(int) const { return 1.0; }
  double total() const { return 1.0; }
  battle_weights(int defender_dice, int max_attacker_dice, int attacker_faces, int) {
    defender = binomial_successes<double>(defender_dice, defender_hit_faces).masses();
    attacker.resize(static_cast<std::size_t>(max_attacker_dice) + 1);
    for (int d = 0; d <= max_attacker_dice; ++d)
      attacker[static_cast<std::size_t>(d)] = binomial_successes<double>(d, attacker_faces).masses();
  }
  static double to_probability(double w, double) { return w; }
};

// Whole dice counts in `Count` (std::uint64_t or dice_count), for the exact engine.
template <class Count>
struct dice_count_weights {
  using weight = Count;
  std::vector<Count> defender;
  std::vector<std::vector<Count>> attacker;  // lifted to 6^max_attacker_dice
  Count attacker_total;                      // 6^max_attacker_dice
  int checks;
  int exponent;
  Count morale_pass(int difference, int checks_made) const {
    const int passing_faces = morale_passing_faces(difference);
    Count pass = static_cast<unsigned>(passing_faces);
    if (checks_made == 2) pass *= static_cast<unsigned>(passing_faces);
    return pass;
  }
  Count morale_total(int checks_made) const { return power_of_six<Count>(checks_made); }
  Count total() const { return power_of_six<Count>(exponent); }
  dice_count_weights(int defender_dice, int max_attacker_dice, int attacker_faces, int morale_checks)
      : attacker_total(power_of_six<Count>(max_attacker_dice)),
        checks(morale_checks),
        exponent(defender_dice + max_attacker_dice + morale_checks) {
    for (int h = 0; h <= defender_dice; ++h)
      defender.push_back(binomial_ways<Count>(defender_dice, h, defender_hit_faces));
    attacker.resize(static_cast<std::size_t>(max_attacker_dice) + 1);
    for (int d = 0; d <= max_attacker_dice; ++d) {
      const Count lift = power_of_six<Count>(max_attacker_dice - d);
      for (int g = 0; g <= d; ++g)
        attacker[static_cast<std::size_t>(d)].push_back(binomial_ways<Count>(d, g, attacker_faces) * lift);
    }
  }
  static rational to_probability(const Count& w, const Count& total) {
    return rational(big_integer(w), big_integer(total));
  }
};

// The battle (validated) counted in `weights_type`'s weights.
template <class Probability, class weights_type>
battle_result<Probability> count_battle(const rule_set& rules, const battle_setup& s) {
  using weight = typename weights_type::weight;

  const int A = s.attacker_units, D = s.defender_units;
  const int dice = attacker_dice(rules, s);
  const int checks = defender_morale_checks(rules, s);
  const bool surrender_on_fail = failed_check_surrenders(rules, s);
  const weights_type weights(s.defender_war_supplies, dice, attacker_hit_faces(s.attacker), checks);
  const weight morale_total = weights.morale_total(checks);

  // Every weight below is scaled to the same total, so [outcome][attacker lost][defender lost]
  // can be summed as whole numbers and divided once.
  std::vector<weight> mass(5 * static_cast<std::size_t>(A + 1) * static_cast<std::size_t>(D + 1), weight(0));
  auto cell = [&](battle_outcome o, int lost_a, int lost_d) -> weight& {
    return mass[(static_cast<std::size_t>(o) * static_cast<std::size_t>(A + 1) + static_cast<std::size_t>(lost_a)) *
                    static_cast<std::size_t>(D + 1) +
                static_cast<std::size_t>(lost_d)];
  };

  for (int h = 0; h <= s.defender_war_supplies; ++h) {
    const weight defender_weight = weights.defender[static_cast<std::size_t>(h)];
    const int lost_a = std::min(h, A);  // 8.4: each 1-2 eliminates one attacking unit
    if (lost_a == A) {
      // Every attacker eliminated: it surrenders at once and does not roll (8.7).
      const weight w = defender_weight * weights.attacker_total * morale_total;
      cell(battle_outcome::attacker_surrenders, A, 0) += w;
      continue;
    }
    const int rolled = std::max(0, dice - lost_a / 2);  // 8.4: one die fewer per two lost
    const auto& attacker_weights = weights.attacker[static_cast<std::size_t>(rolled)];
    for (int g = 0; g <= rolled; ++g) {
      const weight w = defender_weight * attacker_weights[static_cast<std::size_t>(g)];
      const int effective = s.dug_in ? std::max(0, g - 1) : g;  // 7.5: a dug-in army ignores one hit
      const int lost_d = std::min(effective, D);
      if (lost_d == D) {
        cell(battle_outcome::defender_surrenders, lost_a, D) += w * morale_total;
        continue;
      }
      const int attacker_strength = A - lost_a + s.attacker_leaders;  // 8.6: units and leaders
      const int defender_strength = D - lost_d + s.defender_leaders;
      if (attacker_strength <= defender_strength) {  // a tie goes to the defender
        cell(battle_outcome::defender_victory, lost_a, lost_d) += w * morale_total;
        continue;
      }
      const weight pass = checks == 0 ? weight(0) : weights.morale_pass(attacker_strength - defender_strength, checks);
      const weight fail = morale_total - pass;
      cell(battle_outcome::defender_stands, lost_a, lost_d) += w * pass;
      if (surrender_on_fail)
        cell(battle_outcome::defender_surrenders, lost_a, D) += w * fail;
      else
        cell(battle_outcome::defender_retreats, lost_a, lost_d) += w * fail;
    }
  }

  battle_result<Probability> result;
  result.attacker_dice = dice;
  result.defender_dice = s.defender_war_supplies;
  result.attacker_losses = basic_pmf<Probability>::empty();
  result.defender_losses = basic_pmf<Probability>::empty();
  result.track_shift = basic_pmf<Probability>::empty();
  result.attacker_losses.cover(0, A);
  result.defender_losses.cover(0, D);
  // Every reported value is a sum of cells: the sums are made in whole numbers and each is divided
  // once (a fraction's addition reduces by a gcd every time: most of the battle's cost before).
  const weight total = weights.total();
  std::vector<weight> by_attacker(static_cast<std::size_t>(A + 1), weight(0));
  std::vector<weight> by_defender(static_cast<std::size_t>(D + 1), weight(0));
  std::vector<std::pair<int, weight>> by_shift;  // at most one entry per outcome
  weight instant_victory(0);
  for (battle_outcome o : all_battle_outcomes) {
    weight outcome_weight(0);
    for (int a = 0; a <= A; ++a)
      for (int d = 0; d <= D; ++d) {
        const weight& w = cell(o, a, d);
        if (w == weight(0)) continue;
        outcome_weight += w;
        by_attacker[static_cast<std::size_t>(a)] += w;
        by_defender[static_cast<std::size_t>(d)] += w;
      }
    if (outcome_weight == weight(0)) continue;
    result[o] = weights_type::to_probability(outcome_weight, total);
    const int shift = track_shift(rules, s, o);
    auto same = std::find_if(by_shift.begin(), by_shift.end(), [&](const auto& e) { return e.first == shift; });
    if (same == by_shift.end())
      by_shift.emplace_back(shift, outcome_weight);
    else
      same->second += outcome_weight;
    if (eliminates_crown_commander(rules, s, o)) instant_victory += outcome_weight;
  }
  for (int a = 0; a <= A; ++a)
    if (by_attacker[static_cast<std::size_t>(a)] != weight(0))
      result.attacker_losses.add_mass(a, weights_type::to_probability(by_attacker[static_cast<std::size_t>(a)], total));
  for (int d = 0; d <= D; ++d)
    if (by_defender[static_cast<std::size_t>(d)] != weight(0))
      result.defender_losses.add_mass(d, weights_type::to_probability(by_defender[static_cast<std::size_t>(d)], total));
  for (const auto& [shift, w] : by_shift) result.track_shift.add_mass(shift, weights_type::to_probability(w, total));
  if (instant_victory != weight(0)) result.instant_victory = weights_type::to_probability(instant_victory, total);
  return result;
}

}  // namespace

template <class Probability>
battle_result<Probability> resolve_battle(const rule_set& rules, const battle_setup& s) {
  validate(rules, s);
  if constexpr (std::is_same_v<Probability, double>) {
    return count_battle<double, battle_weights<double>>(rules, s);
  } else {
    const int dice = s.defender_war_supplies + attacker_dice(rules, s) + defender_morale_checks(rules, s);
    if (dice <= most_dice_in_a_word) return count_battle<rational, dice_count_weights<std::uint64_t>>(rules, s);
    return count_battle<rational, dice_count_weights<dice_count>>(rules, s);
  }
}

template battle_result<rational> resolve_battle<rational>(const rule_set&, const battle_setup&);
template battle_result<double> resolve_battle<double>(const rule_set&, const battle_setup&);

proportion_interval battle_estimate::interval(battle_outcome o, double confidence) const {
  return wilson_interval(outcome_counts[static_cast<std::size_t>(o)], trials, confidence);
}

battle_estimate simulate_battle(const rule_set& rules, const battle_setup& s, const simulation_options& options) {
  validate(rules, s);
  const int A = s.attacker_units, D = s.defender_units;
  const int dice = attacker_dice(rules, s);
  const int faces = attacker_hit_faces(s.attacker);
  const int checks = defender_morale_checks(rules, s);
  const bool surrender_on_fail = failed_check_surrenders(rules, s);
  // Tally layout: 5 outcomes, attacker losses 0..A, defender losses 0..D, instant victory.
  const std::size_t attacker_offset = 5, defender_offset = attacker_offset + static_cast<std::size_t>(A) + 1;
  const std::size_t instant_offset = defender_offset + static_cast<std::size_t>(D) + 1;

  auto trial = [&](random_engine& engine, std::span<std::uint64_t> tally) {
    battle_outcome o;
    const int lost_a = std::min(roll_hits(engine, s.defender_war_supplies, defender_hit_faces), A);
    int lost_d = 0;
    if (lost_a == A) {
      o = battle_outcome::attacker_surrenders;
    } else {
      const int hits = roll_hits(engine, std::max(0, dice - lost_a / 2), faces);
      lost_d = std::min(s.dug_in ? std::max(0, hits - 1) : hits, D);
      const int attacker_strength = A - lost_a + s.attacker_leaders;
      const int defender_strength = D - lost_d + s.defender_leaders;
      if (lost_d == D) {
        o = battle_outcome::defender_surrenders;
      } else if (attacker_strength <= defender_strength) {
        o = battle_outcome::defender_victory;
      } else {
        bool passed = checks > 0;
        for (int c = 0; c < checks; ++c)
          passed = passed && roll_d6(engine) <= morale_passing_faces(attacker_strength - defender_strength);
        if (passed)
          o = battle_outcome::defender_stands;
        else if (surrender_on_fail)
          o = battle_outcome::defender_surrenders, lost_d = D;
        else
          o = battle_outcome::defender_retreats;
      }
    }
    if (o == battle_outcome::defender_surrenders) lost_d = D;
    ++tally[static_cast<std::size_t>(o)];
    ++tally[attacker_offset + static_cast<std::size_t>(lost_a)];
    ++tally[defender_offset + static_cast<std::size_t>(lost_d)];
    if (eliminates_crown_commander(rules, s, o)) ++tally[instant_offset];
  };
  const simulation_tally tally = run_trials(options, instant_offset + 1, trial);

  battle_estimate estimate;
  estimate.trials = tally.trials;
  for (std::size_t i = 0; i < 5; ++i) estimate.outcome_counts[i] = tally.counts[i];
  estimate.attacker_loss_counts.assign(tally.counts.begin() + static_cast<std::ptrdiff_t>(attacker_offset),
                                       tally.counts.begin() + static_cast<std::ptrdiff_t>(defender_offset));
  estimate.defender_loss_counts.assign(tally.counts.begin() + static_cast<std::ptrdiff_t>(defender_offset),
                                       tally.counts.begin() + static_cast<std::ptrdiff_t>(instant_offset));
  estimate.instant_victory_count = tally.counts[instant_offset];
  return estimate;
}

battle_result<rational> observed_result(const rule_set& rules, const battle_setup& s, const battle_estimate& estimate) {
  const big_integer n(std::max<std::uint64_t>(estimate.trials, 1));
  auto frequency = [&](std::uint64_t count) { return rational(big_integer(count), n); };
  auto frequencies = [&](const std::vector<std::uint64_t>& counts) {
    std::vector<rational> masses;
    for (auto c : counts) masses.push_back(frequency(c));
    return pmf(0, std::move(masses));
  };
  battle_result<rational> result;
  result.attacker_dice = attacker_dice(rules, s);
  result.defender_dice = s.defender_war_supplies;
  result.attacker_losses = frequencies(estimate.attacker_loss_counts);
  result.defender_losses = frequencies(estimate.defender_loss_counts);
  result.track_shift = pmf::empty();
  for (battle_outcome o : all_battle_outcomes) {
    const rational p = frequency(estimate.outcome_counts[static_cast<std::size_t>(o)]);
    result[o] = p;
    if (p != 0) result.track_shift.add_mass(track_shift(rules, s, o), p);
  }
  result.instant_victory = frequency(estimate.instant_victory_count);
  return result;
}

}  // namespace musket::supply_lines
