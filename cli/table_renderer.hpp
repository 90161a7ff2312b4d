#pragma once
// The table a person reads: a report's document drawn as aligned text, with no line of raw JSON.
// Lists of records become aligned tables, nested maps indented sections, distributions rows with
// their percentage, "at least" (when the document has `stats`), interval (when it has
// `intervals`), readable fraction and a bar, and the statistics under them.
#include <string>

namespace musket::cli {

struct report;

std::string render_table(const report& r);

}  // namespace musket::cli
