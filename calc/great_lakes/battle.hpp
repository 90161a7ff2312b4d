#pragma once
// A War Along the Great Lakes land battle (GL 11-13), read as RULINGS.md "War Along the Great
// Lakes battles". One description of the rules (rules/round.hpp: battle_rules + play_round, a public API)
// drives both engines: the exact one enumerates every die into an absorbing Markov chain, the
// simulated one rolls them.
#include <array>
#include <atomic>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/enum_names.hpp"
#include "core/memory_meter.hpp"
#include "core/monte_carlo.hpp"
#include "core/proportion_interval.hpp"

namespace musket::great_lakes {

enum class nation { american, british };
enum class unit_type { regular, militia, artillery, dragoon, native, garrison };
enum class crossing { none, river, amphibious };
enum class retreat_kind { never, line_sp_at_most, weaker, optimal };
// GL 11.23 leaves the order of hits beyond one per line unit to the owner. `optimal` (and
// retreat_kind::optimal, reroll_kind::optimal) is solved as a game by optimal/game.hpp; the fixed
// engines below refuse it.
enum class hit_allocation_kind { rulings, concentrate, optimal };
// GL 11.26-11.27 leave to the owner which failed morale die a leader's reroll is spent on.
enum class reroll_kind { first, never, largest_unit, optimal };

// Each enum's names, written once: to_string, the parsers (scenario.hpp) and their "allowed:"
// lists all read these tables (core/enum_names.hpp).
inline constexpr enum_names<nation, 2> names_of_nation{{{nation::american, "american"}, {nation::british, "british"}}};
inline constexpr enum_names<unit_type, 6> names_of_unit_type{{{unit_type::regular, "regular"},
                                                              {unit_type::militia, "militia"},
                                                              {unit_type::artillery, "artillery"},
                                                              {unit_type::dragoon, "dragoon"},
                                                              {unit_type::native, "native"},
                                                              {unit_type::garrison, "garrison"}}};
inline constexpr enum_names<crossing, 3> names_of_crossing{
    {{crossing::none, "none"}, {crossing::river, "river"}, {crossing::amphibious, "amphibious"}}};
inline constexpr enum_names<retreat_kind, 4> names_of_retreat_kind{{{retreat_kind::never, "never"},
                                                                    {retreat_kind::line_sp_at_most, "line_sp_at_most"},
                                                                    {retreat_kind::weaker, "weaker"},
                                                                    {retreat_kind::optimal, "optimal"}}};
inline constexpr enum_names<hit_allocation_kind, 3> names_of_hit_allocation_kind{
    {{hit_allocation_kind::rulings, "rulings"},
     {hit_allocation_kind::concentrate, "concentrate"},
     {hit_allocation_kind::optimal, "optimal"}}};
inline constexpr enum_names<reroll_kind, 4> names_of_reroll_kind{{{reroll_kind::first, "first"},
                                                                  {reroll_kind::never, "never"},
                                                                  {reroll_kind::largest_unit, "largest_unit"},
                                                                  {reroll_kind::optimal, "optimal"}}};

std::string to_string(nation n);
std::string to_string(unit_type t);
std::string to_string(crossing c);
std::string to_string(retreat_kind k);
std::string to_string(hit_allocation_kind k);
std::string to_string(reroll_kind k);

struct unit {
  std::string name;
  unit_type type = unit_type::regular;
  int sp = 1;
  int max_sp = 1;
  int morale = 6;
  int dice = 1;
  crossing crossed = crossing::none;  // GL 11.8: river or amphibious attackers lose a die in round 1
};

struct reinforcement {
  unit u;
  bool across_niagara = false;  // GL 13.3: +1 to the reinforcement roll
};

struct fort {
  int dice = 0;
  int sp = 0;
  int morale = 1;
  bool destroyed = false;
};

// Voluntary retreat (GL 12.2), decided after both sides' morale checks on line SP.
struct retreat_policy {
  retreat_kind kind = retreat_kind::never;
  int k = 0;  // line_sp_at_most: retreat when own line SP <= k
};

// Who takes each hit (GL 11.23). Every line unit takes one hit before any takes a second (the
// rule; within that sweep: most current SP, then fewest dice, then listing order). Beyond it:
//   rulings      (RULINGS default) the next hit to the line unit with the fewest hits this round,
//                then the most current SP, then the fewest dice, then listing order;
//   concentrate  every further hit to the line unit closest to elimination (fewest current SP,
//                then listing order), so fewer units are hit and roll morale.
// Failed-morale units take hits only once no line unit is left, in the same way.
struct hit_allocation_policy {
  hit_allocation_kind kind = hit_allocation_kind::rulings;
};

// Which units a leader's morale reroll saves (GL 11.26-11.27; only a unit that failed with exactly
// one die can be saved by one reroll):
//   first         (RULINGS default) the first such unit in listing order, while rerolls are left;
//   never         rerolls are never spent;
//   largest_unit  among this round's such units, the one with the most current SP first (then
//                 listing order): the reroll goes where the most SP is at stake.
struct reroll_policy {
  reroll_kind kind = reroll_kind::first;
};

struct army {
  nation side = nation::american;
  std::vector<unit> units;
  std::vector<std::string> leaders;
  std::optional<fort> fortification;  // the defender's fort, if the location has one
  int ship_dice = 0;                  // GL 7.13: a supporting squadron
  retreat_policy retreat;
  hit_allocation_policy hit_allocation;
  reroll_policy rerolls;
  bool retreat_route = true;  // GL 12.3: with no open route every retreating unit is eliminated
  std::vector<reinforcement> reinforcements;
  int reinforcement_rating = 4;  // GL 13.5-13.6: Drummond and Brown both rate 4
};

struct battle {
  bool niagara = false;  // GL 12.2-12.3: retreat fire across the Niagara hits on 5-6
  army attacker;
  army defender;
};

// The seven ways a battle ends, exactly one per battle.
enum class battle_end {
  defender_eliminated,
  defender_forced_retreat,
  defender_voluntary_retreat,
  attacker_eliminated,
  attacker_forced_retreat,
  attacker_voluntary_retreat,
  stalemate,
  none,  // the battle goes on
};
inline constexpr std::array<battle_end, 7> all_battle_ends{battle_end::defender_eliminated,
                                                           battle_end::defender_forced_retreat,
                                                           battle_end::defender_voluntary_retreat,
                                                           battle_end::attacker_eliminated,
                                                           battle_end::attacker_forced_retreat,
                                                           battle_end::attacker_voluntary_retreat,
                                                           battle_end::stalemate};
inline constexpr enum_names<battle_end, 8> names_of_battle_end{
    {{battle_end::defender_eliminated, "defender_eliminated"},
     {battle_end::defender_forced_retreat, "defender_forced_retreat"},
     {battle_end::defender_voluntary_retreat, "defender_voluntary_retreat"},
     {battle_end::attacker_eliminated, "attacker_eliminated"},
     {battle_end::attacker_forced_retreat, "attacker_forced_retreat"},
     {battle_end::attacker_voluntary_retreat, "attacker_voluntary_retreat"},
     {battle_end::stalemate, "stalemate"},
     {battle_end::none, "none"}}};
std::string to_string(battle_end e);

// "The attacker won": the defender eliminated or retreated, forced or by choice (GL 11.2,
// 12.2-12.3; the attacker then holds the field). Every tally of attacker wins (the result's
// attacker_wins, optimal play's payoff, the campaign's battles) reads this one test.
constexpr bool attacker_won(battle_end e) {
  return e == battle_end::defender_eliminated || e == battle_end::defender_forced_retreat ||
         e == battle_end::defender_voluntary_retreat;
}
// "The defender held": the attacker eliminated or gone. Neither won: a stalemate (or none, going on).
constexpr bool defender_held(battle_end e) {
  return e == battle_end::attacker_eliminated || e == battle_end::attacker_forced_retreat ||
         e == battle_end::attacker_voluntary_retreat;
}

// Throws invalid_input for an impossible battle; `where(path)` names the field for a message
// (a JSON path for a scenario file, an option for flags).
void validate(const battle& b);

// Throws invalid_input where a policy of `b` is `optimal`: `engine` (named in the message) plays
// fixed policies only, and optimal play is solved as a game (optimal/game.hpp).
void require_fixed_play(const battle& b, const std::string& engine);

// Leaders that grant a morale reroll (GL 11.26-11.27) on the given side.
int morale_rerolls(const army& a);

// An army names at most this many leaders, each once (a name repeated would give its reroll twice).
inline constexpr std::size_t max_leaders = 8;
// Throws invalid_input naming `path` + "/N" for a leader named twice (whatever the case) or past
// max_leaders.
void check_leaders(const std::vector<std::string>& leaders, const std::string& path);

struct unit_summary_range {
  int sp_low, sp_high, morale_low, morale_high, dice_low, dice_high;
};

struct interval {
  double lower = 0;
  double upper = 0;
};

struct unit_outcome {
  std::string name;
  std::string side;  // "attacker" | "defender"
  bool garrison = false;
  bool reinforcement = false;
  double survives = 0;
  double expected_sp = 0;
  double fails_morale = 0;
  interval survives_interval, fails_morale_interval;  // simulation only
};

// `states` (and the limit on it, exact_options::state_limit, `--state-limit`) means one thing for
// every engine: the battle positions the engine holds at once to answer, each counted once. A
// position is what the engine keys its work by: for the plain chain a battle state (every unit's
// SP and status, rerolls left, first round or not); for the column sweep a pair of one side's
// position and the other's (exact/side_states.hpp: a side's units in the line, out units' SP folded
// away), so the pairs it sweeps; for optimal play a game position (a battle state at a decision).
// An engine throws state_limit_exceeded before it would hold more than the limit (the sweep checks
// its pairs before sweeping them), and reports in `states` how many it held. solve (solve.hpp)
// passes the one limit to whichever engine answers.
struct battle_method {
  std::string name;        // "exact" | "simulation"
  std::size_t states = 0;  // exact: the battle positions held (above)
  std::size_t transitions = 0;
  std::size_t memory_bytes = 0;  // exact: the most memory the solve's structures held, as counted (exact_options)
  unsigned threads = 1;          // exact: 2 when the sweep and its rounds distribution ran side by side
  std::uint64_t trials = 0;      // simulation: trials actually run (fewer than asked if cancelled)
  bool cancelled = false;        // simulation: stopped early by simulation_options::cancel
  std::uint64_t seed = 0;
  std::uint64_t rounds_simulated = 0;
  double seconds = 0;
  double pruned_mass = 0;
};

struct battle_result {
  std::array<double, 7> ends{};  // by battle_end
  double attacker_wins = 0;
  double defender_holds = 0;
  double stalemate = 0;
  std::vector<double> attacker_sp_lost;  // 0..attacker's total starting SP
  std::vector<double> defender_sp_lost;
  double rounds_mean = 0;
  std::vector<double> rounds_distribution;  // index 0 = the battle ended in round 1
  double rounds_tail = 0;                   // mass beyond the last listed round
  std::vector<unit_outcome> units;
  std::optional<double> garrison_eliminated;
  battle_method method;
  // Simulation only: 95% Wilson intervals for every probability above.
  std::array<interval, 7> ends_interval{};
  std::array<interval, 3> outcomes_interval{};  // attacker_wins, defender_holds, stalemate
  std::vector<interval> attacker_sp_lost_interval, defender_sp_lost_interval, rounds_interval;
  std::optional<interval> garrison_eliminated_interval;

  double operator[](battle_end e) const { return ends[static_cast<std::size_t>(e)]; }
};

struct exact_options {
  // The most battle positions held (battle_method::states): the plain chain's states; the column
  // sweep's pairs of side parts, and each side's states alone.
  std::size_t state_limit = 2'000'000;
  // The solve counts its memory as it grows (states, transitions, side lists, mass arrays, rounds,
  // retreats: the bytes of their entries and of their lists' capacity) and throws
  // memory_limit_exceeded before the count passes this many bytes (0: no bound).
  std::size_t memory_limit = 0;
  double rounds_tolerance = 1e-12;  // the rounds distribution is listed until this mass remains
  std::size_t max_listed_rounds = 2000;
  // false: the column sweep leaves the rounds' distribution out (empty; its mean stays), where only
  // the ends and losses are read (optimal play's default play, whose value alone is asked).
  bool rounds = true;
  // Where a unit can fail morale, solve by the column sweep (exact/column_sweep.hpp), which folds units
  // out of the line (eliminated or failed) out of its pairs and carries their SP beside them: the
  // same answer from far fewer states. false: the plain chain always (its tests compare the two).
  bool fold_out_units = true;
  // Set to stop the solve early (the dashboard's Cancel): solve_exact then throws solve_cancelled.
  const std::atomic<bool>* cancel = nullptr;
  // A second flag that stops it the same way: optimal play's work beside its outcome chain, stopped
  // where the chain takes back the memory it lent (optimal/pair_values.cpp).
  const std::atomic<bool>* recall = nullptr;
  // The column sweep's rounds distribution runs beside the sweep on a second thread when this is 0
  // (the default) and the machine has two or more cores, or when it is 2 or more; 1 runs them in
  // turn on one. Optimal play shares out each key's columns of its game between two threads and
  // plays its two outcome chains side by side the same way. The answer is the same to the last bit
  // either way: each sum is made in one thread, in the same order.
  unsigned threads = 0;
};

// Thrown once an exact solve's counted memory would pass exact_options::memory_limit: the one
// memory meter's error (core/memory_meter.hpp), with the bytes and states counted by then.
using musket::memory_limit_exceeded;

// Thrown by solve_exact when exact_options::cancel was set before it finished; nothing is reported.
class solve_cancelled : public std::runtime_error {
 public:
  solve_cancelled() : std::runtime_error("the exact solve was cancelled") {}
};

namespace sweep {
struct battle_sides;  // exact/side_states.hpp
}

// Exact: the absorbing chain over reachable states. Throws state_limit_exceeded past the limit.
// `listed`: both sides already listed alone (by the cost prediction), which the column sweep plays
// instead of listing them again.
battle_result solve_exact(const battle& b, const exact_options& options = {},
                          const sweep::battle_sides* listed = nullptr);
// Monte Carlo with the same rules; every probability carries a Wilson interval. Honours
// options.cancel (checked between chunks of options.chunk_trials battles; the result then covers
// the trials run, method.cancelled is set, and with none run every interval is [0, 1]) and
// counts finished battles into options.progress.
battle_result simulate(const battle& b, const simulation_options& options);

}  // namespace musket::great_lakes
