#pragma once
// Shared fixtures for the American Revolution tests: the shipped data files and a scratch file.
#include <filesystem>
#include <fstream>
#include <string>

#include "calc/revolution/crt.hpp"

namespace musket::revolution::test {

inline std::string shipped(const std::string& name) {
  return std::string(MUSKET_AR_DATA) + "/" + name;
}
inline const crt_table& shipped_crt() {
  static const crt_table table = load_crt({shipped("crt.json"), ""});
  return table;
}
// Writes `text` to a file in the temp directory and returns its path.
inline std::string scratch_file(const std::string& name, const std::string& text) {
  const auto path = std::filesystem::temp_directory_path() / ("musket_ar_test_" + name);
  std::ofstream(path) << text;
  return path.string();
}

}  // namespace musket::revolution::test
