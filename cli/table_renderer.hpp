#pragma once
// The table a person reads: a report's document drawn as aligned text, with no line of raw JSON.
// Lists of records become aligned tables, nested maps indented sections, distributions rows with
// their percentage, "at least" (when the document has `stats`), interval (when it has
// `intervals`), readable fraction and a bar, and the statistics under them.
#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>

namespace musket::cli {

struct report;

// The width tables are drawn to: COLUMNS when set to a number, else the terminal's (standard
// output's), else 100 (a pipe or a file); never below 40.
std::size_t output_width();

// Drawn within `width` columns: notes and long cells wrapped, a table too wide for its columns
// folded into one block per row ("column  value" lines).
std::string render_table(const report& r, std::size_t width = output_width());

// A record's list of more records than this is drawn as its count, not entry by entry (the
// advice's exceptions: hundreds in a large battle); the JSON lists them. The dashboard's too.
constexpr std::size_t longest_drawn_list = 3;

// A record's field as a table cell reads it: a probability as a percentage ("33.3%", "-" when
// impossible), another number plainly ("5.092"), a null by its key ("no fort", else "unknown"),
// a short list or map inline. The dashboard's tables read the same.
std::string cell_text(const std::string& key, const nlohmann::ordered_json& v);

}  // namespace musket::cli
