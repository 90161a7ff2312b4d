#pragma once
// JSON input, read one way by every parser (scenarios, plans, data tables): the file is read with
// the size cap of core/input_file.hpp; nesting is checked without recursion before a document is
// built; numbers that no field can hold (1e400, a 30-digit integer, 2^64-1) are refused naming
// their JSON path; and values are taken out through checked accessors that refuse a wrong type or
// a value out of the field's range as invalid_input naming the path. Nothing here knows a game.
#include <map>
#include <nlohmann/json.hpp>
#include <string>

namespace musket {

// Objects and arrays nested deeper than this are refused.
inline constexpr int json_depth_limit = 64;

// `text` as JSON. `source` names it in errors (a file name); a problem is an invalid_input whose
// field is "SOURCE: /json/path". Integers must fit a signed 64-bit integer, other numbers a
// finite double; nesting at most json_depth_limit deep; an object gives each key once (a repeated
// key is refused, where the JSON library would keep the last silently).
nlohmann::json parse_json_text(const std::string& text, const std::string& source);

// The file at `path` (read_input_file: size cap; an unreadable path is environment_problem naming
// `field`), parsed by parse_json_text with the path as source.
// While a json_file_cache is in scope on this thread, each path is read and parsed once.
nlohmann::json read_json_input(const std::string& path, const std::string& field);

// A scope in which read_json_input keeps every document it parsed, by path, on this thread: a
// command run many times (a sweep's points) reads its plan, scenario and data files once, and a
// bad file is one error before the first point. Scopes nest; the innermost holds the documents.
class json_file_cache {
 public:
  json_file_cache();
  ~json_file_cache();
  json_file_cache(const json_file_cache&) = delete;
  json_file_cache& operator=(const json_file_cache&) = delete;

 private:
  friend nlohmann::json read_json_input(const std::string& path, const std::string& field);
  std::map<std::string, nlohmann::json> documents_;
  json_file_cache* previous_;
};

// A short description of a value for an error line: a scalar as JSON (cut at 40 characters), a
// container by its kind ("an object", "an array").
std::string describe_json(const nlohmann::json& value);

// --- checked accessors ---------------------------------------------------------------------------
// `where` is the field an error names ("FILE: /attacker/units/0/sp"). Each throws invalid_input
// on a type mismatch ("expected an integer, got "x"") or a value outside [lowest, highest].
long long json_integer(const nlohmann::json& value, const std::string& where, long long lowest, long long highest);
double json_number(const nlohmann::json& value, const std::string& where, double lowest, double highest);
bool json_boolean(const nlohmann::json& value, const std::string& where);
std::string json_string(const nlohmann::json& value, const std::string& where);

// A JSON pointer one step down: pointer_child("/a", "b") == "/a/b" (with ~ and / escaped).
std::string pointer_child(const std::string& pointer, const std::string& key);
std::string pointer_child(const std::string& pointer, std::size_t index);

}  // namespace musket
