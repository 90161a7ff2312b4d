#pragma once
// Inputs the CLI takes as text, read as typed values for the dashboard's editors and written back
// in the very form `musket` parses: Great Lakes units (--att, --def, --att-reinforce,
// --def-reinforce) and the fort (--fort), AR forces (--attacker, --defender). Both directions go
// through the calc layer's own spec parsing and formatting, so the text the dashboard shows, saves
// and runs is the text the CLI takes. Window-free; gui/input_editors.hpp draws them.
#include <optional>
#include <string>
#include <vector>

#include "calc/great_lakes/battle.hpp"
#include "calc/revolution/forces.hpp"
#include "gui/model.hpp"

namespace musket::gui {

// Which typed editor an input gets, if any.
enum class structured_kind { none, units, reinforcements, fort, force, leaders };
structured_kind structured_input(const calculator& calc, const input_spec& in);

// A repeatable text value ("a; b") as its parts, trimmed, empty parts dropped: the arguments
// `musket` gets, one per part.
std::vector<std::string> repeated_parts(const std::string& text);

// "11th Infantry:regular:4/4:5:3; Towson:artillery:3/3:5:5" as units and back. Reinforcements
// (`reinforcements` true) carry ":niagara" instead of a crossing. Reading throws invalid_input
// naming `option` for the first part that does not parse.
std::vector<great_lakes::reinforcement> read_units(const std::string& text, const std::string& option,
                                                   bool reinforcements);
std::string write_units(const std::vector<great_lakes::reinforcement>& units, bool reinforcements);

// "2:2:4" as a fort; "" is no fort. Throws invalid_input naming `option`.
std::optional<great_lakes::fort> read_fort(const std::string& text, const std::string& option);
std::string write_fort(const std::optional<great_lakes::fort>& fort);

// Great Lakes leaders (--att-leader, --def-leader) are chosen, never typed (GL 11.26-11.27): ""
// (none), then every set of the side's commanders in data/gl/commanders.json, each written as the
// option's text ("Brown", "Scott", "Brown; Scott"). Throws what loading the game data throws.
std::vector<std::string> leader_choices(great_lakes::nation side);
// The side whose leaders the input `name` names, from the panel's values: att-side for att-leader;
// def-side, or else the attacker's other side, for def-leader.
great_lakes::nation leader_side(const json& values, const std::string& name);

// "15M,8C" as Strength Points by type; "" is none. Throws invalid_input naming `option`.
revolution::points_by_type read_force(const std::string& text, const std::string& option);
std::string write_force(const revolution::points_by_type& points);  // "" for none

}  // namespace musket::gui
