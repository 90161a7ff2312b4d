// `musket ar options`: SPI's Variable Forces options (Variable Forces Options; Option
// Compatibility Chart). Thin: calc/revolution/options and option_compare decide, this file reports.
#include <fmt/format.h>

#include <algorithm>

#include "calc/revolution/data.hpp"
#include "calc/revolution/option_compare.hpp"
#include "calc/revolution/options.hpp"
#include "cli/revolution_input.hpp"
#include "core/invalid_input.hpp"

namespace musket::cli {

using namespace revolution_input;

namespace {

// --- options ----------------------------------------------------------------------------------

std::string letters_text(const std::vector<char>& letters) {
  std::string out;
  for (char c : letters) out += (out.empty() ? "" : ",") + std::string(1, c);
  return out.empty() ? "none" : out;
}

// "A Additional British Mercenaries; E Increased French Effort in North America".
std::string names_text(const ar::options_data& data, const std::vector<char>& letters) {
  std::string out;
  for (char c : letters) out += (out.empty() ? "" : "; ") + std::string(1, c) + " " + data.option(c).name;
  return out.empty() ? "none (the historical game)" : out;
}

std::string helps_text(int net) {
  const std::string side = ar::favoured_side(net);
  return side == "neither" ? "helps neither side" : "helps the " + side + (side == "American" ? "s" : "");
}

std::string signed_text(int n) {
  return fmt::format("{:+d}", n);
}

// "B-D unknown; H-K conflict": the pairs that make a set illegal or unknown.
std::string deciding_text(const ar::option_set_analysis& a) {
  std::string out;
  for (const auto& p : a.deciding)
    out += (out.empty() ? "" : "; ") + std::string{p.a, '-', p.b} + " " + ar::to_string(p.entry->status);
  return out;
}

std::string reasons_text(const ar::option_set_analysis& a) {
  std::string out;
  for (const auto& r : a.reasons) out += (out.empty() ? "" : "; ") + r;
  return out.empty() ? "-" : out;
}

const char* const adjustment_header =
    "a positive adjustment helps the British, so it raises the British goal (51 + net); a negative one helps the "
    "Americans and lowers it; a legal set keeps |net| <= 21 and no incompatible pair (Variable Forces Options)";

json goals_json(const ar::option_set_analysis& a) {
  json goals = json::array();
  for (const auto& g : a.goals)
    goals.push_back(json{{"period", g.period},
                         {"base", g.base},
                         {"goal", g.goal},
                         {"after_two_major_successes", g.after_two_major_successes}});
  return goals;
}

json common_option_notes() {
  return json::array(
      {"goal = base + net adjustment (historical 51; errata 41 / 51 / 61 by period); after two Major Successes the "
       "British need floor(goal / 2) (Variable Forces Options)",
       "legal needs |net| <= 21 and no incompatible pair; a pair of unknown compatibility makes the set unknown, never "
       "legal (the chart is transcribed only for row A and the start of row B; K with C, D and E is incompatible by "
       "the transcription note under the chart)",
       "reinforcement changes are Strength Points of British Regulars added (+) or deducted (-); seasons in the "
       "tables' printed order (Win., Spr., Sum., Fall)"});
}

// Every option: `musket ar options` with no mode.
report run_options_list(const po::variables_map& vm, const ar::options_data& data) {
  report r;
  r.document = ar_document("options", vm);
  json& doc = r.document;
  json rows = json::array();
  for (const auto& o : data.options)
    rows.push_back(json{{"letter", std::string(1, o.letter)},
                        {"name", o.name},
                        {"adjustment", o.adjustment},
                        {"helps", ar::favoured_side(o.adjustment)},
                        {"forces", o.summary.forces.empty() ? "-" : o.summary.forces},
                        {"reinforcements", ar::reinforcements_text(o).empty() ? "-" : ar::reinforcements_text(o)},
                        {"rules", o.summary.rules.empty() ? "-" : o.summary.rules}});
  doc["options"] = rows;
  json pairs = json::array();
  for (char a = 'A'; a <= 'L'; ++a)
    for (char b = static_cast<char>(a + 1); b <= 'L'; ++b)
      if (const auto& e = data.pair(a, b); e.status != ar::compatibility::unknown)
        pairs.push_back(json{
            {"pair", std::string{a, '-', b}}, {"status", ar::to_string(e.status)}, {"sources", ar::sources_text(e)}});
  doc["known_pairs"] = pairs;
  doc["exact"] = json::object();
  json notes = common_option_notes();
  notes.insert(notes.begin(), adjustment_header);
  notes.push_back("known_pairs lists every pair whose compatibility a source gives; every other pair is unknown");
  notes.push_back(
      "Option B is printed -14 and used as -13 in the rulebook's worked example; the data keeps -14 (both are shown "
      "by --use)");
  doc["notes"] = notes;
  r.title = "American Revolution Variable Forces options A-L";
  r.verdict = std::string("adjustment: ") + adjustment_header;
  r.result_keys = {"options", "known_pairs"};
  return r;
}

report run_options_use(const po::variables_map& vm, const ar::options_data& data) {
  const auto letters = ar::parse_option_letters(string_option(vm, "use"), "use");
  const auto a = ar::analyse_options(data, letters);
  report r;
  r.document = ar_document("options", vm);
  json& doc = r.document;
  json rows = json::array();
  for (char c : a.letters) {
    const auto& o = data.option(c);
    rows.push_back(json{{"letter", std::string(1, c)},
                        {"name", o.name},
                        {"adjustment", o.adjustment},
                        {"helps", ar::favoured_side(o.adjustment)}});
  }
  doc["options"] = rows;
  doc["net_adjustment"] = a.net;
  if (a.net_alternative) doc["net_adjustment_alternative"] = *a.net_alternative;
  doc["legality"] = ar::to_string(a.status);
  doc["reasons"] = a.reasons;
  json pairs = json::array();
  for (const auto& p : a.pairs)
    pairs.push_back(json{{"pair", std::string{p.a, '-', p.b}},
                         {"status", ar::to_string(p.entry->status)},
                         {"sources", ar::sources_text(*p.entry)}});
  doc["pairs"] = pairs;
  doc["goals"] = goals_json(a);
  json changes = json::array(), rules = json::array();
  for (const auto& c : ar::reinforcement_schedule(data, a.letters))
    changes.push_back(json{{"season", (c.season.empty() ? std::string("?") : c.season) + " " + std::to_string(c.year)},
                           {"option", std::string(1, c.option)},
                           {"points", c.points ? json(*c.points) : json(nullptr)}});
  for (char c : a.letters) {
    const auto& o = data.option(c);
    if (o.kind != "table") rules.push_back(json{{"option", std::string(1, c)}, {"kind", o.kind}, {"rule", o.rule}});
  }
  doc["reinforcement_changes"] = changes;
  doc["rule_changes"] = rules;
  if (std::find(a.letters.begin(), a.letters.end(), 'G') != a.letters.end()) {
    // Option G on every Region we know: unknown allowances stay unknown (null).
    json allowances = json::array();
    auto under_g = [](const std::optional<int>& n) {
      return n ? json(ar::less_efficient_allowance(*n)) : json(nullptr);
    };
    auto as_json = [](const std::optional<int>& n) { return n ? json(*n) : json(nullptr); };
    for (const auto& region : ar::load_regions({data_file("regions.json"), ""}))
      allowances.push_back(json{{"region", region.name},
                                {"militia", as_json(region.militia)},
                                {"militia_under_G", under_g(region.militia)},
                                {"tory", as_json(region.tory)},
                                {"tory_under_G", under_g(region.tory)}});
    doc["region_allowances"] = allowances;
  }
  doc["exact"] = json::object();
  json notes = common_option_notes();
  notes.insert(notes.begin(), adjustment_header);
  if (a.net_alternative)
    notes.push_back(
        fmt::format("Option B is printed -14 but the worked example uses -13: net {} as printed, {} with -13", a.net,
                    *a.net_alternative));
  doc["notes"] = notes;
  r.title = "American Revolution Variable Forces: " +
            (a.letters.empty() ? names_text(data, a.letters)
                               : letters_text(a.letters) + " (" + names_text(data, a.letters) + ")");
  // A sweep over option sets marks an illegal one illegal, with its reasons, and gives it no value.
  if (a.status == ar::legality::illegal) r.illegal = "the option set is illegal: " + reasons_text(a);
  if (a.status == ar::legality::unknown) r.legality_unknown = reasons_text(a);
  r.verdict =
      fmt::format("{}; net adjustment {:+d} ({}); British goal {} (two Major Successes: {})", ar::to_string(a.status),
                  a.net, helps_text(a.net), a.goals[0].goal, a.goals[0].after_two_major_successes);
  r.result_keys = {"options", "net_adjustment", "net_adjustment_alternative", "legality",    "reasons",
                   "pairs",   "goals",          "reinforcement_changes",      "rule_changes"};
  return r;
}

json set_row(const ar::options_data& data, const ar::option_set_analysis& a, bool with_deciding) {
  json row{{"options", letters_text(a.letters)},
           {"size", a.letters.size()},
           {"net", a.net},
           {"helps", ar::favoured_side(a.net)},
           {"goal", a.goals[0].goal},
           {"after_two_major_successes", a.goals[0].after_two_major_successes}};
  if (with_deciding) row["deciding_pairs"] = deciding_text(a);
  row["names"] = names_text(data, a.letters);
  return row;
}

report run_options_all(const po::variables_map& vm, const ar::options_data& data) {
  const bool include_unknown = flag_option(vm, "include-unknown");
  const ar::set_order order =
      vm.count("sort") ? ar::parse_set_order(string_option(vm, "sort"), "sort") : ar::set_order::net;
  const auto e = ar::enumerate_option_sets(data, include_unknown, order);
  report r;
  r.document = ar_document("options", vm);
  json& doc = r.document;
  doc["counts"] = json{{"legal", e.legal_count},
                       {"illegal", e.illegal_count},
                       {"unknown", e.unknown_count},
                       {"total", e.legal_count + e.illegal_count + e.unknown_count}};
  json rows = json::array();
  for (const auto& a : e.legal) rows.push_back(set_row(data, a, false));
  doc["legal_sets"] = rows;
  if (include_unknown) {
    json unknown = json::array();
    for (const auto& a : e.unknown) unknown.push_back(set_row(data, a, true));
    doc["unknown_sets"] = unknown;
  }
  json incompatible = json::array();
  for (char a = 'A'; a <= 'L'; ++a)
    for (char b = static_cast<char>(a + 1); b <= 'L'; ++b)
      if (const auto& p = data.pair(a, b); p.status == ar::compatibility::incompatible)
        incompatible.push_back(json{{"pair", std::string{a, '-', b}}, {"sources", ar::sources_text(p)}});
  doc["incompatible_pairs"] = incompatible;
  doc["exact"] = json::object();
  json notes = json::array(
      {adjustment_header,
       "every subset of A-L (the empty set, the historical game, included); legal = |net| <= 21 and every pair known "
       "compatible; illegal = beyond the cap or a known incompatible pair; unknown = otherwise (a pair not transcribed "
       "or with conflicting sources)",
       "every set with an incompatible pair (incompatible_pairs, each with its source) is illegal and not listed; "
       "goal is the historical 51 + net",
       "sorted by " + ar::to_string(order) + (order == ar::set_order::net ? " (then size)" : " (then net)") +
           ", then letters"});
  if (include_unknown)
    notes.push_back(
        "unknown_sets: each set whose legality no source settles, with the pairs that decide it (unknown: not "
        "transcribed; conflict: the sources disagree); each is legal exactly when those pairs are compatible");
  doc["notes"] = notes;
  r.title = include_unknown ? "American Revolution Variable Forces: every option set not known to be illegal"
                            : "American Revolution Variable Forces: every option set whose legality is known";
  r.verdict =
      fmt::format("{} legal, {} illegal, {} unknown of {}; a positive net helps the British (goal 51 + net)",
                  e.legal_count, e.illegal_count, e.unknown_count, e.legal_count + e.illegal_count + e.unknown_count);
  r.result_keys = {"counts", "legal_sets", "unknown_sets", "incompatible_pairs"};
  return r;
}

std::string turn_changes_text(const std::vector<ar::scheduled_change>& changes) {
  std::string out;
  for (const auto& c : changes)
    out += (out.empty() ? "" : " ") + (c.points ? signed_text(*c.points) : std::string("?")) + " (" +
           std::string(1, c.option) + ")";
  return out.empty() ? "-" : out;
}

report run_options_compare(const po::variables_map& vm, const ar::options_data& data) {
  const auto sets = vm["compare"].as<std::vector<std::string>>();
  if (sets.size() != 2)
    throw invalid_input("compare",
                        "takes two option sets, e.g. --compare A,E F (" + std::to_string(sets.size()) + " given)");
  const auto first = ar::parse_option_letters(sets[0], "compare");
  const auto second = ar::parse_option_letters(sets[1], "compare");
  const auto c = ar::compare_option_sets(data, first, second);
  report r;
  r.document = ar_document("options", vm);
  json& doc = r.document;
  const std::string a = letters_text(c.first.letters), b = letters_text(c.second.letters);
  auto rule_text = [&](const std::vector<char>& letters, auto part) {
    std::string out;
    for (char l : letters)
      if (const std::string t = part(data.option(l)); !t.empty())
        out += (out.empty() ? "" : "; ") + std::string(1, l) + ": " + t;
    return out.empty() ? std::string("-") : out;
  };
  auto side = [&](const std::string& item, const std::string& x, const std::string& y) {
    return json{{"item", item}, {"first", x}, {"second", y}};
  };
  auto net_alternative = [](const ar::option_set_analysis& s) {
    return s.net_alternative ? signed_text(*s.net_alternative) + " (B as -13)" : std::string("-");
  };
  auto forces = [](const ar::option_info& o) { return o.summary.forces; };
  auto rules = [](const ar::option_info& o) { return o.summary.rules; };
  auto other_reinforcements = [](const ar::option_info& o) {
    return o.kind == "table" ? std::string() : o.summary.reinforcements;
  };
  json rows = json::array();
  rows.push_back(side("options", a, b));
  rows.push_back(side("names", names_text(data, c.first.letters), names_text(data, c.second.letters)));
  rows.push_back(side("net adjustment", signed_text(c.first.net), signed_text(c.second.net)));
  rows.push_back(side("net adjustment alternative", net_alternative(c.first), net_alternative(c.second)));
  rows.push_back(side("helps", ar::favoured_side(c.first.net), ar::favoured_side(c.second.net)));
  rows.push_back(side("legality", ar::to_string(c.first.status), ar::to_string(c.second.status)));
  rows.push_back(side("reasons", reasons_text(c.first), reasons_text(c.second)));
  rows.push_back(side("forces", rule_text(c.first.letters, forces), rule_text(c.second.letters, forces)));
  rows.push_back(side("reinforcement rules", rule_text(c.first.letters, other_reinforcements),
                      rule_text(c.second.letters, other_reinforcements)));
  rows.push_back(side("rules", rule_text(c.first.letters, rules), rule_text(c.second.letters, rules)));
  doc["side_by_side"] = rows;
  json goals = json::array();
  for (std::size_t i = 0; i < c.first.goals.size(); ++i) {
    const auto &x = c.first.goals[i], &y = c.second.goals[i];
    goals.push_back(json{{"period", x.period},
                         {"base", x.base},
                         {"first_goal", x.goal},
                         {"second_goal", y.goal},
                         {"first_after_two_major_successes", x.after_two_major_successes},
                         {"second_after_two_major_successes", y.after_two_major_successes}});
  }
  doc["goals"] = goals;
  json turns = json::array();
  auto points = [](const std::optional<int>& n) { return n ? json(*n) : json(nullptr); };
  for (const auto& t : c.turns)
    turns.push_back(json{{"turn", (t.season.empty() ? std::string("?") : t.season) + " " + std::to_string(t.year)},
                         {"first", turn_changes_text(t.first)},
                         {"second", turn_changes_text(t.second)},
                         {"first_points", points(t.first_total)},
                         {"second_points", points(t.second_total)},
                         {"second_minus_first",
                          t.first_total && t.second_total ? json(*t.second_total - *t.first_total) : json(nullptr)}});
  doc["reinforcement_changes"] = turns;
  doc["exact"] = json::object();
  json notes = common_option_notes();
  notes.insert(notes.begin(), adjustment_header);
  notes.push_back(
      "reinforcement_changes: every turn either set's printed tables change, with each change and its option; "
      "null (unknown) where our transcript cuts a row off; options without a table are under side_by_side");
  doc["notes"] = notes;
  r.title = "American Revolution Variable Forces: " + a + " compared with " + b;
  r.verdict = fmt::format("{}: {}, net {:+d}, British goal {}; {}: {}, net {:+d}, British goal {}", a,
                          ar::to_string(c.first.status), c.first.net, c.first.goals[0].goal, b,
                          ar::to_string(c.second.status), c.second.net, c.second.goals[0].goal);
  r.result_keys = {"side_by_side", "goals", "reinforcement_changes"};
  return r;
}

report run_options_battle(const po::variables_map& vm) {
  const ar::battle_setup s = read_battle(vm);
  const ar::crt_table table = read_crt(vm);
  const auto variants = ar::option_battle_variants(table, s);
  report r;
  r.document = ar_document("options", vm);
  json& doc = r.document;
  json rows = json::array(), exact_rows = json::array();
  for (const auto& v : variants) {
    json row{{"option", v.option},
             {"attacker", ar::to_string(v.setup.attacker.points)},
             {"defender", ar::to_string(v.setup.defender.points)}};
    json ex{{"option", v.option}};
    if (v.result) {
      const auto& res = *v.result;
      const auto ms = res.major_success();
      row["column"] = ar::column_name(res.o.column);
      for (auto c : ar::all_crt_results) row[ar::key(c)] = to_double(res.probability(c));
      row["unknown"] = to_double(res.unknown());
      row["major_success_min"] = to_double(ms.min);
      row["major_success_max"] = to_double(ms.max);
      json results = json::object();
      for (auto c : ar::all_crt_results) results[ar::key(c)] = to_fraction_string(res.probability(c));
      results["unknown"] = to_fraction_string(res.unknown());
      ex["results"] = results;
      ex["major_success"] = bounds_exact(ms);
    } else {
      // Not fought: "-" in every figure (a blank, not an unknown), and the reason in `change`.
      row["column"] = "not allowed";
      for (const char* k : {"De", "HalfDe", "HalfEx", "unknown", "major_success_min", "major_success_max"})
        row[k] = "-";
      ex["why_not"] = v.why_not;
    }
    row["change"] = v.result ? v.change : v.change + ": " + v.why_not;
    rows.push_back(row);
    exact_rows.push_back(ex);
  }
  doc["variants"] = rows;
  doc["exact"] = json{{"variants", exact_rows}};
  doc["notes"] = json::array(
      {"G cuts Militia and Tory allowances by a third, rounded up; it is applied here to the Militia and Tories in the "
       "battle as if each were a full Regional allowance (Option G)",
       "E raises the French Permanent total 12 -> 18 and Seasonal 6 -> 10; the battle's French points are scaled by "
       "the "
       "same ratio, rounded down (our assumption: the rules give totals only)",
       "K eliminates the French Permanent Reinforcements; options that change no strength here are not listed",
       "major_success_min and _max differ only where the CRT entry is unknown"});
  r.title = fmt::format("American Revolution battle under Variable Forces options: {} v {}",
                        ar::to_string(s.attacker.points), ar::to_string(s.defender.points));
  r.verdict =
      fmt::format("{} variant(s): the battle as given and under each option that changes its strengths", rows.size());
  r.result_keys = {"variants"};
  return r;
}

report run_options(const po::variables_map& vm) {
  std::vector<std::string> modes;
  if (vm.count("use")) modes.push_back("use");
  if (flag_option(vm, "all")) modes.push_back("all");
  if (vm.count("compare")) modes.push_back("compare");
  if (flag_option(vm, "battle")) modes.push_back("battle");
  if (modes.size() > 1)
    throw invalid_input(modes[1], "--" + modes[0] + " and --" + modes[1] +
                                      " are two modes; give at most one of --use LETTERS, --all, --compare SET SET, "
                                      "--battle (none: the list of options)");
  if (vm.count("sort") && !flag_option(vm, "all")) throw invalid_input("sort", "orders the --all list; give --all");
  if (flag_option(vm, "include-unknown") && !flag_option(vm, "all"))
    throw invalid_input("include-unknown", "adds to the --all list; give --all");
  if (flag_option(vm, "battle")) {
    if (!vm.count("attacker")) throw invalid_input("attacker", "is required with --battle");
    if (!vm.count("defender")) throw invalid_input("defender", "is required with --battle");
    return run_options_battle(vm);
  }
  for (const char* battle_only : {"attacker", "defender", "crt"})
    if (vm.count(battle_only)) throw invalid_input(battle_only, "belongs to --battle; give --battle");
  const auto data = ar::load_options({data_file("options.json"), ""});
  report r = vm.count("use")          ? run_options_use(vm, data)
             : vm.count("compare")    ? run_options_compare(vm, data)
             : flag_option(vm, "all") ? run_options_all(vm, data)
                                      : run_options_list(vm, data);
  unused_default(r.document, "loss-policy");  // only a --battle fights
  return r;
}

}  // namespace

command revolution_options_command() {
  return {"options", "Variable Forces options: legality, net adjustment, goals, reinforcements",
          [](po::options_description& o) {
            o.add_options()("use", po::value<std::string>(),
                            "options to combine, e.g. \"D,H,B\", or \"none\" (the historical game)")(
                "all", "every option set whose legality is known, by net adjustment")(
                "sort", po::value<std::string>(), "net | size (the order of the --all list; default net)")(
                "include-unknown", "with --all, also the sets of unknown legality, with their deciding pairs")(
                "compare", po::value<std::vector<std::string>>()->multitoken(),
                "two option sets side by side, e.g. --compare A,E F")(
                "battle", "a battle under each option that changes its strengths");
            add_battle_options(o, false);
          },
          run_options,
          "with no mode: every option, its adjustment and what it changes. A positive adjustment helps "
          "the British and raises their goal.\nexamples: musket ar options ; musket ar options --use "
          "D,H,B ; musket ar options --all --sort size --include-unknown ; musket ar options "
          "--compare A,E F"};
}

}  // namespace musket::cli
