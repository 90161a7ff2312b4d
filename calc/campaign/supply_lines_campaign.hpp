#pragma once
// A Supply Lines campaign (NT, SS): one army's chain of marches, attacks, defences, skirmishes
// and dig-ins, paying Food and War Supplies as the rules charge them (NT 7.1-7.5, SS 9.1-9.6),
// with the Support Track (NT) or Political Will Track (SS) carried along. The state's full
// distribution is carried forward exactly while it stays under a state limit; past it the rest of
// the plan is simulated, starting from states drawn from the exact distribution at that step.
//
// Where the army stands after a battle follows NT 8.6-8.7 / SS 10.6-10.7 (RULINGS.md, "Supply
// Lines campaigns: what a battle leaves behind"): an attack takes its Area only when the defender
// retreats or surrenders; otherwise the army is back in the Area it attacked from, and the plan
// says what it does next (if_not_taken: stop, continue, or retry).
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "calc/supply_lines/battle.hpp"
#include "calc/supply_lines/rule_set.hpp"
#include "core/chain_simulation.hpp"
#include "core/pmf.hpp"
#include "core/proportion_interval.hpp"

namespace musket::campaign {

// The fields of the army's state a plan may refer to by name.
enum class state_field { units, leaders, war, food, track };
inline constexpr const char* state_field_names[] = {"units", "leaders", "war", "food", "track"};

// A number in a plan: a constant, or a state field (optionally capped and reduced).
struct amount {
  std::optional<state_field> field;  // empty: the constant
  int constant = 0;
  int minus = 0;
  std::optional<int> at_most;
};

struct condition {
  enum class kind { always, won, lost, taken, not_taken, compare } what = kind::always;
  state_field field = state_field::units;
  enum class comparison { below, at_most, at_least, above, equals } op = comparison::below;
  int value = 0;
};

enum class step_kind { march, attack, defend, skirmish, dig_in, receive };
inline constexpr const char* step_kind_names[] = {"march", "attack", "defend", "skirmish", "dig_in", "receive"};

// What an attack step does when its attack does not take the Area (the army is back where it
// attacked from, NT 8.7 / SS 10.7).
struct if_not_taken {
  enum class action { stop, continue_plan } then = action::stop;
  int retries = 0;  // further attempts in later Impulses, each with what is left, before `then`
};
inline constexpr int max_retries = 12;

// An Area of the plan; `elsewhere` is where an army that retreated from a defence went.
inline constexpr std::uint8_t elsewhere_area = 255;

struct plan_step {
  std::string id;    // "steps[2]" unless the plan names it
  std::string path;  // "steps[2]": the JSON path, for messages
  step_kind kind = step_kind::march;
  std::uint8_t from = 0;  // the Area the army must stand in to take this step
  std::uint8_t to = 0;    // march: the Area entered; attack: the objective
  if_not_taken not_taken;
  int enemy_food = 0, enemy_supply_war = 0;  // Supplies that change hands (enemy.supplies)
  supply_lines::terrain where = supply_lines::terrain::point;
  amount war;  // War Supplies our army commits (attack, defend, skirmish)
  int enemy_units = 1, enemy_leaders = 0, enemy_war = 0;
  bool enemy_dug_in = false;      // attack: the defender is dug in
  bool retreat_available = true;  // attack: the defender's; defend: ours
  bool under_siege = false;       // SS: the defender is under siege
  bool enemy_commander = false;   // SS: Cornwallis with the enemy (Crown) army
  int receive_food = 0, receive_war = 0, receive_units = 0;
  std::vector<condition> skip_if;  // checked before the step: the army does nothing
  std::vector<condition> stop_if;  // checked after: the campaign ends here
  std::optional<std::size_t> jump_to;
  condition jump_when;  // kind::always with jump_to = unconditional
};

struct supply_lines_plan {
  const supply_lines::rule_set* rules = nullptr;
  std::string name;
  std::string file;  // the plan's file name, for messages
  supply_lines::side army_side = supply_lines::side::crown;
  int units = 1, leaders = 1, war = 0, food = 0;
  bool crown_commander = false;  // SS: Cornwallis leads our (Crown) army
  int track = 0;
  std::optional<int> track_floor, track_lowest, track_highest;
  std::vector<std::string> areas;  // areas[0] is where the army starts
  std::vector<plan_step> steps;
};

// Our army as an attack or defend step finds it.
struct army_at_battle {
  int units = 0, leaders = 0, war_committed = 0;
  bool dug_in = false;  // defend: our army dug in at an earlier step
};

// The battle an attack or defend step fights (NT 8, SS 10), built in one place for both the
// plan's validation and the run, so that a ruling cannot apply in one and not the other.
supply_lines::battle_setup battle_for(const supply_lines_plan& plan, const plan_step& step, const army_at_battle& army);

// Parses and validates a plan (JSON). `file` prefixes every error's field: "FILE: steps[2].kind".
// game_code "nt" | "ss" must match the plan's "game" when it has one. Throws invalid_input.
supply_lines_plan parse_supply_lines_plan(const nlohmann::json& plan, const std::string& file,
                                          const std::string& game_code);

struct probability_value {
  double value = 0;
  std::optional<std::string> exact;             // "num/den" when exact
  std::optional<proportion_interval> interval;  // 95% Wilson when simulated
};

// How a step's battle ended (the last attempt's, for a retried attack), from the attacker's side;
// `not_fought` when the step was reached but skipped or stalled, so the six sum to `reached`.
enum class step_outcome : std::uint8_t { none, repulsed, stood, retreated, surrendered, attacker_surrendered };
inline constexpr const char* step_outcome_names[] = {"not_fought", "repulsed",    "stood",
                                                     "retreated",  "surrendered", "attacker_surrendered"};
inline constexpr int step_outcome_count = 6;

struct step_result {
  std::string id, kind, method;  // method "exact" | "simulation"
  probability_value reached, skipped, performed, won, stalled, stopped;
  probability_value taken;                  // attack: the Area changed hands; defend: the enemy took ours
  probability_value held;                   // defend: fought, and the enemy did not take the Area
  probability_value skipped_away;           // skipped because the army is not in the step's Area
  std::string from_area, to_area;           // the Area the step needs the army in; where a march/attack leads
  std::vector<probability_value> outcomes;  // indexed by step_outcome
  std::vector<probability_value> attempts;  // attack: attempts[k] = P(k attempts were fought), k >= 1
  // Snapshot after the step over every trajectory (those that ended earlier keep their last state).
  pmf_double units, war, food, track;
};

struct end_result {
  std::string name;
  probability_value probability;
};

struct campaign_options {
  std::string method = "auto";  // exact | sim | auto
  std::size_t state_limit = 20000;
  chain_simulation_options simulation;
};

struct campaign_result {
  std::vector<step_result> steps;
  std::vector<end_result> end;             // victory conditions the track decides, army fates
  std::size_t peak_states = 0;             // exact states at the widest step
  std::optional<std::size_t> switched_at;  // first simulated step, when a limit forced it
  std::uint64_t trials = 0;
  std::uint64_t seed = 0;
  std::vector<std::string> notes;
  // NT 5.5, SS 5.5: the Supplies the army sets out with and the most it can carry (1 + Units).
  int start_supplies = 0, carrying_limit = 0;
};

campaign_result run_supply_lines_campaign(const supply_lines_plan& plan, const campaign_options& options);

}  // namespace musket::campaign
