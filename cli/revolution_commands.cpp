// `musket ar ...`: SPI's American Revolution 1775-1783. Thin: options in, calc/revolution out,
// report built; every rule lives in calc/revolution and every printed table in data/ar.
#include <fmt/format.h>

#include "calc/revolution/attrition.hpp"
#include "calc/revolution/combat.hpp"
#include "calc/revolution/levy.hpp"
#include "calc/revolution/movement.hpp"
#include "cli/command.hpp"
#include "cli/data_location.hpp"
#include "cli/result_statistics.hpp"
#include "cli/revolution_input.hpp"
#include "cli/sweep_axes.hpp"
#include "core/invalid_input.hpp"

namespace musket::cli {

namespace revolution_input {

std::string data_file(const std::string& name) {
  return game_data_directory("ar") + "/" + name;
}

json ar_document(const std::string& command, const po::variables_map& vm) {
  return cli::base_document("ar", command, vm);
}

json bounds_exact(const ar::probability_bounds& b) {
  return json{{"min", to_fraction_string(b.min)}, {"max", to_fraction_string(b.max)}};
}

// --- battle inputs ----------------------------------------------------------------------------

void add_battle_options(po::options_description& o, bool required) {
  auto text = [&] { return required ? po::value<std::string>()->required() : po::value<std::string>(); };
  o.add_options()("attacker", text(), "attacking Strength Points, e.g. \"15M,8C\" (B, T | C, M, F, SF)")(
      "defender", text(), "defending Strength Points, e.g. \"3T,8B\"")(
      "fort",
      "the defenders are in a Fort (x3); American: at most 5 points, Militia no more than Continentals + French (case "
      "F)")("besieging", "the defenders are besieging and attacked solely from the Fort (x2)")(
      "loss-policy", po::value<std::string>()->default_value("protect-regulars"),
      "protect-regulars | protect-irregulars: the owner's choice after the first two points lost")(
      "crt", po::value<std::string>(), "a complete Combat Results Table (JSON like data/ar/crt.json)");
}

ar::battle_setup read_battle(const po::variables_map& vm) {
  ar::battle_setup s;
  s.attacker = ar::parse_force(string_option(vm, "attacker"), "attacker");
  s.defender = ar::parse_force(string_option(vm, "defender"), "defender");
  s.fort = flag_option(vm, "fort");
  s.besieging = flag_option(vm, "besieging");
  s.policy = ar::parse_loss_policy(string_option(vm, "loss-policy"), "loss-policy");
  return s;
}

ar::crt_table read_crt(const po::variables_map& vm) {
  if (vm.count("crt")) return ar::load_crt({vm["crt"].as<std::string>(), "crt"});
  return ar::load_crt({data_file("crt.json"), ""});
}

}  // namespace revolution_input

using namespace revolution_input;

namespace {

json bounds_json(const ar::probability_bounds& b) {
  return json{{"min", to_double(b.min)}, {"max", to_double(b.max)}};
}
// A plain number when nothing unknown touches it, else {"min", "max"}.
json maybe_bounds(const ar::probability_bounds& b) {
  return b.exact() ? json(to_double(b.min)) : bounds_json(b);
}
json maybe_bounds_exact(const ar::probability_bounds& b) {
  return b.exact() ? json(to_fraction_string(b.min)) : bounds_exact(b);
}
std::string bounds_text(const ar::probability_bounds& b) {
  return b.exact() ? percent(to_double(b.min)) : percent(to_double(b.min)) + " to " + percent(to_double(b.max));
}

// --- battle -----------------------------------------------------------------------------------

std::string unknown_note(const ar::crt_table& table, const ar::battle_result& res) {
  return fmt::format(
      "{} of this column's six CRT entries {} unknown ({}: {}); the unknown mass is reported as `unknown` and every "
      "probability it could change is given as {{min, max}} over De, 1/2De and 1/2Ex. Supply a complete table with "
      "--crt FILE",
      res.unknown_faces, res.unknown_faces == 1 ? "is" : "are", ar::column_name(res.o.column),
      [&] {
        std::string rows;
        for (int die = 1; die <= 6; ++die)
          if (!table.at(res.o.column, die).result) rows += (rows.empty() ? "row " : ", row ") + std::to_string(die);
        return rows;
      }(),
      table.at(res.o.column, 6).result ? std::string("blank in the table") : table.at(res.o.column, 6).source);
}

json battle_notes(const ar::crt_table& table, const ar::battle_setup& s, const ar::battle_result& res) {
  json notes = json::array();
  notes.push_back(
      fmt::format("odds {} to {}{} rounded in the defender's favour to {} (Combat procedure; above 4:1 is 4:1)",
                  res.o.attacker, res.o.defender_effective,
                  res.o.multiplier == 3   ? " (defender in a Fort, x3)"
                  : res.o.multiplier == 2 ? " (besieging, attacked solely from the Fort, x2)"
                                          : "",
                  ar::column_name(res.o.column)));
  notes.push_back(
      "losses are at basic strength, halves rounded up; 1/2Ex costs the attacker as many points as the defender "
      "(Combat G)");
  notes.push_back(
      fmt::format("loss order: the first point lost is a Tory/Militia point, the second a Regular/Continental point, "
                  "the rest by the owner's choice: {} (RULINGS.md); American regulars go Continentals, then "
                  "French Seasonal, then French Permanent",
                  ar::to_string(s.policy)));
  if (s.attacker.owner == ar::side::american)
    notes.push_back(
        "Major Success: a De or 1/2De (never 1/2Ex) eliminating 5+ British Regular points; Partial Withdrawal at 15+, "
        "the first time it happens (Major Success)");
  else
    notes.push_back("a British attack never scores a Major Success or a Partial Withdrawal: both are 0");
  if (s.fort && s.defender.owner == ar::side::american)
    notes.push_back(
        "an American Fort holds at most 5 Strength Points, with at least as many Continental (or French) as Militia "
        "points (Combat case F, Fortifications E); a Fort beyond either limit is refused as bad input");
  if (res.unknown_faces > 0) notes.push_back(unknown_note(table, res));
  if (s.attacker[ar::unit_type::french_seasonal] + s.defender[ar::unit_type::french_seasonal] > 0)
    notes.push_back("French Seasonal units fight only in Summer and Fall (French Arrival A)");
  return notes;
}

report run_battle(const po::variables_map& vm) {
  const ar::battle_setup s = read_battle(vm);
  const ar::crt_table table = read_crt(vm);
  const ar::battle_result res = ar::resolve_battle(table, s);
  report r;
  r.document = ar_document("battle", vm);
  json& doc = r.document;
  doc["column"] = ar::column_name(res.o.column);
  doc["odds"] = json{{"attacker", res.o.attacker},
                     {"defender", res.o.defender},
                     {"defender_multiplier", res.o.multiplier},
                     {"defender_effective", res.o.defender_effective}};
  json results = json::object(), results_exact = json::object();
  for (auto c : ar::all_crt_results) {
    results[ar::key(c)] = to_double(res.probability(c));
    results_exact[ar::key(c)] = to_fraction_string(res.probability(c));
  }
  results["unknown"] = to_double(res.unknown());
  results_exact["unknown"] = to_fraction_string(res.unknown());
  doc["results"] = results;
  json def = json::object(), def_exact = json::object(), att = json::object(), att_exact = json::object();
  for (const auto& b : ar::defender_loss_bounds(res)) {
    def[std::to_string(b.points)] = maybe_bounds(b.p);
    def_exact[std::to_string(b.points)] = maybe_bounds_exact(b.p);
  }
  for (const auto& b : ar::attacker_loss_bounds(res)) {
    att[std::to_string(b.points)] = maybe_bounds(b.p);
    att_exact[std::to_string(b.points)] = maybe_bounds_exact(b.p);
  }
  doc["defender_losses"] = def;
  doc["attacker_losses"] = att;
  const auto major = res.major_success();
  const auto withdrawal = res.partial_withdrawal();
  doc["major_success"] = bounds_json(major);
  doc["partial_withdrawal"] = bounds_json(withdrawal);
  json outcomes = json::array(), outcomes_exact = json::array();
  for (auto c : ar::all_crt_results) {
    const auto& o = res.outcome(c);
    if (res.faces[static_cast<std::size_t>(c)] == 0) continue;
    outcomes_exact.push_back(json{{"probability", to_fraction_string(res.probability(c))}});
    outcomes.push_back(json{{"result", ar::label(c)},
                            {"probability", to_double(res.probability(c))},
                            {"defender_loses", ar::to_string(o.defender_lost)},
                            {"attacker_loses", ar::to_string(o.attacker_lost)},
                            {"major_success", o.major_success}});
  }
  if (res.unknown_faces > 0) outcomes_exact.push_back(json{{"probability", to_fraction_string(res.unknown())}});
  if (res.unknown_faces > 0)
    outcomes.push_back(json{{"result", "unknown"},
                            {"probability", to_double(res.unknown())},
                            {"defender_loses", "?"},
                            {"attacker_loses", "?"},
                            {"major_success", nullptr}});
  doc["outcomes"] = outcomes;
  doc["exact"] = json{{"results", results_exact},
                      {"defender_losses", def_exact},
                      {"attacker_losses", att_exact},
                      {"major_success", bounds_exact(major)},
                      {"partial_withdrawal", bounds_exact(withdrawal)},
                      {"outcomes", outcomes_exact}};
  doc["notes"] = battle_notes(table, s, res);
  r.title = fmt::format("American Revolution battle: {} {} ({}) attack {} {} ({}){}: {}",
                        ar::to_string(s.attacker.owner), ar::to_string(s.attacker.points), res.o.attacker,
                        ar::to_string(s.defender.owner), ar::to_string(s.defender.points), res.o.defender,
                        s.fort        ? " in a Fort"
                        : s.besieging ? " besieging"
                                      : "",
                        ar::column_name(res.o.column));
  r.verdict =
      fmt::format("defender eliminated {}; Major Success {}{}", percent(to_double(res.probability(ar::crt_result::De))),
                  bounds_text(major),
                  res.unknown_faces ? fmt::format("; {} of the table is unknown", percent(to_double(res.unknown())))
                                    : std::string());
  r.result_keys = {"column",  "results", "defender_losses", "attacker_losses", "major_success", "partial_withdrawal",
                   "outcomes"};
  return r;
}

// --- move -----------------------------------------------------------------------------------

report run_move(const po::variables_map& vm) {
  const bool sea = flag_option(vm, "sea");
  if (sea && vm.count("areas"))
    throw invalid_input("areas", "a sea move is a single roll; give --sea or --areas N, not both");
  if (!sea && !vm.count("areas")) throw invalid_input("areas", "is required (1..5 Areas), or give --sea");
  const int rolls = sea ? 1 : int_option(vm, "areas");
  const int groups = int_option(vm, "groups");
  if (sea && groups != 1)
    throw invalid_input("groups", "only one sea move may be attempted a phase (Sea Movement C); allowed 1 with --sea");
  const auto res = ar::british_movement(rolls, groups);
  report r;
  r.document = ar_document("move", vm);
  json& doc = r.document;
  doc["rolls"] = rolls;
  doc["arrive"] = to_double(res.arrive);
  doc["at_least_one_arrives"] = to_double(res.at_least_one_arrives);
  doc["reached"] = probability_array(res.reached);
  doc["furthest"] = probability_array(res.furthest);
  doc["expected_areas_reached"] = to_double(mean(res.reached));
  doc["exact"] = json{{"arrive", to_fraction_string(res.arrive)},
                      {"at_least_one_arrives", to_fraction_string(res.at_least_one_arrives)},
                      {"reached", exact_array(res.reached)},
                      {"furthest", exact_array(res.furthest)},
                      {"expected_areas_reached", to_fraction_string(mean(res.reached))}};
  add_distribution_stats(doc, {"reached", "furthest"});
  doc["notes"] = json::array(
      {"each Area a British group tries to enter by land, and each sea move, fails on a 1 or 2: the group stops there "
       "(Land Movement K, Sea Movement procedure); it arrives with (2/3)^n",
       "reached[k] is how many Areas one group gets along its path; furthest[k] the furthest any of the groups gets",
       "groups roll independently; only British Regulars and Tories roll; no British movement in Winter (Land Movement "
       "R)"});
  r.title = sea ? "American Revolution British sea move (one roll)"
                : fmt::format("American Revolution British land move: {} Area(s), {} group(s)", rolls, groups);
  r.verdict = fmt::format("one group arrives {} ({}); at least one of {} arrives {}", percent(to_double(res.arrive)),
                          to_fraction_string(res.arrive), groups, percent(to_double(res.at_least_one_arrives)));
  r.result_keys = {"arrive", "at_least_one_arrives", "reached", "furthest", "expected_areas_reached"};
  return r;
}

// --- attrition --------------------------------------------------------------------------------

report run_attrition(const po::variables_map& vm) {
  const int strength = int_option(vm, "strength");
  ar::loss_fraction fraction;
  ar::die_faces survive{};
  std::string row_label;
  if (vm.count("row")) {
    if (vm.count("loss-fraction") || vm.count("survive-on"))
      throw invalid_input("row", "give --row or --loss-fraction with --survive-on, not both");
    const auto table = ar::load_attrition({data_file("attrition.json"), ""});
    row_label = vm["row"].as<std::string>();
    if (!table.transcribed)
      throw invalid_input("row",
                          "the Winter Attrition Table is not in our transcript (data/ar/attrition.json has no rows); "
                          "give --loss-fraction and --survive-on from the printed table");
    const auto it =
        std::find_if(table.rows.begin(), table.rows.end(), [&](const auto& x) { return x.label == row_label; });
    if (it == table.rows.end()) {
      std::string labels;
      for (const auto& x : table.rows) labels += (labels.empty() ? "" : ", ") + x.label;
      throw invalid_input("row", "'" + row_label + "' is not a row; allowed: " + labels);
    }
    fraction = it->fraction;
    survive = it->survive_on;
  } else {
    fraction = ar::parse_loss_fraction(string_option(vm, "loss-fraction"), "loss-fraction");
    survive = ar::parse_faces(string_option(vm, "survive-on"), "survive-on");
  }
  const auto res = ar::winter_attrition(strength, fraction, survive);
  report r;
  r.document = ar_document("attrition", vm);
  json& doc = r.document;
  doc["loss_fraction"] = ar::to_string(fraction);
  doc["survive_on"] = ar::to_string(survive);
  doc["certain_losses"] = res.certain_losses;
  doc["certain_survivors"] = res.certain_survivors;
  doc["left_over"] = res.left_over;
  doc["survive_each"] = to_double(res.survive_each);
  doc["survivors"] = probability_array(res.survivors);
  doc["losses"] = probability_array(res.losses);
  doc["expected_survivors"] = to_double(mean(res.survivors));
  doc["exact"] = json{{"survive_each", to_fraction_string(res.survive_each)},
                      {"survivors", exact_array(res.survivors)},
                      {"losses", exact_array(res.losses)},
                      {"expected_survivors", to_fraction_string(mean(res.survivors))}};
  add_distribution_stats(doc, {"survivors", "losses"});
  doc["notes"] =
      json::array({"the Area's Continentals lose the table's fraction; each point left over when it does not divide "
                   "evenly (at most "
                   "two) rolls a die and survives on the table's numbers (Sequence of Play D)",
                   "the Winter Attrition Table is not in our transcript: the fraction and survival numbers are inputs",
                   "Militia and French are never affected (Irregular Forces F; French Arrival D)"});
  r.title = fmt::format("American Revolution winter attrition: {} Continentals lose {}, left-over points survive on {}",
                        strength, ar::to_string(fraction), ar::to_string(survive));
  r.verdict = fmt::format("{} certainly lost, {} left-over point(s) roll for survival; expected survivors {:.2f}",
                          res.certain_losses, res.left_over, to_double(mean(res.survivors)));
  r.result_keys = {"loss_fraction", "survive_on", "certain_losses", "certain_survivors", "left_over",
                   "survive_each",  "survivors",  "losses",         "expected_survivors"};
  return r;
}

// --- levy -------------------------------------------------------------------------------------

std::vector<std::string> split_names(const std::string& text) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start < text.size()) {
    const std::size_t comma = text.find(',', start);
    std::string item = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    start = comma == std::string::npos ? text.size() : comma + 1;
    const auto b = item.find_first_not_of(' ');
    const auto e = item.find_last_not_of(' ');
    if (b != std::string::npos) out.push_back(item.substr(b, e - b + 1));
  }
  return out;
}

report run_levy(const po::variables_map& vm) {
  const bool user_chart = vm.count("chart") > 0;
  const ar::data_source chart_source = user_chart ? ar::data_source{vm["chart"].as<std::string>(), "chart"}
                                                  : ar::data_source{data_file("levy.json"), ""};
  const auto chart = ar::load_levy_chart(chart_source);
  const auto regions = ar::load_regions({data_file("regions.json"), ""});
  const auto controlled = vm.count("british-controlled") ? split_names(vm["british-controlled"].as<std::string>())
                                                         : std::vector<std::string>{};
  const auto res = ar::continental_levy(chart, "chart", regions, controlled, int_option(vm, "turns"),
                                        int_option(vm, "rolls-per-turn"));
  report r;
  r.document = ar_document("levy", vm);
  json& doc = r.document;
  doc["rolls"] = res.rolls;
  doc["per_roll"] = probability_array(res.per_roll);
  doc["total"] = probability_array(res.total);
  doc["expected_per_roll"] = to_double(mean(res.per_roll));
  doc["expected_total"] = to_double(mean(res.total));
  json by_region = json::object(), by_region_exact = json::object();
  for (std::size_t i = 0; i < res.regions.size(); ++i) {
    by_region[res.regions[i]] = json{{"expected_per_roll", to_double(mean(res.region_per_roll[i]))},
                                     {"expected_total", to_double(mean(res.region_total[i]))},
                                     {"per_roll", probability_array(res.region_per_roll[i])}};
    by_region_exact[res.regions[i]] = json{{"expected_per_roll", to_fraction_string(mean(res.region_per_roll[i]))},
                                           {"expected_total", to_fraction_string(mean(res.region_total[i]))},
                                           {"per_roll", exact_array(res.region_per_roll[i])}};
  }
  doc["by_region"] = by_region;
  doc["exact"] = json{{"per_roll", exact_array(res.per_roll)},
                      {"total", exact_array(res.total)},
                      {"expected_per_roll", to_fraction_string(mean(res.per_roll))},
                      {"expected_total", to_fraction_string(mean(res.total))},
                      {"by_region", by_region_exact}};
  std::vector<distribution_path> levies{"per_roll", "total"};
  for (const auto& region : res.regions) levies.push_back("by_region." + region + ".per_roll");
  add_distribution_stats(doc, levies);
  json notes = json::array();
  notes.push_back(
      "each roll raises the Continental allowance of every Region the chart names for that face (Sequence of Play C; "
      "Reinforcements A); Regions the British control raise nothing (Reinforcements C)");
  notes.push_back("chart: " + chart_source.path + " (" + chart.source + ")");
  notes.push_back(
      "Continental allowances from regions.json (a published review of the game) unless the chart gives a number");
  if (!controlled.empty()) {
    std::string list;
    for (const auto& c : controlled) list += (list.empty() ? "" : ", ") + c;
    notes.push_back("British-controlled: " + list);
  }
  doc["notes"] = notes;
  r.title = fmt::format("American Revolution Continental levy: {} roll(s)", res.rolls);
  r.verdict = fmt::format("expected Continentals {:.2f} a roll, {:.2f} over {} roll(s)", to_double(mean(res.per_roll)),
                          to_double(mean(res.total)), res.rolls);
  r.result_keys = {"rolls", "per_roll", "expected_per_roll", "total", "expected_total", "by_region"};
  return r;
}

// A sweep can vary one type's points inside --attacker / --defender "15M,8C":
// `--vary att-continentals=2..12` (0 drops the type; the command judges the force).
void add_force_fields(game_entry& game, const std::string& command_name) {
  const std::pair<const char*, ar::unit_type> types[] = {
      {"regulars", ar::unit_type::regular},         {"tories", ar::unit_type::tory},
      {"continentals", ar::unit_type::continental}, {"militia", ar::unit_type::militia},
      {"french", ar::unit_type::french_permanent},  {"french-seasonal", ar::unit_type::french_seasonal}};
  for (const auto& [prefix, option] : {std::pair<const char*, const char*>{"att", "attacker"}, {"def", "defender"}})
    for (const auto& [name, type] : types)
      game.sweep_fields.push_back(
          {command_name, std::string(prefix) + "-" + name, option,
           std::string("--") + option + " points of type " + ar::letters(type) + " (e.g. \"15M,8C\")",
           [type = type, option = std::string(option)](const std::string& text, int v) {
             ar::force f;
             try {
               f = ar::parse_force(text, option);
             } catch (const invalid_input&) {
               return text;  // the command reports the force as written
             }
             f[type] = v;
             return ar::to_string(f.points);
           }});
}

}  // namespace

void register_revolution_commands(command_registry& registry) {
  game_entry& game = registry.add_game("ar", "SPI American Revolution 1775-1783");
  for (ar::unit_type t : ar::all_unit_types) game.word_choices["force_letter"].push_back(ar::letters(t));
  game.commands.push_back(
      {"battle", "odds column, CRT results, losses by type, Major Success and Partial Withdrawal",
       [](po::options_description& o) { add_battle_options(o, true); }, run_battle,
       "example: musket ar battle --attacker \"15M,8C\" --defender \"3T,8B\"   (23 v 11: 2:1)\n"
       "The 3:1 and 4:1 row-6 entries are unknown in our transcript; affected probabilities are {min, max}."});
  game.commands.push_back({"move", "British movement (case K): how far a group gets, P(arrive), P(one of G arrives)",
                           [](po::options_description& o) {
                             o.add_options()("areas", whole_number(1, 5), "Areas on the path")(
                                 "groups", whole_number(1, 20)->default_value(1), "groups with the same target")(
                                 "sea", "a sea move: one roll");
                           },
                           run_move, "example: musket ar move --areas 3 --groups 2"});
  game.commands.push_back(
      {"attrition", "winter attrition of an Area's Continentals: survivors",
       [](po::options_description& o) {
         o.add_options()("strength", whole_number(0, 999)->required(), "Continental Strength Points in the Area")(
             "loss-fraction", po::value<std::string>(), "the table's loss fraction: 0, 1/3, 1/2, 2/3, 1")(
             "survive-on", po::value<std::string>(), "die numbers a left-over point survives on, e.g. \"5-6\"")(
             "row", po::value<std::string>(), "a row of data/ar/attrition.json (once transcribed)");
       },
       run_attrition, "example: musket ar attrition --strength 8 --loss-fraction 1/3 --survive-on 5-6"});
  game.commands.push_back(
      {"levy", "Continental levy from a levy chart: Continentals raised per roll and over turns",
       [](po::options_description& o) {
         o.add_options()("chart", po::value<std::string>(), "the Continental Levy Chart (JSON like data/ar/levy.json)")(
             "turns", whole_number(1, 36)->default_value(1), "Game-Turns")(
             "rolls-per-turn", whole_number(1, 3)->default_value(1), "levy rolls a turn")(
             "british-controlled", po::value<std::string>(), "Regions the British control, comma-separated");
       },
       run_levy, "The chart is not in our transcript: supply it with --chart FILE."});
  game.commands.push_back(revolution_options_command());
  add_force_fields(game, "battle");
  add_force_fields(game, "options");
}

}  // namespace musket::cli
