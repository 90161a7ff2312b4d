// American Revolution: one CRT resolution (odds, the column's six entries, the three outcomes
// with loss order) and the bounds a report needs. Target: under 10 microseconds (DESIGN.md).
#include <benchmark/benchmark.h>

#include "calc/revolution/combat.hpp"
#include "calc/revolution/movement.hpp"

namespace {

namespace ar = musket::revolution;

const ar::crt_table& table() {
  static const ar::crt_table t = ar::load_crt({std::string(MUSKET_DATA_DIR) + "/ar/crt.json", ""});
  return t;
}

ar::battle_setup setup(const char* attacker, const char* defender) {
  ar::battle_setup s;
  s.attacker = ar::parse_force(attacker, "attacker");
  s.defender = ar::parse_force(defender, "defender");
  return s;
}

// 23 v 11 at 2:1, every entry known.
void BM_ArCrtResolution(benchmark::State& state) {
  const auto s = setup("15M,8C", "3T,8B");
  for (auto _ : state) {
    auto res = ar::resolve_battle(table(), s);
    benchmark::DoNotOptimize(res);
  }
}
BENCHMARK(BM_ArCrtResolution);

// 33C v 11B at 3:1 with the unknown row 6: resolution plus Major Success, Partial Withdrawal and
// both loss distributions as exact bounds.
void BM_ArCrtResolutionWithBounds(benchmark::State& state) {
  const auto s = setup("33C", "11B");
  for (auto _ : state) {
    const auto res = ar::resolve_battle(table(), s);
    auto ms = res.major_success();
    auto pw = res.partial_withdrawal();
    auto def = ar::defender_loss_bounds(res);
    auto att = ar::attacker_loss_bounds(res);
    benchmark::DoNotOptimize(ms);
    benchmark::DoNotOptimize(pw);
    benchmark::DoNotOptimize(def);
    benchmark::DoNotOptimize(att);
  }
}
BENCHMARK(BM_ArCrtResolutionWithBounds);

void BM_ArMovement(benchmark::State& state) {
  for (auto _ : state) {
    auto res = ar::british_movement(5, 3);
    benchmark::DoNotOptimize(res);
  }
}
BENCHMARK(BM_ArMovement);

}  // namespace
