// Campaign engines against plan size (issue 19: at most linear in the number of steps). Each
// benchmark runs one engine on plans of 50, 100 and 200 steps (200 is every plan's cap) and fits
// the time's growth (BigO): a cost per step that stays flat as N doubles is linear.
#include <benchmark/benchmark.h>

#include "calc/campaign/supply_lines_campaign.hpp"

namespace cp = musket::campaign;

namespace {

// N Supply Lines steps: receive 1 War Supply, then defend a City against a one-unit army, over
// and over. The army only loses units and the track is bounded, so the number of states stays
// bounded and each step should cost about the same.
cp::supply_lines_plan supply_lines_plan_of(int steps) {
  nlohmann::json list = nlohmann::json::array();
  for (int i = 0; i < steps; ++i) {
    if (i % 2 == 0)
      list.push_back({{"kind", "receive"}, {"war", 1}});
    else
      list.push_back({{"kind", "defend"},
                      {"terrain", "city"},
                      {"war", {{"field", "war"}, {"at_most", 1}}},
                      {"enemy", {{"units", 1}, {"leaders", 1}, {"war", 1}}}});
  }
  const nlohmann::json plan = {{"game", "nt"},
                               {"side", "patriot"},
                               {"army", {{"units", 4}, {"leaders", 1}, {"war", 1}, {"food", 1}}},
                               {"track", {{"position", 5}, {"lowest", 0}, {"highest", 10}}},
                               {"steps", list}};
  return cp::parse_supply_lines_plan(plan, "bench", "nt");
}

}  // namespace

static void BM_SupplyLinesCampaignSteps(benchmark::State& state) {
  const auto plan = supply_lines_plan_of(static_cast<int>(state.range(0)));
  cp::campaign_options o;
  o.method = "exact";
  for (auto _ : state) benchmark::DoNotOptimize(cp::run_supply_lines_campaign(plan, o));
  state.SetComplexityN(state.range(0));
}
BENCHMARK(BM_SupplyLinesCampaignSteps)
    ->Arg(50)
    ->Arg(100)
    ->Arg(200)
    ->Complexity(benchmark::oN)
    ->Unit(benchmark::kMillisecond);

#ifdef MUSKET_CAMPAIGN_REVOLUTION
#include "calc/campaign/revolution_campaign.hpp"
#include "calc/revolution/crt.hpp"

// N American attacks, one a Game-Turn, every fourth in a followed Region (control judged at the
// end of its turn); the British hold enough Victory Points that two Major Successes do not end it.
static void BM_RevolutionCampaignAttacks(benchmark::State& state) {
  const auto table = musket::revolution::load_crt({MUSKET_DATA_DIR "/ar/crt.json", ""});
  const int n = static_cast<int>(state.range(0));
  nlohmann::json attacks = nlohmann::json::array();
  // The game's 36 Game-Turns hold every attack; New Jersey is fought in on each turn's first one.
  auto turn = [n](int i) { return 1 + i * musket::revolution::last_game_turn / n; };
  for (int i = 0; i < n; ++i) {
    nlohmann::json a = {{"turn", turn(i)}, {"attacker", i % 3 ? "12C" : "18C,4M"}, {"defender", "6B"}};
    if (i == 0 || turn(i) != turn(i - 1)) {
      a["region"] = "New Jersey";
      a["british_elsewhere"] = 15;
    }
    attacks.push_back(a);
  }
  const auto plan = cp::parse_revolution_plan(
      {{"british_vp", 40}, {"regions", {{{"name", "New Jersey"}, {"victory_points", 8}}}}, {"attacks", attacks}},
      "bench", musket::revolution::load_options({MUSKET_DATA_DIR "/ar/options.json", ""}));
  for (auto _ : state) benchmark::DoNotOptimize(cp::run_revolution_campaign(table, plan));
  state.SetComplexityN(n);
}
BENCHMARK(BM_RevolutionCampaignAttacks)
    ->Arg(50)
    ->Arg(100)
    ->Arg(200)
    ->Complexity(benchmark::oN)
    ->Unit(benchmark::kMillisecond);
#endif

#ifdef MUSKET_CAMPAIGN_GREAT_LAKES
#include "calc/campaign/great_lakes_campaign.hpp"

// N Great Lakes battle steps over turns 1-20 (the game's length), alternating attackers,
// simulated with 2,000 trials.
static void BM_GreatLakesCampaignSteps(benchmark::State& state) {
  const auto data = musket::great_lakes::load_game_data(MUSKET_DATA_DIR "/gl");
  const int n = static_cast<int>(state.range(0));
  const nlohmann::json unit = {{"name", "Scott"}, {"type", "regular"}, {"sp", 4}, {"morale", 5}, {"dice", 4}};
  nlohmann::json steps = nlohmann::json::array();
  for (int i = 0; i < n; ++i)
    steps.push_back(
        {{"kind", "battle"},
         {"turn", 1 + i * 20 / n},
         {"location", "York"},
         {"attacker", i % 2 ? "british" : "american"},
         {"defender_extra", {{{"name", "Militia"}, {"type", "militia"}, {"sp", 1}, {"morale", 3}, {"dice", 1}}}}});
  nlohmann::json british = unit;
  british["name"] = "Royal Scots";
  nlohmann::json armies = {{"american", {{"units", {unit}}}}, {"british", {{"units", {british}}}}};
  const auto plan = cp::parse_great_lakes_plan({{"armies", armies}, {"steps", steps}}, "bench", data);
  musket::chain_simulation_options o;
  o.simulation.trials = 2000;
  for (auto _ : state) benchmark::DoNotOptimize(cp::run_great_lakes_campaign(plan, data, o));
  state.SetComplexityN(n);
}
BENCHMARK(BM_GreatLakesCampaignSteps)
    ->Arg(50)
    ->Arg(100)
    ->Arg(200)
    ->Complexity(benchmark::oN)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
#endif
