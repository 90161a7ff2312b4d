// musket-gui: the dashboard's window, settings and screenshot mode.
//   musket-gui [--tab nt|ss|ar|gl] [--scenario FILE] [--scale S]
//   musket-gui --screenshot OUT.png [--tab T] [--scenario FILE] [--frames N] [--size WxH] [--dump-results FILE.json]
//              [--scroll top|bottom|FRACTION] [--visit-all]
// Exit codes: 0 done, 2 bad command line or scenario file, 3 no display / no OpenGL 3.3 context;
// a failed ImGui check aborts (134) after naming itself (gui/imgui_config.hpp).
#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>
#include <imgui_internal.h>  // every window's scroll, for --scroll
// The OpenGL 3 backend's own loader (imgl3w) stands in for glad, which Debian does not package.
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <imgui_impl_opengl3_loader.h>
#include <stb_image_write.h>

#include <algorithm>
#include <cfloat>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "cli/version.hpp"
#include "core/invalid_input.hpp"
#include "core/json_input.hpp"
#include "gui/app.hpp"
#include "gui/layout_log.hpp"
#include "gui/model.hpp"

namespace {

using musket::gui::json;

struct options {
  std::optional<std::string> screenshot;
  std::optional<std::string> tab;
  std::optional<std::string> panel;  // a calculator of the tab, by its command ("navy-return")
  std::optional<std::string> scenario;
  std::optional<std::string> dump;
  std::optional<std::string> export_panel;
  int frames = 6;
  bool frames_given = false;
  // Screenshot mode: first show every calculator of every tab, with each method it offers (a smoke test).
  bool visit_all = false;
  bool mid_run = false;  // screenshot mode: take the picture while the calculator still runs
  // Screenshot mode: record where labels and bars are drawn in every frame and list, in the
  // --dump-results file, each label that overlaps a bar or another label, and each label cut short
  // (gui/layout_log.hpp).
  bool check_overlap = false;
  std::optional<float> scroll;  // screenshot mode: every scrolling region scrolled to this fraction (0 top, 1 bottom)
  int width = 1280, height = 800;
  std::optional<float> scale;
  std::optional<ImVec2> hover;  // screenshot mode: where the mouse rests (default: off the window)
};

const char* usage =
    "usage: musket-gui [--tab nt|ss|ar|gl [--panel COMMAND]] [--scenario FILE] [--scale S] [--frames N (then quit)]\n"
    "       musket-gui --screenshot OUT.png [--tab nt|ss|ar|gl] [--scenario FILE] [--frames N] [--size WxH]\n"
    "                  [--dump-results FILE.json] [--export-panel FILE.png] [--hover X,Y] [--visit-all]\n"
    "                  [--scroll top|bottom|FRACTION] [--mid-run] [--check-overlap]\n"
    "       musket-gui --version\n";

int fail(const std::string& message) {
  std::cerr << "musket-gui: " << message << "\n";
  return 2;
}

// Parses the command line; returns an exit code to stop with, or nothing to go on.
std::optional<int> parse(int argc, char** argv, options& o) {
  const std::vector<std::string> args(argv + 1, argv + argc);
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto value = [&](const char* name) -> std::optional<std::string> {
      if (i + 1 >= args.size()) return std::nullopt;
      (void)name;
      return args[++i];
    };
    if (a == "--visit-all") {
      o.visit_all = true;
      continue;
    }
    if (a == "--mid-run") {
      o.mid_run = true;
      continue;
    }
    if (a == "--check-overlap") {
      o.check_overlap = true;
      continue;
    }
    if (a == "--help" || a == "-h") {
      std::cout << usage;
      return 0;
    }
    if (a == "--version") {
      std::cout << musket::cli::version_line("musket-gui") << "\n";
      return 0;
    }
    std::optional<std::string> v;
    if (a == "--screenshot" || a == "--tab" || a == "--panel" || a == "--scenario" || a == "--frames" ||
        a == "--dump-results" || a == "--export-panel" || a == "--size" || a == "--scale" || a == "--hover" ||
        a == "--scroll") {
      v = value(a.c_str());
      if (!v) return fail(a + " needs a value\n" + usage);
    } else {
      return fail("unknown argument '" + a + "'\n" + usage);
    }
    try {
      if (a == "--screenshot")
        o.screenshot = *v;
      else if (a == "--tab") {
        if (*v != "nt" && *v != "ss" && *v != "ar" && *v != "gl")
          return fail("--tab: '" + *v + "' is not a tab; allowed: nt, ss, ar, gl");
        o.tab = *v;
      } else if (a == "--panel")
        o.panel = *v;
      else if (a == "--scenario")
        o.scenario = *v;
      else if (a == "--dump-results")
        o.dump = *v;
      else if (a == "--export-panel")
        o.export_panel = *v;
      else if (a == "--frames") {
        o.frames = std::stoi(*v);
        o.frames_given = true;
        if (o.frames < 1 || o.frames > 1000) return fail("--frames: " + *v + " is out of range; allowed 1..1000");
      } else if (a == "--scale") {
        o.scale = std::stof(*v);
        if (!(*o.scale >= 0.5f && *o.scale <= 3.0f)) return fail("--scale: " + *v + " is out of range; allowed 0.5..3");
      } else if (a == "--scroll") {
        o.scroll = *v == "top" ? 0.0f : *v == "bottom" ? 1.0f : std::stof(*v);
        if (!(*o.scroll >= 0.0f && *o.scroll <= 1.0f))
          return fail("--scroll: " + *v + " is out of range; allowed top, bottom or a fraction 0..1");
      } else if (a == "--hover") {
        const auto comma = v->find(',');
        if (comma == std::string::npos) return fail("--hover: '" + *v + "' is not X,Y");
        o.hover = ImVec2(std::stof(v->substr(0, comma)), std::stof(v->substr(comma + 1)));
      } else if (a == "--size") {
        const auto x = v->find('x');
        if (x == std::string::npos) return fail("--size: '" + *v + "' is not WIDTHxHEIGHT");
        o.width = std::stoi(v->substr(0, x));
        o.height = std::stoi(v->substr(x + 1));
        if (o.width < 320 || o.width > 8192 || o.height < 240 || o.height > 8192)
          return fail("--size: " + *v + " is out of range; allowed 320x240..8192x8192");
      }
    } catch (const std::exception&) {
      return fail(a + ": '" + *v + "' is not a number");
    }
  }
  if ((o.dump || o.export_panel || o.visit_all || o.scroll || o.mid_run || o.check_overlap) && !o.screenshot)
    return fail(
        "--dump-results, --export-panel, --visit-all, --scroll, --mid-run and --check-overlap go with --screenshot");
  return std::nullopt;
}

// Where settings live: $MUSKET_GUI_CONFIG_DIR, else $XDG_CONFIG_HOME/musket, else ~/.config/musket.
std::filesystem::path config_dir() {
  if (const char* d = std::getenv("MUSKET_GUI_CONFIG_DIR"); d && *d) return d;
  if (const char* x = std::getenv("XDG_CONFIG_HOME"); x && *x) return std::filesystem::path(x) / "musket";
  if (const char* h = std::getenv("HOME"); h && *h) return std::filesystem::path(h) / ".config" / "musket";
  return ".";
}

struct settings {
  int width = 1280, height = 800;
  std::string tab = "nt";
  std::string scenario;
  float ui_scale = 1.0f;
  std::vector<std::string> recent;  // File > Open's recent files
};

settings read_settings(const std::filesystem::path& file) {
  settings s;
  std::error_code missing;
  if (!std::filesystem::exists(file, missing)) return s;
  try {
    // Through the same size and depth limits as every input file: /dev/zero or a runaway file
    // in the settings folder is refused, not read whole.
    const nlohmann::json doc = musket::read_json_input(file.string(), "settings");
    s.width = std::clamp(doc.value("width", s.width), 320, 8192);
    s.height = std::clamp(doc.value("height", s.height), 240, 8192);
    s.tab = doc.value("tab", s.tab);
    s.scenario = doc.value("scenario", s.scenario);
    s.ui_scale = std::clamp(doc.value("ui_scale", s.ui_scale), 0.5f, 3.0f);
    if (doc.contains("recent") && doc.at("recent").is_array())
      for (const auto& f : doc.at("recent"))
        if (f.is_string()) s.recent.push_back(f.get<std::string>());
  } catch (const std::exception&) {
    // A damaged settings file is ignored: the defaults serve.
  }
  return s;
}

void write_settings(const std::filesystem::path& file, const settings& s) {
  json doc;
  doc["width"] = s.width;
  doc["height"] = s.height;
  doc["tab"] = s.tab;
  doc["scenario"] = s.scenario;
  doc["ui_scale"] = s.ui_scale;
  doc["recent"] = s.recent;
  try {
    std::filesystem::create_directories(file.parent_path());
    musket::gui::write_file_atomically(file.string(), doc.dump(2) + "\n");
  } catch (const std::exception& e) {
    std::cerr << "musket-gui: settings not saved: " << e.what() << "\n";
  }
}

void load_fonts(float scale) {
  ImGuiIO& io = ImGui::GetIO();
  io.Fonts->Clear();
  for (const char* path : {"/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", "/usr/share/fonts/TTF/DejaVuSans.ttf"}) {
    if (std::filesystem::exists(path)) {
      io.Fonts->AddFontFromFileTTF(path, 15.0f * scale);
      return;
    }
  }
  ImFontConfig config;
  config.SizePixels = 13.0f * scale;
  io.Fonts->AddFontDefault(&config);
}

void apply_style(float scale) {
  ImGui::StyleColorsDark();
  ImGuiStyle& style = ImGui::GetStyle();
  style.FrameRounding = 3.0f;
  style.TabRounding = 3.0f;
  style.ScaleAllSizes(scale);
}

// Reads the back buffer's rectangle (window coordinates, top-left origin) and writes a PNG.
bool write_png(GLFWwindow* window, const std::string& path, ImVec2 min, ImVec2 max, std::string& error) {
  int fb_w = 0, fb_h = 0, win_w = 0, win_h = 0;
  glfwGetFramebufferSize(window, &fb_w, &fb_h);
  glfwGetWindowSize(window, &win_w, &win_h);
  const float sx = win_w > 0 ? static_cast<float>(fb_w) / static_cast<float>(win_w) : 1.0f;
  const float sy = win_h > 0 ? static_cast<float>(fb_h) / static_cast<float>(win_h) : 1.0f;
  int x0 = std::clamp(static_cast<int>(min.x * sx), 0, fb_w), y0 = std::clamp(static_cast<int>(min.y * sy), 0, fb_h);
  int x1 = std::clamp(static_cast<int>(max.x * sx), 0, fb_w), y1 = std::clamp(static_cast<int>(max.y * sy), 0, fb_h);
  const int w = x1 - x0, h = y1 - y0;
  if (w <= 0 || h <= 0) {
    error = "nothing to capture";
    return false;
  }
  std::vector<unsigned char> pixels(static_cast<std::size_t>(w) * static_cast<std::size_t>(h) * 4);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadPixels(x0, fb_h - y1, w, h, GL_RGBA, GL_UNSIGNED_BYTE, pixels.data());
  // OpenGL rows run bottom-up; PNG rows top-down. Drop alpha: the picture is opaque.
  std::vector<unsigned char> rgb(static_cast<std::size_t>(w) * static_cast<std::size_t>(h) * 3);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      for (int c = 0; c < 3; ++c)
        rgb[(static_cast<std::size_t>(y) * w + x) * 3 + c] =
            pixels[(static_cast<std::size_t>(h - 1 - y) * w + x) * 4 + c];
  std::string encoded;
  const auto sink = [](void* context, void* data, int size) {
    static_cast<std::string*>(context)->append(static_cast<const char*>(data), static_cast<std::size_t>(size));
  };
  if (!stbi_write_png_to_func(sink, &encoded, w, h, 3, rgb.data(), w * 3)) {
    error = "PNG encoding failed";
    return false;
  }
  try {
    musket::gui::write_file_atomically(path, encoded);
  } catch (const std::exception& e) {
    error = e.what();
    return false;
  }
  return true;
}

void glfw_error(int code, const char* description) {
  std::cerr << "musket-gui: GLFW error " << code << ": " << description << "\n";
}

// Scrolls every window and child window that can scroll (tables' own scrolling regions included)
// to `fraction` of its height, as measured in the previous frame.
void scroll_everything(float fraction) {
  for (ImGuiWindow* window : GImGui->Windows)
    if (window->ScrollMax.y > 0) ImGui::SetScrollY(window, fraction * window->ScrollMax.y);
}

}  // namespace

namespace musket::gui {
void imgui_check_failed(const char* expression, const char* file, int line) {
  std::fprintf(stderr, "musket-gui: internal error: ImGui check failed: %s (%s:%d)\n", expression, file, line);
  std::abort();
}
}  // namespace musket::gui

int main(int argc, char** argv) {
  options opt;
  if (auto code = parse(argc, argv, opt)) return *code;
  const bool screenshot = opt.screenshot.has_value();

  musket::gui::catalogue cat;
  musket::gui::app ui(cat);
  // A scenario named on the command line must load before any window is made: a bad file is
  // reported on stderr with exit code 2, display or none.
  if (opt.scenario) {
    if (auto error = ui.load(*opt.scenario)) return fail(*error);
  }

  const std::filesystem::path dir = config_dir();
  settings remembered;
  std::string ini_path;
  if (!screenshot) {
    remembered = read_settings(dir / "gui-settings.json");
    ui.set_recent_files(remembered.recent);
    if (!opt.scenario && !remembered.scenario.empty() && std::filesystem::exists(remembered.scenario))
      ui.load(remembered.scenario);  // a failure shows in the status line
    ui.select_tab(remembered.tab);
  }
  if (opt.panel) {
    const std::string game = opt.tab.value_or(ui.current_tab());
    if (auto index = ui.panel_index(game, *opt.panel))
      ui.select_panel(game, *index);
    else
      return fail("--panel: '" + *opt.panel + "' is not a calculator of the " + game +
                  " tab; allowed: " + ui.panel_commands(game));
  } else if (opt.tab)
    ui.select_tab(*opt.tab);
  else if (opt.scenario) { /* the scenario chose its tab */
  }
  ui.ui_scale = opt.scale.value_or(screenshot ? 1.0f : remembered.ui_scale);

  glfwSetErrorCallback(glfw_error);
  if (!glfwInit()) {
    std::cerr << "musket-gui: no display (GLFW could not start); run under xvfb-run for a headless screenshot\n";
    return 3;
  }
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
  glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
  glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
  const int width = screenshot ? opt.width : remembered.width;
  const int height = screenshot ? opt.height : remembered.height;
  if (screenshot) glfwWindowHint(GLFW_RESIZABLE, GLFW_FALSE);
  GLFWwindow* window = glfwCreateWindow(width, height, "Musket: battle odds", nullptr, nullptr);
  if (!window) {
    std::cerr << "musket-gui: no OpenGL 3.3 core context could be made on this display\n";
    glfwTerminate();
    return 3;
  }
  glfwMakeContextCurrent(window);
  glfwSwapInterval(screenshot ? 0 : 1);

  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  if (screenshot) {
    io.IniFilename = nullptr;  // a screenshot neither reads nor writes the user's layout
  } else {
    std::error_code ignored;
    std::filesystem::create_directories(dir, ignored);
    ini_path = (dir / "imgui.ini").string();
    io.IniFilename = ini_path.c_str();
  }
  float font_scale = ui.ui_scale;
  load_fonts(font_scale);
  apply_style(font_scale);
  ImGui_ImplGlfw_InitForOpenGL(window, true);
  ImGui_ImplOpenGL3_Init("#version 330 core");

  // `rasterise` false: the frame is laid out and ImGui's draw lists built (every ImGui check runs),
  // but no pixel is drawn (--visit-all's many frames, on a software rasteriser).
  auto render_frame = [&](bool capture, const std::string& capture_path, std::string& capture_error,
                          bool rasterise = true) -> bool {
    const auto start = std::chrono::steady_clock::now();
    glfwPollEvents();
    if (ui.ui_scale_changed) {
      ui.ui_scale_changed = false;
      font_scale = ui.ui_scale;
      load_fonts(font_scale);
      apply_style(font_scale);
      ImGui_ImplOpenGL3_DestroyFontsTexture();
      ImGui_ImplOpenGL3_CreateFontsTexture();
    }
    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplGlfw_NewFrame();
    if (screenshot) io.MousePos = opt.hover.value_or(ImVec2(-FLT_MAX, -FLT_MAX));
    ImGui::NewFrame();
    if (opt.scroll) scroll_everything(*opt.scroll);
    ui.draw();
    ImGui::Render();
    if (!rasterise) return true;
    int fb_w = 0, fb_h = 0;
    glfwGetFramebufferSize(window, &fb_w, &fb_h);
    glViewport(0, 0, fb_w, fb_h);
    glClearColor(0.08f, 0.08f, 0.10f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
    const double this_frame =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    ui.frame_ms = ui.frame_ms == 0 ? this_frame : 0.9 * ui.frame_ms + 0.1 * this_frame;
    bool ok = true;
    if (capture) {
      int w = 0, h = 0;
      glfwGetWindowSize(window, &w, &h);
      ok = write_png(window, capture_path, ImVec2(0, 0), ImVec2(static_cast<float>(w), static_cast<float>(h)),
                     capture_error);
    }
    if (auto request = ui.take_png_request()) {
      std::string error;
      if (write_png(window, request->path, request->min, request->max, error)) {
        ui.report_status("results exported to " + request->path, false);
      } else {
        ui.report_status("export failed: " + error, true);
        if (screenshot) {
          std::cerr << "musket-gui: cannot export " << request->path << ": " << error << "\n";
          ok = false;
        }
      }
    }
    glfwSwapBuffers(window);
    return ok;
  };

  int exit_code = 0;
  // --check-overlap: every overlap seen in any frame, once each, with where it was seen.
  musket::gui::set_layout_logging(opt.check_overlap);
  std::vector<std::string> overlaps, truncated;
  auto note_overlaps = [&](const std::string& where) {
    for (const auto& o : musket::gui::layout_overlaps()) {
      const std::string line = where + ": " + o;
      if (std::find(overlaps.begin(), overlaps.end(), line) == overlaps.end()) overlaps.push_back(line);
    }
    for (const auto& o : musket::gui::layout_truncations()) {
      const std::string line = where + ": " + o;
      if (std::find(truncated.begin(), truncated.end(), line) == truncated.end()) truncated.push_back(line);
    }
  };
  if (screenshot) {
    std::string error;
    if (opt.visit_all) {
      const std::string start_tab = ui.current_tab();
      // Each calculator with each method it offers: its first frame computes, the next ones draw
      // the results and (with --scroll) scroll to them.
      for (const auto& t : musket::gui::all_tabs)
        for (std::size_t p = 0; ui.select_panel(t.code, p); ++p) {
          const std::vector<std::string> methods = ui.panel_methods(t.code, p);
          const musket::gui::json kept = ui.panel_values(t.code, p);
          for (std::size_t m = 0; m < std::max<std::size_t>(methods.size(), 1); ++m) {
            if (!methods.empty()) ui.try_method(t.code, p, methods[m]);
            for (int i = 0; i < 3; ++i) {
              render_frame(false, "", error, false);
              note_overlaps(std::string(t.code) + " " + ui.panel_command(t.code, p) +
                            (methods.empty() ? "" : " --method " + methods[m]));
              ui.settle(true);
            }
          }
          ui.set_panel_values(t.code, p, kept);
        }
      for (const auto& t : musket::gui::all_tabs) ui.select_panel(t.code, 0);
      ui.select_tab(opt.tab.value_or(start_tab));
    }
    for (int i = 0; i < opt.frames; ++i) {
      render_frame(false, "", error);
      note_overlaps(ui.current_tab());
      ui.settle(!opt.mid_run);  // a simulated battle finishes before the picture is taken
    }
    // --mid-run: the picture is taken while the run goes on, once it has reported some progress.
    const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (opt.mid_run && !ui.progress().is_object() && std::chrono::steady_clock::now() < give_up) {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
      render_frame(false, "", error, false);
      ui.settle(false);
    }
    if (opt.mid_run) render_frame(false, "", error);          // the bar as it stands now
    if (opt.export_panel) ui.request_png(*opt.export_panel);  // the Ctrl+E path, on the last frame
    if (!render_frame(true, *opt.screenshot, error)) {
      std::cerr << "musket-gui: cannot write " << *opt.screenshot << ": " << error << "\n";
      exit_code = 1;
    }
    if (opt.dump && exit_code == 0) {
      try {
        musket::gui::json doc = ui.results_document();
        if (opt.check_overlap) {
          note_overlaps(ui.current_tab());  // the picture's own frame
          doc["overlaps"] = overlaps;
          doc["truncated"] = truncated;
          doc["bars"] = musket::gui::layout_bars();
        }
        musket::gui::write_file_atomically(*opt.dump, doc.dump(2) + "\n");
      } catch (const std::exception& e) {
        std::cerr << "musket-gui: " << e.what() << "\n";
        exit_code = 1;
      }
    }
  } else {
    std::string unused;
    for (int frame = 0; !glfwWindowShouldClose(window) && !ui.quit_requested; ++frame) {
      if (opt.frames_given && frame >= opt.frames) break;
      render_frame(false, "", unused);
    }
    settings now;
    glfwGetWindowSize(window, &now.width, &now.height);
    now.tab = ui.current_tab();
    now.scenario =
        ui.last_scenario().empty() ? remembered.scenario : std::filesystem::absolute(ui.last_scenario()).string();
    now.ui_scale = ui.ui_scale;
    now.recent = ui.recent_files();
    write_settings(dir / "gui-settings.json", now);
  }

  ImGui_ImplOpenGL3_Shutdown();
  ImGui_ImplGlfw_Shutdown();
  ImGui::DestroyContext();
  glfwDestroyWindow(window);
  glfwTerminate();
  if (ui.running_threads() > 0) {
    // A run that ignored Cancel may have minutes left: settings are saved and the window is
    // gone, so end the process now rather than wait for it.
    std::fflush(nullptr);
    std::_Exit(exit_code);
  }
  return exit_code;
}
