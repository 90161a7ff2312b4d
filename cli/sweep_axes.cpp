#include "cli/sweep_axes.hpp"

#include <algorithm>
#include <cctype>

#include "core/invalid_input.hpp"
#include "core/whole_range.hpp"

namespace musket::cli {

namespace {

const char* vary_shape = "NAME=A..B[:STEP] (numbers) or NAME=V1,V2,... (a list)";

std::string lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return std::tolower(c); });
  return text;
}

std::vector<std::string> split_all(const std::string& text, char separator) {
  std::vector<std::string> parts;
  for (std::size_t start = 0;;) {
    const auto at = text.find(separator, start);
    parts.push_back(text.substr(start, at == std::string::npos ? std::string::npos : at - start));
    if (at == std::string::npos) return parts;
    start = at + 1;
  }
}

// "def.0.sp" against "def.#.sp": the index in `index`.
bool matches_field(const std::string& name, const std::string& pattern, std::size_t& index) {
  const auto hash = pattern.find('#');
  if (hash == std::string::npos) {
    index = 0;
    return name == pattern;
  }
  const std::string before = pattern.substr(0, hash), after = pattern.substr(hash + 1);
  if (name.size() <= before.size() + after.size() || name.compare(0, before.size(), before) != 0 ||
      name.compare(name.size() - after.size(), after.size(), after) != 0)
    return false;
  const std::string digits = name.substr(before.size(), name.size() - before.size() - after.size());
  if (digits.empty() || digits.size() > 3 || !std::all_of(digits.begin(), digits.end(), ::isdigit)) return false;
  index = static_cast<std::size_t>(std::stoi(digits));
  return true;
}

std::string field_names(const std::vector<const option_field*>& fields) {
  std::string names;
  for (const auto* f : fields) {
    std::string shown = f->axis;
    if (const auto hash = shown.find('#'); hash != std::string::npos) shown.replace(hash, 1, "N");
    names += (names.empty() ? "" : ", ") + shown;
  }
  return names;
}

}  // namespace

axis parse_vary(const std::string& text, const boost::program_options::options_description& target,
                const std::vector<const option_field*>& fields) {
  const auto eq = text.find('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 == text.size())
    throw invalid_input("vary", "'" + text + "' is not " + vary_shape);
  axis a;
  a.name = text.substr(0, eq);
  const std::string spec = text.substr(eq + 1);
  const bool range = spec.find("..") != std::string::npos;

  for (const auto* f : fields)
    if (matches_field(a.name, f->axis, a.index)) {
      a.how = axis::kind::field;
      a.field = f;
      a.option = f->option;
      if (!range)
        throw invalid_input("vary", "'" + a.name + "' is a whole number inside --" + f->option + "; give a range " +
                                        a.name + "=A..B[:STEP]");
      for (const int v : parse_whole_range(spec, "vary", max_axis_points)) a.values.emplace_back(v);
      return a;
    }

  const auto* option = target.find_nothrow(a.name, false);
  if (!option) {
    const std::string known = field_names(fields);
    throw invalid_input("vary", "'" + a.name + "' is not an option of this command" +
                                    (known.empty() ? std::string() : " nor one of its fields (" + known + ")") +
                                    "; allowed: an option's name, as --help lists them");
  }
  a.option = a.name;
  const bool is_switch = option->semantic()->max_tokens() == 0;
  if (range && spec.find(',') == std::string::npos) {
    if (is_switch) throw invalid_input("vary", "'" + a.name + "' is a switch; vary it as " + a.name + "=yes,no");
    for (const int v : parse_whole_range(spec, "vary", max_axis_points)) a.values.emplace_back(v);
    return a;
  }

  // A list of words.
  const auto items = split_all(spec, ',');
  if (static_cast<long long>(items.size()) > max_axis_points)
    throw invalid_input("vary", "'" + a.name + "' lists " + std::to_string(items.size()) + " values; at most " +
                                    std::to_string(max_axis_points));
  a.how = is_switch ? axis::kind::switch_on_off : axis::kind::option_value;
  const auto choices = option_choices(*option);
  a.none_leaves_out =
      !is_switch && std::find(choices.begin(), choices.end(), "none") == choices.end() && !takes_none(*option);
  for (const auto& item : items) {
    if (item.empty()) throw invalid_input("vary", "'" + text + "' has an empty value; " + vary_shape);
    std::string value = item;
    if (is_switch) {
      value = lower(item);
      if (value != "yes" && value != "no")
        throw invalid_input("vary", "'" + item + "': the switch --" + a.name + " takes yes or no");
    } else if (!(a.none_leaves_out && lower(item) == "none")) {
      std::replace(value.begin(), value.end(), '+', ',');
      if (!choices.empty()) {
        const auto it = std::find(choices.begin(), choices.end(), lower(value));
        if (it == choices.end()) {
          std::string allowed;
          for (const auto& c : choices) allowed += (allowed.empty() ? "" : ", ") + c;
          throw invalid_input("vary", "'" + item + "' is not a value of --" + a.name + "; allowed: " + allowed);
        }
        value = *it;  // enumerated values match whatever their case, as on the command line
      }
    } else {
      value = "none";
    }
    if (std::find(a.values.begin(), a.values.end(), json(value)) != a.values.end())
      throw invalid_input("vary", "'" + item + "' is listed twice for " + a.name);
    a.values.emplace_back(value);
  }
  return a;
}

void check_axis_against(const axis& a, const option_texts& fixed) {
  const auto it = fixed.find(a.option);
  if (a.how != axis::kind::field) {
    if (it != fixed.end()) throw invalid_input(a.option, "is both fixed and varied; drop one");
    return;
  }
  if (it == fixed.end() || it->second.empty())
    throw invalid_input("vary", "'" + a.name + "' edits --" + a.option + ", which is not given; give --" + a.option +
                                    " to start from (" + a.field->help + ")");
  if (a.index >= it->second.size())
    throw invalid_input("vary", "'" + a.name + "': --" + a.option + " is given " + std::to_string(it->second.size()) +
                                    " time(s), so its index is 0.." + std::to_string(it->second.size() - 1));
}

void apply_axis(const axis& a, const json& value, option_texts& options) {
  switch (a.how) {
    case axis::kind::field: {
      std::string& text = options.at(a.option).at(a.index);
      text = a.field->set(text, value.get<int>());
      return;
    }
    case axis::kind::switch_on_off:
      if (value == "yes")
        options[a.option] = {};
      else
        options.erase(a.option);
      return;
    case axis::kind::option_value:
      if (value.is_string() && a.none_leaves_out && value == "none")
        options.erase(a.option);
      else
        options[a.option] = {value.is_string() ? value.get<std::string>() : value.dump()};
      return;
  }
}

std::string axis_value_text(const json& value) {
  return value.is_string() ? value.get<std::string>() : value.dump();
}

std::string replace_part(const std::string& text, char separator, std::size_t position, const std::string& part) {
  auto parts = split_all(text, separator);
  if (position >= parts.size()) return text;
  parts[position] = part;
  std::string out;
  for (std::size_t i = 0; i < parts.size(); ++i) out += (i ? std::string(1, separator) : "") + parts[i];
  return out;
}

std::string part_of(const std::string& text, char separator, std::size_t position) {
  const auto parts = split_all(text, separator);
  return position < parts.size() ? parts[position] : std::string();
}

}  // namespace musket::cli
