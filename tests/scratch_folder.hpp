#pragma once
// A test process's scratch folder under the test temp directory: made on first use, removed with
// what it holds when the process ends. ctest runs each test as its own process, so a folder per
// process left behind was hundreds a run.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <string>
#include <system_error>

namespace musket::testing {

inline std::filesystem::path scratch_folder() {
  struct folder {
    std::filesystem::path path;
    ~folder() {
      std::error_code ignored;  // (nothing to report at exit: a folder not removed is only litter)
      std::filesystem::remove_all(path, ignored);
    }
  };
  static const folder made{std::filesystem::path(::testing::TempDir()) / ("musket_test_" + std::to_string(::getpid()))};
  std::filesystem::create_directories(made.path);
  return made.path;
}

}  // namespace musket::testing
