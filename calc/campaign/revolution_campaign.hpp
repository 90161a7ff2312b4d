#pragma once
// An American Revolution (SPI) season plan: a list of American attacks, each a CRT combat, in
// Game-Turn order. Every attack is resolved on its own forces (the plan gives them), and the
// chain carries the Major Success count, the turn of the first one (French Arrival) and whether
// the game has ended in an American victory (Major Success B, C; Victory Conditions 1-2) or a
// British one (the goal's Victory Points at the end of a Game-Turn), each Game-Turn judged against
// its own goal (Errata, Victory Conditions: 41 / 51 / 61 by period; RULINGS.md).
// Blank CRT cells (3:1 and 4:1 row 6, RULINGS.md) make every answer an interval: the low end
// counts an unknown cell as no Major Success, the high end as one whenever any printed result
// of that column would be; both ends are propagated exactly.
// Region control (Control and American Militia): an attack that names a Region of the plan's
// `regions` has that Region's control judged at the end of its Game-Turn from what the combat
// leaves there (AR combat never moves anyone: the survivors of both sides stay in the Area) plus the
// plan's count of the rest of the Region; the British Victory Points then follow that control.
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "calc/revolution/combat.hpp"
#include "calc/revolution/movement.hpp"
#include "calc/revolution/options.hpp"
#include "core/rational.hpp"

namespace musket::campaign {

// A Region whose control the plan follows (Control and American Militia).
struct revolution_region {
  std::string name;
  int victory_points = 0;       // the Region's Victory Point value (data/ar/regions.json, or the map)
  bool british_control = true;  // at the start of the plan
};

struct revolution_attack {
  std::string id, path;
  int turn = 1;  // Game-Turn of the attack
  revolution::battle_setup battle;
  // Control: the index in revolution_plan::regions of the Region fought in (-1: not followed), and
  // the rest of that Region at the end of the Game-Turn, besides this combat's forces: British
  // Strength Points neither fortified nor besieging, American Continental or French points neither
  // fortified nor besieging, and American Militia points (fortified or not: Control E).
  int region = -1;
  int british_elsewhere = 0;
  int americans_elsewhere = 0;
  int militia_elsewhere = 0;
};

// A British move by land (case K): `areas` rolls (a sea move is one), `groups` moving alike.
struct revolution_move {
  std::string id, path;
  int turn = 1;
  int areas = 1;
  int groups = 1;
};

// The British Victory Point goal of a Game-Turn (RULINGS.md "American Revolution victory"): the
// Errata's goal for the turn's period (41 for 1775-1776, 51 for 1777-1778, 61 for 1779-1783), or
// the plan's own goal for every turn, plus the Variable Forces net adjustment either way.
struct revolution_goals {
  std::optional<int> stated;                          // the plan's british_goal, for every Game-Turn
  int adjustment = 0;                                 // the Variable Forces net adjustment (--use)
  std::vector<revolution::period_goal> period_goals;  // the Errata's (data/ar/options.json)
};
int british_goal_on_turn(const revolution_goals& goals, int turn);

// What a Variable Forces option did to the plan's attacks (a campaign run with --use).
struct revolution_option_effect {
  char option = 'A';
  bool applied = false;                      // the plan's forces were changed by the option's rule
  std::string what;                          // the change made, or why the plan's forces cannot show it
  std::vector<std::string> attacks_changed;  // "trenton: 10C,6M v 6B,2T -> 10C,4M v 6B,1T"
};

struct revolution_plan {
  std::string name, file;
  int prior_major_successes = 0;  // before the plan starts (0..2)
  revolution_goals goals;
  int british_vp = 0;                      // Victory Points the British control during the plan
  int last_turn = 0;                       // judge the game and report French arrival through this Game-Turn
  bool no_french_permanent = false;        // Option K: the Permanent Reinforcements never arrive
  std::vector<revolution_region> regions;  // Regions whose control the plan follows
  std::vector<revolution_attack> attacks;
  std::vector<revolution_move> british_moves;
};

// Size caps (checked before anything runs): attacks, British moves and Regions per plan.
inline constexpr int max_revolution_attacks = 200;
inline constexpr int max_revolution_moves = 200;
inline constexpr int max_revolution_regions = 20;

// Throws invalid_input naming "FILE: /attacks/1/defender" and the like. The Errata's goals by
// period come from `options` (data/ar/options.json).
revolution_plan parse_revolution_plan(const nlohmann::json& plan, const std::string& file,
                                      const revolution::options_data& options);

// The Variable Forces options whose rules say how forces in play change, applied to every attack
// of the plan (G, E, K); the rest are reported as not applied, with the reason: the plan does not
// say which of its points came from the reinforcements or levies they change. Throws
// invalid_input naming the attack when a changed attack is no longer a legal combat.
std::vector<revolution_option_effect> apply_variable_forces(revolution_plan& plan, const std::vector<char>& letters);

struct interval_value {
  rational low{0}, high{0};
};

struct revolution_attack_result {
  std::string id;
  int turn = 0;
  int british_goal = 51;  // that Game-Turn's goal; after two Major Successes the British need half
  int column = 0;
  interval_value reached;        // P(the game is still on when the attack is made)
  interval_value major_success;  // P(this attack is a Major Success, and is made)
  // For an attack in a followed Region: P(made, and at the end of its Game-Turn the British
  // control the Region) and P(made, and the Americans control it); the rest of `reached` is disputed.
  bool judges_control = false;
  interval_value british_control, american_control;
};

// Exact (low == high) whenever no blank CRT cell of a used column could change a Major Success.
struct revolution_campaign_result {
  std::vector<revolution_attack_result> attacks;
  // [k] = P(at least k Major Successes in all, prior included), k = 0..3. (Bounds hold for events
  // that more successes can only make likelier; "exactly k" is not one, so it is not reported.)
  std::vector<interval_value> at_least;
  interval_value american_victory;  // three, or two with the British under floor(goal / 2)
  interval_value british_victory;   // the British control the goal's Victory Points at the end of a Game-Turn
  interval_value partial_withdrawal;
  std::vector<int> turns;                                  // first attack's turn .. last_turn
  std::vector<int> goal_by_turn;                           // the British goal of each of `turns`
  std::vector<interval_value> french_triggered_by;         // P(first Major Success by turn t)
  std::vector<interval_value> french_permanent_by;         // P(Permanent Reinforcements arrived by turn t: 6 after)
  bool exact = true;                                       // no unknown CRT cell mattered
  std::vector<revolution::movement_result> british_moves;  // per planned British move, exact
};

revolution_campaign_result run_revolution_campaign(const revolution::crt_table& table, const revolution_plan& plan);

}  // namespace musket::campaign
