// `musket <game> sweep <command>`: any calculator over one or two parameters, to a long CSV and a
// chart. Thin: each point runs the swept command through the registry; the --vary grammar is in
// cli/sweep_axes.cpp.
#include <fmt/format.h>

#include <cmath>
#include <map>
#include <set>

#include "cli/chart_png.hpp"
#include "cli/chart_svg.hpp"
#include "cli/command.hpp"
#include "cli/sweep_axes.hpp"
#include "core/input_file.hpp"
#include "core/invalid_input.hpp"
#include "core/json_input.hpp"
#include "core/output_file.hpp"

namespace musket::cli {

namespace {

const std::set<std::string> sweep_own_options{"command", "vary", "metric", "plot", "csv", "title", "format", "help"};

// Every option of the game's other commands, accepted as text so the sweep can pass it on.
void add_union_options(const game_entry& game, po::options_description& o) {
  std::set<std::string> seen(sweep_own_options.begin(), sweep_own_options.end());
  for (const auto& c : game.commands) {
    if (c.name == "sweep") continue;
    po::options_description d;
    c.add_options(d);
    for (const auto& option : d.options()) {
      const std::string name = option->long_name();
      if (!seen.insert(name).second) continue;
      if (option->semantic()->max_tokens() == 0)
        o.add_options()(name.c_str(), ("(" + c.name + ") " + option->description()).c_str());
      else
        o.add_options()(name.c_str(), po::value<std::vector<std::string>>()->composing(),
                        ("(" + c.name + ") " + option->description()).c_str());
    }
  }
}

// `musket <game> sweep <command>`: main() passes the word after `sweep` as --command.
std::string sweep_target(const po::variables_map& vm) {
  if (vm.count("command")) return vm["command"].as<std::string>();
  throw invalid_input("command", "name the calculator to sweep: musket <game> sweep <command> --vary NAME=A..B");
}

// Flattened document keys, as `--format csv` prints them: "summary.attacker_victory".
void flatten_point(const std::string& path, const json& value, std::map<std::string, json>& out,
                   std::vector<std::string>& order) {
  if (value.is_object()) {
    for (auto it = value.begin(); it != value.end(); ++it) flatten_point(path + "." + it.key(), it.value(), out, order);
  } else if (value.is_array()) {
    for (std::size_t i = 0; i < value.size(); ++i) flatten_point(path + "." + std::to_string(i), value[i], out, order);
  } else {
    out[path] = value;
    order.push_back(path);
  }
}

std::string sweep_csv_number(const json& v) {
  if (v.is_number_float()) return fmt::format("{:.17g}", v.get<double>());
  if (v.is_number()) return v.dump();
  if (v.is_boolean()) return v.get<bool>() ? "1" : "0";
  return "";
}

// The long CSV: game, command, the varied parameters, metric, value; one row per point and metric.
std::string sweep_csv_rows(const std::string& code, const std::string& target, const std::vector<std::string>& axes,
                           const json& rows) {
  std::string csv = "game,command";
  for (const auto& a : axes) csv += "," + a;
  csv += ",metric,value\n";
  for (const auto& row : rows) {
    csv += code + "," + target;
    for (const auto& a : axes) csv += "," + std::to_string(row.at(a).get<int>());
    csv += "," + row.at("metric").get<std::string>() + "," + sweep_csv_number(row.at("value")) + "\n";
  }
  return csv;
}

report run_sweep(const command_registry& registry, const std::string& code, const po::variables_map& vm) {
  const std::string target_name = sweep_target(vm);
  const command* target = registry.find_command(code, target_name);
  if (!target || target_name == "sweep") {
    std::string allowed;
    for (const auto& c : registry.find_game(code)->commands)
      if (c.name != "sweep") allowed += (allowed.empty() ? "" : ", ") + c.name;
    throw invalid_input("command", "'" + target_name + "' is not a " + code + " command; allowed: " + allowed);
  }
  po::options_description target_options;
  target->add_options(target_options);
  target_options.add_options()("format", po::value<std::string>()->default_value("table"), "")("help", "");

  if (!vm.count("vary")) throw invalid_input("vary", "is required: --vary NAME=A..B (once or twice)");
  const auto vary_texts = vm["vary"].as<std::vector<std::string>>();
  if (vary_texts.size() > 2) throw invalid_input("vary", "at most two parameters (a line chart or a heat map)");
  std::vector<axis> axes;
  for (const auto& t : vary_texts) axes.push_back(parse_vary(t, target_options));
  if (axes.size() == 2 && axes[0].name == axes[1].name) throw invalid_input("vary", "the two parameters are the same");
  if (axes.size() == 2) {
    const long long grid =
        static_cast<long long>(axes[0].values.size()) * static_cast<long long>(axes[1].values.size());
    if (grid > max_grid_points)
      throw invalid_input(
          "vary", "the grid has " + std::to_string(grid) + " points; at most " + std::to_string(max_grid_points));
  }
  // Output targets and the chart's kind are checked before any point runs or any file is written.
  std::string plot_ext;
  if (vm.count("csv")) check_output_target(vm["csv"].as<std::string>(), "csv");
  if (vm.count("plot")) {
    const std::string path = vm["plot"].as<std::string>();
    plot_ext = path.size() >= 4 ? path.substr(path.size() - 4) : "";
    if (plot_ext != ".svg" && plot_ext != ".png")
      throw invalid_input("plot", "'" + path + "': give FILE.svg or FILE.png");
    check_output_target(path, "plot");
  }

  // The fixed inputs: every option the user gave that the target command knows.
  std::vector<std::string> fixed_args;
  json fixed = json::object();
  for (const auto& [name, value] : vm) {
    if (sweep_own_options.count(name) || value.defaulted()) continue;
    if (!target_options.find_nothrow(name, false))
      throw invalid_input(name, "is not an option of `" + code + " " + target_name + "`");
    bool varied = false;
    for (const auto& a : axes) varied = varied || a.name == name;
    if (varied) throw invalid_input(name, "is both fixed and varied; drop one");
    if (value.value().type() == typeid(std::vector<std::string>)) {
      for (const auto& v : value.as<std::vector<std::string>>()) {
        fixed_args.push_back("--" + name);
        fixed_args.push_back(v);
        fixed[name] = fixed.contains(name) ? json(fixed[name].get<std::string>() + ";" + v) : json(v);
      }
    } else {
      fixed_args.push_back("--" + name);
      fixed[name] = true;
    }
  }

  std::vector<std::string> metrics;
  if (vm.count("metric")) metrics = vm["metric"].as<std::vector<std::string>>();

  // A plan named by --file is read once, before the first point: a bad file is one error, not
  // one per point, and the points share its parsed document.
  const json_file_cache file_cache;
  if (fixed.contains("file") && fixed["file"].is_string()) read_json_input(fixed["file"].get<std::string>(), "file");

  struct point {
    std::vector<int> at;
    std::map<std::string, json> values;
    std::string error;
  };
  std::vector<point> points;
  std::vector<int> index(axes.size(), 0);
  const std::size_t total = axes.size() == 1 ? axes[0].values.size() : axes[0].values.size() * axes[1].values.size();
  const auto style = po::command_line_style::allow_long | po::command_line_style::long_allow_adjacent |
                     po::command_line_style::long_allow_next;
  std::vector<std::string> default_order;
  // Under the dashboard: progress in points, and each point's command sees only the cancel flag.
  const run_context* outer = current_run_context();
  if (outer && outer->total) outer->total->store(total);
  if (outer && outer->done) outer->done->store(0);
  const run_context inner{outer ? outer->cancel : nullptr, nullptr, nullptr};
  for (std::size_t k = 0; k < total; ++k) {
    if (run_cancel_requested()) throw run_cancelled();
    point p;
    std::vector<std::string> args = fixed_args;
    std::size_t rest = k;
    for (std::size_t a = axes.size(); a-- > 0;) {
      const int v = axes[a].values[rest % axes[a].values.size()];
      rest /= axes[a].values.size();
      p.at.insert(p.at.begin(), v);
    }
    for (std::size_t a = 0; a < axes.size(); ++a) {
      args.push_back("--" + axes[a].name);
      args.push_back(std::to_string(p.at[a]));
    }
    try {
      po::variables_map point_vm;
      po::store(po::command_line_parser(args).options(target_options).style(style).run(), point_vm);
      po::notify(point_vm);
      const scoped_run_context scope(outer ? &inner : nullptr);
      const report r = target->run(point_vm);
      std::vector<std::string> order;
      for (const auto& key : r.result_keys)
        if (r.document.contains(key)) flatten_point(key, r.document.at(key), p.values, order);
      if (default_order.empty()) default_order = order;
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
  std::size_t legal = 0;
  for (const auto& p : points) legal += p.error.empty();
  if (legal == 0) throw invalid_input("vary", "no point of the sweep is legal; the first says: " + points[0].error);
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

  // Long format: one row per point and metric.
  json rows = json::array();
  for (const auto& p : points)
    for (const auto& m : metrics) {
      json row;
      for (std::size_t a = 0; a < axes.size(); ++a) row[axes[a].name] = p.at[a];
      row["metric"] = m;
      const auto it = p.values.find(m);
      row["value"] = it == p.values.end() ? json() : it->second;
      rows.push_back(row);
    }
  std::vector<std::string> axis_names;
  for (const auto& a : axes) axis_names.push_back(a.name);
  const std::string csv = sweep_csv_rows(code, target_name, axis_names, rows);

  std::string fixed_text;
  for (auto it = fixed.begin(); it != fixed.end(); ++it)
    fixed_text += (fixed_text.empty() ? "" : ", ") + it.key() +
                  (it.value().is_string() ? "=" + it.value().get<std::string>() : std::string());
  const std::string title = vm.count("title")
                                ? vm["title"].as<std::string>()
                                : code + " " + target_name + ": " +
                                      (metrics.size() == 1 ? metrics[0] : std::to_string(metrics.size()) + " metrics") +
                                      " by " + axes[0].name + (axes.size() == 2 ? " and " + axes[1].name : "");
  std::string plot_bytes;
  if (vm.count("plot")) {
    std::string svg;
    const std::string subtitle = "fixed: " + (fixed_text.empty() ? std::string("defaults") : fixed_text);
    if (axes.size() == 1) {
      std::vector<chart::series> lines;
      for (const auto& m : metrics) {
        chart::series s{m, {}, {}};
        for (const auto& p : points) {
          s.x.push_back(p.at[0]);
          const auto it = p.values.find(m);
          s.y.push_back(it != p.values.end() && it->second.is_number() ? it->second.get<double>() : NAN);
        }
        lines.push_back(std::move(s));
      }
      svg = chart::line_chart(title, subtitle, axes[0].name, metrics.size() == 1 ? metrics[0] : "value", lines);
    } else {
      std::vector<double> xs(axes[0].values.begin(), axes[0].values.end()),
          ys(axes[1].values.begin(), axes[1].values.end());
      std::vector<std::vector<double>> grid(xs.size(), std::vector<double>(ys.size(), NAN));
      for (std::size_t k = 0; k < points.size(); ++k) {
        const auto it = points[k].values.find(metrics[0]);
        if (it != points[k].values.end() && it->second.is_number())
          grid[k / ys.size()][k % ys.size()] = it->second.get<double>();
      }
      svg = chart::heat_map(title, subtitle, axes[0].name, axes[1].name, metrics[0], xs, ys, grid);
    }
    plot_bytes = plot_ext == ".png" ? chart::png_bytes(svg) : svg;
    if (plot_bytes.empty()) throw std::runtime_error("the PNG encoder failed");
  }
  if (vm.count("csv")) write_output_file(vm["csv"].as<std::string>(), csv, "csv");
  if (vm.count("plot")) write_output_file(vm["plot"].as<std::string>(), plot_bytes, "plot");

  json doc;
  doc["game"] = code;
  doc["command"] = "sweep";
  json inputs{{"command", target_name}, {"vary", vary_texts}, {"metric", metrics}, {"fixed", fixed}};
  if (vm.count("csv")) inputs["csv"] = vm["csv"].as<std::string>();
  if (vm.count("plot")) inputs["plot"] = vm["plot"].as<std::string>();
  doc["inputs"] = inputs;
  doc["method"] = json{{"name", "sweep"}, {"points", points.size()}, {"legal_points", legal}};
  doc["points"] = rows;
  json notes = json::array();
  for (const auto& p : points)
    if (!p.error.empty()) {
      std::string at;
      for (std::size_t a = 0; a < axes.size(); ++a)
        at += (a ? ", " : "") + axes[a].name + "=" + std::to_string(p.at[a]);
      notes.push_back("no value at " + at + ": " + p.error);
    }
  doc["notes"] = notes;
  report r;
  r.document = doc;
  r.title = title;
  r.verdict = fmt::format("{} points ({} legal){}{}", points.size(), legal,
                          vm.count("csv") ? ", CSV in " + vm["csv"].as<std::string>() : "",
                          vm.count("plot") ? ", chart in " + vm["plot"].as<std::string>() : "");
  r.result_keys = {"points"};
  return r;
}

}  // namespace

std::string sweep_csv(const json& doc) {
  const json& inputs = doc.at("inputs");
  std::vector<std::string> axes;
  for (const auto& v : inputs.at("vary")) {
    const std::string text = v.get<std::string>();
    axes.push_back(text.substr(0, text.find('=')));
  }
  return sweep_csv_rows(doc.at("game").get<std::string>(), inputs.at("command").get<std::string>(), axes,
                        doc.at("points"));
}

void register_sweep_commands(command_registry& registry) {
  std::vector<std::string> codes;
  for (const auto& g : registry.games()) codes.push_back(g.code);
  for (const std::string& code : codes) {
    auto& game = registry.add_game(code, "");
    game.commands.push_back(command{
        "sweep", "any calculator over one or two parameter ranges: long CSV and an SVG chart",
        [&registry, code](po::options_description& o) {
          o.add_options()("command", po::value<std::string>(), "the calculator to sweep (or the word after `sweep`)")(
              "vary", po::value<std::vector<std::string>>()->composing(),
              "NAME=A..B[:STEP], once (line chart) or twice (heat map)")(
              "metric", po::value<std::vector<std::string>>()->composing(),
              "result key as --format csv prints it (repeatable); default: the first probability of the summary")(
              "csv", po::value<std::string>(), "write the long-format CSV here")(
              "plot", po::value<std::string>(), "write a chart here: FILE.svg or FILE.png")(
              "title", po::value<std::string>(), "the chart's title (default: command, metric and parameters)");
          add_union_options(*registry.find_game(code), o);
        },
        [&registry, code](const po::variables_map& vm) { return run_sweep(registry, code, vm); },
        "example: musket " + code +
            " sweep battle --vary att-war=1..10 ... --metric summary.attacker_victory --plot "
            "chart.svg --csv points.csv"});
  }
}

}  // namespace musket::cli
