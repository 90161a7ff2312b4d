#pragma once
// The result view: a report's values drawn as the dashboard shows them (probability bars, range
// bars, distribution charts, sortable tables, value lines), labelled with the CLI's words.
#include <string>
#include <vector>

#include "gui/model.hpp"

namespace musket::gui {

// `parent`'s member `key` (or element `index`), or nullptr when it has none.
const json* child(const json* parent, const std::string& key);
const json* child(const json* parent, std::size_t index);

// Draws `doc`'s values under `keys`, in that order ("intervals" is drawn on the bars, not alone):
// `intervals` a simulation's confidence intervals by dotted path, `exact` the report's exact
// fractions (either may be null).
void draw_report_values(const json& doc, const std::vector<std::string>& keys, const json* intervals,
                        const json* exact);

}  // namespace musket::gui
