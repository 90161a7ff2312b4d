#include "tests/fuzz/targets.hpp"

#include <expat.h>

#include <stdexcept>
#include <string>

#include "calc/campaign/great_lakes_campaign.hpp"
#include "calc/campaign/revolution_campaign.hpp"
#include "calc/campaign/supply_lines_campaign.hpp"
#include "calc/great_lakes/game_data.hpp"
#include "calc/great_lakes/scenario.hpp"
#include "calc/revolution/attrition.hpp"
#include "calc/revolution/crt.hpp"
#include "calc/revolution/forces.hpp"
#include "calc/revolution/levy.hpp"
#include "calc/revolution/options.hpp"
#include "cli/chart.hpp"
#include "cli/command.hpp"
#include "cli/sweep_axes.hpp"
#include "cli/sweep_chart.hpp"
#include "core/invalid_input.hpp"
#include "core/json_input.hpp"
#include "core/whole_range.hpp"

namespace musket::fuzz {

namespace {

template <class F>
int handled(F&& f) {
  try {
    f();
  } catch (const invalid_input&) {
  }
  return 0;
}

}  // namespace

int json_input(std::string_view bytes) {
  return handled([&] { parse_json_text(std::string(bytes), "fuzz.json"); });
}

int gl_scenario(std::string_view bytes) {
  static const great_lakes::game_data data = great_lakes::load_game_data(std::string(MUSKET_DATA_DIR) + "/gl");
  return handled([&] {
    const auto battle =
        great_lakes::parse_scenario(parse_json_text(std::string(bytes), "fuzz.json"), "fuzz.json", data);
    great_lakes::parse_scenario(nlohmann::json::parse(great_lakes::to_json(battle).dump()), "echo", data);
  });
}

int campaign_plan(std::string_view bytes) {
  static const great_lakes::game_data data = great_lakes::load_game_data(std::string(MUSKET_DATA_DIR) + "/gl");
  static const revolution::options_data ar_options =
      revolution::load_options({std::string(MUSKET_DATA_DIR) + "/ar/options.json", ""});
  int parsed = 0;
  for (int which = 0; which < 4; ++which)
    handled([&] {
      const nlohmann::json plan = parse_json_text(std::string(bytes), "fuzz.json");
      if (which == 0) campaign::parse_supply_lines_plan(plan, "fuzz.json", "nt");
      if (which == 1) campaign::parse_supply_lines_plan(plan, "fuzz.json", "ss");
      if (which == 2) campaign::parse_revolution_plan(plan, "fuzz.json", ar_options);
      if (which == 3) campaign::parse_great_lakes_plan(plan, "fuzz.json", data);
      ++parsed;
    });
  return parsed >= 0 ? 0 : 1;
}

int ar_data(std::string_view bytes) {
  handled([&] { revolution::parse_crt(parse_json_text(std::string(bytes), "fuzz.json"), {"fuzz.json", "crt"}); });
  return handled([&] {
    revolution::parse_levy_chart(parse_json_text(std::string(bytes), "fuzz.json"), {"fuzz.json", "chart"});
  });
}

int spec_strings(std::string_view bytes) {
  if (bytes.empty()) return 0;
  const std::string text(bytes.substr(1));
  switch (static_cast<unsigned char>(bytes[0]) % 8) {
    case 0:
      return handled([&] { great_lakes::parse_unit_spec(text, "att"); });
    case 1:
      return handled([&] { great_lakes::parse_retreat(text, "retreat"); });
    case 2:
      return handled([&] { revolution::parse_force(text, "attacker"); });
    case 3:
      return handled([&] { revolution::parse_loss_policy(text, "losses"); });
    case 4:
      return handled([&] { parse_whole_range(text, "vary", 1000); });
    case 5:
      return handled([&] { revolution::parse_option_letters(text, "use"); });
    case 6:
      return handled([&] { revolution::parse_loss_fraction(text, "loss"); });
    default:
      return handled([&] { revolution::parse_faces(text, "faces"); });
  }
}

// "G\nBASE\nVARY": a --vary text against `gl battle` (G even) or `ar battle` (G odd), every value
// applied to BASE as the text of the option it edits.
int sweep_vary(std::string_view bytes) {
  static const cli::command_registry registry = [] {
    cli::command_registry r;
    cli::register_all_commands(r);
    return r;
  }();
  if (bytes.empty()) return 0;
  const std::string code = static_cast<unsigned char>(bytes[0]) % 2 ? "ar" : "gl";
  std::string rest(bytes.substr(1));
  if (!rest.empty() && rest[0] == '\n') rest.erase(0, 1);
  const auto newline = rest.find('\n');
  const std::string base = newline == std::string::npos ? "" : rest.substr(0, newline);
  const std::string vary = newline == std::string::npos ? rest : rest.substr(newline + 1);
  const cli::game_entry& game = *registry.find_game(code);
  const cli::command& battle = *registry.find_command(code, "battle");
  const auto options = cli::command_options(game, battle);
  std::vector<const cli::option_field*> fields;
  for (const auto& f : game.sweep_fields)
    if (f.command == "battle") fields.push_back(&f);
  return handled([&] {
    const cli::axis a = cli::parse_vary(vary, options, fields);
    cli::option_texts fixed;
    if (a.how == cli::axis::kind::field) fixed[a.option] = std::vector<std::string>(a.index + 1, base);
    cli::check_axis_against(a, fixed);
    for (const auto& v : a.values) {
      cli::option_texts point = fixed;
      cli::apply_axis(a, v, point);
    }
  });
}

// Whether `text` is well-formed XML, by expat (the XML parser fontconfig, and so Pango, uses).
bool well_formed_xml(const std::string& text) {
  XML_Parser parser = XML_ParserCreate("UTF-8");
  const bool ok = XML_Parse(parser, text.data(), static_cast<int>(text.size()), 1) == XML_STATUS_OK;
  XML_ParserFree(parser);
  return ok;
}

// "FLAGS\nTITLE\nLABEL\nNAME\nCATEGORY\nSUBTITLE": TITLE and LABEL as --title and --label
// (checked; a refusal is invalid_input), NAME, CATEGORY and SUBTITLE unchecked, as a series name,
// an x category and a subtitle may come from a plan or an option's text. The chart (a line chart
// or, FLAGS odd, a heat map) must be written, and its SVG must be well-formed XML.
int chart_text(std::string_view bytes) {
  std::vector<std::string> parts;
  for (std::size_t start = 0;;) {
    const auto end = bytes.find('\n', start);
    parts.emplace_back(bytes.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start));
    if (end == std::string_view::npos) break;
    start = end + 1;
  }
  parts.resize(std::max<std::size_t>(parts.size(), 6));
  const bool heat = !parts[0].empty() && static_cast<unsigned char>(parts[0][0]) % 2;
  return handled([&] {
    const cli::chart_words words = cli::parse_chart_words({"war=" + parts[2]}, parts[1]);
    const std::string label = words.labels.at("war");
    cli::chart::chart c;
    if (heat) {
      cli::chart::heat_map h;
      h.title = *words.title;
      h.subtitle = parts[5];
      h.x_label = label;
      h.y_label = parts[3];
      h.value_label = parts[3] + parts[4];
      h.xs = {parts[4], 2.0};
      h.ys = {parts[3]};
      h.cells = {{0.25}, {std::nullopt}};
      c = h;
    } else {
      cli::chart::line_chart l;
      l.title = *words.title;
      l.subtitle = parts[5];
      l.x_label = label;
      l.y_label = parts[4];
      l.lines = {cli::chart::series{
          parts[3],
          {cli::chart::point{parts[4], 0.5, 0.4, 0.6}, cli::chart::point{1.0, 0.25, std::nullopt, std::nullopt}}}};
      c = l;
    }
    const std::string svg = cli::chart::write_chart(c, cli::chart::format::svg);
    if (!well_formed_xml(svg)) throw std::logic_error("the chart's SVG is not well-formed XML");
  });
}

const std::vector<target>& all_targets() {
  static const std::vector<target> targets{{"json_input", json_input},       {"gl_scenario", gl_scenario},
                                           {"campaign_plan", campaign_plan}, {"ar_data", ar_data},
                                           {"spec_strings", spec_strings},   {"sweep_vary", sweep_vary},
                                           {"chart_text", chart_text}};
  return targets;
}

}  // namespace musket::fuzz
