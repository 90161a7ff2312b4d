#pragma once
// The `--vary` grammar of `musket <game> sweep`: which option of the swept command an axis sets
// or edits, and the values it takes. Nothing here runs a command (cli/sweep_command.cpp does).
//   NAME=A..B[:STEP]   whole numbers of an option (att-war=1..10) or of a structured option's
//                      field (fort.sp=1..4, def.0.sp=1..4, att-continentals=2..12)
//   NAME=V1,V2,...     words (terrain=point,city,fort); "+" stands for a comma inside a value
//                      (use=none,D,H,D+H); "none" leaves the option out unless it is one of its
//                      values or the option takes it (takes_none); a switch takes yes,no
#include <boost/program_options.hpp>
#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "cli/command.hpp"

namespace musket::cli {

// Sweep bounds: points on one axis and in the whole grid (each point runs a whole calculator).
inline constexpr long long max_axis_points = 1000;
inline constexpr long long max_grid_points = 10000;

struct axis {
  enum class kind { option_value, switch_on_off, field };
  std::string name;    // as written: "att-war", "terrain", "fort.sp", "def.0.sp"
  std::string option;  // the swept command's option it sets or edits
  kind how = kind::option_value;
  const option_field* field = nullptr;  // kind::field: the field it edits
  std::size_t index = 0;                // kind::field: which value of the option (def.0.sp: the first)
  bool none_leaves_out = false;         // a list value "none" leaves the option out
  std::vector<json> values;             // numbers for a range, strings for a list
};

// One --vary text against the swept command's options and structured fields. Throws
// invalid_input("vary", ...) naming what is wrong and what is allowed.
axis parse_vary(const std::string& text, const boost::program_options::options_description& target,
                const std::vector<const option_field*>& fields);

// The options a point passes to the swept command, by name: their values in the order given (a
// switch has none).
using option_texts = std::map<std::string, std::vector<std::string>>;

// Checks, before any point runs, that the options an axis edits were given: a field needs its
// option's text to start from, and a plain axis must not also be given as a fixed option.
void check_axis_against(const axis& a, const option_texts& fixed);

// Sets or edits the axis's option to `value` (one of a.values).
void apply_axis(const axis& a, const json& value, option_texts& options);

// "fort.sp=3", "terrain=city": an axis value as a note names it.
std::string axis_value_text(const json& value);

// The `position`-th part of `text` split at `separator` replaced by `part`; text with fewer parts
// is returned as it is (the command reports it). Used by the games' field editors.
std::string replace_part(const std::string& text, char separator, std::size_t position, const std::string& part);
// The `position`-th part, or "" when there are fewer.
std::string part_of(const std::string& text, char separator, std::size_t position);

}  // namespace musket::cli
