#pragma once
// The dashboard's model, free of any window: which calculators exist (the CLI's own command
// registry, so the GUI and `musket` can never disagree), what inputs each takes (read from the
// command's option descriptions, bounded by the ranges its options publish), scenarios as small JSON
// files, and a run that hands the very same option values to the very same command.
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "cli/command.hpp"

namespace musket::gui {

using json = cli::json;

enum class input_kind { integer, choice, flag, text };

struct input_spec {
  std::string name;  // the CLI option's name, also the scenario key
  std::string help;  // the CLI option's description
  input_kind kind = input_kind::text;
  int lowest = 0;  // integer inputs: the legal range
  int highest = 0;
  // Whether the option registry publishes a range for it (cli::option_range): an input without one
  // is never clamped by the dashboard; the command itself says when a value is out of range.
  bool bounded = true;
  // Choice inputs ("" = leave the option out); a choice that takes a whole-number parameter is
  // written as the help text writes it, "line_sp_at_most:K".
  std::vector<std::string> choices;
  bool optional = false;    // integer inputs without a default: null = leave it out
  bool repeatable = false;  // text inputs of a repeatable option: parts separated by ';'
  json initial;             // the value a fresh panel starts with
  // What `musket` takes when the option is left out: its default value (false for a flag), or null
  // for an option with none (required, or optional: leaving it out changes the report). Where it is
  // not null, `initial` equals it: the dashboard's defaults are the CLI's.
  json cli_default;
};

// A choice's name and whether it takes a parameter: "line_sp_at_most:K" -> {"line_sp_at_most", true}.
std::pair<std::string, bool> choice_parameter(const std::string& choice);
// Whether `value` is the choice `choice`: equal, or "name:N" (N a whole number >= 0) for a choice
// "name:K" that takes a parameter.
bool matches_choice(const std::string& choice, const std::string& value);
// Whether `value` is one of the input's choices.
bool is_choice(const input_spec& spec, const std::string& value);

// One calculator: a game's command plus its inputs.
struct calculator {
  std::string game;     // "nt"
  std::string command;  // "battle"
  std::string summary;
  std::string label;  // what the sub-tab says: "Battle", "Sea battle"
  std::vector<input_spec> inputs;
  const cli::command* cli_command = nullptr;
  const input_spec* find_input(const std::string& name) const;
};

struct game_calculators {
  std::string code;   // "nt"
  std::string title;  // the CLI's title
  std::vector<calculator> calculators;
};

// Every game the CLI knows, with its calculators, in the CLI's order.
class catalogue {
 public:
  catalogue();
  catalogue(const catalogue&) = delete;
  catalogue& operator=(const catalogue&) = delete;
  const game_calculators* find_game(const std::string& code) const;
  const calculator* find(const std::string& game, const std::string& command) const;
  const std::vector<game_calculators>& games() const { return games_; }

 private:
  std::unique_ptr<cli::command_registry> registry_;
  std::vector<game_calculators> games_;
};

// The attacker's and the defender's inputs exchanged: every att-X with def-X, att with def,
// attacker with defender; a two-way "attacker" choice (crown | patriot) with no defender input
// flips. Empty when the calculator has no two sides.
std::optional<json> swap_sides(const calculator& calc, const json& values);
// Option values keyed by option name: int, string, or bool for flags.
json initial_values(const calculator& calc);
// Brings a value into the legal range of its input (a slider can never produce an illegal one,
// but a hand-edited scenario can).
json clamp_value(const input_spec& spec, const json& value);

// A run's result: the CLI's report, or the calc layer's complaint.
struct outcome {
  bool ok = false;
  cli::report report;
  std::string error_field;  // the option the calc named
  std::string error;        // its message
  bool cancelled = false;   // stopped on request before it had anything to report
  std::string message() const { return error_field.empty() ? error : cli::input_error_line(error_field, error); }
};

// The command line `musket <game> <command> ...` would take for these values.
std::vector<std::string> command_arguments(const calculator& calc, const json& values);
// One word quoted for a POSIX shell: left bare when it is safe, else in single quotes.
std::string shell_quoted(const std::string& word);
// "musket <words> --name 'value' ...": the arguments shell-quoted, so the line pastes into a shell
// and runs the very command the dashboard ran. `skip` drops arguments by option name.
std::string command_line(const std::string& words, const std::vector<std::string>& arguments,
                         const std::vector<std::string>& skip = {});
// Parses those arguments with the command's own options and runs it; never throws. A command
// run under a cli::run_context (gui/runner.hpp) that is cancelled gives an outcome marked so.
outcome run(const calculator& calc, const json& values);

// A scenario file: {"game":"nt","command":"battle","attacker":"crown","att-units":6,...}.
struct scenario {
  std::string game;
  std::string command;
  json values = json::object();  // option name -> value
};
// Reads and checks a scenario against the catalogue; throws invalid_input (field "scenario")
// with a message fit to show the user.
scenario load_scenario(const catalogue& cat, const std::string& path);
scenario parse_scenario(const catalogue& cat, const std::string& text, const std::string& where);
// As load_scenario, and also takes the battle file `musket gl battle --scenario FILE` reads (a JSON
// object with no "game"): it opens in the Great Lakes battle panel with its scenario option set;
// and a campaign plan (`musket <game> campaign --file PLAN`: a "game" and no "command"), which
// opens in that game's Campaign panel with --file set to it.
scenario load_any_scenario(const catalogue& cat, const std::string& path);
json scenario_document(const calculator& calc, const json& values);
// core/output_file.hpp's write_output_file: a temporary file renamed into place; a target that is
// not a regular file is refused; throws invalid_input (environment_problem) on failure.
void write_file_atomically(const std::string& path, const std::string& contents);

// --- sweeps: `musket <game> sweep <command>` set up from the dashboard ----------------------------
// The dashboard runs the very sweep command the CLI runs; these only translate between its text
// options and the swept calculator's own typed inputs, and read the points for a chart.
struct sweep_axis {
  std::string name;  // an integer input of the swept calculator
  int lowest = 0, highest = 0;
};
struct sweep_setup {
  std::string target;            // the swept calculator ("battle")
  json fixed = json::object();   // its other inputs, typed as in its own panel
  std::vector<sweep_axis> axes;  // one (line chart) or two (heat map)
  std::string metric;            // a result key as --format csv prints it; "" = the command's default
};
// Whether an integer input is worth sweeping (not trials, seed and the like).
bool sweepable(const input_spec& in);
// A first sweep for a game: its first calculator with a sweepable input, six points of it.
std::optional<sweep_setup> default_sweep(const game_calculators& game);
// The sweep calculator's option values for a setup, and back (a loaded scenario); the way back
// throws invalid_input naming the value that does not fit.
json sweep_values(const calculator& target, const sweep_setup& setup);
sweep_setup sweep_setup_from(const game_calculators& game, const json& values);

// A sweep report's points for drawing: x (first parameter), y (second, if any), value[x][y].
struct sweep_points {
  std::vector<std::string> axes;
  std::string metric;
  std::vector<int> x, y;
  std::vector<std::vector<double>> value;  // NaN where the point has no value
};
sweep_points read_sweep(const json& sweep_document);

// --- report values as the results panel shows them -----------------------------------------------
// {"min": a, "max": b}: a probability known only to lie between two values (AR's unknown CRT entries).
bool is_min_max(const json& v);
// "attacker_victory" -> "attacker victory".
std::string readable_key(const std::string& key);
// A report value as a player reads it in a table cell or a line: numbers (4 decimals at the top,
// 3 significant digits inside a list), yes/no, "unknown" for null, "a .. b" for a min/max pair, lists and
// small objects spelled out ("units: 4, sp: 3"), never JSON syntax.
std::string value_text(const json& v, int depth = 0);
// A value under its key, with the CLI table's words for a null: what it means for that key ("no
// fort" for garrison_eliminated, cli/result_labels.hpp), else "unknown"; never "-", which the CLI
// prints for an impossible outcome.
std::string keyed_value_text(const std::string& key, const json& v);
// One cell of a table of records: a sweep row's value at a point the swept command refused reads
// "illegal" (the row's "illegal" holds the reason); a metric's null by the metric's word; a list
// of more than three records by its count ("41 entries (Copy CSV lists them)").
std::string row_cell_text(const json& row, const std::string& column);
// A distribution over whole numbers ({"9": 0.25, "10": 0.75}) in a few characters: its mean and
// span ("mean 9.75 (9..10)"), or the one value it always takes ("9"); nullopt for anything else.
std::optional<std::string> distribution_summary(const json& v);

// The results as the CLI's CSV, and the same rows as a Markdown table.
std::string results_csv(const outcome& result);
std::string results_markdown(const outcome& result);

}  // namespace musket::gui
