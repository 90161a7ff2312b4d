#include "calc/campaign/great_lakes_campaign.hpp"

#include <algorithm>
#include <optional>
#include <set>

#include "calc/campaign/plan_json.hpp"
#include "calc/great_lakes/rules/round.hpp"
#include "calc/great_lakes/scenario.hpp"
#include "calc/great_lakes/simulation/battle_loop.hpp"
#include "calc/great_lakes/turn/missions.hpp"
#include "calc/great_lakes/turn/war_end.hpp"
#include "core/invalid_input.hpp"
#include "core/json_input.hpp"

namespace musket::campaign {

namespace gl = musket::great_lakes;
using nlohmann::json;

namespace {

int index_of(gl::nation n) {
  return n == gl::nation::american ? 0 : 1;
}

// A side by its index here (0 american, 1 british) and back, by the nation's names (battle.hpp's
// table): a plan spells each side as a battle does.
std::string side_name(int s) {
  return gl::to_string(s == 0 ? gl::nation::american : gl::nation::british);
}
std::optional<int> side_of(const std::string& name) {
  if (const auto n = value_of(gl::names_of_nation, name)) return index_of(*n);
  return std::nullopt;
}
std::string allowed_sides() {
  return "allowed: " + names_list(gl::names_of_nation);
}

[[noreturn]] void fail(const std::string& file, const std::string& path, const std::string& message) {
  throw invalid_input(file + ": " + path, message);
}

// Every VP location of GL 14 with its value and the side that earns it.
struct vp_location {
  std::string name;
  int vp;
  int earner;  // 0 american, 1 british
};
std::vector<vp_location> vp_locations(const gl::game_data& data) {
  std::vector<vp_location> out;
  for (const auto& l : data.american_vp) out.push_back({l.location, l.vp, 0});
  for (const auto& l : data.british_vp) out.push_back({l.location, l.vp, 1});
  return out;
}

bool occupies(const gl::unit& u) {
  // GL 14.5: occupation needs infantry (regulars), militia or artillery.
  return u.sp > 0 &&
         (u.type == gl::unit_type::regular || u.type == gl::unit_type::militia || u.type == gl::unit_type::artillery);
}

// [BRITISH, AMERICAN] squadron dice, each 1..12 (as `gl turn --erie-dice B,A`).
std::array<int, 2> parse_dice(const json& v, const std::string& file, const std::string& path) {
  const std::string allowed = "give [BRITISH, AMERICAN] squadron dice, each 1..12";
  if (!v.is_array() || v.size() != 2) fail(file, path, allowed);
  return {plan_whole_number(v[0], file + ": " + path + "/0", 1, 12),
          plan_whole_number(v[1], file + ": " + path + "/1", 1, 12)};
}

great_lakes_orders parse_orders(const json& v, const std::string& file, const std::string& path) {
  great_lakes_orders o;
  if (v.is_string() && v == "optimal") {
    o.optimal = true;
    return o;
  }
  if (!v.is_object())
    fail(file, path, "give {\"ontario\": MISSION, \"erie\": MISSION} (a lake left out: transport) or \"optimal\"");
  for (auto it = v.begin(); it != v.end(); ++it) {
    if (it.key() != "ontario" && it.key() != "erie")
      fail(file, pointer_child(path, it.key()), "unknown lake; allowed: ontario, erie");
    const std::string text = it.value().is_string() ? it.value().get<std::string>() : it.value().dump();
    try {
      o.by_lake[it.key() == "ontario" ? gl::ontario : gl::erie] = gl::parse_mission(text, path);
    } catch (const invalid_input& e) {
      fail(file, pointer_child(path, it.key()), e.what());
    }
  }
  return o;
}

// Per-side SP or CAP amounts: {"american": N, "british": N}, each lowest..highest.
void parse_per_side(const json& s, const char* key, int out[2], int lowest, int highest, const std::string& why,
                    const std::string& file, const std::string& path) {
  if (!s.contains(key)) return;
  const json& v = s.at(key);
  const std::string where = pointer_child(path, key);
  if (!v.is_object()) fail(file, where, "give {\"american\": N, \"british\": N}, " + why);
  for (auto it = v.begin(); it != v.end(); ++it) {
    const auto side = side_of(it.key());
    if (!side) fail(file, pointer_child(where, it.key()), "unknown side; " + allowed_sides());
    try {
      out[*side] = plan_whole_number(it.value(), file + ": " + pointer_child(where, it.key()), lowest, highest);
    } catch (const invalid_input& e) {
      throw invalid_input(e.field(), it.value().dump() + " is not allowed; " + std::to_string(lowest) + ".." +
                                         std::to_string(highest) + " " + why);
    }
  }
}

// The turn's CAP odds from the `gl turn` functions: every pair of pure mission choices the two
// sides' orders give weight to, resolved exactly and mixed by those weights.
great_lakes_turn_odds turn_odds(const gl::game_data& data, const great_lakes_orders orders[2],
                                const std::array<std::array<int, 2>, 2>& dice, const std::string& file,
                                const std::string& path) {
  auto dice_path = [&](const invalid_input& e) {
    return path + (e.field() == "ontario-dice" ? "/ontario_dice" : "/erie_dice");
  };
  std::optional<gl::missions_result> solved;
  std::array<std::vector<double>, 2> mix;  // [american, british] over index 4 * ontario + erie
  for (int s = 0; s < 2; ++s) {
    if (orders[s].optimal) {
      if (!solved) {
        try {
          solved = gl::solve_missions(data, dice, gl::mission_objective::first);
        } catch (const invalid_input& e) {
          fail(file, dice_path(e),
               std::string(e.what()) +
                   "; \"optimal\" weighs every mission, intercepts included: give the dice "
                   "in the step or the plan (\"erie_dice\": [BRITISH, AMERICAN]) or --erie-dice");
        }
      }
      mix[s] = s == 0 ? solved->american_strategy : solved->british_strategy;
    } else {
      mix[s].assign(16, 0.0);
      mix[s][4 * static_cast<std::size_t>(orders[s].by_lake[0]) + static_cast<std::size_t>(orders[s].by_lake[1])] = 1.0;
    }
  }
  great_lakes_turn_odds out;
  out.cap = {pmf_double::empty(), pmf_double::empty()};
  double weight = 0;
  for (std::size_t b = 0; b < 16; ++b)
    for (std::size_t a = 0; a < 16; ++a) {
      const double w = mix[1][b] * mix[0][a];
      if (!(w > 1e-12)) continue;  // the solver's zeros (and rounding dust)
      gl::turn_setup t;
      t.orders[gl::ontario] = {gl::all_missions[b / 4], gl::all_missions[a / 4]};
      t.orders[gl::erie] = {gl::all_missions[b % 4], gl::all_missions[a % 4]};
      t.ship_dice = dice;
      gl::turn_result r;
      try {
        r = gl::resolve_turn(data, t);
      } catch (const invalid_input& e) {
        fail(file, dice_path(e),
             std::string(e.what()) +
                 "; give the dice in the step or the plan (\"erie_dice\": [BRITISH, AMERICAN]) "
                 "or --erie-dice");
      }
      for (int s = 0; s < 2; ++s) {
        const pmf_double cap = to_double(r.cap[s == 0 ? gl::american : gl::british]);
        for (int v = cap.lowest(); v <= cap.highest(); ++v) out.cap[s].add_mass(v, w * cap[v]);
      }
      out.americans_first += w * to_double(r.americans_first);
      weight += w;
    }
  // Mixed strategies sum to 1 up to the solver's rounding.
  for (auto& c : out.cap) {
    pmf_double scaled = pmf_double::empty();
    for (int v = c.lowest(); v <= c.highest(); ++v) scaled.add_mass(v, c[v] / weight);
    c = scaled;
  }
  out.americans_first /= weight;
  return out;
}

}  // namespace

std::string great_lakes_orders::text() const {
  if (optimal) return "optimal";
  return "ontario=" + gl::to_string(by_lake[0]) + ",erie=" + gl::to_string(by_lake[1]);
}

great_lakes_plan parse_great_lakes_plan(const json& doc, const std::string& file, const gl::game_data& data) {
  if (!doc.is_object()) fail(file, "/", "a plan is a JSON object with \"armies\" and \"steps\"");
  for (auto it = doc.begin(); it != doc.end(); ++it) {
    static const std::set<std::string> keys{"game",  "name",      "armies", "control",      "positions",
                                            "steps", "from_turn", "notes",  "ontario_dice", "erie_dice"};
    if (!keys.count(it.key()))
      fail(file, pointer_child("", it.key()),
           "unknown key; allowed: game, name, armies, control, positions, steps, from_turn, notes, ontario_dice, "
           "erie_dice");
  }
  great_lakes_plan plan;
  plan.file = file;
  plan.name = plan_text(doc, "name", "campaign", file + ": /name");
  plan.from_turn = plan_whole_number(doc, "from_turn", 1, file + ": /from_turn", 1, data.last_turn);
  if (!doc.contains("armies") || !doc.at("armies").is_object())
    fail(file, "/armies", "is required: {\"american\": {\"units\": [...]}, \"british\": {...}}");
  const json& armies = doc.at("armies");
  for (int s = 0; s < 2; ++s)
    if (!armies.contains(side_name(s)))
      fail(file, "/armies/" + side_name(s), "is required (an army object like a battle's)");
  // Parse each army through the scenario reader (as the defender of a probe battle) for its units.
  for (int s = 0; s < 2; ++s) {
    const std::string side = side_name(s);
    if (!armies.at(side).is_object())
      fail(file, "/armies/" + side,
           "must be an army object like a battle's ({\"units\": [...]}), got " + describe_json(armies.at(side)));
    json army = armies.at(side);
    army["side"] = side;
    json probe = {{"attacker", army},
                  {"defender",
                   {{"side", side_name(1 - s)},
                    {"units", {{{"name", "(probe)"}, {"type", "militia"}, {"sp", 1}, {"morale", 3}, {"dice", 1}}}}}}};
    try {
      plan.army[s] = gl::parse_scenario(probe, file + ": /armies/" + side, data).attacker.units;
    } catch (const invalid_input& e) {
      // The probe's "/attacker/..." is the plan's "/armies/<side>/...".
      const std::string army_path = file + ": /armies/" + side;
      const std::string probe_path = army_path + ": /attacker";
      const std::string inner = e.field().compare(0, probe_path.size(), probe_path) == 0
                                    ? e.field().substr(probe_path.size())
                                    : std::string();
      throw invalid_input(army_path + inner, e.what());
    }
  }
  const auto locations = vp_locations(data);
  std::set<std::string> known;
  for (const auto& l : locations) known.insert(l.name);
  if (doc.contains("control")) {
    const json& c = doc.at("control");
    if (!c.is_object()) fail(file, "/control", "must map locations to \"american\" or \"british\"");
    for (auto it = c.begin(); it != c.end(); ++it) {
      const auto side = it.value().is_string() ? value_of(gl::names_of_nation, it.value().get<std::string>())
                                               : std::optional<gl::nation>();
      if (!side) fail(file, pointer_child("/control", it.key()), allowed_sides());
      plan.control[it.key()] = *side;
    }
  }
  if (doc.contains("positions")) {
    const json& where = doc.at("positions");
    if (!where.is_object()) fail(file, "/positions", "give {\"american\": LOCATION, \"british\": LOCATION}");
    for (auto it = where.begin(); it != where.end(); ++it)
      if (!side_of(it.key())) fail(file, pointer_child("/positions", it.key()), "unknown side; " + allowed_sides());
    for (int side = 0; side < 2; ++side) {
      const std::string name = side_name(side);
      if (!where.contains(name)) fail(file, "/positions/" + name, "is required: where the army stands at the start");
      plan.position[side] = plan_text(where, name.c_str(), "", file + ": /positions/" + name);
      if (plan.position[side].empty()) fail(file, "/positions/" + name, "must name a location");
    }
    plan.follows_positions = true;
  }
  if (!doc.contains("steps") || !doc.at("steps").is_array() || doc.at("steps").empty())
    fail(file, "/steps", "is required: a non-empty array");
  const json& steps = doc.at("steps");
  if (steps.size() > static_cast<std::size_t>(max_great_lakes_steps))
    fail(file, "/steps",
         std::to_string(steps.size()) + " steps; a plan has at most " + std::to_string(max_great_lakes_steps));
  // Squadron dice for turn steps: Lake Ontario's from the rules' data (GL 7.1), Lake Erie's only
  // from the plan (they are not in the rules text); a step may give its own.
  std::array<std::array<int, 2>, 2> plan_dice{};
  plan_dice[gl::ontario] = {data.ontario_british_dice.value_or(0), data.ontario_american_dice.value_or(0)};
  plan_dice[gl::erie] = {data.erie_british_dice.value_or(0), data.erie_american_dice.value_or(0)};
  if (doc.contains("ontario_dice")) plan_dice[gl::ontario] = parse_dice(doc.at("ontario_dice"), file, "/ontario_dice");
  if (doc.contains("erie_dice")) plan_dice[gl::erie] = parse_dice(doc.at("erie_dice"), file, "/erie_dice");
  int previous = plan.from_turn;
  for (std::size_t i = 0; i < steps.size(); ++i) {
    const std::string path = pointer_child("/steps", i);
    const json& s = steps[i];
    if (!s.is_object()) fail(file, path, "a step is an object");
    great_lakes_step step;
    step.path = path;
    step.id = plan_text(s, "id", path, file + ": " + path + "/id");
    if (!s.contains("kind") || !s.at("kind").is_string() || (s.at("kind") != "battle" && s.at("kind") != "turn")) {
      if (s.contains("kind") && s.at("kind") == "replacements")
        fail(file, path + "/kind",
             "replacement SP are bought with the turn's CAP (GL 9.1): use a turn step with \"missions\" and "
             "\"replacements\": {\"american\": SP, \"british\": SP}, 0..2 each");
      fail(file, path + "/kind", "allowed: battle, turn");
    }
    step.turn = plan_whole_number(s, "turn", previous, file + ": " + path + "/turn", 1, 1000);
    if (step.turn < previous) fail(file, path + "/turn", "steps must be in turn order (a campaign only moves forward)");
    if (step.turn > data.last_turn)
      fail(file, path + "/turn", "the game ends after turn " + std::to_string(data.last_turn));
    previous = step.turn;
    if (s.at("kind") == "turn") {
      step.what = great_lakes_step::kind::turn;
      for (auto it = s.begin(); it != s.end(); ++it) {
        static const std::set<std::string> keys{"kind",         "id",        "turn",         "missions",
                                                "ontario_dice", "erie_dice", "replacements", "keep_cap"};
        if (!keys.count(it.key()))
          fail(file, pointer_child(path, it.key()),
               "unknown key; allowed: kind, id, turn, missions, ontario_dice, erie_dice, replacements, keep_cap");
      }
      if (!s.contains("turn")) fail(file, path + "/turn", "is required: the turn whose missions and CAP these are");
      if (!plan.steps.empty() && plan.steps.back().turn == step.turn &&
          plan.steps.back().what != great_lakes_step::kind::turn)
        fail(file, path + "/turn",
             "a turn's missions and CAP roll come before its replacements and battles (GL 6.1): put this step first "
             "in turn " +
                 std::to_string(step.turn));
      for (const auto& other : plan.steps)
        if (other.what == great_lakes_step::kind::turn && other.turn == step.turn)
          fail(file, path + "/turn",
               "turn " + std::to_string(step.turn) + " already has a turn step (" + other.path + ")");
      if (!s.contains("missions") || !s.at("missions").is_object())
        fail(file, path + "/missions",
             "is required: {\"british\": {\"ontario\": MISSION, \"erie\": MISSION} or \"optimal\", "
             "\"american\": ...}");
      const json& missions = s.at("missions");
      for (auto it = missions.begin(); it != missions.end(); ++it)
        if (!side_of(it.key()))
          fail(file, pointer_child(path + "/missions", it.key()), "unknown side; " + allowed_sides());
      for (int side = 0; side < 2; ++side) {
        const std::string name = side_name(side);
        if (!missions.contains(name))
          fail(file, path + "/missions/" + name,
               "is required: {\"ontario\": MISSION, \"erie\": MISSION} or \"optimal\"");
        step.orders[side] = parse_orders(missions.at(name), file, path + "/missions/" + name);
      }
      step.ship_dice = plan_dice;
      if (s.contains("ontario_dice"))
        step.ship_dice[gl::ontario] = parse_dice(s.at("ontario_dice"), file, path + "/ontario_dice");
      if (s.contains("erie_dice")) step.ship_dice[gl::erie] = parse_dice(s.at("erie_dice"), file, path + "/erie_dice");
      parse_per_side(s, "replacements", step.replacement_sp, 0, great_lakes_max_replacement_sp_per_turn,
                     "SP wanted this turn (GL 9.1: at most 2 SP a turn, 2 CAP each)", file, path);
      parse_per_side(s, "keep_cap", step.keep_cap, 0, 30, "CAP kept for movement before buying replacements (GL 10.1)",
                     file, path);
      step.odds = turn_odds(data, step.orders, step.ship_dice, file, path);
      plan.steps.push_back(step);
      continue;
    }
    for (auto it = s.begin(); it != s.end(); ++it) {
      static const std::set<std::string> keys{
          "kind",    "id",       "turn", "location",       "attacker",       "from",
          "niagara", "crossing", "fort", "defender_extra", "attacker_extra", "defender_retreats_to"};
      if (!keys.count(it.key()))
        fail(file, pointer_child(path, it.key()),
             "unknown key; allowed: kind, id, turn, location, attacker, from, niagara, crossing, fort, "
             "defender_extra, attacker_extra, defender_retreats_to");
    }
    // Positions followed across turns: every battle says where its attacker comes from.
    for (const char* key : {"from", "defender_retreats_to"})
      if (s.contains(key) && !plan.follows_positions)
        fail(file, pointer_child(path, key), "needs the plan's \"positions\" (where each army stands at the start)");
    if (plan.follows_positions) {
      if (!s.contains("from"))
        fail(file, path + "/from",
             "is required with the plan's \"positions\": the location the attacking army moves from");
      step.from = plan_text(s, "from", "", file + ": " + path + "/from");
      step.defender_retreats_to =
          plan_text(s, "defender_retreats_to", "", file + ": " + path + "/defender_retreats_to");
    }
    if (!s.contains("location") || !s.at("location").is_string())
      fail(file, path + "/location", "is required: where the battle is fought");
    step.location = s.at("location").get<std::string>();
    if (plan.follows_positions && step.from == step.location)
      fail(file, path + "/from", "is the battle's own location; give where the attacker moves from");
    const auto attacker = s.contains("attacker") && s.at("attacker").is_string()
                              ? value_of(gl::names_of_nation, s.at("attacker").get<std::string>())
                              : std::optional<gl::nation>();
    if (!attacker) fail(file, path + "/attacker", "is required: " + names_list(gl::names_of_nation, " or "));
    step.attacker = *attacker;
    const int a = index_of(step.attacker), d = 1 - a;
    json att = armies.at(side_name(a)), def = armies.at(side_name(d));
    att["side"] = side_name(a);
    def["side"] = side_name(d);
    step.attacker_army_units = att.at("units").size();
    step.defender_army_units = def.at("units").size();
    if (s.contains("crossing")) {
      for (auto& u : att["units"])
        if (u.is_object()) u["crossing"] = s.at("crossing");
    }
    if (s.contains("attacker_extra"))
      for (const auto& u : s.at("attacker_extra")) att["units"].push_back(u);
    if (s.contains("defender_extra"))
      for (const auto& u : s.at("defender_extra")) def["units"].push_back(u);
    if (s.contains("fort")) def["fort"] = s.at("fort");
    json scenario = {{"niagara", plan_flag(s, "niagara", false, file + ": " + path + "/niagara")},
                     {"attacker", att},
                     {"defender", def}};
    try {
      step.template_battle = gl::parse_scenario(scenario, file + ": " + path, data);
    } catch (const invalid_input& e) {
      throw invalid_input(file + ": " + path, e.what() + std::string(" (in the battle built from this step)"));
    }
    plan.steps.push_back(step);
  }
  return plan;
}

great_lakes_campaign_result run_great_lakes_campaign(const great_lakes_plan& plan, const gl::game_data& data,
                                                     const chain_simulation_options& options) {
  namespace d = gl::round;  // the public round API (calc/great_lakes/rules/round.hpp)
  const auto locations = vp_locations(data);
  const gl::war_end_result war_end = gl::resolve_war_end(data, plan.from_turn);
  std::vector<double> end_cdf;
  std::vector<int> end_turns;
  double running = 0;
  for (int t = war_end.last_turn.lowest(); t <= war_end.last_turn.highest(); ++t) {
    const double p = to_double(war_end.last_turn[t]);
    if (p == 0) continue;
    running += p;
    end_turns.push_back(t);
    end_cdf.push_back(running);
  }
  int max_sp[2] = {0, 0};
  for (int s = 0; s < 2; ++s) {
    for (const auto& u : plan.army[s]) max_sp[s] += u.max_sp;
  }
  int max_vp[2] = {0, 0};
  for (const auto& l : locations) max_vp[l.earner] += l.vp;

  tally_layout layout;
  struct step_counters {
    std::size_t fought, attacker_wins, taken, not_there, sp[2], bought[2];
  };
  std::vector<step_counters> counters;
  for (std::size_t i = 0; i < plan.steps.size(); ++i) {
    step_counters c{layout.counter(),
                    layout.counter(),
                    layout.counter(),
                    layout.counter(),
                    {layout.counter(), layout.counter()},
                    {layout.counter(), layout.counter()}};
    counters.push_back(c);
  }
  // Turn steps: each side's CAP law as a cumulative table to draw from.
  std::vector<std::array<std::vector<std::pair<double, int>>, 2>> cap_cdf(plan.steps.size());
  for (std::size_t i = 0; i < plan.steps.size(); ++i)
    for (int s = 0; s < 2; ++s) {
      const pmf_double& cap = plan.steps[i].odds.cap[s];
      double sum = 0;
      for (int v = cap.lowest(); !cap.is_empty() && v <= cap.highest(); ++v)
        if (cap[v] > 0) cap_cdf[i][s].push_back({sum += cap[v], v});
    }
  std::vector<std::array<std::size_t, 2>> held;
  for (std::size_t l = 0; l < locations.size(); ++l) held.push_back({layout.counter(), layout.counter()});
  const auto vp_hist_a = layout.add_histogram(0, max_vp[0]);
  const auto vp_hist_b = layout.add_histogram(0, max_vp[1]);
  const std::size_t british_ahead = layout.counter(), tied = layout.counter();
  const auto margin_hist = layout.add_histogram(-max_vp[0], max_vp[1]);  // British VP - American VP
  const std::size_t british_wins = layout.counter(), american_wins = layout.counter();
  const std::size_t automatic[2] = {layout.counter(), layout.counter()};  // [american, british]
  // GL 14.4: the side (0 american, 1 british) that holds every VP location on its opponent's side;
  // -1 for neither. Both at once: "In case of a tie the British win".
  auto automatic_winner = [&](const std::map<std::string, gl::nation>& control) {
    bool all[2] = {true, true};
    for (const auto& l : locations) {
      const auto it = control.find(l.name);
      if (it == control.end() || index_of(it->second) != l.earner) all[l.earner] = false;
    }
    return all[1] ? 1 : all[0] ? 0 : -1;
  };

  // Compiled battles (rules) are rebuilt per trial because the units change; the template holds
  // everything else.
  auto trial = [&](random_engine& engine, std::span<std::uint64_t> tally) {
    std::vector<gl::unit> army[2] = {plan.army[0], plan.army[1]};
    std::map<std::string, gl::nation> control = plan.control;
    const double u = static_cast<double>(engine()) * (1.0 / 4294967296.0);
    std::size_t e = 0;
    while (e + 1 < end_cdf.size() && u >= end_cdf[e]) ++e;
    const int last_turn = end_turns[e];
    int thrown_back_on[2] = {0, 0};  // the turn each army's attack last failed (GL 12.6); 0: none
    // Where each army stands (plans with "positions"); "" once it has retreated somewhere the plan
    // does not say.
    std::string position[2] = {plan.position[0], plan.position[1]};
    int automatic_win = -1;  // GL 14.4: the side that won at a turn's end, -1 none
    for (std::size_t i = 0; i < plan.steps.size() && automatic_win < 0; ++i) {
      const great_lakes_step& step = plan.steps[i];
      if (step.turn > last_turn) break;
      if (step.what == great_lakes_step::kind::turn) {
        ++tally[counters[i].fought];  // the turn is played
        for (int s = 0; s < 2; ++s) {
          // This turn's CAP (GL 8.1), drawn from its exact law; 2 CAP buy 1 SP, at most 2 SP (GL 9.1),
          // from what is left after the CAP the plan keeps for movement (GL 10.1).
          const auto& cdf = cap_cdf[i][s];
          const double u = static_cast<double>(engine()) * (1.0 / 4294967296.0) * cdf.back().first;
          std::size_t k = 0;
          while (k + 1 < cdf.size() && u >= cdf[k].first) ++k;
          const int spare = std::max(0, cdf[k].second - step.keep_cap[s]);
          int left = std::min(step.replacement_sp[s], spare / great_lakes_cap_per_replacement_sp);
          while (left > 0) {
            gl::unit* worst = nullptr;
            for (auto& un : army[s])
              if (un.sp < un.max_sp && (!worst || un.max_sp - un.sp > worst->max_sp - worst->sp)) worst = &un;
            if (!worst) break;  // GL 9.1: only reduced units, never eliminated ones
            ++worst->sp;
            --left;
            ++tally[counters[i].bought[s]];
          }
        }
      } else {
        const int a = index_of(step.attacker), df = 1 - a;
        // With positions followed, the defending army fights only where it stands.
        const bool defender_in_place = !plan.follows_positions || position[df] == step.location;
        std::vector<gl::unit> absent;
        std::vector<gl::unit>& defending = defender_in_place ? army[df] : absent;
        const bool defender_there = !defending.empty();
        if (army[a].empty()) {
          // Nothing left to attack with: the battle is not fought.
        } else if (thrown_back_on[a] == step.turn || (plan.follows_positions && position[a] != step.from)) {
          ++tally[counters[i].not_there];  // not where this attack starts: back where it came from (GL 12.6)
        } else {
          ++tally[counters[i].fought];
          bool attacker_won = false;
          gl::battle b = step.template_battle;
          // Swap in the carried units (the template lists the starting army first).
          auto carried = [&](std::vector<gl::unit>& units, std::size_t n, const std::vector<gl::unit>& now,
                             bool attacking) {
            std::vector<gl::unit> out;
            for (const auto& c : now) {
              gl::unit copy = c;
              if (attacking && n > 0) copy.crossed = units.front().crossed;
              out.push_back(copy);
            }
            out.insert(out.end(), units.begin() + static_cast<std::ptrdiff_t>(n), units.end());
            units = std::move(out);
          };
          carried(b.attacker.units, step.attacker_army_units, army[a], true);
          carried(b.defender.units, step.defender_army_units, defending, false);
          const std::size_t defender_carried = defending.size();
          if (!defender_there && b.defender.units.empty() && !b.defender.fortification) {
            attacker_won = true;  // an undefended location is taken
          } else if (b.defender.units.empty() && !b.defender.fortification) {
            attacker_won = true;
          } else {
            const d::battle_rules r = d::compile(b);
            d::round_state now = d::track(r, d::initial_state(r));
            // The one battle loop (battle_loop.hpp), as `gl battle --method sim` plays it: to the end.
            attacker_won = gl::attacker_won(gl::play_battle(r, now, engine).end);
            const d::battle_state& st = now.s;
            // Carry the survivors: the army's units are listed first on each side.
            auto survivors = [&](std::vector<gl::unit>& units, int side) {
              std::vector<gl::unit> out;
              for (std::size_t k = 0; k < units.size(); ++k) {
                const int sp = st.sp[static_cast<std::size_t>(r.begin[side]) + k];
                if (sp > 0) {
                  gl::unit copy = units[k];
                  copy.sp = sp;
                  copy.crossed = gl::crossing::none;
                  out.push_back(copy);
                }
              }
              units = std::move(out);
            };
            survivors(army[a], d::attacker);
            std::vector<gl::unit> defenders(defending.begin(),
                                            defending.begin() + static_cast<std::ptrdiff_t>(defender_carried));
            survivors(defenders, d::defender);
            defending = std::move(defenders);
          }
          if (attacker_won) {
            ++tally[counters[i].attacker_wins];
            if (std::any_of(army[a].begin(), army[a].end(), occupies)) {
              control[step.location] = step.attacker;
              ++tally[counters[i].taken];
            }
            position[a] = step.location;  // the attacker moved in (GL 10.4)
            // GL 12.6: the defenders retreat together to one open location the attacker did not come from.
            if (defender_in_place) position[df] = step.defender_retreats_to;
          } else {
            // GL 12.6: the attacker retreats to where it came from, the location stays with the
            // defender, and both stay so into later turns (position[a] is still step.from).
            thrown_back_on[a] = step.turn;
          }
        }
      }
      for (int s = 0; s < 2; ++s) {
        int sp = 0;
        for (const auto& un : army[s]) sp += un.sp;
        tally[counters[i].sp[s]] += static_cast<std::uint64_t>(sp);
      }
      // GL 14.4, checked when the turn ends (its last step in the plan; control changes only in
      // steps): an automatic victory ends the game there.
      if (i + 1 == plan.steps.size() || plan.steps[i + 1].turn != step.turn) automatic_win = automatic_winner(control);
    }
    int vp[2] = {0, 0};
    for (std::size_t l = 0; l < locations.size(); ++l) {
      const auto it = control.find(locations[l].name);
      if (it == control.end()) continue;
      const int holder = index_of(it->second);
      ++tally[held[l][static_cast<std::size_t>(holder)]];
      if (holder == locations[l].earner) vp[holder] += locations[l].vp;
    }
    ++tally[vp_hist_a.at(vp[0])];
    ++tally[vp_hist_b.at(vp[1])];
    if (vp[1] > vp[0]) ++tally[british_ahead];
    if (vp[1] == vp[0]) ++tally[tied];
    ++tally[margin_hist.at(vp[1] - vp[0])];
    // GL 14.1: the side with more VP wins, a tie to the British; unless GL 14.4 decided first.
    const bool british_won = automatic_win >= 0 ? automatic_win == 1 : vp[1] >= vp[0];
    ++tally[british_won ? british_wins : american_wins];
    if (automatic_win >= 0) ++tally[automatic[automatic_win]];
  };
  const simulation_tally t = run_chain_trials(options, layout.size(), trial);
  great_lakes_campaign_result out;
  out.trials = t.trials;
  out.seed = options.simulation.seed;
  for (std::size_t i = 0; i < plan.steps.size(); ++i) {
    great_lakes_step_result r;
    r.id = plan.steps[i].id;
    r.turn = plan.steps[i].turn;
    r.location = plan.steps[i].location;
    r.fought = tally_interval(t, counters[i].fought);
    r.attacker_wins = tally_interval(t, counters[i].attacker_wins);
    r.taken = tally_interval(t, counters[i].taken);
    r.not_there = tally_interval(t, counters[i].not_there);
    for (int s = 0; s < 2; ++s)
      r.mean_sp[s] =
          static_cast<double>(t.counts[counters[i].sp[s]]) / static_cast<double>(std::max<std::uint64_t>(1, t.trials));
    out.steps.push_back(r);
    if (plan.steps[i].what == great_lakes_step::kind::turn) {
      great_lakes_turn_result turn;
      turn.id = r.id;
      turn.turn = r.turn;
      for (int s = 0; s < 2; ++s) {
        turn.orders[s] = plan.steps[i].orders[s].text();
        const std::uint64_t played = t.counts[counters[i].fought];
        turn.mean_replacement_sp[s] =
            played ? static_cast<double>(t.counts[counters[i].bought[s]]) / static_cast<double>(played) : 0.0;
      }
      turn.odds = plan.steps[i].odds;
      out.turns.push_back(turn);
    }
  }
  for (std::size_t l = 0; l < locations.size(); ++l) {
    great_lakes_location_result r;
    r.location = locations[l].name;
    r.vp = locations[l].vp;
    r.earned_by = side_name(locations[l].earner);
    r.american = tally_interval(t, held[l][0]);
    r.british = tally_interval(t, held[l][1]);
    out.locations.push_back(r);
  }
  for (std::size_t b = 0; b < vp_hist_a.bins(); ++b)
    out.american_vp.push_back(static_cast<double>(t.counts[vp_hist_a.offset + b]) / static_cast<double>(t.trials));
  for (std::size_t b = 0; b < vp_hist_b.bins(); ++b)
    out.british_vp.push_back(static_cast<double>(t.counts[vp_hist_b.offset + b]) / static_cast<double>(t.trials));
  out.british_ahead = tally_interval(t, british_ahead);
  out.tied = tally_interval(t, tied);
  out.british_wins = tally_interval(t, british_wins);
  out.american_wins = tally_interval(t, american_wins);
  out.american_automatic = tally_interval(t, automatic[0]);
  out.british_automatic = tally_interval(t, automatic[1]);
  // The margin's law over the margins that occur (at least one bin: 0 when nothing is held).
  std::size_t first = margin_hist.bins(), last = 0;
  for (std::size_t b = 0; b < margin_hist.bins(); ++b)
    if (t.counts[margin_hist.offset + b] > 0) first = std::min(first, b), last = b;
  if (first > last) first = last = static_cast<std::size_t>(-margin_hist.lowest);
  out.vp_margin_lowest = margin_hist.lowest + static_cast<int>(first);
  for (std::size_t b = first; b <= last; ++b)
    out.vp_margin.push_back(static_cast<double>(t.counts[margin_hist.offset + b]) / static_cast<double>(t.trials));
  for (int turn = 0; turn <= war_end.last_turn.highest(); ++turn)
    out.last_turn.push_back(to_double(war_end.last_turn[turn]));
  (void)max_sp;
  return out;
}

}  // namespace musket::campaign
