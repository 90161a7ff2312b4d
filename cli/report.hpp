#pragma once
// What a command hands back to be rendered: one ordered JSON document (the JSON contract) plus
// the lines a person reads first. Table and CSV are drawn from the same document, so the three
// formats can never disagree.
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cli/number_text.hpp"
#include "core/pmf.hpp"

namespace musket::cli {

using json = nlohmann::ordered_json;

struct report {
  json document;                         // game, command, inputs, method, results..., exact, notes
  std::string title;                     // "Northern Theater battle: ..."
  std::string verdict;                   // "Crown dislodges the defender 39.1%"
  std::vector<std::string> result_keys;  // the document's result keys, in display order
  // Non-empty when the inputs are not a legal game (why): the answer still shows the analysis, but a
  // sweep marks the point illegal with this reason and gives it no value.
  std::string illegal;
  // Non-empty when no source settles whether the inputs are legal (why): a sweep keeps the values
  // and names the point as of unknown legality, never counting it legal.
  std::string legality_unknown;
};

// The version of the JSON documents' shape (docs/schema/): raised when a key changes meaning or
// goes away, not when one is added.
constexpr int schema_version = 2;

enum class output_format { table, json_format, csv };
output_format parse_format(const std::string& text);

// JSON (with `schema_version` first), the long CSV (cli/csv_writer.hpp) or the table
// (cli/table_renderer.hpp).
std::string render(const report& r, output_format format);
// The document as JSON prints it: `schema_version` first, then the document's keys.
json versioned(const json& document);
// A member or element of a JSON node, or nullptr when the node is absent, not of that kind, or
// has no such member or element.
const json* child_of(const json* node, const std::string& key);
const json* element_of(const json* node, std::size_t i);
// Where `exact` holds the fractions of result `key`: exact.<key>, or exact itself for a section's
// named probabilities (the contract's {"exact": {"defender_retreats": "num/den"}}).
const json* exact_for(const json* exact, const std::string& key);

// Builders shared by every game's commands.
json exact_method();
json probability_array(const pmf& d);   // [p0, p1, ...] from value 0 (d must start at >= 0)
json exact_array(const pmf& d);         // ["num/den", ...]
json probability_object(const pmf& d);  // {"-1": p, "0": p, ...} for signed values
json exact_object(const pmf& d);

}  // namespace musket::cli
