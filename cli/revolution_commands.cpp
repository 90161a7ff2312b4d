// `musket ar ...`: SPI's American Revolution 1775-1783. Thin: options in, calc/revolution out,
// report built; every rule lives in calc/revolution and every printed table in data/ar.
#include <fmt/format.h>

#include "calc/revolution/attrition.hpp"
#include "calc/revolution/combat.hpp"
#include "calc/revolution/levy.hpp"
#include "calc/revolution/movement.hpp"
#include "calc/revolution/option_compare.hpp"
#include "calc/revolution/options.hpp"
#include "cli/command.hpp"
#include "core/invalid_input.hpp"

namespace musket::cli {

namespace ar = musket::revolution;

namespace {

std::string data_file(const std::string& name) {
  return ar::data_directory(MUSKET_DATA_DIR) + "/" + name;
}

json base_document(const std::string& command, const po::variables_map& vm) {
  return cli::base_document("ar", command, vm);
}

json bounds_json(const ar::probability_bounds& b) {
  return json{{"min", to_double(b.min)}, {"max", to_double(b.max)}};
}
json bounds_exact(const ar::probability_bounds& b) {
  return json{{"min", to_fraction_string(b.min)}, {"max", to_fraction_string(b.max)}};
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

// --- battle ---------------------------------------------------------------------------------

void add_battle_options(po::options_description& o, bool required) {
  auto text = [&] { return required ? po::value<std::string>()->required() : po::value<std::string>(); };
  o.add_options()("attacker", text(), "attacking Strength Points, e.g. \"15M,8C\" (B, T | C, M, F, SF)")(
      "defender", text(), "defending Strength Points, e.g. \"3T,8B\"")("fort", "the defenders are in a Fort (x3)")(
      "besieging", "the defenders are besieging and attacked solely from the Fort (x2)")(
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
  r.document = base_document("battle", vm);
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
  r.document = base_document("move", vm);
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
  r.document = base_document("attrition", vm);
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
  r.document = base_document("levy", vm);
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

// --- options ----------------------------------------------------------------------------------

std::string letters_text(const std::vector<char>& letters) {
  std::string out;
  for (char c : letters) out += (out.empty() ? "" : ",") + std::string(1, c);
  return out.empty() ? "none" : out;
}

// "A Additional British Mercenaries; E Increased French Effort in North America".
std::string names_text(const ar::options_data& data, const std::vector<char>& letters) {
  std::string out;
  for (char c : letters) out += (out.empty() ? "" : "; ") + std::string(1, c) + " " + data.option(c).name;
  return out.empty() ? "none (the historical game)" : out;
}

std::string helps_text(int net) {
  const std::string side = ar::favoured_side(net);
  return side == "neither" ? "helps neither side" : "helps the " + side + (side == "American" ? "s" : "");
}

std::string signed_text(int n) {
  return fmt::format("{:+d}", n);
}

// "B-D unknown; H-K conflict": the pairs that make a set illegal or unknown.
std::string deciding_text(const ar::option_set_analysis& a) {
  std::string out;
  for (const auto& p : a.deciding)
    out += (out.empty() ? "" : "; ") + std::string{p.a, '-', p.b} + " " + ar::to_string(p.entry->status);
  return out;
}

std::string reasons_text(const ar::option_set_analysis& a) {
  std::string out;
  for (const auto& r : a.reasons) out += (out.empty() ? "" : "; ") + r;
  return out.empty() ? "-" : out;
}

const char* const adjustment_header =
    "a positive adjustment helps the British, so it raises the British goal (51 + net); a negative one helps the "
    "Americans and lowers it; a legal set keeps |net| <= 21 and no incompatible pair (Variable Forces Options)";

json goals_json(const ar::option_set_analysis& a) {
  json goals = json::array();
  for (const auto& g : a.goals)
    goals.push_back(json{{"period", g.period},
                         {"base", g.base},
                         {"goal", g.goal},
                         {"after_two_major_successes", g.after_two_major_successes}});
  return goals;
}

json common_option_notes() {
  return json::array(
      {"goal = base + net adjustment (historical 51; errata 41 / 51 / 61 by period); after two Major Successes the "
       "British need floor(goal / 2) (Variable Forces Options)",
       "legal needs |net| <= 21 and no incompatible pair; a pair of unknown compatibility makes the set unknown, never "
       "legal (the chart is transcribed only for row A and the start of row B; K with C, D and E is incompatible by "
       "the transcription note under the chart)",
       "reinforcement changes are Strength Points of British Regulars added (+) or deducted (-); seasons in the "
       "tables' printed order (Win., Spr., Sum., Fall)"});
}

// Every option: `musket ar options` with no mode.
report run_options_list(const po::variables_map& vm, const ar::options_data& data) {
  report r;
  r.document = base_document("options", vm);
  json& doc = r.document;
  json rows = json::array();
  for (const auto& o : data.options)
    rows.push_back(json{{"letter", std::string(1, o.letter)},
                        {"name", o.name},
                        {"adjustment", o.adjustment},
                        {"helps", ar::favoured_side(o.adjustment)},
                        {"forces", o.summary.forces.empty() ? "-" : o.summary.forces},
                        {"reinforcements", ar::reinforcements_text(o).empty() ? "-" : ar::reinforcements_text(o)},
                        {"rules", o.summary.rules.empty() ? "-" : o.summary.rules}});
  doc["options"] = rows;
  json pairs = json::array();
  for (char a = 'A'; a <= 'L'; ++a)
    for (char b = static_cast<char>(a + 1); b <= 'L'; ++b)
      if (const auto& e = data.pair(a, b); e.status != ar::compatibility::unknown)
        pairs.push_back(json{
            {"pair", std::string{a, '-', b}}, {"status", ar::to_string(e.status)}, {"sources", ar::sources_text(e)}});
  doc["known_pairs"] = pairs;
  doc["exact"] = json::object();
  json notes = common_option_notes();
  notes.insert(notes.begin(), adjustment_header);
  notes.push_back("known_pairs lists every pair whose compatibility a source gives; every other pair is unknown");
  notes.push_back(
      "Option B is printed -14 and used as -13 in the rulebook's worked example; the data keeps -14 (both are shown "
      "by --use)");
  doc["notes"] = notes;
  r.title = "American Revolution Variable Forces options A-L";
  r.verdict = std::string("adjustment: ") + adjustment_header;
  r.result_keys = {"options", "known_pairs"};
  return r;
}

report run_options_use(const po::variables_map& vm, const ar::options_data& data) {
  const auto letters = ar::parse_option_letters(string_option(vm, "use"), "use");
  const auto a = ar::analyse_options(data, letters);
  report r;
  r.document = base_document("options", vm);
  json& doc = r.document;
  json rows = json::array();
  for (char c : a.letters) {
    const auto& o = data.option(c);
    rows.push_back(json{{"letter", std::string(1, c)},
                        {"name", o.name},
                        {"adjustment", o.adjustment},
                        {"helps", ar::favoured_side(o.adjustment)}});
  }
  doc["options"] = rows;
  doc["net_adjustment"] = a.net;
  if (a.net_alternative) doc["net_adjustment_alternative"] = *a.net_alternative;
  doc["legality"] = ar::to_string(a.status);
  doc["reasons"] = a.reasons;
  json pairs = json::array();
  for (const auto& p : a.pairs)
    pairs.push_back(json{{"pair", std::string{p.a, '-', p.b}},
                         {"status", ar::to_string(p.entry->status)},
                         {"sources", ar::sources_text(*p.entry)}});
  doc["pairs"] = pairs;
  doc["goals"] = goals_json(a);
  json changes = json::array(), rules = json::array();
  for (const auto& c : ar::reinforcement_schedule(data, a.letters))
    changes.push_back(json{{"season", (c.season.empty() ? std::string("?") : c.season) + " " + std::to_string(c.year)},
                           {"option", std::string(1, c.option)},
                           {"points", c.points ? json(*c.points) : json(nullptr)}});
  for (char c : a.letters) {
    const auto& o = data.option(c);
    if (o.kind != "table") rules.push_back(json{{"option", std::string(1, c)}, {"kind", o.kind}, {"rule", o.rule}});
  }
  doc["reinforcement_changes"] = changes;
  doc["rule_changes"] = rules;
  if (std::find(a.letters.begin(), a.letters.end(), 'G') != a.letters.end()) {
    // Option G on every Region we know: unknown allowances stay unknown (null).
    json allowances = json::array();
    auto under_g = [](const std::optional<int>& n) {
      return n ? json(ar::less_efficient_allowance(*n)) : json(nullptr);
    };
    auto as_json = [](const std::optional<int>& n) { return n ? json(*n) : json(nullptr); };
    for (const auto& region : ar::load_regions({data_file("regions.json"), ""}))
      allowances.push_back(json{{"region", region.name},
                                {"militia", as_json(region.militia)},
                                {"militia_under_G", under_g(region.militia)},
                                {"tory", as_json(region.tory)},
                                {"tory_under_G", under_g(region.tory)}});
    doc["region_allowances"] = allowances;
  }
  doc["exact"] = json::object();
  json notes = common_option_notes();
  notes.insert(notes.begin(), adjustment_header);
  if (a.net_alternative)
    notes.push_back(
        fmt::format("Option B is printed -14 but the worked example uses -13: net {} as printed, {} with -13", a.net,
                    *a.net_alternative));
  doc["notes"] = notes;
  r.title =
      "American Revolution Variable Forces: " + letters_text(a.letters) + " (" + names_text(data, a.letters) + ")";
  r.verdict =
      fmt::format("{}; net adjustment {:+d} ({}); British goal {} (two Major Successes: {})", ar::to_string(a.status),
                  a.net, helps_text(a.net), a.goals[0].goal, a.goals[0].after_two_major_successes);
  r.result_keys = {"options", "net_adjustment", "net_adjustment_alternative", "legality",    "reasons",
                   "pairs",   "goals",          "reinforcement_changes",      "rule_changes"};
  return r;
}

json set_row(const ar::options_data& data, const ar::option_set_analysis& a, bool with_deciding) {
  json row{{"options", letters_text(a.letters)},
           {"size", a.letters.size()},
           {"net", a.net},
           {"helps", ar::favoured_side(a.net)},
           {"goal", a.goals[0].goal},
           {"after_two_major_successes", a.goals[0].after_two_major_successes}};
  if (with_deciding) row["deciding_pairs"] = deciding_text(a);
  row["names"] = names_text(data, a.letters);
  return row;
}

report run_options_all(const po::variables_map& vm, const ar::options_data& data) {
  const bool include_unknown = flag_option(vm, "include-unknown");
  const ar::set_order order =
      vm.count("sort") ? ar::parse_set_order(string_option(vm, "sort"), "sort") : ar::set_order::net;
  const auto e = ar::enumerate_option_sets(data, include_unknown, order);
  report r;
  r.document = base_document("options", vm);
  json& doc = r.document;
  doc["counts"] = json{{"legal", e.legal_count},
                       {"illegal", e.illegal_count},
                       {"unknown", e.unknown_count},
                       {"total", e.legal_count + e.illegal_count + e.unknown_count}};
  json rows = json::array();
  for (const auto& a : e.legal) rows.push_back(set_row(data, a, false));
  doc["legal_sets"] = rows;
  if (include_unknown) {
    json unknown = json::array();
    for (const auto& a : e.unknown) unknown.push_back(set_row(data, a, true));
    doc["unknown_sets"] = unknown;
  }
  json incompatible = json::array();
  for (char a = 'A'; a <= 'L'; ++a)
    for (char b = static_cast<char>(a + 1); b <= 'L'; ++b)
      if (const auto& p = data.pair(a, b); p.status == ar::compatibility::incompatible)
        incompatible.push_back(json{{"pair", std::string{a, '-', b}}, {"sources", ar::sources_text(p)}});
  doc["incompatible_pairs"] = incompatible;
  doc["exact"] = json::object();
  json notes = json::array(
      {adjustment_header,
       "every subset of A-L (the empty set, the historical game, included); legal = |net| <= 21 and every pair known "
       "compatible; illegal = beyond the cap or a known incompatible pair; unknown = otherwise (a pair not transcribed "
       "or with conflicting sources)",
       "every set with an incompatible pair (incompatible_pairs, each with its source) is illegal and not listed; "
       "goal is the historical 51 + net",
       "sorted by " + ar::to_string(order) + (order == ar::set_order::net ? " (then size)" : " (then net)") +
           ", then letters"});
  if (include_unknown)
    notes.push_back(
        "unknown_sets: each set whose legality no source settles, with the pairs that decide it (unknown: not "
        "transcribed; conflict: the sources disagree); each is legal exactly when those pairs are compatible");
  doc["notes"] = notes;
  r.title = include_unknown ? "American Revolution Variable Forces: every option set not known to be illegal"
                            : "American Revolution Variable Forces: every option set whose legality is known";
  r.verdict =
      fmt::format("{} legal, {} illegal, {} unknown of {}; a positive net helps the British (goal 51 + net)",
                  e.legal_count, e.illegal_count, e.unknown_count, e.legal_count + e.illegal_count + e.unknown_count);
  r.result_keys = {"counts", "legal_sets", "unknown_sets", "incompatible_pairs"};
  return r;
}

std::string turn_changes_text(const std::vector<ar::scheduled_change>& changes) {
  std::string out;
  for (const auto& c : changes)
    out += (out.empty() ? "" : " ") + (c.points ? signed_text(*c.points) : std::string("?")) + " (" +
           std::string(1, c.option) + ")";
  return out.empty() ? "-" : out;
}

report run_options_compare(const po::variables_map& vm, const ar::options_data& data) {
  const auto sets = vm["compare"].as<std::vector<std::string>>();
  if (sets.size() != 2)
    throw invalid_input("compare",
                        "takes two option sets, e.g. --compare A,E F (" + std::to_string(sets.size()) + " given)");
  const auto first = ar::parse_option_letters(sets[0], "compare");
  const auto second = ar::parse_option_letters(sets[1], "compare");
  const auto c = ar::compare_option_sets(data, first, second);
  report r;
  r.document = base_document("options", vm);
  json& doc = r.document;
  const std::string a = letters_text(c.first.letters), b = letters_text(c.second.letters);
  auto rule_text = [&](const std::vector<char>& letters, auto part) {
    std::string out;
    for (char l : letters)
      if (const std::string t = part(data.option(l)); !t.empty())
        out += (out.empty() ? "" : "; ") + std::string(1, l) + ": " + t;
    return out.empty() ? std::string("-") : out;
  };
  auto side = [&](const std::string& item, const std::string& x, const std::string& y) {
    return json{{"item", item}, {"first", x}, {"second", y}};
  };
  auto net_alternative = [](const ar::option_set_analysis& s) {
    return s.net_alternative ? signed_text(*s.net_alternative) + " (B as -13)" : std::string("-");
  };
  auto forces = [](const ar::option_info& o) { return o.summary.forces; };
  auto rules = [](const ar::option_info& o) { return o.summary.rules; };
  auto other_reinforcements = [](const ar::option_info& o) {
    return o.kind == "table" ? std::string() : o.summary.reinforcements;
  };
  json rows = json::array();
  rows.push_back(side("options", a, b));
  rows.push_back(side("names", names_text(data, c.first.letters), names_text(data, c.second.letters)));
  rows.push_back(side("net adjustment", signed_text(c.first.net), signed_text(c.second.net)));
  rows.push_back(side("net adjustment alternative", net_alternative(c.first), net_alternative(c.second)));
  rows.push_back(side("helps", ar::favoured_side(c.first.net), ar::favoured_side(c.second.net)));
  rows.push_back(side("legality", ar::to_string(c.first.status), ar::to_string(c.second.status)));
  rows.push_back(side("reasons", reasons_text(c.first), reasons_text(c.second)));
  rows.push_back(side("forces", rule_text(c.first.letters, forces), rule_text(c.second.letters, forces)));
  rows.push_back(side("reinforcement rules", rule_text(c.first.letters, other_reinforcements),
                      rule_text(c.second.letters, other_reinforcements)));
  rows.push_back(side("rules", rule_text(c.first.letters, rules), rule_text(c.second.letters, rules)));
  doc["side_by_side"] = rows;
  json goals = json::array();
  for (std::size_t i = 0; i < c.first.goals.size(); ++i) {
    const auto &x = c.first.goals[i], &y = c.second.goals[i];
    goals.push_back(json{{"period", x.period},
                         {"base", x.base},
                         {"first_goal", x.goal},
                         {"second_goal", y.goal},
                         {"first_after_two_major_successes", x.after_two_major_successes},
                         {"second_after_two_major_successes", y.after_two_major_successes}});
  }
  doc["goals"] = goals;
  json turns = json::array();
  auto points = [](const std::optional<int>& n) { return n ? json(*n) : json(nullptr); };
  for (const auto& t : c.turns)
    turns.push_back(json{{"turn", (t.season.empty() ? std::string("?") : t.season) + " " + std::to_string(t.year)},
                         {"first", turn_changes_text(t.first)},
                         {"second", turn_changes_text(t.second)},
                         {"first_points", points(t.first_total)},
                         {"second_points", points(t.second_total)},
                         {"second_minus_first",
                          t.first_total && t.second_total ? json(*t.second_total - *t.first_total) : json(nullptr)}});
  doc["reinforcement_changes"] = turns;
  doc["exact"] = json::object();
  json notes = common_option_notes();
  notes.insert(notes.begin(), adjustment_header);
  notes.push_back(
      "reinforcement_changes: every turn either set's printed tables change, with each change and its option; "
      "null (unknown) where our transcript cuts a row off; options without a table are under side_by_side");
  doc["notes"] = notes;
  r.title = "American Revolution Variable Forces: " + a + " compared with " + b;
  r.verdict = fmt::format("{}: {}, net {:+d}, British goal {}; {}: {}, net {:+d}, British goal {}", a,
                          ar::to_string(c.first.status), c.first.net, c.first.goals[0].goal, b,
                          ar::to_string(c.second.status), c.second.net, c.second.goals[0].goal);
  r.result_keys = {"side_by_side", "goals", "reinforcement_changes"};
  return r;
}

report run_options_battle(const po::variables_map& vm) {
  const ar::battle_setup s = read_battle(vm);
  const ar::crt_table table = read_crt(vm);
  const auto variants = ar::option_battle_variants(table, s);
  report r;
  r.document = base_document("options", vm);
  json& doc = r.document;
  json rows = json::array(), exact_rows = json::array();
  for (const auto& v : variants) {
    json row{{"option", v.option},
             {"attacker", ar::to_string(v.setup.attacker.points)},
             {"defender", ar::to_string(v.setup.defender.points)}};
    json ex{{"option", v.option}};
    if (v.result) {
      const auto& res = *v.result;
      const auto ms = res.major_success();
      row["column"] = ar::column_name(res.o.column);
      for (auto c : ar::all_crt_results) row[ar::key(c)] = to_double(res.probability(c));
      row["unknown"] = to_double(res.unknown());
      row["major_success_min"] = to_double(ms.min);
      row["major_success_max"] = to_double(ms.max);
      json results = json::object();
      for (auto c : ar::all_crt_results) results[ar::key(c)] = to_fraction_string(res.probability(c));
      results["unknown"] = to_fraction_string(res.unknown());
      ex["results"] = results;
      ex["major_success"] = bounds_exact(ms);
    } else {
      // Not fought: "-" in every figure (a blank, not an unknown), and the reason in `change`.
      row["column"] = "not allowed";
      for (const char* k : {"De", "HalfDe", "HalfEx", "unknown", "major_success_min", "major_success_max"})
        row[k] = "-";
      ex["why_not"] = v.why_not;
    }
    row["change"] = v.result ? v.change : v.change + ": " + v.why_not;
    rows.push_back(row);
    exact_rows.push_back(ex);
  }
  doc["variants"] = rows;
  doc["exact"] = json{{"variants", exact_rows}};
  doc["notes"] = json::array(
      {"G cuts Militia and Tory allowances by a third, rounded up; it is applied here to the Militia and Tories in the "
       "battle as if each were a full Regional allowance (Option G)",
       "E raises the French Permanent total 12 -> 18 and Seasonal 6 -> 10; the battle's French points are scaled by "
       "the "
       "same ratio, rounded down (our assumption: the rules give totals only)",
       "K eliminates the French Permanent Reinforcements; options that change no strength here are not listed",
       "major_success_min and _max differ only where the CRT entry is unknown"});
  r.title = fmt::format("American Revolution battle under Variable Forces options: {} v {}",
                        ar::to_string(s.attacker.points), ar::to_string(s.defender.points));
  r.verdict =
      fmt::format("{} variant(s): the battle as given and under each option that changes its strengths", rows.size());
  r.result_keys = {"variants"};
  return r;
}

report run_options(const po::variables_map& vm) {
  const int modes = (vm.count("use") ? 1 : 0) + (flag_option(vm, "all") ? 1 : 0) + (flag_option(vm, "battle") ? 1 : 0) +
                    (vm.count("compare") ? 1 : 0);
  if (modes > 1) throw invalid_input("use", "give at most one of --use LETTERS, --all, --compare SET SET, --battle");
  if (vm.count("sort") && !flag_option(vm, "all")) throw invalid_input("sort", "orders the --all list; give --all");
  if (flag_option(vm, "include-unknown") && !flag_option(vm, "all"))
    throw invalid_input("include-unknown", "adds to the --all list; give --all");
  if (flag_option(vm, "battle")) {
    if (!vm.count("attacker")) throw invalid_input("attacker", "is required with --battle");
    if (!vm.count("defender")) throw invalid_input("defender", "is required with --battle");
    return run_options_battle(vm);
  }
  for (const char* battle_only : {"attacker", "defender", "crt"})
    if (vm.count(battle_only)) throw invalid_input(battle_only, "belongs to --battle; give --battle");
  const auto data = ar::load_options({data_file("options.json"), ""});
  if (vm.count("use")) return run_options_use(vm, data);
  if (vm.count("compare")) return run_options_compare(vm, data);
  if (flag_option(vm, "all")) return run_options_all(vm, data);
  return run_options_list(vm, data);
}

}  // namespace

void register_revolution_commands(command_registry& registry) {
  game_entry& game = registry.add_game("ar", "SPI American Revolution 1775-1783");
  game.commands.push_back(
      {"battle", "odds column, CRT results, losses by type, Major Success and Partial Withdrawal",
       [](po::options_description& o) { add_battle_options(o, true); }, run_battle,
       "example: musket ar battle --attacker \"15M,8C\" --defender \"3T,8B\"   (23 v 11: 2:1)\n"
       "The 3:1 and 4:1 row-6 entries are unknown in our transcript; affected probabilities are {min, max}."});
  game.commands.push_back({"move", "British movement (case K): how far a group gets, P(arrive), P(one of G arrives)",
                           [](po::options_description& o) {
                             o.add_options()("areas", po::value<int>(), "Areas on the path, 1..5")(
                                 "groups", po::value<int>()->default_value(1), "groups with the same target, 1..20")(
                                 "sea", "a sea move: one roll");
                           },
                           run_move, "example: musket ar move --areas 3 --groups 2"});
  game.commands.push_back(
      {"attrition", "winter attrition of an Area's Continentals: survivors",
       [](po::options_description& o) {
         o.add_options()("strength", po::value<int>()->required(), "Continental Strength Points in the Area, 0..999")(
             "loss-fraction", po::value<std::string>(), "the table's loss fraction: 0, 1/3, 1/2, 2/3, 1")(
             "survive-on", po::value<std::string>(), "die numbers a left-over point survives on, e.g. \"5-6\"")(
             "row", po::value<std::string>(), "a row of data/ar/attrition.json (once transcribed)");
       },
       run_attrition, "example: musket ar attrition --strength 8 --loss-fraction 1/3 --survive-on 5-6"});
  game.commands.push_back(
      {"levy", "Continental levy from a levy chart: Continentals raised per roll and over turns",
       [](po::options_description& o) {
         o.add_options()("chart", po::value<std::string>(), "the Continental Levy Chart (JSON like data/ar/levy.json)")(
             "turns", po::value<int>()->default_value(1), "Game-Turns, 1..36")(
             "rolls-per-turn", po::value<int>()->default_value(1), "levy rolls a turn, 1..3")(
             "british-controlled", po::value<std::string>(), "Regions the British control, comma-separated");
       },
       run_levy, "The chart is not in our transcript: supply it with --chart FILE."});
  game.commands.push_back(
      {"options", "Variable Forces options: legality, net adjustment, goals, reinforcements",
       [](po::options_description& o) {
         o.add_options()("use", po::value<std::string>(), "options to combine, e.g. \"D,H,B\"")(
             "all", "every option set whose legality is known, by net adjustment")(
             "sort", po::value<std::string>(), "net | size: the order of the --all list (default net)")(
             "include-unknown", "with --all, also the sets of unknown legality, with their deciding pairs")(
             "compare", po::value<std::vector<std::string>>()->multitoken(),
             "two option sets side by side, e.g. --compare A,E F")(
             "battle", "a battle under each option that changes its strengths");
         add_battle_options(o, false);
       },
       run_options,
       "with no mode: every option, its adjustment and what it changes. A positive adjustment helps "
       "the British and raises their goal.\nexamples: musket ar options ; musket ar options --use "
       "D,H,B ; musket ar options --all --sort size --include-unknown ; musket ar options "
       "--compare A,E F"});
}

}  // namespace musket::cli
