#include "cli/data_location.hpp"

#include <cstdlib>
#include <system_error>

namespace musket::cli {

namespace fs = std::filesystem;

namespace {

fs::path executable_directory() {
  std::error_code error;
  const fs::path exe = fs::read_symlink("/proc/self/exe", error);
  return error ? fs::path{} : exe.parent_path();
}

bool is_folder(const fs::path& p) {
  std::error_code error;
  return fs::is_directory(p, error);
}

}  // namespace

fs::path data_directory() {
  if (const char* env = std::getenv("MUSKET_DATA_DIR"); env && *env) {
    if (!is_folder(env))
      throw data_not_found(std::string("MUSKET_DATA_DIR=") + env + " is not a readable folder of game data");
    return env;
  }
  const fs::path exe_dir = executable_directory();
  if (!exe_dir.empty()) {
    const fs::path installed = exe_dir.parent_path() / "share" / "musket" / "data";
    if (is_folder(installed)) return installed;
    // A build tree: tests sit a few folders below build/, the programs in build/ itself.
    for (fs::path dir = exe_dir; !dir.empty(); dir = dir.parent_path()) {
      const fs::path candidate = dir / "share" / "musket" / "data";
      if (is_folder(candidate)) return candidate;
      if (dir == dir.parent_path()) break;
    }
  }
  throw data_not_found(
      "cannot find the game data: set MUSKET_DATA_DIR to the data folder, or install musket "
      "(it looks in <exe>/../share/musket/data)");
}

std::string game_data_directory(const std::string& game) {
  return (data_directory() / game).string();
}

}  // namespace musket::cli
