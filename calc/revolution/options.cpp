#include "calc/revolution/options.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <set>

#include "calc/revolution/fort.hpp"
#include "core/invalid_input.hpp"

namespace musket::revolution {

std::string to_string(compatibility c) {
  switch (c) {
    case compatibility::compatible:
      return "compatible";
    case compatibility::incompatible:
      return "incompatible";
    case compatibility::unknown:
      return "unknown";
    case compatibility::conflict:
      return "conflict";
  }
  return "?";
}

std::string to_string(legality l) {
  switch (l) {
    case legality::legal:
      return "legal";
    case legality::illegal:
      return "illegal";
    case legality::unknown:
      return "unknown";
  }
  return "?";
}

namespace {

std::optional<compatibility> parse_compatibility(const std::string& s) {
  if (s == "compatible") return compatibility::compatible;
  if (s == "incompatible") return compatibility::incompatible;
  if (s == "unknown") return compatibility::unknown;
  if (s == "conflict") return compatibility::conflict;
  return std::nullopt;
}

bool is_option_letter(char c) {
  return c >= 'A' && c <= 'L';
}

const std::array<std::string, 4> seasons{"Winter", "Spring", "Summer", "Fall"};  // the tables' printed order

}  // namespace

options_data load_options(const data_source& source) {
  const json doc = read_json_file(source);
  options_data data;
  data.path = source.path;
  data.historical_goal = require_int(source, require_field(source, doc, "historical_goal", "(top level)"), "value",
                                     "historical_goal", 1, 200);
  data.cap = require_int(source, require_field(source, doc, "cap", "(top level)"), "value", "cap", 0, 100);
  const json& periods = require_field(source, doc, "period_goals", "(top level)");
  if (!periods.is_array()) data_error(source, "period_goals", "must be an array");
  for (std::size_t i = 0; i < periods.size(); ++i) {
    const std::string entry = "period_goals[" + std::to_string(i) + "]";
    period_goal g;
    g.period = require_string(source, periods[i], "period", entry);
    const auto goal = optional_int(source, periods[i], "goal", entry, 1, 200);
    if (!goal) data_error(source, entry, "goal must be known");
    g.goal = *goal;
    g.source = require_string(source, periods[i], "source", entry);
    // "1775-1776": the years the goal holds for, inside the game's 1775..1783.
    const auto dash = g.period.find('-');
    bool read = dash != std::string::npos && dash > 0 && dash + 1 < g.period.size() &&
                g.period.find_first_not_of("0123456789-") == std::string::npos &&
                g.period.find('-', dash + 1) == std::string::npos;
    if (read) {
      g.first_year = std::stoi(g.period.substr(0, dash));
      g.last_year = std::stoi(g.period.substr(dash + 1));
    }
    if (!read || g.first_year < 1775 || g.last_year > 1783 || g.first_year > g.last_year)
      data_error(source, entry, "period '" + g.period + "' is not YEAR-YEAR inside 1775-1783, e.g. \"1775-1776\"");
    data.period_goals.push_back(g);
  }
  for (int year = 1775; year <= 1783; ++year) {
    int holding = 0;
    for (const auto& g : data.period_goals) holding += g.first_year <= year && year <= g.last_year;
    if (holding != 1)
      data_error(source, "period_goals",
                 std::to_string(year) + (holding == 0 ? " is in no period" : " is in two periods") +
                     "; the periods cover 1775..1783 once each");
  }

  const json& options = require_field(source, doc, "options", "(top level)");
  if (!options.is_array()) data_error(source, "options", "must be an array of the twelve options A-L");
  std::array<bool, option_count> seen{};
  for (std::size_t i = 0; i < options.size(); ++i) {
    std::string entry = "options[" + std::to_string(i) + "]";
    const std::string letter = require_string(source, options[i], "letter", entry);
    if (letter.size() != 1 || !is_option_letter(letter[0]))
      data_error(source, entry, "letter '" + letter + "' is not an option; allowed A..L");
    entry = "options." + letter;
    const std::size_t index = static_cast<std::size_t>(letter[0] - 'A');
    if (seen[index]) data_error(source, entry, "is listed twice");
    seen[index] = true;
    option_info& o = data.options[index];
    o.letter = letter[0];
    o.name = require_string(source, options[i], "name", entry);
    o.source = require_string(source, options[i], "source", entry);
    const auto adj = optional_int(source, options[i], "adjustment", entry, -data.cap - 30, data.cap + 30);
    if (!adj) data_error(source, entry, "adjustment must be known");
    o.adjustment = *adj;
    if (options[i].contains("conflicting_adjustment")) {
      const json& c = options[i].at("conflicting_adjustment");
      o.conflicting_adjustment = optional_int(source, c, "value", entry + ".conflicting_adjustment", -60, 60);
      o.adjustment_note = require_string(source, c, "source", entry + ".conflicting_adjustment");
    }
    const json& summary = require_field(source, options[i], "changes", entry);
    o.summary.forces = require_string(source, summary, "forces", entry + ".changes");
    o.summary.rules = require_string(source, summary, "rules", entry + ".changes");
    o.summary.source = require_string(source, summary, "source", entry + ".changes");
    const json& reinforcements = require_field(source, options[i], "reinforcements", entry);
    const std::string rentry = entry + ".reinforcements";
    o.kind = require_string(source, reinforcements, "kind", rentry);
    if (o.kind != "table" && o.kind != "schedule_rule" && o.kind != "rule_change")
      data_error(source, rentry, "kind '" + o.kind + "' is not one of table, schedule_rule, rule_change");
    o.rule = require_string(source, reinforcements, "rule", rentry);
    if (o.kind != "table")
      o.summary.reinforcements = require_string(source, summary, "reinforcements", entry + ".changes");
    if (o.kind == "table") {
      const json& changes = require_field(source, reinforcements, "changes", rentry);
      if (!changes.is_array() || changes.empty())
        data_error(source, rentry, "a table needs a non-empty 'changes' array");
      for (std::size_t k = 0; k < changes.size(); ++k) {
        const std::string centry = rentry + ".changes[" + std::to_string(k) + "]";
        reinforcement_change ch;
        ch.year = require_int(source, changes[k], "year", centry, 1775, 1783);
        const json& season = require_field(source, changes[k], "season", centry);
        if (season.is_string()) {
          ch.season = season.get<std::string>();
          if (std::find(seasons.begin(), seasons.end(), ch.season) == seasons.end())
            data_error(source, centry, "season '" + ch.season + "' is not Winter, Spring, Summer or Fall");
        } else if (!season.is_null()) {
          data_error(source, centry, "season must be a string or null (unknown)");
        }
        ch.points = optional_int(source, changes[k], "points", centry, -100, 100);
        ch.source = require_string(source, changes[k], "source", centry);
        const bool unknown = changes[k].contains("unknown") && require_bool(source, changes[k], "unknown", centry);
        if ((!ch.points || ch.season.empty()) && !unknown)
          data_error(source, centry, "a null value must be marked \"unknown\": true");
        o.changes.push_back(ch);
      }
    }
  }
  for (std::size_t i = 0; i < option_count; ++i)
    if (!seen[i]) data_error(source, "options", std::string("option ") + static_cast<char>('A' + i) + " is missing");

  const json& chart = require_field(source, doc, "compatibility", "(top level)");
  const json& pairs = require_field(source, chart, "pairs", "compatibility");
  if (!pairs.is_array()) data_error(source, "compatibility.pairs", "must be an array");
  std::set<std::string> listed;
  for (std::size_t i = 0; i < pairs.size(); ++i) {
    std::string entry = "compatibility.pairs[" + std::to_string(i) + "]";
    const std::string pair = require_string(source, pairs[i], "pair", entry);
    if (pair.size() != 2 || !is_option_letter(pair[0]) || !is_option_letter(pair[1]) || pair[0] == pair[1])
      data_error(source, entry, "pair '" + pair + "' must be two different letters A..L, e.g. \"AB\"");
    entry = "compatibility." + pair;
    const auto status = parse_compatibility(require_string(source, pairs[i], "status", entry));
    if (!status) data_error(source, entry, "status must be compatible, incompatible, unknown or conflict");
    pair_entry e;
    e.status = *status;
    const json& claims = require_field(source, pairs[i], "claims", entry);
    if (!claims.is_array()) data_error(source, entry, "claims must be an array");
    std::set<compatibility> said;
    for (std::size_t k = 0; k < claims.size(); ++k) {
      const std::string centry = entry + ".claims[" + std::to_string(k) + "]";
      const auto says = parse_compatibility(require_string(source, claims[k], "says", centry));
      if (!says || (*says != compatibility::compatible && *says != compatibility::incompatible))
        data_error(source, centry, "says must be compatible or incompatible");
      e.claims.push_back({*says, require_string(source, claims[k], "source", centry)});
      said.insert(*says);
    }
    // The status must follow from the claims: none -> unknown, agreeing -> that, disagreeing -> conflict.
    const compatibility expected = said.empty()      ? compatibility::unknown
                                   : said.size() > 1 ? compatibility::conflict
                                                     : *said.begin();
    if (e.status != expected && !(said.empty() && e.status == compatibility::unknown))
      data_error(source, entry,
                 "status '" + to_string(e.status) + "' does not follow from its claims (expected '" +
                     to_string(expected) + "')");
    auto& ab = data.pairs[static_cast<std::size_t>(pair[0] - 'A')][static_cast<std::size_t>(pair[1] - 'A')];
    auto& ba = data.pairs[static_cast<std::size_t>(pair[1] - 'A')][static_cast<std::size_t>(pair[0] - 'A')];
    const std::string unordered = pair[0] < pair[1] ? pair : std::string{pair[1], pair[0]};
    if (!listed.insert(unordered).second) data_error(source, entry, "the pair is listed twice");
    ab = e;
    ba = e;
  }
  return data;
}

const period_goal& options_data::period_of_year(int year) const {
  for (const auto& g : period_goals)
    if (g.first_year <= year && year <= g.last_year) return g;
  throw invalid_input("year", std::to_string(year) + " is not a year of the game; allowed 1775..1783");
}

game_turn_date date_of_turn(int turn) {
  static const std::array<const char*, 4> in_order{"Spring", "Summer", "Fall", "Winter"};
  if (turn < 1 || turn > last_game_turn)
    throw invalid_input("turn",
                        std::to_string(turn) + " is not a Game-Turn; allowed 1..36 (Spring 1775 .. Winter 1783)");
  return {1775 + (turn - 1) / 4, in_order[static_cast<std::size_t>((turn - 1) % 4)]};
}

std::string date_text(int turn) {
  const auto d = date_of_turn(turn);
  return d.season + " " + std::to_string(d.year);
}

std::string reinforcements_text(const option_info& o) {
  if (o.kind != "table") return o.summary.reinforcements;
  std::string out;
  for (const auto& c : o.changes)
    out += (out.empty() ? "" : "; ") + (c.season.empty() ? std::string("?") : c.season) + " " + std::to_string(c.year) +
           " " + (c.points ? (*c.points > 0 ? "+" : "") + std::to_string(*c.points) : "?");
  return out;
}

std::string favoured_side(int adjustment) {
  return adjustment > 0 ? "British" : adjustment < 0 ? "American" : "neither";
}

set_order parse_set_order(const std::string& text, const std::string& field) {
  if (text == "net") return set_order::net;
  if (text == "size") return set_order::size;
  throw invalid_input(field, "'" + text + "' is not an order; allowed net, size");
}

std::string to_string(set_order o) {
  return o == set_order::net ? "net" : "size";
}

std::string sources_text(const pair_entry& e) {
  std::string out;
  for (const auto& c : e.claims) out += (out.empty() ? "" : "; ") + to_string(c.says) + ": " + c.source;
  return out.empty() ? "not transcribed" : out;
}

std::vector<char> parse_option_letters(const std::string& text, const std::string& field) {
  std::vector<char> out;
  std::string bare = text;
  bare.erase(std::remove_if(bare.begin(), bare.end(), [](unsigned char c) { return std::isspace(c); }), bare.end());
  std::transform(bare.begin(), bare.end(), bare.begin(), [](unsigned char c) { return std::tolower(c); });
  if (bare == "none") return out;  // the historical game: no option
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t comma = text.find(',', start);
    std::string item = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    start = comma == std::string::npos ? text.size() + 1 : comma + 1;
    item.erase(std::remove_if(item.begin(), item.end(), [](unsigned char c) { return std::isspace(c); }), item.end());
    if (item.size() != 1 || !is_option_letter(static_cast<char>(std::toupper(static_cast<unsigned char>(item[0])))))
      throw invalid_input(field, "'" + item +
                                     "' is not an option; allowed letters A..L, comma-separated (\"D,H,B\"), or "
                                     "\"none\" (the historical game)");
    const char c = static_cast<char>(std::toupper(static_cast<unsigned char>(item[0])));
    if (std::find(out.begin(), out.end(), c) != out.end())
      throw invalid_input(field, std::string("option ") + c + " is given twice");
    out.push_back(c);
  }
  std::sort(out.begin(), out.end());
  return out;
}

namespace {

// Net adjustment and legality without the reports (the enumeration's inner loop).
legality classify(const options_data& data, const std::vector<char>& letters, int& net) {
  net = 0;
  for (char c : letters) net += data.option(c).adjustment;
  if (net > data.cap || net < -data.cap) return legality::illegal;
  bool unknown = false;
  for (std::size_t i = 0; i < letters.size(); ++i)
    for (std::size_t j = i + 1; j < letters.size(); ++j) {
      const auto s = data.pair(letters[i], letters[j]).status;
      if (s == compatibility::incompatible) return legality::illegal;
      if (s != compatibility::compatible) unknown = true;
    }
  return unknown ? legality::unknown : legality::legal;
}

std::vector<goal_report> goals(const options_data& data, int net) {
  std::vector<goal_report> out;
  auto add = [&](const std::string& period, int base) {
    goal_report g;
    g.period = period;
    g.base = base;
    g.goal = base + net;
    g.after_two_major_successes = g.goal / 2;  // one-half of the new goal; 51 -> 25, 30 -> 15
    out.push_back(g);
  };
  add("historical", data.historical_goal);
  for (const auto& p : data.period_goals) add(p.period, p.goal);
  return out;
}

}  // namespace

option_set_analysis analyse_options(const options_data& data, const std::vector<char>& letters) {
  option_set_analysis a;
  a.letters = letters;
  std::sort(a.letters.begin(), a.letters.end());
  a.status = classify(data, a.letters, a.net);
  bool alternative = false;
  int alt = 0;
  for (char c : a.letters) {
    const auto& o = data.option(c);
    alt += o.conflicting_adjustment.value_or(o.adjustment);
    alternative = alternative || o.conflicting_adjustment.has_value();
  }
  if (alternative) a.net_alternative = alt;
  if (a.net > data.cap || a.net < -data.cap)
    a.reasons.push_back("net adjustment " + std::to_string(a.net) + " is beyond +/-" + std::to_string(data.cap));
  for (std::size_t i = 0; i < a.letters.size(); ++i)
    for (std::size_t j = i + 1; j < a.letters.size(); ++j) {
      const pair_entry& e = data.pair(a.letters[i], a.letters[j]);
      a.pairs.push_back({a.letters[i], a.letters[j], &e});
      if (e.status != compatibility::compatible) a.deciding.push_back(a.pairs.back());
      const std::string name = std::string(1, a.letters[i]) + "-" + std::string(1, a.letters[j]);
      if (e.status == compatibility::incompatible)
        a.reasons.push_back(name + " are incompatible (" + sources_text(e) + ")");
      if (e.status == compatibility::unknown) a.reasons.push_back(name + " compatibility is unknown (not transcribed)");
      if (e.status == compatibility::conflict)
        a.reasons.push_back(name + " compatibility: the sources disagree (" + sources_text(e) + ")");
    }
  a.goals = goals(data, a.net);
  return a;
}

enumeration enumerate_option_sets(const options_data& data, bool include_unknown, set_order order) {
  enumeration out;
  std::vector<char> letters;
  for (int mask = 0; mask < (1 << option_count); ++mask) {
    letters.clear();
    for (int i = 0; i < option_count; ++i)
      if (mask & (1 << i)) letters.push_back(static_cast<char>('A' + i));
    int net = 0;
    switch (classify(data, letters, net)) {
      case legality::legal:
        ++out.legal_count;
        out.legal.push_back(analyse_options(data, letters));
        break;
      case legality::illegal:
        ++out.illegal_count;
        break;
      case legality::unknown:
        ++out.unknown_count;
        if (include_unknown) out.unknown.push_back(analyse_options(data, letters));
        break;
    }
  }
  const auto by = [order](const option_set_analysis& x, const option_set_analysis& y) {
    const auto key = [order](const option_set_analysis& a) {
      const int size = static_cast<int>(a.letters.size());
      return order == set_order::net ? std::pair{a.net, size} : std::pair{size, a.net};
    };
    return key(x) != key(y) ? key(x) < key(y) : x.letters < y.letters;
  };
  std::sort(out.legal.begin(), out.legal.end(), by);
  std::sort(out.unknown.begin(), out.unknown.end(), by);
  return out;
}

int less_efficient_allowance(int allowance) {
  return allowance - (allowance + 2) / 3;
}

// Option G: "reduce the size of every Region's Militia and Tory Strength Point Allowance by 1/3
// (all fractional loss is rounded up)".
void apply_less_efficient_militia(force& f) {
  f[unit_type::militia] = less_efficient_allowance(f[unit_type::militia]);
  f[unit_type::tory] = less_efficient_allowance(f[unit_type::tory]);
}

// Option E: Permanent 12 -> 18, Seasonal 6 -> 10. The rules give totals only, so a part of either
// is scaled by the same ratio, rounded down (our assumption, noted wherever it is used).
void apply_increased_french_effort(force& f) {
  f[unit_type::french_permanent] = f[unit_type::french_permanent] * 18 / 12;
  f[unit_type::french_seasonal] = f[unit_type::french_seasonal] * 10 / 6;
}

// Option K: "The French Permanent Reinforcements are eliminated."
void apply_invasion_threat(force& f) {
  f[unit_type::french_permanent] = 0;
}

std::vector<battle_variant> option_battle_variants(const crt_table& table, const battle_setup& setup) {
  // The battle as given must be a possible one: a Fort breaking case F is bad input, not a row.
  if (setup.fort) check_american_fort(setup.defender, "defender");
  std::vector<battle_variant> out;
  auto fight = [&](battle_variant v) {
    try {
      v.result = resolve_battle(table, v.setup);
    } catch (const invalid_input& e) {
      v.why_not = e.what();
    }
    out.push_back(std::move(v));
  };
  fight({"none", "as given", setup, std::nullopt, {}});

  auto apply_to_both = [&](battle_setup s, auto change) {
    change(s.attacker);
    change(s.defender);
    return s;
  };
  const bool irregulars = setup.attacker[unit_type::militia] + setup.defender[unit_type::militia] +
                              setup.attacker[unit_type::tory] + setup.defender[unit_type::tory] >
                          0;
  if (irregulars) {
    battle_setup s = apply_to_both(setup, apply_less_efficient_militia);
    fight({"G", "Militia and Tories a third smaller, rounded up", s, std::nullopt, {}});
  }
  const int permanent = setup.attacker[unit_type::french_permanent] + setup.defender[unit_type::french_permanent];
  const int seasonal = setup.attacker[unit_type::french_seasonal] + setup.defender[unit_type::french_seasonal];
  if (permanent + seasonal > 0) {
    battle_setup s = apply_to_both(setup, apply_increased_french_effort);
    fight({"E", "French Permanent x18/12 and Seasonal x10/6, rounded down", s, std::nullopt, {}});
  }
  if (permanent > 0) {
    battle_setup s = apply_to_both(setup, apply_invasion_threat);
    fight({"K", "French Permanent Reinforcements eliminated", s, std::nullopt, {}});
  }
  return out;
}

}  // namespace musket::revolution
