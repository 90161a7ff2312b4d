// `musket nt|ss ...`: Supply Lines of the American Revolution. Thin: options in, calc out,
// report built; every rule lives in calc/supply_lines.
#include <fmt/format.h>

#include <optional>

#include "calc/supply_lines/battle.hpp"
#include "calc/supply_lines/bombard.hpp"
#include "calc/supply_lines/commitment.hpp"
#include "calc/supply_lines/cup_draws.hpp"
#include "calc/supply_lines/initiative.hpp"
#include "calc/supply_lines/morale.hpp"
#include "calc/supply_lines/naval.hpp"
#include "calc/supply_lines/raid.hpp"
#include "calc/supply_lines/refuse_battle.hpp"
#include "calc/supply_lines/skirmish.hpp"
#include "calc/supply_lines/track.hpp"
#include "cli/command.hpp"
#include "cli/result_statistics.hpp"
#include "cli/supply_lines_report.hpp"
#include "core/invalid_input.hpp"

namespace musket::cli {

namespace sl = musket::supply_lines;

namespace {

json base_document(const sl::rule_set& rules, const std::string& command, const po::variables_map& vm) {
  return cli::base_document(rules.code, command, vm);
}

std::string game_title(const sl::rule_set& rules) {
  return rules.which == sl::game::northern_theater ? "Northern Theater" : "Southern Strategy";
}

std::string capitalised(std::string s) {
  if (!s.empty()) s[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(s[0])));
  return s;
}

// --- battle ---------------------------------------------------------------------------------

// Options a game does not have are not offered (`musket nt battle --help` shows no SS option).
void add_army_options(po::options_description& o, bool commit, bool southern) {
  const int leaders = sl::rules_for(southern ? "ss" : "nt").max_leaders_per_army;
  o.add_options()("attacker", po::value<std::string>()->required(), "crown | patriot")(
      "terrain", po::value<std::string>()->required(), "point | city | fort (city and fort halve the attacker's dice)")(
      "att-units", whole_number(1, sl::max_units)->required(), "attacking units")(
      "att-leaders", whole_number(1, leaders)->default_value(1), "attacking leaders")(
      "def-units", whole_number(1, sl::max_units)->required(), "defending units")(
      "def-leaders", whole_number(0, leaders)->default_value(0), "defending leaders");
  if (commit) {
    o.add_options()("att-war-available", whole_number(0, sl::max_war_supplies)->required(),
                    "War Supplies the attacker could commit")("def-war-available",
                                                              whole_number(0, sl::max_war_supplies)->required(),
                                                              "War Supplies the defender could commit")(
        "objective", po::value<std::string>()->default_value("dislodge"), "dislodge | victory | net-losses");
  } else {
    o.add_options()("att-war", whole_number(0, sl::max_war_supplies)->required(), "War Supplies the attacker commits")(
        "def-war", whole_number(0, sl::max_war_supplies)->default_value(0), "War Supplies the defender commits");
  }
  o.add_options()("dug-in", "the defender is Dug-In (city or fort): the first hit is ignored")(
      "no-retreat", "the defender has nowhere to retreat: a failed morale check surrenders");
  if (southern)
    o.add_options()("siege", "the defender is under Siege: it cannot retreat (SS 10.7)")(
        "crown-commander", "Cornwallis is in the Crown army: his capture is an instant Patriot victory")(
        "patriot-subordinate", "the Patriot army is led only by its Subordinate (at most 4 units)");
  if (!commit) {
    o.add_options()("track-position", po::value<int>(), "current track space: also report where the marker ends");
    if (!southern)
      o.add_options()("track-floor", po::value<int>(),
                      "the first Declaration space, once Independence is Declared (11.1)");
    o.add_options()("track-lowest", po::value<int>(), "the track's first space")(
        "track-highest", po::value<int>(), "the track's last space (NT Treaty of Alliance, SS 9)");
  }
}

std::optional<int> optional_int(const po::variables_map& vm, const std::string& name) {
  if (!vm.count(name)) return std::nullopt;
  return vm[name].as<int>();
}

sl::battle_setup read_battle(const po::variables_map& vm, bool commit) {
  sl::battle_setup s;
  s.attacker = sl::parse_side(string_option(vm, "attacker"), "attacker");
  s.where = sl::parse_terrain(string_option(vm, "terrain"), "terrain");
  s.attacker_units = int_option(vm, "att-units");
  s.attacker_leaders = int_option(vm, "att-leaders");
  s.defender_units = int_option(vm, "def-units");
  s.defender_leaders = int_option(vm, "def-leaders");
  if (!commit) {
    s.attacker_war_supplies = int_option(vm, "att-war");
    s.defender_war_supplies = int_option(vm, "def-war");
  }
  s.dug_in = flag_option(vm, "dug-in");
  s.retreat_available = !flag_option(vm, "no-retreat");
  s.under_siege = flag_option(vm, "siege");
  s.crown_commander = flag_option(vm, "crown-commander");
  s.patriot_subordinate = flag_option(vm, "patriot-subordinate");
  return s;
}

json battle_notes(const sl::rule_set& rules, const sl::battle_setup& s) {
  json notes = json::array();
  const bool nt = rules.which == sl::game::northern_theater;
  const std::string rule = nt ? "NT " : "SS ";
  if (s.where != sl::terrain::point) {
    const bool up = s.attacker == sl::side::crown ? rules.crown_rounds_up : rules.patriot_rounds_up;
    notes.push_back(fmt::format("{} War Supplies earn {} dice against a {}: one die per two, the {} rounds {} ({}{})",
                                s.attacker_war_supplies, sl::attacker_dice(rules, s), sl::to_string(s.where),
                                capitalised(sl::to_string(s.attacker)), up ? "up" : "down", rule, nt ? "8.2" : "10.2"));
    const int checks = sl::defender_morale_checks(rules, s);
    notes.push_back(fmt::format("a beaten {} defender makes {} morale check{} ({}{})",
                                capitalised(sl::to_string(sl::opponent(s.attacker))), checks, checks == 1 ? "" : "s",
                                rule, nt ? "8.7" : "10.7"));
  } else {
    notes.push_back(fmt::format("at a point a beaten defender fails its morale check automatically ({}{})", rule,
                                nt ? "8.7" : "10.7"));
  }
  notes.push_back(
      "a tie in units plus leaders goes to the defender; the defender's hits cost the attacker one die per two units "
      "lost");
  if (s.dug_in) notes.push_back(fmt::format("Dug-In: the first hit is ignored ({}{})", rule, nt ? "7.5" : "9.6"));
  if (sl::failed_check_surrenders(rules, s))
    notes.push_back(s.under_siege ? "under Siege, a failed morale check is a surrender (SS 11.1)"
                                  : "no retreat: a failed morale check is a surrender");
  notes.push_back(nt ? "track_shift is on the Support Track, + toward the Treaty of Alliance; the Declaration floor "
                       "(11.1) applies to the position, not the shift"
                     : "track_shift is on the British Political Will Track, + to the right (toward the Crown)");
  if (s.dug_in || sl::failed_check_surrenders(rules, s))
    notes.push_back("this defender cannot Refuse Battle");
  else
    notes.push_back("the defender could Refuse Battle instead (see `refuse`): no dice, supplies abandoned");
  return notes;
}

std::string battle_title(const sl::rule_set& rules, const sl::battle_setup& s) {
  return fmt::format(
      "{} battle: {} attack at a {}: {} units + {} leader(s), {} War ({} dice) v {} units + {} leader(s), {} War ({} "
      "dice){}",
      game_title(rules), capitalised(sl::to_string(s.attacker)), sl::to_string(s.where), s.attacker_units,
      s.attacker_leaders, s.attacker_war_supplies, sl::attacker_dice(rules, s), s.defender_units, s.defender_leaders,
      s.defender_war_supplies, s.defender_war_supplies, s.dug_in ? ", dug in" : "");
}

std::optional<sl::track_position_setup> read_track_position(const po::variables_map& vm) {
  if (!vm.count("track-position")) {
    for (const char* name : {"track-floor", "track-lowest", "track-highest"})
      if (vm.count(name)) throw invalid_input(name, "needs --track-position (the marker's current space)");
    return std::nullopt;
  }
  return sl::track_position_setup{int_option(vm, "track-position"), optional_int(vm, "track-floor"),
                                  optional_int(vm, "track-lowest"), optional_int(vm, "track-highest")};
}

rational defender_dislodged(const sl::battle_result<rational>& res) {
  return res[sl::battle_outcome::defender_retreats] + res[sl::battle_outcome::defender_surrenders];
}
rational attacker_victory(const sl::battle_result<rational>& res) {
  return defender_dislodged(res) + res[sl::battle_outcome::defender_stands];
}

report run_battle(const sl::rule_set& rules, const po::variables_map& vm) {
  const sl::battle_setup s = read_battle(vm, false);
  const std::string method = string_option(vm, "method");
  if (method != "exact" && method != "sim" && method != "auto")
    throw invalid_input("method", "'" + method + "' is not a method; allowed: exact, sim, auto");
  // Checked whatever the method: an option the exact answer does not use is still never wrong.
  sl::validate(rules, s);  // before the title, which counts the dice
  const auto track = read_track_position(vm);
  report r;
  r.document = base_document(rules, "battle", vm);
  r.title = battle_title(rules, s);
  json& doc = r.document;
  sl::battle_result<rational> res;
  json results;
  if (method == "sim") {
    simulation_options options;
    options.trials = static_cast<std::uint64_t>(int_option(vm, "trials"));
    options.seed = static_cast<std::uint64_t>(int_option(vm, "seed"));
    attach_run_context(options);  // the dashboard's progress and cancel
    const auto est = sl::simulate_battle(rules, s, options);
    if (est.trials == 0) throw run_cancelled();  // only a cancel stops it before the first trial
    doc["method"] = json{{"name", "simulation"},
                         {"trials", est.trials},
                         {"seed", options.seed},
                         {"confidence", 0.95},
                         {"why", "asked for with --method sim; every probability carries a 95% Wilson interval"}};
    if (est.trials < options.trials) doc["method"]["cancelled"] = true;  // the trials done before the cancel
    res = sl::observed_result(rules, s, est);
    results = simulated_battle_results(rules, s, est, track);
  } else {
    if (method == "auto")
      doc["method"]["why"] = "auto: a battle is a few dozen dice outcomes, so it is always enumerated exactly";
    res = sl::resolve_battle<rational>(rules, s);
    results = battle_results(rules, res, track, true);
  }
  for (auto it = results.begin(); it != results.end(); ++it) doc[it.key()] = it.value();
  r.result_keys = {"outcomes", "summary", "attacker_losses", "defender_losses", "track_shift", "instant_victory"};
  if (track) r.result_keys.push_back("track_position");
  if (doc.contains("treaty_of_alliance")) r.result_keys.push_back("treaty_of_alliance");
  if (method == "sim") r.result_keys.push_back("intervals");
  doc["dice"] = json{{"attacker", sl::attacker_dice(rules, s)}, {"defender", s.defender_war_supplies}};
  doc["notes"] = battle_notes(rules, s);
  const double dislodge = to_double(defender_dislodged(res)), victory = to_double(attacker_victory(res));
  r.verdict =
      fmt::format("{} dislodges the defender {}; attacker Victory {}, repulsed or surrendered {}",
                  capitalised(sl::to_string(s.attacker)), percent(dislodge), percent(victory), percent(1 - victory));
  if (doc.contains("treaty_of_alliance")) {
    const double treaty = doc["treaty_of_alliance"].get<double>();
    doc["notes"].push_back(fmt::format(
        "treaty_of_alliance: the marker reaches the Treaty of Alliance (space {}) {}; the game then ends at once in a "
        "Patriot Victory (NT 11.2, 13.1)",
        *track->highest, percent(treaty)));
    r.verdict += fmt::format("; Treaty of Alliance reached {}: the game ends, a Patriot Victory", percent(treaty));
  }
  return r;
}

// --- the smaller calculators ------------------------------------------------------------------

report run_skirmish(const sl::rule_set& rules, const po::variables_map& vm) {
  sl::skirmish_setup s;
  s.attacker = sl::parse_side(string_option(vm, "attacker"), "attacker");
  s.war_supplies = int_option(vm, "war");
  s.patriot_units = int_option(vm, "patriot-units");
  s.crown_units = int_option(vm, "crown-units");
  s.crown_leaders = int_option(vm, "crown-leaders");
  s.crown_commander = flag_option(vm, "crown-commander");
  const auto res = sl::resolve_skirmish(rules, s);
  report r;
  r.document = base_document(rules, "skirmish", vm);
  json& doc = r.document;
  doc["crown_units_eliminated"] = probability_array(res.crown_units_eliminated);
  doc["crown_army_surrenders"] = to_double(res.crown_army_surrenders);
  doc["track_shift"] = probability_object(res.track_shift);
  if (rules.which == sl::game::southern_strategy) doc["instant_victory"] = to_double(res.instant_victory);
  doc["exact"] = json{{"crown_units_eliminated", exact_array(res.crown_units_eliminated)},
                      {"crown_army_surrenders", to_fraction_string(res.crown_army_surrenders)},
                      {"track_shift", exact_object(res.track_shift)},
                      {"instant_victory", to_fraction_string(res.instant_victory)}};
  add_distribution_stats(doc, {"crown_units_eliminated", "track_shift"});
  doc["notes"] =
      json::array({"one die per War Supply, each 1-2 eliminates a Crown unit; the Crown rolls nothing (8.8 / 10.8)",
                   "a skirmish never counts as a Victory: only a Crown surrender moves the track"});
  r.title = fmt::format("{} skirmish: {} War Supplies ({} dice) at {} Crown units + {} leader(s)", game_title(rules),
                        s.war_supplies, s.war_supplies, s.crown_units, s.crown_leaders);
  r.verdict = fmt::format("Crown army surrenders {}; expected Crown units eliminated {:.2f}",
                          percent(to_double(res.crown_army_surrenders)), to_double(mean(res.crown_units_eliminated)));
  r.result_keys = {"crown_units_eliminated", "crown_army_surrenders", "track_shift", "instant_victory"};
  return r;
}

report run_bombard(const sl::rule_set& rules, const po::variables_map& vm) {
  sl::bombard_setup s;
  s.attacker = sl::parse_side(string_option(vm, "attacker"), "attacker");
  s.war_supplies = int_option(vm, "war");
  s.patriot_units = int_option(vm, "patriot-units");
  const auto res = sl::resolve_bombard(rules, s);
  report r;
  r.document = base_document(rules, "bombard", vm);
  r.document["patriot_units_eliminated"] = probability_array(res.patriot_units_eliminated);
  r.document["exact"] = json{{"patriot_units_eliminated", exact_array(res.patriot_units_eliminated)}};
  add_distribution_stats(r.document, {"patriot_units_eliminated"});
  r.document["notes"] = json::array(
      {"one die per War Supply in the Sea Box, each 1 eliminates a Patriot unit; Dug-In has no effect (NT 7.6)",
       "the rules say nothing of leaders or surrender after a Bombard: only units lost are reported"});
  r.title =
      fmt::format("Northern Theater bombard: {} War Supplies at {} Patriot units", s.war_supplies, s.patriot_units);
  r.verdict = fmt::format("at least one Patriot unit eliminated {}; expected {:.2f}",
                          percent(to_double(at_least(res.patriot_units_eliminated, 1))),
                          to_double(mean(res.patriot_units_eliminated)));
  r.result_keys = {"patriot_units_eliminated"};
  return r;
}

report run_initiative(const sl::rule_set& rules, const po::variables_map& vm) {
  const bool declared = flag_option(vm, "declared");
  const auto res = sl::resolve_initiative(rules, declared);
  report r;
  r.document = base_document(rules, "initiative", vm);
  json& doc = r.document;
  doc["first"] = json{{"crown", to_double(res.crown_first)}, {"patriot", to_double(res.patriot_first)}};
  json marker = json::object(), marker_exact = json::object();
  for (int space = 2; space <= 5; ++space) {
    const std::string key = space == 5 ? "5-6" : std::to_string(space);
    marker[key] = to_double(res.pass_marker[space]);
    marker_exact[key] = to_fraction_string(res.pass_marker[space]);
  }
  doc["pass_marker"] = marker;
  doc["exact"] = json{
      {"first", {{"crown", to_fraction_string(res.crown_first)}, {"patriot", to_fraction_string(res.patriot_first)}}},
      {"pass_marker", marker_exact}};
  doc["notes"] =
      json::array({std::string("ties go to the ") + (declared ? "Patriot (after the Declaration, NT 11.1)" : "Crown") +
                   " and start the Pass Marker on 5-6; it never starts on 1 (6.0)"});
  r.title = game_title(rules) + " initiative";
  r.verdict = fmt::format("Crown first {}, Patriot first {}", percent(to_double(res.crown_first)),
                          percent(to_double(res.patriot_first)));
  r.result_keys = {"first", "pass_marker"};
  return r;
}

report run_sea_battle(const sl::rule_set& rules, const po::variables_map& vm) {
  sl::sea_battle_setup s;
  s.modifier = int_option(vm, "modifier");
  s.colour = sl::parse_colour(string_option(vm, "colour"), "colour");
  s.initiator = sl::parse_side(string_option(vm, "initiator"), "initiator");
  const auto res = sl::resolve_sea_battle(rules, s);
  report r;
  r.document = base_document(rules, "sea-battle", vm);
  json& doc = r.document;
  const std::vector<std::pair<std::string, const rational*>> fields{
      {"french_navy_defeated", &res.french_navy_defeated},
      {"crown_navy_defeated", &res.crown_navy_defeated},
      {"both_defeated", &res.both_defeated},
      {"neither_defeated", &res.neither_defeated},
      {"only_french_navy_defeated", &res.only_french_navy_defeated},
      {"only_crown_navy_defeated", &res.only_crown_navy_defeated}};
  json exact = json::object();
  for (const auto& [key, value] : fields) {
    doc[key] = to_double(*value);
    exact[key] = to_fraction_string(*value);
    r.result_keys.push_back(key);
  }
  doc["exact"] = exact;
  doc["notes"] =
      json::array({"each side rolls 2d6; on red the Crown adds the modifier and the Patriot subtracts it, on blue the "
                   "reverse; the initiator adds 1; 10+ defeats the other navy (SS 12.2)",
                   "french_navy_defeated and crown_navy_defeated include the case where both are defeated; the only_ "
                   "keys exclude it"});
  r.title = fmt::format("Southern Strategy sea battle: modifier {} on {}, {} initiates", s.modifier,
                        s.colour == sl::track_colour::red ? "red" : "blue", sl::to_string(s.initiator));
  r.verdict = fmt::format("French navy defeated {}, Crown navy defeated {}",
                          percent(to_double(res.french_navy_defeated)), percent(to_double(res.crown_navy_defeated)));
  return r;
}

report run_navy_return(const sl::rule_set& rules, const po::variables_map& vm) {
  const bool enemy_on_map = flag_option(vm, "enemy-on-map");
  const int turns = int_option(vm, "turns");
  const auto res = sl::resolve_navy_return(rules, enemy_on_map, turns);
  report r;
  r.document = base_document(rules, "navy-return", vm);
  json& doc = r.document;
  doc["returns"] = to_double(res.per_turn);
  // Keyed by Turn Ends counted from 1, as the dashboard's chart labels them: "1" = the first Turn End.
  json by = json::object(), by_exact = json::object();
  for (std::size_t k = 0; k < res.returned_by.size(); ++k) {
    by[std::to_string(k + 1)] = to_double(res.returned_by[k]);
    by_exact[std::to_string(k + 1)] = to_fraction_string(res.returned_by[k]);
  }
  doc["returned_by_turn"] = by;
  doc["exact"] = json{{"returns", to_fraction_string(res.per_turn)}, {"returned_by_turn", by_exact}};
  doc["notes"] =
      json::array({"the navy returns on 1-2 with the enemy navy off the map, 1-3 with it on the map (SS 12.4)",
                   "returned_by_turn \"k\": returned within k non-winter Turn Ends, counted from 1; no roll is made in "
                   "Winter Turns"});
  r.title = fmt::format("Southern Strategy navy return, enemy navy {}", enemy_on_map ? "on the map" : "off the map");
  r.verdict = fmt::format("returns this turn {}", percent(to_double(res.per_turn)));
  r.result_keys = {"returns", "returned_by_turn"};
  return r;
}

report run_raid(const sl::rule_set& rules, const po::variables_map& vm) {
  const int remaining = int_option(vm, "militia-remaining");
  const bool fox = flag_option(vm, "swamp-fox");
  const rational success = sl::raid_success(rules, remaining, fox);
  report r;
  r.document = base_document(rules, "raid", vm);
  r.document["success"] = to_double(success);
  r.document["exact"] = json{{"success", to_fraction_string(success)}};
  r.document["notes"] = json::array({"d6 + Militia left in the box (+1 Swamp Fox) >= 6 succeeds (SS 8.3)"});
  r.title = fmt::format("Southern Strategy raid: {} Militia remaining{}", remaining, fox ? ", Swamp Fox" : "");
  r.verdict = fmt::format("raid succeeds {} ({})", percent(to_double(success)), to_fraction_string(success));
  r.result_keys = {"success"};
  return r;
}

report run_reinforcements(const sl::rule_set& rules, const po::variables_map& vm) {
  sl::reinforcement_setup s;
  s.markers_in_cup = int_option(vm, "cup-markers");
  s.crown_occupied = int_option(vm, "crown-occupied");
  s.draws = int_option(vm, "draws");
  s.winter = flag_option(vm, "winter");
  const auto res = sl::resolve_reinforcements(rules, s);
  report r;
  r.document = base_document(rules, "reinforcements", vm);
  json& doc = r.document;
  doc["markers_drawn"] = res.markers_drawn;
  doc["new_units"] = probability_array(res.new_units);
  doc["crown_occupied_drawn"] = probability_array(res.crown_occupied_drawn);
  doc["expected_new_units"] = to_double(mean(res.new_units));
  doc["exact"] = json{{"new_units", exact_array(res.new_units)},
                      {"crown_occupied_drawn", exact_array(res.crown_occupied_drawn)},
                      {"expected_new_units", to_fraction_string(mean(res.new_units))}};
  add_distribution_stats(doc, {"new_units", "crown_occupied_drawn"});
  doc["notes"] = json::array(
      {"each marker for a Patriot-occupied or vacant City brings 2 units, a Crown-occupied City none (NT 9.0)",
       "a Winter Turn draws two more markers (NT 10.1); an empty cup gives no more"});
  r.title = fmt::format("Northern Theater reinforcements: {} draws{} from {} markers ({} Crown-occupied)", s.draws,
                        s.winter ? " + 2 (winter)" : "", s.markers_in_cup, s.crown_occupied);
  r.verdict = fmt::format("expected new Patriot units {:.2f}; none at all {}", to_double(mean(res.new_units)),
                          percent(to_double(res.new_units[0])));
  r.result_keys = {"markers_drawn", "new_units", "crown_occupied_drawn", "expected_new_units"};
  return r;
}

report run_irregulars(const sl::rule_set& rules, const po::variables_map& vm) {
  const auto cup = sl::parse_irregular_cup(string_option(vm, "cup"), "cup");
  const int draws = int_option(vm, "draws");
  const auto res = sl::resolve_irregulars(rules, cup, draws);
  report r;
  r.document = base_document(rules, "irregulars", vm);
  json& doc = r.document;
  doc["draws"] = res.draws;
  json by_kind = json::object(), by_kind_exact = json::object();
  for (std::size_t i = 0; i < cup.size(); ++i) {
    by_kind[cup[i].name] = probability_array(res.drawn_by_kind[i]);
    by_kind_exact[cup[i].name] = exact_array(res.drawn_by_kind[i]);
  }
  doc["drawn"] = by_kind;
  json outcomes = json::array();
  for (const auto& o : res.outcomes) {
    json drawn = json::object();
    for (std::size_t i = 0; i < cup.size(); ++i)
      if (o.drawn[i]) drawn[cup[i].name] = o.drawn[i];
    outcomes.push_back(json{
        {"drawn", drawn}, {"probability", to_double(o.probability)}, {"exact", to_fraction_string(o.probability)}});
  }
  doc["outcomes"] = outcomes;
  doc["swamp_fox_drawn"] = to_double(res.swamp_fox_drawn);
  doc["exact"] = json{{"drawn", by_kind_exact}, {"swamp_fox_drawn", to_fraction_string(res.swamp_fox_drawn)}};
  std::vector<distribution_path> drawn;
  for (const auto& kind : cup) drawn.push_back("drawn." + kind.name);
  add_distribution_stats(doc, drawn);
  doc["notes"] =
      json::array({"three chits are drawn blind, without replacement (SS 13.2); a smaller cup gives all it has"});
  r.title = fmt::format("Southern Strategy irregulars: {} draws from the cup", res.draws);
  r.verdict = fmt::format("Swamp Fox drawn {}", percent(to_double(res.swamp_fox_drawn)));
  r.result_keys = {"draws", "drawn", "swamp_fox_drawn", "outcomes"};
  return r;
}

report run_refuse(const sl::rule_set& rules, const po::variables_map& vm) {
  sl::refuse_setup s;
  s.units = int_option(vm, "units");
  s.leaders = int_option(vm, "leaders");
  s.supplies = int_option(vm, "supplies");
  s.dug_in = flag_option(vm, "dug-in");
  s.under_siege = flag_option(vm, "siege");
  s.retreat_area = !flag_option(vm, "no-retreat-area");
  const auto res = sl::refuse_battle(rules, s);
  report r;
  r.document = base_document(rules, "refuse", vm);
  json& doc = r.document;
  doc["can_refuse"] = res.can_refuse;
  if (!res.can_refuse) doc["reason"] = res.reason;
  doc["supplies_taken"] = res.supplies_taken;
  doc["supplies_abandoned"] = res.supplies_abandoned;
  doc["notes"] =
      json::array({"refusing costs no dice and no supplies; with a Leader the army takes floor(units / 2) Supplies "
                   "along, the rest are abandoned to the attacker (NT 8.1, SS 10.1)"});
  r.title = fmt::format("{} refuse battle: {} units, {} leader(s), {} supplies", game_title(rules), s.units, s.leaders,
                        s.supplies);
  r.verdict = res.can_refuse ? fmt::format("may refuse: takes {} supplies along, abandons {}", res.supplies_taken,
                                           res.supplies_abandoned)
                             : "cannot refuse: " + res.reason;
  r.result_keys = {"can_refuse", "reason", "supplies_taken", "supplies_abandoned"};
  return r;
}

report run_commit(const sl::rule_set& rules, const po::variables_map& vm) {
  const sl::battle_setup s = read_battle(vm, true);
  const auto objective = sl::parse_objective(string_option(vm, "objective"), "objective");
  const auto table = sl::best_commitment(rules, s, int_option(vm, "att-war-available"),
                                         int_option(vm, "def-war-available"), objective);
  report r;
  r.document = base_document(rules, "commit", vm);
  json& doc = r.document;
  json rows = json::array(), matrix = json::array();
  for (const auto& row : table.rows) {
    rows.push_back(
        json{{"att_war", row.attacker_war}, {"def_war_best_reply", row.defender_best_reply}, {"value", row.value}});
    matrix.push_back(json{{"att_war", row.attacker_war}, {"values_by_def_war", row.value_by_reply}});
  }
  doc["objective"] = sl::to_string(objective);
  doc["rows"] = rows;
  doc["best"] =
      json{{"att_war", table.best_attacker_war}, {"def_war", table.best_defender_war}, {"value", table.best_value}};
  doc["matrix"] = matrix;
  doc["exact"] = json{{"best", {{"value", to_fraction_string(table.best_value_exact)}}}};
  doc["notes"] =
      json::array({"the defender commits after seeing the attacker's commitment (8.2-8.3) and replies to minimise the "
                   "attacker's objective",
                   "ties go to the smaller commitment on both sides; commitments earning no die are left out",
                   "dislodge = P(retreat or surrender); victory = P(attacker Victory); net-losses = E[defender units "
                   "lost] - E[attacker units lost]"});
  r.title = fmt::format(
      "{} best commitment: {} attack at a {}, {} units + {} leader(s) v {} units + {} leader(s), objective {}",
      game_title(rules), capitalised(sl::to_string(s.attacker)), sl::to_string(s.where), s.attacker_units,
      s.attacker_leaders, s.defender_units, s.defender_leaders, sl::to_string(objective));
  r.verdict = objective == sl::commit_objective::net_losses
                  ? fmt::format("commit {} War: the defender's best reply is {}, net losses {:.3f}",
                                table.best_attacker_war, table.best_defender_war, table.best_value)
                  : fmt::format("commit {} War: the defender's best reply is {}, {} {}", table.best_attacker_war,
                                table.best_defender_war, sl::to_string(objective), percent(table.best_value));
  r.result_keys = {"objective", "best", "rows"};
  return r;
}

report run_morale(const sl::rule_set& rules, const po::variables_map& vm) {
  const int difference = int_option(vm, "difference");
  const sl::side defender = sl::parse_side(string_option(vm, "defender"), "defender");
  const bool point = flag_option(vm, "point");
  int checks = defender == sl::side::crown ? rules.crown_defender_checks : rules.patriot_defender_checks;
  if (vm.count("checks")) {
    const int asked = int_option(vm, "checks");
    if (asked != checks)
      throw invalid_input("checks", std::to_string(asked) + " checks: a " + sl::to_string(defender) + " defender in " +
                                        rules.code + " makes " + std::to_string(checks) + " (" +
                                        (rules.which == sl::game::northern_theater ? "NT 8.7" : "SS 10.7") + ")");
  }
  const rational pass = point ? rational(0) : sl::morale_pass(difference, checks);
  report r;
  r.document = base_document(rules, "morale", vm);
  json& doc = r.document;
  doc["checks"] = point ? 0 : checks;
  doc["passes"] = to_double(pass);
  doc["fails"] = to_double(1 - pass);
  doc["exact"] = json{{"passes", to_fraction_string(pass)}, {"fails", to_fraction_string(1 - pass)}};
  doc["notes"] = json::array(
      {"a check passes when one die meets or exceeds the difference; at a Point it fails outright (NT 8.7, SS 10.7)",
       "a failed check retreats, or surrenders with no retreat (SS: or under Siege)"});
  r.title = fmt::format("{} morale check: difference {}, {} defender{}", game_title(rules), difference,
                        capitalised(sl::to_string(defender)), point ? ", at a point" : "");
  r.verdict = fmt::format("defender stands {} ({}), retreats {}", percent(to_double(pass)), to_fraction_string(pass),
                          percent(to_double(1 - pass)));
  r.result_keys = {"checks", "passes", "fails"};
  return r;
}

using runner = report (*)(const sl::rule_set&, const po::variables_map&);

command make(const std::string& code, const std::string& name, const std::string& summary,
             std::function<void(po::options_description&)> options, runner run, std::string notes = {}) {
  const sl::rule_set& rules = sl::rules_for(code);
  return command{name, summary, std::move(options),
                 [&rules, run](const po::variables_map& vm) { return run(rules, vm); }, std::move(notes)};
}

}  // namespace

json battle_results(const sl::rule_set& rules, const sl::battle_result<rational>& res,
                    const std::optional<sl::track_position_setup>& track, bool exact_answer) {
  const bool ss = rules.which == sl::game::southern_strategy;
  json doc = json::object();
  json outcomes = json::object(), exact = json::object();
  for (auto o : sl::all_battle_outcomes) {
    outcomes[sl::to_string(o)] = to_double(res[o]);
    exact[sl::to_string(o)] = to_fraction_string(res[o]);
  }
  doc["outcomes"] = outcomes;
  doc["attacker_losses"] = probability_array(res.attacker_losses);
  doc["defender_losses"] = probability_array(res.defender_losses);
  doc["track_shift"] = probability_object(res.track_shift);
  if (ss) doc["instant_victory"] = to_double(res.instant_victory);
  doc["summary"] = json{{"attacker_victory", to_double(attacker_victory(res))},
                        {"defender_dislodged", to_double(defender_dislodged(res))},
                        {"expected_attacker_losses", to_double(mean(res.attacker_losses))},
                        {"expected_defender_losses", to_double(mean(res.defender_losses))},
                        {"expected_track_shift", to_double(mean(res.track_shift))}};
  exact["attacker_losses"] = exact_array(res.attacker_losses);
  exact["defender_losses"] = exact_array(res.defender_losses);
  exact["track_shift"] = exact_object(res.track_shift);
  if (ss) exact["instant_victory"] = to_fraction_string(res.instant_victory);
  exact["attacker_victory"] = to_fraction_string(attacker_victory(res));
  exact["defender_dislodged"] = to_fraction_string(defender_dislodged(res));
  std::vector<exact_distribution> distributions{{"attacker_losses", &res.attacker_losses},
                                                {"defender_losses", &res.defender_losses},
                                                {"track_shift", &res.track_shift}};
  pmf position;
  if (track) {
    position = sl::track_position_after(res.track_shift, *track);
    doc["track_position"] = probability_object(position);
    exact["track_position"] = exact_object(position);
    distributions.push_back({"track_position", &position});
    // NT 11.2, 13.1: the instant the marker hits the final Treaty of Alliance space the game ends
    // in a Patriot Victory. (The SS track's ends are judged only at the Victory Check, 14.0.)
    if (!ss && track->highest) {
      const rational treaty = at_least(position, *track->highest);
      doc["treaty_of_alliance"] = to_double(treaty);
      exact["treaty_of_alliance"] = to_fraction_string(treaty);
    }
  }
  if (exact_answer) {
    doc["exact"] = std::move(exact);
    add_exact_distribution_stats(doc, distributions);
  }
  return doc;
}

json simulated_battle_results(const sl::rule_set& rules, const sl::battle_setup& setup, const sl::battle_estimate& est,
                              const std::optional<sl::track_position_setup>& track) {
  json doc = battle_results(rules, sl::observed_result(rules, setup, est), track, false);
  const simulation_basis basis{est.trials, 0.95};
  std::vector<distribution_path> distributions{"attacker_losses", "defender_losses", "track_shift"};
  std::vector<std::string> probabilities{"outcomes",    "attacker_losses",          "defender_losses",
                                         "track_shift", "summary.attacker_victory", "summary.defender_dislodged"};
  if (doc.contains("instant_victory")) probabilities.push_back("instant_victory");
  if (track) {
    distributions.push_back("track_position");
    probabilities.push_back("track_position");
  }
  if (doc.contains("treaty_of_alliance")) probabilities.push_back("treaty_of_alliance");
  add_probability_intervals(doc, probabilities, basis);
  add_distribution_stats(doc, distributions, &basis);
  return doc;
}

void register_supply_lines_commands(command_registry& registry) {
  for (const std::string code : {"nt", "ss"}) {
    const bool nt = code == "nt";
    auto& game = registry.add_game(code, nt ? "Supply Lines of the American Revolution: The Northern Theater"
                                            : "Supply Lines of the American Revolution: The Southern Strategy");
    game.commands.push_back(make(
        code, "battle", "odds of an Attack: outcomes, losses, track shift",
        [nt](po::options_description& o) {
          add_army_options(o, false, !nt);
          o.add_options()("method", po::value<std::string>()->default_value("exact"), "exact | sim | auto")(
              "trials", whole_number(1000, 100'000'000)->default_value(1'000'000),
              "simulated battles for --method sim")("seed", whole_number(0, 2'000'000'000)->default_value(1775),
                                                    "simulation seed (same seed, same answer)");
        },
        run_battle,
        "example: musket " + code +
            " battle --attacker crown --terrain city --att-units 6 --att-leaders 1 --att-war 5 --def-units 4 "
            "--def-leaders 1 --def-war 3" +
            // SS 9.2: more than 4 Crown units need Cornwallis (the example runs: tests/cli/help_examples_test).
            std::string(nt ? "" : " --crown-commander")));
    game.commands.push_back(make(
        code, "commit", "best War Supply commitment and the defender's best reply",
        [nt](po::options_description& o) { add_army_options(o, true, !nt); }, run_commit));
    game.commands.push_back(make(
        code, "skirmish", "a Patriot skirmish against a Crown army at a point",
        [nt](po::options_description& o) {
          o.add_options()("war", whole_number(1, sl::max_war_supplies)->required(), "War Supplies spent, one die each")(
              "crown-units", whole_number(1, sl::max_units)->required(), "Crown units at the point")(
              "crown-leaders", whole_number(0, sl::rules_for(nt ? "nt" : "ss").max_leaders_per_army)->default_value(0),
              "Crown leaders with them")("patriot-units", whole_number(1, 2)->default_value(1),
                                         "skirmishing Patriot units")(
              "attacker", po::value<std::string>()->default_value("patriot"),
              "patriot (only the Patriot may skirmish)");
          if (!nt) o.add_options()("crown-commander", "Cornwallis is with the Crown army");
        },
        run_skirmish));
    game.commands.push_back(make(
        code, "morale", "a beaten defender's morale check(s)",
        [nt](po::options_description& o) {
          // A morale check follows only a win: the winner is 1 or more ahead, at most every unit and leader.
          o.add_options()(
              "difference",
              whole_number(1, 2 * (sl::max_units + sl::rules_for(nt ? "nt" : "ss").max_leaders_per_army))->required(),
              "winner's units + leaders minus the loser's")("defender",
                                                            po::value<std::string>()->default_value("patriot"),
                                                            "crown | patriot (NT: the Patriot makes two checks)")(
              "checks", whole_number(1, 2), "must match the rules for this defender (NT 8.7, SS 10.7)")(
              "point", "the battle was at a Point: the check fails outright");
        },
        run_morale));
    game.commands.push_back(make(
        code, "initiative", "who moves first and where the Pass Marker starts",
        [nt](po::options_description& o) {
          if (nt) o.add_options()("declared", "Independence has been Declared (ties go to the Patriot)");
        },
        run_initiative));
    game.commands.push_back(make(
        code, "refuse", "what Refusing Battle costs (no dice)",
        [nt](po::options_description& o) {
          o.add_options()("units", whole_number(1, sl::max_units)->required(), "units in the refusing army")(
              "leaders", whole_number(0, sl::rules_for(nt ? "nt" : "ss").max_leaders_per_army)->default_value(0),
              "its leaders")("supplies", whole_number(0, sl::max_army_supplies)->default_value(0), "Supplies with it")(
              "dug-in", "the army is Dug-In")("no-retreat-area", "no adjacent friendly or empty Area");
          if (!nt) o.add_options()("siege", "the army is under Siege: it cannot refuse (SS 10.1)");
        },
        run_refuse));
    if (nt) {
      game.commands.push_back(make(
          code, "bombard", "a Crown Bombard from the Sea Box",
          [](po::options_description& o) {
            o.add_options()("war", whole_number(1, sl::max_war_supplies)->required(), "War Supplies in the Sea Box")(
                "patriot-units", whole_number(1, sl::max_units)->required(), "Patriot units in the target")(
                "attacker", po::value<std::string>()->default_value("crown"), "crown (only the Crown may bombard)");
          },
          run_bombard));
      game.commands.push_back(make(
          code, "reinforcements", "Patriot Reinforcement Markers drawn from the cup",
          [](po::options_description& o) {
            o.add_options()("cup-markers", whole_number(0, sl::max_units)->required(), "markers in the cup")(
                "crown-occupied", whole_number(0, sl::max_units)->default_value(0),
                "of those, markers naming Crown-occupied Cities")("draws", whole_number(0, sl::max_units)->required(),
                                                                  "markers to draw (the Support Track's number)")(
                "winter", "a Winter Turn: two more draws");
          },
          run_reinforcements));
    } else {
      game.commands.push_back(make(
          code, "sea-battle", "a Sea Battle between the Crown and French navies",
          [](po::options_description& o) {
            o.add_options()("modifier", whole_number(0, sl::max_naval_modifier)->required(),
                            "Naval Modifier on the Political Will Track")(
                "colour", po::value<std::string>()->required(), "red | blue (the marker's space)")(
                "initiator", po::value<std::string>()->required(), "crown | patriot");
          },
          run_sea_battle));
      game.commands.push_back(make(
          code, "navy-return", "chance a removed navy returns",
          [](po::options_description& o) {
            o.add_options()("enemy-on-map", "the enemy navy is on the map")(
                "turns", whole_number(1, sl::max_navy_turns)->default_value(1), "non-winter turns to look ahead");
          },
          run_navy_return));
      game.commands.push_back(make(
          code, "raid", "a Militia Raid",
          [](po::options_description& o) {
            o.add_options()("militia-remaining", whole_number(0, sl::max_units)->required(),
                            "Militia left in the box after the raider")("swamp-fox",
                                                                        "the Swamp Fox is in the box (+1)");
          },
          run_raid));
      game.commands.push_back(make(
          code, "irregulars", "what comes out of the Irregular Cup",
          [](po::options_description& o) {
            o.add_options()("cup", po::value<std::string>()->required(),
                            "chits in the cup, e.g. ga-loyalist=2,sc-loyalist=1,sc-militia=2,swamp-fox=1")(
                "draws", whole_number(0, sl::max_units)->default_value(3), "chits drawn (3 each Turn End)");
          },
          run_irregulars));
    }
  }
}

}  // namespace musket::cli
