// musket <game> <command> [options]: dispatch, parse, render. Exit 0 on success; 2 on bad input;
// 3 when a path cannot be used (missing, a directory, no permission, a failed write); 1 on an
// internal error. Every failure is one line on stderr (control characters and bad UTF-8
// escaped) and nothing on stdout.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <iostream>

#include "cli/command.hpp"
#include "cli/data_location.hpp"
#include "cli/suggest.hpp"
#include "cli/version.hpp"
#include "cli/work_budget.hpp"
#include "core/input_file.hpp"
#include "core/invalid_input.hpp"
#include "core/printable.hpp"

namespace {

using namespace musket::cli;

void print_games(const command_registry& registry, std::ostream& out) {
  out << "musket: battle and campaign odds for four American Revolution and War of 1812 wargames\n\n"
         "usage: musket <game> <command> [options]   (musket <game> --help lists commands)\n\ngames:\n";
  for (const auto& g : registry.games()) out << fmt::format("  {:<4} {}\n", g.code, g.title);
}

void print_commands(const game_entry& game, std::ostream& out) {
  out << game.title << "\n\nusage: musket " << game.code
      << " <command> [options]   (--help after a command for its options)\n\ncommands:\n";
  for (const auto& c : game.commands) out << fmt::format("  {:<14} {}\n", c.name, c.summary);
}

std::string lowercase(std::string word) {
  for (char& c : word) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return word;
}

std::string joined(const std::vector<std::string>& words) {
  std::string out;
  for (const auto& w : words) out += (out.empty() ? "" : ", ") + w;
  return out;
}

// " (did you mean 'fort'?)" when `field` is an enumerated option whose given value is a near miss.
std::string value_suggestion(const po::options_description& options, const po::variables_map& vm,
                             const std::string& field) {
  const po::option_description* option = options.find_nothrow(field, false);
  if (!option || !vm.count(field)) return "";
  const auto* text = boost::any_cast<std::string>(&vm[field].value());
  const std::vector<std::string> choices = option_choices(*option);
  if (!text || std::find(choices.begin(), choices.end(), *text) != choices.end()) return "";
  return did_you_mean(*text, choices);
}

// More words than any command needs (a Great Lakes battle of 32 units is under 100).
constexpr std::size_t max_command_words = 2000;

constexpr int exit_bad_input = 2;
constexpr int exit_environment = 3;
constexpr int exit_internal = 1;

int fail(const std::string& message, int code = exit_bad_input) {
  std::cerr << "musket: " << musket::printable(message) << "\n";
  return code;
}

const char* exit_codes_help =
    "\nexit codes: 0 done; 2 bad input (an option, a scenario, plan or data file); 3 a path that cannot be\n"
    "read or written (missing, a directory, no permission, disk full); 1 an internal error.\n";

}  // namespace

int main(int argc, char** argv) {
  command_registry registry;
  register_all_commands(registry);
  const std::vector<std::string> args(argv + 1, argv + argc);
  if (!args.empty() && args[0] == "--version") {
    std::cout << version_line("musket") << "\n";
    return 0;
  }
  if (args.empty() || args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
    // Without a command the help is the answer: stdout, exit 0 (as with --help).
    print_games(registry, std::cout);
    std::cout << exit_codes_help;
    return 0;
  }
  const game_entry* game = registry.find_game(lowercase(args[0]));
  if (!game) {
    std::vector<std::string> codes;
    for (const auto& g : registry.games()) codes.push_back(g.code);
    return fail("unknown game '" + args[0] + "'" + did_you_mean(args[0], codes) + "; allowed: " + joined(codes));
  }
  if (args.size() < 2 || args[1] == "--help" || args[1] == "-h" || args[1] == "help") {
    print_commands(*game, std::cout);
    std::cout << exit_codes_help;
    return 0;
  }
  const command* cmd = registry.find_command(game->code, lowercase(args[1]));
  if (!cmd) {
    std::vector<std::string> names;
    for (const auto& c : game->commands) names.push_back(c.name);
    return fail("unknown " + game->code + " command '" + args[1] + "'" + did_you_mean(args[1], names) +
                "; allowed: " + joined(names));
  }

  const po::options_description options = command_options(*game, *cmd);
  po::variables_map vm;
  try {
    // Long options only, so a negative number ("--att-units -1") reads as a value and is
    // rejected by the range check with a message, not mistaken for an option.
    const auto style = po::command_line_style::allow_long | po::command_line_style::long_allow_adjacent |
                       po::command_line_style::long_allow_next;
    const std::vector<std::string> rest(args.begin() + 2, args.end());
    // A command that takes a word after its name (`musket nt sweep battle ...`) declares an
    // option named "command"; the first bare word fills it. Anywhere else a bare word is an error.
    po::positional_options_description positional;
    if (options.find_nothrow("command", false)) positional.add("command", 1);
    // Before the parse, whose time grows with the square of the words: a repeated single-valued
    // option, then more words than any command needs.
    require_given_once(options, rest);
    if (rest.size() > max_command_words)
      return fail(fmt::format("the command line has {} words after '{} {}'; a command takes at most {}", rest.size(),
                              game->code, cmd->name, max_command_words));
    po::store(po::command_line_parser(rest).options(options).positional(positional).style(style).run(), vm);
    if (vm.count("help")) {        // before notify, so --help needs none of the required options
      if (cmd->name == "sweep") {  // the sweep's options and the swept command's, not every command's
        std::cout << sweep_help(*game, vm.count("command") ? lowercase(vm["command"].as<std::string>()) : "");
        return 0;
      }
      std::cout << cmd->summary << "\n\n" << options << "\n";
      if (!cmd->help_notes.empty()) std::cout << cmd->help_notes << "\n";
      return 0;
    }
    // Enumerated values are matched whatever their case (`--attacker Crown`).
    for (auto& [name, value] : vm) {
      auto* text = boost::any_cast<std::string>(&value.value());
      const po::option_description* option = options.find_nothrow(name, false);
      if (!text || !option) continue;
      for (const auto& choice : option_choices(*option))
        if (lowercase(*text) == choice) *text = choice;
    }
    // Every missing required option at once, not the first that Program_options meets.
    std::vector<std::string> missing;
    for (const auto& option : options.options())
      if (option->semantic()->is_required() && !vm.count(option->long_name()))
        missing.push_back("--" + option->long_name());
    if (!missing.empty())
      return fail("missing required option" + std::string(missing.size() > 1 ? "s " : " ") + joined(missing) +
                  " (see: musket " + game->code + " " + cmd->name + " --help)");
    po::notify(vm);
    check_option_ranges(options, vm);
    const output_format format = parse_format(vm["format"].as<std::string>());
    // The work budget (cli/work_budget.hpp): a sweep counts its points itself.
    const work_estimate work = cmd->name == "sweep" ? work_estimate{} : estimate_work(game->code, cmd->name, vm);
    check_work(work, vm.count(work_confirm_option) > 0, game->code + " " + cmd->name);
    report result = cmd->run(vm);
    if (work.trials > 0 && result.document.contains("method") && result.document["method"].is_object() &&
        result.document["method"].value("name", "") != "exact")
      result.document["method"]["work"] = work_json(work);
    std::cout << render(result, format);
    std::cout.flush();
    if (!std::cout) return fail("cannot write the result to standard output", exit_environment);
    return 0;
  } catch (const musket::environment_problem& e) {
    return fail(musket::cli::input_error_line(e.field(), e.what()), exit_environment);
  } catch (const musket::invalid_input& e) {
    return fail(musket::cli::input_error_line(e.field(), e.what()) + value_suggestion(options, vm, e.field()));
  } catch (const data_not_found& e) {
    return fail(e.what(), exit_environment);  // no game data: an environment problem, not bad input
  } catch (const po::unknown_option& e) {
    std::vector<std::string> names;
    for (const auto& option : options.options()) names.push_back("--" + option->long_name());
    return fail("unknown option '" + e.get_option_name() + "'" + did_you_mean(e.get_option_name(), names) +
                " (see: musket " + game->code + " " + cmd->name + " --help)");
  } catch (const po::too_many_positional_options_error&) {
    return fail("unexpected bare word after '" + game->code + " " + cmd->name +
                "'; options are written --name value (see: musket " + game->code + " " + cmd->name + " --help)");
  } catch (const po::error& e) {
    return fail(std::string(e.what()) + " (see: musket " + game->code + " " + cmd->name + " --help)");
  } catch (const std::bad_alloc&) {
    return fail("out of memory (the problem is too large for this machine; see README, Limits and errors)",
                exit_internal);
  } catch (const std::exception& e) {
    return fail(std::string("internal error: ") + e.what(), exit_internal);
  }
}
