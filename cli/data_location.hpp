#pragma once
// Where the game data (data/ar, data/gl) is found, for `musket`, `musket-gui` and the tests that
// run them. No source path is compiled in, so a moved or installed binary finds its data:
//   1. $MUSKET_DATA_DIR, when set (the user's corrected tables);
//   2. <exe>/../share/musket/data: an installed tree (bin/musket beside share/musket/data);
//   3. share/musket/data in the executable's folder or one of its parents: a build tree, where
//      CMake links build/share/musket/data to the source tree's data/.
#include <filesystem>
#include <string>

namespace musket::cli {

// The data directory (an existing folder). Throws data_not_found when none of the places above
// has one.
std::filesystem::path data_directory();

// One game's data folder: data_directory() / game ("ar", "gl").
std::string game_data_directory(const std::string& game);

// The data directory could not be found: an environment problem, not a typo in the input.
class data_not_found : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace musket::cli
