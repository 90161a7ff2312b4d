#pragma once
// The fuzz targets' bodies, one per parser. Each takes arbitrary bytes and returns 0; a thrown
// invalid_input is the parser doing its job and is handled here. Anything else (another
// exception, a crash, a sanitizer report, a hang) is a finding. The same bodies run under
// libFuzzer (-DMUSKET_FUZZ=ON, fuzz_entry.cpp) and, in the normal suite, over every corpus and
// regression file (replay_test.cpp).
#include <string>
#include <string_view>
#include <vector>

namespace musket::fuzz {

int json_input(std::string_view bytes);     // core: depth, numbers, syntax
int gl_scenario(std::string_view bytes);    // a Great Lakes battle file (gl battle --scenario)
int campaign_plan(std::string_view bytes);  // nt/ss, ar and gl campaign plans
int ar_data(std::string_view bytes);        // the AR Combat Results Table (--crt), Levy Chart (--chart)
int spec_strings(std::string_view bytes);   // unit specs, forces, policies, --vary ranges
int sweep_vary(std::string_view bytes);     // the whole --vary grammar and the field editors
int chart_text(std::string_view bytes);     // a chart's texts: well-formed SVG or a clean refusal

struct target {
  const char* name;
  int (*run)(std::string_view);
};
const std::vector<target>& all_targets();

}  // namespace musket::fuzz
