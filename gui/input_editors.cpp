#include "gui/input_editors.hpp"

#include <fmt/format.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <cstdlib>

#include "calc/great_lakes/scenario.hpp"
#include "core/invalid_input.hpp"
#include "gui/charts.hpp"
#include "gui/layout_log.hpp"

namespace musket::gui {

namespace gl = musket::great_lakes;
namespace ar = musket::revolution;

namespace {

const ImVec4 editor_error_colour(1.0f, 0.35f, 0.35f, 1.0f);

// A unit's name may not hold the spec's separators.
int name_filter(ImGuiInputTextCallbackData* data) {
  return data->EventChar == ':' || data->EventChar == ';' ? 1 : 0;
}

// A whole-number spinner of `width` (its +/- buttons included). The command judges the value.
bool spinner(const char* id, int& value, float width) {
  ImGui::SetNextItemWidth(width);
  return ImGui::InputInt(id, &value, 1, 1);
}

// The option's text as typed (both views of one value): the editor above writes it, typing here
// is read back into the editor on the next frame.
void text_view(const input_spec& in, json& v) {
  std::string s = v.is_string() ? v.get<std::string>() : "";
  ImGui::SetNextItemWidth(-1);
  if (ImGui::InputText("##text", &s)) v = s;
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("--%s: %s", in.name.c_str(), in.help.c_str());
}

void units_table(structured_kind kind, const input_spec& in, json& v) {
  const bool reinforcements = kind == structured_kind::reinforcements;
  const bool crossing = !reinforcements && in.name == "att";  // only attackers cross (GL 11.13)
  std::vector<gl::reinforcement> units;
  try {
    units = read_units(v.is_string() ? v.get<std::string>() : "", in.name, reinforcements);
  } catch (const invalid_input& e) {
    // Text the table cannot show: the text field alone, with the calc's own complaint.
    ImGui::PushTextWrapPos(0);
    ImGui::TextColored(editor_error_colour, "%s", cli::input_error_line(e.field(), e.what()).c_str());
    ImGui::PopTextWrapPos();
    text_view(in, v);
    return;
  }
  bool changed = false;
  // Two lines a unit, so the table fits the inputs column: name over type, SP over max, morale over
  // dice, the crossing (or ":niagara") over the row's buttons (up, down, duplicate, remove).
  const ImGuiStyle& style = ImGui::GetStyle();
  const float number = ImGui::CalcTextSize("00").x + 2 * ImGui::GetFrameHeight() + 2 * style.FramePadding.x +
                       2 * style.ItemInnerSpacing.x;
  float widest_choice = 0;  // the longest crossing name (battle.hpp's table)
  for (const auto& [c, text] : gl::names_of_crossing)
    widest_choice = std::max(widest_choice, ImGui::CalcTextSize(text.data(), text.data() + text.size()).x);
  const float choice = widest_choice + ImGui::GetFrameHeight() + 2 * style.FramePadding.x;
  const float name = ImGui::CalcTextSize("11th Infantry").x + 2 * style.FramePadding.x;
  const float buttons = 4 * ImGui::GetFrameHeight() + 3 * style.ItemSpacing.x;
  // Each column at least as wide as its header, so no header is cut.
  const float numbers = std::max(number, ImGui::CalcTextSize("morale / dice").x + 2 * style.CellPadding.x);
  const float needed = name + 2 * numbers + std::max(choice, buttons) + 8 * style.CellPadding.x + 6;
  const bool sideways = needed > ImGui::GetContentRegionAvail().x;
  std::size_t move_from = units.size(), move_to = units.size(), duplicate = units.size(), remove = units.size();
  const float row_height = 2 * ImGui::GetFrameHeightWithSpacing();
  const float height = ImGui::GetFrameHeightWithSpacing() + row_height * static_cast<float>(units.size()) +
                       (sideways ? style.ScrollbarSize : 0.0f) + 2 * style.CellPadding.y;
  if (!units.empty() && ImGui::BeginTable("units", 4,
                                          ImGuiTableFlags_Borders | ImGuiTableFlags_NoSavedSettings |
                                              (sideways ? ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_ScrollX
                                                        : ImGuiTableFlags_SizingStretchProp),
                                          ImVec2(0, height))) {
    ImGui::TableSetupColumn("name / type",
                            sideways ? ImGuiTableColumnFlags_WidthFixed : ImGuiTableColumnFlags_WidthStretch, name);
    ImGui::TableSetupColumn("SP / max", ImGuiTableColumnFlags_WidthFixed, numbers);
    ImGui::TableSetupColumn("morale / dice", ImGuiTableColumnFlags_WidthFixed, numbers);
    ImGui::TableSetupColumn(crossing         ? "crossing"
                            : reinforcements ? "niagara"
                                             : "",
                            ImGuiTableColumnFlags_WidthFixed, std::max(crossing ? choice : 0.0f, buttons));
    ImGui::TableHeadersRow();
    for (std::size_t i = 0; i < units.size(); ++i) {
      gl::unit& u = units[i].u;
      ImGui::PushID(static_cast<int>(i));
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::SetNextItemWidth(-1);
      changed |= ImGui::InputText("##name", &u.name, ImGuiInputTextFlags_CallbackCharFilter, name_filter);
      ImGui::SetNextItemWidth(-1);
      if (ImGui::BeginCombo("##type", gl::to_string(u.type).c_str())) {
        for (gl::unit_type t : gl::spec_unit_types)
          if (ImGui::Selectable(gl::to_string(t).c_str(), t == u.type)) u.type = t, changed = true;
        ImGui::EndCombo();
      }
      const char* tips[] = {"current SP", "maximum SP", "morale", "battle dice"};
      int* fields[] = {&u.sp, &u.max_sp, &u.morale, &u.dice};
      for (int f = 0; f < 4; ++f) {
        if (f % 2 == 0) ImGui::TableNextColumn();
        ImGui::PushID(f);
        changed |= spinner("##n", *fields[f], -1);
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tips[f]);
        ImGui::PopID();
      }
      ImGui::TableNextColumn();
      if (crossing) {
        ImGui::SetNextItemWidth(-1);
        if (ImGui::BeginCombo("##crossing", gl::to_string(u.crossed).c_str())) {
          for (gl::crossing c : gl::all_crossings)
            if (ImGui::Selectable(gl::to_string(c).c_str(), c == u.crossed)) u.crossed = c, changed = true;
          ImGui::EndCombo();
        }
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("river or amphibious: a die less in round 1 (GL 11.8)");
      } else if (reinforcements) {
        changed |= ImGui::Checkbox("##niagara", &units[i].across_niagara);
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("comes across the Niagara (GL 13.3)");
      } else {
        ImGui::Dummy(ImVec2(0, ImGui::GetFrameHeight()));
      }
      if (ImGui::ArrowButton("##up", ImGuiDir_Up) && i > 0) move_from = i, move_to = i - 1;
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("move up");
      ImGui::SameLine();
      if (ImGui::ArrowButton("##down", ImGuiDir_Down) && i + 1 < units.size()) move_from = i, move_to = i + 1;
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("move down");
      ImGui::SameLine();
      if (ImGui::Button("+", ImVec2(ImGui::GetFrameHeight(), 0))) duplicate = i;
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("duplicate this unit");
      ImGui::SameLine();
      if (ImGui::Button("x", ImVec2(ImGui::GetFrameHeight(), 0))) remove = i;
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("remove this unit");
      ImGui::PopID();
    }
    ImGui::EndTable();
  }
  if (move_from < units.size()) std::swap(units[move_from], units[move_to]), changed = true;
  if (duplicate < units.size())
    units.insert(units.begin() + static_cast<std::ptrdiff_t>(duplicate) + 1, units[duplicate]), changed = true;
  if (remove < units.size()) units.erase(units.begin() + static_cast<std::ptrdiff_t>(remove)), changed = true;
  if (ImGui::Button(reinforcements ? "add reinforcement" : "add unit")) {
    gl::reinforcement fresh;
    fresh.u.name = fmt::format("Unit {}", units.size() + 1);
    units.push_back(fresh);
    changed = true;
  }
  if (changed) v = write_units(units, reinforcements);
  if (ImGui::TreeNode("as text")) {
    text_view(in, v);
    ImGui::TreePop();
  }
}

void fort_editor(const input_spec& in, json& v, float label_col) {
  std::optional<gl::fort> fort;
  try {
    fort = read_fort(v.is_string() ? v.get<std::string>() : "", in.name);
  } catch (const invalid_input& e) {
    ImGui::PushTextWrapPos(0);
    ImGui::TextColored(editor_error_colour, "%s", cli::input_error_line(e.field(), e.what()).c_str());
    ImGui::PopTextWrapPos();
    ImGui::SetCursorPosX(label_col);
    text_view(in, v);
    return;
  }
  const float avail = ImGui::GetContentRegionAvail().x;  // beside the label, before the tick box
  bool on = fort.has_value();
  bool changed = false;
  if (ImGui::Checkbox("##on", &on)) {
    changed = true;
    fort = on ? std::optional<gl::fort>(gl::fort{2, 2, 4, false}) : std::nullopt;
  }
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("tick: the defender has an undestroyed fort (--fort DICE:SP:MORALE)");
  if (!fort) {
    ImGui::SameLine();
    ImGui::TextDisabled("(no fort)");
  } else {
    const char* names[] = {"dice", "SP", "morale"};
    int* fields[] = {&fort->dice, &fort->sp, &fort->morale};
    const float spacing = ImGui::GetStyle().ItemSpacing.x;
    float labels = 0;
    for (const char* n : names) labels += ImGui::CalcTextSize(n).x + 2 * spacing;
    const float each = (avail - ImGui::GetFrameHeight() - labels) / 3.0f - spacing;
    for (int i = 0; i < 3; ++i) {
      ImGui::PushID(i);
      ImGui::SameLine();
      ImGui::TextDisabled("%s", names[i]);
      ImGui::SameLine();
      changed |= spinner("##n", *fields[i], each);
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("the fort's %s", names[i]);
      ImGui::PopID();
    }
  }
  if (changed) v = write_fort(fort);
}

void force_editor(const input_spec& in, json& v) {
  ar::points_by_type points{};
  std::string problem;
  try {
    points = read_force(v.is_string() ? v.get<std::string>() : "", in.name);
  } catch (const invalid_input& e) {
    problem = cli::input_error_line(e.field(), e.what());
  }
  text_view(in, v);
  if (!problem.empty()) {
    ImGui::PushTextWrapPos(0);
    ImGui::TextColored(editor_error_colour, "%s", problem.c_str());
    ImGui::PopTextWrapPos();
    return;
  }
  // B T | C M | F SF: one side's letters only, as parse_force demands; a spinner per type, two to a
  // row (British, American, French).
  bool changed = false;
  const float avail = ImGui::GetContentRegionAvail().x;
  const float spacing = ImGui::GetStyle().ItemSpacing.x;
  const float letter = ImGui::CalcTextSize("SF").x + spacing;
  const float cell = avail / 2.0f;
  float row_start = 0;
  for (std::size_t i = 0; i < ar::all_unit_types.size(); ++i) {
    const ar::unit_type t = ar::all_unit_types[i];
    ImGui::PushID(static_cast<int>(i));
    if (i % 2 == 0)
      row_start = ImGui::GetCursorPosX();
    else
      ImGui::SameLine(row_start + cell);
    const float x0 = row_start + static_cast<float>(i % 2) * cell;
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted(ar::letters(t).c_str());
    ImGui::SameLine(x0 + letter);
    int n = points[i];
    if (spinner("##n", n, cell - letter - spacing)) {
      points[i] = std::max(0, n);  // the text form has counts of 1 or more, or none
      changed = true;
    }
    ImGui::PopID();
  }
  if (changed) v = write_force(points);
}

// GL 11.26-11.27: a choice of the side's commanders, or none (data/gl/commanders.json).
void leader_editor(const input_spec& in, json& v, const json& values) {
  std::vector<std::string> choices;
  try {
    choices = leader_choices(leader_side(values, in.name));
  } catch (const std::exception&) {
    choices = {""};  // no game data: the run says so
  }
  const std::string current = v.is_string() ? v.get<std::string>() : "";
  auto shown = [](const std::string& c) { return c.empty() ? std::string("none") : c; };
  ImGui::SetNextItemWidth(-1);
  if (ImGui::BeginCombo("##v", shown(current).c_str())) {
    for (const auto& c : choices)
      if (ImGui::Selectable(shown(c).c_str(), c == current)) v = c;
    ImGui::EndCombo();
  }
}

}  // namespace

void input_name(const input_spec& in, float label_col) {
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted(in.name.c_str());
  log_last_item_text(in.name);
  if (ImGui::IsItemHovered() && !in.help.empty()) ImGui::SetTooltip("--%s: %s", in.name.c_str(), in.help.c_str());
  if (ImGui::CalcTextSize(in.name.c_str()).x + ImGui::GetStyle().ItemSpacing.x <= label_col)
    ImGui::SameLine(label_col);
  else
    ImGui::SetCursorPosX(ImGui::GetCursorPosX() + label_col);  // the widget under the name, in its column
}

void structured_widget(structured_kind kind, const input_spec& in, json& v, const json& values, float label_col) {
  ImGui::PushID(in.name.c_str());
  switch (kind) {
    case structured_kind::units:
    case structured_kind::reinforcements:
      ImGui::TextUnformatted(in.name.c_str());
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("--%s: %s", in.name.c_str(), in.help.c_str());
      units_table(kind, in, v);
      break;
    case structured_kind::fort:
    case structured_kind::force:
    case structured_kind::leaders:
      input_name(in, label_col);
      if (kind == structured_kind::fort)
        fort_editor(in, v, label_col);
      else if (kind == structured_kind::leaders)
        leader_editor(in, v, values);
      else
        force_editor(in, v);
      break;
    case structured_kind::none:
      break;
  }
  ImGui::PopID();
}

// Where the input widgets start: after the widest input name, but at most half the column.
float label_column(const calculator& calc) {
  float widest = ImGui::CalcTextSize("calculator").x;
  for (const auto& in : calc.inputs)
    if (in.kind != input_kind::flag) widest = std::max(widest, ImGui::CalcTextSize(in.name.c_str()).x);
  return std::min(widest + 2 * ImGui::GetStyle().ItemSpacing.x, ImGui::GetContentRegionAvail().x * 0.5f);
}

// One input's widget, bounded to its legal values (a slider, stepper, combo, tick or text).
void input_widget(const input_spec& in, json& v, float label_col) {
  ImGui::PushID(in.name.c_str());
  if (in.kind == input_kind::flag) {
    bool b = v.is_boolean() && v.get<bool>();
    if (ImGui::Checkbox(in.name.c_str(), &b)) v = b;
  } else {
    input_name(in, label_col);
    ImGui::SetNextItemWidth(-1);
    if (in.kind == input_kind::integer && in.optional) {
      // Unticked: the option is left out, as on the command line.
      bool set = v.is_number_integer();
      if (ImGui::Checkbox("##set", &set)) v = set ? json(std::clamp(0, in.lowest, in.highest)) : json(nullptr);
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("tick to give --%s", in.name.c_str());
      if (set) {
        ImGui::SameLine();
        ImGui::SetNextItemWidth(-1);
        int x = v.is_number_integer() ? v.get<int>() : 0;
        if (ImGui::InputInt("##v", &x, 1, 10)) v = in.bounded ? std::clamp(x, in.lowest, in.highest) : x;
      } else {
        ImGui::SameLine();
        ImGui::TextDisabled("(not given)");
      }
    } else if (in.kind == input_kind::integer) {
      int x = v.is_number_integer() ? v.get<int>() : in.lowest;
      bool changed;
      if (in.bounded && in.highest - in.lowest <= 100)
        changed = ImGui::SliderInt("##v", &x, in.lowest, in.highest, "%d", ImGuiSliderFlags_AlwaysClamp);
      else
        changed = ImGui::InputInt("##v", &x, 1, 1000);
      // Without a known range the value goes to the command as typed; the command names a bad one.
      if (changed) v = in.bounded ? std::clamp(x, in.lowest, in.highest) : x;
    } else if (in.kind == input_kind::choice) {
      const std::string current = v.is_string() ? v.get<std::string>() : in.choices.front();
      auto shown = [](const std::string& c) { return c.empty() ? std::string("(default)") : c; };
      // A choice that takes a parameter ("line_sp_at_most:K") is picked as "line_sp_at_most:1"
      // and its number edited beside it.
      auto picked = [](const std::string& c) {
        const auto [name, takes] = choice_parameter(c);
        return takes ? name + ":1" : c;
      };
      const std::string* chosen = nullptr;
      for (const auto& c : in.choices)
        if (matches_choice(c, current)) chosen = &c;
      float radio_width = 0;
      for (const auto& c : in.choices)
        radio_width += ImGui::CalcTextSize(shown(c).c_str()).x + ImGui::GetFrameHeight() * 1.6f;
      const bool parameter = chosen && choice_parameter(*chosen).second;
      if (in.choices.size() <= 3 && radio_width <= ImGui::GetContentRegionAvail().x) {
        for (std::size_t c = 0; c < in.choices.size(); ++c) {
          if (c > 0) ImGui::SameLine();
          if (ImGui::RadioButton(shown(in.choices[c]).c_str(), chosen == &in.choices[c])) v = picked(in.choices[c]);
        }
      } else {
        if (parameter) ImGui::SetNextItemWidth(ImGui::GetContentRegionAvail().x * 0.6f);
        if (ImGui::BeginCombo("##v", shown(chosen ? *chosen : current).c_str())) {
          for (const auto& c : in.choices)
            if (ImGui::Selectable(shown(c).c_str(), chosen == &c)) v = picked(c);
          ImGui::EndCombo();
        }
      }
      if (parameter && v.is_string() && matches_choice(*chosen, v.get<std::string>())) {
        const auto [name, takes] = choice_parameter(*chosen);
        int k = std::atoi(v.get<std::string>().substr(name.size() + 1).c_str());
        ImGui::SameLine();
        ImGui::SetNextItemWidth(-1);
        if (ImGui::InputInt("##parameter", &k)) v = name + ":" + std::to_string(std::max(k, 0));
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", chosen->c_str());
      }
    } else {
      std::string s = v.is_string() ? v.get<std::string>() : "";
      if (ImGui::InputText("##v", &s)) v = s;
    }
  }
  if (ImGui::IsItemHovered() && !in.help.empty()) ImGui::SetTooltip("--%s: %s", in.name.c_str(), in.help.c_str());
  ImGui::PopID();
}

// An input's widget: a typed editor for the text inputs that have one (units, fort, forces).
void any_input_widget(const calculator& calc, const input_spec& in, json& values, float label_col) {
  json& v = values[in.name];
  if (const structured_kind kind = structured_input(calc, in); kind != structured_kind::none)
    structured_widget(kind, in, v, values, label_col);
  else
    input_widget(in, v, label_col);
}

// Trials and seed matter unless the calculator is told to be exact (`method` = exact).
}  // namespace musket::gui
