#include "calc/great_lakes/scenario.hpp"

#include <set>
#include <sstream>

#include "core/invalid_input.hpp"
#include "core/json_input.hpp"
#include "core/whole_range.hpp"

namespace musket::great_lakes {

namespace {

using json = nlohmann::json;

struct reader {
  std::string file;
  [[noreturn]] void fail(const std::string& path, const std::string& message) const {
    throw invalid_input(file + ": " + (path.empty() ? "/" : path), message);
  }
  const json& object(const json& parent, const std::string& path) const {
    if (!parent.is_object()) fail(path, "expected an object");
    return parent;
  }
  void only_keys(const json& o, const std::string& path, const std::set<std::string>& allowed) const {
    for (auto it = o.begin(); it != o.end(); ++it)
      if (!allowed.count(it.key())) {
        std::string list;
        for (const auto& a : allowed) list += (list.empty() ? "" : ", ") + a;
        fail(path + "/" + it.key(), "unknown field; allowed here: " + list);
      }
  }
  const json* get(const json& o, const std::string& key, const std::string& path, bool required) const {
    if (!o.contains(key)) {
      if (required) fail(path + "/" + key, "missing required field");
      return nullptr;
    }
    return &o.at(key);
  }
  std::string where(const std::string& path) const { return file + ": " + (path.empty() ? "/" : path); }
  int integer(const json& o, const std::string& key, const std::string& path, std::optional<int> fallback) const {
    const json* v = get(o, key, path, !fallback);
    if (!v) return *fallback;
    return static_cast<int>(json_integer(*v, where(path + "/" + key), -1000000, 1000000));
  }
  bool boolean(const json& o, const std::string& key, const std::string& path, bool fallback) const {
    const json* v = get(o, key, path, false);
    if (!v) return fallback;
    return json_boolean(*v, where(path + "/" + key));
  }
  std::string text(const json& o, const std::string& key, const std::string& path,
                   std::optional<std::string> fallback) const {
    const json* v = get(o, key, path, !fallback);
    if (!v) return *fallback;
    return json_string(*v, where(path + "/" + key));
  }
  template <class F>
  auto wrap(const std::string& path, F&& f) const {
    try {
      return f();
    } catch (const invalid_input& e) {
      fail(path, e.what());
    }
  }

  unit read_unit(const json& j, const std::string& path, bool allow_crossing) const {
    object(j, path);
    std::set<std::string> keys{"name", "type", "sp", "max_sp", "morale", "dice"};
    if (allow_crossing) keys.insert("crossing");
    only_keys(j, path, keys);
    unit u;
    u.name = text(j, "name", path, std::nullopt);
    const std::string type = text(j, "type", path, std::nullopt);
    u.type = wrap(path + "/type", [&] { return parse_unit_type(type, "type"); });
    u.sp = integer(j, "sp", path, std::nullopt);
    u.max_sp = integer(j, "max_sp", path, u.sp);
    u.morale = integer(j, "morale", path, std::nullopt);
    u.dice = integer(j, "dice", path, std::nullopt);
    const std::string cross = text(j, "crossing", path, std::string("none"));
    u.crossed = wrap(path + "/crossing", [&] { return parse_crossing(cross, "crossing"); });
    return u;
  }

  army read_army(const json& j, const std::string& path, bool is_defender) const {
    object(j, path);
    std::set<std::string> keys{"side",    "units",          "leaders",       "ship_dice",      "retreat",
                               "rerolls", "hit_allocation", "retreat_route", "reinforcements", "reinforcement_rating"};
    if (is_defender) keys.insert("fort");
    only_keys(j, path, keys);
    army a;
    const std::string side = text(j, "side", path, std::nullopt);
    a.side = wrap(path + "/side", [&] { return parse_nation(side, "side"); });
    const json* units = get(j, "units", path, true);
    if (!units->is_array()) fail(path + "/units", "expected an array of units");
    for (std::size_t i = 0; i < units->size(); ++i)
      a.units.push_back(read_unit(units->at(i), path + "/units/" + std::to_string(i), !is_defender));
    if (const json* leaders = get(j, "leaders", path, false)) {
      if (!leaders->is_array()) fail(path + "/leaders", "expected an array of leader names");
      for (std::size_t i = 0; i < leaders->size(); ++i)
        a.leaders.push_back(json_string(leaders->at(i), where(path + "/leaders/" + std::to_string(i))));
      try {
        check_leaders(a.leaders, path + "/leaders");
      } catch (const invalid_input& e) {
        fail(e.field(), e.what());
      }
    }
    a.ship_dice = integer(j, "ship_dice", path, 0);
    a.reinforcement_rating = integer(j, "reinforcement_rating", path, 4);
    if (const json* r = get(j, "retreat", path, false)) {
      object(*r, path + "/retreat");
      only_keys(*r, path + "/retreat", {"policy", "k"});
      const std::string policy = text(*r, "policy", path + "/retreat", std::nullopt);
      const auto kind = value_of(names_of_retreat_kind, policy);
      if (!kind)
        fail(path + "/retreat/policy",
             "unknown policy '" + policy + "'; allowed: " + names_list(names_of_retreat_kind));
      a.retreat.kind = *kind;
      if (*kind == retreat_kind::line_sp_at_most) a.retreat.k = integer(*r, "k", path + "/retreat", std::nullopt);
    }
    if (const json* h = get(j, "hit_allocation", path, false)) {
      object(*h, path + "/hit_allocation");
      only_keys(*h, path + "/hit_allocation", {"policy"});
      const std::string policy = text(*h, "policy", path + "/hit_allocation", std::nullopt);
      a.hit_allocation = wrap(path + "/hit_allocation/policy", [&] { return parse_hit_allocation(policy, "policy"); });
    }
    if (const json* re = get(j, "rerolls", path, false)) {
      object(*re, path + "/rerolls");
      only_keys(*re, path + "/rerolls", {"policy"});
      const std::string policy = text(*re, "policy", path + "/rerolls", std::nullopt);
      a.rerolls = wrap(path + "/rerolls/policy", [&] { return parse_reroll(policy, "policy"); });
    }
    a.retreat_route = boolean(j, "retreat_route", path, true);
    if (const json* re = get(j, "reinforcements", path, false)) {
      if (!re->is_array()) fail(path + "/reinforcements", "expected an array");
      for (std::size_t i = 0; i < re->size(); ++i) {
        const std::string p = path + "/reinforcements/" + std::to_string(i);
        object(re->at(i), p);
        only_keys(re->at(i), p, {"unit", "across_niagara"});
        reinforcement r;
        r.u = read_unit(*get(re->at(i), "unit", p, true), p + "/unit", false);
        r.across_niagara = boolean(re->at(i), "across_niagara", p, false);
        a.reinforcements.push_back(r);
      }
    }
    if (is_defender) {
      if (const json* f = get(j, "fort", path, false)) {
        if (!f->is_null()) {
          object(*f, path + "/fort");
          only_keys(*f, path + "/fort", {"dice", "sp", "morale", "destroyed"});
          fort ft;
          ft.dice = integer(*f, "dice", path + "/fort", std::nullopt);
          ft.sp = integer(*f, "sp", path + "/fort", std::nullopt);
          ft.morale = integer(*f, "morale", path + "/fort", std::nullopt);
          ft.destroyed = boolean(*f, "destroyed", path + "/fort", false);
          a.fortification = ft;
        }
      }
    }
    return a;
  }
};

std::vector<std::string> split(const std::string& text, char sep) {
  std::vector<std::string> parts;
  std::string part;
  std::istringstream in(text);
  while (std::getline(in, part, sep)) parts.push_back(part);
  if (!text.empty() && text.back() == sep) parts.push_back("");
  return parts;
}

int to_int(const std::string& text, const std::string& option, const std::string& what) {
  try {
    std::size_t used = 0;
    const int v = std::stoi(text, &used);
    if (used != text.size()) throw std::invalid_argument(text);
    return v;
  } catch (const std::exception&) {
    throw invalid_input(option, "'" + text + "' is not a whole number (" + what + ")");
  }
}

}  // namespace

unit_type parse_unit_type(const std::string& text, const std::string& field) {
  if (const auto t = value_of(names_of_unit_type, text)) return *t;
  throw invalid_input(field, "unknown unit type '" + text + "'; allowed: " + allowed_unit_types());
}

crossing parse_crossing(const std::string& text, const std::string& field) {
  if (const auto c = value_of(names_of_crossing, text)) return *c;
  throw invalid_input(field, "unknown crossing '" + text + "'; allowed: " + names_list(names_of_crossing));
}

nation parse_nation(const std::string& text, const std::string& field) {
  if (const auto n = value_of(names_of_nation, text)) return *n;
  throw invalid_input(field, "unknown side '" + text + "'; allowed: " + names_list(names_of_nation));
}

std::string allowed_unit_types(std::string_view separator) {
  return names_list_of(names_of_unit_type, spec_unit_types, separator);
}

std::string allowed_retreats(std::string_view separator) {
  return names_list_of(names_of_retreat_kind, retreat_spec_order, separator,
                       [](retreat_kind k) { return k == retreat_kind::line_sp_at_most ? ":K" : ""; });
}

retreat_policy parse_retreat(const std::string& text, const std::string& option) {
  retreat_policy p;
  const std::string line = std::string(name_of(names_of_retreat_kind, retreat_kind::line_sp_at_most)) + ":";
  if (text.rfind(line, 0) == 0) {
    p.kind = retreat_kind::line_sp_at_most;
    p.k = to_int(text.substr(line.size()), option, "the line SP threshold");
    return p;
  }
  const auto kind = value_of(names_of_retreat_kind, text);
  if (!kind || *kind == retreat_kind::line_sp_at_most)  // (its threshold is part of the spelling)
    throw invalid_input(option, "unknown retreat policy '" + text + "'; allowed: " + allowed_retreats());
  p.kind = *kind;
  return p;
}

hit_allocation_policy parse_hit_allocation(const std::string& text, const std::string& option) {
  if (const auto k = value_of(names_of_hit_allocation_kind, text)) return {*k};
  throw invalid_input(
      option, "unknown hit allocation policy '" + text + "'; allowed: " + names_list(names_of_hit_allocation_kind));
}

reroll_policy parse_reroll(const std::string& text, const std::string& option) {
  if (const auto k = value_of(names_of_reroll_kind, text)) return {*k};
  throw invalid_input(option, "unknown reroll policy '" + text + "'; allowed: " + names_list(names_of_reroll_kind));
}

unit parse_unit_spec(const std::string& text, const std::string& option) {
  const auto parts = split(text, ':');
  if (parts.size() < 5 || parts.size() > 6)
    throw invalid_input(option, "'" + text + "' is not NAME:TYPE:SP/MAX:MORALE:DICE[:CROSSING]");
  unit u;
  u.name = parts[0];
  if (u.name.empty()) throw invalid_input(option, "'" + text + "' has an empty unit name");
  u.type = parse_unit_type(parts[1], option);
  const auto sp = split(parts[2], '/');
  if (sp.size() > 2 || sp.empty()) throw invalid_input(option, "'" + parts[2] + "' is not SP/MAX");
  u.sp = to_int(sp[0], option, "current SP");
  u.max_sp = sp.size() == 2 ? to_int(sp[1], option, "max SP") : u.sp;
  u.morale = to_int(parts[3], option, "morale");
  u.dice = to_int(parts[4], option, "battle dice");
  if (parts.size() == 6) u.crossed = parse_crossing(parts[5], option);
  return u;
}

std::string unit_spec(const unit& u) {
  std::string out = u.name + ":" + to_string(u.type) + ":" + std::to_string(u.sp) + "/" + std::to_string(u.max_sp) +
                    ":" + std::to_string(u.morale) + ":" + std::to_string(u.dice);
  if (u.crossed != crossing::none) out += ":" + to_string(u.crossed);
  return out;
}

reinforcement parse_reinforcement_spec(const std::string& text, const std::string& option) {
  reinforcement r;
  std::string spec = text;
  const std::string suffix = ":niagara";
  if (spec.size() > suffix.size() && spec.compare(spec.size() - suffix.size(), suffix.size(), suffix) == 0) {
    r.across_niagara = true;  // GL 13.3
    spec.resize(spec.size() - suffix.size());
  }
  r.u = parse_unit_spec(spec, option);
  if (r.u.crossed != crossing::none)
    throw invalid_input(option, "a reinforcement has no crossing; add :niagara if it comes across the Niagara");
  return r;
}

std::string reinforcement_spec(const reinforcement& r) {
  return unit_spec(r.u) + (r.across_niagara ? ":niagara" : "");
}

fort parse_fort_spec(const std::string& text, const std::string& option) {
  const auto numbers = parse_whole_list(text, ':', 3, option, "DICE:SP:MORALE (e.g. 2:2:4)");
  fort f;
  f.dice = numbers[0];
  f.sp = numbers[1];
  f.morale = numbers[2];
  return f;
}

std::string fort_spec(const fort& f) {
  return std::to_string(f.dice) + ":" + std::to_string(f.sp) + ":" + std::to_string(f.morale);
}

battle parse_scenario(const nlohmann::json& document, const std::string& file, const game_data& data) {
  reader r{file};
  r.object(document, "");
  r.only_keys(document, "", {"niagara", "attacker", "defender"});
  battle b;
  b.niagara = r.boolean(document, "niagara", "", false);
  b.attacker = r.read_army(*r.get(document, "attacker", "", true), "/attacker", false);
  b.defender = r.read_army(*r.get(document, "defender", "", true), "/defender", true);
  validate_as(b, file + ": ", data);
  return b;
}

void validate_as(const battle& b, const std::string& where, const game_data& data) {
  try {
    validate(b);
    validate_leaders(data, b);
  } catch (const invalid_input& e) {
    throw invalid_input(where + "/" + e.field(), e.what());
  }
}

battle read_scenario_file(const std::string& path, const std::string& option, const game_data& data) {
  return parse_scenario(read_json_input(path, option), path, data);
}

nlohmann::ordered_json to_json(const battle& b) {
  using oj = nlohmann::ordered_json;
  auto unit_json = [](const unit& u, bool with_crossing) {
    oj j{{"name", u.name},     {"type", to_string(u.type)}, {"sp", u.sp},
         {"max_sp", u.max_sp}, {"morale", u.morale},        {"dice", u.dice}};
    if (with_crossing) j["crossing"] = to_string(u.crossed);
    return j;
  };
  auto army_json = [&](const army& a, bool defender) {
    oj j;
    j["side"] = to_string(a.side);
    j["units"] = oj::array();
    for (const auto& u : a.units) j["units"].push_back(unit_json(u, !defender));
    j["leaders"] = a.leaders;
    if (defender && a.fortification)
      j["fort"] = oj{{"dice", a.fortification->dice},
                     {"sp", a.fortification->sp},
                     {"morale", a.fortification->morale},
                     {"destroyed", a.fortification->destroyed}};
    j["ship_dice"] = a.ship_dice;
    j["retreat"] = oj{{"policy", to_string(a.retreat.kind)}};
    if (a.retreat.kind == retreat_kind::line_sp_at_most) j["retreat"]["k"] = a.retreat.k;
    j["hit_allocation"] = oj{{"policy", to_string(a.hit_allocation.kind)}};
    j["rerolls"] = oj{{"policy", to_string(a.rerolls.kind)}};
    j["retreat_route"] = a.retreat_route;
    j["reinforcements"] = oj::array();
    for (const auto& r : a.reinforcements)
      j["reinforcements"].push_back(oj{{"unit", unit_json(r.u, false)}, {"across_niagara", r.across_niagara}});
    j["reinforcement_rating"] = a.reinforcement_rating;
    return j;
  };
  return oj{
      {"niagara", b.niagara}, {"attacker", army_json(b.attacker, false)}, {"defender", army_json(b.defender, true)}};
}

}  // namespace musket::great_lakes
