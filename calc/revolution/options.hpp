#pragma once
// The Variable Forces Options A-L (Variable Forces Options; Victory Point Adjustment Summary;
// Option Compatibility Chart; errata Victory Conditions), as data/ar/options.json gives them.
// The chart is transcribed only for row A and the start of row B; the transcription note under
// it gives K with C, D and E (incompatible; RULINGS.md); every other pair is unknown unless the
// text itself says otherwise, and an unknown pair never makes a set legal.
#include <array>
#include <optional>
#include <string>
#include <vector>

#include "calc/revolution/combat.hpp"
#include "calc/revolution/data.hpp"

namespace musket::revolution {

inline constexpr int option_count = 12;  // A..L

enum class compatibility { compatible, incompatible, unknown, conflict };
std::string to_string(compatibility c);

struct compatibility_claim {
  compatibility says = compatibility::unknown;  // compatible or incompatible
  std::string source;
};
struct pair_entry {
  compatibility status = compatibility::unknown;
  std::vector<compatibility_claim> claims;
};

struct reinforcement_change {
  int year = 0;               // 1775..1783
  std::string season;         // "Winter", "Spring", "Summer", "Fall"; empty if unknown
  std::optional<int> points;  // nullopt: unknown (the row is cut off in our transcript)
  std::string source;
};

// What an option changes, in words (data/ar/options.json "changes"); empty = no change of that kind.
struct option_summary {
  std::string forces;          // the forces in play
  std::string reinforcements;  // for kind "table" empty: the printed table says it by season
  std::string rules;           // the rules of play
  std::string source;
};

struct option_info {
  char letter = 'A';
  std::string name;
  int adjustment = 0;                         // as printed in the option's heading
  std::optional<int> conflicting_adjustment;  // another printed figure (B: -13 in the example)
  std::string adjustment_note;
  std::string kind;  // "table" (A, B, D, J), "schedule_rule" (C, K), "rule_change" (E, G, H, I, L, F)
  std::string rule;  // the change in words
  std::vector<reinforcement_change> changes;  // the printed table, for kind "table"
  option_summary summary;
  std::string source;
};

// The reinforcements an option changes, by season: its printed table ("Fall 1776 +4; Winter 1777
// +4; ..."; "?" where our transcript is cut off), else the summary's words, else "".
std::string reinforcements_text(const option_info& o);
// The side an adjustment helps: a positive one raises the British goal because the option helps
// the British (Variable Forces Options); "British", "American", or "neither" for 0.
std::string favoured_side(int adjustment);

struct period_goal {
  std::string period;  // "1775-1776"
  int first_year = 1775, last_year = 1776;
  int goal = 0;
  std::string source;
};

// The calendar (Sequence of Play; RULINGS.md "American Revolution victory"): Game-Turn 1 is
// Spring 1775, each year runs Spring, Summer, Fall, Winter, and Winter 1783 is Game-Turn 36, the
// last. A Winter Game-Turn belongs to the year it is named for.
inline constexpr int last_game_turn = 36;
struct game_turn_date {
  int year = 1775;
  std::string season;  // "Spring", "Summer", "Fall", "Winter"
};
game_turn_date date_of_turn(int turn);  // turn 1..last_game_turn; throws invalid_input("turn") otherwise
std::string date_text(int turn);        // "Fall 1775"

struct options_data {
  std::array<option_info, option_count> options;
  std::array<std::array<pair_entry, option_count>, option_count> pairs;  // symmetric
  int historical_goal = 51;
  int cap = 21;
  std::vector<period_goal> period_goals;
  std::string path;

  const option_info& option(char letter) const { return options[static_cast<std::size_t>(letter - 'A')]; }
  const pair_entry& pair(char a, char b) const {
    return pairs[static_cast<std::size_t>(a - 'A')][static_cast<std::size_t>(b - 'A')];
  }
  // The Errata's goal for a year (Errata and Addenda, Victory Conditions): the period holding it.
  // The loader checks that the periods cover 1775..1783 once each.
  const period_goal& period_of_year(int year) const;
};

options_data load_options(const data_source& source);

// "incompatible: <source>; compatible: <source>" for a pair's claims, "not transcribed" if none.
std::string sources_text(const pair_entry& e);

// "D,H,B" -> {'B','D','H'}; "none" -> {} (the historical game). Throws invalid_input(field) for an
// unknown letter or a repeat.
std::vector<char> parse_option_letters(const std::string& text, const std::string& field);

enum class legality { legal, illegal, unknown };
std::string to_string(legality l);

struct pair_report {
  char a = 'A', b = 'B';
  const pair_entry* entry = nullptr;
};

struct goal_report {
  std::string period;  // "historical" or "1775-1776" ...
  int base = 51;
  int goal = 51;                       // base + net
  int after_two_major_successes = 25;  // floor(goal / 2)
};

struct option_set_analysis {
  std::vector<char> letters;
  std::vector<pair_report> deciding;   // the pairs that are not known compatible: why illegal or unknown
  int net = 0;                         // with each option's printed heading figure
  std::optional<int> net_alternative;  // with the conflicting figures (B as -13) where any apply
  legality status = legality::legal;
  std::vector<std::string> reasons;  // why illegal or unknown
  std::vector<pair_report> pairs;    // every pair in the set
  std::vector<goal_report> goals;    // historical first, then the errata's periods
};

option_set_analysis analyse_options(const options_data& data, const std::vector<char>& letters);

// How a list of sets is ordered: net adjustment (then size), or size (options in the set, then net);
// letters break ties.
enum class set_order { net, size };
set_order parse_set_order(const std::string& text, const std::string& field);  // "net" | "size"
std::string to_string(set_order o);

struct enumeration {
  std::vector<option_set_analysis> legal;    // every known-legal set (the empty set included)
  std::vector<option_set_analysis> unknown;  // filled only when asked for: legality unknown
  int legal_count = 0;
  int illegal_count = 0;
  int unknown_count = 0;
};
// All 4096 subsets of A-L, classified; the lists in `order`.
enumeration enumerate_option_sets(const options_data& data, bool include_unknown = false,
                                  set_order order = set_order::net);

// Option G: an allowance less a third of it, the loss rounded up (New York 5 -> 3).
int less_efficient_allowance(int allowance);

// What the options that say how forces change do to a force present in a combat (one rule, used by
// `options --battle` and by a campaign's attacks alike):
void apply_less_efficient_militia(force& f);   // G: Militia and Tories a third smaller, loss rounded up
void apply_increased_french_effort(force& f);  // E: French Permanent x18/12, Seasonal x10/6, rounded down
void apply_invasion_threat(force& f);          // K: the French Permanent Reinforcements eliminated

// --battle: the battle as given and under each option that changes its strengths.
struct battle_variant {
  std::string option;  // "none", "E", "G", "K"
  std::string change;  // what the option did to this battle
  battle_setup setup;
  std::optional<battle_result> result;  // nullopt when the variant cannot be fought
  std::string why_not;
};
// G: Militia and Tories lose a third, rounded up (New York 5 -> 3); E: French Permanent x18/12,
// Seasonal x10/6, rounded down; K: French Permanent eliminated. Throws invalid_input when the
// battle as given breaks the American Fort limits (case F); a variant that breaks them (E adding
// French to a Fort) is reported as not fought, with the reason.
std::vector<battle_variant> option_battle_variants(const crt_table& table, const battle_setup& setup);

}  // namespace musket::revolution
