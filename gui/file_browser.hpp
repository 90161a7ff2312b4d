#pragma once
// A small file browser for File > Open (Debian packages no native file dialog for Dear ImGui):
// one folder's sub-folders and files, filtered to .json and by name, plus the recent files.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace musket::gui {

class file_browser {
 public:
  // Shows the folder holding `path` (or the working folder when it has none).
  void show_folder_of(const std::string& path);
  // Draws the browser in the current window. A click puts the file's path in `path`; a double
  // click (or a recent file's button) returns it, to be opened.
  std::optional<std::string> draw(std::string& path);
  // Most recent first, at most `most_recent` of them, each once.
  void remember(const std::string& path);
  const std::vector<std::string>& recent() const { return recent_; }
  void set_recent(std::vector<std::string> files);
  static constexpr std::size_t most_recent = 8;

 private:
  struct entry {
    std::string name;
    bool folder = false;
  };
  void list();
  std::filesystem::path folder_ = ".";
  std::string filter_;
  bool json_only_ = true;
  std::vector<entry> entries_;
  std::string listing_error_;
  bool stale_ = true;
  std::vector<std::string> recent_;
};

// The entries of a folder for the browser: sub-folders first, then files, each sorted by name;
// files kept when their name contains `filter` and (with `json_only`) ends in ".json". Throws
// std::filesystem::filesystem_error when the folder cannot be read.
std::vector<std::pair<std::string, bool>> folder_entries(const std::filesystem::path& folder, const std::string& filter,
                                                         bool json_only);

}  // namespace musket::gui
