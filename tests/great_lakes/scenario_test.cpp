// Scenario files and flag specs: a malformed input names the file, the JSON path and the problem.
#include "calc/great_lakes/scenario.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "calc/great_lakes/game_data.hpp"
#include "core/invalid_input.hpp"

namespace gl = musket::great_lakes;
using nlohmann::json;

namespace {

const gl::game_data& scenario_data() {
  static const gl::game_data d = gl::load_game_data(MUSKET_GL_DATA_DIR);
  return d;
}

json good() {
  return json::parse(R"({
    "niagara": false,
    "attacker": {"side": "american",
      "units": [{"name": "11th Infantry", "type": "regular", "sp": 4, "max_sp": 4, "morale": 5, "dice": 3,
                 "crossing": "river"}],
      "leaders": ["Brown"], "ship_dice": 0, "retreat": {"policy": "never"}, "retreat_route": true,
      "reinforcements": [{"unit": {"name": "21st", "type": "regular", "sp": 3, "max_sp": 4, "morale": 5, "dice": 3},
                          "across_niagara": true}]},
    "defender": {"side": "british", "units": [{"name": "104th Foot", "type": "regular", "sp": 4, "morale": 5, "dice": 4}],
      "leaders": [], "fort": {"dice": 2, "sp": 2, "morale": 4, "destroyed": false}, "ship_dice": 0,
      "retreat": {"policy": "line_sp_at_most", "k": 2}, "retreat_route": true, "reinforcements": []}})");
}

// The field the error names, or "" if parsing succeeded.
std::string error_field(const json& j) {
  try {
    gl::parse_scenario(j, "battle.json", scenario_data());
  } catch (const musket::invalid_input& e) {
    return e.field();
  }
  return "";
}

}  // namespace

TEST(GreatLakesScenario, ReadsTheIssueShape) {
  const gl::battle b = gl::parse_scenario(good(), "battle.json", scenario_data());
  ASSERT_EQ(b.attacker.units.size(), 1u);
  EXPECT_EQ(b.attacker.units[0].crossed, gl::crossing::river);
  EXPECT_EQ(b.attacker.reinforcements[0].u.sp, 3);
  EXPECT_TRUE(b.attacker.reinforcements[0].across_niagara);
  EXPECT_EQ(b.defender.retreat.kind, gl::retreat_kind::line_sp_at_most);
  EXPECT_EQ(b.defender.retreat.k, 2);
  ASSERT_TRUE(b.defender.fortification.has_value());
  EXPECT_EQ(b.defender.fortification->dice, 2);
  EXPECT_EQ(b.defender.units[0].max_sp, 4);                                     // max_sp defaults to sp
  EXPECT_EQ(b.attacker.hit_allocation.kind, gl::hit_allocation_kind::rulings);  // the RULINGS defaults
  EXPECT_EQ(b.attacker.rerolls.kind, gl::reroll_kind::first);
  json j = good();
  j["attacker"]["hit_allocation"] = {{"policy", "concentrate"}};
  j["defender"]["rerolls"] = {{"policy", "largest_unit"}};
  const gl::battle policies = gl::parse_scenario(j, "battle.json", scenario_data());
  EXPECT_EQ(policies.attacker.hit_allocation.kind, gl::hit_allocation_kind::concentrate);
  EXPECT_EQ(policies.defender.rerolls.kind, gl::reroll_kind::largest_unit);
  EXPECT_EQ(gl::to_json(policies)["attacker"]["hit_allocation"]["policy"], "concentrate");
  EXPECT_EQ(gl::to_json(policies)["defender"]["rerolls"]["policy"], "largest_unit");
  // The echo reads back to the same battle.
  const gl::battle again = gl::parse_scenario(json::parse(gl::to_json(b).dump()), "echo", scenario_data());
  EXPECT_EQ(gl::to_json(again), gl::to_json(b));
}

TEST(GreatLakesScenario, EveryMalformedFieldIsNamed) {
  json j = good();
  j["attacker"]["units"][0].erase("dice");
  EXPECT_EQ(error_field(j), "battle.json: /attacker/units/0/dice");
  j = good();
  j["attacker"]["units"][0]["sp"] = "four";
  EXPECT_EQ(error_field(j), "battle.json: /attacker/units/0/sp");
  j = good();
  j["defender"]["units"][0]["morale"] = 7;
  EXPECT_EQ(error_field(j), "battle.json: /defender/units/0/morale");
  j = good();
  j["attacker"]["units"][0]["sp"] = 5;  // above max_sp 4
  EXPECT_EQ(error_field(j), "battle.json: /attacker/units/0/sp");
  j = good();
  j["defender"]["retreat"]["policy"] = "sometimes";
  EXPECT_EQ(error_field(j), "battle.json: /defender/retreat/policy");
  j = good();
  j["attacker"]["hit_allocation"] = {{"policy", "spread"}};
  EXPECT_EQ(error_field(j), "battle.json: /attacker/hit_allocation/policy");
  j = good();
  j["defender"]["rerolls"] = {{"policy", "always"}};
  EXPECT_EQ(error_field(j), "battle.json: /defender/rerolls/policy");
  j = good();
  j["defender"]["rerolls"] = {{"policy", "never"}, {"k", 1}};
  EXPECT_EQ(error_field(j), "battle.json: /defender/rerolls/k");
  j = good();
  j["defender"]["units"][0]["name"] = "11th infantry";  // duplicates the attacker's, case aside
  EXPECT_EQ(error_field(j), "battle.json: /defender/units/0/name");
  j = good();
  j["defender"]["units"] = json::array();
  j["defender"].erase("fort");
  EXPECT_EQ(error_field(j), "battle.json: /defender/units");
  j = good();
  j["defender"]["side"] = "american";
  EXPECT_EQ(error_field(j), "battle.json: /defender/side");
  j = good();
  j["attacker"]["unitz"] = json::array();
  EXPECT_EQ(error_field(j), "battle.json: /attacker/unitz");
  j = good();
  j["defender"]["units"][0]["crossing"] = "river";  // only attackers cross
  EXPECT_EQ(error_field(j), "battle.json: /defender/units/0/crossing");
}

TEST(GreatLakesScenario, FlagSpecs) {
  const gl::unit u = gl::parse_unit_spec("11th Infantry:regular:3/4:5:3:amphibious", "att");
  EXPECT_EQ(u.name, "11th Infantry");
  EXPECT_EQ(u.sp, 3);
  EXPECT_EQ(u.max_sp, 4);
  EXPECT_EQ(u.morale, 5);
  EXPECT_EQ(u.dice, 3);
  EXPECT_EQ(u.crossed, gl::crossing::amphibious);
  EXPECT_THROW(gl::parse_unit_spec("11th:regular:x/4:5:3", "att"), musket::invalid_input);
  EXPECT_THROW(gl::parse_unit_spec("11th:cavalry:4/4:5:3", "att"), musket::invalid_input);
  EXPECT_EQ(gl::parse_retreat("line_sp_at_most:3", "att-retreat").k, 3);
  EXPECT_THROW(gl::parse_retreat("maybe", "att-retreat"), musket::invalid_input);
}

// The dashboard's unit table writes specs with unit_spec and reads them with parse_unit_spec:
// each field comes back as written, and the crossing only when there is one.
TEST(GreatLakesScenario, UnitSpecsRoundTrip) {
  gl::unit u;
  u.name = "Glengarry Light Infantry";
  u.type = gl::unit_type::dragoon;
  u.sp = 2;
  u.max_sp = 3;
  u.morale = 4;
  u.dice = 5;
  EXPECT_EQ(gl::unit_spec(u), "Glengarry Light Infantry:dragoon:2/3:4:5");
  u.crossed = gl::crossing::river;
  EXPECT_EQ(gl::unit_spec(u), "Glengarry Light Infantry:dragoon:2/3:4:5:river");
  const gl::unit back = gl::parse_unit_spec(gl::unit_spec(u), "att");
  EXPECT_EQ(back.name, u.name);
  EXPECT_EQ(back.type, u.type);
  EXPECT_EQ(back.sp, 2);
  EXPECT_EQ(back.max_sp, 3);
  EXPECT_EQ(back.morale, 4);
  EXPECT_EQ(back.dice, 5);
  EXPECT_EQ(back.crossed, gl::crossing::river);
  // GL 13.3: a reinforcement comes across the Niagara or not; it never crosses in battle.
  const gl::reinforcement r =
      gl::parse_reinforcement_spec("Incorporated Militia:militia:2/2:6:2:niagara", "def-reinforce");
  EXPECT_TRUE(r.across_niagara);
  EXPECT_EQ(r.u.type, gl::unit_type::militia);
  EXPECT_EQ(gl::reinforcement_spec(r), "Incorporated Militia:militia:2/2:6:2:niagara");
  EXPECT_THROW(gl::parse_reinforcement_spec("A:regular:2/2:6:2:river", "att-reinforce"), musket::invalid_input);
}

TEST(GreatLakesData, ReadsWhatTheRulesPrint) {
  const gl::game_data d = gl::load_game_data(MUSKET_GL_DATA_DIR);
  EXPECT_EQ(d.base_cap_british, 7);  // GL 5.4
  EXPECT_EQ(d.base_cap_american, 6);
  EXPECT_EQ(d.ontario_british_dice.value_or(0), 4);  // GL 7.1
  EXPECT_EQ(d.ontario_american_dice.value_or(0), 3);
  EXPECT_FALSE(d.erie_british_dice.has_value());  // not in our rules text
  EXPECT_EQ(d.reinforcement_british, 4);          // GL 13.5
  int york = 0;
  for (const auto& v : d.american_vp)
    if (v.location == "York") york = v.vp;
  EXPECT_EQ(york, 3);  // GL 14.3
  // A British regular with 3 dice is outside the printed 4-5: a warning, not an error.
  gl::battle b;
  b.attacker.side = gl::nation::british;
  b.defender.side = gl::nation::american;
  b.attacker.units.push_back({"100th", gl::unit_type::regular, 4, 4, 5, 3, gl::crossing::none});
  b.defender.units.push_back({"Erie Militia", gl::unit_type::militia, 2, 2, 2, 1, gl::crossing::none});
  const auto warnings = gl::roster_warnings(d, b);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("100th"), std::string::npos);
}

// GL 11.26-11.27: a leader is one of data/gl/commanders.json's, on its own side, named once.
TEST(GreatLakesScenario, LeadersAreTheSidesCommanders) {
  json j = good();
  j["defender"]["leaders"] = {"Drummond", "riall"};  // case is ignored
  EXPECT_EQ(error_field(j), "");
  EXPECT_EQ(gl::morale_rerolls(gl::parse_scenario(j, "battle.json", scenario_data()).defender), 2);
  auto refusal = [&](const json& doc) {
    try {
      gl::parse_scenario(doc, "battle.json", scenario_data());
    } catch (const musket::invalid_input& e) {
      return e.field() + " | " + e.what();
    }
    return std::string();
  };
  j = good();
  j["attacker"]["leaders"] = {"Scott", "Browne"};
  EXPECT_EQ(refusal(j),
            "battle.json: /attacker/leaders/1 | 'Browne' is not a Great Lakes leader; allowed for the american side: "
            "Brown, Scott (GL 11.26-11.27) (did you mean 'Brown'?)");
  j["attacker"]["leaders"] = {"Smith"};
  EXPECT_EQ(refusal(j),
            "battle.json: /attacker/leaders/0 | 'Smith' is not a Great Lakes leader; allowed for the american side: "
            "Brown, Scott (GL 11.26-11.27)");
  j["attacker"]["leaders"] = {"Riall"};
  EXPECT_EQ(refusal(j),
            "battle.json: /attacker/leaders/0 | 'Riall' leads the british side, not the american; allowed: Brown, "
            "Scott (GL 11.26-11.27)");
  j = good();
  j["defender"]["leaders"] = {"Drummond", "drummond"};
  EXPECT_EQ(error_field(j), "battle.json: /defender/leaders/1");
  // The data file's commanders, each with its side.
  EXPECT_EQ(gl::commander_names(scenario_data(), gl::nation::american), (std::vector<std::string>{"Brown", "Scott"}));
  EXPECT_EQ(gl::commander_names(scenario_data(), gl::nation::british), (std::vector<std::string>{"Drummond", "Riall"}));
}
