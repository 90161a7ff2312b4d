// The page's engine (build-web/site/musket-web.js, run in web/worker.js): `musket_run` takes the
// words after `musket` as a JSON array and runs them through cli/main.cpp itself, compiled in here
// with its main() renamed, so the page gets the CLI's dispatch, checks, documents and one-line
// errors unchanged. What the CLI writes to stdout and stderr the worker collects; the return value
// is the CLI's exit code.
#include <emscripten/emscripten.h>

#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#define main musket_cli_main
#include "cli/main.cpp"  // NOLINT(bugprone-suspicious-include)
#undef main

extern "C" EMSCRIPTEN_KEEPALIVE int musket_run(const char* words_json) {
  std::vector<std::string> words{"musket"};
  try {
    for (const auto& word : nlohmann::json::parse(words_json)) words.push_back(word.get<std::string>());
  } catch (const nlohmann::json::exception&) {
    std::cerr << "musket: the page passed a malformed command line\n";
    return 1;
  }
  std::vector<char*> argv;
  for (auto& word : words) argv.push_back(word.data());
  argv.push_back(nullptr);
  std::cout.clear();
  const int code = musket_cli_main(static_cast<int>(words.size()), argv.data());
  std::cout.flush();
  std::cerr.flush();
  std::fflush(stdout);
  std::fflush(stderr);
  return code;
}
