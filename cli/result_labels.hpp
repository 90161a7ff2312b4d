#pragma once
// Human names for result keys and options, in one place: the words a chart (and later the
// dashboard) shows instead of "summary.defender_dislodged" or "att-war". A key is named as
// `--format csv` prints it; a probability reads "P(...)".
#include <map>
#include <string>
#include <vector>

namespace musket::cli {

// "summary.defender_dislodged" -> "P(defender dislodged)", "steps.4.taken" -> "P(step 4 taken)",
// "attacker_losses.2" -> "P(attacker losses = 2)", "summary.expected_attacker_losses" ->
// "Expected attacker losses". `probability`: the key's values are probabilities (a key named
// expected_/mean_ never is). A statistic reads as what it says: "stats.defender_losses.at_least.2"
// -> "P(defender losses at least 2)", "stats.defender_losses.mean" -> "Mean defender losses".
std::string result_label(const std::string& key, bool probability);

// The key names a number that is never a probability, whatever its values: a mean or an
// expectation (its last part begins expected or mean), a distribution's statistic other than
// at_least/at_most (stats.<path>.mean, .sd, .median, ...), a spread (sd), or optimal play's value,
// gains and win value (SP on the value objective). The one rule for the tables, the sweeps' rows and
// charts, and the dashboard.
bool names_a_number(const std::string& key);

// What a null result means, the same word in the table, the CSV and the dashboard, by the key's
// last part: "garrison_eliminated" -> "no fort" (GL: no undestroyed fort, so no garrison fights),
// "reroll" -> "keep it" (GL advice: the leader keeps the reroll).
// "" for a key whose null has no word of its own (the table reads it "unknown", the CSV leaves it
// empty).
std::string null_meaning(const std::string& key);

// A sweep point the swept command refused (its reason is in the row's "illegal" and the notes):
// its value reads this in the table, the CSV and the dashboard, never "-" (an impossible outcome)
// or an empty cell.
inline constexpr const char* illegal_point_mark = "illegal";

// "att-war" -> "Attacker War", "army-food" -> "Food carried".
std::string option_label(const std::string& name);

// `--label KEY=TEXT` (repeatable) as a map; throws invalid_input naming `field` for a text that is
// not KEY=TEXT with both parts non-empty, or a KEY given twice.
std::map<std::string, std::string> parse_label_overrides(const std::vector<std::string>& texts,
                                                         const std::string& field);

}  // namespace musket::cli
