#include "tests/fuzz/targets.hpp"

#include <string>

#include "calc/campaign/great_lakes_campaign.hpp"
#include "calc/campaign/revolution_campaign.hpp"
#include "calc/campaign/supply_lines_campaign.hpp"
#include "calc/great_lakes/game_data.hpp"
#include "calc/great_lakes/scenario.hpp"
#include "calc/revolution/attrition.hpp"
#include "calc/revolution/crt.hpp"
#include "calc/revolution/forces.hpp"
#include "calc/revolution/options.hpp"
#include "cli/command.hpp"
#include "cli/sweep_axes.hpp"
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
  return handled([&] {
    revolution::parse_crt(parse_json_text(std::string(bytes), "fuzz.json"), {"fuzz.json", "crt"});
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

const std::vector<target>& all_targets() {
  static const std::vector<target> targets{{"json_input", json_input},       {"gl_scenario", gl_scenario},
                                           {"campaign_plan", campaign_plan}, {"ar_data", ar_data},
                                           {"spec_strings", spec_strings},   {"sweep_vary", sweep_vary}};
  return targets;
}

}  // namespace musket::fuzz
