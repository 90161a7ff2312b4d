#include "gui/file_browser.hpp"

#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>

namespace musket::gui {

namespace fs = std::filesystem;

std::vector<std::pair<std::string, bool>> folder_entries(const fs::path& folder, const std::string& filter,
                                                         bool json_only) {
  std::vector<std::pair<std::string, bool>> folders, files;
  for (const auto& e : fs::directory_iterator(folder, fs::directory_options::skip_permission_denied)) {
    const std::string name = e.path().filename().string();
    if (name.empty() || name[0] == '.') continue;  // hidden
    std::error_code ignored;
    if (e.is_directory(ignored)) {
      folders.push_back({name, true});
    } else if ((!json_only || e.path().extension() == ".json") &&
               (filter.empty() || name.find(filter) != std::string::npos)) {
      files.push_back({name, false});
    }
  }
  std::sort(folders.begin(), folders.end());
  std::sort(files.begin(), files.end());
  folders.insert(folders.end(), files.begin(), files.end());
  return folders;
}

void file_browser::show_folder_of(const std::string& path) {
  std::error_code ignored;
  fs::path p = path.empty() ? fs::current_path(ignored) : fs::path(path);
  if (!fs::is_directory(p, ignored)) p = p.parent_path();
  if (p.empty()) p = fs::current_path(ignored);
  folder_ = fs::absolute(p, ignored).lexically_normal();
  stale_ = true;
}

void file_browser::remember(const std::string& path) {
  std::error_code ignored;
  const std::string full = fs::absolute(path, ignored).lexically_normal().string();
  recent_.erase(std::remove(recent_.begin(), recent_.end(), full), recent_.end());
  recent_.insert(recent_.begin(), full);
  if (recent_.size() > most_recent) recent_.resize(most_recent);
}

void file_browser::set_recent(std::vector<std::string> files) {
  // Files already opened in this run stay the most recent.
  const std::vector<std::string> now = recent_;
  recent_.clear();
  for (auto it = files.rbegin(); it != files.rend(); ++it) remember(*it);
  for (auto it = now.rbegin(); it != now.rend(); ++it) remember(*it);
}

void file_browser::list() {
  entries_.clear();
  listing_error_.clear();
  try {
    for (auto& [name, folder] : folder_entries(folder_, filter_, json_only_)) entries_.push_back({name, folder});
  } catch (const fs::filesystem_error& e) {
    listing_error_ = "cannot list " + folder_.string() + ": " + e.code().message();
  }
  stale_ = false;
}

std::optional<std::string> file_browser::draw(std::string& path) {
  std::optional<std::string> chosen;
  if (stale_) list();
  ImGui::PushID("file browser");
  ImGui::TextDisabled("%s", folder_.string().c_str());
  if (ImGui::Button("Up") && folder_.has_parent_path()) {
    folder_ = folder_.parent_path();
    stale_ = true;
  }
  ImGui::SameLine();
  ImGui::SetNextItemWidth(200);
  if (ImGui::InputTextWithHint("##filter", "filter by name", &filter_)) stale_ = true;
  ImGui::SameLine();
  if (ImGui::Checkbox(".json only", &json_only_)) stale_ = true;
  if (!listing_error_.empty()) ImGui::TextColored(ImVec4(1.0f, 0.35f, 0.35f, 1.0f), "%s", listing_error_.c_str());
  if (ImGui::BeginListBox("##entries", ImVec2(520, 10 * ImGui::GetTextLineHeightWithSpacing()))) {
    std::optional<fs::path> into;
    for (const auto& e : entries_) {
      const std::string label = e.folder ? e.name + "/" : e.name;
      const std::string full = (folder_ / e.name).string();
      if (ImGui::Selectable(label.c_str(), !e.folder && path == full, ImGuiSelectableFlags_AllowDoubleClick)) {
        if (e.folder) {
          into = folder_ / e.name;
        } else {
          path = full;
          if (ImGui::IsMouseDoubleClicked(0)) chosen = full;
        }
      }
    }
    ImGui::EndListBox();
    if (into) {
      folder_ = *into;
      stale_ = true;
    }
  }
  if (!recent_.empty()) {
    ImGui::TextDisabled("Recent files:");
    for (std::size_t i = 0; i < recent_.size(); ++i) {
      ImGui::PushID(static_cast<int>(i));
      if (ImGui::SmallButton(recent_[i].c_str())) chosen = recent_[i];
      ImGui::PopID();
    }
  }
  ImGui::PopID();
  return chosen;
}

}  // namespace musket::gui
