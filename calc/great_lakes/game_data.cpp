#include "calc/great_lakes/game_data.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <nlohmann/json.hpp>

#include "core/input_file.hpp"
#include "core/invalid_input.hpp"
#include "core/json_input.hpp"
#include "core/suggest.hpp"

namespace musket::great_lakes {

namespace {

using json = nlohmann::json;

struct file_reader {
  std::string file;
  json doc;

  file_reader(const std::string& directory, const std::string& name) : file(directory + "/" + name) {
    try {
      doc = read_json_input(file, file);
    } catch (const environment_problem& e) {
      throw environment_problem(file, std::string(e.what()) + " (set MUSKET_DATA_DIR to the data folder)");
    }
  }
  std::string where(const std::string& path) const { return file + ": " + path; }
  [[noreturn]] void fail(const std::string& path, const std::string& message) const {
    throw invalid_input(file + ": " + path, message);
  }
  const json& at(const json& o, const std::string& key, const std::string& path) const {
    if (!o.is_object() || !o.contains(key)) fail(path + "/" + key, "missing");
    return o.at(key);
  }
  int integer(const json& o, const std::string& key, const std::string& path) const {
    return static_cast<int>(json_integer(at(o, key, path), where(path + "/" + key), -1000000, 1000000));
  }
  std::optional<int> maybe_integer(const json& o, const std::string& key, const std::string& path) const {
    const json& v = at(o, key, path);
    if (v.is_null()) return std::nullopt;
    return integer(o, key, path);
  }
  std::string text(const json& o, const std::string& key, const std::string& path) const {
    return json_string(at(o, key, path), where(path + "/" + key));
  }
  const json& array(const json& o, const std::string& key, const std::string& path) const {
    const json& v = at(o, key, path);
    if (!v.is_array()) fail(path + "/" + key, "expected an array");
    return v;
  }
  std::optional<std::array<int, 2>> range(const json& o, const std::string& key, const std::string& path) const {
    const json& v = at(o, key, path);
    if (v.is_null()) return std::nullopt;
    if (!v.is_array() || v.size() != 2) fail(path + "/" + key, "expected [low, high] or null");
    return std::array<int, 2>{static_cast<int>(json_integer(v[0], where(path + "/" + key + "/0"), -1000000, 1000000)),
                              static_cast<int>(json_integer(v[1], where(path + "/" + key + "/1"), -1000000, 1000000))};
  }
};

}  // namespace

game_data load_game_data(const std::string& directory) {
  game_data d;
  {
    file_reader f(directory, "cap.json");
    d.base_cap_british = f.integer(f.at(f.doc, "base_cap", ""), "british", "/base_cap");
    d.base_cap_american = f.integer(f.at(f.doc, "base_cap", ""), "american", "/base_cap");
    d.supply_ontario = f.integer(f.at(f.doc, "supply_mission_cap", ""), "ontario", "/supply_mission_cap");
    d.supply_erie = f.integer(f.at(f.doc, "supply_mission_cap", ""), "erie", "/supply_mission_cap");
    d.intercept_loser_cap = f.integer(f.doc, "intercept_battle_loser_cap", "");
  }
  {
    file_reader f(directory, "commanders.json");
    const json& list = f.array(f.doc, "commanders", "");
    for (std::size_t i = 0; i < list.size(); ++i) {
      const std::string p = "/commanders/" + std::to_string(i);
      const std::string name = f.text(list[i], "name", p);
      const std::string side = f.text(list[i], "side", p);
      const auto nation_named = value_of(names_of_nation, side);
      if (!nation_named) f.fail(p + "/side", "expected " + names_list(names_of_nation, " or "));
      for (const auto& c : d.commanders)
        if (lowercase(c.name) == lowercase(name)) f.fail(p + "/name", "'" + name + "' is listed twice");
      const json& reroll = f.at(list[i], "morale_reroll", p);
      if (!reroll.is_boolean()) f.fail(p + "/morale_reroll", "expected true or false");
      d.commanders.push_back({name, *nation_named, reroll.get<bool>()});
      if (name != "Drummond" && name != "Brown") continue;
      std::vector<cap_band> bands;
      const json& rating = f.array(list[i], "cap_rating", p);
      for (std::size_t k = 0; k < rating.size(); ++k) {
        const std::string q = p + "/cap_rating/" + std::to_string(k);
        const auto die = f.range(rating[k], "die", q);
        if (!die || (*die)[0] < 1 || (*die)[1] > 6 || (*die)[0] > (*die)[1])
          f.fail(q + "/die", "expected [low, high] within 1..6");
        bands.push_back({(*die)[0], (*die)[1], f.integer(rating[k], "extra_cap", q)});
      }
      int covered = 0;
      for (const auto& b : bands) covered += b.high - b.low + 1;
      if (covered != 6) f.fail(p + "/cap_rating", "the bands must cover the six faces exactly once");
      const int reinforcement = f.integer(list[i], "reinforcement_rating", p);
      if (name == "Drummond")
        d.drummond = bands, d.reinforcement_british = reinforcement;
      else
        d.brown = bands, d.reinforcement_american = reinforcement;
    }
    if (d.drummond.empty() || d.brown.empty()) f.fail("/commanders", "Drummond and Brown must both be listed");
  }
  {
    file_reader f(directory, "ships.json");
    const json& list = f.array(f.doc, "squadrons", "");
    for (std::size_t i = 0; i < list.size(); ++i) {
      const std::string p = "/squadrons/" + std::to_string(i);
      const std::string lake = f.text(list[i], "lake", p), side = f.text(list[i], "side", p);
      const auto dice = f.maybe_integer(list[i], "dice", p);
      if (dice && (*dice < 1 || *dice > 12)) f.fail(p + "/dice", "expected 1..12 or null");
      if (lake == "ontario" && side == "british")
        d.ontario_british_dice = dice, d.ontario_source = f.text(list[i], "source", p);
      else if (lake == "ontario" && side == "american")
        d.ontario_american_dice = dice;
      else if (lake == "erie" && side == "british")
        d.erie_british_dice = dice;
      else if (lake == "erie" && side == "american")
        d.erie_american_dice = dice;
      else
        f.fail(p, "unknown lake/side '" + lake + "/" + side + "'");
    }
  }
  {
    file_reader f(directory, "war_end.json");
    d.last_turn = f.integer(f.doc, "last_turn", "");
    const json& rolls = f.array(f.doc, "rolls", "");
    for (std::size_t i = 0; i < rolls.size(); ++i) {
      const std::string p = "/rolls/" + std::to_string(i);
      war_end_roll r{f.integer(rolls[i], "after_turn", p), f.integer(rolls[i], "ends_on_at_least", p)};
      if (r.after_turn < 1 || r.after_turn >= d.last_turn) f.fail(p + "/after_turn", "must be before the last turn");
      if (r.ends_on_at_least < 1 || r.ends_on_at_least > 7) f.fail(p + "/ends_on_at_least", "expected 1..7");
      if (!d.war_end.empty() && r.after_turn <= d.war_end.back().after_turn)
        f.fail(p + "/after_turn", "turns must increase");
      d.war_end.push_back(r);
    }
  }
  {
    file_reader f(directory, "units.json");
    const json& list = f.array(f.doc, "types", "");
    for (std::size_t i = 0; i < list.size(); ++i) {
      const std::string p = "/types/" + std::to_string(i);
      unit_type_data t;
      const std::string side = f.text(list[i], "side", p);
      const auto nation_named = value_of(names_of_nation, side);
      if (!nation_named) f.fail(p + "/side", "expected " + names_list(names_of_nation, " or "));
      t.side = *nation_named;
      t.type = f.text(list[i], "type", p);
      t.movement = f.integer(list[i], "movement", p);
      t.sp = f.range(list[i], "sp", p);
      t.morale = f.range(list[i], "morale", p);
      t.dice = f.range(list[i], "dice", p);
      d.unit_types.push_back(t);
    }
  }
  {
    file_reader f(directory, "victory_points.json");
    auto read = [&](const std::string& key) {
      std::vector<victory_location> out;
      const json& list = f.array(f.doc, key, "");
      for (std::size_t i = 0; i < list.size(); ++i)
        out.push_back({f.text(list[i], "location", "/" + key + "/" + std::to_string(i)),
                       f.integer(list[i], "vp", "/" + key + "/" + std::to_string(i))});
      return out;
    };
    d.british_vp = read("british_earn_in_usa");
    d.american_vp = read("americans_earn_in_canada");
  }
  return d;
}

std::vector<std::string> commander_names(const game_data& data, nation side) {
  std::vector<std::string> out;
  for (const auto& c : data.commanders)
    if (c.side == side) out.push_back(c.name);
  return out;
}

void validate_leaders(const game_data& data, const battle& b) {
  for (const army* a : {&b.attacker, &b.defender}) {
    const std::string who = a == &b.attacker ? "attacker" : "defender";
    const std::vector<std::string> own = commander_names(data, a->side);
    std::string allowed;
    for (const auto& n : own) allowed += (allowed.empty() ? "" : ", ") + n;
    check_leaders(a->leaders, who + "/leaders");  // how many, and none twice: the one check of battle.hpp
    for (std::size_t i = 0; i < a->leaders.size(); ++i) {
      const std::string& name = a->leaders[i];
      const std::string field = who + "/leaders/" + std::to_string(i);
      const auto it = std::find_if(data.commanders.begin(), data.commanders.end(),
                                   [&](const commander_data& c) { return lowercase(c.name) == lowercase(name); });
      // GL 11.26 (Drummond, Riall: British) and 11.27 (Brown, Scott: American).
      if (it == data.commanders.end())
        throw invalid_input(field, "'" + name + "' is not a Great Lakes leader; allowed for the " + to_string(a->side) +
                                       " side: " + allowed + " (GL 11.26-11.27)" + did_you_mean(name, own));
      if (it->side != a->side)
        throw invalid_input(field, "'" + it->name + "' leads the " + to_string(it->side) + " side, not the " +
                                       to_string(a->side) + "; allowed: " + allowed + " (GL 11.26-11.27)");
    }
  }
}

std::vector<std::string> roster_warnings(const game_data& data, const battle& b) {
  std::vector<std::string> out;
  auto check = [&](const army& a, const unit& u) {
    for (const auto& t : data.unit_types) {
      if (t.side != a.side || t.type != to_string(u.type)) continue;
      auto test = [&](const std::optional<std::array<int, 2>>& r, int value, const char* what) {
        if (r && (value < (*r)[0] || value > (*r)[1]))
          out.push_back(fmt::format("{} ({} {}): {} {} is outside the printed range {}-{} (Summary of Units)", u.name,
                                    to_string(a.side), t.type, what, value, (*r)[0], (*r)[1]));
      };
      test(t.sp, u.max_sp, "max SP");
      test(t.morale, u.morale, "morale");
      test(t.dice, u.dice, "dice");
    }
  };
  for (const army* a : {&b.attacker, &b.defender}) {
    for (const auto& u : a->units) check(*a, u);
    for (const auto& r : a->reinforcements) check(*a, r.u);
  }
  return out;
}

}  // namespace musket::great_lakes
