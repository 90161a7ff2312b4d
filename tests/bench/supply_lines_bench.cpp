// Supply Lines performance targets (DESIGN.md): one battle under 10 microseconds; the full
// commitment table for 0..12 x 0..12 War Supplies under 5 ms.
#include <benchmark/benchmark.h>

#include "calc/supply_lines/battle.hpp"
#include "calc/supply_lines/commitment.hpp"
#include "cli/supply_lines_report.hpp"
#include "core/distribution_stats.hpp"

namespace sl = musket::supply_lines;

namespace {
sl::battle_setup readme_battle() {
  sl::battle_setup s;
  s.attacker = sl::side::crown;
  s.where = sl::terrain::city;
  s.attacker_units = 6;
  s.attacker_leaders = 1;
  s.attacker_war_supplies = 5;
  s.defender_units = 4;
  s.defender_leaders = 1;
  s.defender_war_supplies = 3;
  return s;
}
}  // namespace

static void BM_SupplyLinesBattleExact(benchmark::State& state) {
  const auto s = readme_battle();
  for (auto _ : state) benchmark::DoNotOptimize(sl::resolve_battle<musket::rational>(sl::northern_theater(), s));
}
BENCHMARK(BM_SupplyLinesBattleExact);

static void BM_SupplyLinesBattleDouble(benchmark::State& state) {
  const auto s = readme_battle();
  for (auto _ : state) benchmark::DoNotOptimize(sl::resolve_battle<double>(sl::northern_theater(), s));
}
BENCHMARK(BM_SupplyLinesBattleDouble);

// The same battle with the statistics every document carries (issue 16): exact mean, variance,
// quantiles and at-least / at-most of its three distributions.
static void BM_SupplyLinesBattleExactWithStats(benchmark::State& state) {
  const auto s = readme_battle();
  for (auto _ : state) {
    const auto res = sl::resolve_battle<musket::rational>(sl::northern_theater(), s);
    benchmark::DoNotOptimize(musket::describe(res.attacker_losses));
    benchmark::DoNotOptimize(musket::describe(res.defender_losses));
    benchmark::DoNotOptimize(musket::describe(res.track_shift));
  }
}
BENCHMARK(BM_SupplyLinesBattleExactWithStats);

// The statistics alone, of the battle's three distributions already resolved: their cost over the
// battle's (issue 16).
static void BM_SupplyLinesBattleStatsOnly(benchmark::State& state) {
  const auto res = sl::resolve_battle<musket::rational>(sl::northern_theater(), readme_battle());
  for (auto _ : state) {
    benchmark::DoNotOptimize(musket::describe(res.attacker_losses));
    benchmark::DoNotOptimize(musket::describe(res.defender_losses));
    benchmark::DoNotOptimize(musket::describe(res.track_shift));
  }
}
BENCHMARK(BM_SupplyLinesBattleStatsOnly);

// The whole JSON document `musket nt battle --format json` prints, stats and fractions included.
static void BM_SupplyLinesBattleDocument(benchmark::State& state) {
  const auto s = readme_battle();
  for (auto _ : state) {
    const auto res = sl::resolve_battle<musket::rational>(sl::northern_theater(), s);
    benchmark::DoNotOptimize(musket::cli::battle_results(sl::northern_theater(), res, std::nullopt, true));
  }
}
BENCHMARK(BM_SupplyLinesBattleDocument);

// A large battle: 12 v 12 dice at a point.
static void BM_SupplyLinesBattleExactLarge(benchmark::State& state) {
  auto s = readme_battle();
  s.where = sl::terrain::point;
  s.attacker_units = 20;
  s.defender_units = 15;
  s.attacker_war_supplies = 12;
  s.defender_war_supplies = 12;
  for (auto _ : state) benchmark::DoNotOptimize(sl::resolve_battle<musket::rational>(sl::northern_theater(), s));
}
BENCHMARK(BM_SupplyLinesBattleExactLarge);

static void BM_SupplyLinesCommitTable12x12(benchmark::State& state) {
  const auto s = readme_battle();
  for (auto _ : state)
    benchmark::DoNotOptimize(sl::best_commitment(sl::northern_theater(), s, 12, 12, sl::commit_objective::dislodge));
}
BENCHMARK(BM_SupplyLinesCommitTable12x12)->Unit(benchmark::kMillisecond);

static void BM_SupplyLinesSimulatedBattles(benchmark::State& state) {
  const auto s = readme_battle();
  musket::simulation_options options;
  options.trials = 100'000;
  options.threads = 1;
  for (auto _ : state) benchmark::DoNotOptimize(sl::simulate_battle(sl::northern_theater(), s, options));
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(options.trials));
}
BENCHMARK(BM_SupplyLinesSimulatedBattles)->Unit(benchmark::kMillisecond);
