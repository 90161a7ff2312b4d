#pragma once
// musket-gui's ImGui configuration (IMGUI_USER_CONFIG, set in gui/CMakeLists.txt): ImGui's own
// checks stay live in every build, Release included, instead of compiling out with NDEBUG. A
// failed check names itself on stderr and aborts, so a test that renders the dashboard fails
// (Debian's prebuilt libimgui.a keeps its assert()s live too: it is built without NDEBUG).
namespace musket::gui {
[[noreturn]] void imgui_check_failed(const char* expression, const char* file, int line);
}
#define IM_ASSERT(_EXPR) ((_EXPR) ? (void)0 : ::musket::gui::imgui_check_failed(#_EXPR, __FILE__, __LINE__))
