#pragma once
// What a command hands back to be rendered: one ordered JSON document (the JSON contract) plus
// the lines a person reads first. Table and CSV are drawn from the same document, so the three
// formats can never disagree.
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/pmf.hpp"

namespace musket::cli {

using json = nlohmann::ordered_json;

struct report {
  json document;                         // game, command, inputs, method, results..., exact, notes
  std::string title;                     // "Northern Theater battle: ..."
  std::string verdict;                   // "Crown dislodges the defender 39.1%"
  std::vector<std::string> result_keys;  // the document's result keys, in display order
};

enum class output_format { table, json_format, csv };
output_format parse_format(const std::string& text);

std::string render(const report& r, output_format format);

// Builders shared by every game's commands.
json exact_method();
json probability_array(const pmf& d);   // [p0, p1, ...] from value 0 (d must start at >= 0)
json exact_array(const pmf& d);         // ["num/den", ...]
json probability_object(const pmf& d);  // {"-1": p, "0": p, ...} for signed values
json exact_object(const pmf& d);
std::string percent(double p);  // "39.1%"

}  // namespace musket::cli
