#pragma once
// The dashboard: one tab per game, one sub-tab per calculator, inputs on the left, pictures of
// the results on the right. Knows ImGui, not GLFW or OpenGL (main.cpp owns the window).
#include <imgui.h>

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "gui/file_browser.hpp"
#include "gui/model.hpp"
#include "gui/runner.hpp"

namespace musket::gui {

// The four games' tabs, in order, whether or not their engine is built yet.
struct tab_info {
  const char* code;
  const char* title;
};
inline constexpr tab_info all_tabs[] = {
    {"nt", "Northern Theater"}, {"ss", "Southern Strategy"}, {"ar", "American Revolution"}, {"gl", "Great Lakes"}};

struct panel_state {
  const calculator* calc = nullptr;
  json values;
  std::string computed_key;  // values.dump() of the last run
  outcome result;
  double compute_ms = 0;
  // Every calculator runs off the UI thread (simulations, campaigns, sweeps, battles); a fast one
  // is back within the frame that started it.
  std::unique_ptr<background_runner> runner;
  std::string seen_key;  // the values as last seen, to notice when they change
  std::chrono::steady_clock::time_point changed_at;
  // The Sweep panel: what is swept (its values are rebuilt from this for `musket <game> sweep`).
  std::optional<sweep_setup> sweep;
};

struct tab_state {
  std::string game;
  int selected = 0;         // index into panels
  bool select_now = false;  // force the selection on the next frame
  std::vector<panel_state> panels;
};

// What the window loop is asked to do after the frame is drawn.
struct png_request {
  std::string path;
  ImVec2 min, max;  // region in window coordinates (the results panel)
};

class app {
 public:
  explicit app(const catalogue& cat);

  void draw();  // one frame of UI

  // Selecting and loading (also from the command line).
  void select_tab(const std::string& game);
  // Selects a tab's index-th calculator; false when there is none.
  bool select_panel(const std::string& game, std::size_t index);
  // A tab's calculator by its command ("navy-return"), and the commands it has ("battle, commit, ...").
  std::optional<std::size_t> panel_index(const std::string& game, const std::string& command) const;
  std::string panel_commands(const std::string& game) const;
  std::string panel_command(const std::string& game, std::size_t index) const;  // "" when there is none
  // A calculator's inputs, read and replaced (for --visit-all, which tries each method and then
  // puts the inputs back).
  json panel_values(const std::string& game, std::size_t index) const;
  void set_panel_values(const std::string& game, std::size_t index, const json& values);
  // The choices of a calculator's "method" input (exact, sim, auto); empty when it has none.
  std::vector<std::string> panel_methods(const std::string& game, std::size_t index) const;
  // Sets that calculator's method; a simulation gets its fewest trials, so a smoke test stays short.
  void try_method(const std::string& game, std::size_t index, const std::string& method);
  // Loads a scenario file into its tab; on failure keeps the state, shows and returns the message.
  std::optional<std::string> load(const std::string& path);
  void apply(const scenario& s);
  std::optional<std::string> save(const std::string& path);

  const std::string& current_tab() const { return current_tab_; }
  const std::string& last_scenario() const { return last_scenario_; }
  // Scenario files opened or saved lately (File > Open lists them), most recent first.
  const std::vector<std::string>& recent_files() const { return browser_.recent(); }
  void set_recent_files(std::vector<std::string> files) { browser_.set_recent(std::move(files)); }
  float ui_scale = 1.0f;
  bool ui_scale_changed = false;
  double frame_ms = 0;  // measured by the window loop
  bool quit_requested = false;

  // Brings the current tab's selected calculator up to date (starts its run, taking it within
  // the frame when it is fast) and, with `wait`, lets a slow run finish.
  void settle(bool wait);
  // Worker threads still going (runs superseded or abandoned included).
  std::size_t running_threads() const;
  // The current calculator's run in progress: {"done": N, "total": M} once it has reported some
  // progress (M = 0: length unknown), else null.
  json progress() const;
  // The current tab's selected calculator and its results, as --dump-results writes them.
  json results_document() const;

  // The PNG export the UI asked for, taken (and cleared) by the window loop after rendering.
  std::optional<png_request> take_png_request();
  // Asks for the results panel as drawn in the next frame to be written to `path`.
  void request_png(const std::string& path) { png_request_ = png_request{path, results_min_, results_max_}; }
  void report_status(const std::string& message, bool error);

 private:
  tab_state* find_tab(const std::string& game);
  const tab_state* find_tab(const std::string& game) const;
  void draw_menu();
  void draw_tab(tab_state& tab);
  void draw_panel(panel_state& panel);
  void draw_inputs(panel_state& panel);
  void draw_option_sets(panel_state& panel);
  // "The same command line": what `musket` runs for this panel's inputs, shell-quoted.
  std::string shown_command_line(const panel_state& panel) const;
  void draw_command_line(const panel_state& panel) const;  // under the inputs, wrapped
  void draw_results(panel_state& panel);
  void draw_result_body(panel_state& panel);
  void draw_commit(const outcome& result);
  void draw_sweep_inputs(panel_state& panel);
  void draw_sweep(const panel_state& panel);
  const calculator* sweep_target(const panel_state& panel) const;
  // A background run's progress bar (or "working..." when its length is unknown) and Cancel.
  void draw_progress(panel_state& panel);
  void take_finished(panel_state& panel);
  void draw_popups();
  void handle_shortcuts();
  void update(panel_state& panel);
  panel_state* current_panel();
  const panel_state* current_panel() const;

  const catalogue& cat_;
  std::vector<tab_state> tabs_;
  std::string current_tab_ = "nt";
  bool select_tab_now_ = true;
  std::string last_scenario_;
  std::string status_;
  bool status_error_ = false;
  // File popups.
  enum class popup { none, open, save, export_png };
  popup open_popup_ = popup::none;
  std::string path_input_;
  file_browser browser_;
  std::optional<json> option_names_;  // AR Variable Forces options by letter, as the command reports them
  ImVec2 results_min_{0, 0}, results_max_{0, 0};
  std::optional<png_request> png_request_;
};

}  // namespace musket::gui
