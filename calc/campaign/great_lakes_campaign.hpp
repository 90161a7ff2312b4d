#pragma once
// A War Along the Great Lakes campaign: the two field armies fight a turn-by-turn list of
// battles at named locations, each side carrying its surviving units (with their SP) from one
// battle to the next, with replacement SP where the plan says so. The war-end roll (GL 15.1,
// from data) decides after which turn the game stops; whatever was scheduled later is not
// fought. The answer is P(each side holds each Victory Point location at game end) and the
// distribution of each side's VP total (GL 14). Battles are rolled with the battle engine's own
// round (battle_round.hpp), so this chain is always simulated, with 95% intervals.
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "calc/great_lakes/battle.hpp"
#include "calc/great_lakes/game_data.hpp"
#include "core/chain_simulation.hpp"
#include "core/proportion_interval.hpp"

namespace musket::campaign {

struct great_lakes_step {
  std::string id, path;
  int turn = 1;
  enum class kind { battle, replacements } what = kind::battle;
  std::string location;
  great_lakes::nation attacker = great_lakes::nation::american;
  great_lakes::battle template_battle;  // parsed with the starting armies; army units are swapped in
  std::size_t attacker_army_units = 0, defender_army_units = 0;  // the carried units come first
  int replacement_sp[2] = {0, 0};                                // [american, british]
};

struct great_lakes_plan {
  std::string name, file;
  std::vector<great_lakes::unit> army[2];              // [american, british]
  std::map<std::string, great_lakes::nation> control;  // at the start
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
  proportion_interval fought, attacker_wins;
  double mean_sp[2] = {0, 0};  // surviving SP of each field army after the step
};

struct great_lakes_location_result {
  std::string location;
  int vp = 0;
  std::string earned_by;  // the side that scores it when holding it
  proportion_interval american, british;
};

struct great_lakes_campaign_result {
  std::vector<great_lakes_step_result> steps;
  std::vector<great_lakes_location_result> locations;
  std::vector<double> american_vp, british_vp;  // distributions of the VP totals, from 0
  proportion_interval british_ahead;            // British VP > American VP
  proportion_interval tied;
  std::vector<double> last_turn;  // the war-end law used, [t] = P(the game ends after turn t)
  std::uint64_t trials = 0, seed = 0;
};

great_lakes_campaign_result run_great_lakes_campaign(const great_lakes_plan& plan, const great_lakes::game_data& data,
                                                     const chain_simulation_options& options);

}  // namespace musket::campaign
