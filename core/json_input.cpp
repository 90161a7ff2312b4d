#include "core/json_input.hpp"

#include <cmath>
#include <limits>
#include <set>
#include <vector>

#include "core/input_file.hpp"
#include "core/invalid_input.hpp"

namespace musket {

namespace {

using json = nlohmann::json;

// A SAX pass that builds nothing: it follows the path, refuses nesting past the limit and
// numbers no field can hold, and keeps the first problem with the path where it happened.
class checker : public nlohmann::json_sax<json> {
 public:
  std::string problem;
  std::string problem_path;

  bool null() override { return element(); }
  bool boolean(bool) override { return element(); }
  bool number_integer(number_integer_t) override { return element(); }
  bool number_unsigned(number_unsigned_t value) override {
    element();
    if (value > static_cast<number_unsigned_t>(std::numeric_limits<long long>::max()))
      return fail("the integer " + std::to_string(value) + " is out of range for any field");
    return true;
  }
  bool number_float(number_float_t value, const string_t& literal) override {
    element();
    if (literal.find_first_of(".eE") == std::string::npos)
      return fail("the integer " + literal.substr(0, 40) + (literal.size() > 40 ? "..." : "") +
                  " is out of range for any field");
    if (!std::isfinite(value)) return fail("the number " + literal.substr(0, 40) + " is out of range");
    return true;
  }
  bool string(string_t&) override { return element(); }
  bool binary(binary_t&) override { return element(); }
  bool start_object(std::size_t) override { return open(false); }
  bool key(string_t& name) override {
    frames_.back().key = name;
    // nlohmann keeps the last of a repeated key; the file would say two things and mean one.
    if (!frames_.back().keys.insert(name).second)
      return fail("the key '" + name + "' appears twice in one object; give each key once");
    return true;
  }
  bool end_object() override { return close(); }
  bool start_array(std::size_t) override { return open(true); }
  bool end_array() override { return close(); }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception& e) override {
    if (!frames_.empty() && frames_.back().array) ++frames_.back().count;  // the element being read
    if (e.id == 406)
      return fail("a number is out of range (" + std::string(e.what()).substr(std::string(e.what()).find(']') + 2) +
                  ")");
    problem_path = path();
    problem = std::string("not valid JSON: ") + e.what();
    return false;
  }

 private:
  struct frame {
    bool array = false;
    std::size_t count = 0;       // elements begun (arrays)
    std::string key;             // the current key (objects)
    std::set<std::string> keys;  // the keys seen so far (objects)
  };
  std::vector<frame> frames_;

  bool element() {
    if (!frames_.empty() && frames_.back().array) ++frames_.back().count;
    return true;
  }
  bool open(bool array) {
    element();
    if (frames_.size() >= static_cast<std::size_t>(json_depth_limit))
      return fail("nested deeper than " + std::to_string(json_depth_limit) + " levels");
    frames_.push_back({array, 0, {}, {}});
    return true;
  }
  bool close() {
    frames_.pop_back();
    return true;
  }
  std::string path() const {
    std::string p;
    for (const auto& f : frames_) p = f.array ? (f.count ? pointer_child(p, f.count - 1) : p) : pointer_child(p, f.key);
    return p.empty() ? "/" : p;
  }
  bool fail(const std::string& message) {
    if (problem.empty()) {
      problem = message;
      problem_path = path();
    }
    return false;
  }
};

}  // namespace

json parse_json_text(const std::string& text, const std::string& source) {
  checker check;
  json::sax_parse(text, &check);
  if (!check.problem.empty()) throw invalid_input(source + ": " + check.problem_path, check.problem);
  try {
    return json::parse(text);
  } catch (const json::exception& e) {  // not reached after the check; kept so no input escapes as one
    throw invalid_input(source, std::string("not valid JSON: ") + e.what());
  }
}

namespace {
thread_local json_file_cache* active_json_cache = nullptr;
}  // namespace

json_file_cache::json_file_cache() : previous_(active_json_cache) {
  active_json_cache = this;
}
json_file_cache::~json_file_cache() {
  active_json_cache = previous_;
}

json read_json_input(const std::string& path, const std::string& field) {
  json_file_cache* cache = active_json_cache;
  if (cache)
    if (const auto it = cache->documents_.find(path); it != cache->documents_.end()) return it->second;
  json doc = parse_json_text(read_input_file(path, field), path);
  if (cache) cache->documents_.emplace(path, doc);
  return doc;
}

std::string describe_json(const json& value) {
  if (value.is_object()) return "an object";
  if (value.is_array()) return "an array";
  std::string text = value.dump(-1, ' ', false, json::error_handler_t::replace);
  if (text.size() > 40) text = text.substr(0, 37) + "...";
  return text;
}

long long json_integer(const json& value, const std::string& where, long long lowest, long long highest) {
  long long v = 0;
  if (value.is_number_unsigned()) {
    const auto u = value.get<std::uint64_t>();
    if (u > static_cast<std::uint64_t>(highest < 0 ? 0 : highest))
      throw invalid_input(where, std::to_string(u) + " is out of range; allowed " + std::to_string(lowest) + ".." +
                                     std::to_string(highest));
    v = static_cast<long long>(u);
  } else if (value.is_number_integer()) {
    v = value.get<long long>();
  } else {
    throw invalid_input(where, "expected a whole number, got " + describe_json(value));
  }
  require_in_range(where, v, lowest, highest);
  return v;
}

double json_number(const json& value, const std::string& where, double lowest, double highest) {
  if (!value.is_number()) throw invalid_input(where, "expected a number, got " + describe_json(value));
  const double v = value.get<double>();
  if (!(v >= lowest && v <= highest))
    throw invalid_input(
        where, describe_json(value) + " is out of range; allowed " + json(lowest).dump() + ".." + json(highest).dump());
  return v;
}

bool json_boolean(const json& value, const std::string& where) {
  if (!value.is_boolean()) throw invalid_input(where, "expected true or false, got " + describe_json(value));
  return value.get<bool>();
}

std::string json_string(const json& value, const std::string& where) {
  if (!value.is_string()) throw invalid_input(where, "expected a string, got " + describe_json(value));
  return value.get<std::string>();
}

std::string pointer_child(const std::string& pointer, const std::string& key) {
  std::string escaped;
  for (char c : key) {
    if (c == '~')
      escaped += "~0";
    else if (c == '/')
      escaped += "~1";
    else
      escaped += c;
  }
  return (pointer == "/" ? "" : pointer) + "/" + escaped;
}

std::string pointer_child(const std::string& pointer, std::size_t index) {
  return (pointer == "/" ? "" : pointer) + "/" + std::to_string(index);
}

}  // namespace musket
