#pragma once
// A Supply Lines battle (NT 8.0-8.7, SS 10.0-10.7), read as RULINGS.md "Supply Lines battles".
// The exact engine enumerates every die; the simulated engine rolls them. Both take the rules
// from the helpers below, so a ruling changes in one place.
#include <array>
#include <cstdint>
#include <string>

#include "calc/supply_lines/rule_set.hpp"
#include "core/monte_carlo.hpp"
#include "core/pmf.hpp"
#include "core/proportion_interval.hpp"

namespace musket::supply_lines {

struct battle_setup {
  side attacker = side::crown;
  terrain where = terrain::point;
  int attacker_units = 1;
  int attacker_leaders = 1;
  int attacker_war_supplies = 1;
  int defender_units = 1;
  int defender_leaders = 0;
  int defender_war_supplies = 0;
  bool dug_in = false;               // NT 7.5 / SS 9.6: the first hit is ignored
  bool retreat_available = true;     // no adjacent friendly or empty Area: a failed check surrenders
  bool under_siege = false;          // SS 11.1: the defender cannot retreat
  bool crown_commander = false;      // SS: Cornwallis is in the Crown army
  bool patriot_subordinate = false;  // SS: the Patriot army is led by its Subordinate only
};

// The five ways a battle can end, exactly one per battle.
enum class battle_outcome {
  attacker_surrenders,  // every attacking unit eliminated by the defender's roll (8.7 last line)
  defender_victory,     // the attacker is repulsed (8.6 tie or defender ahead)
  defender_stands,      // the attacker won, the defender passed its morale check(s)
  defender_retreats,    // the attacker won, a check failed, the defender retreats
  defender_surrenders,  // eliminated outright, or failed a check with no retreat
};
inline constexpr std::array<battle_outcome, 5> all_battle_outcomes{
    battle_outcome::attacker_surrenders, battle_outcome::defender_victory, battle_outcome::defender_stands,
    battle_outcome::defender_retreats, battle_outcome::defender_surrenders};
std::string to_string(battle_outcome o);

template <class Probability>
struct battle_result {
  std::array<Probability, 5> outcomes{};   // indexed by battle_outcome
  basic_pmf<Probability> attacker_losses;  // units lost, 0..attacker_units
  basic_pmf<Probability> defender_losses;  // units lost, 0..defender_units
  basic_pmf<Probability> track_shift;      // NT Support Track / SS Political Will Track
  Probability instant_victory{0};          // SS: Cornwallis eliminated
  int attacker_dice = 0;
  int defender_dice = 0;

  const Probability& operator[](battle_outcome o) const { return outcomes[static_cast<std::size_t>(o)]; }
  Probability& operator[](battle_outcome o) { return outcomes[static_cast<std::size_t>(o)]; }
};

// Throws invalid_input (field = the CLI option's name) for an impossible battle.
void validate(const rule_set& rules, const battle_setup& setup);

// --- The rules both engines share ---------------------------------------------------------
// Battle dice for the attacker's War Supplies (NT 8.2, SS 10.2).
int attacker_dice(const rule_set& rules, const battle_setup& setup);
// Faces that hit: Patriot attacker 1-2, Crown attacker 1-3 (8.5); the defender always 1-2 (8.4).
int attacker_hit_faces(side attacker);
inline constexpr int defender_hit_faces = 2;
// Morale checks a defender beaten in battle makes (8.7 / 10.7); 0 means it fails automatically.
int defender_morale_checks(const rule_set& rules, const battle_setup& setup);
// Whether a failed check is a surrender rather than a retreat.
bool failed_check_surrenders(const rule_set& rules, const battle_setup& setup);
// Track shift of one battle's end (8.6, 8.7, 11.0 / 10.6, 10.7, 14.0). For the two surrenders
// the surrendering army's leaders are all eliminated.
int track_shift(const rule_set& rules, const battle_setup& setup, battle_outcome o);
// Shift when `army` surrenders with all its leaders (8.7 / 10.4), without any Victory shift.
int army_surrender_shift(const rule_set& rules, const battle_setup& setup, side army);
// Whether the outcome eliminates Cornwallis (SS 14.0).
bool eliminates_crown_commander(const rule_set& rules, const battle_setup& setup, battle_outcome o);

// Exact battle. `Probability` is rational (exact fractions) or double (fast sweeps).
template <class Probability>
battle_result<Probability> resolve_battle(const rule_set& rules, const battle_setup& setup);

extern template battle_result<rational> resolve_battle<rational>(const rule_set&, const battle_setup&);
extern template battle_result<double> resolve_battle<double>(const rule_set&, const battle_setup&);

// Simulated battle: the same procedure, rolled.
struct battle_estimate {
  std::uint64_t trials = 0;
  std::array<std::uint64_t, 5> outcome_counts{};
  std::vector<std::uint64_t> attacker_loss_counts;  // 0..attacker_units
  std::vector<std::uint64_t> defender_loss_counts;  // 0..defender_units
  std::uint64_t instant_victory_count = 0;
  proportion_interval interval(battle_outcome o, double confidence = 0.95) const;
};
battle_estimate simulate_battle(const rule_set& rules, const battle_setup& setup, const simulation_options& options);
// The estimate as a battle result: each probability the observed frequency count/trials (held
// exactly, so the estimate's track shift and position come out of the same functions).
battle_result<rational> observed_result(const rule_set& rules, const battle_setup& setup,
                                        const battle_estimate& estimate);

}  // namespace musket::supply_lines
