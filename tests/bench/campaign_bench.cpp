// Campaign benchmarks (issue 6): a 5-step Supply Lines chain carried exactly (rational), and the
// same chain simulated (campaigns per second).
#include <benchmark/benchmark.h>

#include "calc/campaign/supply_lines_campaign.hpp"

namespace cp = musket::campaign;

namespace {
// The Burgoyne chain; with_retry: Ticonderoga is attacked again once if it is not taken (as in
// examples/nt-campaign.json).
cp::supply_lines_plan five_step_plan(bool with_retry = false) {
  nlohmann::json plan = {{"game", "nt"},
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
  if (with_retry) plan["steps"][1]["if_not_taken"] = {{"retry", 1}};
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

static void BM_SupplyLinesFiveStepChainWithRetry(benchmark::State& state) {
  const auto plan = five_step_plan(true);
  cp::campaign_options o;
  o.method = state.range(0) ? "sim" : "exact";
  o.simulation.simulation.trials = 100000;
  for (auto _ : state) benchmark::DoNotOptimize(cp::run_supply_lines_campaign(plan, o));
  if (state.range(0)) state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) * 100000);
}
BENCHMARK(BM_SupplyLinesFiveStepChainWithRetry)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond)->UseRealTime();

#ifdef MUSKET_CAMPAIGN_GREAT_LAKES
#include "calc/campaign/great_lakes_campaign.hpp"

// A 10-turn Great Lakes plan (turns 10-19, a battle each turn, survivors carried), simulated:
// campaigns per second.
// With `turn_steps`, each turn starts with its missions and CAP roll (GL 5, 7, 8) and buys up to
// 2 replacement SP with the CAP (GL 9.1); without, the battles alone.
static void great_lakes_ten_turns(benchmark::State& state, bool turn_steps) {
  const auto data = musket::great_lakes::load_game_data(MUSKET_DATA_DIR "/gl");
  nlohmann::json army_a = {{"units",
                            {{{"name", "Scott"}, {"type", "regular"}, {"sp", 4}, {"morale", 5}, {"dice", 4}},
                             {{"name", "Ripley"}, {"type", "regular"}, {"sp", 3}, {"morale", 4}, {"dice", 3}},
                             {{"name", "Porter"}, {"type", "militia"}, {"sp", 3}, {"morale", 3}, {"dice", 2}}}},
                           {"retreat", {{"policy", "line_sp_at_most"}, {"k", 3}}}};
  nlohmann::json army_b = {{"units",
                            {{{"name", "Royal Scots"}, {"type", "regular"}, {"sp", 4}, {"morale", 5}, {"dice", 4}},
                             {{"name", "Lincoln"}, {"type", "militia"}, {"sp", 3}, {"morale", 3}, {"dice", 2}}}},
                           {"retreat", {{"policy", "weaker"}}}};
  nlohmann::json steps = nlohmann::json::array();
  const char* places[] = {"Ft. Erie", "Ft. George", "Beaver Dam", "York", "Ft. Niagara"};
  for (int t = 10; t < 20; ++t) {
    if (turn_steps)
      steps.push_back({{"kind", "turn"},
                       {"turn", t},
                       {"missions",
                        {{"british", {{"ontario", "supply"}, {"erie", "supply"}}},
                         {"american", {{"ontario", "intercept"}, {"erie", "supply"}}}}},
                       {"replacements", {{"american", 2}, {"british", 2}}},
                       {"keep_cap", {{"american", 6}, {"british", 6}}}});
    steps.push_back(
        {{"kind", "battle"}, {"turn", t}, {"location", places[t % 5]}, {"attacker", t % 2 ? "british" : "american"}});
  }
  const auto plan = musket::campaign::parse_great_lakes_plan(
      {{"from_turn", 10}, {"armies", {{"american", army_a}, {"british", army_b}}}, {"steps", steps}}, "bench", data);
  musket::chain_simulation_options o;
  o.simulation.trials = 20000;
  for (auto _ : state) benchmark::DoNotOptimize(musket::campaign::run_great_lakes_campaign(plan, data, o));
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) * 20000);
}
static void BM_GreatLakesTenTurnPlanSimulated(benchmark::State& state) {
  great_lakes_ten_turns(state, false);
}
BENCHMARK(BM_GreatLakesTenTurnPlanSimulated)->Unit(benchmark::kMillisecond)->UseRealTime();
static void BM_GreatLakesTenTurnPlanWithCapSimulated(benchmark::State& state) {
  great_lakes_ten_turns(state, true);
}
BENCHMARK(BM_GreatLakesTenTurnPlanWithCapSimulated)->Unit(benchmark::kMillisecond)->UseRealTime();
#endif
