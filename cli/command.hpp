#pragma once
// A `musket <game> <command>`: its options and how it turns them into a report. Each game's
// commands live in their own file and register here; main.cpp only dispatches.
#include <atomic>
#include <boost/program_options.hpp>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "cli/report.hpp"
#include "core/monte_carlo.hpp"

namespace musket::cli {

namespace po = boost::program_options;

struct command {
  std::string name;     // "battle"
  std::string summary;  // one line for `musket nt --help`
  std::function<void(po::options_description&)> add_options;
  std::function<report(const po::variables_map&)> run;
  std::string help_notes;  // rulings and examples shown by `--help`
};

// A whole number inside a structured option's text that `sweep --vary` can range over:
// `--vary fort.sp=1..4` edits --fort DICE:SP:MORALE, `--vary def.0.sp=2..4` the first --def unit,
// `--vary att-continentals=2..12` the C points of --attacker 15M,8C. The swept command reads the
// edited text as if the user had typed it, so an illegal value is reported as for any point.
struct option_field {
  std::string command;  // the command whose option it edits ("battle")
  std::string axis;     // the --vary name; "#" is the index of a repeated option's value, from 0 ("def.#.sp")
  std::string option;   // the option whose text it edits ("def")
  std::string help;     // one line for `sweep --help`
  std::function<std::string(const std::string& text, int value)> set;  // the text with the field set to value
};

struct game_entry {
  std::string code;   // "nt"
  std::string title;  // "Supply Lines of the American Revolution: The Northern Theater"
  std::vector<command> commands;
  std::vector<option_field> sweep_fields;  // each command's structured fields, for `sweep --vary`
  // The words a structured option's text may hold in one of its places, by the place's name
  // ("unit_type": regular, militia, ... in a Great Lakes unit NAME:TYPE:SP/MAX:MORALE:DICE), from
  // the calc layer's own tables: a form's choice lists (`musket-docgen json`, the web page).
  // "force_letter": the unit type letters of an American Revolution force ("15M,8C").
  std::map<std::string, std::vector<std::string>> word_choices;
  // Word choices of the game's data files, read only when asked (`musket-docgen json`), so no
  // command reads them for it: "leader.american", "leader.british", each side's commanders in
  // data/gl/commanders.json, the names a battle's leaders are validated against.
  std::function<std::map<std::string, std::vector<std::string>>()> data_word_choices;
  // The options each of whose values is one word of a word choice, by option name: "att-leader"
  // -> "leader", the words of "leader" or of its groups "leader.<group>".
  std::map<std::string, std::string> option_words;
};

class command_registry {
 public:
  game_entry& add_game(const std::string& code, const std::string& title);
  const game_entry* find_game(const std::string& code) const;
  const command* find_command(const std::string& game, const std::string& name) const;
  const std::vector<game_entry>& games() const { return games_; }

 private:
  std::vector<game_entry> games_;
};

// A command's full option set as `musket <game> <command>` parses it: the command's own options
// plus --format and --help. The man page and shell completions are generated from it too.
po::options_description command_options(const game_entry& game, const command& cmd);

// The values an enumerated option takes, by the registry's convention: help text that starts with
// "a | b | c", or has it after ": ", followed by the end, " (", "," or ";", lists them all
// ("crown | patriot", "point | city | fort (...)", "hit allocation: rulings | concentrate").
// Empty for any other option. The CLI matches these case-insensitively; the
// dashboard shows them as a drop-down.
std::vector<std::string> option_choices(const po::option_description& option);
// What a form offers for the option: option_choices, else the same list where its items may take
// a parameter ("never | weaker | line_sp_at_most:K | optimal": a field for K beside the choice) or
// a colon follows it ("protect-regulars | protect-irregulars: the owner's choice ..."). Empty for a
// free-text option. The dashboard's drop-downs.
std::vector<std::string> form_choices(const po::option_description& option);

// Whether a free-text option takes the word none as a value of its own: its help text names it
// quoted, "none" (`ar options --use none` is the historical game). `sweep --vary NAME=none,...`
// passes such a none on rather than leaving the option out.
bool takes_none(const po::option_description& option);

// A whole-number option's legal range, published with the option itself: `whole_number(0, 12)`
// declares an int option that takes 0..12. One source for every front end: `musket`'s help shows
// the range as the value's name ("--att-ship 0..12 (=0)"), check_option_ranges enforces it for
// `musket` and the dashboard alike, and the dashboard bounds its input widget by it.
struct whole_number_range {
  int lowest = 0;
  int highest = 0;
};
po::typed_value<int>* whole_number(int lowest, int highest);
// The most threads a --threads option takes: 1 in the web build (scripts/web), which has no
// threads, so there `--threads 2` is refused as out of range ("allowed 0..1") like any other value.
#ifdef __EMSCRIPTEN__
inline constexpr int max_threads = 1;
#else
inline constexpr int max_threads = 1024;
#endif
// The range an option was declared with; nullopt for any option declared without one.
std::optional<whole_number_range> option_range(const po::option_description& option);
// "the attacker's supporting ship dice, 0..12": the option's description with its range, if any
// (for listings that show the description without the value's name: docs/options.md, sweep's help).
std::string description_with_range(const po::option_description& option);
// Throws invalid_input (require_in_range's message) for the first given option outside its range.
void check_option_ranges(const po::options_description& options, const po::variables_map& vm);

// Throws invalid_input(name, "is given N times; it takes one value") when `name` is an option of
// `options` that is not repeatable and `count` > 1.
void require_given_once(const po::options_description& options, const std::string& name, std::size_t count);
// The same for every option word ("--name" or "--name=value") of a command line, counted in one
// pass before it is parsed: a repeated single-valued option is refused at once, however many times
// it is repeated.
void require_given_once(const po::options_description& options, const std::vector<std::string>& words);

// Every game's commands (cli/commands.cpp calls each game's register function).
void register_all_commands(command_registry& registry);
void register_supply_lines_commands(command_registry& registry);
void register_revolution_commands(command_registry& registry);   // cli/revolution_commands.cpp
void register_great_lakes_commands(command_registry& registry);  // cli/great_lakes_commands.cpp
void register_campaign_commands(command_registry& registry);     // cli/campaign_commands.cpp
// `<game> sweep` for every game registered before it: called last (cli/sweep_command.cpp).
void register_sweep_commands(command_registry& registry);

// A `sweep` report's points as the long CSV `--csv FILE` writes (game, command, the varied
// parameters, metric, value), for front ends that show a sweep (cli/sweep_command.cpp).
std::string sweep_csv(const json& sweep_document);

// `musket <game> sweep [<command>] --help`: the sweep's own options and, with a command named, that
// command's options (as `musket <game> <command> --help` lists them) and the fields inside its
// structured options; without one, the commands it can sweep (cli/sweep_command.cpp).
std::string sweep_help(const game_entry& game, const std::string& command_name);

// Every option the user gave or that took a default, as JSON (flags as true), for `inputs`.
json echo_inputs(const po::variables_map& vm);
// Takes `name` off the document's `defaults` when this answer does not use it (the table's
// defaults line lists only defaults that change a number).
void unused_default(json& document, const std::string& name);
// The names of the inputs that took their default (the table prints them once under its title).
json defaulted_inputs(const po::variables_map& vm);
// The document every command starts from: game, command, echoed inputs, the names of those left
// at their default (`defaults`), and method exact.
json base_document(const std::string& game, const std::string& command, const po::variables_map& vm);

// Option readers that turn a missing or malformed value into invalid_input naming the option.
int int_option(const po::variables_map& vm, const std::string& name);
std::string string_option(const po::variables_map& vm, const std::string& name);
bool flag_option(const po::variables_map& vm, const std::string& name);

// --- running a command on someone's behalf (the dashboard) ---------------------------------------
// A command run from `musket` has no run context and behaves exactly as before. A caller that
// runs a command in a worker thread (musket-gui) may install one for that thread: commands that
// can be slow read it to stop early (cancel) and to say how far they are (done of total; total 0
// means unknown). Reading it is optional for a command; nothing else changes.
struct run_context {
  const std::atomic<bool>* cancel = nullptr;
  std::atomic<std::uint64_t>* done = nullptr;   // units of work finished (trials, sweep points)
  std::atomic<std::uint64_t>* total = nullptr;  // units of work asked for; 0 = unknown
};

// The context installed on this thread, or nullptr (always nullptr in `musket`).
const run_context* current_run_context();
// Installs a context for this thread for the scope's lifetime (restoring the previous one).
class scoped_run_context {
 public:
  explicit scoped_run_context(const run_context* context);
  ~scoped_run_context();
  scoped_run_context(const scoped_run_context&) = delete;
  scoped_run_context& operator=(const scoped_run_context&) = delete;

 private:
  const run_context* previous_;
};

// Whether the caller asked this thread's run to stop.
bool run_cancel_requested();
// Thrown by a command that was cancelled before it had anything to report.
class run_cancelled : public std::runtime_error {
 public:
  run_cancelled() : std::runtime_error("cancelled") {}
};
// Hands this thread's cancel flag and progress counter to a simulation, with `trials` as the
// total; no-op without a context.
void attach_run_context(simulation_options& options);

// The one line an invalid_input gets (after "musket: "): "--name: problem" for a command-line
// option, "FILE: /json/path: problem" for a file, whose field already names it.
std::string input_error_line(const std::string& field, const std::string& problem);

}  // namespace musket::cli
