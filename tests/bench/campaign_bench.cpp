// Campaign benchmarks (issue 6): a 5-step Supply Lines chain carried exactly (rational), and the
// same chain simulated (campaigns per second).
#include <benchmark/benchmark.h>

#include "calc/campaign/supply_lines_campaign.hpp"

namespace cp = musket::campaign;

namespace {
cp::supply_lines_plan five_step_plan() {
  const nlohmann::json plan = {{"game", "nt"},
                               {"side", "crown"},
                               {"army", {{"units", 9}, {"leaders", 1}, {"war", 12}, {"food", 12}}},
                               {"track", {{"position", 4}, {"lowest", 0}, {"highest", 10}}},
                               {"steps",
                                {{{"kind", "march"}},
                                 {{"kind", "attack"},
                                  {"terrain", "fort"},
                                  {"war", {{"field", "war"}, {"at_most", 6}}},
                                  {"enemy", {{"units", 5}, {"leaders", 1}, {"war", 4}, {"dug_in", true}}},
                                  {"stop_if", {"lost", {{"field", "units"}, {"below", 4}}}}},
                                 {{"kind", "march"}, {"skip_if", {{"field", "food"}, {"below", 3}}}},
                                 {{"kind", "defend"},
                                  {"terrain", "point"},
                                  {"war", {{"field", "war"}, {"at_most", 2}}},
                                  {"enemy", {{"units", 2}, {"leaders", 1}, {"war", 2}}}},
                                 {{"kind", "attack"},
                                  {"terrain", "city"},
                                  {"war", "all"},
                                  {"enemy", {{"units", 4}, {"leaders", 1}, {"war", 3}}}}}}};
  return cp::parse_supply_lines_plan(plan, "bench", "nt");
}
}  // namespace

static void BM_SupplyLinesFiveStepChainExact(benchmark::State& state) {
  const auto plan = five_step_plan();
  cp::campaign_options o;
  o.method = "exact";
  for (auto _ : state) benchmark::DoNotOptimize(cp::run_supply_lines_campaign(plan, o));
}
BENCHMARK(BM_SupplyLinesFiveStepChainExact)->Unit(benchmark::kMillisecond);

static void BM_SupplyLinesFiveStepChainSimulated(benchmark::State& state) {
  const auto plan = five_step_plan();
  cp::campaign_options o;
  o.method = "sim";
  o.simulation.simulation.trials = 100000;
  for (auto _ : state) benchmark::DoNotOptimize(cp::run_supply_lines_campaign(plan, o));
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) * 100000);
}
BENCHMARK(BM_SupplyLinesFiveStepChainSimulated)->Unit(benchmark::kMillisecond)->UseRealTime();
