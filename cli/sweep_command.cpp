// `musket <game> sweep <command>`: any calculator over one or two parameters, to a long CSV and a
// chart (SVG, PNG or PDF). Thin: each point runs the swept command through the registry; the
// --vary grammar is in cli/sweep_axes.cpp, the chart is drawn from the sweep's document
// (cli/sweep_chart.hpp).
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <map>
#include <set>
#include <sstream>

#include "cli/command.hpp"
#include "cli/csv_writer.hpp"
#include "cli/sweep_axes.hpp"
#include "cli/sweep_chart.hpp"
#include "cli/sweep_points.hpp"
#include "cli/work_budget.hpp"
#include "core/input_file.hpp"
#include "core/invalid_input.hpp"
#include "core/json_input.hpp"
#include "core/output_file.hpp"
#include "core/printable.hpp"

namespace musket::cli {

namespace {

// A sweep's own options; every other option is the swept command's.
void add_sweep_own_options(po::options_description& o) {
  o.add_options()("command", po::value<std::string>(), "the calculator to sweep (or the word after `sweep`)")(
      "vary", po::value<std::vector<std::string>>()->composing(),
      "NAME=A..B[:STEP] or NAME=V1,V2,...: an option, or a field of one (fort.sp, def.0.sp); once (line chart) or "
      "twice (heat map)")(
      "metric", po::value<std::vector<std::string>>()->composing(),
      "result key as --format csv prints it (repeatable: a line per metric, or a heat-map panel per "
      "metric); default: the first probability of the summary")("csv", po::value<std::string>(),
                                                                "write the long-format CSV here")(
      "plot", po::value<std::string>(), "write a chart here: FILE.svg, FILE.png or FILE.pdf")(
      "title", po::value<std::string>(), "the chart's title (default: the metric's label by the parameters')")(
      "label", po::value<std::vector<std::string>>()->composing(),
      "KEY=TEXT: the chart's name for a metric or a varied parameter (repeatable); default: musket's label")(
      "subtitle", po::value<std::string>(),
      "the chart's subtitle; \"\" for none (default: the command and its fixed options by their labels)")(
      "full-scale", "probability axes and heat-map colours over 0-100% (default: fitted to the values)")(
      "lines", "with two --vary: a line per value of the second instead of a heat map")(
      "yes", "run a sweep whose estimated work passes the budget (docs/cli.md, Work budget)");
}

std::set<std::string> sweep_own_option_names() {
  po::options_description o;
  add_sweep_own_options(o);
  std::set<std::string> names{"format", "help"};
  for (const auto& option : o.options()) names.insert(option->long_name());
  return names;
}

// Every option of the game's other commands, accepted as text so the sweep can pass it on (the
// swept command reads it; `sweep <command> --help` lists only that command's).
void add_union_options(const game_entry& game, po::options_description& o) {
  std::set<std::string> seen = sweep_own_option_names();
  // An option repeatable in any command stays repeatable; one that takes a single value everywhere
  // is declared so, and a copy of it is refused before the parse (require_given_once).
  std::set<std::string> repeatable;
  for (const auto& c : game.commands) {
    if (c.name == "sweep") continue;
    po::options_description d;
    c.add_options(d);
    for (const auto& option : d.options())
      if (option->semantic()->is_composing()) repeatable.insert(option->long_name());
  }
  for (const auto& c : game.commands) {
    if (c.name == "sweep") continue;
    po::options_description d;
    c.add_options(d);
    for (const auto& option : d.options()) {
      const std::string name = option->long_name();
      if (!seen.insert(name).second) continue;
      if (option->semantic()->max_tokens() == 0)
        o.add_options()(name.c_str(), ("(" + c.name + ") " + option->description()).c_str());
      else if (repeatable.count(name))
        o.add_options()(name.c_str(), po::value<std::vector<std::string>>()->composing(),
                        ("(" + c.name + ") " + description_with_range(*option)).c_str());
      else
        o.add_options()(name.c_str(), po::value<std::vector<std::string>>(),
                        ("(" + c.name + ") " + description_with_range(*option)).c_str());
    }
  }
}

std::vector<const option_field*> fields_of(const game_entry& game, const std::string& command_name) {
  std::vector<const option_field*> fields;
  for (const auto& f : game.sweep_fields)
    if (f.command == command_name) fields.push_back(&f);
  return fields;
}

// `musket <game> sweep <command>`: main() passes the word after `sweep` as --command.
std::string sweep_target(const po::variables_map& vm) {
  if (vm.count("command")) return vm["command"].as<std::string>();
  throw invalid_input("command", "name the calculator to sweep: musket <game> sweep <command> --vary NAME=A..B");
}

const command& find_target(const game_entry& game, const std::string& target_name) {
  for (const auto& c : game.commands)
    if (c.name == target_name && c.name != "sweep") return c;
  std::string allowed;
  for (const auto& c : game.commands)
    if (c.name != "sweep") allowed += (allowed.empty() ? "" : ", ") + c.name;
  throw invalid_input("command", "'" + target_name + "' is not a " + game.code + " command; allowed: " + allowed);
}

report run_sweep(const command_registry& registry, const std::string& code, const po::variables_map& vm) {
  const std::string target_name = sweep_target(vm);
  const game_entry& game = *registry.find_game(code);
  const command& target = find_target(game, target_name);
  // The swept command's options exactly as `musket <game> <command>` reads them.
  const po::options_description target_options = command_options(game, target);

  if (!vm.count("vary")) throw invalid_input("vary", "is required: --vary NAME=A..B or NAME=V1,V2,... (once or twice)");
  const auto vary_texts = vm["vary"].as<std::vector<std::string>>();
  if (vary_texts.size() > 2) throw invalid_input("vary", "at most two parameters (a line chart or a heat map)");
  std::vector<axis> axes;
  for (const auto& t : vary_texts) axes.push_back(parse_vary(t, target_options, fields_of(game, target_name)));
  if (axes.size() == 2 && axes[0].name == axes[1].name) throw invalid_input("vary", "the two parameters are the same");
  if (axes.size() == 2 && axes[0].how != axis::kind::field && axes[0].option == axes[1].option)
    throw invalid_input("vary", "the two parameters set the same option --" + axes[0].option);
  // Counted in 64 bits: each axis holds at most max_axis_points values.
  const long long total_points =
      axes.size() == 1 ? static_cast<long long>(axes[0].values.size())
                       : static_cast<long long>(axes[0].values.size()) * static_cast<long long>(axes[1].values.size());
  if (total_points > max_grid_points)
    throw invalid_input(
        "vary", "the grid has " + std::to_string(total_points) + " points; at most " + std::to_string(max_grid_points));
  // Output targets and the chart's kind are checked before any point runs or any file is written.
  std::optional<chart::format> plot_format;
  if (vm.count("csv")) check_output_target(vm["csv"].as<std::string>(), "csv");
  if (vm.count("plot")) {
    const std::string path = vm["plot"].as<std::string>();
    plot_format = chart::format_of_path(path);
    if (!plot_format) throw invalid_input("plot", "'" + path + "': give FILE.svg, FILE.png or FILE.pdf");
    check_output_target(path, "plot");
  }
  chart_words words =
      parse_chart_words(vm.count("label") ? vm["label"].as<std::vector<std::string>>() : std::vector<std::string>{},
                        vm.count("title") ? std::optional<std::string>(vm["title"].as<std::string>()) : std::nullopt);
  for (const char* chart_only : {"subtitle", "full-scale", "lines"})
    if (vm.count(chart_only) && !vm.count("plot"))
      throw invalid_input(chart_only, "shapes the chart; give --plot FILE.svg, FILE.png or FILE.pdf too");
  if (vm.count("lines") && vary_texts.size() != 2)
    throw invalid_input("lines", "draws a line per value of the second --vary; give two --vary");
  if (vm.count("subtitle")) {
    words.subtitle = vm["subtitle"].as<std::string>();
    require_plain_text(*words.subtitle, "subtitle");  // as --title and --label
  }
  words.full_scale = vm.count("full-scale") > 0;
  words.lines = vm.count("lines") > 0;
  std::vector<std::string> axis_names;
  for (const auto& a : axes) axis_names.push_back(a.name);

  // The fixed inputs: every option the user gave that the target command knows.
  const std::set<std::string> own = sweep_own_option_names();
  option_texts fixed_options;
  json fixed = json::object();
  for (const auto& [name, value] : vm) {
    if (own.count(name) || value.defaulted()) continue;
    if (!target_options.find_nothrow(name, false))
      throw invalid_input(name, "is not an option of `" + code + " " + target_name + "`");
    auto& texts = fixed_options[name];
    if (value.value().type() == typeid(std::vector<std::string>)) {
      texts = value.as<std::vector<std::string>>();
      // A repeated single-valued option is refused once, before any point (not at every point).
      require_given_once(target_options, name, texts.size());
      std::string joined;
      for (std::size_t i = 0; i < texts.size(); ++i) joined += (i ? ";" : "") + texts[i];
      fixed[name] = joined;
    } else {
      fixed[name] = true;
    }
  }
  for (const auto& a : axes) check_axis_against(a, fixed_options);
  // An output never overwrites a file the sweep reads (a plan, a scenario, a table), named by a
  // fixed option or a varied value; nor the other output.
  std::vector<std::string> input_files;
  for (const auto& [name, texts] : fixed_options) input_files.insert(input_files.end(), texts.begin(), texts.end());
  for (const auto& a : axes)
    for (const auto& v : a.values)
      if (v.is_string()) input_files.push_back(v.get<std::string>());
  if (vm.count("csv")) check_output_not_input(vm["csv"].as<std::string>(), "csv", input_files);
  if (vm.count("plot")) {
    if (vm.count("csv")) input_files.push_back(vm["csv"].as<std::string>());
    check_output_not_input(vm["plot"].as<std::string>(), "plot", input_files);
    if (vm.count("csv") && vm["csv"].as<std::string>() == vm["plot"].as<std::string>())
      throw invalid_input("plot", "'" + vm["plot"].as<std::string>() + "' is also the --csv file; give two files");
  }

  std::vector<std::string> metrics;
  if (vm.count("metric")) metrics = vm["metric"].as<std::vector<std::string>>();
  if (!metrics.empty()) check_label_keys(words, metrics, axis_names);  // before any point runs

  // Every file a point reads (a plan, a scenario, a CRT, the game data) is read and parsed once;
  // a bad --file is one error before the first point.
  const json_file_cache file_cache;
  if (fixed.contains("file") && fixed["file"].is_string()) read_json_input(fixed["file"].get<std::string>(), "file");

  // Each point's options, parsed once, straight from the option texts (no command line to
  // re-tokenize), and from them the work (cli/work_budget.hpp): a point that simulates (--method
  // sim or auto, or a command that always does) runs up to --trials trials.
  const std::size_t total = static_cast<std::size_t>(total_points);
  std::vector<std::vector<json>> at(total);
  std::vector<po::variables_map> point_vms(total);
  std::vector<std::string> parse_errors(total);
  std::vector<work_estimate> point_work(total);
  unsigned long long trials_total = 0, trials_each = 0;
  std::size_t simulating_points = 0;
  double seconds = 0;
  for (std::size_t k = 0; k < total; ++k) {
    std::size_t rest = k;
    at[k].resize(axes.size());
    for (std::size_t a = axes.size(); a-- > 0;) {
      at[k][a] = axes[a].values[rest % axes[a].values.size()];
      rest /= axes[a].values.size();
    }
    option_texts options = fixed_options;
    for (std::size_t a = 0; a < axes.size(); ++a) apply_axis(axes[a], at[k][a], options);
    po::parsed_options parsed(&target_options);
    for (const auto& [name, texts] : options) {
      if (texts.empty()) parsed.options.emplace_back(name, std::vector<std::string>{});
      for (const auto& t : texts) parsed.options.emplace_back(name, std::vector<std::string>{t});
    }
    try {
      po::store(parsed, point_vms[k]);
    } catch (const po::error& e) {
      parse_errors[k] = e.what();  // the point reports it when it runs
      continue;
    }
    point_work[k] = estimate_work(code, target_name, point_vms[k]);
    seconds += point_work[k].seconds;
    if (point_work[k].trials == 0) continue;
    trials_total += point_work[k].trials;
    trials_each = std::max(trials_each, point_work[k].trials);
    ++simulating_points;
  }
  work_estimate work;
  work.seconds = seconds;
  work.trials = trials_total;
  work.text = simulating_points == 0
                  ? fmt::format("{} points, each solved exactly", total)
                  : fmt::format("{} points, {} of them simulated with up to {} trials each: up to {} trials", total,
                                simulating_points, trials_each, trials_total);
  // A long sweep says what it is about to do before the wait (stderr, so the result stays clean;
  // a shorter one states it only in method, so an error after it is still one line).
  check_work(work, vm.count(work_confirm_option) > 0, "sweep of " + code + " " + target_name);
  const run_context* outer = current_run_context();

  struct point {
    std::vector<json> at;
    std::map<std::string, json> values;
    std::map<std::string, std::string> exact;  // a value's fraction "num/den", where it was solved exactly
    json intervals = json::object();
    std::string error;             // illegal: no value
    std::string legality_unknown;  // values kept, never counted legal
  };
  std::vector<point> points;
  std::vector<std::string> default_order;
  // Under the dashboard: progress in points, and each point's command sees only the cancel flag.
  if (outer && outer->total) outer->total->store(total);
  if (outer && outer->done) outer->done->store(0);
  const run_context inner{outer ? outer->cancel : nullptr, nullptr, nullptr};
  for (std::size_t k = 0; k < total; ++k) {
    if (run_cancel_requested()) throw run_cancelled();
    point p;
    p.at = at[k];
    if (!parse_errors[k].empty())
      throw invalid_input(
          "vary", parse_errors[k] + " (the sweep passes the other options to `" + code + " " + target_name + "`)");
    try {
      po::variables_map& point_vm = point_vms[k];
      po::notify(point_vm);
      check_option_ranges(target_options, point_vm);
      const scoped_run_context scope(outer ? &inner : nullptr);
      const report r = target.run(point_vm);
      if (!r.illegal.empty()) {
        p.error = r.illegal;  // an answer about an illegal game (an incompatible option set): no value
      } else {
        p.legality_unknown = r.legality_unknown;
        // The keys exactly as `--format csv` prints them (results, stats, intervals), so every one
        // is a metric, with the fraction it splits into exact_num and exact_den.
        std::vector<std::string> order;
        for (auto& leaf : document_leaves(r)) {
          if (!leaf.exact.empty()) p.exact[leaf.key] = leaf.exact;
          p.values[leaf.key] = std::move(leaf.value);
          order.push_back(std::move(leaf.key));
        }
        if (r.document.contains("intervals")) p.intervals = r.document.at("intervals");
        if (default_order.empty()) default_order = order;
      }
    } catch (const environment_problem&) {
      throw;  // an unreadable file is the same at every point
    } catch (const invalid_input& e) {
      p.error = input_error_line(e.field(), e.what());
    } catch (const po::error& e) {
      throw invalid_input("vary", std::string(e.what()) + " (the sweep passes the other options to `" + code + " " +
                                      target_name + "`)");
    }
    points.push_back(std::move(p));
    if (outer && outer->done) outer->done->fetch_add(1);
  }
  // What ran: the answered points that simulated, known by the intervals a simulated answer carries
  // (the work estimate's trials count every point that might: under auto, one solved exactly too).
  std::size_t simulated_points = 0;
  for (const auto& p : points) simulated_points += p.error.empty() && !p.intervals.empty();
  std::size_t legal = 0, unknown = 0;
  for (const auto& p : points) {
    legal += p.error.empty() && p.legality_unknown.empty();
    unknown += p.error.empty() && !p.legality_unknown.empty();
  }
  if (legal + unknown == 0)
    throw invalid_input("vary", "no point of the sweep is legal; the first says: " + points[0].error);
  if (metrics.empty()) {
    // The first probability in the command's summary, else its first probability.
    for (int pass = 0; pass < 2 && metrics.empty(); ++pass)
      for (const auto& key : default_order) {
        if (pass == 0 && key.rfind("summary.", 0) != 0) continue;
        for (const auto& p : points)
          if (p.error.empty() && p.values.count(key)) {
            const json& v = p.values.at(key);
            if (v.is_number_float() && v.get<double>() >= 0 && v.get<double>() <= 1) metrics.push_back(key);
            break;
          }
        if (!metrics.empty()) break;
      }
    if (metrics.empty()) throw invalid_input("metric", "the command reports no probability; name one with --metric");
  }
  for (const auto& m : metrics) {
    bool found = false;
    for (const auto& p : points) found = found || p.values.count(m);
    if (!found) {
      std::string some;
      for (std::size_t i = 0; i < default_order.size() && i < 12; ++i) some += (i ? ", " : "") + default_order[i];
      throw invalid_input("metric", "'" + m + "' is not a result key of `" + code + " " + target_name +
                                        "`; keys are as --format csv prints them, e.g. " + some);
    }
  }

  // Long format: one row per point and metric; simulated points add the value's interval (low,
  // high) on every row, null where a value has none.
  bool any_interval = false;
  for (const auto& p : points) any_interval = any_interval || !p.intervals.empty();
  json rows = json::array();
  for (const auto& p : points)
    for (const auto& m : metrics) {
      json row;
      for (std::size_t a = 0; a < axes.size(); ++a) row[axes[a].name] = p.at[a];
      row["metric"] = m;
      const auto it = p.values.find(m);
      row["value"] = it == p.values.end() ? json() : it->second;
      if (const auto e = p.exact.find(m); e != p.exact.end()) row["exact"] = e->second;  // as the command's `exact`
      if (!p.error.empty()) row["illegal"] = p.error;  // an illegal point (refused, or an illegal game): why
      if (any_interval) {
        double low = 0, high = 0;
        const bool found = find_interval(p.intervals, m, low, high);
        row["low"] = found ? json(low) : json();
        row["high"] = found ? json(high) : json();
      }
      rows.push_back(row);
    }
  check_label_keys(words, metrics, axis_names);
  const std::string csv = sweep_csv_rows(code, target_name, axis_names, rows);

  json doc;
  doc["game"] = code;
  doc["command"] = "sweep";
  json inputs{{"command", target_name}, {"vary", vary_texts}, {"metric", metrics}, {"fixed", fixed}};
  if (vm.count("csv")) inputs["csv"] = vm["csv"].as<std::string>();
  if (vm.count("plot")) inputs["plot"] = vm["plot"].as<std::string>();
  doc["inputs"] = inputs;
  doc["method"] = json{{"name", "sweep"},
                       {"points", points.size()},
                       {"legal_points", legal},
                       {"unknown_legality_points", unknown},
                       {"simulated_points", simulated_points},
                       {"trials_at_most", trials_total},
                       {"work", work_json(work)}};
  doc["points"] = rows;
  json notes = json::array();
  for (const auto& p : points) {
    std::string where;
    for (std::size_t a = 0; a < axes.size(); ++a)
      where += (a ? ", " : "") + axes[a].name + "=" + axis_value_text(p.at[a]);
    if (!p.error.empty()) notes.push_back("no value at " + where + ": " + p.error);
    if (!p.legality_unknown.empty()) notes.push_back("legality unknown at " + where + ": " + p.legality_unknown);
  }
  if (any_interval) notes.push_back("low and high: the 95% interval of each simulated value");
  doc["notes"] = notes;
  doc["labels"] = sweep_labels(doc, words);
  // The chart is drawn from the document alone, as a reader of the JSON could draw it.
  const std::string plot_bytes = plot_format ? chart::write_chart(chart_from_sweep(doc, words), *plot_format) : "";
  if (vm.count("csv")) write_output_file(vm["csv"].as<std::string>(), csv, "csv");
  if (vm.count("plot")) write_output_file(vm["plot"].as<std::string>(), plot_bytes, "plot");
  report r;
  r.document = doc;
  // The chart's words: "nt battle: P(defender dislodged) by Attacker War".
  r.title = vm.count("title") ? sweep_title(doc, words) : code + " " + target_name + ": " + sweep_title(doc, words);
  r.verdict = fmt::format("{} points ({} legal{}){}{}", points.size(), legal,
                          unknown ? fmt::format(", {} of unknown legality", unknown) : std::string(),
                          vm.count("csv") ? ", CSV in " + vm["csv"].as<std::string>() : "",
                          vm.count("plot") ? ", chart in " + vm["plot"].as<std::string>() : "");
  r.result_keys = {"points"};
  return r;
}

}  // namespace

std::string sweep_csv(const json& doc) {
  return sweep_csv_rows(doc.at("game").get<std::string>(), doc.at("inputs").at("command").get<std::string>(),
                        sweep_parameters(doc), doc.at("points"));
}

// One working sweep of each game's battle for the help text.
std::string sweep_example(const std::string& code) {
  if (code == "gl")
    return "--att \"11th:regular:4/4:5:3\" --def \"104th:regular:4/4:5:4\" --fort 2:2:4 --vary fort.sp=1..4";
  if (code == "ar") return "--attacker 15M,8C --defender 3T,8B --vary att-continentals=2..12";
  return "--attacker crown --terrain city --att-units 4 --def-units 3 --vary att-war=1..10";
}

std::string sweep_help(const game_entry& game, const std::string& command_name) {
  const command* sweep = nullptr;
  for (const auto& c : game.commands)
    if (c.name == "sweep") sweep = &c;
  po::options_description own("musket " + game.code + " sweep options");
  add_sweep_own_options(own);
  own.add_options()("format", po::value<std::string>()->default_value("table"), "table | json | csv")("help",
                                                                                                      "show this help");
  std::ostringstream out;
  out << (sweep ? sweep->summary : std::string()) << "\n\n" << own << "\n";
  const command* target = nullptr;
  for (const auto& c : game.commands)
    if (c.name == command_name && c.name != "sweep") target = &c;
  if (!target) {
    std::string names;
    for (const auto& c : game.commands)
      if (c.name != "sweep") names += (names.empty() ? "" : ", ") + c.name;
    out << "commands to sweep: " << names << "\nthe options of one: musket " << game.code
        << " sweep <command> --help\n";
  } else {
    po::options_description target_options("musket " + game.code + " " + target->name + " options (fixed or varied)");
    target->add_options(target_options);
    out << target_options << "\n";
    const auto fields = fields_of(game, target->name);
    if (!fields.empty()) {
      out << "fields inside its options (--vary NAME=A..B; N counts a repeated option's values from 0):\n";
      for (const auto* f : fields) {
        std::string name = f->axis;
        if (const auto hash = name.find('#'); hash != std::string::npos) name.replace(hash, 1, "N");
        out << "  " << name << std::string(name.size() < 22 ? 22 - name.size() : 1, ' ') << f->help << "\n";
      }
      out << "\n";
    }
  }
  if (sweep && !sweep->help_notes.empty()) out << sweep->help_notes << "\n";
  return out.str();
}

void register_sweep_commands(command_registry& registry) {
  std::vector<std::string> codes;
  for (const auto& g : registry.games()) codes.push_back(g.code);
  for (const std::string& code : codes) {
    auto& game = registry.add_game(code, "");
    game.commands.push_back(
        command{"sweep", "any calculator over one or two parameter ranges: long CSV and a chart (SVG, PNG or PDF)",
                [&registry, code](po::options_description& o) {
                  add_sweep_own_options(o);
                  add_union_options(*registry.find_game(code), o);
                },
                [&registry, code](const po::variables_map& vm) { return run_sweep(registry, code, vm); },
                "--vary NAME=A..B[:STEP] (whole numbers) or NAME=V1,V2,... (a list: + stands for a comma inside a "
                "value, none leaves the option out, a switch takes yes,no)\n"
                "a sweep estimated past 120 s of work needs --yes; simulated rows carry low and high (the 95% "
                "interval)\n"
                "example: musket " +
                    code + " sweep battle " + sweep_example(code) + " --plot chart.svg --csv points.csv"});
  }
}

}  // namespace musket::cli
