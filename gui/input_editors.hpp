#pragma once
// Typed editors for the inputs the CLI takes as text (gui/structured_inputs.hpp): Great Lakes
// units as an editable table (add, remove, duplicate, reorder rows), the fort as three spinners,
// AR forces as a spinner per unit type. Each edits the option's text value, shown beside it, so
// the command line and saved scenarios keep the CLI's own form.
#include <imgui.h>

#include "gui/model.hpp"
#include "gui/structured_inputs.hpp"

namespace musket::gui {

// Where a calculator's input widgets start: after its widest input name, at most half the column.
float label_column(const calculator& calc);
// One input's widget, bounded to its legal values (a slider, stepper, combo, tick or text).
void input_widget(const input_spec& in, json& v, float label_col);
// An input's widget: its typed editor (structured_widget) where it has one, else input_widget.
void any_input_widget(const calculator& calc, const input_spec& in, json& values, float label_col);

// An input's name in the label column (its help in the tooltip), leaving the cursor where its
// widget goes: beside the name, or on the next line when the name is wider than the column (a name
// is never cut short).
void input_name(const input_spec& in, float label_col);

// Draws the editor of an input of kind `kind` (not none) editing `v` (the option's text); `values`
// are the panel's (a leader list follows the side chosen there).
void structured_widget(structured_kind kind, const input_spec& in, json& v, const json& values, float label_col);

}  // namespace musket::gui
