#pragma once
// A battle scenario file (issue 4's JSON shape) to a typed battle, and back for the echoed inputs.
// Every error names the file and the JSON path: invalid_input(field = "FILE: /json/path").
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "calc/great_lakes/battle.hpp"
#include "calc/great_lakes/game_data.hpp"

namespace musket::great_lakes {

// Parses and validates (leaders against the game data's commanders too); `file` is used only to
// name errors.
battle parse_scenario(const nlohmann::json& document, const std::string& file, const game_data& data);
// Reads the file (a missing or unreadable file, or bad JSON, is invalid_input on `option`).
battle read_scenario_file(const std::string& path, const std::string& option, const game_data& data);
nlohmann::ordered_json to_json(const battle& b);

// Validates (validate and validate_leaders) and rethrows a validation error with its path prefixed
// by `where` ("FILE: " or an option).
void validate_as(const battle& b, const std::string& where, const game_data& data);

// One unit from "NAME:TYPE:SP/MAX:MORALE:DICE[:CROSSING]" (the --att/--def flag form).
unit parse_unit_spec(const std::string& text, const std::string& option);
// The same form back: parse_unit_spec(unit_spec(u)) == u for any unit whose name has no ':'.
// The crossing is written only when there is one.
std::string unit_spec(const unit& u);
// The unit types a spec may name (a garrison comes with --fort, never on its own), in rule order.
inline constexpr unit_type spec_unit_types[] = {unit_type::regular, unit_type::militia, unit_type::artillery,
                                                unit_type::dragoon, unit_type::native};
inline constexpr crossing all_crossings[] = {crossing::none, crossing::river, crossing::amphibious};
// The retreat policies in the order a flag lists them (line_sp_at_most takes its K there).
inline constexpr retreat_kind retreat_spec_order[] = {retreat_kind::never, retreat_kind::weaker,
                                                      retreat_kind::line_sp_at_most, retreat_kind::optimal};
// What a flag or file may name, from the name tables (battle.hpp): "regular, militia, ..." (a spec's
// unit types) and "never, weaker, line_sp_at_most:K, optimal" (--att-retreat), joined by `separator`.
std::string allowed_unit_types(std::string_view separator = ", ");
std::string allowed_retreats(std::string_view separator = ", ");
// A reinforcement "NAME:TYPE:SP/MAX:MORALE:DICE[:niagara]" (--att-reinforce/--def-reinforce; GL 13.3:
// ":niagara" when it comes across the Niagara), and back.
reinforcement parse_reinforcement_spec(const std::string& text, const std::string& option);
std::string reinforcement_spec(const reinforcement& r);
// An undestroyed fort "DICE:SP:MORALE" (--fort, e.g. "2:2:4"), and back.
fort parse_fort_spec(const std::string& text, const std::string& option);
std::string fort_spec(const fort& f);
retreat_policy parse_retreat(const std::string& text, const std::string& option);
hit_allocation_policy parse_hit_allocation(const std::string& text, const std::string& option);
reroll_policy parse_reroll(const std::string& text, const std::string& option);
unit_type parse_unit_type(const std::string& text, const std::string& field);
crossing parse_crossing(const std::string& text, const std::string& field);
nation parse_nation(const std::string& text, const std::string& field);

}  // namespace musket::great_lakes
