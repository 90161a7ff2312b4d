#include "gui/model.hpp"

#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string_view>

#include "cli/number_text.hpp"
#include "cli/result_labels.hpp"
#include "cli/table_renderer.hpp"
#include "core/input_file.hpp"
#include "core/invalid_input.hpp"
#include "core/json_input.hpp"
#include "core/output_file.hpp"
#include "gui/structured_inputs.hpp"

namespace musket::gui {

namespace po = boost::program_options;

namespace {

bool is_supply_lines(const std::string& game) {
  return game == "nt" || game == "ss";
}

std::string label_for(const std::string& command) {
  static const std::map<std::string, std::string> labels{{"battle", "Battle"},
                                                         {"commit", "Best commitment"},
                                                         {"skirmish", "Skirmish"},
                                                         {"initiative", "Initiative"},
                                                         {"refuse", "Refuse battle"},
                                                         {"bombard", "Bombard"},
                                                         {"reinforcements", "Reinforcements"},
                                                         {"sea-battle", "Sea battle"},
                                                         {"navy-return", "Navy return"},
                                                         {"raid", "Raid"},
                                                         {"irregulars", "Irregulars"}};
  if (auto it = labels.find(command); it != labels.end()) return it->second;
  std::string out = command;
  std::replace(out.begin(), out.end(), '-', ' ');
  if (!out.empty()) out[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(out[0])));
  return out;
}

// A starting position worth looking at (the README's example battle and its relatives).
std::optional<json> starting_value(const std::string& game, const std::string& command, const std::string& name) {
  static const std::map<std::string, std::map<std::string, json>> other_games{
      {"ar/battle", {{"attacker", "15M,8C"}, {"defender", "3T,8B"}}},
      {"ar/move", {{"areas", 3}}},
      {"ar/attrition", {{"strength", 8}, {"loss-fraction", "1/3"}, {"survive-on", "5-6"}}},
      {"gl/battle",
       {{"att", "11th Infantry:regular:4/4:5:3; Towson:artillery:3/3:5:5"},
        {"def", "104th Foot:regular:4/4:5:4"},
        {"fort", "2:2:4"},
        {"att-leader", "Brown"}}},
      {"gl/ship-battle", {{"dice", 4}, {"vs", 3}}},
      {"gl/turn",
       {{"british", "ontario=supply,erie=intercept"},
        {"american", "ontario=intercept,erie=transport"},
        {"erie-dice", "3,2"}}},
      {"gl/missions", {{"erie-dice", "3,2"}}}};
  if (command == "campaign" && name == "file") {
    // The game's example plan, so the panel opens on a campaign rather than on "--file is required".
    const char* env = std::getenv("MUSKET_EXAMPLES_DIR");
    const std::string plan = std::string(env && *env ? env : MUSKET_EXAMPLES_DIR) + "/" + game + "-campaign.json";
    if (std::ifstream(plan)) return json(plan);
    return std::nullopt;
  }
  if (!is_supply_lines(game)) {
    auto c = other_games.find(game + "/" + command);
    if (c == other_games.end()) return std::nullopt;
    auto v = c->second.find(name);
    if (v == c->second.end()) return std::nullopt;
    return v->second;
  }
  // SS 9.2: more than 4 Crown units need Cornwallis, whom `musket ss battle` leaves out by default.
  if (game == "ss" && name == "att-units" && (command == "battle" || command == "commit")) return json(4);
  static const std::map<std::string, std::map<std::string, json>> table{
      {"battle", {{"attacker", "crown"}, {"terrain", "city"}, {"att-units", 6}, {"att-war", 5}, {"def-units", 4}}},
      {"commit",
       {{"attacker", "crown"},
        {"terrain", "city"},
        {"att-units", 6},
        {"def-units", 4},
        {"att-war-available", 8},
        {"def-war-available", 5}}},
      {"skirmish", {{"war", 3}, {"crown-units", 2}}},
      {"refuse", {{"units", 5}}},
      {"bombard", {{"war", 4}, {"patriot-units", 3}}},
      {"reinforcements", {{"cup-markers", 12}, {"draws", 3}}},
      {"sea-battle", {{"modifier", 2}, {"colour", "red"}, {"initiator", "crown"}}},
      {"morale", {{"difference", 2}}},
      {"raid", {{"militia-remaining", 3}}},
      {"irregulars", {{"cup", "ga-loyalist=2,sc-loyalist=1,sc-militia=2,swamp-fox=1"}}}};
  auto c = table.find(command);
  if (c == table.end()) return std::nullopt;
  auto v = c->second.find(name);
  if (v == c->second.end()) return std::nullopt;
  return v->second;
}

input_spec make_input(const std::string& game, const std::string& command, const po::option_description& opt) {
  input_spec spec;
  spec.name = opt.long_name();
  spec.help = opt.description();
  const auto semantic = opt.semantic();
  boost::any fallback;
  const bool has_default = semantic->apply_default(fallback);
  if (semantic->max_tokens() == 0) {
    spec.kind = input_kind::flag;
    spec.initial = false;
    spec.cli_default = false;
  } else if (dynamic_cast<const po::typed_value<int>*>(semantic.get()) ||
             dynamic_cast<const po::typed_value<std::uint64_t>*>(semantic.get())) {
    spec.kind = input_kind::integer;
    // The range the option registry publishes with the option (cli::whole_number), as `musket`
    // checks it; an option without one is never bounded here.
    if (const auto range = cli::option_range(opt)) {
      spec.lowest = range->lowest;
      spec.highest = range->highest;
    } else {
      spec.bounded = false;
      spec.lowest = -1'000'000'000;
      spec.highest = 1'000'000'000;
    }
    long long value = spec.lowest;
    if (has_default) {
      if (auto* i = boost::any_cast<int>(&fallback)) value = *i;
      if (auto* u = boost::any_cast<std::uint64_t>(&fallback)) value = static_cast<long long>(*u);
      spec.cli_default = value;
    }
    spec.initial = static_cast<int>(std::clamp<long long>(value, spec.lowest, spec.highest));
    if (!has_default && !semantic->is_required()) {
      spec.optional = true;  // e.g. --track-position: asking for it changes the report
      spec.initial = nullptr;
    }
  } else {
    std::string value;
    if (has_default)
      if (auto* s = boost::any_cast<std::string>(&fallback)) value = *s, spec.cli_default = *s;
    // "crown | patriot", "point | city | fort (...)", "who takes the hits: rulings | concentrate":
    // the help text lists the choices, first or after a colon. A list with a parameter in it
    // ("never | weaker | line_sp_at_most:K") stays a text field.
    if (is_supply_lines(game) && (spec.name == "attacker" || spec.name == "initiator"))
      spec.choices = {"crown", "patriot"};
    else
      spec.choices = cli::form_choices(opt);  // as `musket` reads the help
    if (!spec.choices.empty()) {
      // An optional choice with no default: leaving it out is a choice too ("" = the CLI's default).
      if (!has_default && !semantic->is_required()) spec.choices.insert(spec.choices.begin(), "");
      spec.kind = input_kind::choice;
      if (!is_choice(spec, value)) value = spec.choices[0];
    } else {
      spec.kind = input_kind::text;
      spec.repeatable = dynamic_cast<const po::typed_value<std::vector<std::string>>*>(semantic.get()) != nullptr;
    }
    spec.initial = value;
  }
  // A starting value only where `musket` has no default: the dashboard's defaults are the CLI's.
  if (spec.cli_default.is_null())
    if (auto start = starting_value(game, command, spec.name)) spec.initial = clamp_value(spec, *start);
  return spec;
}

}  // namespace

std::pair<std::string, bool> choice_parameter(const std::string& choice) {
  const auto colon = choice.find(':');
  if (colon == std::string::npos) return {choice, false};
  return {choice.substr(0, colon), true};
}

bool matches_choice(const std::string& choice, const std::string& value) {
  if (choice == value) return true;
  const auto [name, takes] = choice_parameter(choice);
  if (!takes || value.size() <= name.size() + 1 || value.compare(0, name.size() + 1, name + ":") != 0) return false;
  const std::string number = value.substr(name.size() + 1);
  return number.size() <= 9 && number.find_first_not_of("0123456789") == std::string::npos;
}

bool is_choice(const input_spec& spec, const std::string& value) {
  return std::any_of(spec.choices.begin(), spec.choices.end(),
                     [&](const std::string& c) { return matches_choice(c, value); });
}

namespace {

std::string read_file(const std::string& path) {
  return read_input_file(path, "scenario");
}

std::vector<std::vector<std::string>> parse_csv(const std::string& text) {
  std::vector<std::vector<std::string>> rows;
  std::vector<std::string> row;
  std::string field;
  bool quoted = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quoted) {
      if (c == '"' && i + 1 < text.size() && text[i + 1] == '"')
        field += '"', ++i;
      else if (c == '"')
        quoted = false;
      else
        field += c;
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      row.push_back(field), field.clear();
    } else if (c == '\n') {
      row.push_back(field), field.clear();
      rows.push_back(row), row.clear();
    } else {
      field += c;
    }
  }
  if (!field.empty() || !row.empty()) row.push_back(field), rows.push_back(row);
  return rows;
}

std::string markdown_cell(const std::string& s) {
  std::string out;
  for (char c : s) out += c == '|' ? std::string("\\|") : std::string(1, c);
  return out;
}

}  // namespace

const input_spec* calculator::find_input(const std::string& name) const {
  for (const auto& i : inputs)
    if (i.name == name) return &i;
  return nullptr;
}

catalogue::catalogue() : registry_(std::make_unique<cli::command_registry>()) {
  cli::register_all_commands(*registry_);
  for (const auto& g : registry_->games()) {
    game_calculators entry{g.code, g.title, {}};
    for (const auto& c : g.commands) {
      calculator calc;
      calc.game = g.code;
      calc.command = c.name;
      calc.summary = c.summary;
      calc.label = label_for(c.name);
      calc.cli_command = &c;
      po::options_description desc;
      c.add_options(desc);
      for (const auto& opt : desc.options()) calc.inputs.push_back(make_input(g.code, c.name, *opt));
      entry.calculators.push_back(std::move(calc));
    }
    games_.push_back(std::move(entry));
  }
}

const game_calculators* catalogue::find_game(const std::string& code) const {
  for (const auto& g : games_)
    if (g.code == code) return &g;
  return nullptr;
}

const calculator* catalogue::find(const std::string& game, const std::string& command) const {
  const auto* g = find_game(game);
  if (!g) return nullptr;
  for (const auto& c : g->calculators)
    if (c.command == command) return &c;
  return nullptr;
}

std::optional<json> swap_sides(const calculator& calc, const json& values) {
  json out = values;
  bool any = false;
  auto swap = [&](const std::string& a, const std::string& b) {
    if (!calc.find_input(a) || !calc.find_input(b)) return;
    out[a] = values.value(b, json());
    out[b] = values.value(a, json());
    any = true;
  };
  for (const auto& in : calc.inputs)
    if (in.name.rfind("att-", 0) == 0) swap(in.name, "def-" + in.name.substr(4));
  swap("att", "def");
  swap("attacker", "defender");
  const input_spec* attacker = calc.find_input("attacker");
  if (attacker && !calc.find_input("defender") && attacker->kind == input_kind::choice &&
      attacker->choices.size() == 2 && values.contains("attacker")) {
    out["attacker"] = values.at("attacker") == attacker->choices[0] ? attacker->choices[1] : attacker->choices[0];
    any = true;
  }
  if (!any) return std::nullopt;
  return out;
}

json initial_values(const calculator& calc) {
  json values = json::object();
  for (const auto& i : calc.inputs) values[i.name] = i.initial;
  return values;
}

json clamp_value(const input_spec& spec, const json& value) {
  switch (spec.kind) {
    case input_kind::integer:
      if (spec.optional && value.is_null()) return value;
      if (!value.is_number_integer()) return spec.initial;
      if (!spec.bounded) return value;
      return static_cast<int>(std::clamp<long long>(value.get<long long>(), spec.lowest, spec.highest));
    case input_kind::choice:
      if (value.is_string() && is_choice(spec, value.get<std::string>())) return value;
      return spec.initial;
    case input_kind::flag:
      return value.is_boolean() ? value : spec.initial;
    case input_kind::text:
      return value.is_string() ? value : spec.initial;
  }
  return spec.initial;
}

std::vector<std::string> command_arguments(const calculator& calc, const json& values) {
  std::vector<std::string> args;
  for (const auto& i : calc.inputs) {
    if (!values.contains(i.name)) continue;
    const json& v = values.at(i.name);
    // A value equal to the CLI's default is left out, as a player typing the command would: the
    // command sees it defaulted (beside --scenario a given flag is applied or refused, docs/cli.md).
    if (!i.cli_default.is_null() && v == i.cli_default) continue;
    if (i.kind == input_kind::flag) {
      if (v.is_boolean() && v.get<bool>()) args.push_back("--" + i.name);
    } else if (v.is_number_integer()) {
      args.push_back(fmt::format("--{}={}", i.name, v.get<long long>()));
    } else if (v.is_string() && i.repeatable) {
      // A repeatable option: one value per ';'-separated part.
      for (const auto& part : repeated_parts(v.get<std::string>()))
        args.push_back(fmt::format("--{}={}", i.name, part));
    } else if (v.is_string() && !v.get<std::string>().empty()) {
      args.push_back(fmt::format("--{}={}", i.name, v.get<std::string>()));
    }
  }
  return args;
}

std::string shell_quoted(const std::string& word) {
  const bool safe = !word.empty() && std::all_of(word.begin(), word.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || std::string_view("-_./:=,+@%").find(c) != std::string::npos;
  });
  if (safe) return word;
  std::string out = "'";
  for (char c : word) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::string command_line(const std::string& words, const std::vector<std::string>& arguments,
                         const std::vector<std::string>& skip) {
  std::string line = "musket " + words;
  for (const auto& a : arguments) {
    const auto equals = a.find('=');
    const std::string name = a.substr(0, equals);
    if (std::find(skip.begin(), skip.end(), name.substr(2)) != skip.end()) continue;
    line += " " + name;
    if (equals != std::string::npos) line += " " + shell_quoted(a.substr(equals + 1));
  }
  return line;
}

outcome run(const calculator& calc, const json& values) {
  outcome out;
  try {
    po::options_description desc;
    calc.cli_command->add_options(desc);
    po::variables_map vm;
    const auto style = po::command_line_style::allow_long | po::command_line_style::long_allow_adjacent |
                       po::command_line_style::long_allow_next;
    po::store(po::command_line_parser(command_arguments(calc, values)).options(desc).style(style).run(), vm);
    po::notify(vm);
    cli::check_option_ranges(desc, vm);  // the ranges `musket` checks, from the same option registry
    out.report = calc.cli_command->run(vm);
    out.ok = true;
  } catch (const cli::run_cancelled&) {
    out.cancelled = true;
    out.error = "cancelled";
  } catch (const invalid_input& e) {
    out.error_field = e.field();
    out.error = e.what();
  } catch (const po::error& e) {
    out.error = e.what();
  } catch (const std::exception& e) {
    out.error = std::string("internal error: ") + e.what();
  }
  return out;
}

scenario parse_scenario(const catalogue& cat, const std::string& text, const std::string& where) {
  json doc;
  try {
    doc = parse_json_text(text, where);
  } catch (const invalid_input& e) {
    const std::string at = e.field().size() > where.size() + 2 ? e.field().substr(where.size() + 2) : "/";
    throw invalid_input("scenario", where + " is not JSON: " + at + ": " + e.what());
  }
  if (!doc.is_object()) throw invalid_input("scenario", where + ": expected a JSON object");
  if (!doc.contains("game") || !doc.at("game").is_string())
    throw invalid_input("scenario", where + ": \"game\" (a string such as \"nt\") is missing");
  scenario s;
  s.game = doc.at("game").get<std::string>();
  const auto* game = cat.find_game(s.game);
  if (!game) {
    std::string allowed;
    for (const auto& g : cat.games()) allowed += (allowed.empty() ? "" : ", ") + g.code;
    throw invalid_input("scenario", where + ": unknown game '" + s.game + "'; allowed: " + allowed);
  }
  if (!doc.contains("command") || !doc.at("command").is_string())
    throw invalid_input("scenario", where + ": \"command\" (a string such as \"battle\") is missing");
  s.command = doc.at("command").get<std::string>();
  const auto* calc = cat.find(s.game, s.command);
  // A sweep's own "command" option (the calculator swept) is written "sweep" in a scenario file.
  const bool sweep = s.command == "sweep";
  if (!calc) {
    std::string allowed;
    for (const auto& c : game->calculators) allowed += (allowed.empty() ? "" : ", ") + c.command;
    throw invalid_input("scenario",
                        where + ": unknown " + s.game + " command '" + s.command + "'; allowed: " + allowed);
  }
  s.values = initial_values(*calc);
  for (auto it = doc.begin(); it != doc.end(); ++it) {
    const std::string& key = it.key();
    if (key == "game" || key == "command" || key == "format") continue;
    const auto* spec = calc->find_input(sweep && key == "sweep" ? std::string("command") : key);
    if (!spec) {
      std::string allowed;
      for (const auto& i : calc->inputs) allowed += (allowed.empty() ? "" : ", ") + i.name;
      throw invalid_input("scenario", where + ": '" + key + "' is not an option of " + s.game + " " + s.command +
                                          "; allowed: " + allowed);
    }
    const json& v = it.value();
    switch (spec->kind) {
      case input_kind::integer:
        if (spec->optional && v.is_null()) break;
        if (!v.is_number_integer()) throw invalid_input("scenario", where + ": '" + key + "' must be a whole number");
        if (spec->bounded && (v.get<long long>() < spec->lowest || v.get<long long>() > spec->highest))
          throw invalid_input("scenario", fmt::format("{}: '{}' is {}, out of range; allowed {}..{}", where, key,
                                                      v.get<long long>(), spec->lowest, spec->highest));
        break;
      case input_kind::choice: {
        std::string allowed;
        for (const auto& c : spec->choices) allowed += (allowed.empty() ? "" : ", ") + c;
        if (!v.is_string() || !is_choice(*spec, v.get<std::string>()))
          throw invalid_input("scenario", where + ": '" + key + "' must be one of " + allowed);
        break;
      }
      case input_kind::flag:
        if (!v.is_boolean()) throw invalid_input("scenario", where + ": '" + key + "' must be true or false");
        break;
      case input_kind::text:
        if (!v.is_string()) throw invalid_input("scenario", where + ": '" + key + "' must be a string");
        break;
    }
    s.values[spec->name] = v;
  }
  return s;
}

scenario load_scenario(const catalogue& cat, const std::string& path) {
  return parse_scenario(cat, read_file(path), "'" + path + "'");
}

scenario load_any_scenario(const catalogue& cat, const std::string& path) {
  try {
    return load_scenario(cat, path);
  } catch (const invalid_input& e) {
    const auto* battle = cat.find("gl", "battle");
    if (!battle || !battle->find_input("scenario")) throw;
    json doc;
    try {
      doc = parse_json_text(read_file(path), path);
    } catch (const std::exception&) {
      throw e;
    }
    if (!doc.is_object()) throw;
    // A campaign plan, as `musket <game> campaign --file PLAN` reads it: "game" and no "command".
    // It opens in that game's Campaign panel, which runs it (and shows the command's complaint).
    if (doc.contains("game") && doc.at("game").is_string() && !doc.contains("command")) {
      const auto* campaign = cat.find(doc.at("game").get<std::string>(), "campaign");
      if (!campaign || !campaign->find_input("file")) throw;
      scenario s{campaign->game, "campaign", initial_values(*campaign)};
      s.values["file"] = path;
      // A plan the command refuses is a bad file now, not a red panel later: one short run checks it.
      json check = s.values;
      if (campaign->find_input("method")) check["method"] = "sim";
      if (const input_spec* trials = campaign->find_input("trials")) check["trials"] = trials->lowest;
      if (const outcome r = run(*campaign, check); !r.ok)
        throw invalid_input("scenario", "'" + path + "' is a campaign plan the command refuses: " + r.message());
      return s;
    }
    if (doc.contains("game")) throw;
    // The Great Lakes CLI's own battle file: the unit flags stay empty, the file says it all.
    scenario s{"gl", "battle", initial_values(*battle)};
    for (const auto& in : battle->inputs)
      if (in.kind == input_kind::text) s.values[in.name] = "";
    s.values["scenario"] = path;
    const outcome r = run(*battle, s.values);
    if (!r.ok)
      throw invalid_input("scenario", "'" + path + "' is neither a musket-gui scenario (" + e.what() +
                                          ") nor a Great Lakes battle file (" + r.message() + ")");
    return s;
  }
}

json scenario_document(const calculator& calc, const json& values) {
  json doc;
  doc["game"] = calc.game;
  doc["command"] = calc.command;
  for (const auto& i : calc.inputs)
    if (values.contains(i.name))
      doc[calc.command == "sweep" && i.name == "command" ? "sweep" : i.name] = values.at(i.name);
  return doc;
}

void write_file_atomically(const std::string& path, const std::string& contents) {
  write_output_file(path, contents, "file");
}

bool sweepable(const input_spec& in) {
  static const std::set<std::string> not_worth{"trials", "seed", "threads", "state-limit", "memory-mb"};
  return in.kind == input_kind::integer && !not_worth.count(in.name) && in.highest > in.lowest;
}

std::optional<sweep_setup> default_sweep(const game_calculators& game) {
  for (const auto& c : game.calculators) {
    if (c.command == "sweep") continue;
    for (const auto& in : c.inputs) {
      if (!sweepable(in) || in.optional) continue;
      sweep_setup s;
      s.target = c.command;
      s.fixed = initial_values(c);
      const int start = in.initial.is_number_integer() ? in.initial.get<int>() : in.lowest;
      sweep_axis a{in.name, start, std::min(start + 5, in.highest)};
      a.lowest = std::max(in.lowest, a.highest - 5);
      s.axes.push_back(a);
      return s;
    }
  }
  return std::nullopt;
}

json sweep_values(const calculator& target, const sweep_setup& setup) {
  json v = json::object();
  v["command"] = setup.target;
  std::string vary;
  for (const auto& a : setup.axes)
    vary += fmt::format("{}{}={}..{}", vary.empty() ? "" : ";", a.name, a.lowest, a.highest);
  v["vary"] = vary;
  v["metric"] = setup.metric;
  for (const auto& in : target.inputs) {
    if (!setup.fixed.contains(in.name)) continue;
    bool varied = false;
    for (const auto& a : setup.axes) varied = varied || a.name == in.name;
    if (varied) continue;
    const json& x = setup.fixed.at(in.name);
    if (in.kind == input_kind::flag) {
      if (x.is_boolean() && x.get<bool>()) v[in.name] = true;
    } else if (x.is_number_integer()) {
      v[in.name] = std::to_string(x.get<long long>());
    } else if (x.is_string() && !x.get<std::string>().empty()) {
      v[in.name] = x;
    }
  }
  return v;
}

sweep_setup sweep_setup_from(const game_calculators& game, const json& values) {
  auto text = [&](const char* key) {
    return values.contains(key) && values.at(key).is_string() ? values.at(key).get<std::string>() : std::string();
  };
  sweep_setup s;
  s.target = text("command");
  const calculator* target = nullptr;
  std::string allowed;
  for (const auto& c : game.calculators) {
    if (c.command == "sweep") continue;
    allowed += (allowed.empty() ? "" : ", ") + c.command;
    if (c.command == s.target) target = &c;
  }
  if (!target)
    throw invalid_input("sweep",
                        "'" + s.target + "' is not a " + game.code + " calculator to sweep; allowed: " + allowed);
  s.fixed = initial_values(*target);
  const std::string vary = text("vary");
  for (std::size_t start = 0; start < vary.size();) {
    std::size_t end = vary.find(';', start);
    if (end == std::string::npos) end = vary.size();
    const std::string part = vary.substr(start, end - start);
    start = end + 1;
    const auto eq = part.find('=');
    sweep_axis a;
    a.name = part.substr(0, eq);
    const input_spec* in = target->find_input(a.name);
    char extra = 0;
    if (eq == std::string::npos || !in || !sweepable(*in) ||
        std::sscanf(part.c_str() + eq + 1, "%d..%d%c", &a.lowest, &a.highest, &extra) != 2)
      throw invalid_input("vary", "'" + part + "' is not NAME=A..B with NAME a whole-number input of " + s.target);
    if (a.lowest > a.highest || (in->bounded && (a.lowest < in->lowest || a.highest > in->highest)))
      throw invalid_input("vary", fmt::format("'{}': allowed {}..{}, A <= B", part, in->lowest, in->highest));
    s.axes.push_back(a);
  }
  if (s.axes.empty() || s.axes.size() > 2) throw invalid_input("vary", "give one or two parameters: NAME=A..B");
  s.metric = text("metric");
  for (auto it = values.begin(); it != values.end(); ++it) {
    const input_spec* in = target->find_input(it.key());
    if (!in) continue;
    json v = it.value();
    if (v.is_string() && v.get<std::string>().empty() && in->kind != input_kind::text) continue;  // not given
    if (in->kind == input_kind::integer && v.is_string()) {
      try {
        std::size_t used = 0;
        v = std::stoi(v.get<std::string>(), &used);
        if (used != it.value().get<std::string>().size()) throw std::invalid_argument("trailing");
      } catch (const std::exception&) {
        throw invalid_input(it.key(), "'" + it.value().get<std::string>() + "' is not a whole number");
      }
    }
    s.fixed[in->name] = clamp_value(*in, v);
  }
  return s;
}

sweep_points read_sweep(const json& doc) {
  sweep_points out;
  const json& inputs = doc.at("inputs");
  for (const auto& v : inputs.at("vary")) {
    const std::string t = v.get<std::string>();
    out.axes.push_back(t.substr(0, t.find('=')));
  }
  if (inputs.contains("metric") && !inputs.at("metric").empty()) out.metric = inputs.at("metric")[0].get<std::string>();
  auto index_of = [](std::vector<int>& list, int v) {
    auto it = std::find(list.begin(), list.end(), v);
    if (it != list.end()) return static_cast<std::size_t>(it - list.begin());
    list.push_back(v);
    return list.size() - 1;
  };
  struct cell {
    std::size_t x, y;
    double v;
  };
  std::vector<cell> cells;
  for (const auto& row : doc.at("points")) {
    if (row.value("metric", "") != out.metric) continue;
    const std::size_t x = index_of(out.x, row.at(out.axes[0]).get<int>());
    const std::size_t y = out.axes.size() > 1 ? index_of(out.y, row.at(out.axes[1]).get<int>()) : 0;
    const json& v = row.at("value");
    cells.push_back({x, y, v.is_number() ? v.get<double>() : std::nan("")});
  }
  out.value.assign(out.x.size(), std::vector<double>(std::max<std::size_t>(1, out.y.size()), std::nan("")));
  for (const auto& c : cells) out.value[c.x][c.y] = c.v;
  return out;
}

std::string readable_key(const std::string& key) {
  std::string out = key;
  std::replace(out.begin(), out.end(), '_', ' ');
  return out;
}

bool is_min_max(const json& v) {
  return v.is_object() && v.size() == 2 && v.contains("min") && v.contains("max") && v.at("min").is_number() &&
         v.at("max").is_number();
}

std::optional<std::string> distribution_summary(const json& v) {
  if (!v.is_object() || v.empty()) return std::nullopt;
  double total = 0, weighted = 0;
  long lowest = 0, highest = 0;
  bool any = false;
  for (auto it = v.begin(); it != v.end(); ++it) {
    const std::string& k = it.key();
    const bool integer = !k.empty() && k.find_first_not_of("-0123456789") == std::string::npos &&
                         k.find('-', 1) == std::string::npos && k != "-";
    if (!integer || !it.value().is_number()) return std::nullopt;
    const double p = it.value().get<double>();
    if (p <= 0) continue;
    const long x = std::strtol(k.c_str(), nullptr, 10);
    total += p;
    weighted += p * static_cast<double>(x);
    lowest = any ? std::min(lowest, x) : x;
    highest = any ? std::max(highest, x) : x;
    any = true;
  }
  if (!any) return std::nullopt;
  if (lowest == highest) return std::to_string(lowest);
  return fmt::format("mean {:.2f} ({}..{})", weighted / total, lowest, highest);
}

std::string value_text(const json& v, int depth) {
  if (v.is_null()) return "unknown";
  if (v.is_boolean()) return v.get<bool>() ? "yes" : "no";
  if (v.is_string()) return v.get<std::string>();
  if (v.is_number_integer()) return std::to_string(v.get<long long>());
  if (v.is_number()) return depth == 0 ? cli::plain_number(v.get<double>()) : fmt::format("{:.3g}", v.get<double>());
  if (is_min_max(v)) return value_text(v.at("min"), depth + 1) + " .. " + value_text(v.at("max"), depth + 1);
  if (auto summary = distribution_summary(v)) return *summary;
  std::string out;
  if (v.is_array()) {
    for (const auto& x : v) out += (out.empty() ? "" : ", ") + value_text(x, depth + 1);
    return depth > 0 ? "(" + out + ")" : out;
  }
  for (auto it = v.begin(); it != v.end(); ++it)
    out += (out.empty() ? "" : ", ") + readable_key(it.key()) + ": " + value_text(it.value(), depth + 1);
  return depth > 0 ? "(" + out + ")" : out;
}

std::string keyed_value_text(const std::string& key, const json& v) {
  // A scalar reads as the CLI's table cell for the same key (cli/table_renderer.hpp): "33.3%",
  // "-" for an impossible outcome, "5.092", "no fort" / "unknown" for a null.
  if (!v.is_structured()) return cli::cell_text(key, v);
  return value_text(v);
}

std::string row_cell_text(const json& row, const std::string& column) {
  if (!row.is_object() || !row.contains(column)) return "";
  const json& v = row.at(column);
  const bool sweep_value = column == "value" && row.contains("metric") && row.at("metric").is_string();
  if (sweep_value && v.is_null())
    return row.contains("illegal") ? cli::illegal_point_mark : keyed_value_text(row.at("metric").get<std::string>(), v);
  // A sweep's value reads as its metric would (a probability as a percentage).
  if (sweep_value) return keyed_value_text(row.at("metric").get<std::string>(), v);
  // A list of many records reads as its count, as the CLI's table draws it.
  if (v.is_array() && v.size() > cli::longest_drawn_list &&
      std::all_of(v.begin(), v.end(), [](const json& x) { return x.is_object(); }))
    return fmt::format("{} entries (Copy CSV lists them)", v.size());
  return keyed_value_text(column, v);
}

std::string results_csv(const outcome& result) {
  if (!result.ok) return "";
  return cli::render(result.report, cli::output_format::csv);
}

std::string results_markdown(const outcome& result) {
  if (!result.ok) return "";
  std::string out;
  if (!result.report.title.empty()) out += "**" + result.report.title + "**\n\n";
  if (!result.report.verdict.empty()) out += result.report.verdict + "\n\n";
  const auto rows = parse_csv(results_csv(result));
  for (std::size_t r = 0; r < rows.size(); ++r) {
    out += "|";
    for (const auto& cell : rows[r]) out += " " + markdown_cell(cell) + " |";
    out += "\n";
    if (r == 0) {
      out += "|";
      for (std::size_t c = 0; c < rows[r].size(); ++c) out += c == 0 ? "---|" : "---:|";
      out += "\n";
    }
  }
  return out;
}

}  // namespace musket::gui
