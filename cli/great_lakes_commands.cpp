// `musket gl ...`: War Along the Great Lakes. Thin: options in, calc out, report built; every rule
// lives in calc/great_lakes.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "calc/great_lakes/battle.hpp"
#include "calc/great_lakes/exact/cost.hpp"
#include "calc/great_lakes/game_data.hpp"
#include "calc/great_lakes/optimal/game.hpp"
#include "calc/great_lakes/scenario.hpp"
#include "calc/great_lakes/solve.hpp"
#include "calc/great_lakes/turn/missions.hpp"
#include "calc/great_lakes/turn/war_end.hpp"
#include "cli/command.hpp"
#include "cli/data_location.hpp"
#include "cli/number_text.hpp"
#include "cli/result_statistics.hpp"
#include "cli/sweep_axes.hpp"
#include "core/invalid_input.hpp"
#include "core/markov_chain.hpp"
#include "core/whole_range.hpp"

namespace musket::cli {

namespace gl = musket::great_lakes;

namespace {

const gl::game_data& data() {
  static const gl::game_data d = gl::load_game_data(game_data_directory("gl"));
  return d;
}

json gl_document(const std::string& command, const po::variables_map& vm) {
  return cli::base_document("gl", command, vm);
}

std::vector<std::string> strings(const po::variables_map& vm, const std::string& name) {
  if (!vm.count(name)) return {};
  return vm[name].as<std::vector<std::string>>();
}

// --- battle -----------------------------------------------------------------------------------

void add_battle_options(po::options_description& o) {
  // Every choice's names from its enum's table (calc/great_lakes/battle.hpp; the dashboard's drop-downs
  // read these lists: cli::form_choices).
  const std::string sides = names_list(gl::names_of_nation, " | ");
  const std::string retreats = gl::allowed_retreats(" | ");
  const std::string hits = names_list(gl::names_of_hit_allocation_kind, " | ");
  const std::string rerolls = names_list(gl::names_of_reroll_kind, " | ");
  o.add_options()("scenario", po::value<std::string>(),
                  "a battle scenario file (JSON; see README); excludes the unit flags")(
      "att", po::value<std::vector<std::string>>()->composing(),
      ("an attacking unit NAME:TYPE:SP/MAX:MORALE:DICE[:" + names_list(gl::names_of_crossing, "|") + "], repeatable")
          .c_str())("def", po::value<std::vector<std::string>>()->composing(),
                    "a defending unit NAME:TYPE:SP/MAX:MORALE:DICE, repeatable")(
      "att-side", po::value<std::string>()->default_value("american"), sides.c_str())(
      "def-side", po::value<std::string>(), (sides + " (default: the other side)").c_str())(
      "fort", po::value<std::string>(), "the defender's undestroyed fort DICE:SP:MORALE (its garrison fights)")(
      "fort-destroyed", "the defender's fort is destroyed: no garrison, no militia bonus")(
      "att-leader", po::value<std::vector<std::string>>()->composing(), "an attacking leader (Brown, Scott: a reroll)")(
      "def-leader", po::value<std::vector<std::string>>()->composing(),
      "a defending leader (Drummond, Riall: a reroll)")("att-ship", whole_number(0, 12)->default_value(0),
                                                        "the attacker's supporting ship dice")(
      "def-ship", whole_number(0, 12)->default_value(0), "the defender's supporting ship dice")(
      "att-retreat", po::value<std::string>()->default_value("never"), retreats.c_str())(
      "def-retreat", po::value<std::string>()->default_value("never"), retreats.c_str())(
      "att-hits", po::value<std::string>()->default_value("rulings"),
      ("who takes the attacker's hits beyond one each: " + hits).c_str())(
      "def-hits", po::value<std::string>()->default_value("rulings"),
      ("who takes the defender's hits beyond one each: " + hits).c_str())(
      "att-reroll", po::value<std::string>()->default_value("first"),
      ("which failed unit the attacker's leader rerolls: " + rerolls).c_str())(
      "def-reroll", po::value<std::string>()->default_value("first"),
      ("which failed unit the defender's leader rerolls: " + rerolls).c_str())(
      "play", po::value<std::string>(),
      "every choice of both sides: default | optimal (hits, rerolls and retreat solved as a game; exact only)")(
      "objective", po::value<std::string>()->default_value("win"),
      "what optimal play maximises for the attacker and minimises for the defender: win | value (win: P(attacker "
      "wins); value: --win-value x win - attacker SP lost + defender SP lost)")(
      "win-value", po::value<std::string>(), "--objective value: what a win is worth in SP, a number >= 0")(
      "att-no-route", "the attacker has no open retreat route: retreating units are eliminated")(
      "def-no-route", "the defender has no open retreat route: retreating units are eliminated")(
      "att-reinforce", po::value<std::vector<std::string>>()->composing(),
      "an attacking reinforcement NAME:TYPE:SP/MAX:MORALE:DICE[:niagara], repeatable")(
      "def-reinforce", po::value<std::vector<std::string>>()->composing(),
      "a defending reinforcement NAME:TYPE:SP/MAX:MORALE:DICE[:niagara], repeatable")(
      "niagara", "retreats cross the Niagara: retreat fire hits on 5-6")(
      "method", po::value<std::string>()->default_value("auto"), names_list(gl::names_of_solve_method, " | ").c_str())(
      "state-limit", whole_number(1000, 20000000)->default_value(300000),
      "most battle positions the exact engine may hold (method.states: docs/cli.md)")(
      "time-budget", po::value<std::string>()->default_value("1"),
      "auto: seconds the predicted exact solve may take, else simulate; above 0, up to 3600")(
      "memory-mb", whole_number(64, 65536)->default_value(4096),
      "memory the exact solve may take (MB), predicted before and counted during it: past it auto simulates and exact "
      "refuses")("trials", whole_number(1000, 100000000)->default_value(200000), "simulated battles")(
      "seed", whole_number(0, 2'000'000'000)->default_value(1812),
      "simulation seed (same seed, same answer, any thread count)")(
      "threads", whole_number(0, max_threads)->default_value(0),
      "simulation threads, 0 = every core; the column sweep lists its rounds beside the sweep, and optimal play "
      "shares out its game and its outcome chains, on a second thread unless this is 1");
}

// A side's choices: what --play sets, and what applies beside --scenario.
const std::vector<std::string>& policy_options() {
  static const std::vector<std::string> names{"att-retreat", "def-retreat", "att-hits",
                                              "def-hits",    "att-reroll",  "def-reroll"};
  return names;
}

// Whether the user gave the option (a default is not given).
bool given(const po::variables_map& vm, const std::string& name) {
  return vm.count(name) && !vm[name].defaulted();
}

// --play optimal: every choice of both sides played optimally (default: each policy as given). A
// policy given beside it other than "optimal" would be overridden unseen, so it is refused.
void apply_play(const po::variables_map& vm, gl::battle& b) {
  if (!vm.count("play") || string_option(vm, "play") == "default") return;  // each policy as given
  if (string_option(vm, "play") != "optimal")
    throw invalid_input("play", "'" + string_option(vm, "play") + "' is not a play; allowed: default, optimal");
  for (const auto& name : policy_options())
    if (given(vm, name) && string_option(vm, name) != "optimal")
      throw invalid_input(name, "'" + string_option(vm, name) +
                                    "' conflicts with --play optimal, which plays every choice of both sides; "
                                    "give one or the other (or this choice alone as optimal)");
  for (gl::army* a : {&b.attacker, &b.defender}) {
    a->retreat = {gl::retreat_kind::optimal, 0};
    a->hit_allocation = {gl::hit_allocation_kind::optimal};
    a->rerolls = {gl::reroll_kind::optimal};
  }
}

// --objective and --win-value (issue 17).
gl::game_options game_options_from(const po::variables_map& vm) {
  gl::game_options g;
  const std::string objective = string_option(vm, "objective");
  if (objective == "value")
    g.goal = gl::objective::value;
  else if (objective != "win")
    throw invalid_input("objective", "'" + objective + "' is not an objective; allowed: win, value");
  if (vm.count("win-value")) {
    if (g.goal != gl::objective::value) throw invalid_input("win-value", "needs --objective value");
    const std::string text = string_option(vm, "win-value");
    const std::optional<double> w = decimal_number(text);
    if (!w || *w < 0 || *w > 1000)
      throw invalid_input("win-value", "'" + text + "' is not a number of SP; allowed: 0 to 1000");
    g.win_value = *w;
  } else if (g.goal == gl::objective::value) {
    throw invalid_input("win-value", "is required with --objective value (what a win is worth in SP, >= 0)");
  }
  return g;
}

// Validates a battle built or changed by flags (leaders against data/gl/commanders.json too); a
// validation path like "attacker/units/0/morale" maps back to the flag that gave it.
void validate_flags_battle(const gl::battle& b) {
  try {
    gl::validate(b);
    gl::validate_leaders(data(), b);
  } catch (const invalid_input& e) {
    const std::string& f = e.field();
    std::string option = "att";
    if (f.rfind("defender/fort", 0) == 0)
      option = "fort";
    else if (f.rfind("attacker/reinforcements", 0) == 0)
      option = "att-reinforce";
    else if (f.rfind("defender/reinforcements", 0) == 0)
      option = "def-reinforce";
    else if (f.rfind("attacker/ship", 0) == 0)
      option = "att-ship";
    else if (f.rfind("defender/ship", 0) == 0)
      option = "def-ship";
    else if (f.rfind("attacker/retreat", 0) == 0)
      option = "att-retreat";
    else if (f.rfind("defender/retreat", 0) == 0)
      option = "def-retreat";
    else if (f.rfind("attacker/leaders", 0) == 0)
      option = "att-leader";
    else if (f.rfind("defender/leaders", 0) == 0)
      option = "def-leader";
    else if (f.rfind("defender/side", 0) == 0)
      option = "def-side";
    else if (f.rfind("defender", 0) == 0)
      option = "def";
    throw invalid_input(option, f + ": " + e.what());
  }
}

// Beside --scenario the file gives the battle. A battle fact it holds (units, sides, leaders, fort,
// ships, routes, reinforcements, the Niagara) given as a flag too is refused; a side's choices
// (--att-retreat/--def-retreat, --att-hits/--def-hits, --att-reroll/--def-reroll; --play,
// --objective) are applied over the file's (docs/cli.md).
const std::vector<std::string>& scenario_fact_options() {
  static const std::vector<std::string> names{"att-side",      "def-side",      "att-leader",   "def-leader",
                                              "att-ship",      "def-ship",      "att-no-route", "def-no-route",
                                              "att-reinforce", "def-reinforce", "niagara",      "fort-destroyed"};
  return names;
}
void apply_beside_scenario(const po::variables_map& vm, gl::battle& b) {
  for (const auto& name : scenario_fact_options())
    if (given(vm, name))
      throw invalid_input(name,
                          "conflicts with --scenario: the file gives the battle (units, sides, leaders, fort, ships, "
                          "retreat routes, reinforcements, niagara); change it there, or give the battle by flags; "
                          "beside --scenario only the choices apply (--att-retreat, --att-hits, --att-reroll and "
                          "their --def- forms, --play, --objective)");
  if (given(vm, "att-retreat")) b.attacker.retreat = gl::parse_retreat(string_option(vm, "att-retreat"), "att-retreat");
  if (given(vm, "def-retreat")) b.defender.retreat = gl::parse_retreat(string_option(vm, "def-retreat"), "def-retreat");
  if (given(vm, "att-hits"))
    b.attacker.hit_allocation = gl::parse_hit_allocation(string_option(vm, "att-hits"), "att-hits");
  if (given(vm, "def-hits"))
    b.defender.hit_allocation = gl::parse_hit_allocation(string_option(vm, "def-hits"), "def-hits");
  if (given(vm, "att-reroll")) b.attacker.rerolls = gl::parse_reroll(string_option(vm, "att-reroll"), "att-reroll");
  if (given(vm, "def-reroll")) b.defender.rerolls = gl::parse_reroll(string_option(vm, "def-reroll"), "def-reroll");
  apply_play(vm, b);
  validate_flags_battle(b);  // e.g. line_sp_at_most:K against the file's units
}

gl::battle battle_from_flags(const po::variables_map& vm) {
  gl::battle b;
  b.niagara = flag_option(vm, "niagara");
  b.attacker.side = gl::parse_nation(string_option(vm, "att-side"), "att-side");
  b.defender.side = vm.count("def-side")
                        ? gl::parse_nation(string_option(vm, "def-side"), "def-side")
                        : (b.attacker.side == gl::nation::american ? gl::nation::british : gl::nation::american);
  for (const auto& s : strings(vm, "att")) b.attacker.units.push_back(gl::parse_unit_spec(s, "att"));
  for (const auto& s : strings(vm, "def")) {
    b.defender.units.push_back(gl::parse_unit_spec(s, "def"));
    if (b.defender.units.back().crossed != gl::crossing::none)
      throw invalid_input("def", "only attacking units cross (GL 11.13)");
  }
  for (const auto& s : strings(vm, "att-reinforce"))
    b.attacker.reinforcements.push_back(gl::parse_reinforcement_spec(s, "att-reinforce"));
  for (const auto& s : strings(vm, "def-reinforce"))
    b.defender.reinforcements.push_back(gl::parse_reinforcement_spec(s, "def-reinforce"));
  b.attacker.leaders = strings(vm, "att-leader");
  b.defender.leaders = strings(vm, "def-leader");
  b.attacker.ship_dice = int_option(vm, "att-ship");
  b.defender.ship_dice = int_option(vm, "def-ship");
  b.attacker.retreat = gl::parse_retreat(string_option(vm, "att-retreat"), "att-retreat");
  b.defender.retreat = gl::parse_retreat(string_option(vm, "def-retreat"), "def-retreat");
  b.attacker.hit_allocation = gl::parse_hit_allocation(string_option(vm, "att-hits"), "att-hits");
  b.defender.hit_allocation = gl::parse_hit_allocation(string_option(vm, "def-hits"), "def-hits");
  b.attacker.rerolls = gl::parse_reroll(string_option(vm, "att-reroll"), "att-reroll");
  b.defender.rerolls = gl::parse_reroll(string_option(vm, "def-reroll"), "def-reroll");
  apply_play(vm, b);
  b.attacker.retreat_route = !flag_option(vm, "att-no-route");
  b.defender.retreat_route = !flag_option(vm, "def-no-route");
  if (vm.count("fort")) {
    gl::fort f = gl::parse_fort_spec(string_option(vm, "fort"), "fort");
    f.destroyed = flag_option(vm, "fort-destroyed");
    b.defender.fortification = f;
  } else if (flag_option(vm, "fort-destroyed")) {
    throw invalid_input("fort-destroyed", "needs --fort DICE:SP:MORALE");
  }
  validate_flags_battle(b);
  return b;
}

json battle_notes(const gl::battle& b, const gl::battle_result& res) {
  json notes = json::array();
  notes.push_back(
      "round: defender fires, attacker fires, morale (attacker first), voluntary retreat (attacker first), "
      "reinforcement (defender first); every die hits on 6 (GL 11.18-11.22)");
  auto hits_note = [](const gl::army& a) {
    if (a.hit_allocation.kind == gl::hit_allocation_kind::optimal)
      return std::string("optimal (any allocation the rule allows, as optimal play chooses)");
    return a.hit_allocation.kind == gl::hit_allocation_kind::concentrate
               ? std::string("concentrate (then every further hit on the unit with the fewest SP)")
               : std::string("rulings (then fewest hits this round, most SP, fewest dice, listing order)");
  };
  notes.push_back("hits: one to each line unit (most SP first) before a second; beyond that attacker " +
                  hits_note(b.attacker) + ", defender " + hits_note(b.defender) +
                  "; failed-morale units only once the line is gone (GL 11.23)");
  notes.push_back(
      "retreat fire: full dice when forced, one die per line unit when voluntary (0-dice units too), never the "
      "ship; hits on " +
      std::string(b.niagara ? "5-6 (across the Niagara)" : "6") +
      "; line and failed-morale units are one pool (no line first): one hit to each before any second, most SP "
      "first, then listing order (concentrate: then the weakest) (GL 12.2-12.3)");
  const int ra = gl::morale_rerolls(b.attacker), rd = gl::morale_rerolls(b.defender);
  auto reroll_note = [](const gl::army& a) {
    switch (a.rerolls.kind) {
      case gl::reroll_kind::never:
        return std::string("never spent");
      case gl::reroll_kind::largest_unit:
        return std::string("to the unit with the most SP");
      case gl::reroll_kind::optimal:
        return std::string("as optimal play chooses, or kept for later");
      case gl::reroll_kind::first:
        break;
    }
    return std::string("to the first unit in listing order");
  };
  if (ra || rd)
    notes.push_back(fmt::format(
        "morale rerolls: attacker {} ({}), defender {} ({}), each only for a unit that failed with exactly one "
        "die (GL 11.26-11.27)",
        ra, reroll_note(b.attacker), rd, reroll_note(b.defender)));
  if (b.defender.fortification && !b.defender.fortification->destroyed)
    notes.push_back(
        "the garrison fights in the defender's line with the fort's dice; failing morale or retreating "
        "eliminates it; defending militia check morale at +1 (GL 2.5, 4.17, 11.11)");
  else
    notes.push_back("garrison_eliminated is null: no undestroyed fort, so no garrison fights");
  for (const auto& u : b.attacker.units)
    if (u.crossed != gl::crossing::none) {
      notes.push_back("river/amphibious attackers roll one die less in round 1 only (GL 11.22, terrain chart)");
      break;
    }
  if (!b.attacker.reinforcements.empty() || !b.defender.reinforcements.empty())
    notes.push_back(
        "reinforcements enter on a d6 within the commander's rating (4), one less across the Niagara, and fire "
        "from the next round (GL 13.3-13.6)");
  notes.push_back(
      "a side that leaves with none of its entered units alive counts as eliminated; SP lost counts from each "
      "unit's starting SP, garrison and reinforcements included");
  if (res.method.name == "exact")
    notes.push_back(
        fmt::format("exact: absorbing Markov chain over {} reachable states, rounds that change nothing solved "
                    "in closed form; nothing pruned; rounds.distribution is listed until {:.1e} of the mass "
                    "remains (rounds.tail)",
                    res.method.states, res.rounds_tail));
  for (const auto& w : gl::roster_warnings(data(), b)) notes.push_back("warning: " + w);
  return notes;
}

// The words of solve's `why` (calc/great_lakes/solve.hpp): which engine answered and from what facts.
std::string why_text(const gl::solved_battle& solved, double budget, int limit, int memory_mb, std::uint64_t trials) {
  const gl::solve_why& why = solved.why;
  const gl::battle_result& res = solved.result;
  if (solved.game && !solved.game->choices) {
    const gl::exact_cost& cost = *why.predicted;
    return fmt::format(
        "optimal play: on the win objective a voluntary retreat loses the battle, so an optimal retreat never "
        "retreats; with no other choice optimal the battle is its default play, solved exactly as a battle of "
        "fixed policies ({}; predicted {:.3g} s)",
        why.asked == gl::solve_method::automatic
            ? fmt::format("auto: exact, the only method for optimal play, within the --time-budget of {:g} s", budget)
            : std::string("--method exact"),
        cost.seconds);
  }
  if (solved.game) {
    const gl::game_result& g = *solved.game;
    const std::string asked =
        why.asked == gl::solve_method::automatic
            ? fmt::format("auto: exact, the only method for it, within the --time-budget of {:g} s", budget)
            : std::string("--method exact");
    if (g.swept)
      return fmt::format(
          "optimal play: a zero-sum game over {} pairs of side states solved exactly by backward induction, its "
          "outcome by the exact column sweep under the solved hit allocation ({}; predicted {:.3g} s from {:.3g} "
          "steps over the pairs' options and the sweep's predicted cost)",
          g.game_states, asked, g.predicted_seconds, g.outcomes);
    return fmt::format(
        "optimal play: a zero-sum game over {} pairs of side states solved exactly by backward induction ({}; "
        "predicted {:.3g} s from {:.3g} steps over the pairs' options and {:.3g} round outcomes predicted for the "
        "outcome chain, which played {:.3g})",
        g.game_states, asked, g.predicted_seconds, g.outcomes, g.chain_predicted, g.chain_outcomes);
  }
  std::string predicted;
  if (why.predicted) {
    const gl::exact_cost& cost = *why.predicted;
    predicted = std::isfinite(cost.seconds)
                    ? fmt::format(
                          "predicted exact cost {:.3g} s and {:.0f} MB ({:.3g} round outcomes over at most {:.0f} "
                          "states: {} x {} per side)",
                          cost.seconds, cost.bytes / 1e6, cost.transitions, cost.states, cost.side_states[0],
                          cost.side_states[1])
                    : std::string(
                          "predicted exact cost past any budget (one side alone has too many states or round "
                          "outcomes to count)");
  }
  switch (why.reason) {
    case gl::solve_reason::asked:
      return "asked for with --method " + gl::to_string(why.asked);
    case gl::solve_reason::optimal_play:
      break;  // (above)
    case gl::solve_reason::predicted_fits:
      return fmt::format(
          "auto: {}, within the --time-budget of {:g} s; the reachable states ({}) fit the state limit ({})", predicted,
          budget, res.method.states, limit);
    case gl::solve_reason::predicted_over_budget:
    case gl::solve_reason::predicted_over_memory: {
      std::string text = fmt::format("auto: {}, past {}, so simulated", predicted,
                                     why.reason == gl::solve_reason::predicted_over_memory
                                         ? fmt::format("--memory-mb {}", memory_mb)
                                         : fmt::format("the --time-budget of {:g} s", budget));
      if (why.budget_ran_out)
        text += fmt::format("; the time budget ran out after {} of {} trials", res.method.trials, trials);
      return text;
    }
    case gl::solve_reason::state_limit:
      return fmt::format("auto: more than {} reachable states (--state-limit), so simulated instead", limit);
    case gl::solve_reason::memory_counted:
      return fmt::format(
          "auto: the exact solve's memory reached {:.0f} MB at {} states, past --memory-mb {}, so simulated instead",
          static_cast<double>(why.counted_bytes) / 1e6, why.counted_states, memory_mb);
  }
  return {};
}

// --time-budget: seconds, a number above 0 and at most an hour.
double time_budget(const std::string& text) {
  const std::optional<double> seconds = decimal_number(text);
  if (!seconds || *seconds <= 0 || *seconds > 3600)
    throw invalid_input("time-budget", "'" + text + "' is not a number of seconds; allowed: above 0, up to 3600");
  return *seconds;
}

// Issue 17: the game's values and the solved strategy's advice, in numbers and in plain words.
void add_game_results(json& doc, const gl::battle& b, const gl::game_options& g, const gl::game_result& res) {
  json game{{"objective", gl::to_string(res.goal)}};
  if (g.goal == gl::objective::value) game["win_value"] = g.win_value;
  game["value"] = res.value;
  game["value_default_play"] = res.value_default_play;
  game["gain_attacker"] = res.gain_attacker;
  game["gain_defender"] = res.gain_defender;
  game["states"] = res.game_states;
  doc["optimal_play"] = game;  // (`game` is the document's game name: "gl")
  json advice = json::object();
  json words = json::array();
  const std::array<const gl::army*, 2> armies{&b.attacker, &b.defender};
  // The battle's units as choice_case numbers them: the attacker's, then the defender's.
  std::vector<std::pair<std::string, std::string>> units;  // (side, name)
  for (int side = 0; side < 2; ++side)
    for (const auto& name : res.advice[static_cast<std::size_t>(side)].units)
      units.emplace_back(side == 0 ? "attacker" : "defender", name);
  // A round-1 choice's case: in JSON, and in words after "in round 1".
  auto case_json = [&](const gl::choice_case& c, bool rerolls) {
    json hits{{"attacker", json::object()}, {"defender", json::object()}}, failed = json::array();
    for (std::size_t u = 0; u < units.size(); ++u)
      if (c.hits[u] > 0) hits[units[u].first][units[u].second] = c.hits[u];
    for (const int u : c.failed) failed.push_back(units[static_cast<std::size_t>(u)].second);
    json out{{"hits", hits}, {"failed", failed}};
    if (rerolls) out["rerolls_left"] = c.rerolls;
    return out;
  };
  auto case_words = [&](const gl::choice_case& c, bool rerolls) {
    std::string hits, failed;
    for (std::size_t u = 0; u < units.size(); ++u)
      if (c.hits[u] > 0) hits += (hits.empty() ? "" : ", ") + fmt::format("{} {}", units[u].second, c.hits[u]);
    for (const int u : c.failed) failed += (failed.empty() ? "" : ", ") + units[static_cast<std::size_t>(u)].second;
    std::string text = hits.empty() ? " before any hit" : " after hits on " + hits;
    if (!failed.empty()) text += " and " + failed + " failing morale";
    if (rerolls) text += fmt::format(", {} reroll{} left", c.rerolls, c.rerolls == 1 ? "" : "s");
    return text;
  };
  // The cases where another choice is best, in words: each named where there are a few; past that
  // (the Niagara 5 v 4 with --play optimal has hundreds for one choice) each other choice with the
  // number of its cases, the cases themselves in `otherwise`.
  auto exceptions = [](const std::vector<std::pair<std::string, std::string>>& choice_and_case) {
    constexpr std::size_t named = 3;
    std::string but;
    if (choice_and_case.size() <= named) {
      for (const auto& [choice, when] : choice_and_case) but += (but.empty() ? ", but " : "; ") + choice + when;
      return but;
    }
    std::vector<std::pair<std::string, int>> counted;  // (choice, cases), in order of first case
    for (const auto& one : choice_and_case) {
      const std::string& choice = one.first;  // (not a structured binding: the lambda below reads it)
      auto at = std::find_if(counted.begin(), counted.end(), [&](const auto& c) { return c.first == choice; });
      if (at == counted.end())
        counted.emplace_back(choice, 1);
      else
        ++at->second;
    }
    for (const auto& [choice, cases] : counted)
      but += fmt::format("{}{} in {} case{}", but.empty() ? ", but " : ", ", choice, cases, cases == 1 ? "" : "s");
    return but + " (each case in --format json)";
  };
  for (int side = 0; side < 2; ++side) {
    const gl::side_advice& a = res.advice[static_cast<std::size_t>(side)];
    const gl::army& army = *armies[static_cast<std::size_t>(side)];
    const std::string who = side == 0 ? "attacker" : "defender";
    json one = json::object();
    auto spread = [&](const std::vector<int>& hits) {
      std::string text;
      for (std::size_t u = 0; u < hits.size(); ++u)
        if (hits[u] > 0) text += (text.empty() ? "" : ", ") + fmt::format("{} {}", a.units[u], hits[u]);
      return text;
    };
    // Each choice: the one best in most round-1 cases the solved play reaches, then each case
    // where another is best.
    if (army.hit_allocation.kind == gl::hit_allocation_kind::optimal) {
      json hits = json::array();
      auto per_unit = [&](const std::vector<int>& counts) {
        json out = json::object();
        for (std::size_t u = 0; u < a.units.size(); ++u) out[a.units[u]] = counts[u];
        return out;
      };
      for (const auto& h : a.allocations) {
        json otherwise = json::array();
        std::vector<std::pair<std::string, std::string>> cases;
        for (const auto& [when, optimal] : h.otherwise) {
          otherwise.push_back(json{{"when", case_json(when, false)}, {"optimal", per_unit(optimal)}});
          cases.emplace_back(spread(optimal), case_words(when, false));
        }
        const std::string but = exceptions(cases);
        hits.push_back(json{{"hits", h.hits},
                            {"optimal", per_unit(h.optimal)},
                            {"rulings", per_unit(h.rulings)},
                            {"otherwise", otherwise}});
        words.push_back(fmt::format(
            "{} taking {} hit{} in round 1: {} ({}){}", who, h.hits, h.hits == 1 ? "" : "s", spread(h.optimal),
            h.optimal == h.rulings ? "as the rulings" : "the rulings: " + spread(h.rulings), but));
      }
      one["hits"] = hits;
    }
    if (army.rerolls.kind == gl::reroll_kind::optimal) {
      json rerolls = json::array();
      auto unit_or_kept = [&](int u) { return u >= 0 ? json(a.units[static_cast<std::size_t>(u)]) : json(nullptr); };
      auto choice_words = [&](int u) {
        return u >= 0 ? "reroll " + a.units[static_cast<std::size_t>(u)] : std::string("keep the reroll");
      };
      for (const auto& c : a.rerolls) {
        json failed = json::array();
        std::string names;
        for (const int u : c.failed_on_one) {
          failed.push_back(a.units[static_cast<std::size_t>(u)]);
          names += (names.empty() ? "" : " and ") + a.units[static_cast<std::size_t>(u)];
        }
        json otherwise = json::array();
        std::vector<std::pair<std::string, std::string>> cases;
        for (const auto& [when, reroll] : c.otherwise) {
          otherwise.push_back(json{{"when", case_json(when, true)}, {"reroll", unit_or_kept(reroll)}});
          cases.emplace_back(choice_words(reroll), case_words(when, true));
        }
        const std::string but = exceptions(cases);
        const int first = c.failed_on_one.front();
        rerolls.push_back(json{{"failed_on_one_die", failed},
                               {"reroll", unit_or_kept(c.reroll)},
                               {"rulings", a.units[static_cast<std::size_t>(first)]},
                               {"otherwise", otherwise}});
        words.push_back(fmt::format("{} with {} failing morale on one die in round 1: {} ({}){}", who, names,
                                    choice_words(c.reroll),
                                    c.reroll == first ? "as the rulings" : "the rulings: " + choice_words(first), but));
      }
      one["rerolls"] = rerolls;
    }
    if (army.retreat.kind == gl::retreat_kind::optimal) {
      const gl::retreat_advice& r = a.retreat;
      json states = json::array();
      for (const auto& [own, enemy] : r.retreats) states.push_back(json::array({own, enemy}));
      std::string rule;
      if (r.retreats.empty())
        rule = "never retreats";
      else if (r.threshold)
        rule = fmt::format("retreats when own line SP <= {} and enemy line SP >= {}", r.own_at_most, r.enemy_at_least);
      else {
        rule = "retreats at (own, enemy) line SP";
        for (const auto& [own, enemy] : r.retreats) rule += fmt::format(" ({}, {})", own, enemy);
      }
      one["retreat"] = json{{"rule", rule}, {"states", states}};
      words.push_back(who + " " + rule + " (after both morale checks, in the states the solved play reaches)");
    }
    advice[who] = one;
  }
  advice["plain"] = words;
  doc["advice"] = advice;
}

report run_battle(const po::variables_map& vm) {
  const bool has_flags = vm.count("att") || vm.count("def") || vm.count("fort");
  gl::battle b;
  if (vm.count("scenario")) {
    if (has_flags)
      throw invalid_input("scenario", "give either --scenario or the unit flags (--att, --def, --fort), not both");
    b = gl::read_scenario_file(string_option(vm, "scenario"), "scenario", data());
    apply_beside_scenario(vm, b);
  } else {
    if (!vm.count("att")) throw invalid_input("att", "is required (or give --scenario FILE.json)");
    b = battle_from_flags(vm);
  }
  // The roster check after the solve reads the game data: a missing data folder (exit 3) is found
  // now, not after seconds of solving.
  static_cast<void>(data());
  gl::solve_options options;
  options.method = gl::parse_solve_method(string_option(vm, "method"), "method");
  // Every whole-number option is in its published range (check_option_ranges, cli/command.hpp).
  const int limit = int_option(vm, "state-limit");
  options.state_limit = static_cast<std::size_t>(limit);
  simulation_options& sim = options.simulation;
  sim.trials = static_cast<std::uint64_t>(int_option(vm, "trials"));
  sim.seed = static_cast<std::uint64_t>(int_option(vm, "seed"));
  sim.threads = static_cast<unsigned>(int_option(vm, "threads"));
  attach_run_context(sim);  // the dashboard's progress bar and Cancel; nothing under `musket`
  const double budget = time_budget(string_option(vm, "time-budget"));
  options.time_budget = budget;
  const int memory_mb = int_option(vm, "memory-mb");
  options.memory_limit = static_cast<std::size_t>(memory_mb) * 1'000'000;  // MB as the prediction counts them
  const bool optimal_play = gl::plays_optimally(b);  // (for the words of a refusal; solve decides)
  options.game = game_options_from(vm);
  const gl::game_options& game = options.game;
  if (!optimal_play && (game.goal != gl::objective::win || vm.count("win-value")))
    throw invalid_input("objective",
                        "needs optimal play (--play optimal, or optimal in --att-hits, --def-retreat ...)");
  // One way in (calc/great_lakes/solve.hpp): the method, the auto policy and its fall-backs are
  // solve's; here its refusals are worded.
  gl::solved_battle solved;
  try {
    solved = gl::solve(b, options);
  } catch (const gl::optimal_play_not_simulated&) {
    throw invalid_input("method",
                        "optimal play is solved exactly only (simulation does not play the solved strategy); "
                        "use --method exact or auto");
  } catch (const gl::game_over_budget& e) {
    throw invalid_input(
        "time-budget",
        fmt::format("optimal play is predicted to take {}{:.3g} s, past the --time-budget of {:g} s; allow it with "
                    "a larger --time-budget (or --method exact), or play fewer units, or fixed policies for some "
                    "choices (--att-hits, --def-reroll ...)",
                    e.partial() ? "at least " : "", e.predicted(), e.budget()));
  } catch (const gl::solve_cancelled&) {
    throw run_cancelled();  // only a dashboard sets the flag; nothing is reported
  } catch (const gl::exact_over_memory& e) {
    if (optimal_play)  // (only retreats optimal, solved as the default play: still exact only)
      throw invalid_input("memory-mb", fmt::format("optimal play would need about {:.0f} MB, past --memory-mb {}; "
                                                   "raise it (optimal play is solved exactly only)",
                                                   e.predicted_bytes() / 1e6, memory_mb));
    throw invalid_input("method", fmt::format("exact would need about {:.0f} MB, past --memory-mb {}; raise it or "
                                              "use --method sim (or auto)",
                                              e.predicted_bytes() / 1e6, memory_mb));
  } catch (const state_limit_exceeded&) {
    if (optimal_play)
      throw invalid_input("state-limit", fmt::format("optimal play needs more than --state-limit {} game states; "
                                                     "raise the limit (optimal play is solved exactly only)",
                                                     limit));
    throw invalid_input("method", fmt::format("exact needs more than --state-limit {} states; raise the limit or "
                                              "use --method sim (or auto)",
                                              limit));
  } catch (const gl::memory_limit_exceeded& e) {
    if (optimal_play)
      throw invalid_input("memory-mb",
                          fmt::format("optimal play's memory reached {:.0f} MB at {} states, past --memory-mb {}; "
                                      "raise it (optimal play is solved exactly only)",
                                      static_cast<double>(e.counted()) / 1e6, e.states(), memory_mb));
    throw invalid_input("memory-mb",
                        fmt::format("the exact solve's memory reached {:.0f} MB at {} states, past --memory-mb {}; "
                                    "raise it or use --method sim (or auto)",
                                    static_cast<double>(e.counted()) / 1e6, e.states(), memory_mb));
  }
  const gl::battle_result& res = solved.result;
  const std::string why = why_text(solved, budget, limit, memory_mb, sim.trials);

  report r;
  r.document = gl_document("battle", vm);
  json& doc = r.document;
  // --play optimal sets every policy of both sides (apply_play): none is left at its default.
  if (vm.count("play") && string_option(vm, "play") == "optimal")
    for (const auto& name : policy_options()) cli::unused_default(doc, name);
  if (vm.count("scenario"))  // the file's values, not the flags' defaults: inputs.battle says them
    for (const auto* names : {&scenario_fact_options(), &policy_options()})
      for (const auto& name : *names)
        if (vm.count(name) && vm[name].defaulted()) {
          doc["inputs"].erase(name);
          unused_default(doc, name);
        }
  doc["inputs"]["battle"] = gl::to_json(b);
  const bool simulated = res.method.name == "simulation";
  json m;
  m["name"] = res.method.name;
  if (simulated) {
    m["trials"] = res.method.trials;
    m["seed"] = res.method.seed;
    m["confidence"] = 0.95;
    m["rounds_simulated"] = res.method.rounds_simulated;
    m["cancelled"] = res.method.cancelled;
  } else {
    m["states"] = res.method.states;
    m["transitions"] = res.method.transitions;
    m["memory_mb"] = static_cast<double>(res.method.memory_bytes) / 1e6;  // the solve's own data, as counted
    m["threads"] = res.method.threads;
  }
  m["seconds"] = res.method.seconds;
  m["pruned_mass"] = res.method.pruned_mass;
  m["why"] = why;
  doc["method"] = m;
  doc["outcomes"] =
      json{{"attacker_wins", res.attacker_wins}, {"defender_holds", res.defender_holds}, {"stalemate", res.stalemate}};
  json ends = json::object();
  for (auto e : gl::all_battle_ends) ends[gl::to_string(e)] = res[e];
  doc["ends"] = ends;
  doc["attacker_sp_lost"] = res.attacker_sp_lost;
  doc["defender_sp_lost"] = res.defender_sp_lost;
  doc["rounds"] = json{{"mean", res.rounds_mean}, {"distribution", res.rounds_distribution}, {"tail", res.rounds_tail}};
  json units = json::array();
  for (const auto& u : res.units)
    units.push_back(json{{"name", u.name},
                         {"side", u.side},
                         {"survives", u.survives},
                         {"expected_sp", u.expected_sp},
                         {"fails_morale", u.fails_morale}});
  doc["units"] = units;
  doc["garrison_eliminated"] = res.garrison_eliminated ? json(*res.garrison_eliminated) : json(nullptr);
  double att_mean = 0, def_mean = 0;
  for (std::size_t i = 0; i < res.attacker_sp_lost.size(); ++i)
    att_mean += static_cast<double>(i) * res.attacker_sp_lost[i];
  for (std::size_t i = 0; i < res.defender_sp_lost.size(); ++i)
    def_mean += static_cast<double>(i) * res.defender_sp_lost[i];
  doc["summary"] = json{{"expected_attacker_sp_lost", att_mean},
                        {"expected_defender_sp_lost", def_mean},
                        {"mean_rounds", res.rounds_mean}};
  r.result_keys = {"outcomes",           "ends", "summary", "units", "attacker_sp_lost", "defender_sp_lost",
                   "garrison_eliminated"};
  const simulation_basis basis{res.method.trials, 0.95};
  add_distribution_stats(doc, {"attacker_sp_lost", "defender_sp_lost", {"rounds.distribution", 1}},
                         simulated ? &basis : nullptr);
  if (simulated) {
    // The engine's own intervals (it knows how each estimate was counted), by dotted path.
    auto one = [&](const std::string& path, const gl::interval& i) {
      set_interval(doc, path, interval_json(i.lower, i.upper, basis.level));
    };
    auto pmf_intervals = [&](const std::string& path, const std::vector<gl::interval>& v) {
      json low = json::array(), high = json::array();
      for (const auto& i : v) {
        low.push_back(i.lower);
        high.push_back(i.upper);
      }
      set_interval(doc, path, json{{"low", low}, {"high", high}, {"level", basis.level}});
    };
    one("outcomes.attacker_wins", res.outcomes_interval[0]);
    one("outcomes.defender_holds", res.outcomes_interval[1]);
    one("outcomes.stalemate", res.outcomes_interval[2]);
    for (auto e : gl::all_battle_ends) one("ends." + gl::to_string(e), res.ends_interval[static_cast<std::size_t>(e)]);
    pmf_intervals("attacker_sp_lost", res.attacker_sp_lost_interval);
    pmf_intervals("defender_sp_lost", res.defender_sp_lost_interval);
    pmf_intervals("rounds.distribution", res.rounds_interval);
    for (std::size_t u = 0; u < res.units.size(); ++u) {
      one(fmt::format("units.{}.survives", u), res.units[u].survives_interval);
      one(fmt::format("units.{}.fails_morale", u), res.units[u].fails_morale_interval);
    }
    if (res.garrison_eliminated_interval) one("garrison_eliminated", *res.garrison_eliminated_interval);
    r.result_keys.push_back("intervals");
  }
  if (solved.game) {
    add_game_results(doc, b, game, *solved.game);
    r.result_keys.push_back("optimal_play");
    r.result_keys.push_back("advice");
  }
  // rounds (mean, distribution from round 1, tail) is in the JSON; the table and CSV show summary.mean_rounds.
  doc["notes"] = battle_notes(b, res);
  std::string att_names, def_names;
  for (const auto& u : b.attacker.units) att_names += (att_names.empty() ? "" : ", ") + u.name;
  for (const auto& u : b.defender.units) def_names += (def_names.empty() ? "" : ", ") + u.name;
  if (b.defender.fortification && !b.defender.fortification->destroyed)
    def_names += (def_names.empty() ? "" : " + ") + std::string("garrison");
  r.title = fmt::format("Great Lakes battle: {} ({}) attack {} ({})", gl::to_string(b.attacker.side), att_names,
                        gl::to_string(b.defender.side), def_names);
  r.verdict = fmt::format("attacker wins {}, defender holds {}{}; {} in {:.3g} s{}", percent(res.attacker_wins),
                          percent(res.defender_holds), res.stalemate > 0 ? ", stalemate " + percent(res.stalemate) : "",
                          simulated ? fmt::format("simulated {} battles", res.method.trials)
                                    : fmt::format("exact over {} states", res.method.states),
                          res.method.seconds,
                          simulated ? fmt::format(" (95% CI {:.1f}-{:.1f}%)", 100 * res.outcomes_interval[0].lower,
                                                  100 * res.outcomes_interval[0].upper)
                                    : "");
  return r;
}

// --- ship battle, turn, missions, war end -------------------------------------------------------

report run_ship_battle(const po::variables_map& vm) {
  const int a = int_option(vm, "dice"), b = int_option(vm, "vs");
  const rational a_wins = gl::ship_battle_a_wins(a, b);
  report r;
  r.document = gl_document("ship-battle", vm);
  json& doc = r.document;
  doc["a_wins"] = to_double(a_wins);
  doc["b_wins"] = to_double(1 - a_wins);
  doc["exact"] = json{{"a_wins", to_fraction_string(a_wins)}, {"b_wins", to_fraction_string(1 - a_wins)}};
  doc["notes"] =
      json::array({"each side keeps its highest die; the higher wins; a tie rerolls all dice (GL 7.8)",
                   "Lake Ontario: British 4 dice, American 3 (GL 7.1); Lake Erie's are not in our rules text"});
  r.title = fmt::format("Great Lakes ship battle: {} dice v {} dice", a, b);
  r.verdict = fmt::format("A wins {}, B wins {}", percent(to_double(a_wins)), percent(to_double(1 - a_wins)));
  r.result_keys = {"a_wins", "b_wins"};
  return r;
}

// "ontario=supply,erie=intercept" -> missions by lake (a lake not named defaults to transport).
std::array<gl::mission, 2> parse_orders(const std::string& text, const std::string& option) {
  std::array<gl::mission, 2> out{gl::mission::transport, gl::mission::transport};
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t comma = std::min(text.find(',', start), text.size());
    const std::string item = text.substr(start, comma - start);
    const std::size_t eq = item.find('=');
    if (eq == std::string::npos) throw invalid_input(option, "'" + item + "' is not LAKE=MISSION (ontario=supply)");
    const std::string lake = item.substr(0, eq);
    if (lake != "ontario" && lake != "erie")
      throw invalid_input(option, "unknown lake '" + lake + "'; allowed: ontario, erie");
    out[lake == "ontario" ? 0 : 1] = gl::parse_mission(item.substr(eq + 1), option);
    start = comma + 1;
  }
  return out;
}

std::array<std::array<int, 2>, 2> ship_dice_from(const po::variables_map& vm) {
  std::array<std::array<int, 2>, 2> dice{};
  const auto& d = data();
  dice[gl::ontario] = {d.ontario_british_dice.value_or(0), d.ontario_american_dice.value_or(0)};
  dice[gl::erie] = {d.erie_british_dice.value_or(0), d.erie_american_dice.value_or(0)};
  for (const auto& [name, l] : {std::pair<std::string, int>{"ontario-dice", gl::ontario}, {"erie-dice", gl::erie}}) {
    if (!vm.count(name)) continue;
    const std::string text = string_option(vm, name);
    const auto squadrons = parse_whole_list(text, ',', 2, name, "BRITISH,AMERICAN (e.g. 3,2)");
    require_in_range(name, squadrons[0], 1, 12, "British squadron dice");
    require_in_range(name, squadrons[1], 1, 12, "American squadron dice");
    dice[static_cast<std::size_t>(l)] = {squadrons[0], squadrons[1]};
  }
  return dice;
}

json cap_notes() {
  return json::array(
      {"CAP: British 7 + Drummond (1-3: +1, 4-6: +2); American 6 + Brown (1-2: +1, 3-6: +2) (GL 5.4-5.7)",
       "a successful supply mission adds 2 CAP on Lake Ontario, 1 on Lake Erie; the loser of an "
       "intercept-v-intercept battle loses 1 CAP (GL 7.5, 7.8)",
       "the higher CAP moves first; ties go to the Americans (GL 8.2)",
       "ship dice: Lake Ontario British 4, American 3 (GL 7.1, data/gl/ships.json); Lake Erie's come from "
       "--erie-dice"});
}

report run_turn(const po::variables_map& vm) {
  gl::turn_setup s;
  const auto b = parse_orders(string_option(vm, "british"), "british");
  const auto a = parse_orders(string_option(vm, "american"), "american");
  for (int l = 0; l < 2; ++l)
    s.orders[static_cast<std::size_t>(l)] = {b[static_cast<std::size_t>(l)], a[static_cast<std::size_t>(l)]};
  s.ship_dice = ship_dice_from(vm);
  const auto res = gl::resolve_turn(data(), s);
  report r;
  r.document = gl_document("turn", vm);
  json& doc = r.document;
  doc["british_cap"] = probability_object(res.cap[gl::british]);
  doc["american_cap"] = probability_object(res.cap[gl::american]);
  doc["americans_first"] = to_double(res.americans_first);
  json missions = json::object(), missions_exact = json::object();
  for (int l = 0; l < 2; ++l) {
    const std::string lake = l == 0 ? "ontario" : "erie";
    for (int side = 0; side < 2; ++side) {
      const std::string key = std::string(side == 0 ? "british_" : "american_") + lake + "_" +
                              gl::to_string(s.orders[static_cast<std::size_t>(l)][static_cast<std::size_t>(side)]);
      missions[key] = to_double(res.mission_success[static_cast<std::size_t>(l)][static_cast<std::size_t>(side)]);
      missions_exact[key] =
          to_fraction_string(res.mission_success[static_cast<std::size_t>(l)][static_cast<std::size_t>(side)]);
    }
  }
  doc["mission_success"] = missions;
  doc["expected_cap_difference"] = to_double(res.expected_cap_difference);
  doc["exact"] = json{{"british_cap", exact_object(res.cap[gl::british])},
                      {"american_cap", exact_object(res.cap[gl::american])},
                      {"americans_first", to_fraction_string(res.americans_first)},
                      {"mission_success", missions_exact}};
  add_distribution_stats(doc, {"british_cap", "american_cap"});
  doc["notes"] = cap_notes();
  r.title = "Great Lakes turn: CAP and who moves first";
  r.verdict = fmt::format("Americans move first {}, British first {}", percent(to_double(res.americans_first)),
                          percent(1 - to_double(res.americans_first)));
  r.result_keys = {"americans_first", "british_cap", "american_cap", "mission_success", "expected_cap_difference"};
  return r;
}

report run_missions(const po::variables_map& vm) {
  const std::string objective_text = string_option(vm, "objective");
  const auto named = value_of(gl::names_of_mission_objective, objective_text);
  if (!named)
    throw invalid_input("objective", "'" + objective_text + "' is not an objective; allowed: " +
                                         names_list(gl::names_of_mission_objective));
  const gl::mission_objective objective = *named;
  const auto dice = ship_dice_from(vm);
  if (dice[gl::erie][0] == 0 || dice[gl::erie][1] == 0)
    throw invalid_input("erie-dice",
                        "is required: every Erie intercept starts a ship battle, and Lake Erie's squadron dice are not "
                        "in our rules text");
  const auto res = gl::solve_missions(data(), dice, objective);
  report r;
  r.document = gl_document("missions", vm);
  json& doc = r.document;
  doc["objective"] = objective_text;
  auto strategy = [&](const std::vector<double>& p) {
    json out = json::object();
    for (std::size_t i = 0; i < p.size(); ++i)
      if (p[i] > 1e-9) out[res.strategy_names[i]] = std::clamp(p[i], 0.0, 1.0);
    return out;
  };
  doc["british_strategy"] = strategy(res.british_strategy);
  doc["american_strategy"] = strategy(res.american_strategy);
  if (objective == gl::mission_objective::first) {
    doc["british_first"] = res.value;
    doc["americans_first"] = 1 - res.value;
  } else {
    doc["expected_cap_difference"] = res.value;
  }
  doc["notes"] = cap_notes();
  doc["notes"].push_back(
      "each side picks one mission per lake without seeing the other's; the zero-sum game over the 16 x 16 "
      "pure strategies is solved by linear programming (simplex, Bland's rule) in double precision from exact "
      "payoffs; each strategy is normalised to sum to 1, so a pure strategy is exactly 1 (100%)");
  doc["notes"].push_back(
      "objective first: the British maximise P(British move first), the Americans minimise it; cap-difference: "
      "E[British CAP - American CAP]. Transport and support earn no CAP, so they are interchangeable here");
  r.title = "Great Lakes ship missions: optimal mixed strategies (objective " + objective_text + ")";
  r.verdict = objective == gl::mission_objective::first
                  ? fmt::format("under optimal play the British move first {}", percent(res.value))
                  : fmt::format("under optimal play E[British CAP - American CAP] = {:.4f}", res.value);
  r.result_keys = {"british_strategy", "american_strategy", "british_first", "americans_first",
                   "expected_cap_difference"};
  return r;
}

report run_war_end(const po::variables_map& vm) {
  const auto res = gl::resolve_war_end(data(), int_option(vm, "from-turn"));
  report r;
  r.document = gl_document("war-end", vm);
  json& doc = r.document;
  doc["last_turn"] = probability_object(res.last_turn);
  doc["expected_last_turn"] = to_double(res.expected_last_turn);
  doc["exact"] = json{{"last_turn", exact_object(res.last_turn)},
                      {"expected_last_turn", to_fraction_string(res.expected_last_turn)}};
  add_distribution_stats(doc, {"last_turn"});
  doc["notes"] = json::array(
      {"the War Ends roll is made at the end of turns 14-16 (ends on a 6) and 17-19 (ends on 5-6); the game "
       "always ends after turn 20 (GL 15.1, data/gl/war_end.json)"});
  r.title = "Great Lakes war end: the last turn played";
  r.verdict = fmt::format("expected last turn {:.3f}; the game reaches turn 20 {}", to_double(res.expected_last_turn),
                          percent(to_double(res.last_turn[20])));
  r.result_keys = {"last_turn", "expected_last_turn"};
  return r;
}

// The whole numbers a sweep can vary inside --fort DICE:SP:MORALE and a unit
// NAME:TYPE:SP/MAX:MORALE:DICE (`--vary fort.sp=1..4`, `--vary def.0.sp=1..4`).
void add_battle_fields(game_entry& game, const std::string& command_name) {
  const std::pair<const char*, std::size_t> fort_parts[] = {{"dice", 0}, {"sp", 1}, {"morale", 2}};
  for (const auto& part : fort_parts) {
    const std::string name = part.first;
    const std::size_t position = part.second;  // a named copy: clang 14 cannot capture a structured binding
    game.sweep_fields.push_back(
        {command_name, "fort." + name, "fort", "--fort DICE:SP:MORALE, its " + name,
         [position](const std::string& text, int v) { return replace_part(text, ':', position, std::to_string(v)); }});
  }
  for (const char* option : {"att", "def"}) {
    const std::string o = option;
    auto add = [&](const std::string& name, std::function<std::string(const std::string&, int)> set) {
      game.sweep_fields.push_back(
          {command_name, o + ".#." + name, o, "--" + o + " NAME:TYPE:SP/MAX:MORALE:DICE, its " + name, std::move(set)});
    };
    // The current SP; a MAX written stays, one not written follows the SP (as the unit spec reads it).
    add("sp", [](const std::string& text, int v) {
      return replace_part(text, ':', 2, replace_part(part_of(text, ':', 2), '/', 0, std::to_string(v)));
    });
    add("max", [](const std::string& text, int v) {
      const std::string sp = part_of(part_of(text, ':', 2), '/', 0);
      return replace_part(text, ':', 2, sp + "/" + std::to_string(v));
    });
    add("morale", [](const std::string& text, int v) { return replace_part(text, ':', 3, std::to_string(v)); });
    add("dice", [](const std::string& text, int v) { return replace_part(text, ':', 4, std::to_string(v)); });
  }
}

}  // namespace

void register_great_lakes_commands(command_registry& registry) {
  auto& game = registry.add_game("gl", "War Along the Great Lakes");
  game.commands.push_back(command{
      "battle", "a land battle, round by round to the end: odds, ends, losses, units", add_battle_options, run_battle,
      "examples:\n  musket gl battle --att \"11th Infantry:regular:4/4:5:3\" --att \"Towson:artillery:3/3:5:5\" "
      "--def \"104th Foot:regular:4/4:5:4\" --fort 2:2:4 --att-leader Brown\n"
      "  musket gl battle --scenario examples/gl-battle.json --method sim --trials 1000000"});
  add_battle_fields(game, "battle");
  for (gl::unit_type t : gl::spec_unit_types) game.word_choices["unit_type"].push_back(gl::to_string(t));
  for (gl::crossing c : gl::all_crossings) game.word_choices["crossing"].push_back(gl::to_string(c));
  // Each side's leaders, as validate_leaders allows them (data/gl/commanders.json).
  game.data_word_choices = [] {
    std::map<std::string, std::vector<std::string>> leaders;
    for (const auto& c : data().commanders)
      leaders.emplace("leader." + gl::to_string(c.side), gl::commander_names(data(), c.side));
    return leaders;
  };
  game.option_words["att-leader"] = game.option_words["def-leader"] = "leader";
  game.commands.push_back(command{"ship-battle", "a ship squadron battle (GL 7.8): who wins",
                                  [](po::options_description& o) {
                                    o.add_options()("dice", whole_number(1, 12)->required(), "squadron A's dice")(
                                        "vs", whole_number(1, 12)->required(), "squadron B's dice");
                                  },
                                  run_ship_battle, "example: musket gl ship-battle --dice 4 --vs 3"});
  auto lake_options = [](po::options_description& o) {
    o.add_options()("ontario-dice", po::value<std::string>(),
                    "Lake Ontario squadron dice BRITISH,AMERICAN (default 4,3, GL 7.1)")(
        "erie-dice", po::value<std::string>(),
        "Lake Erie squadron dice BRITISH,AMERICAN (not in our rules text: required for an Erie ship battle)");
  };
  game.commands.push_back(command{"turn", "CAP for each side, who moves first, each ship mission's success",
                                  [lake_options](po::options_description& o) {
                                    o.add_options()("british", po::value<std::string>()->required(),
                                                    "British missions, e.g. ontario=supply,erie=intercept")(
                                        "american", po::value<std::string>()->required(),
                                        "American missions, e.g. ontario=intercept,erie=transport");
                                    lake_options(o);
                                  },
                                  run_turn,
                                  "example: musket gl turn --british ontario=supply,erie=intercept --american "
                                  "ontario=intercept,erie=transport --erie-dice 3,2"});
  game.commands.push_back(command{"missions", "optimal mixed ship-mission choices on both lakes (a matrix game)",
                                  [lake_options](po::options_description& o) {
                                    o.add_options()("objective", po::value<std::string>()->default_value("first"),
                                                    names_list(gl::names_of_mission_objective, " | ").c_str());
                                    lake_options(o);
                                  },
                                  run_missions, "example: musket gl missions --erie-dice 3,2"});
  game.commands.push_back(command{"war-end", "distribution of the last turn and the expected game length (GL 15.1)",
                                  [](po::options_description& o) {
                                    o.add_options()("from-turn", whole_number(1, 20)->default_value(1),
                                                    "the turn being played now");
                                  },
                                  run_war_end, "example: musket gl war-end --from-turn 15"});
}

}  // namespace musket::cli
