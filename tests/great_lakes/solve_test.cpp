// solve (calc/great_lakes/solve.hpp): the one way in, its routing and auto's decisions, each read
// from the facts it reports (the engine that answered and the prediction it went by); the one
// battle loop (battle_loop.hpp) on a duel worked by hand; every enum's name table.
#include "calc/great_lakes/solve.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <set>
#include <string>

#include "battle_builders.hpp"
#include "calc/great_lakes/scenario.hpp"
#include "calc/great_lakes/simulation/battle_loop.hpp"
#include "calc/great_lakes/turn/missions.hpp"
#include "core/invalid_input.hpp"
#include "core/markov_chain.hpp"

namespace gl = musket::great_lakes;
using gl::testing::duel;
using gl::testing::make_unit;

namespace {

// A 1-SP, 1-die regular on each side, morale 6 (nobody fails): each round the defender fires
// first, then the attacker if it survived (GL 11.19), each hitting on one face in six. So the
// attacker wins a round with (5/6)(1/6) = 5/36, loses it with 1/6 = 6/36, and the battle goes on
// with 25/36: P(attacker wins) = (5/36) / (11/36) = 5/11, and the rounds are geometric with mean
// 36/11.
gl::battle hand_duel() {
  return duel(make_unit("A", 1, 1), make_unit("D", 1, 1));
}

// Clearly too big for any small budget: 6 v 6 (plus a fifth and sixth defender) across the
// Niagara, morale 3-5; predicted well past a second and 64 MB.
gl::battle big_battle() {
  gl::battle b;
  b.niagara = true;
  b.attacker.side = gl::nation::american;
  b.defender.side = gl::nation::british;
  for (int k = 0; k < 6; ++k) {
    b.attacker.units.push_back(make_unit("a" + std::to_string(k), 4, 3, k == 2 ? 3 : (k == 3 ? 4 : 5)));
    b.defender.units.push_back(make_unit("d" + std::to_string(k), 4, 3, k == 2 ? 3 : (k == 3 ? 4 : 5)));
  }
  return b;
}

// 5 v 4 across the Niagara: its sweep holds thousands of pairs of side positions.
gl::battle five_v_four() {
  gl::battle b = big_battle();
  b.attacker.units.resize(5);
  b.defender.units.resize(4);
  return b;
}

gl::solve_options options(gl::solve_method m) {
  gl::solve_options o;
  o.method = m;
  o.simulation.trials = 4000;
  o.simulation.seed = 7;
  return o;
}

}  // namespace

TEST(Solve, AutoSolvesExactlyWhenThePredictionFits) {
  const auto o = options(gl::solve_method::automatic);
  const auto s = gl::solve(hand_duel(), o);
  EXPECT_EQ(s.result.method.name, "exact");
  EXPECT_EQ(s.why.reason, gl::solve_reason::predicted_fits);
  ASSERT_TRUE(s.why.predicted);
  EXPECT_LE(s.why.predicted->seconds, o.time_budget);
  EXPECT_NEAR(s.result.attacker_wins, 5.0 / 11, 1e-12);
  EXPECT_NEAR(s.result.rounds_mean, 36.0 / 11, 1e-9);
}

TEST(Solve, AutoSimulatesWhenThePredictionPassesTheBudget) {
  auto o = options(gl::solve_method::automatic);
  o.time_budget = 0.05;
  const auto s = gl::solve(big_battle(), o);
  EXPECT_EQ(s.result.method.name, "simulation");
  EXPECT_EQ(s.why.reason, gl::solve_reason::predicted_over_budget);
  ASSERT_TRUE(s.why.predicted);
  EXPECT_GT(s.why.predicted->seconds, 1.0);  // far past the budget, not near it
}

TEST(Solve, AutoSimulatesWhenThePredictionPassesTheMemoryBound) {
  auto o = options(gl::solve_method::automatic);
  o.time_budget = 3600;  // only memory stands in the way
  o.memory_limit = 64'000'000;
  o.simulation.trials = 1000;
  const auto s = gl::solve(big_battle(), o);
  EXPECT_EQ(s.result.method.name, "simulation");
  EXPECT_EQ(s.why.reason, gl::solve_reason::predicted_over_memory);
  ASSERT_TRUE(s.why.predicted);
  EXPECT_GT(s.why.predicted->bytes, 2 * 64e6);
  EXPECT_FALSE(s.why.budget_ran_out);
  EXPECT_EQ(s.result.method.trials, 1000u);
}

TEST(Solve, ExactRefusesAPredictionPastTheMemoryBound) {
  auto o = options(gl::solve_method::exact);
  o.memory_limit = 64'000'000;
  try {
    (void)gl::solve(big_battle(), o);
    ADD_FAILURE() << "no exact_over_memory";
  } catch (const gl::exact_over_memory& e) {
    EXPECT_GT(e.predicted_bytes(), 2 * 64e6);
    EXPECT_EQ(e.limit(), 64'000'000u);
  }
}

TEST(Solve, TheStateLimitSendsAutoToSimulationAndStopsExact) {
  auto o = options(gl::solve_method::automatic);
  o.time_budget = 3600;
  o.state_limit = 1000;
  const auto s = gl::solve(five_v_four(), o);
  EXPECT_EQ(s.result.method.name, "simulation");
  EXPECT_EQ(s.why.reason, gl::solve_reason::state_limit);
  o.method = gl::solve_method::exact;
  EXPECT_THROW((void)gl::solve(five_v_four(), o), musket::state_limit_exceeded);
  o.state_limit = 2'000'000;  // the same battle within the limit: exact, as asked, its states within it
  const auto e = gl::solve(five_v_four(), o);
  EXPECT_EQ(e.result.method.name, "exact");
  EXPECT_EQ(e.why.reason, gl::solve_reason::asked);
  EXPECT_GT(e.result.method.states, 1000u);
  EXPECT_LE(e.result.method.states, o.state_limit);
}

TEST(Solve, SimAskedForIsSimulated) {
  const auto s = gl::solve(hand_duel(), options(gl::solve_method::sim));
  EXPECT_EQ(s.result.method.name, "simulation");
  EXPECT_EQ(s.why.reason, gl::solve_reason::asked);
  EXPECT_FALSE(s.why.predicted);  // nothing predicted for a simulation asked for
  const double sigma = std::sqrt(5.0 / 11 * 6.0 / 11 / 4000);
  EXPECT_NEAR(s.result.attacker_wins, 5.0 / 11, 4 * sigma);
}

TEST(Solve, OptimalPlayIsAGameSolvedExactlyOnly) {
  gl::battle b = hand_duel();
  b.defender.retreat.kind = gl::retreat_kind::optimal;
  EXPECT_THROW((void)gl::solve(b, options(gl::solve_method::sim)), gl::optimal_play_not_simulated);
  const auto s = gl::solve(b, options(gl::solve_method::automatic));
  ASSERT_TRUE(s.game);
  EXPECT_EQ(s.why.reason, gl::solve_reason::optimal_play);
  EXPECT_EQ(s.result.method.name, "exact");
  // A 1-SP defender gains nothing by retreating: it is eliminated by one hit either way, and a
  // retreat loses the battle at once. So 5/11 as above.
  EXPECT_NEAR(s.result.attacker_wins, 5.0 / 11, 1e-12);
}

TEST(Solve, OnlyRetreatsOptimalToWinIsTheDefaultPlay) {
  // On the win objective a voluntary retreat loses the battle, so an optimal retreat never retreats:
  // with no other choice optimal, the battle is its default play, answered by the fixed-policy
  // exact engine (no game), still exactly only. The duel above: 5/11 either way.
  gl::battle b = hand_duel();
  b.attacker.retreat.kind = b.defender.retreat.kind = gl::retreat_kind::optimal;
  EXPECT_FALSE(gl::has_choice(b, gl::objective::win));
  EXPECT_TRUE(gl::has_choice(b, gl::objective::value));
  const auto s = gl::solve(b, options(gl::solve_method::automatic));
  ASSERT_TRUE(s.game);
  EXPECT_FALSE(s.game->choices);
  EXPECT_EQ(s.why.reason, gl::solve_reason::optimal_play);
  ASSERT_TRUE(s.why.predicted);  // (the fixed battle's prediction, which auto holds to its budget)
  EXPECT_NEAR(s.result.attacker_wins, 5.0 / 11, 1e-12);
  EXPECT_EQ(s.game->value, s.result.attacker_wins);
  EXPECT_EQ(s.game->value_default_play, s.game->value);
  EXPECT_EQ(s.game->gain_attacker, 0.0);
  EXPECT_EQ(s.game->gain_defender, 0.0);
  EXPECT_EQ(s.game->game_states, 0u);
  for (const auto& side : s.game->advice) {
    EXPECT_EQ(side.units.size(), 1u);
    EXPECT_TRUE(side.retreat.retreats.empty());  // never
  }
  EXPECT_THROW((void)gl::solve(b, options(gl::solve_method::sim)), gl::optimal_play_not_simulated);
  // The game over pairs of side states, which offers no retreat on this objective, agrees.
  EXPECT_NEAR(gl::solve_optimal_play(b, {}).value, s.game->value, 1e-12);

  // five_v_four() with the attacker's retreat optimal: the answer is the default play's to the last
  // bit; under auto a budget its prediction passes refuses it at once (never simulated).
  gl::battle big = five_v_four();
  big.attacker.retreat.kind = gl::retreat_kind::optimal;
  gl::solve_options exact = options(gl::solve_method::exact);
  const auto shortcut = gl::solve(big, exact);
  const gl::battle_result fixed = gl::solve_exact(gl::default_play(big));
  EXPECT_EQ(shortcut.result.attacker_wins, fixed.attacker_wins);
  EXPECT_EQ(shortcut.result.rounds_mean, fixed.rounds_mean);
  gl::solve_options tight = options(gl::solve_method::automatic);
  tight.time_budget = 1e-6;
  EXPECT_THROW((void)gl::solve(big, tight), gl::game_over_budget);
}

TEST(Solve, MethodNames) {
  for (const auto& [m, name] : gl::names_of_solve_method) {
    EXPECT_EQ(gl::to_string(m), name);
    EXPECT_EQ(gl::parse_solve_method(std::string(name), "method"), m);
  }
  try {
    (void)gl::parse_solve_method("fast", "method");
    ADD_FAILURE() << "'fast' parsed";
  } catch (const musket::invalid_input& e) {
    EXPECT_EQ(e.field(), "method");
    EXPECT_STREQ(e.what(), "'fast' is not a method; allowed: exact, sim, auto");
  }
}

// The one loop: the duel above played 40,000 times, its ends and rounds against the closed forms.
TEST(BattleLoop, ADuelWorkedByHand) {
  const auto r = gl::round::compile(hand_duel());
  const auto start = gl::round::track(r, gl::round::initial_state(r));
  musket::random_engine engine(11);
  constexpr int n = 40'000;
  int wins = 0;
  double rounds = 0;
  for (int i = 0; i < n; ++i) {
    auto now = start;
    const auto played = gl::play_battle(r, now, engine);
    ASSERT_NE(played.end, gl::battle_end::none);
    ASSERT_GE(played.rounds, 1u);
    if (gl::attacker_won(played.end)) {
      ++wins;
      EXPECT_EQ(played.end, gl::battle_end::defender_eliminated);
      EXPECT_EQ(now.s.sp[0], 1);  // the attacker alone is left, its final state returned
      EXPECT_EQ(now.s.sp[1], 0);
    }
    rounds += static_cast<double>(played.rounds);
  }
  const double p = 5.0 / 11;
  EXPECT_NEAR(static_cast<double>(wins) / n, p, 4 * std::sqrt(p * (1 - p) / n));
  // Geometric rounds, success 11/36: variance (1 - q) / q^2.
  const double q = 11.0 / 36;
  EXPECT_NEAR(rounds / n, 1 / q, 4 * std::sqrt((1 - q) / (q * q) / n));
}

TEST(BattleLoop, AStartNobodyCanHitFromIsAStalemateAtOnce) {
  const auto r = gl::round::compile(duel(make_unit("A", 2, 0), make_unit("D", 2, 0)));
  auto now = gl::round::track(r, gl::round::initial_state(r));
  musket::random_engine engine(1);
  const auto played = gl::play_battle(r, now, engine);
  EXPECT_EQ(played.end, gl::battle_end::stalemate);
  EXPECT_EQ(played.rounds, 0u);
}

TEST(BattleLoop, SeededSimulationsRepeat) {
  gl::battle b = hand_duel();
  b.attacker.units[0] = make_unit("A", 3, 2, 4);
  b.defender.units[0] = make_unit("D", 3, 2, 4);
  musket::simulation_options o;
  o.trials = 5000;
  o.seed = 42;
  const auto first = gl::simulate(b, o), second = gl::simulate(b, o);
  EXPECT_EQ(first.ends, second.ends);
  EXPECT_EQ(first.method.rounds_simulated, second.method.rounds_simulated);
}

// "The attacker won" once: exactly the three ends where the defender leaves the field.
TEST(BattleEnds, AttackerWonAndDefenderHeld) {
  int won = 0, held = 0;
  for (const auto e : gl::all_battle_ends) {
    const std::string name = gl::to_string(e);
    EXPECT_EQ(gl::attacker_won(e), name.rfind("defender_", 0) == 0) << name;
    EXPECT_EQ(gl::defender_held(e), name.rfind("attacker_", 0) == 0) << name;
    won += gl::attacker_won(e);
    held += gl::defender_held(e);
  }
  EXPECT_EQ(won, 3);
  EXPECT_EQ(held, 3);
  EXPECT_FALSE(gl::attacker_won(gl::battle_end::stalemate) || gl::defender_held(gl::battle_end::stalemate));
}

namespace {

// Every value of the enum listed once, each name once.
template <class E, std::size_t N>
void expect_one_name_each(const musket::enum_names<E, N>& table, int values) {
  std::set<int> seen_values;
  std::set<std::string_view> seen_names;
  for (const auto& [v, name] : table) {
    seen_values.insert(static_cast<int>(v));
    seen_names.insert(name);
    EXPECT_FALSE(name.empty());
  }
  EXPECT_EQ(static_cast<int>(N), values);
  EXPECT_EQ(seen_values.size(), N);
  EXPECT_EQ(seen_names.size(), N);
  for (int v = 0; v < values; ++v) EXPECT_TRUE(seen_values.count(v)) << v;
}

std::string refusal(auto&& parse) {
  try {
    parse();
  } catch (const musket::invalid_input& e) {
    return e.what();
  }
  return "(accepted)";
}

}  // namespace

TEST(EnumTables, EveryNameRoundTrips) {
  expect_one_name_each(gl::names_of_nation, 2);
  expect_one_name_each(gl::names_of_unit_type, 6);
  expect_one_name_each(gl::names_of_crossing, 3);
  expect_one_name_each(gl::names_of_retreat_kind, 4);
  expect_one_name_each(gl::names_of_hit_allocation_kind, 3);
  expect_one_name_each(gl::names_of_reroll_kind, 4);
  expect_one_name_each(gl::names_of_battle_end, 8);
  expect_one_name_each(gl::names_of_mission, 4);
  expect_one_name_each(gl::names_of_solve_method, 3);
  expect_one_name_each(gl::names_of_mission_objective, 2);
  for (const auto& [v, name] : gl::names_of_nation) EXPECT_EQ(gl::parse_nation(gl::to_string(v), "f"), v);
  for (const auto& [v, name] : gl::names_of_unit_type) EXPECT_EQ(gl::parse_unit_type(gl::to_string(v), "f"), v);
  for (const auto& [v, name] : gl::names_of_crossing) EXPECT_EQ(gl::parse_crossing(gl::to_string(v), "f"), v);
  for (const auto& [v, name] : gl::names_of_hit_allocation_kind)
    EXPECT_EQ(gl::parse_hit_allocation(gl::to_string(v), "f").kind, v);
  for (const auto& [v, name] : gl::names_of_reroll_kind) EXPECT_EQ(gl::parse_reroll(gl::to_string(v), "f").kind, v);
  for (const auto& [v, name] : gl::names_of_mission) EXPECT_EQ(gl::parse_mission(gl::to_string(v), "f"), v);
  for (const auto& [v, name] : gl::names_of_retreat_kind) {
    const std::string spelled = gl::to_string(v) + (v == gl::retreat_kind::line_sp_at_most ? ":3" : "");
    EXPECT_EQ(gl::parse_retreat(spelled, "f").kind, v);
  }
  EXPECT_EQ(gl::parse_retreat("line_sp_at_most:3", "f").k, 3);
  for (const auto e : gl::all_battle_ends) EXPECT_NE(gl::to_string(e), "?");
}

TEST(EnumTables, RefusalsListWhatIsAllowed) {
  EXPECT_EQ(refusal([] { gl::parse_unit_type("hussar", "f"); }),
            "unknown unit type 'hussar'; allowed: regular, militia, artillery, dragoon, native");
  EXPECT_EQ(refusal([] { gl::parse_crossing("swim", "f"); }),
            "unknown crossing 'swim'; allowed: none, river, amphibious");
  EXPECT_EQ(refusal([] { gl::parse_nation("french", "f"); }), "unknown side 'french'; allowed: american, british");
  EXPECT_EQ(refusal([] { gl::parse_retreat("line_sp_at_most", "f"); }),
            "unknown retreat policy 'line_sp_at_most'; allowed: never, weaker, line_sp_at_most:K, optimal");
  EXPECT_EQ(refusal([] { gl::parse_hit_allocation("spread", "f"); }),
            "unknown hit allocation policy 'spread'; allowed: rulings, concentrate, optimal");
  EXPECT_EQ(refusal([] { gl::parse_reroll("last", "f"); }),
            "unknown reroll policy 'last'; allowed: first, never, largest_unit, optimal");
  EXPECT_EQ(refusal([] { gl::parse_mission("raid", "f"); }),
            "unknown mission 'raid'; allowed: transport, support, supply, intercept");
}
