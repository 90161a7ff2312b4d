#include "cli/result_labels.hpp"

#include <cctype>
#include <cstddef>
#include <map>
#include <optional>
#include <string_view>

#include "core/invalid_input.hpp"

namespace musket::cli {

namespace {

// Keys whose words the general rule below would get wrong: the event, without "P(...)".
const std::map<std::string, std::string, std::less<>> key_words{
    {"end.completed_plan", "plan completed"},
    {"end.political_will_9_crown_victory", "Political Will 9, Crown victory"},
    {"summary.british_wins", "British win the game"},
    {"summary.american_wins", "Americans win the game"},
    {"summary.british_vp_ahead", "British ahead on VP"},
    {"summary.vp_tied", "VP tied"},
    {"summary.holds_out_all_turns", "holds out every turn"},
    {"summary.at_least_1_major_successes", "at least 1 Major Success"},
    {"summary.at_least_2_major_successes", "at least 2 Major Successes"},
    {"summary.at_least_3_major_successes", "at least 3 Major Successes"},
    {"summary.mean_american_vp", "mean American VP"},
    {"summary.mean_british_vp", "mean British VP"},
};

// Options whose words the general rule would get wrong.
const std::map<std::string, std::string, std::less<>> option_words{
    {"army-war", "War carried"}, {"army-food", "Food carried"},  {"track-position", "track position"},
    {"fort.sp", "garrison SP"},  {"fort.dice", "garrison dice"}, {"fort.morale", "garrison morale"},
};

// Words kept as the games print them.
const std::map<std::string, std::string, std::less<>> word_forms{{"american", "American"},
                                                                 {"americans", "Americans"},
                                                                 {"british", "British"},
                                                                 {"crown", "Crown"},
                                                                 {"patriot", "Patriot"},
                                                                 {"french", "French"},
                                                                 {"continental", "Continental"},
                                                                 {"continentals", "Continentals"},
                                                                 {"vp", "VP"},
                                                                 {"sp", "SP"},
                                                                 {"cap", "CAP"},
                                                                 {"crt", "CRT"},
                                                                 {"war", "War"},
                                                                 {"food", "Food"},
                                                                 {"us", "US"},
                                                                 {"att", "attacker"},
                                                                 {"def", "defender"},
                                                                 {"erie", "Erie"},
                                                                 {"ontario", "Ontario"}};

// Groupings that name no event of their own.
bool is_grouping(std::string_view segment) {
  return segment == "summary" || segment == "outcomes" || segment == "end" || segment == "ends";
}

bool is_whole_number(std::string_view s) {
  if (!s.empty() && s[0] == '-') s.remove_prefix(1);
  if (s.empty()) return false;
  for (char c : s)
    if (!std::isdigit(static_cast<unsigned char>(c))) return false;
  return true;
}

// "attacker_victory" -> "attacker victory"; "att-war" -> "attacker War".
std::string words_of(std::string_view name) {
  std::string out, word;
  auto flush = [&] {
    if (word.empty()) return;
    const auto it = word_forms.find(word);
    out += (out.empty() ? "" : " ") + (it == word_forms.end() ? word : it->second);
    word.clear();
  };
  for (char c : name) {
    if (c == '_' || c == '-' || c == ' ')
      flush();
    else
      word += c;
  }
  flush();
  return out;
}

std::string capitalised(std::string s) {
  if (!s.empty()) s[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(s[0])));
  return s;
}

std::vector<std::string> segments_of(const std::string& key) {
  std::vector<std::string> out;
  std::size_t start = 0;
  for (std::size_t dot = key.find('.'); dot != std::string::npos; dot = key.find('.', start)) {
    out.push_back(key.substr(start, dot - start));
    start = dot + 1;
  }
  out.push_back(key.substr(start));
  return out;
}

}  // namespace

namespace {

// A key's words without the P(...) or capital: "steps.4.taken" -> "step 4 taken".
std::string key_words_of(const std::string& key) {
  if (const auto it = key_words.find(key); it != key_words.end()) return it->second;
  std::string words;
  const auto segments = segments_of(key);
  for (std::size_t i = 0; i < segments.size(); ++i) {
    const std::string& s = segments[i];
    if (is_grouping(s)) continue;
    if (is_whole_number(s) && i + 1 == segments.size() && i > 0) {
      words += " = " + s;  // a distribution's value: "attacker_losses.2"
    } else if (is_whole_number(s)) {
      words += " " + s;  // a list's element: "steps.4.taken" -> "step 4 taken"
    } else {
      std::string w = words_of(s);
      // A list of records is named in the plural; its element in the singular.
      if (i + 1 < segments.size() && is_whole_number(segments[i + 1]) && i + 2 < segments.size() && w.size() > 1 &&
          w.back() == 's')
        w.pop_back();
      words += (words.empty() ? "" : " ") + w;
    }
  }
  return words;
}

// A distribution's statistic (cli/result_statistics.hpp): its path and what it says of it.
struct statistic_key {
  std::string path, stat, bound;  // bound: the K of at_least.K / at_most.K
};
std::optional<statistic_key> statistic_of(const std::string& key) {
  static const std::string prefix = "stats.";
  if (key.rfind(prefix, 0) != 0) return std::nullopt;
  const std::string rest = key.substr(prefix.size());
  const auto last = rest.rfind('.');
  if (last == std::string::npos || last == 0) return std::nullopt;
  const std::string tail = rest.substr(last + 1), head = rest.substr(0, last);
  if (const auto before = head.rfind('.'); before != std::string::npos) {
    const std::string stat = head.substr(before + 1);
    if (stat == "at_least" || stat == "at_most") return statistic_key{head.substr(0, before), stat, tail};
  }
  return statistic_key{head, tail, ""};
}

// "stats.defender_losses.at_least.2" -> "defender losses at least 2", "stats.x.mean" -> "mean x".
std::optional<std::string> statistic_words(const std::string& key) {
  const auto s = statistic_of(key);
  if (!s) return std::nullopt;
  const std::string of = key_words_of(s->path);
  if (!s->bound.empty()) return of + (s->stat == "at_least" ? " at least " : " at most ") + s->bound;
  static const std::map<std::string, std::string> names{{"mean", "mean"},
                                                        {"sd", "standard deviation of"},
                                                        {"median", "median"},
                                                        {"p05", "5th percentile of"},
                                                        {"p95", "95th percentile of"},
                                                        {"min", "fewest"},
                                                        {"max", "most"}};
  if (const auto it = names.find(s->stat); it != names.end()) return it->second + " " + of;
  return std::nullopt;
}

}  // namespace

std::string result_label(const std::string& key, bool probability) {
  // A range's ends (AR's blank CRT cells): the event's label and which end.
  for (const std::string_view end : {"_min", "_max"})
    if (key.size() > end.size() && key.compare(key.size() - end.size(), end.size(), end) == 0)
      return result_label(key.substr(0, key.size() - end.size()), probability) +
             (end == "_min" ? ", lowest" : ", highest");
  const std::string words = statistic_words(key).value_or(key_words_of(key));
  if (probability && !names_a_number(key)) return "P(" + words + ")";
  return capitalised(words);
}

std::string null_meaning(const std::string& key) {
  const auto dot = key.rfind('.');
  const std::string_view last =
      dot == std::string::npos ? std::string_view(key) : std::string_view(key).substr(dot + 1);
  if (last == "garrison_eliminated") return "no fort";
  if (last == "reroll") return "keep it";  // GL advice: the leader's reroll kept (GL 11.26)
  return "";
}

bool names_a_number(const std::string& key) {
  // A distribution's statistic other than at_least/at_most is a number of its values.
  if (const auto s = statistic_of(key); s && s->bound.empty()) return true;
  const std::string last = segments_of(key).back();
  for (const char* word : {"expected", "mean", "sd", "value", "gain"})
    if (last.rfind(word, 0) == 0) return true;
  return last == "win_value";
}

std::string option_label(const std::string& name) {
  if (const auto it = option_words.find(name); it != option_words.end()) return capitalised(it->second);
  return capitalised(words_of(name));
}

std::map<std::string, std::string> parse_label_overrides(const std::vector<std::string>& texts,
                                                         const std::string& field) {
  std::map<std::string, std::string> out;
  for (const auto& text : texts) {
    const auto eq = text.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == text.size())
      throw invalid_input(field, "'" + text + "' is not KEY=TEXT (a result key or a varied option, then its label)");
    if (!out.emplace(text.substr(0, eq), text.substr(eq + 1)).second)
      throw invalid_input(field, "'" + text.substr(0, eq) + "' is labelled twice; give one --" + field + " per key");
  }
  return out;
}

}  // namespace musket::cli
