#include "gui/app.hpp"

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <fmt/format.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <sstream>

#include "cli/result_labels.hpp"
#include "core/invalid_input.hpp"
#include "gui/charts.hpp"
#include "gui/input_editors.hpp"
#include "gui/layout_log.hpp"
#include "gui/result_view.hpp"

namespace musket::gui {

namespace {

const ImVec4 error_colour(1.0f, 0.35f, 0.35f, 1.0f);
const ImVec4 ok_colour(0.45f, 0.85f, 0.50f, 1.0f);
const ImVec4 verdict_colour(1.0f, 0.85f, 0.45f, 1.0f);

// "D, H,B" -> {"D", "H", "B"}.
std::vector<std::string> split_list(const std::string& text) {
  std::vector<std::string> out;
  std::string part;
  for (char c : text + ",") {
    if (c == ',') {
      if (!part.empty()) out.push_back(part);
      part.clear();
    } else if (c != ' ') {
      part += c;
    }
  }
  return out;
}

// The comma list with `item` added (at the end) or removed.
std::string toggled(const std::string& list, const std::string& item, bool on) {
  std::vector<std::string> parts = split_list(list);
  parts.erase(std::remove(parts.begin(), parts.end(), item), parts.end());
  if (on) parts.push_back(item);
  std::string out;
  for (const auto& p : parts) out += (out.empty() ? "" : ",") + p;
  return out;
}

}  // namespace

app::app(const catalogue& cat) : cat_(cat) {
  for (const auto& t : all_tabs) {
    tab_state tab;
    tab.game = t.code;
    if (const auto* g = cat.find_game(t.code)) {
      for (const auto& c : g->calculators) {
        panel_state p;
        p.calc = &c;
        p.values = initial_values(c);
        p.runner = std::make_unique<background_runner>();
        if (c.command == "sweep") {
          p.sweep = default_sweep(*g);
          if (p.sweep) p.values = sweep_values(*cat.find(t.code, p.sweep->target), *p.sweep);
        }
        tab.panels.push_back(std::move(p));
      }
    }
    tabs_.push_back(std::move(tab));
  }
}

tab_state* app::find_tab(const std::string& game) {
  for (auto& t : tabs_)
    if (t.game == game) return &t;
  return nullptr;
}
const tab_state* app::find_tab(const std::string& game) const {
  for (const auto& t : tabs_)
    if (t.game == game) return &t;
  return nullptr;
}

panel_state* app::current_panel() {
  auto* tab = find_tab(current_tab_);
  if (!tab || tab->panels.empty()) return nullptr;
  return &tab->panels[static_cast<std::size_t>(tab->selected)];
}
const panel_state* app::current_panel() const {
  const auto* tab = find_tab(current_tab_);
  if (!tab || tab->panels.empty()) return nullptr;
  return &tab->panels[static_cast<std::size_t>(tab->selected)];
}

void app::select_tab(const std::string& game) {
  if (!find_tab(game)) return;
  current_tab_ = game;
  select_tab_now_ = true;
}

bool app::select_panel(const std::string& game, std::size_t index) {
  auto* tab = find_tab(game);
  if (!tab || index >= tab->panels.size()) return false;
  tab->selected = static_cast<int>(index);
  tab->select_now = true;
  select_tab(game);
  return true;
}

std::optional<std::size_t> app::panel_index(const std::string& game, const std::string& command) const {
  if (const auto* tab = find_tab(game))
    for (std::size_t i = 0; i < tab->panels.size(); ++i)
      if (tab->panels[i].calc->command == command) return i;
  return std::nullopt;
}

std::string app::panel_commands(const std::string& game) const {
  std::string out;
  if (const auto* tab = find_tab(game))
    for (const auto& p : tab->panels) out += (out.empty() ? "" : ", ") + p.calc->command;
  return out;
}

std::string app::panel_command(const std::string& game, std::size_t index) const {
  const auto* tab = find_tab(game);
  return tab && index < tab->panels.size() ? tab->panels[index].calc->command : "";
}

json app::panel_values(const std::string& game, std::size_t index) const {
  const auto* tab = find_tab(game);
  return tab && index < tab->panels.size() ? tab->panels[index].values : json();
}

void app::set_panel_values(const std::string& game, std::size_t index, const json& values) {
  auto* tab = find_tab(game);
  if (tab && index < tab->panels.size()) tab->panels[index].values = values;
}

std::vector<std::string> app::panel_methods(const std::string& game, std::size_t index) const {
  const auto* tab = find_tab(game);
  if (!tab || index >= tab->panels.size()) return {};
  const input_spec* method = tab->panels[index].calc->find_input("method");
  if (!method || method->kind != input_kind::choice) return {};
  std::vector<std::string> out;
  for (const auto& c : method->choices)
    if (!c.empty()) out.push_back(c);
  return out;
}

void app::try_method(const std::string& game, std::size_t index, const std::string& method) {
  auto* tab = find_tab(game);
  if (!tab || index >= tab->panels.size()) return;
  panel_state& panel = tab->panels[index];
  panel.values["method"] = method;
  if (const input_spec* trials = panel.calc->find_input("trials"); trials && trials->kind == input_kind::integer)
    panel.values["trials"] = trials->lowest;
}

void app::report_status(const std::string& message, bool error) {
  status_ = message;
  status_error_ = error;
}

void app::apply(const scenario& s) {
  auto* tab = find_tab(s.game);
  if (!tab) return;
  for (std::size_t i = 0; i < tab->panels.size(); ++i) {
    if (tab->panels[i].calc->command != s.command) continue;
    if (tab->panels[i].sweep) {
      // Throws invalid_input (kept state, message shown) for a setup that does not fit.
      tab->panels[i].sweep = sweep_setup_from(*cat_.find_game(s.game), s.values);
    }
    tab->panels[i].values = s.values;
    tab->selected = static_cast<int>(i);
    tab->select_now = true;
  }
  select_tab(s.game);
}

std::optional<std::string> app::load(const std::string& path) {
  try {
    const scenario s = load_any_scenario(cat_, path);
    try {
      apply(s);
    } catch (const invalid_input& e) {
      throw invalid_input("scenario", "'" + path + "': " + e.field() + ": " + e.what());
    }
    last_scenario_ = path;
    browser_.remember(path);
    report_status("loaded " + path, false);
    return std::nullopt;
  } catch (const invalid_input& e) {
    report_status(e.what(), true);
    return std::string(e.what());
  }
}

std::optional<std::string> app::save(const std::string& path) {
  const panel_state* panel = current_panel();
  if (!panel) {
    report_status("nothing to save: this game's engine is not built yet", true);
    return status_;
  }
  try {
    write_file_atomically(path, scenario_document(*panel->calc, panel->values).dump(2) + "\n");
    last_scenario_ = path;
    browser_.remember(path);
    report_status("saved " + path, false);
    return std::nullopt;
  } catch (const std::exception& e) {
    report_status(e.what(), true);
    return std::string(e.what());
  }
}

std::optional<png_request> app::take_png_request() {
  auto r = std::move(png_request_);
  png_request_.reset();
  return r;
}

void app::take_finished(panel_state& panel) {
  if (auto f = panel.runner->take_finished()) {
    panel.result = std::move(f->result);
    panel.computed_key = f->key;
    panel.compute_ms = f->ms;
  }
}

const calculator* app::sweep_target(const panel_state& panel) const {
  return panel.sweep ? cat_.find(panel.calc->game, panel.sweep->target) : nullptr;
}

void app::update(panel_state& panel) {
  if (const calculator* target = sweep_target(panel)) panel.values = sweep_values(*target, *panel.sweep);
  const std::string key = panel.values.dump();
  const auto now = std::chrono::steady_clock::now();
  if (key != panel.seen_key) {
    panel.seen_key = key;
    panel.changed_at = now;
  }
  background_runner& runner = *panel.runner;
  take_finished(panel);
  if (key == panel.computed_key) return;
  if (runner.running()) {
    if (runner.key() == key) return;
    // The inputs moved on: the old run is dropped once they have held still for a moment, so a
    // dragged slider does not start a run per frame.
    if (now - panel.changed_at < std::chrono::milliseconds(150)) return;
  }
  runner.start(*panel.calc, panel.values, key);
  // A fast calculator is back within this frame; a slow one shows its progress.
  if (runner.wait_for(std::chrono::milliseconds(25))) take_finished(panel);
}

void app::settle(bool wait) {
  panel_state* panel = current_panel();
  if (!panel) return;
  update(*panel);
  if (wait) {
    // A run for older values first, then the one for these.
    for (int i = 0; i < 3 && panel->computed_key != panel->values.dump(); ++i) {
      panel->runner->wait();
      update(*panel);
    }
  }
}

std::size_t app::running_threads() const {
  std::size_t n = 0;
  for (const auto& t : tabs_)
    for (const auto& p : t.panels) n += p.runner ? p.runner->threads() : 0;
  return n;
}

json app::progress() const {
  const panel_state* panel = current_panel();
  if (!panel || !panel->runner || !panel->runner->running() || panel->runner->done() == 0) return json();
  return json{{"done", panel->runner->done()}, {"total", panel->runner->total()}};
}

json app::results_document() const {
  json out;
  out["tab"] = current_tab_;
  // How many calculators have been drawn and computed, of how many (for --visit-all).
  int panels = 0, computed = 0;
  for (const auto& t : tabs_)
    for (const auto& p : t.panels) {
      ++panels;
      computed += !p.computed_key.empty();
    }
  out["panels"] = panels;
  out["panels_computed"] = computed;
  const panel_state* panel = current_panel();
  if (!panel) {
    out["built"] = false;
    return out;
  }
  out["built"] = true;
  out["command"] = panel->calc->command;
  out["values"] = panel->values;
  // Results are only ever reported for the values on screen.
  out["current"] = panel->computed_key == panel->values.dump();
  out["ok"] = panel->result.ok && out["current"].get<bool>();
  if (!out["current"].get<bool>()) {
    out["error"] = "still computing";
    out["progress"] = progress();
    return out;
  }
  if (panel->result.cancelled) out["cancelled"] = true;
  if (!panel->result.ok) {
    out["error"] = panel->result.message();
    return out;
  }
  out["command_line"] = shown_command_line(*panel);
  out["title"] = panel->result.report.title;
  out["verdict"] = panel->result.report.verdict;
  out["report"] = cli::versioned(panel->result.report.document);  // as `--format json` prints it
  out["compute_ms"] = panel->compute_ms;
  out["frame_ms"] = frame_ms;
  return out;
}

void app::handle_shortcuts() {
  const ImGuiIO& io = ImGui::GetIO();
  if (!io.KeyCtrl || open_popup_ != popup::none) return;
  if (ImGui::IsKeyPressed(GLFW_KEY_S, false)) {
    open_popup_ = popup::save;
    path_input_ = last_scenario_.empty() ? "scenario.json" : last_scenario_;
  } else if (ImGui::IsKeyPressed(GLFW_KEY_O, false)) {
    open_popup_ = popup::open;
    path_input_ = last_scenario_.empty() ? "scenario.json" : last_scenario_;
  } else if (ImGui::IsKeyPressed(GLFW_KEY_E, false)) {
    open_popup_ = popup::export_png;
    const panel_state* p = current_panel();
    path_input_ = fmt::format("musket-{}-{}.png", current_tab_, p ? p->calc->command : "tab");
  }
}

void app::draw_menu() {
  if (!ImGui::BeginMenuBar()) return;
  if (ImGui::BeginMenu("File")) {
    if (ImGui::MenuItem("Open scenario...", "Ctrl+O")) {
      open_popup_ = popup::open;
      path_input_ = last_scenario_.empty() ? "scenario.json" : last_scenario_;
    }
    if (ImGui::MenuItem("Save scenario...", "Ctrl+S")) {
      open_popup_ = popup::save;
      path_input_ = last_scenario_.empty() ? "scenario.json" : last_scenario_;
    }
    if (ImGui::MenuItem("Export results as PNG...", "Ctrl+E")) {
      open_popup_ = popup::export_png;
      const panel_state* p = current_panel();
      path_input_ = fmt::format("musket-{}-{}.png", current_tab_, p ? p->calc->command : "tab");
    }
    ImGui::Separator();
    const panel_state* p = current_panel();
    const bool have = p && p->result.ok && p->computed_key == p->values.dump();
    if (ImGui::MenuItem("Copy results as CSV", nullptr, false, have)) {
      ImGui::SetClipboardText(results_csv(p->result).c_str());
      report_status("results copied as CSV", false);
    }
    if (ImGui::MenuItem("Copy results as Markdown", nullptr, false, have)) {
      ImGui::SetClipboardText(results_markdown(p->result).c_str());
      report_status("results copied as Markdown", false);
    }
    ImGui::Separator();
    if (ImGui::MenuItem("Quit")) quit_requested = true;
    ImGui::EndMenu();
  }
  if (ImGui::BeginMenu("View")) {
    float scale = ui_scale;
    ImGui::SetNextItemWidth(160);
    if (ImGui::SliderFloat("UI scale", &scale, 0.75f, 2.5f, "%.2f", ImGuiSliderFlags_AlwaysClamp)) {
      ui_scale = scale;
      ui_scale_changed = true;
    }
    ImGui::EndMenu();
  }
  ImGui::EndMenuBar();
}

void app::draw_popups() {
  static const char* titles[] = {"", "Open scenario", "Save scenario", "Export results as PNG"};
  const char* title = titles[static_cast<int>(open_popup_)];
  if (open_popup_ != popup::none && !ImGui::IsPopupOpen(title)) ImGui::OpenPopup(title);
  for (int i = 1; i <= 3; ++i) {
    if (!ImGui::BeginPopupModal(titles[i], nullptr, ImGuiWindowFlags_AlwaysAutoResize)) continue;
    ImGui::TextUnformatted(i == 3 ? "PNG file to write (the results panel):" : "Scenario file (JSON):");
    ImGui::SetNextItemWidth(420);
    if (ImGui::IsWindowAppearing()) {
      ImGui::SetKeyboardFocusHere();
      browser_.show_folder_of(path_input_);
    }
    const bool entered = ImGui::InputText("##path", &path_input_, ImGuiInputTextFlags_EnterReturnsTrue);
    // Opening: pick from a folder's .json files or the recent ones (a double click opens).
    bool picked = false;
    if (i == static_cast<int>(popup::open)) {
      if (auto chosen = browser_.draw(path_input_)) {
        path_input_ = *chosen;
        picked = true;
      }
    }
    const bool ok = ImGui::Button("OK") || entered || picked;
    ImGui::SameLine();
    const bool cancel = ImGui::Button("Cancel") || ImGui::IsKeyPressed(GLFW_KEY_ESCAPE, false);
    if (ok) {
      const popup which = static_cast<popup>(i);
      if (which == popup::open)
        load(path_input_);
      else if (which == popup::save)
        save(path_input_);
      else
        png_request_ = png_request{path_input_, results_min_, results_max_};
    }
    if (ok || cancel) {
      open_popup_ = popup::none;
      ImGui::CloseCurrentPopup();
    }
    ImGui::EndPopup();
  }
}

void app::draw() {
  const auto frame_start = std::chrono::steady_clock::now();
  begin_layout_frame();
  handle_shortcuts();
  const ImGuiIO& io = ImGui::GetIO();
  ImGui::SetNextWindowPos(ImVec2(0, 0));
  ImGui::SetNextWindowSize(io.DisplaySize);
  ImGui::Begin("Musket", nullptr,
               ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize |
                   ImGuiWindowFlags_MenuBar | ImGuiWindowFlags_NoBringToFrontOnFocus |
                   ImGuiWindowFlags_NoSavedSettings);
  draw_menu();
  const float status_height = ImGui::GetFrameHeightWithSpacing();
  ImGui::BeginChild("tabs", ImVec2(0, -status_height));
  if (ImGui::BeginTabBar("games")) {
    for (const auto& t : all_tabs) {
      const ImGuiTabItemFlags flags = (select_tab_now_ && current_tab_ == t.code) ? ImGuiTabItemFlags_SetSelected : 0;
      const std::string label = fmt::format("{}  ({})###{}", t.title, t.code, t.code);
      if (ImGui::BeginTabItem(label.c_str(), nullptr, flags)) {
        if (!select_tab_now_) current_tab_ = t.code;
        draw_tab(*find_tab(t.code));
        ImGui::EndTabItem();
      }
    }
    select_tab_now_ = false;
    ImGui::EndTabBar();
  }
  ImGui::EndChild();
  // Status line: last action, timings.
  if (!status_.empty()) {
    ImGui::TextColored(status_error_ ? error_colour : ok_colour, "%s", status_.c_str());
    ImGui::SameLine();
  }
  const panel_state* p = current_panel();
  const std::string timing = fmt::format("frame {:.2f} ms   results {:.3f} ms", frame_ms, p ? p->compute_ms : 0.0);
  ImGui::SetCursorPosX(
      std::max(ImGui::GetCursorPosX(), ImGui::GetWindowWidth() - ImGui::CalcTextSize(timing.c_str()).x - 16));
  ImGui::TextDisabled("%s", timing.c_str());
  draw_popups();
  ImGui::End();
  (void)frame_start;
}

void app::draw_tab(tab_state& tab) {
  if (tab.panels.empty()) {
    ImGui::Spacing();
    const tab_info* info = nullptr;
    for (const auto& t : all_tabs)
      if (tab.game == t.code) info = &t;
    ImGui::TextColored(verdict_colour, "%s: not built yet", info ? info->title : tab.game.c_str());
    ImGui::TextWrapped(
        "This game's engine (calc/%s) is not in this build. Its calculators appear here by themselves once "
        "the engine and its `musket %s` commands are built: the dashboard reads the same command list as the CLI.",
        tab.game == "ar"   ? "revolution"
        : tab.game == "gl" ? "great_lakes"
                           : tab.game.c_str(),
        tab.game.c_str());
    return;
  }
  if (const auto* g = cat_.find_game(tab.game)) ImGui::TextDisabled("%s", g->title.c_str());
  if (ImGui::BeginTabBar("calculators", ImGuiTabBarFlags_FittingPolicyScroll)) {
    for (std::size_t i = 0; i < tab.panels.size(); ++i) {
      auto& panel = tab.panels[i];
      const bool force = tab.select_now && tab.selected == static_cast<int>(i);
      if (ImGui::BeginTabItem(panel.calc->label.c_str(), nullptr, force ? ImGuiTabItemFlags_SetSelected : 0)) {
        if (!tab.select_now) tab.selected = static_cast<int>(i);
        draw_panel(panel);
        ImGui::EndTabItem();
      }
    }
    tab.select_now = false;
    ImGui::EndTabBar();
  }
}

void app::draw_panel(panel_state& panel) {
  float input_width = 340.0f * ImGui::GetFontSize() / 16.0f;
  // A unit table wants room for its columns: up to 45% of the window (it scrolls sideways below).
  for (const auto& in : panel.calc->inputs)
    if (const structured_kind k = structured_input(*panel.calc, in);
        k == structured_kind::units || k == structured_kind::reinforcements)
      input_width = std::clamp(ImGui::GetContentRegionAvail().x * 0.45f, input_width, 2 * input_width);
  ImGui::BeginChild("inputs", ImVec2(input_width, 0), true);
  draw_inputs(panel);
  ImGui::EndChild();
  update(panel);  // exact results follow the inputs within the same frame
  ImGui::SameLine();
  ImGui::BeginChild("results", ImVec2(0, 0), true);
  results_min_ = ImGui::GetWindowPos();
  results_max_ = ImVec2(results_min_.x + ImGui::GetWindowSize().x, results_min_.y + ImGui::GetWindowSize().y);
  draw_results(panel);
  ImGui::EndChild();
}

static bool takes_trials(const calculator& calc, const json& values) {
  return (values.contains("method") ? values.value("method", "") != "exact" : calc.find_input("trials") != nullptr);
}

std::string app::shown_command_line(const panel_state& panel) const {
  const calculator& calc = *panel.calc;
  if (const calculator* target = sweep_target(panel))
    return command_line(calc.game + " sweep " + panel.sweep->target,
                        command_arguments(calc, sweep_values(*target, *panel.sweep)), {"command"});
  const bool simulated = takes_trials(calc, panel.values);
  std::vector<std::string> skip;
  if (!simulated) skip = {"trials", "seed"};
  return command_line(calc.game + " " + calc.command, command_arguments(calc, panel.values), skip);
}

void app::draw_command_line(const panel_state& panel) const {
  ImGui::Spacing();
  ImGui::TextDisabled("The same command line:");
  const std::string line = shown_command_line(panel);
  ImGui::PushTextWrapPos(0);
  ImGui::TextDisabled("%s", line.c_str());
  ImGui::PopTextWrapPos();
}

// AR Variable Forces: the option letters of `--use` as tick boxes, each with its name and
// adjustment (as the command itself reports them), and the set's legality as the command judges
// it, live. The text field below stays for typing.
void app::draw_option_sets(panel_state& panel) {
  static const std::string letters = "ABCDEFGHIJKL";
  if (!option_names_) {
    // The command's own report of every option: one run with all twelve letters.
    json all = initial_values(*panel.calc);
    all["all"] = false;
    all["use"] = "A,B,C,D,E,F,G,H,I,J,K,L";
    option_names_ = json::object();
    const outcome r = run(*panel.calc, all);
    if (r.ok && r.report.document.contains("options"))
      for (const auto& o : r.report.document.at("options")) (*option_names_)[o.value("letter", "")] = o;
  }
  std::string use = panel.values.value("use", "");
  ImGui::TextDisabled("option sets (--use):");
  bool changed = false;
  for (std::size_t i = 0; i < letters.size(); ++i) {
    const std::string letter(1, letters[i]);
    bool on = false;
    for (const auto& part : split_list(use)) on = on || part == letter;
    const json o = option_names_->value(letter, json::object());
    const std::string label = fmt::format("{} {:+d}##{}", letter, o.value("adjustment", 0), letter);
    if (i % 4 != 0) ImGui::SameLine(static_cast<float>(i % 4) * ImGui::GetContentRegionAvail().x / 4.0f + 8.0f);
    if (ImGui::Checkbox(label.c_str(), &on)) changed = true, use = toggled(use, letter, on);
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("%s: %s (adjustment %+d)", letter.c_str(), o.value("name", "").c_str(),
                        o.value("adjustment", 0));
  }
  if (changed) {
    panel.values["use"] = use;
    if (!use.empty()) panel.values["all"] = false;
  }
  // Legality of the ticked set, from the last run for these very inputs.
  if (!use.empty() && panel.result.ok && panel.computed_key == panel.values.dump()) {
    const json& doc = panel.result.report.document;
    const std::string legality = doc.value("legality", "");
    ImGui::PushTextWrapPos(0);
    ImGui::TextColored(legality == "legal"     ? ok_colour
                       : legality == "illegal" ? error_colour
                                               : verdict_colour,
                       "%s", legality.c_str());
    if (doc.contains("reasons") && doc.at("reasons").is_array())
      for (const auto& reason : doc.at("reasons"))
        if (reason.is_string()) ImGui::TextDisabled("%s", reason.get<std::string>().c_str());
    ImGui::PopTextWrapPos();
  }
  ImGui::Separator();
}

void app::draw_inputs(panel_state& panel) {
  if (panel.sweep) {
    draw_sweep_inputs(panel);
    return;
  }
  const calculator& calc = *panel.calc;
  ImGui::PushTextWrapPos(0);  // wrapped at the column's edge, never cut
  ImGui::TextUnformatted(calc.summary.c_str());
  ImGui::PopTextWrapPos();
  log_last_item_text(calc.summary);
  ImGui::Separator();
  if (calc.game == "ar" && calc.command == "options") draw_option_sets(panel);
  const float label_col = label_column(calc);
  const std::string hidden_prefix = calc.game == "nt" ? "(ss)" : calc.game == "ss" ? "(nt)" : "(none)";
  const bool simulated = takes_trials(calc, panel.values);
  for (const auto& in : calc.inputs) {
    if (in.help.rfind(hidden_prefix, 0) == 0) continue;  // another game's rule
    if ((in.name == "trials" || in.name == "seed") && !simulated) continue;
    any_input_widget(calc, in, panel.values, label_col);
  }
  ImGui::Spacing();
  if (auto swapped = swap_sides(calc, panel.values)) {
    if (ImGui::Button("Swap sides")) panel.values = *swapped;
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("the attacker's inputs become the defender's and back");
  }
  if (ImGui::Button("Reset")) panel.values = initial_values(calc);
  ImGui::SameLine();
  const bool have = panel.result.ok && panel.computed_key == panel.values.dump();
  if (ImGui::Button("Copy CSV") && have) {
    ImGui::SetClipboardText(results_csv(panel.result).c_str());
    report_status("results copied as CSV", false);
  }
  ImGui::SameLine();
  if (ImGui::Button("Copy Markdown") && have) {
    ImGui::SetClipboardText(results_markdown(panel.result).c_str());
    report_status("results copied as Markdown", false);
  }
  draw_command_line(panel);
}

void app::draw_results(panel_state& panel) {
  const outcome& result = panel.result;
  const bool current = panel.computed_key == panel.values.dump();
  if (!current) {
    draw_progress(panel);
    if (panel.computed_key.empty()) return;
    // The last results stay visible for comparison, dimmed and labelled: never as current.
    ImGui::Spacing();
    ImGui::TextColored(verdict_colour, "Below: the results for the previous inputs (not these).");
    ImGui::BeginDisabled();
  } else if (panel.computed_key.empty()) {
    return;
  }
  struct end_disabled {
    bool on;
    ~end_disabled() {
      if (on) ImGui::EndDisabled();
    }
  } dimmed{!current};
  if (result.cancelled) {
    ImGui::TextColored(verdict_colour, "Cancelled before any result.");
    if (current && ImGui::Button("Run again")) panel.computed_key.clear();
    return;
  }
  if (!result.ok) {
    ImGui::PushTextWrapPos(0);
    // A calculator waiting for a file the player has not named yet (Levy's chart, which is not in
    // our transcript) is not in error: it says what to give.
    const input_spec* wanted = panel.calc->find_input(result.error_field);
    const json given = wanted ? panel.values.value(wanted->name, json()) : json();
    if (wanted && wanted->kind == input_kind::text && (given.is_null() || given == "")) {
      ImGui::TextColored(verdict_colour, "Needs --%s: %s", wanted->name.c_str(), wanted->help.c_str());
      ImGui::TextDisabled("%s", result.error.c_str());
    } else {
      ImGui::TextColored(error_colour, "%s", result.message().c_str());
    }
    ImGui::PopTextWrapPos();
    return;
  }
  ImGui::PushTextWrapPos(0);
  ImGui::TextUnformatted(result.report.title.c_str());
  log_last_item_text(result.report.title);
  ImGui::TextColored(verdict_colour, "%s", result.report.verdict.c_str());
  ImGui::PopTextWrapPos();
  try {
    draw_result_body(panel);
  } catch (const std::exception& e) {
    // A report shaped unlike what the pictures expect: say so rather than stop.
    ImGui::TextColored(error_colour, "cannot draw this report: %s", e.what());
  }
  const json& doc = result.report.document;
  if (doc.contains("notes") && doc.at("notes").is_array() && !doc.at("notes").empty()) {
    ImGui::Spacing();
    if (ImGui::CollapsingHeader("Notes: the rulings behind these numbers")) {
      ImGui::PushTextWrapPos(0);
      for (const auto& n : doc.at("notes"))
        if (n.is_string()) ImGui::BulletText("%s", n.get<std::string>().c_str());
      ImGui::PopTextWrapPos();
    }
  }
}

void app::draw_result_body(panel_state& panel) {
  const outcome& result = panel.result;
  if (panel.sweep) {
    draw_sweep(panel);
  } else if (panel.calc->command == "commit") {
    draw_commit(result);
  } else {
    const json& doc = result.report.document;
    const json* exact = doc.contains("exact") ? &doc.at("exact") : nullptr;
    const json* method = child(&doc, "method");
    if (method && method->is_object() && method->value("name", "") == "simulation") {
      // A simulated answer says how many trials and that the bars carry 95% intervals.
      const std::uint64_t trials = method->value("trials", std::uint64_t{0});
      const std::string cancelled = method->value("cancelled", false) ? "  (cancelled early)" : "";
      ImGui::PushTextWrapPos(0);
      ImGui::TextDisabled("simulation: %llu trials, seed %llu; bars show 95%% Wilson intervals%s",
                          static_cast<unsigned long long>(trials),
                          static_cast<unsigned long long>(method->value("seed", std::uint64_t{0})), cancelled.c_str());
      ImGui::PopTextWrapPos();
      if (ImGui::Button("Run again")) panel.computed_key.clear();
    }
    draw_report_values(doc, result.report.result_keys, child(&doc, "intervals"), exact);
  }
}

void app::draw_commit(const outcome& result) {
  const json& doc = result.report.document;
  if (!doc.contains("matrix") || !doc.contains("best")) return;
  const json& matrix = doc.at("matrix");
  const json& best = doc.at("best");
  const bool percent = doc.value("objective", "") != "net-losses";
  std::vector<int> rows, columns, marked;
  std::vector<std::vector<heat_cell>> cells;
  std::size_t width = 0;
  for (const auto& m : matrix) width = std::max(width, m.at("values_by_def_war").size());
  for (std::size_t c = 0; c < width; ++c) columns.push_back(static_cast<int>(c));
  int best_row = -1;
  for (std::size_t r = 0; r < matrix.size(); ++r) {
    const json& m = matrix[r];
    rows.push_back(m.at("att_war").get<int>());
    std::vector<heat_cell> row(width);
    const json& values = m.at("values_by_def_war");
    for (std::size_t c = 0; c < values.size(); ++c) row[c] = heat_cell{values[c].get<double>(), true};
    cells.push_back(row);
    if (rows.back() == best.at("att_war").get<int>()) best_row = static_cast<int>(r);
    int reply = -1;
    if (doc.contains("rows") && r < doc.at("rows").size())
      reply = doc.at("rows")[r].at("def_war_best_reply").get<int>();
    marked.push_back(reply);
  }
  ImGui::Spacing();
  ImGui::Text("Best: commit %d War; the defender replies %d; %s %s", best.at("att_war").get<int>(),
              best.at("def_war").get<int>(), doc.value("objective", "").c_str(),
              percent ? percent_text(best.at("value").get<double>()).c_str()
                      : fmt::format("{:.3f}", best.at("value").get<double>()).c_str());
  if (doc.contains("exact") && doc.at("exact").contains("best") && ImGui::IsItemHovered())
    ImGui::SetTooltip("exact: %s", doc.at("exact").at("best").value("value", "").c_str());
  if (rows.empty()) {
    ImGui::TextDisabled("no commitment earns the attacker a die");
    return;
  }
  heat_map("attacker War", "defender War", rows, columns, cells, marked, best_row, best.at("def_war").get<int>(),
           percent);
  ImGui::TextDisabled(
      "orange frame: the best commitment and its reply; orange dot: the defender's best reply in each row");
}

void app::draw_progress(panel_state& panel) {
  const background_runner& runner = *panel.runner;
  const float button = ImGui::CalcTextSize("Cancel").x + 2 * ImGui::GetStyle().FramePadding.x;
  const float width = ImGui::GetContentRegionAvail().x - button - ImGui::GetStyle().ItemSpacing.x;
  if (runner.cancel_requested()) {
    ImGui::TextColored(verdict_colour, "cancelling...");
    return;
  }
  if (!runner.running()) {
    ImGui::TextColored(verdict_colour, "waiting for the inputs to settle...");
    return;
  }
  const std::uint64_t done = runner.done(), total = runner.total();
  if (total > 0 && done > 0) {
    // Known length: trials (simulations) or points (sweeps) done of those asked.
    const std::string overlay = fmt::format("{} / {}  ({:.1f} s)", done, total, runner.seconds());
    ImGui::ProgressBar(static_cast<float>(static_cast<double>(done) / static_cast<double>(total)), ImVec2(width, 0),
                       overlay.c_str());
  } else {
    // Unknown length: a block sweeping along an empty bar, and the time so far.
    const ImVec2 at = ImGui::GetCursorScreenPos();
    const float height = ImGui::GetFrameHeight();
    ImDrawList* draw = ImGui::GetWindowDrawList();
    draw->AddRectFilled(at, ImVec2(at.x + width, at.y + height), ImGui::GetColorU32(ImGuiCol_FrameBg), 3.0f);
    const double phase = std::fmod(runner.seconds(), 1.6) / 1.6;
    const float block = width * 0.2f;
    const float x = at.x + static_cast<float>(phase) * (width + block) - block;
    draw->AddRectFilled(ImVec2(std::max(at.x, x), at.y), ImVec2(std::min(at.x + width, x + block), at.y + height),
                        ImGui::GetColorU32(ImGuiCol_PlotHistogram), 3.0f);
    const std::string text = fmt::format("working... {:.1f} s", runner.seconds());
    const ImVec2 size = ImGui::CalcTextSize(text.c_str());
    draw->AddText(ImVec2(at.x + (width - size.x) / 2, at.y + (height - size.y) / 2), ImGui::GetColorU32(ImGuiCol_Text),
                  text.c_str());
    ImGui::Dummy(ImVec2(width, height));
  }
  ImGui::SameLine();
  if (ImGui::Button("Cancel")) panel.runner->cancel();
}

}  // namespace musket::gui
