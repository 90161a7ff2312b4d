// `musket nt|ss|ar|gl campaign`: chained engagements from a plan file; `ss siege`, `ss navies`.
// Thin: plans are parsed and run in calc/campaign. (Sweeps: cli/sweep_command.cpp.)
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iterator>
#include <map>
#include <sstream>

#include "calc/campaign/southern_turns.hpp"
#include "calc/campaign/supply_lines_campaign.hpp"
#ifdef MUSKET_CAMPAIGN_GREAT_LAKES
#include <cstdlib>

#include "calc/campaign/great_lakes_campaign.hpp"
#include "calc/great_lakes/turn/war_end.hpp"
#endif
#ifdef MUSKET_CAMPAIGN_REVOLUTION
#include "calc/campaign/revolution_campaign.hpp"
#include "calc/revolution/data.hpp"
#include "calc/revolution/options.hpp"
#endif
#include "cli/command.hpp"
#include "cli/data_location.hpp"
#include "cli/result_statistics.hpp"
#include "core/input_file.hpp"
#include "core/invalid_input.hpp"
#include "core/json_input.hpp"
#include "core/whole_range.hpp"

namespace musket::cli {

namespace {

namespace cp = musket::campaign;

json value_json(const cp::probability_value& v) {
  return v.value;
}

json pmf_object(const pmf_double& d) {
  json out = json::object();
  for (int v = d.lowest(); v <= d.highest(); ++v)
    if (d[v] > 0) out[std::to_string(v)] = d[v];
  return out;
}

// A whole-number option as a count: its published range (whole_number, starting at 0 or more) is
// checked before the command runs.
std::uint64_t count_option(const po::variables_map& vm, const std::string& name) {
  return static_cast<std::uint64_t>(int_option(vm, name));
}

report run_campaign(const std::string& code, const po::variables_map& vm) {
  const std::string file = string_option(vm, "file");
  json plan_json = read_json_input(file, "file");
  // Overrides of the plan's starting army and track, so a sweep can vary them.
  const std::pair<const char*, const char*> overrides[] = {
      {"army-units", "units"}, {"army-war", "war"}, {"army-food", "food"}, {"army-leaders", "leaders"}};
  for (const auto& [option, key] : overrides)
    if (vm.count(option) && plan_json.is_object() && plan_json.contains("army") && plan_json["army"].is_object())
      plan_json["army"][key] = vm[option].as<int>();
  if (vm.count("track-position") && plan_json.is_object() &&
      (!plan_json.contains("track") || plan_json["track"].is_object()))
    plan_json["track"]["position"] = vm["track-position"].as<int>();
  cp::supply_lines_plan plan;
  try {
    plan = cp::parse_supply_lines_plan(plan_json, file, code);
  } catch (const invalid_input& e) {
    // An override out of range is the option's fault, not the file's.
    for (const auto& [option, key] : overrides)
      if (vm.count(option) && e.field() == file + ": /army/" + key) throw invalid_input(option, e.what());
    if (vm.count("track-position") && e.field().rfind(file + ": /track", 0) == 0)
      throw invalid_input("track-position", e.what());
    throw;
  }
  cp::campaign_options options;
  options.method = string_option(vm, "method");
  if (options.method != "exact" && options.method != "sim" && options.method != "auto")
    throw invalid_input("method", "'" + options.method + "' is not a method; allowed: exact, sim, auto");
  options.state_limit = count_option(vm, "state-limit");
  options.simulation.simulation.trials = count_option(vm, "trials");
  options.simulation.simulation.seed = count_option(vm, "seed");
  options.simulation.memory_bound_bytes = static_cast<std::size_t>(count_option(vm, "memory-mb")) << 20;
  attach_run_context(options.simulation.simulation);  // the dashboard's progress and cancel
  cp::campaign_result result;
  try {
    result = cp::run_supply_lines_campaign(plan, options);
  } catch (const memory_bound_exceeded& e) {
    throw invalid_input("memory-mb", e.what());
  } catch (const std::exception&) {
    if (run_cancel_requested()) throw run_cancelled();  // stopped before a trial was tallied
    throw;
  }
  const bool cancelled = run_cancel_requested();
  if (cancelled && result.trials == 0) throw run_cancelled();

  json doc;
  doc["game"] = code;
  doc["command"] = "campaign";
  doc["inputs"] = json{{"file", file},
                       {"method", options.method},
                       {"state-limit", options.state_limit},
                       {"trials", options.simulation.simulation.trials},
                       {"seed", options.simulation.simulation.seed},
                       {"memory-mb", options.simulation.memory_bound_bytes >> 20}};
  bool any_exact = false, any_sim = false;
  for (const auto& s : result.steps) (s.method == "exact" ? any_exact : any_sim) = true;
  json method{{"name", any_sim ? (any_exact ? "mixed" : "simulation") : "exact"}};
  if (any_sim) {
    method["trials"] = result.trials;
    method["seed"] = result.seed;
  }
  method["peak_exact_states"] = result.peak_states;
  if (cancelled && any_sim) method["cancelled"] = true;
  method["why"] = result.switched_at ? "the exact state space passed --state-limit; later steps are simulated"
                  : any_sim          ? "asked for with --method sim; probabilities carry 95% Wilson intervals"
                                     : "every step's state distribution stayed under --state-limit";
  doc["method"] = method;
  json steps = json::array(), distributions = json::array(), exact_steps = json::array(), battles = json::array();
  // Simulated values' intervals by dotted path ("steps.1.outcomes.stood"), set once the document is built.
  std::vector<std::pair<std::string, json>> intervals;
  const double level = 0.95;
  for (std::size_t i = 0; i < result.steps.size(); ++i) {
    const cp::step_result& s = result.steps[i];
    const cp::step_kind kind = plan.steps[i].kind;
    const bool fights = kind == cp::step_kind::attack || kind == cp::step_kind::defend;
    json row, e = json::object();
    const std::string at_step = "steps." + std::to_string(i) + ".";
    // One value with its exact fraction beside it under the same key path, its interval by that path.
    auto put = [&](json& at, json& exact_at, const std::string& path, const std::string& key,
                   const cp::probability_value& v) {
      at[key] = value_json(v);
      if (v.exact) exact_at[key] = *v.exact;
      if (v.interval) intervals.push_back({path + key, interval_json(v.interval->lower, v.interval->upper, level)});
    };
    row["step"] = s.id;
    row["kind"] = s.kind;
    row["method"] = s.method;
    row["from"] = s.from_area;
    row["to"] = s.to_area;
    put(row, e, at_step, "reached", s.reached);
    put(row, e, at_step, "performed", s.performed);
    put(row, e, at_step, "won", s.won);
    if (kind == cp::step_kind::attack) put(row, e, at_step, "taken", s.taken);
    if (kind == cp::step_kind::defend) {
      put(row, e, at_step, "held", s.held);
    }
    put(row, e, at_step, "skipped", s.skipped);
    put(row, e, at_step, "skipped_not_there", s.skipped_away);
    put(row, e, at_step, "stalled", s.stalled);
    put(row, e, at_step, "stopped", s.stopped);
    if (fights) {
      // The table's view of the battles: one row per attack or defence, the same columns for both.
      json b{{"step", s.id},
             {"kind", s.kind},
             {"reached", s.reached.value},
             {"won", s.won.value},
             {"area_changed_hands", s.taken.value}};
      for (int k = 0; k < cp::step_outcome_count; ++k)
        b[cp::step_outcome_names[k]] = s.outcomes[static_cast<std::size_t>(k)].value;
      battles.push_back(b);
      json o = json::object(), oe = json::object();
      for (int k = 0; k < cp::step_outcome_count; ++k)
        put(o, oe, at_step + "outcomes.", cp::step_outcome_names[k], s.outcomes[static_cast<std::size_t>(k)]);
      row["outcomes"] = o;
      if (!oe.empty()) e["outcomes"] = oe;
    }
    if (!s.attempts.empty()) {
      // A pmf: its intervals as one {low: {...}, high: {...}} keyed like it.
      json a = json::object(), ae = json::object(), low = json::object(), high = json::object();
      for (std::size_t k = 0; k < s.attempts.size(); ++k) {
        const std::string key = std::to_string(k + 1);
        a[key] = value_json(s.attempts[k]);
        if (s.attempts[k].exact) ae[key] = *s.attempts[k].exact;
        if (s.attempts[k].interval) {
          low[key] = s.attempts[k].interval->lower;
          high[key] = s.attempts[k].interval->upper;
        }
      }
      row["attempts"] = a;
      if (!ae.empty()) e["attempts"] = ae;
      if (!low.empty())
        intervals.push_back({at_step + "attempts", json{{"low", low}, {"high", high}, {"level", level}}});
    }
    row["mean_units"] = mean(s.units);
    row["mean_war"] = mean(s.war);
    row["mean_food"] = mean(s.food);
    row["mean_track"] = mean(s.track);
    steps.push_back(row);
    distributions.push_back(json{{"step", s.id},
                                 {"units", pmf_object(s.units)},
                                 {"war", pmf_object(s.war)},
                                 {"food", pmf_object(s.food)},
                                 {"track", pmf_object(s.track)}});
    exact_steps.push_back(e);
  }
  doc["steps"] = steps;
  if (!battles.empty()) doc["battles"] = battles;
  json end = json::object(), end_exact = json::object();
  for (const auto& e : result.end) {
    end[e.name] = e.probability.value;
    if (e.probability.exact) end_exact[e.name] = *e.probability.exact;
    if (e.probability.interval)
      intervals.push_back(
          {"end." + e.name, interval_json(e.probability.interval->lower, e.probability.interval->upper, level)});
  }
  doc["end"] = end;
  // NT 5.5, SS 5.5: what the army sets out with against what it can carry.
  doc["carrying"] = json{{"supplies", result.start_supplies},
                         {"limit", result.carrying_limit},
                         {"within_limit", result.start_supplies <= result.carrying_limit}};
  doc["distributions"] = distributions;
  json exact = json::object();
  if (!end_exact.empty()) exact["end"] = end_exact;
  if (any_exact) exact["steps"] = exact_steps;
  doc["exact"] = exact;
  doc["notes"] = result.notes;

  report r;
  r.title = fmt::format("{} campaign: {} ({} steps, {})", code == "nt" ? "Northern Theater" : "Southern Strategy",
                        plan.name, plan.steps.size(), doc["method"]["name"].get<std::string>());
  const cp::step_result& last = result.steps.back();
  const cp::step_kind last_kind = plan.steps.back().kind;
  r.verdict = last_kind == cp::step_kind::attack
                  ? fmt::format("the army reaches the last step {} and takes its Area {}", percent(last.reached.value),
                                percent(last.taken.value))
              : last_kind == cp::step_kind::defend
                  ? fmt::format("the army reaches the last step {} and holds its Area {}", percent(last.reached.value),
                                percent(last.held.value))
                  : fmt::format("the army reaches the last step {}", percent(last.reached.value));
  r.verdict += fmt::format("; completes the plan {}", percent(result.end.front().probability.value));
  // The table shows the last step's state; JSON and CSV carry every step's distributions.
  doc["final_state"] = json{{"units", pmf_object(last.units)},
                            {"war", pmf_object(last.war)},
                            {"food", pmf_object(last.food)},
                            {"track", pmf_object(last.track)}};
  // Each step's attempts and state, and the final state: stats, and for a simulated step the
  // intervals of their means.
  const simulation_basis basis{result.trials, level};
  for (std::size_t i = 0; i < result.steps.size(); ++i) {
    const simulation_basis* sim = result.steps[i].method == "simulation" ? &basis : nullptr;
    const std::string at_step = "steps." + std::to_string(i) + ".attempts";
    if (doc["steps"][i].contains("attempts")) add_distribution_stats(doc, {at_step}, sim);
    const std::string at = "distributions." + std::to_string(i) + ".";
    add_distribution_stats(doc, {at + "units", at + "war", at + "food", at + "track"}, sim);
  }
  add_distribution_stats(doc, {"final_state.units", "final_state.war", "final_state.food", "final_state.track"},
                         last.method == "simulation" ? &basis : nullptr);
  for (auto& [path, interval] : intervals) set_interval(doc, path, std::move(interval));
  r.document = doc;
  const bool table = vm.count("format") && vm["format"].as<std::string>() == "table";
  r.result_keys = {"steps", "battles", "end", "carrying", "final_state", "intervals"};
  if (!table) r.result_keys.push_back("distributions");
  if (result.start_supplies > result.carrying_limit)
    r.verdict += fmt::format("; the army sets out with {} Supplies, over the {} it can carry ({} 5.5: see notes)",
                             result.start_supplies, result.carrying_limit, code == "nt" ? "NT" : "SS");
  return r;
}

// --- SS sieges and navies over turns -----------------------------------------------------------

rational parse_chance(const std::string& text, const std::string& field) {
  try {
    const auto slash = text.find('/');
    if (slash == std::string::npos) {
      std::size_t used = 0;
      const double d = std::stod(text, &used);
      if (used != text.size()) throw std::invalid_argument(text);
      if (d == 0 || d == 1) return rational(static_cast<int>(d));
      // Decimals up to six places are read exactly.
      const long long scaled = std::llround(d * 1'000'000);
      if (std::fabs(d * 1'000'000 - static_cast<double>(scaled)) > 1e-6) throw std::invalid_argument(text);
      return rational(big_integer(scaled), big_integer(1'000'000));
    }
    const long long num = std::stoll(text.substr(0, slash)), den = std::stoll(text.substr(slash + 1));
    if (den <= 0) throw std::invalid_argument(text);
    return rational(big_integer(num), big_integer(den));
  } catch (const std::logic_error&) {
    throw invalid_input(field, "'" + text + "' is not a chance; give a fraction like 1/3 or a decimal like 0.25");
  }
}

// "0", "1" or "num/den": a chance as a person writes it (to_fraction_string gives "0/1").
std::string readable_chance(const rational& p) {
  const std::string text = to_fraction_string(p);
  return text.size() > 2 && text.compare(text.size() - 2, 2, "/1") == 0 ? text.substr(0, text.size() - 2) : text;
}

report run_siege(const po::variables_map& vm) {
  cp::siege_setup s;
  s.food = int_option(vm, "food");
  s.turns = int_option(vm, "turns");
  s.resupply_chance = parse_chance(string_option(vm, "resupply"), "resupply");
  if (s.resupply_chance < 0 || s.resupply_chance > 1) throw invalid_input("resupply", "a chance is between 0 and 1");
  const cp::siege_result r = cp::resolve_siege(s);
  json doc;
  doc["game"] = "ss";
  doc["command"] = "siege";
  // The chance as a person writes it: "0", "1/6", "1" (never "0/1").
  const std::string chance = readable_chance(s.resupply_chance);
  doc["inputs"] = json{{"food", s.food}, {"resupply", chance}, {"turns", s.turns}};
  doc["method"] = exact_method();
  json on = json::object(), by = json::object(), exact_on = json::object(), exact_by = json::object();
  for (std::size_t t = 0; t < r.surrenders_on.size(); ++t) {
    const std::string key = std::to_string(t + 1);
    on[key] = to_double(r.surrenders_on[t]);
    by[key] = to_double(r.surrendered_by[t]);
    exact_on[key] = to_fraction_string(r.surrenders_on[t]);
    exact_by[key] = to_fraction_string(r.surrendered_by[t]);
  }
  doc["surrenders_on_turn"] = on;
  doc["surrendered_by_turn"] = by;
  doc["summary"] = json{{"holds_out_all_turns", to_double(r.holds_out)}};
  doc["exact"] = json{{"surrenders_on_turn", exact_on},
                      {"surrendered_by_turn", exact_by},
                      {"holds_out_all_turns", to_fraction_string(r.holds_out)}};
  add_distribution_stats(doc, {"surrenders_on_turn"});  // given a surrender within the turns
  doc["notes"] = json::array(
      {"each Turn End the besieged army expends 1 Food and surrenders with none (SS 11.2, 13.1)",
       "SS 8.2 forbids Forage under Siege: --resupply is the chance per turn that 1 Food reaches the army some "
       "other way, added before the Turn End"});
  report out;
  out.document = doc;
  out.title = s.resupply_chance == 0
                  ? fmt::format("Southern Strategy siege: {} Food, no resupply", s.food)
                  : fmt::format("Southern Strategy siege: {} Food, resupply chance {} per turn", s.food, chance);
  // The same mark as the summary's table cell: an impossible hold-out reads "-" in both, with the
  // turn the surrender is certain by.
  out.verdict = fmt::format("holds out all {} turns {}", s.turns, percent_cell(to_double(r.holds_out)));
  for (std::size_t t = 0; r.holds_out == 0 && t < r.surrendered_by.size(); ++t)
    if (r.surrendered_by[t] == 1) {
      out.verdict += fmt::format("; surrenders by turn {} for certain", t + 1);
      break;
    }
  out.result_keys = {"surrenders_on_turn", "surrendered_by_turn", "summary"};
  return out;
}

std::vector<bool> parse_winter(const std::string& text, int turns) {
  std::vector<bool> winter(static_cast<std::size_t>(turns), false);
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, ',')) {
    if (item.empty()) continue;
    int t = 0;
    try {
      std::size_t used = 0;
      t = std::stoi(item, &used);
      if (used != item.size()) throw std::invalid_argument(item);
    } catch (const std::logic_error&) {
      throw invalid_input("winter", "'" + item + "' is not a turn number; give a list like 4,8,12");
    }
    require_in_range("winter", t, 1, turns, "a turn of the sequence");
    winter[static_cast<std::size_t>(t - 1)] = true;
  }
  return winter;
}

bool yes_no(const po::variables_map& vm, const std::string& name) {
  const std::string v = string_option(vm, name);
  if (v == "yes") return true;
  if (v == "no") return false;
  throw invalid_input(name, "'" + v + "'; allowed: yes, no");
}

report run_navies(const po::variables_map& vm) {
  cp::navy_turns_setup s;
  s.turns = int_option(vm, "turns");
  require_in_range("turns", s.turns, 1, 200);
  s.winter = parse_winter(vm.count("winter") ? vm["winter"].as<std::string>() : "", s.turns);
  s.crown_on_map = yes_no(vm, "crown-on-map");
  s.french_on_map = yes_no(vm, "french-on-map");
  const auto turns = cp::resolve_navy_turns(s);
  json doc;
  doc["game"] = "ss";
  doc["command"] = "navies";
  std::string winter_list;
  for (int t = 1; t <= s.turns; ++t)
    if (s.winter[static_cast<std::size_t>(t - 1)]) winter_list += (winter_list.empty() ? "" : ",") + std::to_string(t);
  doc["inputs"] = json{{"turns", s.turns},
                       {"winter", winter_list},
                       {"crown-on-map", s.crown_on_map},
                       {"french-on-map", s.french_on_map}};
  doc["method"] = exact_method();
  json rows = json::array(), exact_rows = json::array();
  for (std::size_t t = 0; t < turns.size(); ++t) {
    rows.push_back(json{{"turn", t + 1},
                        {"winter", static_cast<bool>(s.winter[t])},
                        {"crown_navy_on_map", to_double(turns[t].crown_on_map)},
                        {"french_navy_on_map", to_double(turns[t].french_on_map)},
                        {"both_on_map", to_double(turns[t].both_on_map)}});
    exact_rows.push_back(json{{"crown_navy_on_map", to_fraction_string(turns[t].crown_on_map)},
                              {"french_navy_on_map", to_fraction_string(turns[t].french_on_map)},
                              {"both_on_map", to_fraction_string(turns[t].both_on_map)}});
  }
  doc["turns"] = rows;
  doc["exact"] = json{{"turns", exact_rows}};
  doc["notes"] =
      json::array({"both navies leave the map at the start of a Winter Turn (SS 12.3) and do not roll at "
                   "its end (12.4)",
                   "an absent navy returns on 1-2 with the enemy navy off the map, 1-3 with it on; the "
                   "Crown rolls first (12.4)",
                   "probabilities are at each turn's end, after the return rolls; sea battles are not "
                   "modelled"});
  report out;
  out.document = doc;
  out.title = fmt::format("Southern Strategy navies over {} turns (winter: {})", s.turns,
                          winter_list.empty() ? std::string("none") : winter_list);
  out.verdict =
      fmt::format("at the end of turn {}: Crown navy on the map {}, French {}", s.turns,
                  percent(to_double(turns.back().crown_on_map)), percent(to_double(turns.back().french_on_map)));
  out.result_keys = {"turns"};
  return out;
}

#ifdef MUSKET_CAMPAIGN_REVOLUTION
// --- American Revolution season plans -----------------------------------------------------------

void put_interval(json& row, json& exact_row, const std::string& key, const cp::interval_value& v) {
  row[key + "_min"] = to_double(v.low);
  row[key + "_max"] = to_double(v.high);
  exact_row[key + "_min"] = to_fraction_string(v.low);
  exact_row[key + "_max"] = to_fraction_string(v.high);
}

// "A,B" for option letters, "none" for the historical game.
std::string option_letters_text(const std::vector<char>& letters) {
  std::string out;
  for (char c : letters) out += (out.empty() ? "" : ",") + std::string(1, c);
  return out.empty() ? "none" : out;
}

report run_revolution_campaign_command(const po::variables_map& vm) {
  namespace ar = musket::revolution;
  const std::string file = string_option(vm, "file");
  json plan_json = read_json_input(file, "file");
  if (vm.count("british-vp") && plan_json.is_object()) plan_json["british_vp"] = vm["british-vp"].as<int>();
  if (vm.count("prior-major-successes") && plan_json.is_object())
    plan_json["prior_major_successes"] = vm["prior-major-successes"].as<int>();
  const bool stated_in_plan = plan_json.is_object() && plan_json.contains("british_goal");
  if (vm.count("british-goal") && plan_json.is_object()) plan_json["british_goal"] = vm["british-goal"].as<int>();
  // The Errata's goals by period and the Variable Forces options (data/ar/options.json). --use: an
  // option set as `ar options --use` analyses it; an illegal set is refused, an unknown-legality
  // one runs and says so.
  const ar::options_data option_table = ar::load_options({game_data_directory("ar") + "/options.json", ""});
  std::optional<ar::option_set_analysis> options_used;
  if (vm.count("use")) {
    options_used = ar::analyse_options(option_table, ar::parse_option_letters(string_option(vm, "use"), "use"));
    if (options_used->status == ar::legality::illegal) {
      std::string why;
      for (const auto& reason : options_used->reasons) why += (why.empty() ? "" : "; ") + reason;
      throw invalid_input("use", "the option set is illegal (" + why + "); see `musket ar options`");
    }
  }
  cp::revolution_plan plan;
  try {
    plan = cp::parse_revolution_plan(plan_json, file, option_table);
  } catch (const invalid_input& e) {
    for (const char* option : {"british-vp", "prior-major-successes", "british-goal"}) {
      std::string key = option;
      std::replace(key.begin(), key.end(), '-', '_');
      if (vm.count(option) && e.field() == file + ": /" + key) throw invalid_input(option, e.what());
    }
    throw;
  }
  std::vector<cp::revolution_option_effect> effects;
  if (options_used) {
    plan.goals.adjustment = options_used->net;
    effects = cp::apply_variable_forces(plan, options_used->letters);
  }
  const ar::crt_table table = vm.count("crt") ? ar::load_crt({vm["crt"].as<std::string>(), "crt"})
                                              : ar::load_crt({game_data_directory("ar") + "/crt.json", ""});
  const cp::revolution_campaign_result r = cp::run_revolution_campaign(table, plan);
  json doc;
  doc["game"] = "ar";
  doc["command"] = "campaign";
  doc["inputs"] =
      json{{"file", file}, {"crt", vm.count("crt") ? vm["crt"].as<std::string>() : std::string("built-in")}};
  doc["method"] = json{{"name", "exact"},
                       {"why", r.exact ? "every CRT cell used is printed"
                                       : "blank CRT cells (3:1, 4:1 row 6) make each probability a [min, max] range"}};
  json attacks = json::array(), exact_attacks = json::array();
  for (const auto& a : r.attacks) {
    json row{{"attack", a.id},
             {"turn", a.turn},
             {"date", ar::date_text(a.turn)},
             {"british_goal", a.british_goal},
             {"odds", std::to_string(a.column) + ":1"}},
        e = json::object();
    put_interval(row, e, "reached", a.reached);
    put_interval(row, e, "major_success", a.major_success);
    attacks.push_back(row);
    exact_attacks.push_back(e);
  }
  doc["attacks"] = attacks;
  // Each Game-Turn's goal, in spans of turns with the same goal.
  const std::string goal_source = plan.goals.stated
                                      ? (vm.count("british-goal") ? "--british-goal " : "the plan's british_goal ") +
                                            std::to_string(*plan.goals.stated)
                                      : std::string("the Errata's goal for the period");
  json goals = json::array();
  for (std::size_t t = 0; t < r.turns.size(); ++t) {
    const int turn = r.turns[t], goal = r.goal_by_turn[t];
    const std::string source =
        plan.goals.stated ? goal_source : "Errata " + option_table.period_of_year(ar::date_of_turn(turn).year).period;
    if (!goals.empty() && goals.back().at("goal") == goal && goals.back().at("source") == source) {
      goals.back()["to_turn"] = turn;
      goals.back()["to"] = ar::date_text(turn);
      continue;
    }
    goals.push_back(json{{"from_turn", turn},
                         {"from", ar::date_text(turn)},
                         {"to_turn", turn},
                         {"to", ar::date_text(turn)},
                         {"source", source},
                         {"adjustment", plan.goals.adjustment},
                         {"goal", goal},
                         {"after_two_major_successes", goal / 2}});
  }
  doc["goals"] = goals;
  // Control of each followed Region at the end of its attack's Game-Turn (Control and American Militia).
  json control = json::array(), exact_control = json::array();
  for (std::size_t i = 0; i < r.attacks.size(); ++i) {
    const auto& a = r.attacks[i];
    if (!a.judges_control) continue;
    const auto& region = plan.regions[static_cast<std::size_t>(plan.attacks[i].region)];
    json row = json::object(), e = json::object();
    row["attack"] = a.id;
    row["turn"] = a.turn;
    row["region"] = region.name;
    row["victory_points"] = region.victory_points;
    put_interval(row, e, "british_control", a.british_control);
    put_interval(row, e, "american_control", a.american_control);
    control.push_back(row);
    exact_control.push_back(e);
  }
  if (!control.empty()) doc["region_control"] = control;
  json summary = json::object(), exact_summary = json::object();
  for (int k = 1; k <= 3; ++k)
    put_interval(summary, exact_summary, "at_least_" + std::to_string(k) + "_major_successes",
                 r.at_least[static_cast<std::size_t>(k)]);
  put_interval(summary, exact_summary, "american_victory", r.american_victory);
  put_interval(summary, exact_summary, "british_victory", r.british_victory);
  put_interval(summary, exact_summary, "partial_withdrawal", r.partial_withdrawal);
  doc["summary"] = summary;
  json french = json::array(), exact_french = json::array();
  for (std::size_t t = 0; t < r.turns.size(); ++t) {
    json row{{"turn", r.turns[t]}, {"date", ar::date_text(r.turns[t])}}, e = json::object();
    put_interval(row, e, "french_arrival_triggered", r.french_triggered_by[t]);
    put_interval(row, e, "french_permanent_arrived", r.french_permanent_by[t]);
    french.push_back(row);
    exact_french.push_back(e);
  }
  doc["french_arrival"] = french;
  json moves = json::array(), exact_moves = json::array();
  for (std::size_t i = 0; i < r.british_moves.size(); ++i) {
    const auto& m = r.british_moves[i];
    moves.push_back(json{{"move", plan.british_moves[i].id},
                         {"turn", plan.british_moves[i].turn},
                         {"date", ar::date_text(plan.british_moves[i].turn)},
                         {"areas", m.rolls},
                         {"groups", m.groups},
                         {"one_group_arrives", to_double(m.arrive)},
                         {"at_least_one_arrives", to_double(m.at_least_one_arrives)},
                         {"expected_areas_one_group", to_double(mean(m.reached))}});
    exact_moves.push_back(json{{"one_group_arrives", to_fraction_string(m.arrive)},
                               {"at_least_one_arrives", to_fraction_string(m.at_least_one_arrives)}});
  }
  if (!moves.empty()) doc["british_moves"] = moves;
  doc["exact"] = json{{"attacks", exact_attacks}, {"summary", exact_summary}, {"french_arrival", exact_french}};
  if (!control.empty()) doc["exact"]["region_control"] = exact_control;
  if (!moves.empty()) doc["exact"]["british_moves"] = exact_moves;
  std::string goal_note;
  const std::string adjustment =
      plan.goals.adjustment == 0 && !options_used
          ? std::string()
          : fmt::format("{} {:+d} (the net adjustment of --use {})", plan.goals.stated ? "" : ", each",
                        plan.goals.adjustment, option_letters_text(options_used->letters));
  if (plan.goals.stated) {
    goal_note = "British goal: " + goal_source + adjustment +
                " on every Game-Turn, in place of the Errata's 41 (1775-1776), 51 (1777-1778), 61 (1779-1783)" +
                (stated_in_plan && vm.count("british-goal") ? " (the plan's own is overridden)" : "");
  } else {
    goal_note = "British goal: the Errata's by period, 41 for 1775-1776, 51 for 1777-1778, 61 for 1779-1783" +
                adjustment + "; each Game-Turn is judged against its own (goals; Game-Turn 1 is Spring 1775)";
  }
  bool forces_changed = false;
  for (const auto& e : effects) forces_changed = forces_changed || !e.attacks_changed.empty();
  json notes = json::array(
      {std::string("each attack is resolved on the forces the plan gives it") +
           (forces_changed ? " as --use's options change them (options.forces)" : "") +
           "; Major Success: a De or 1/2De eliminating 5+ British Regular points; Partial Withdrawal the first time "
           "15+ are",
       goal_note,
       "American victory: a third Major Success, or a second with the British controlling fewer than half the "
       "Game-Turn's goal, rounded down (after_two_major_successes), judged again at the end of every Game-Turn "
       "through last_turn (british_vp " +
           std::to_string(plan.british_vp) +
           "); British victory: the British control the Game-Turn's goal at its end (Victory Conditions)",
       "French Arrival: the first Major Success triggers it; the Permanent Reinforcements arrive six Game-Turns later",
       "Region control (an attack with \"region\"): judged at the end of its Game-Turn from the combat's survivors, "
       "who "
       "stay, and the rest of the Region the plan gives: British if every Militia point is gone and the open British "
       "points reach the Region's Victory Points plus the open Continental and French points, American if no open "
       "British point is left, else disputed; the British Victory Points follow from then on",
       "British moves (Land Movement case K): each Area entered and each sea move fails on 1-2; a group stops at the "
       "first failure",
       "_min and _max differ only where a blank CRT cell could change a Major Success; both ends are exact"});
  if (options_used) {
    const auto& a = *options_used;
    const std::string letters = option_letters_text(a.letters);
    json changes = json::array(), rules = json::array(), period_goals = json::array(), applied = json::array();
    for (char c : a.letters) {
      const auto& o = option_table.option(c);
      if (o.kind != "table") rules.push_back(json{{"option", std::string(1, c)}, {"kind", o.kind}, {"rule", o.rule}});
      for (const auto& ch : o.changes)
        changes.push_back(json{{"option", std::string(1, c)},
                               {"year", ch.year},
                               {"season", ch.season},
                               {"points", ch.points ? json(*ch.points) : json()},
                               {"source", ch.source}});
    }
    for (const auto& g : a.goals) period_goals.push_back(json{{"period", g.period}, {"goal", g.goal}});
    for (const auto& e : effects) {
      applied.push_back(json{{"option", std::string(1, e.option)},
                             {"applied", e.applied},
                             {"what", e.what},
                             {"attacks_changed", e.attacks_changed}});
      notes.push_back(std::string("--use ") + e.option + ": " + e.what +
                      (e.attacks_changed.empty()
                           ? std::string()
                           : " (" + std::to_string(e.attacks_changed.size()) + " attack(s) changed)"));
    }
    doc["options"] = json{{"use", letters},
                          {"legality", ar::to_string(a.status)},
                          {"reasons", a.reasons},
                          {"net_adjustment", a.net},
                          {"goals_by_period", period_goals},
                          {"forces", applied},
                          {"reinforcement_changes", changes},
                          {"rule_changes", rules}};
    if (a.net_alternative) doc["options"]["net_adjustment_alternative"] = *a.net_alternative;
    if (a.status == ar::legality::unknown) {
      std::string why;
      for (const auto& reason : a.reasons) why += (why.empty() ? "" : "; ") + reason;
      notes.push_back("the option set's legality is unknown: " + why);
    }
  }
  if (plan.prior_major_successes > 0)
    notes.push_back("the plan starts after " + std::to_string(plan.prior_major_successes) +
                    " Major Success(es): the French Arrival was triggered before it, so its rows count none");
  doc["notes"] = notes;
  report out;
  out.document = doc;
  out.title = "American Revolution season: " + plan.name + " (" + std::to_string(plan.attacks.size()) + " attacks)";
  out.verdict = r.exact ? fmt::format("American victory {}, at least one Major Success {}",
                                      percent(to_double(r.american_victory.low)), percent(to_double(r.at_least[1].low)))
                        : fmt::format("American victory {} to {}", percent(to_double(r.american_victory.low)),
                                      percent(to_double(r.american_victory.high)));
  if (r.british_victory.high > 0)
    out.verdict += r.british_victory.low == r.british_victory.high
                       ? fmt::format(", British victory {}", percent(to_double(r.british_victory.low)))
                       : fmt::format(", British victory {} to {}", percent(to_double(r.british_victory.low)),
                                     percent(to_double(r.british_victory.high)));
  out.result_keys = {"attacks", "goals", "region_control", "summary", "french_arrival", "british_moves", "options"};
  if (options_used && options_used->status == ar::legality::unknown) {
    out.verdict += " (option set of unknown legality: see notes)";
    for (const auto& reason : options_used->reasons)
      out.legality_unknown += (out.legality_unknown.empty() ? "" : "; ") + reason;
  }
  return out;
}
#endif

#ifdef MUSKET_CAMPAIGN_GREAT_LAKES
// --- Great Lakes turn-by-turn plans -------------------------------------------------------------

// A simulated estimate's 95% Wilson interval, as every document writes one.
json estimate_interval(const proportion_interval& p) {
  return interval_json(p.lower, p.upper, 0.95);
}

report run_great_lakes_campaign_command(const po::variables_map& vm) {
  const auto data = musket::great_lakes::load_game_data(game_data_directory("gl"));
  const std::string file = string_option(vm, "file");
  json plan_json = read_json_input(file, "file");
  for (const char* side : {"american", "british"}) {
    const std::string option = std::string(side) + "-replacements";
    if (!vm.count(option)) continue;
    const int sp = vm[option].as<int>();
    require_in_range(option, sp, 0, 2, "replacement SP wanted per turn step (GL 9.1)");
    if (plan_json.is_object() && plan_json.contains("steps") && plan_json["steps"].is_array())
      for (auto& step : plan_json["steps"])
        if (step.is_object() && step.contains("kind") && step["kind"] == "turn" &&
            (!step.contains("replacements") || step["replacements"].is_object()))
          step["replacements"][side] = sp;
  }
  if (vm.count("erie-dice") && plan_json.is_object()) {
    // As `gl turn --erie-dice B,A`: the Lake Erie squadrons' dice, not in the rules text.
    const std::string text = vm["erie-dice"].as<std::string>();
    const auto dice = parse_whole_list(text, ',', 2, "erie-dice", "BRITISH,AMERICAN (e.g. 3,2)");
    require_in_range("erie-dice", dice[0], 1, 12, "British squadron dice");
    require_in_range("erie-dice", dice[1], 1, 12, "American squadron dice");
    plan_json["erie_dice"] = json::array({dice[0], dice[1]});
  }
  const auto plan = cp::parse_great_lakes_plan(plan_json, file, data);
  chain_simulation_options options;
  options.simulation.trials = count_option(vm, "trials");
  options.simulation.seed = count_option(vm, "seed");
  options.memory_bound_bytes = static_cast<std::size_t>(count_option(vm, "memory-mb")) << 20;
  attach_run_context(options.simulation);  // the dashboard's progress and cancel
  cp::great_lakes_campaign_result r;
  try {
    r = cp::run_great_lakes_campaign(plan, data, options);
  } catch (const memory_bound_exceeded& e) {
    throw invalid_input("memory-mb", e.what());
  } catch (const std::exception&) {
    if (run_cancel_requested()) throw run_cancelled();  // stopped before a trial was tallied
    throw;
  }
  if (r.trials == 0) throw run_cancelled();  // only a cancel stops it before the first trial
  json doc;
  doc["game"] = "gl";
  doc["command"] = "campaign";
  doc["inputs"] = json{{"file", file}, {"trials", options.simulation.trials}, {"seed", options.simulation.seed}};
  if (vm.count("erie-dice")) doc["inputs"]["erie-dice"] = vm["erie-dice"].as<std::string>();
  doc["method"] = json{{"name", "simulation"},
                       {"trials", r.trials},
                       {"seed", r.seed},
                       {"why",
                        "battles with carried-over units are rolled; every step is simulated, with 95% "
                        "Wilson intervals"}};
  if (r.trials < options.simulation.trials) doc["method"]["cancelled"] = true;
  json steps = json::array();
  std::vector<std::pair<std::string, json>> intervals;  // by dotted path, set once the document is built
  for (const auto& s : r.steps) {
    const std::string at = "steps." + std::to_string(steps.size()) + ".";
    steps.push_back(json{{"step", s.id},
                         {"turn", s.turn},
                         {"location", s.location},
                         {"method", "simulation"},
                         {"fought", s.fought.estimate},
                         {"attacker_wins", s.attacker_wins.estimate},
                         {"taken", s.taken.estimate},
                         {"not_there", s.not_there.estimate},
                         {"mean_american_sp", s.mean_sp[0]},
                         {"mean_british_sp", s.mean_sp[1]}});
    intervals.push_back({at + "fought", estimate_interval(s.fought)});
    intervals.push_back({at + "attacker_wins", estimate_interval(s.attacker_wins)});
    intervals.push_back({at + "taken", estimate_interval(s.taken)});
    intervals.push_back({at + "not_there", estimate_interval(s.not_there)});
  }
  doc["steps"] = steps;
  if (!r.turns.empty()) {
    // Turn steps: missions, each side's CAP (exact), who moves first, replacement SP bought.
    json turns = json::array();
    for (const auto& t : r.turns) {
      turns.push_back(json{{"step", t.id},
                           {"turn", t.turn},
                           {"british_missions", t.orders[1]},
                           {"american_missions", t.orders[0]},
                           {"british_cap", pmf_object(t.odds.cap[1])},
                           {"american_cap", pmf_object(t.odds.cap[0])},
                           {"mean_british_cap", mean(t.odds.cap[1])},
                           {"mean_american_cap", mean(t.odds.cap[0])},
                           {"americans_first", t.odds.americans_first},
                           {"british_first", 1 - t.odds.americans_first},
                           {"mean_british_replacement_sp", t.mean_replacement_sp[1]},
                           {"mean_american_replacement_sp", t.mean_replacement_sp[0]}});
    }
    doc["turns"] = turns;
  }
  json locations = json::array();
  for (const auto& l : r.locations) {
    const std::string at = "locations." + std::to_string(locations.size()) + ".";
    locations.push_back(json{{"location", l.location},
                             {"vp", l.vp},
                             {"earned_by", l.earned_by},
                             {"american_holds", l.american.estimate},
                             {"british_holds", l.british.estimate}});
    intervals.push_back({at + "american_holds", estimate_interval(l.american)});
    intervals.push_back({at + "british_holds", estimate_interval(l.british)});
  }
  doc["locations"] = locations;
  doc["american_vp"] = r.american_vp;
  doc["british_vp"] = r.british_vp;
  // GL 14.1: more VP wins, a tie to the British; british_vp_margin is British VP - American VP.
  json margin = json::object();
  for (std::size_t k = 0; k < r.vp_margin.size(); ++k)
    margin[std::to_string(r.vp_margin_lowest + static_cast<int>(k))] = r.vp_margin[k];
  doc["british_vp_margin"] = margin;
  doc["summary"] = json{{"british_wins", r.british_wins.estimate},
                        {"american_wins", r.american_wins.estimate},
                        {"british_automatic_victory", r.british_automatic.estimate},
                        {"american_automatic_victory", r.american_automatic.estimate},
                        {"british_vp_ahead", r.british_ahead.estimate},
                        {"vp_tied", r.tied.estimate},
                        {"mean_american_vp",
                         [&] {
                           double m = 0;
                           for (std::size_t v = 0; v < r.american_vp.size(); ++v)
                             m += static_cast<double>(v) * r.american_vp[v];
                           return m;
                         }()},
                        {"mean_british_vp", [&] {
                           double m = 0;
                           for (std::size_t v = 0; v < r.british_vp.size(); ++v)
                             m += static_cast<double>(v) * r.british_vp[v];
                           return m;
                         }()}};
  intervals.push_back({"summary.british_wins", estimate_interval(r.british_wins)});
  intervals.push_back({"summary.american_wins", estimate_interval(r.american_wins)});
  intervals.push_back({"summary.british_automatic_victory", estimate_interval(r.british_automatic)});
  intervals.push_back({"summary.american_automatic_victory", estimate_interval(r.american_automatic)});
  intervals.push_back({"summary.british_vp_ahead", estimate_interval(r.british_ahead)});
  intervals.push_back({"summary.vp_tied", estimate_interval(r.tied)});
  // GL 15.1's law is exact (the campaign draws from it): its fractions go under `exact`, so its
  // statistics are exact too and its "at least" reads 100% at the first turn, not ">99.9999%".
  const auto war_end = musket::great_lakes::resolve_war_end(data, plan.from_turn);
  json last = json::object(), last_exact = json::object();
  for (int t = war_end.last_turn.lowest(); t <= war_end.last_turn.highest(); ++t)
    if (war_end.last_turn[t] > 0) {
      last[std::to_string(t)] = to_double(war_end.last_turn[t]);
      last_exact[std::to_string(t)] = to_fraction_string(war_end.last_turn[t]);
    }
  doc["game_ends_after_turn"] = last;
  doc["exact"] = json{{"game_ends_after_turn", last_exact}};
  doc["notes"] = json::array(
      {"the war ends after turn 14-16 on a 6 and after 17-19 on a 5-6, always after 20 (GL 15.1, "
       "data/gl/war_end.json); "
       "steps scheduled after the last turn are not fought",
       "each field army carries its surviving units and their SP from battle to battle; a battle's extra units "
       "(garrison troops, reinforcements) fight only there",
       "a won attack takes the location if an attacking regular, militia or artillery unit survives (GL 14.5): "
       "`taken`; a battle the attacker does not win leaves the location with the defender and the attacker back "
       "where it came from (GL 12.6), so its later battles that turn are not fought (`not_there`)",
       "replacement SP go to the most damaged units first; a turn step buys "
       "them with that turn's CAP: 2 CAP per SP, at most 2 SP a turn (GL 9.1), after the CAP kept for movement "
       "(keep_cap, GL 10.1)",
       "a turn step's CAP is exact, from its missions as `gl turn` computes them: base + commander roll + "
       "successful supply missions, - 1 for a lost intercept-v-intercept battle (GL 5.4-5.7, 7.5, 7.8); the "
       "higher CAP moves first, ties to the Americans (GL 8.2); \"optimal\" is the mixed strategy of `gl "
       "missions` (objective: moving first)",
       "who wins the game: the side with more VP when it ends, a tie to the British (GL 14.1), unless a side holds "
       "every VP location on its opponent's side when a turn ends: an automatic victory that ends the game there, "
       "the British's if both do (GL 14.4); british_vp_margin is British VP - American VP at the end, so the "
       "British win on a margin of 0 or more when no automatic victory came first"});
  // VP are simulated; the war-end law and each turn's CAP are exact (no interval on their means).
  const simulation_basis basis{r.trials, 0.95};
  add_distribution_stats(doc, {"american_vp", "british_vp", "british_vp_margin"}, &basis);
  std::vector<distribution_path> exact_laws{"game_ends_after_turn"};
  for (std::size_t t = 0; t < r.turns.size(); ++t)
    for (const char* side : {"british_cap", "american_cap"})
      exact_laws.push_back("turns." + std::to_string(t) + "." + side);
  add_distribution_stats(doc, exact_laws);
  for (auto& [path, interval] : intervals) set_interval(doc, path, std::move(interval));
  report out;
  out.document = doc;
  out.title = "Great Lakes campaign: " + plan.name + " (" + std::to_string(plan.steps.size()) + " steps, simulated)";
  // Each figure with the summary's own mark ("-" where it is 0, as in the table below).
  out.verdict = fmt::format(
      "British win {}, Americans win {} (GL 14.1: a tie goes to the British); British ahead on VP {}, tied {}",
      percent_cell(r.british_wins.estimate), percent_cell(r.american_wins.estimate),
      percent_cell(r.british_ahead.estimate), percent_cell(r.tied.estimate));
  out.result_keys = {
      "steps", "locations", "summary", "american_vp", "british_vp", "british_vp_margin", "game_ends_after_turn"};
  if (!r.turns.empty()) out.result_keys.insert(out.result_keys.begin() + 1, "turns");
  if (!(vm.count("format") && vm["format"].as<std::string>() == "table")) out.result_keys.push_back("intervals");
  return out;
}
#endif

}  // namespace

void register_campaign_commands(command_registry& registry) {
  for (const std::string code : {"nt", "ss"}) {
    auto& game = registry.add_game(code, "");
    game.commands.push_back(command{
        "campaign", "a chain of marches, attacks and defences from a plan file: odds per step and at the end",
        [](po::options_description& o) {
          o.add_options()("file", po::value<std::string>()->required(), "the plan (JSON); see examples/")(
              "method", po::value<std::string>()->default_value("auto"),
              "exact | sim | auto (exact while the state space stays under --state-limit)")(
              "state-limit", whole_number(1, 50'000'000)->default_value(20000),
              "most exact states before switching to simulation")(
              "trials", whole_number(1000, 100'000'000)->default_value(200000), "simulated campaigns when simulating")(
              "seed", whole_number(0, 2'000'000'000)->default_value(1775), "simulation seed (same seed, same answer)")(
              "memory-mb", whole_number(1, 65536)->default_value(256), "memory bound for simulation tallies, MB")(
              "army-units", po::value<int>(), "override the plan's army.units (for sweeps)")(
              "army-leaders", po::value<int>(), "override the plan's army.leaders")("army-war", po::value<int>(),
                                                                                    "override the plan's army.war")(
              "army-food", po::value<int>(), "override the plan's army.food")("track-position", po::value<int>(),
                                                                              "override the plan's track.position");
        },
        [code](const po::variables_map& vm) { return run_campaign(code, vm); },
        "A plan: {\"game\", \"side\", \"army\": {units, leaders, war, food}, \"track\": {position, floor, lowest, "
        "highest},\n\"steps\": [{\"kind\": march|attack|defend|skirmish|dig_in|receive, ...}]}. Amounts may name a "
        "state field\n(\"war\": \"all\" or {\"field\": \"war\", \"at_most\": 4}); stop_if and jump_if take \"won\", "
        "\"lost\", \"taken\", \"not_taken\" or {\"field\": \"units\", \"below\": 3} (skip_if: the field form).\nAn "
        "attack takes its Area "
        "only when the defender retreats or surrenders (NT 8.7, SS 10.7); \"if_not_taken\": \"stop\" (default) | "
        "\"continue\" | {\"retry\": K}.\nAreas: \"start\", a march's \"to\", an attack's \"area\", any step's "
        "\"from\"; \"enemy\": {..., \"supplies\": {\"food\", \"war\"}} change hands.\nexample: musket " +
            code + " campaign --file examples/" + code + "-campaign.json"});
  }
  auto& ss = registry.add_game("ss", "");
  ss.commands.push_back(command{"siege", "turns until a besieged army surrenders, given its Food and a resupply chance",
                                [](po::options_description& o) {
                                  o.add_options()("food", whole_number(0, 99)->required(),
                                                  "Food Supplies with the besieged army")(
                                      "resupply", po::value<std::string>()->default_value("0"),
                                      "chance per turn that 1 Food reaches it (1/3, 0.25); 0 by the rules")(
                                      "turns", whole_number(1, 200)->default_value(12), "Turn Ends to follow");
                                },
                                run_siege, "example: musket ss siege --food 3 --resupply 1/6 --turns 10"});
  ss.commands.push_back(
      command{"navies", "where the two navies are, turn by turn, with the Winter Turns given",
              [](po::options_description& o) {
                o.add_options()("turns", whole_number(1, 200)->default_value(8), "turns to follow")(
                    "winter", po::value<std::string>(), "Winter Turns among them, e.g. 4,8")(
                    "crown-on-map", po::value<std::string>()->default_value("yes"), "yes | no at the start")(
                    "french-on-map", po::value<std::string>()->default_value("no"), "yes | no at the start");
              },
              run_navies, "example: musket ss navies --turns 8 --winter 4,8 --crown-on-map no"});
#ifdef MUSKET_CAMPAIGN_REVOLUTION
  if (registry.find_game("ar")) {
    auto& ar_game = registry.add_game("ar", "");
    ar_game.commands.push_back(command{
        "campaign", "a season of American attacks: Major Successes, French Arrival, American victory",
        [](po::options_description& o) {
          o.add_options()("file", po::value<std::string>()->required(), "the season plan (JSON); see examples/")(
              "crt", po::value<std::string>(), "a Combat Results Table file (JSON like data/ar/crt.json)")(
              "british-vp", po::value<int>(), "override the plan's british_vp (for sweeps)")(
              "british-goal", po::value<int>(),
              "the British goal for every Game-Turn in place of the Errata's 41/51/61 by period (overrides the plan's "
              "british_goal; --use adds its net adjustment)")("prior-major-successes", po::value<int>(),
                                                              "override the plan's prior_major_successes")(
              "use", po::value<std::string>(),
              "Variable Forces options, e.g. D,H, or \"none\" (the historical game): their net adjustment on every "
              "Game-Turn's goal; G, E, K change the attacks' forces (data/ar/options.json, as `ar options`)");
        },
        run_revolution_campaign_command, "example: musket ar campaign --file examples/ar-campaign.json"});
  }
#endif
#ifdef MUSKET_CAMPAIGN_GREAT_LAKES
  if (registry.find_game("gl")) {
    auto& gl_game = registry.add_game("gl", "");
    gl_game.commands.push_back(command{
        "campaign", "a turn-by-turn plan of battles with survivors carried: who holds each VP location, VP totals",
        [](po::options_description& o) {
          o.add_options()("file", po::value<std::string>()->required(), "the plan (JSON); see examples/")(
              "trials", whole_number(1000, 100'000'000)->default_value(20000), "simulated campaigns")(
              "seed", whole_number(0, 2'000'000'000)->default_value(1812), "simulation seed (same seed, same answer)")(
              "memory-mb", whole_number(1, 65536)->default_value(256), "memory bound for simulation tallies, MB")(
              "american-replacements", whole_number(0, 2),
              "override the American SP wanted in every turn step (bought with CAP)")(
              "british-replacements", whole_number(0, 2),
              "override the British SP wanted in every turn step (bought with CAP)")(
              "erie-dice", po::value<std::string>(),
              "Lake Erie squadron dice BRITISH,AMERICAN for turn steps (not in our rules text: required when an "
              "Erie ship battle can occur)");
        },
        run_great_lakes_campaign_command, "example: musket gl campaign --file examples/gl-campaign.json"});
  }
#endif
}

}  // namespace musket::cli
