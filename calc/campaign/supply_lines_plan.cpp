// Reading and validating a Supply Lines campaign plan. Every error names the plan file and the
// JSON pointer of the offending value ("plan.json: /steps/2/kind"), before anything is computed.
#include <algorithm>
#include <map>
#include <optional>
#include <set>

#include "calc/campaign/plan_json.hpp"
#include "calc/campaign/supply_lines_campaign.hpp"
#include "calc/supply_lines/battle.hpp"
#include "calc/supply_lines/skirmish.hpp"
#include "core/invalid_input.hpp"
#include "core/json_input.hpp"

namespace musket::campaign {

namespace sl = musket::supply_lines;
using nlohmann::json;

namespace {

struct reader {
  std::string file;
  [[noreturn]] void fail(const std::string& path, const std::string& message) const {
    throw invalid_input(file + ": " + path, message);
  }
  void only_keys(const json& object, const std::string& path, std::initializer_list<const char*> allowed) const {
    for (auto it = object.begin(); it != object.end(); ++it) {
      bool known = false;
      std::string list;
      for (const char* a : allowed) {
        known = known || it.key() == a;
        list += (list.empty() ? "" : ", ") + std::string(a);
      }
      if (!known) fail(pointer_child(path, it.key()), "unknown key; allowed here: " + list);
    }
  }
  int integer(const json& object, const std::string& path, const char* key, int fallback, int lowest,
              int highest) const {
    if (!object.contains(key)) return fallback;
    const json& v = object.at(key);
    const std::string where = pointer_child(path, key);
    return whole(v, where, lowest, highest);
  }
  // A whole number in [lowest, highest]; a huge or fractional number is refused, never wrapped.
  int whole(const json& v, const std::string& where, int lowest, int highest) const {
    return plan_whole_number(v, file + ": " + where, lowest, highest);
  }
  std::string text(const json& object, const std::string& path, const char* key, const std::string& fallback) const {
    return plan_text(object, key, fallback, file + ": " + pointer_child(path, key));
  }
  bool boolean(const json& object, const std::string& path, const char* key, bool fallback) const {
    return plan_flag(object, key, fallback, file + ": " + pointer_child(path, key));
  }
  state_field field(const json& v, const std::string& path) const {
    if (!v.is_string()) fail(path, "must name a state field: units, leaders, war, food, track");
    const std::string name = v.get<std::string>();
    for (int i = 0; i < 5; ++i)
      if (name == state_field_names[i]) return static_cast<state_field>(i);
    fail(path, "'" + name + "' is not a state field; allowed: units, leaders, war, food, track");
  }
  amount parse_amount(const json& v, const std::string& path) const {
    amount a;
    if (v.is_number()) {
      a.constant = whole(v, path, 0, sl::max_war_supplies);
    } else if (v.is_string()) {
      a.field = v.get<std::string>() == "all" ? state_field::war : field(v, path);
    } else if (v.is_object()) {
      only_keys(v, path, {"field", "minus", "at_most"});
      if (!v.contains("field")) fail(path + "/field", "is required: the state field to take the amount from");
      a.field = field(v.at("field"), path + "/field");
      a.minus = integer(v, path, "minus", 0, 0, 99);
      if (v.contains("at_most")) a.at_most = integer(v, path, "at_most", 0, 0, 99);
    } else {
      fail(path, "must be a number, a state field name, \"all\", or {\"field\": ..., \"at_most\": n}");
    }
    return a;
  }
  condition parse_condition(const json& v, const std::string& path, bool allow_outcome, bool allow_taken) const {
    condition c;
    if (v.is_string()) {
      const std::string s = v.get<std::string>();
      if (s == "always") return c;
      if (allow_outcome && (s == "won" || s == "lost" || s == "repulsed")) {
        c.what = s == "won" ? condition::kind::won : condition::kind::lost;
        return c;
      }
      if (allow_taken && (s == "taken" || s == "not_taken")) {
        c.what = s == "taken" ? condition::kind::taken : condition::kind::not_taken;
        return c;
      }
      fail(path, "'" + s + "' is not a condition here; allowed: " +
                     std::string(allow_outcome ? "always, won, lost, repulsed, " : "always, ") +
                     std::string(allow_taken ? "taken, not_taken, " : "") +
                     "or {\"field\": F, \"below\"|\"at_most\"|\"at_least\"|\"above\"|\"equals\": n}");
    }
    if (!v.is_object()) fail(path, "must be a condition: a string or {\"field\": F, \"below\": n}");
    only_keys(v, path, {"field", "below", "at_most", "at_least", "above", "equals"});
    if (!v.contains("field")) fail(path + "/field", "is required");
    c.what = condition::kind::compare;
    c.field = field(v.at("field"), path + "/field");
    int ops = 0;
    const std::pair<const char*, condition::comparison> names[] = {{"below", condition::comparison::below},
                                                                   {"at_most", condition::comparison::at_most},
                                                                   {"at_least", condition::comparison::at_least},
                                                                   {"above", condition::comparison::above},
                                                                   {"equals", condition::comparison::equals}};
    for (const auto& [name, op] : names)
      if (v.contains(name)) {
        ++ops;
        c.op = op;
        c.value = integer(v, path, name, 0, -99, 99);
      }
    if (ops != 1) fail(path, "needs exactly one of below, at_most, at_least, above, equals");
    return c;
  }
  std::vector<condition> conditions(const json& step, const std::string& path, const char* key, bool allow_outcome,
                                    bool allow_taken) const {
    std::vector<condition> out;
    if (!step.contains(key)) return out;
    const json& v = step.at(key);
    const std::string where = pointer_child(path, key);
    if (v.is_array()) {
      for (std::size_t i = 0; i < v.size(); ++i)
        out.push_back(parse_condition(v[i], pointer_child(where, i), allow_outcome, allow_taken));
    } else {
      out.push_back(parse_condition(v, where, allow_outcome, allow_taken));
    }
    return out;
  }
};

step_kind parse_kind(const reader& r, const json& step, const std::string& path) {
  if (!step.contains("kind")) r.fail(path + "/kind", "is required: march, attack, defend, skirmish, dig_in, receive");
  const json& v = step.at("kind");
  const std::string name = v.is_string() ? v.get<std::string>() : v.dump();
  for (int i = 0; i < 6; ++i)
    if (name == step_kind_names[i]) return static_cast<step_kind>(i);
  r.fail(path + "/kind", "unknown step kind '" + name + "'; allowed: march, attack, defend, skirmish, dig_in, receive");
}

// Names the plan's Areas and says where each step needs the army: its `from`, else where the
// plan's intended path (every attack taking its Area) leaves it.
void resolve_areas(const reader& r, const json& doc, supply_lines_plan& plan,
                   const std::vector<std::optional<std::string>>& from_names,
                   const std::vector<std::optional<std::string>>& to_names) {
  plan.areas = {r.text(doc, "", "start", "start")};
  auto intern = [&](const std::string& name) {
    const auto it = std::find(plan.areas.begin(), plan.areas.end(), name);
    if (it != plan.areas.end()) return static_cast<std::uint8_t>(it - plan.areas.begin());
    if (plan.areas.size() >= elsewhere_area) r.fail("/steps", "more than 254 Areas");
    plan.areas.push_back(name);
    return static_cast<std::uint8_t>(plan.areas.size() - 1);
  };
  for (const auto& t : to_names)
    if (t) intern(*t);
  const std::size_t n = plan.steps.size();
  std::vector<std::set<std::uint8_t>> arriving(n);
  arriving[0].insert(0);
  for (std::size_t i = 0; i < n; ++i) {
    plan_step& step = plan.steps[i];
    if (from_names[i]) {
      const auto it = std::find(plan.areas.begin(), plan.areas.end(), *from_names[i]);
      if (it == plan.areas.end()) {
        std::string known;
        for (const auto& a : plan.areas) known += (known.empty() ? "" : ", ") + a;
        r.fail(step.path + "/from", "no step leads to an Area '" + *from_names[i] + "'; the plan's Areas: " + known);
      }
      step.from = static_cast<std::uint8_t>(it - plan.areas.begin());
    } else if (arriving[i].size() > 1) {
      r.fail(step.path + "/from", "is required: the plan reaches step '" + step.id +
                                      "' from different Areas; say which one it is taken from");
    } else {
      step.from = arriving[i].empty() ? 0 : *arriving[i].begin();
    }
    step.to = to_names[i] ? intern(*to_names[i]) : step.from;
    const bool unconditional_jump = step.jump_to && step.jump_when.what == condition::kind::always;
    if (step.jump_to) arriving[*step.jump_to].insert(step.to);
    if (i + 1 < n && !unconditional_jump) arriving[i + 1].insert(step.to);
  }
}

enum class tri { no, maybe, yes };

// Whether a condition holds after a step, given how its battle went (`maybe` when it depends).
tri condition_holds(const condition& c, tri won, tri taken) {
  auto negate = [](tri t) { return t == tri::yes ? tri::no : t == tri::no ? tri::yes : tri::maybe; };
  switch (c.what) {
    case condition::kind::always:
      return tri::yes;
    case condition::kind::won:
      return won;
    case condition::kind::lost:
      return negate(won);
    case condition::kind::taken:
      return taken;
    case condition::kind::not_taken:
      return negate(taken);
    case condition::kind::compare:
      return tri::maybe;
  }
  return tri::maybe;
}

// Every step must be one the army can take: follows every path of (step, Area) the plan allows,
// with an attack's failure stopping the plan unless if_not_taken says otherwise.
void check_reachable(const reader& r, const supply_lines_plan& plan) {
  const std::size_t n = plan.steps.size();
  std::set<std::pair<std::size_t, std::uint8_t>> seen;
  std::vector<std::pair<std::size_t, std::uint8_t>> work{{0, 0}};
  std::vector<bool> performed_at(n, false);
  auto go = [&](std::size_t i, std::uint8_t area) {
    if (i < n && seen.insert({i, area}).second) work.push_back({i, area});
  };
  while (!work.empty()) {
    const auto [i, area] = work.back();
    work.pop_back();
    const plan_step& step = plan.steps[i];
    if (area != step.from) {
      go(i + 1, area);  // skipped: the army is not there
      continue;
    }
    performed_at[i] = true;
    if (!step.skip_if.empty()) go(i + 1, area);
    struct branch {
      std::uint8_t area;
      tri won, taken;
    };
    std::vector<branch> branches;
    switch (step.kind) {
      case step_kind::attack:
        branches.push_back({step.to, tri::yes, tri::yes});
        if (step.not_taken.then == if_not_taken::action::continue_plan) branches.push_back({area, tri::maybe, tri::no});
        break;
      case step_kind::defend:
        branches.push_back({area, tri::maybe, tri::no});
        branches.push_back({elsewhere_area, tri::maybe, tri::no});
        break;
      case step_kind::skirmish:
        branches.push_back({area, tri::maybe, tri::no});
        break;
      default:
        branches.push_back({step.to, tri::no, tri::no});
    }
    for (const auto& b : branches) {
      bool always_stops = false;
      for (const auto& c : step.stop_if) always_stops = always_stops || condition_holds(c, b.won, b.taken) == tri::yes;
      if (always_stops) continue;
      const tri jump = step.jump_to ? condition_holds(step.jump_when, b.won, b.taken) : tri::no;
      if (jump != tri::no) go(*step.jump_to, b.area);
      if (jump != tri::yes) go(i + 1, b.area);
    }
  }
  for (std::size_t i = 0; i < n; ++i)
    if (!performed_at[i])
      r.fail(plan.steps[i].path, "step '" + plan.steps[i].id + "' can never be reached with the army in Area '" +
                                     plan.areas[plan.steps[i].from] +
                                     "' (an earlier step always stops or jumps past it, or an attack before it "
                                     "stops the plan when it does not take its Area: if_not_taken defaults to stop)");
}

}  // namespace

sl::battle_setup battle_for(const supply_lines_plan& plan, const plan_step& step, const army_at_battle& army) {
  sl::battle_setup b;
  b.where = step.where;
  b.retreat_available = step.retreat_available;
  b.under_siege = step.under_siege;
  b.crown_commander = plan.army_side == sl::side::crown ? plan.crown_commander : step.enemy_commander;
  const bool defending = step.kind == step_kind::defend;
  b.attacker = defending ? sl::opponent(plan.army_side) : plan.army_side;
  int& our_units = defending ? b.defender_units : b.attacker_units;
  int& our_leaders = defending ? b.defender_leaders : b.attacker_leaders;
  int& our_war = defending ? b.defender_war_supplies : b.attacker_war_supplies;
  int& their_units = defending ? b.attacker_units : b.defender_units;
  int& their_leaders = defending ? b.attacker_leaders : b.defender_leaders;
  int& their_war = defending ? b.attacker_war_supplies : b.defender_war_supplies;
  our_units = army.units;
  our_leaders = army.leaders;
  our_war = army.war_committed;
  their_units = step.enemy_units;
  their_leaders = step.enemy_leaders;
  their_war = step.enemy_war;
  // NT 7.5, SS 9.6: only an army in a City or Fort can be Dug-In.
  b.dug_in = defending ? army.dug_in && step.where != sl::terrain::point : step.enemy_dug_in;
  return b;
}

supply_lines_plan parse_supply_lines_plan(const json& doc, const std::string& file, const std::string& game_code) {
  const reader r{file};
  if (!doc.is_object()) r.fail("/", "a plan is a JSON object with \"army\" and \"steps\"");
  r.only_keys(doc, "", {"game", "name", "side", "army", "track", "start", "steps", "notes"});
  supply_lines_plan plan;
  if (doc.contains("game")) {
    const std::string g = r.text(doc, "", "game", game_code);
    if (g != game_code) r.fail("/game", "the plan is for '" + g + "' but was run with `musket " + game_code + "`");
  }
  plan.rules = &sl::rules_for(game_code);
  plan.file = file;
  const bool ss = plan.rules->which == sl::game::southern_strategy;
  plan.name = r.text(doc, "", "name", "campaign");
  if (doc.contains("side")) {
    try {
      plan.army_side = sl::parse_side(r.text(doc, "", "side", ""), "side");
    } catch (const invalid_input& e) {
      r.fail("/side", e.what());
    }
  }
  if (!doc.contains("army") || !doc.at("army").is_object())
    r.fail("/army", "is required: {\"units\", \"leaders\", \"war\", \"food\"}");
  const json& army = doc.at("army");
  r.only_keys(army, "/army", {"units", "leaders", "war", "food", "crown_commander"});
  plan.units = r.integer(army, "/army", "units", 1, 1, sl::max_units);
  plan.leaders = r.integer(army, "/army", "leaders", 1, 0, plan.rules->max_leaders_per_army);
  plan.war = r.integer(army, "/army", "war", 0, 0, sl::max_war_supplies);
  plan.food = r.integer(army, "/army", "food", 0, 0, 99);
  plan.crown_commander = r.boolean(army, "/army", "crown_commander", false);
  if (plan.crown_commander && (!ss || plan.army_side != sl::side::crown))
    r.fail("/army/crown_commander", "only a Crown army in The Southern Strategy (ss) has Cornwallis");
  if (ss) {
    plan.track_lowest = 0;  // SS 14.0: the Political Will Track runs 0..9
    plan.track_highest = 9;
  }
  if (doc.contains("track")) {
    const json& t = doc.at("track");
    if (!t.is_object()) r.fail("/track", "must be {\"position\", \"floor\", \"lowest\", \"highest\"}");
    r.only_keys(t, "/track", {"position", "floor", "lowest", "highest"});
    plan.track = r.integer(t, "/track", "position", 0, -99, 99);
    if (t.contains("floor")) {
      if (ss) r.fail("/track/floor", "the Declaration floor is a Northern Theater rule (NT 11.1)");
      plan.track_floor = r.integer(t, "/track", "floor", 0, -99, 99);
    }
    if (t.contains("lowest")) plan.track_lowest = r.integer(t, "/track", "lowest", 0, -99, 99);
    if (t.contains("highest")) plan.track_highest = r.integer(t, "/track", "highest", 0, -99, 99);
    if (plan.track_lowest && plan.track_highest && *plan.track_lowest > *plan.track_highest)
      r.fail("/track/lowest", "the track's lowest space is above its highest");
    if ((plan.track_lowest && plan.track < *plan.track_lowest) ||
        (plan.track_highest && plan.track > *plan.track_highest))
      r.fail("/track/position", "the marker starts off the track");
    if (plan.track_floor && plan.track < *plan.track_floor)
      r.fail("/track/floor", "the marker starts below the Declaration floor; the floor applies once reached (NT 11.1)");
  }

  if (!doc.contains("steps") || !doc.at("steps").is_array() || doc.at("steps").empty())
    r.fail("/steps", "is required: a non-empty array of steps");
  const json& steps = doc.at("steps");
  if (steps.size() > 200) r.fail("/steps", std::to_string(steps.size()) + " steps; a plan has at most 200");
  std::map<std::string, std::size_t> ids;
  std::vector<std::optional<std::string>> from_names(steps.size()), to_names(steps.size());
  for (std::size_t i = 0; i < steps.size(); ++i) {
    const std::string path = pointer_child("/steps", i);
    if (!steps[i].is_object()) r.fail(path, "a step is an object with a \"kind\"");
    const std::string id = r.text(steps[i], path, "id", path);
    if (!ids.emplace(id, i).second) r.fail(path + "/id", "'" + id + "' names two steps");
  }
  for (std::size_t i = 0; i < steps.size(); ++i) {
    const json& s = steps[i];
    const std::string path = pointer_child("/steps", i);
    plan_step step;
    step.path = path;
    step.id = r.text(s, path, "id", path);
    step.kind = parse_kind(r, s, path);
    r.only_keys(s, path,
                {"kind", "id", "terrain", "war", "enemy", "retreat", "siege", "food", "units", "skip_if", "stop_if",
                 "next", "jump_if", "note", "from", "to", "area", "if_not_taken"});
    if (s.contains("terrain")) {
      try {
        step.where = sl::parse_terrain(r.text(s, path, "terrain", ""), "terrain");
      } catch (const invalid_input& e) {
        r.fail(path + "/terrain", e.what());
      }
    }
    const bool fights = step.kind == step_kind::attack || step.kind == step_kind::defend;
    if (step.kind == step_kind::attack || step.kind == step_kind::defend || step.kind == step_kind::skirmish) {
      if (!s.contains("war"))
        r.fail(path + "/war", "is required: the War Supplies this army commits (a number, \"all\", or a state field)");
      step.war = r.parse_amount(s.at("war"), path + "/war");
    } else if (s.contains("war") && step.kind != step_kind::receive) {
      r.fail(path + "/war",
             "a " + std::string(step_kind_names[static_cast<int>(step.kind)]) + " commits no War Supplies");
    }
    if (step.kind == step_kind::receive) {
      step.receive_war = r.integer(s, path, "war", 0, 0, sl::max_war_supplies);
      step.receive_food = r.integer(s, path, "food", 0, 0, 99);
      step.receive_units = r.integer(s, path, "units", 0, 0, sl::max_units);
    } else if (s.contains("food") || s.contains("units")) {
      r.fail(path + (s.contains("food") ? "/food" : "/units"), "only a receive step adds supplies or units");
    }
    if (fights || step.kind == step_kind::skirmish) {
      if (!s.contains("enemy") || !s.at("enemy").is_object())
        r.fail(path + "/enemy", "is required: {\"units\", \"leaders\", \"war\"} of the enemy army");
      const json& e = s.at("enemy");
      const std::string ep = path + "/enemy";
      r.only_keys(e, ep, {"units", "leaders", "war", "dug_in", "crown_commander", "supplies"});
      if (e.contains("supplies")) {
        // The Supplies that change hands: abandoned to us when we take the Area, or carried by an
        // attacker we repulse (NT 8.7, SS 10.7).
        const json& sup = e.at("supplies");
        const std::string sp = ep + "/supplies";
        if (!sup.is_object()) r.fail(sp, "must be {\"food\": n, \"war\": n}");
        r.only_keys(sup, sp, {"food", "war"});
        if (step.kind == step_kind::skirmish) r.fail(sp, "a Skirmish changes no Supplies hands (NT 8.8, SS 10.8)");
        step.enemy_food = r.integer(sup, sp, "food", 0, 0, 99);
        step.enemy_supply_war = r.integer(sup, sp, "war", 0, 0, sl::max_war_supplies);
      }
      step.enemy_units = r.integer(e, ep, "units", 1, 1, sl::max_units);
      step.enemy_leaders = r.integer(e, ep, "leaders", step.kind == step_kind::defend ? 1 : 0, 0, 2);
      step.enemy_war = r.integer(e, ep, "war", 0, 0, sl::max_war_supplies);
      step.enemy_dug_in = r.boolean(e, ep, "dug_in", false);
      step.enemy_commander = r.boolean(e, ep, "crown_commander", false);
      if (step.kind == step_kind::skirmish && step.enemy_war != 0)
        r.fail(ep + "/war", "the Crown rolls nothing in a Skirmish (NT 8.8, SS 10.8)");
      if (step.enemy_dug_in && step.kind != step_kind::attack)
        r.fail(ep + "/dug_in", "only a defender is dug in; for our own army, use a dig_in step");
    } else if (s.contains("enemy")) {
      r.fail(path + "/enemy", "a " + std::string(step_kind_names[static_cast<int>(step.kind)]) + " has no enemy");
    }
    step.retreat_available = r.boolean(s, path, "retreat", true);
    step.under_siege = r.boolean(s, path, "siege", false);
    if (step.under_siege && !ss) r.fail(path + "/siege", "sieges exist only in The Southern Strategy (ss)");
    if (step.kind == step_kind::skirmish && plan.army_side != sl::side::patriot)
      r.fail(path + "/kind", "only a Patriot army may Skirmish (NT 7.4, SS 9.5)");
    if (s.contains("if_not_taken")) {
      const std::string ip = path + "/if_not_taken";
      if (step.kind != step_kind::attack)
        r.fail(ip, "only an attack step takes an Area; a " + std::string(step_kind_names[static_cast<int>(step.kind)]) +
                       " has no if_not_taken");
      const json& v = s.at("if_not_taken");
      const std::string allowed = "allowed: \"stop\", \"continue\", or {\"retry\": K, \"then\": \"stop\"|\"continue\"}";
      auto action = [&](const json& a, const std::string& where) {
        if (a.is_string() && a.get<std::string>() == "stop") return if_not_taken::action::stop;
        if (a.is_string() && a.get<std::string>() == "continue") return if_not_taken::action::continue_plan;
        r.fail(where, "'" + (a.is_string() ? a.get<std::string>() : a.dump()) + "' is not an action; " + allowed);
      };
      if (v.is_object()) {
        r.only_keys(v, ip, {"retry", "then"});
        if (!v.contains("retry"))
          r.fail(ip + "/retry", "is required: the most further attempts, 0.." + std::to_string(max_retries));
        step.not_taken.retries = r.integer(v, ip, "retry", 0, 0, max_retries);
        if (v.contains("then")) step.not_taken.then = action(v.at("then"), ip + "/then");
      } else {
        step.not_taken.then = action(v, ip);
      }
    }
    step.skip_if = r.conditions(s, path, "skip_if", false, false);
    step.stop_if = r.conditions(s, path, "stop_if", true, step.kind == step_kind::attack);
    if (!fights && step.kind != step_kind::skirmish)
      for (std::size_t c = 0; c < step.stop_if.size(); ++c)
        if (step.stop_if[c].what == condition::kind::won || step.stop_if[c].what == condition::kind::lost)
          r.fail(path + "/stop_if", "a " + std::string(step_kind_names[static_cast<int>(step.kind)]) +
                                        " is neither won nor lost; use a state field condition");
    auto target = [&](const json& v, const std::string& where) {
      if (!v.is_string()) r.fail(where, "must be a step id");
      const auto it = ids.find(v.get<std::string>());
      if (it == ids.end()) r.fail(where, "no step has the id '" + v.get<std::string>() + "'");
      if (it->second <= i)
        r.fail(where, "jumps back to '" + it->first + "', making a cycle; a campaign only moves forward");
      return it->second;
    };
    if (s.contains("next")) step.jump_to = target(s.at("next"), path + "/next");
    if (s.contains("jump_if")) {
      if (step.jump_to) r.fail(path + "/jump_if", "a step has either next or jump_if, not both");
      const json& j = s.at("jump_if");
      if (!j.is_object() || !j.contains("when") || !j.contains("to"))
        r.fail(path + "/jump_if", "must be {\"when\": condition, \"to\": step id}");
      r.only_keys(j, path + "/jump_if", {"when", "to"});
      step.jump_when = r.parse_condition(j.at("when"), path + "/jump_if/when",
                                         fights || step.kind == step_kind::skirmish, step.kind == step_kind::attack);
      step.jump_to = target(j.at("to"), path + "/jump_if/to");
    }
    // Areas: an attack's objective (default: its id); a march's destination (default: its id
    // when it has one, else the army stays in the Area it is in); any step's `from`.
    if (s.contains("from")) from_names[i] = r.text(s, path, "from", "");
    if (s.contains("to") && step.kind != step_kind::march)
      r.fail(path + "/to", "only a march moves the army to an Area; an attack names its objective with \"area\"");
    if (s.contains("area") && step.kind != step_kind::attack)
      r.fail(path + "/area", "only an attack has an objective Area; a march names its destination with \"to\"");
    if (step.kind == step_kind::march && (s.contains("to") || s.contains("id")))
      to_names[i] = s.contains("to") ? r.text(s, path, "to", "") : step.id;
    if (step.kind == step_kind::attack) to_names[i] = s.contains("area") ? r.text(s, path, "area", "") : step.id;
    plan.steps.push_back(step);
  }
  resolve_areas(r, doc, plan, from_names, to_names);
  check_reachable(r, plan);

  // A dry run of every engagement with the starting army, so impossible battles are reported
  // now, against the step, rather than half-way through the computation.
  for (const auto& s : plan.steps) {
    try {
      if (s.kind == step_kind::attack) {
        // The most War the army could commit, so only the enemy's side can fail here.
        sl::validate(*plan.rules, battle_for(plan, s, {plan.units, std::max(1, plan.leaders), sl::max_war_supplies}));
      } else if (s.kind == step_kind::defend) {
        sl::validate(*plan.rules, battle_for(plan, s, {plan.units, plan.leaders, 0}));
      } else if (s.kind == step_kind::skirmish) {
        sl::skirmish_setup k;
        k.patriot_units = std::min(2, plan.units);
        k.war_supplies = 1;
        k.crown_units = s.enemy_units;
        k.crown_leaders = s.enemy_leaders;
        k.crown_commander = s.enemy_commander;
        sl::validate(*plan.rules, k);
      }
    } catch (const invalid_input& e) {
      const bool defending = s.kind == step_kind::defend;
      const std::string ours = "army.", theirs = "enemy.";
      const std::map<std::string, std::string> names{{"def-units", (defending ? ours : theirs) + "units"},
                                                     {"def-leaders", (defending ? ours : theirs) + "leaders"},
                                                     {"def-war", theirs + "war"},
                                                     {"att-units", (defending ? theirs : ours) + "units"},
                                                     {"att-leaders", (defending ? theirs : ours) + "leaders"},
                                                     {"att-war", defending ? theirs + "war" : "war"},
                                                     {"crown-units", "enemy.units"},
                                                     {"crown-leaders", "enemy.leaders"},
                                                     {"dug-in", "enemy.dug_in"},
                                                     {"siege", "siege"},
                                                     {"crown-commander", "enemy.crown_commander"}};
      const auto it = names.find(e.field());
      r.fail(pointer_child(s.path, it != names.end() ? it->second : e.field()), e.what());
    }
  }
  return plan;
}

}  // namespace musket::campaign
