#pragma once
// Runs the built `musket` binary as a user would and captures what it prints.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <string>

struct musket_run {
  int exit_code = -1;
  std::string out;
  std::string err;
};

inline std::string slurp(const std::string& path) {
  std::string text;
  if (FILE* f = std::fopen(path.c_str(), "r")) {
    std::array<char, 4096> buffer{};
    std::size_t n;
    while ((n = std::fread(buffer.data(), 1, buffer.size(), f)) > 0) text.append(buffer.data(), n);
    std::fclose(f);
  }
  return text;
}

// `environment`: assignments put before the command ("MUSKET_DATA_DIR=/x"), for this run only.
inline musket_run run_musket(const std::string& arguments, const std::string& environment = "") {
  // The process id keeps test binaries that ctest runs side by side (-j) off each other's files.
  static int counter = 0;
  const std::string err_path =
      ::testing::TempDir() + "musket_stderr_" + std::to_string(getpid()) + "_" + std::to_string(++counter);
  const std::string command = environment + " " + std::string(MUSKET_BINARY) + " " + arguments + " 2>" + err_path;
  musket_run run;
  FILE* pipe = popen(command.c_str(), "r");
  if (!pipe) return run;
  std::array<char, 4096> buffer{};
  std::size_t n;
  while ((n = std::fread(buffer.data(), 1, buffer.size(), pipe)) > 0) run.out.append(buffer.data(), n);
  const int status = pclose(pipe);
  run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  run.err = slurp(err_path);
  std::remove(err_path.c_str());
  return run;
}
