#pragma once
// A War Along the Great Lakes campaign: the two field armies fight a turn-by-turn list of
// battles at named locations, each side carrying its surviving units (with their SP) from one
// battle to the next, with replacement SP where the plan says so. The war-end roll (GL 15.1,
// from data) decides after which turn the game stops; whatever was scheduled later is not
// fought. The answer is P(each side holds each Victory Point location at game end), the
// distribution of each side's VP total and of the margin between them (GL 14), and who wins the
// game: more VP, a tie to the British (GL 14.1), or all the opponent's VP locations held when a
// turn ends, which ends the game there (GL 14.4). Battles are rolled with the battle engine's own
// round (rules/round.hpp), so this chain is always simulated, with 95% intervals. A battle the attacker
// does not win leaves the location with the defender and the attacker back where it came from
// (GL 12.6): its later battles that turn, which need it to have advanced, are not fought; on a
// later turn it can move again (GL 10). A plan that gives the armies' `positions` has them followed
// across turns: each battle step says where its attacker moves `from`, and is fought only if the
// army stands there; the defending army fights only if it stands at the location; a win moves the
// attacker in and the defender out (to `defender_retreats_to`, or somewhere the plan does not
// follow), a failed attack leaves the attacker where it came from and the defender in place.
//
// A "turn" step plays a turn's ship missions and CAP roll (GL 5, 7, 8) with the same functions as
// `gl turn` and `gl missions` (calc/great_lakes/turn/missions.hpp): each side's CAP distribution and who
// moves first are exact; each side then buys replacement SP at 2 CAP per SP, at most 2 SP a turn
// (GL 9.1), from the CAP left after what the plan keeps for movement (GL 10.1).
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "calc/great_lakes/battle.hpp"
#include "calc/great_lakes/game_data.hpp"
#include "calc/great_lakes/turn/missions.hpp"
#include "core/chain_simulation.hpp"
#include "core/proportion_interval.hpp"

namespace musket::campaign {

// GL 9.1: "It cost 2 CAP to add 1 SP as a replacement"; "a maximum of 2 SP per turn".
inline constexpr int great_lakes_cap_per_replacement_sp = 2;
inline constexpr int great_lakes_max_replacement_sp_per_turn = 2;
// Plan size cap, checked before anything runs (README "Limits and errors").
inline constexpr int max_great_lakes_steps = 200;

// One side's mission choice for a turn: a pure choice per lake, or the optimal mixed strategy of
// the missions game (`gl missions`, objective: moving first).
struct great_lakes_orders {
  bool optimal = false;
  std::array<great_lakes::mission, 2> by_lake{great_lakes::mission::transport,
                                              great_lakes::mission::transport};  // [ontario, erie]
  std::string text() const;  // "ontario=supply,erie=intercept" or "optimal"
};

// What a turn step's missions and CAP roll give, exactly (computed when the plan is read).
struct great_lakes_turn_odds {
  std::array<pmf_double, 2> cap;  // [american, british], after supply missions and intercept losses
  double americans_first = 0;     // GL 8.2: the higher CAP moves first, ties to the Americans
};

struct great_lakes_step {
  std::string id, path;
  int turn = 1;
  enum class kind { battle, turn } what = kind::battle;
  std::string location;
  great_lakes::nation attacker = great_lakes::nation::american;
  std::string from;                     // with plan positions: where the attacking army moves from
  std::string defender_retreats_to;     // with plan positions: where a beaten defender goes ("" unknown)
  great_lakes::battle template_battle;  // parsed with the starting armies; army units are swapped in
  std::size_t attacker_army_units = 0, defender_army_units = 0;  // the carried units come first
  int replacement_sp[2] = {0, 0};                                // kind::turn: SP wanted, [american, british]
  // kind::turn: missions per side, the squadron dice used, SP wanted and CAP kept for movement.
  great_lakes_orders orders[2];                   // [american, british]
  std::array<std::array<int, 2>, 2> ship_dice{};  // [lake][british, american] as turn/missions.hpp
  int keep_cap[2] = {0, 0};                       // [american, british]
  great_lakes_turn_odds odds;
};

struct great_lakes_plan {
  std::string name, file;
  std::vector<great_lakes::unit> army[2];              // [american, british]
  std::map<std::string, great_lakes::nation> control;  // at the start
  bool follows_positions = false;                      // the plan gave "positions"
  std::string position[2];                             // [american, british] at the start
  std::vector<great_lakes_step> steps;
  int from_turn = 1;
};

// Throws invalid_input naming "FILE: steps[1].location" and the like.
great_lakes_plan parse_great_lakes_plan(const nlohmann::json& plan, const std::string& file,
                                        const great_lakes::game_data& data);

struct great_lakes_step_result {
  std::string id;
  int turn = 0;
  std::string location;
  proportion_interval fought, attacker_wins;  // a turn step: fought = the turn is played
  proportion_interval taken;                  // the attacker won and occupies the location (GL 14.5)
  // Not fought because the attacking army was thrown back earlier this turn: a failed attack
  // leaves it where it came from (GL 12.6), not in the location a later battle needs it in.
  proportion_interval not_there;
  double mean_sp[2] = {0, 0};  // surviving SP of each field army after the step
};

// A turn step's report: the exact CAP odds and, simulated, the replacement SP each side bought.
struct great_lakes_turn_result {
  std::string id;
  int turn = 0;
  std::string orders[2];  // [american, british]
  great_lakes_turn_odds odds;
  double mean_replacement_sp[2] = {0, 0};  // per trial that plays the turn
};

struct great_lakes_location_result {
  std::string location;
  int vp = 0;
  std::string earned_by;  // the side that scores it when holding it
  proportion_interval american, british;
};

struct great_lakes_campaign_result {
  std::vector<great_lakes_step_result> steps;
  std::vector<great_lakes_turn_result> turns;  // the plan's turn steps, in order
  std::vector<great_lakes_location_result> locations;
  std::vector<double> american_vp, british_vp;  // distributions of the VP totals, from 0
  proportion_interval british_ahead;            // British VP > American VP
  proportion_interval tied;
  // GL 14.1: who wins the game: the side with more VP, a tie to the British; GL 14.4: a side that
  // holds every VP location on its opponent's side when a turn ends wins at once (both: the British).
  proportion_interval british_wins, american_wins;
  proportion_interval british_automatic, american_automatic;  // GL 14.4, within the wins above
  // British VP - American VP when the game ends: vp_margin[k] = P(margin = vp_margin_lowest + k).
  std::vector<double> vp_margin;
  int vp_margin_lowest = 0;
  std::vector<double> last_turn;  // the war-end law used, [t] = P(the game ends after turn t)
  std::uint64_t trials = 0, seed = 0;
};

great_lakes_campaign_result run_great_lakes_campaign(const great_lakes_plan& plan, const great_lakes::game_data& data,
                                                     const chain_simulation_options& options);

}  // namespace musket::campaign
