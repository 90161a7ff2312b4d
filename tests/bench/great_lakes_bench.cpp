// War Along the Great Lakes performance targets (issue 4, DESIGN.md): 8 v 8 and 12 v 12 single-SP,
// single-die, morale-6 blocks exact in milliseconds; 4 v 4 mixed units plus a garrison exact under
// 100 ms; simulation at 10 million battle rounds per second per core.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>

#include "calc/great_lakes/battle.hpp"
#include "calc/great_lakes/exact/cost.hpp"
#include "calc/great_lakes/optimal/game.hpp"
#include "calc/great_lakes/optimal/pair_values.hpp"
#include "calc/great_lakes/solve.hpp"
#include "calc/great_lakes/turn/missions.hpp"

namespace gl = musket::great_lakes;

namespace {

gl::unit make_unit(const std::string& name, gl::unit_type type, int sp, int morale, int dice) {
  return gl::unit{name, type, sp, sp, morale, dice, gl::crossing::none};
}

gl::battle blocks(int n) {
  gl::battle b;
  b.attacker.side = gl::nation::american;
  b.defender.side = gl::nation::british;
  for (int i = 0; i < n; ++i) {
    b.attacker.units.push_back(make_unit("a" + std::to_string(i), gl::unit_type::regular, 1, 6, 1));
    b.defender.units.push_back(make_unit("d" + std::to_string(i), gl::unit_type::regular, 1, 6, 1));
  }
  return b;
}

// Four American units (regular, artillery, militia, dragoon) attack four British units and the
// fort's garrison, with printed-range values (Summary of Units).
gl::battle mixed_4v4() {
  gl::battle b;
  b.attacker.side = gl::nation::american;
  b.defender.side = gl::nation::british;
  b.attacker.units = {make_unit("21st Infantry", gl::unit_type::regular, 4, 5, 3),
                      make_unit("Towson", gl::unit_type::artillery, 3, 5, 5),
                      make_unit("NY Militia", gl::unit_type::militia, 3, 3, 2),
                      make_unit("Dragoons", gl::unit_type::dragoon, 1, 4, 1)};
  b.defender.units = {make_unit("104th Foot", gl::unit_type::regular, 4, 5, 4),
                      make_unit("Lincoln Militia", gl::unit_type::militia, 3, 3, 2),
                      make_unit("Royal Artillery", gl::unit_type::artillery, 2, 5, 5),
                      make_unit("19th Dragoons", gl::unit_type::dragoon, 1, 5, 2)};
  b.defender.fortification = gl::fort{2, 2, 4, false};
  return b;
}

// Issue 20's mid-size Niagara battle: Brown's five units attack four British units and a fort
// (garrison 2 dice, 2 SP, morale 4), Drummond with the British; `extra` adds a regular a side.
gl::battle niagara(bool extra) {
  gl::battle b;
  b.attacker.side = gl::nation::american;
  b.defender.side = gl::nation::british;
  b.attacker.units = {
      make_unit("11th", gl::unit_type::regular, 4, 5, 3), make_unit("21st", gl::unit_type::regular, 4, 5, 3),
      make_unit("NYMil", gl::unit_type::militia, 3, 3, 2), make_unit("Art", gl::unit_type::artillery, 2, 5, 4),
      make_unit("Drag", gl::unit_type::dragoon, 2, 4, 2)};
  b.attacker.units[2].max_sp = 4;
  b.attacker.units[3].max_sp = 3;
  b.defender.units = {
      make_unit("100th", gl::unit_type::regular, 4, 5, 4), make_unit("41st", gl::unit_type::regular, 4, 5, 3),
      make_unit("Glengarry", gl::unit_type::militia, 3, 4, 2), make_unit("Mohawk", gl::unit_type::native, 2, 4, 2)};
  b.defender.units[3].max_sp = 3;
  if (extra) {
    b.attacker.units.push_back(make_unit("X", gl::unit_type::regular, 4, 5, 3));
    b.defender.units.push_back(make_unit("Y", gl::unit_type::regular, 4, 5, 3));
  }
  b.defender.fortification = gl::fort{2, 2, 4, false};
  b.attacker.leaders = {"Brown"};
  b.defender.leaders = {"Drummond"};
  return b;
}

// solve_exact of `b` each iteration, its states as a counter.
void solve_exact_each(benchmark::State& state, const gl::battle& b, const gl::exact_options& options) {
  for (auto _ : state) {
    auto r = gl::solve_exact(b, options);
    state.counters["states"] = static_cast<double>(r.method.states);
    benchmark::DoNotOptimize(r);
  }
}

}  // namespace

// Issue 20's 5 v 4, exact (solve_exact: the column sweep; left out of the ctest smoke run,
// bench_smoke's filter, with the other real battles).
static void BM_GreatLakesNiagara5v4Exact(benchmark::State& state) {
  solve_exact_each(state, niagara(false), {});
}
BENCHMARK(BM_GreatLakesNiagara5v4Exact)->Unit(benchmark::kMillisecond)->Iterations(1)->Repetitions(3);

// The 6 v 6 exact (the column sweep, as solve_exact runs it; seconds: left out of the smoke run).
static void BM_GreatLakesNiagara6v6Exact(benchmark::State& state) {
  const auto b = niagara(true);
  gl::exact_options options;
  options.state_limit = 2'000'000;
  solve_exact_each(state, b, options);
}
BENCHMARK(BM_GreatLakesNiagara6v6Exact)->Unit(benchmark::kMillisecond)->Iterations(1)->Repetitions(3);

// The 5 v 4 with the attacker retreating at line SP <= 6 (GL 12.2 step 4; left out of the smoke
// run: seconds).
static void BM_GreatLakesNiagara5v4Retreat(benchmark::State& state) {
  auto b = niagara(false);
  b.attacker.retreat = {gl::retreat_kind::line_sp_at_most, 6};
  solve_exact_each(state, b, {});
}
BENCHMARK(BM_GreatLakesNiagara5v4Retreat)->Unit(benchmark::kMillisecond)->Iterations(1)->Repetitions(3);

// The Niagara 4 v 3 (the 5 v 4 less the artillery, dragoon and Mohawk) with a reinforcement a side
// (GL 13.3; a regular of 4 SP each): Arg 0 as it is, Arg 1 with the attacker retreating at line
// SP <= 4 (GL 12.2 step 4, decided before the reinforcement: the folded chain's before issue 36,
// 1.1-2.0 s; left out of the smoke run: seconds).
static void BM_GreatLakesNiagara4v3Reinforced(benchmark::State& state) {
  auto b = niagara(false);
  b.attacker.units.resize(3);
  b.defender.units.resize(3);
  b.attacker.reinforcements.push_back({make_unit("23rd", gl::unit_type::regular, 4, 5, 3), false});
  b.defender.reinforcements.push_back({make_unit("Royals", gl::unit_type::regular, 4, 5, 3), false});
  if (state.range(0) == 1) b.attacker.retreat = {gl::retreat_kind::line_sp_at_most, 4};
  solve_exact_each(state, b, {});
}
BENCHMARK(BM_GreatLakesNiagara4v3Reinforced)
    ->Arg(0)
    ->Arg(1)
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1)
    ->Repetitions(3);

// `auto` as `musket gl battle` runs it (budget 1 s, 4096 MB, 200,000 trials): the prediction,
// then the exact solve if it fits, else the simulation. Arg 0: the 5 v 4, 1: the 6 v 6; the
// counter `exact` says which ran (both simulate: predicted 2.5 s and 23 s).
static void BM_GreatLakesNiagaraAuto(benchmark::State& state) {
  const auto b = niagara(state.range(0) == 1);
  musket::simulation_options sim;
  sim.trials = 200'000;
  sim.seed = 1812;
  for (auto _ : state) {
    const gl::exact_cost cost = gl::predict_exact_cost(b);
    const bool exact = gl::exact_fits(cost, 1.0, 4096e6);
    auto r = exact ? gl::solve_exact(b) : gl::simulate(b, sim);
    state.counters["exact"] = exact ? 1 : 0;
    state.counters["predicted_seconds"] = cost.seconds;
    benchmark::DoNotOptimize(r);
  }
}
BENCHMARK(BM_GreatLakesNiagaraAuto)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

static void BM_GreatLakesBlocksExact(benchmark::State& state) {
  const auto b = blocks(static_cast<int>(state.range(0)));
  for (auto _ : state) benchmark::DoNotOptimize(gl::solve_exact(b));
}
BENCHMARK(BM_GreatLakesBlocksExact)->Arg(8)->Arg(12)->Unit(benchmark::kMillisecond);

// Issue 20's cold start: `musket gl battle` on the 8 v 8 blocks from the command line, a fresh
// process each iteration (no table, allocation or code warmed by an earlier solve), timed by what
// the process reports as method.seconds (manual time: the solve, not the process's start-up).
// BM_GreatLakesBlocksExact/8 above is the same solve warm.
static void BM_GreatLakesBlocksColdProcess(benchmark::State& state) {
  std::string command = "MUSKET_DATA_DIR=" MUSKET_DATA_DIR " " MUSKET_BINARY " gl battle";
  for (int k = 1; k <= 8; ++k) command += " --att a" + std::to_string(k) + ":regular:1/1:6:1";
  for (int k = 1; k <= 8; ++k) command += " --def d" + std::to_string(k) + ":regular:1/1:6:1";
  command += " --method exact --format json";
  for (auto _ : state) {
    FILE* pipe = popen(command.c_str(), "r");
    if (!pipe) return state.SkipWithError("popen failed");
    std::string out;
    char buffer[4096];
    for (std::size_t got; (got = std::fread(buffer, 1, sizeof buffer, pipe)) > 0;) out.append(buffer, got);
    if (pclose(pipe) != 0) return state.SkipWithError("musket failed");
    const auto doc = nlohmann::json::parse(out);
    state.SetIterationTime(doc.at("method").at("seconds").get<double>());
    state.counters["states"] = doc.at("method").at("states").get<double>();
  }
}
// One process a repetition: the median of 15 (a mean over iterations would be the outliers').
BENCHMARK(BM_GreatLakesBlocksColdProcess)
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond)
    ->Iterations(1)
    ->Repetitions(15)
    ->ReportAggregatesOnly(true);

// Arg: exact_options::threads (0: the default, the sweep and its rounds side by side where there are two cores).
static void BM_GreatLakesMixed4v4GarrisonExact(benchmark::State& state) {
  const auto b = mixed_4v4();
  gl::exact_options options;
  options.threads = static_cast<unsigned>(state.range(0));
  solve_exact_each(state, b, options);
}
BENCHMARK(BM_GreatLakesMixed4v4GarrisonExact)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

// Issue 17: optimal play against the plain exact solve of the same battle. Regulars, militia and
// guns with Brown attack regulars and militia with Riall (printed-range values). Arg 0: the fixed
// policies' exact solve (solve_exact: the column sweep); 1: the same on the plain chain over full
// states (what the game is built on); 2: the attacker's hits solved (one side: one game solve, its
// forward pass, and the default play's value); 3: --play optimal (every choice of both sides, and
// each side's gain: the pair game and its one-side games, then the outcome chain); 4: the game's own machinery over the
// default play (no choice left to solve: its leaves, against Arg 3's, measure the game's size).
gl::battle brown_v_riall() {
  gl::battle b;
  b.attacker.side = gl::nation::american;
  b.defender.side = gl::nation::british;
  b.attacker.units = {make_unit("Regulars", gl::unit_type::regular, 4, 5, 3),
                      make_unit("Militia", gl::unit_type::militia, 3, 3, 2),
                      make_unit("Guns", gl::unit_type::artillery, 2, 5, 5)};
  b.defender.units = {make_unit("41st Foot", gl::unit_type::regular, 4, 5, 4),
                      make_unit("Lincoln Militia", gl::unit_type::militia, 3, 3, 2)};
  b.attacker.leaders = {"Brown"};
  b.defender.leaders = {"Riall"};
  return b;
}

static void BM_GreatLakesOptimalPlay(benchmark::State& state) {
  gl::battle b = brown_v_riall();
  const int arg = static_cast<int>(state.range(0));
  gl::exact_options options;
  options.fold_out_units = arg != 1;
  options.state_limit = 2'000'000;
  if (arg == 2 || arg == 3) b.attacker.hit_allocation.kind = gl::hit_allocation_kind::optimal;
  if (arg == 3)
    for (gl::army* a : {&b.attacker, &b.defender}) {
      a->hit_allocation.kind = gl::hit_allocation_kind::optimal;
      a->rerolls.kind = gl::reroll_kind::optimal;
      a->retreat.kind = gl::retreat_kind::optimal;
    }
  for (auto _ : state) {
    if (arg < 2) {
      auto r = gl::solve_exact(b, options);
      state.counters["states"] = static_cast<double>(r.method.states);
      benchmark::DoNotOptimize(r);
    } else {
      auto r = gl::solve_optimal_play(b, {}, options);
      state.counters["states"] = static_cast<double>(r.game_states);
      // The outcome document's chain under the solved play.
      state.counters["chain_states"] = static_cast<double>(r.outcome.method.states);
      state.counters["outcomes"] = r.outcomes;
      state.counters["predicted_s"] = r.predicted_seconds;
      benchmark::DoNotOptimize(r);
    }
  }
}
BENCHMARK(BM_GreatLakesOptimalPlay)
    ->Arg(0)
    ->Arg(1)
    ->Arg(2)
    ->Arg(3)
    ->Arg(4)
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1)
    ->Repetitions(3);

// Issue 37's battles: the Niagara battle cut down to its first N attackers and M defenders (the
// 2:2:4 fort, Brown and Drummond always). Args (N, M, mode): mode 0 the exact odds (solve_exact);
// through solve (--method exact), as the command line asks: 1 the attacker's hits optimal, 2 --play
// optimal, and each other one-side choice (issue 37's target: within 3x mode 0): 3 the defender's
// hits, 4 the attacker's rerolls, 5 the defender's rerolls, 6 the attacker's retreat.
static void BM_GreatLakesOptimalPlayNiagara(benchmark::State& state) {
  gl::battle b = niagara(false);
  b.attacker.units.resize(static_cast<std::size_t>(state.range(0)));
  b.defender.units.resize(static_cast<std::size_t>(state.range(1)));
  const int mode = static_cast<int>(state.range(2));
  if (mode == 1) b.attacker.hit_allocation.kind = gl::hit_allocation_kind::optimal;
  if (mode == 2)
    for (gl::army* a : {&b.attacker, &b.defender}) {
      a->hit_allocation.kind = gl::hit_allocation_kind::optimal;
      a->rerolls.kind = gl::reroll_kind::optimal;
      a->retreat.kind = gl::retreat_kind::optimal;
    }
  if (mode == 3) b.defender.hit_allocation.kind = gl::hit_allocation_kind::optimal;
  if (mode == 4) b.attacker.rerolls.kind = gl::reroll_kind::optimal;
  if (mode == 5) b.defender.rerolls.kind = gl::reroll_kind::optimal;
  if (mode == 6) b.attacker.retreat.kind = gl::retreat_kind::optimal;
  gl::exact_options options;
  options.state_limit = 20'000'000;
  gl::solve_options asked;
  asked.method = gl::solve_method::exact;
  asked.state_limit = options.state_limit;
  for (auto _ : state) {
    if (mode == 0) {
      auto r = gl::solve_exact(b, options);
      state.counters["states"] = static_cast<double>(r.method.states);
      benchmark::DoNotOptimize(r);
    } else {
      auto s = gl::solve(b, asked);
      const gl::game_result& r = *s.game;
      state.counters["states"] = static_cast<double>(r.game_states);
      state.counters["chain_states"] = static_cast<double>(r.outcome.method.states);
      state.counters["memory_mb"] = static_cast<double>(r.outcome.method.memory_bytes) / 1e6;
      state.counters["value"] = r.value;
      benchmark::DoNotOptimize(s);
    }
  }
}
BENCHMARK(BM_GreatLakesOptimalPlayNiagara)
    ->Args({2, 2, 0})
    ->Args({2, 2, 1})
    ->Args({2, 2, 2})
    ->Args({3, 2, 0})
    ->Args({3, 2, 1})
    ->Args({3, 2, 2})
    ->ArgsProduct({{3}, {3}, {0, 1, 2, 3, 4, 5, 6}})
    ->ArgsProduct({{4}, {3}, {0, 1, 2, 3, 4, 5, 6}})
    ->ArgsProduct({{5}, {4}, {0, 1, 2, 3, 4, 5, 6}})
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1)
    ->Repetitions(3);

// Rounds per second on one core (threads = 1, rate over CPU time): the counter `rounds_per_second`.
static void BM_GreatLakesSimulatedRoundsOneCore(benchmark::State& state) {
  const auto b = mixed_4v4();
  musket::simulation_options options;
  options.trials = 20'000;
  options.threads = 1;
  std::uint64_t rounds = 0;
  for (auto _ : state) {
    const auto r = gl::simulate(b, options);
    rounds += r.method.rounds_simulated;
    ++options.seed;
  }
  state.counters["rounds_per_second"] = benchmark::Counter(static_cast<double>(rounds), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_GreatLakesSimulatedRoundsOneCore)->Unit(benchmark::kMillisecond);

static void BM_GreatLakesShipBattle(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(gl::ship_battle_a_wins(4, 3));
}
BENCHMARK(BM_GreatLakesShipBattle);
