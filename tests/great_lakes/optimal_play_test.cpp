// Optimal play in Great Lakes battles (issue 17), against brute force written here: every
// deterministic policy pair of tiny battles enumerated and valued by its own chain, the solved
// value their max-min; the solved play at least as good for each side as every fixed policy the
// CLI offers; optimal equal to the default where no choice can matter.
#include "calc/great_lakes/optimal_play.hpp"

#include <gtest/gtest.h>

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "calc/great_lakes/exact_parts.hpp"
#include "calc/great_lakes/round.hpp"
#include "core/invalid_input.hpp"
#include "tests/great_lakes/battle_builders.hpp"

namespace gl = musket::great_lakes;
namespace rd = gl::round;
using gl::battle_end;

namespace {

using gl::testing::make_unit;

// Where a choice is made: its kind, side, the state before it, the hits and pending units.
std::string situation_of(const rd::battle_rules& r, const rd::decision& d) {
  std::string key{static_cast<char>(d.kind), static_cast<char>(d.side), static_cast<char>(d.hits)};
  for (std::size_t i = 0; i < r.units.size(); ++i) {
    key += static_cast<char>(d.state->sp[i]);
    key += static_cast<char>(d.state->st[i]);
  }
  key += static_cast<char>(d.state->rerolls[0]);
  key += static_cast<char>(d.state->rerolls[1]);
  key += std::to_string(d.pending);
  return key;
}

// The dice of the shared exact chooser; the choices from a table (or, with none, every option,
// noting each situation and its number of options).
struct policy_chooser : gl::detail::exact_chooser {
  const rd::battle_rules* r = nullptr;
  const std::map<std::string, int>* table = nullptr;
  std::map<std::string, int>* seen = nullptr;
  template <class F>
  void decide(const rd::decision& d, int options, F&& f) {
    const std::string key = situation_of(*r, d);
    if (!table) {
      (*seen)[key] = options;
      for (int k = 0; k < options; ++k) f(k);
      return;
    }
    f(table->at(key));
  }
};

// Every situation any play of the battle reaches, with its number of options.
std::map<std::string, int> situations(const rd::battle_rules& r) {
  std::map<std::string, int> seen;
  std::map<std::string, bool> done;
  std::vector<rd::battle_state> todo{rd::initial_state(r)};
  while (!todo.empty()) {
    const rd::battle_state s = todo.back();
    todo.pop_back();
    const gl::detail::state_key k = gl::detail::encode(r, s, battle_end::none);
    std::string id(reinterpret_cast<const char*>(k.words.data()), sizeof k.words);
    if (done[id]) continue;
    done[id] = true;
    policy_chooser c;
    c.r = &r;
    c.seen = &seen;
    auto emit = [&](const rd::battle_state& t, battle_end end) {
      if (end == battle_end::none) todo.push_back(t);
    };
    rd::play_round(r, s, c, emit);
  }
  return seen;
}

// The payoff to the attacker of a finished battle, from the definitions.
double payoff_of(const rd::battle_rules& r, const gl::game_options& g, const rd::battle_state& t, battle_end end) {
  const bool won = end == battle_end::defender_eliminated || end == battle_end::defender_forced_retreat ||
                   end == battle_end::defender_voluntary_retreat;
  if (g.goal == gl::objective::win) return won ? 1 : 0;
  double v = won ? g.win_value : 0;
  for (std::size_t i = 0; i < r.units.size(); ++i)
    v += (r.units[i].owner == rd::attacker ? -1 : 1) * (r.units[i].start_sp - t.sp[i]);
  return v;
}

// The value of the battle when both sides play the table: each state's value is the sum over its
// round's outcomes, a round that changes nothing (probability p) solved as V = rest / (1 - p).
double policy_value(const rd::battle_rules& r, const gl::game_options& g, const std::map<std::string, int>& table) {
  std::map<std::string, double> memo;
  std::function<double(const rd::battle_state&)> value = [&](const rd::battle_state& s) -> double {
    const gl::detail::state_key k = gl::detail::encode(r, s, battle_end::none);
    const std::string id(reinterpret_cast<const char*>(k.words.data()), sizeof k.words);
    if (auto it = memo.find(id); it != memo.end()) return it->second;
    policy_chooser c;
    c.r = &r;
    c.table = &table;
    double rest = 0, loop = 0;
    auto emit = [&](const rd::battle_state& t, battle_end end) {
      const double w = c.weight;
      if (end != battle_end::none) {
        rest += w * payoff_of(r, g, t, end);
      } else if (gl::detail::encode(r, t, end) == k) {
        loop += w;
      } else {
        rest += w * value(t);
      }
    };
    rd::play_round(r, s, c, emit);
    return memo[id] = rest / (1 - loop);
  };
  return value(rd::initial_state(r));
}

// Every table giving each of `keys` one of its options, in turn.
std::vector<std::map<std::string, int>> all_tables(const std::vector<std::pair<std::string, int>>& keys) {
  std::vector<std::map<std::string, int>> out{{}};
  for (const auto& [key, options] : keys) {
    std::vector<std::map<std::string, int>> next;
    for (const auto& t : out)
      for (int k = 0; k < options; ++k) {
        auto u = t;
        u[key] = k;
        next.push_back(u);
      }
    out = next;
  }
  return out;
}

// max over the attacker's tables of min over the defender's, and min-max, by enumeration.
std::pair<double, double> brute_force(const gl::battle& b, const gl::game_options& g) {
  const rd::battle_rules r = rd::compile(b);
  std::vector<std::pair<std::string, int>> att, def;
  for (const auto& [key, options] : situations(r)) (key[1] == rd::attacker ? att : def).emplace_back(key, options);
  const auto ps = all_tables(att), qs = all_tables(def);
  std::vector<std::vector<double>> v(ps.size(), std::vector<double>(qs.size()));
  for (std::size_t i = 0; i < ps.size(); ++i)
    for (std::size_t j = 0; j < qs.size(); ++j) {
      auto both = ps[i];
      both.insert(qs[j].begin(), qs[j].end());
      v[i][j] = policy_value(r, g, both);
    }
  double maxmin = -1e9, minmax = 1e9;
  for (std::size_t i = 0; i < ps.size(); ++i) maxmin = std::max(maxmin, *std::min_element(v[i].begin(), v[i].end()));
  for (std::size_t j = 0; j < qs.size(); ++j) {
    double m = -1e9;
    for (std::size_t i = 0; i < ps.size(); ++i) m = std::max(m, v[i][j]);
    minmax = std::min(minmax, m);
  }
  return {maxmin, minmax};
}

// The attacker's 2-SP unit of 2 dice and morale 3 and a 1-SP unit of 1 die against a 1-SP defender
// with 1 die: which of them takes a lone hit is the attacker's choice (the rulings hit the larger,
// which may then fail morale); whether to retreat, the defender's, on the value objective (a win
// worth 1 SP).
gl::battle allocation_and_retreat() {
  gl::battle b;
  b.attacker.side = gl::nation::american;
  b.defender.side = gl::nation::british;
  b.attacker.units = {make_unit("Two", 2, 2, 3), make_unit("One", 1, 1)};
  b.defender.units = {make_unit("Block", 1, 1)};
  b.attacker.hit_allocation.kind = gl::hit_allocation_kind::optimal;
  b.defender.retreat.kind = gl::retreat_kind::optimal;
  return b;
}

}  // namespace

TEST(GreatLakesOptimalPlay, SolvedValueIsTheMaxMinOfEveryPolicyPair) {
  const gl::battle b = allocation_and_retreat();
  gl::game_options g;
  g.goal = gl::objective::value;
  g.win_value = 1;
  const rd::battle_rules r = rd::compile(b);
  const auto seen = situations(r);
  ASSERT_GE(seen.size(), 4u);  // both sides have choices to make
  const auto [maxmin, minmax] = brute_force(b, g);
  EXPECT_NEAR(maxmin, minmax, 1e-12);  // perfect information: pure strategies have a saddle point
  const gl::game_result res = gl::solve_optimal_play(b, g);
  EXPECT_NEAR(res.value, maxmin, 1e-12);
  // The forward pass plays the solved strategies: its outcome is worth the solved value.
  EXPECT_NEAR(gl::play_value(res.outcome, g), res.value, 1e-12);
  // Both sides' choices matter here: each gains by playing them well against the other's default.
  EXPECT_GT(res.gain_attacker, 1e-3);
  EXPECT_GT(res.gain_defender, 1e-3);
  EXPECT_FALSE(res.advice[1].retreat.retreats.empty());
}

TEST(GreatLakesOptimalPlay, OptimalRetreatNeverRetreatsForWinProbability) {
  // A voluntary retreat is a lost battle (win probability 0); fighting on is worth >= 0, so the
  // solved retreat (ties to fighting on) never retreats: the same answer as `never`, and at least
  // as good for each side as any fixed retreat rule.
  gl::battle b;
  b.attacker.side = gl::nation::american;
  b.defender.side = gl::nation::british;
  b.attacker.units = {make_unit("A", 2, 2, 4), make_unit("B", 1, 1)};
  b.defender.units = {make_unit("D", 3, 2, 5)};
  b.attacker.retreat = b.defender.retreat = {gl::retreat_kind::optimal, 0};
  const auto optimal = gl::solve_optimal_play(b, {});
  const auto never = gl::solve_exact(gl::default_play(b));
  EXPECT_NEAR(optimal.outcome.attacker_wins, never.attacker_wins, 1e-12);
  EXPECT_EQ(optimal.outcome[battle_end::attacker_voluntary_retreat], 0.0);
  EXPECT_EQ(optimal.outcome[battle_end::defender_voluntary_retreat], 0.0);
  EXPECT_TRUE(optimal.advice[0].retreat.retreats.empty());
}

namespace {

// Rerolls: the attacker's 2-SP unit of 2 dice (morale 4) and a 2-SP unit of no dice (morale 3),
// with Brown's one reroll, against a 1-SP unit: the attacker chooses whether to spend the reroll
// on a failed die or keep it for the unit that fires.
gl::battle rerolls_to_keep() {
  gl::battle b = gl::testing::duel(make_unit("Big", 2, 2, 4), make_unit("D", 1, 1));
  b.attacker.units.push_back(make_unit("Small", 2, 0, 3));
  b.attacker.leaders = {"Brown"};
  b.attacker.rerolls.kind = gl::reroll_kind::optimal;
  return b;
}

// Two units a side with a reroll each (for the comparison with the fixed policies below).
gl::battle rerolls_and_hits() {
  gl::battle b = gl::testing::duel(make_unit("Line", 2, 1, 4), make_unit("Foot", 2, 1, 4));
  b.attacker.units.push_back(make_unit("Light", 2, 1, 5));
  b.defender.units.push_back(make_unit("Picket", 1, 1, 5));
  b.attacker.leaders = {"Brown"};
  b.defender.leaders = {"Drummond"};
  return b;
}

}  // namespace

TEST(GreatLakesOptimalPlay, SolvedRerollsAreTheBestOfEveryPolicy) {
  const gl::battle b = rerolls_to_keep();
  const rd::battle_rules r = rd::compile(b);
  int rerolls = 0;
  for (const auto& [key, options] : situations(r)) rerolls += key[0] == static_cast<char>(rd::decision_kind::reroll);
  ASSERT_GE(rerolls, 2);
  for (const gl::objective goal : {gl::objective::win, gl::objective::value}) {
    gl::game_options g;
    g.goal = goal;
    g.win_value = 2;
    const auto [maxmin, minmax] = brute_force(b, g);
    EXPECT_NEAR(maxmin, minmax, 1e-12);
    const gl::game_result res = gl::solve_optimal_play(b, g);
    EXPECT_NEAR(res.value, maxmin, 1e-12);
    EXPECT_NEAR(gl::play_value(res.outcome, g), res.value, 1e-12);
    // Keeping the reroll for the unit that fires is worth something here.
    EXPECT_GT(res.gain_attacker, 1e-4);
  }
}

TEST(GreatLakesOptimalPlay, NoFixedPolicyBeatsTheSolvedPlay) {
  // value(opt, opt) >= value(p, opt) for every fixed attacker policy p the CLI offers, and
  // <= value(opt, q) for every fixed defender policy q (a fixed side is a fixed opponent).
  gl::battle b = rerolls_and_hits();
  gl::game_options g;
  g.goal = gl::objective::value;
  g.win_value = 2;
  auto all_optimal = [](gl::army& a) {
    a.retreat = {gl::retreat_kind::optimal, 0};
    a.hit_allocation = {gl::hit_allocation_kind::optimal};
    a.rerolls = {gl::reroll_kind::optimal};
  };
  all_optimal(b.attacker);
  all_optimal(b.defender);
  const double v = gl::solve_optimal_play(b, g).value;
  std::vector<gl::retreat_policy> retreats = {{gl::retreat_kind::never, 0}, {gl::retreat_kind::weaker, 0}};
  for (int k = 1; k <= 2; ++k) retreats.push_back({gl::retreat_kind::line_sp_at_most, k});
  int fixed = 0;
  for (int side = 0; side < 2; ++side)
    for (const auto hits : {gl::hit_allocation_kind::rulings, gl::hit_allocation_kind::concentrate})
      for (const auto reroll : {gl::reroll_kind::first, gl::reroll_kind::never, gl::reroll_kind::largest_unit})
        for (const auto& retreat : retreats) {
          gl::battle p = b;
          gl::army& a = side == 0 ? p.attacker : p.defender;
          a.hit_allocation = {hits};
          a.rerolls = {reroll};
          a.retreat = retreat;
          const double w = gl::solve_optimal_play(p, g).value;
          if (side == 0)
            EXPECT_LE(w, v + 1e-12) << "attacker " << gl::to_string(hits) << " " << gl::to_string(reroll);
          else
            EXPECT_GE(w, v - 1e-12) << "defender " << gl::to_string(hits) << " " << gl::to_string(reroll);
          ++fixed;
        }
  EXPECT_EQ(fixed, 2 * 2 * 3 * 4);
}

TEST(GreatLakesOptimalPlay, OptimalIsTheDefaultWhereNoChoiceMatters) {
  // One unit a side of morale 6 with no leader: no hit can go elsewhere, no reroll exists, and on
  // the win objective a retreat is a loss, so every choice ties and goes to the rulings' default:
  // the same battle as the fixed engine's, number for number.
  gl::battle b = gl::testing::duel(make_unit("A", 3, 2), make_unit("D", 3, 2));
  b.attacker.retreat = b.defender.retreat = {gl::retreat_kind::optimal, 0};
  b.attacker.hit_allocation.kind = b.defender.hit_allocation.kind = gl::hit_allocation_kind::optimal;
  b.attacker.rerolls.kind = b.defender.rerolls.kind = gl::reroll_kind::optimal;
  const gl::game_result res = gl::solve_optimal_play(b, {});
  const gl::battle_result fixed = gl::solve_exact(gl::default_play(b));
  for (std::size_t e = 0; e < 7; ++e) EXPECT_NEAR(res.outcome.ends[e], fixed.ends[e], 1e-12);
  ASSERT_EQ(res.outcome.attacker_sp_lost.size(), fixed.attacker_sp_lost.size());
  for (std::size_t k = 0; k < fixed.attacker_sp_lost.size(); ++k) {
    EXPECT_NEAR(res.outcome.attacker_sp_lost[k], fixed.attacker_sp_lost[k], 1e-12);
    EXPECT_NEAR(res.outcome.defender_sp_lost[k], fixed.defender_sp_lost[k], 1e-12);
  }
  EXPECT_NEAR(res.outcome.rounds_mean, fixed.rounds_mean, 1e-9);
  EXPECT_NEAR(res.value, fixed.attacker_wins, 1e-12);
  EXPECT_NEAR(res.gain_attacker, 0.0, 1e-12);
  EXPECT_NEAR(res.gain_defender, 0.0, 1e-12);
}

TEST(GreatLakesOptimalPlay, RejectsANegativeWinValue) {
  gl::game_options g;
  g.goal = gl::objective::value;
  g.win_value = -1;
  EXPECT_THROW(gl::solve_optimal_play(allocation_and_retreat(), g), musket::invalid_input);
}

TEST(GreatLakesOptimalPlay, ReadmeBattleWhereTheRulingsAllocationCostsTheAttacker) {
  // README "Optimal play": American regulars (3 SP, morale 5, 3 dice) and militia (3 SP, morale 2,
  // 2 dice) attack the British 41st (4 SP, morale 5, 4 dice). The rulings put a lone hit on the
  // militia (the fewest dice among equals), which then fails morale on 3-6; the solved attacker
  // takes it on the regulars, and gains at least a percentage point of winning by that alone.
  gl::battle b = gl::testing::duel(make_unit("Regulars", 3, 3, 5), make_unit("41st", 4, 4, 5));
  b.attacker.units.push_back(make_unit("Militia", 3, 2, 2, gl::unit_type::militia));
  b.attacker.hit_allocation.kind = gl::hit_allocation_kind::optimal;
  const gl::game_result res = gl::solve_optimal_play(b, {});
  EXPECT_GE(res.gain_attacker, 0.01);
  EXPECT_NEAR(res.value, res.outcome.attacker_wins, 1e-12);
  ASSERT_FALSE(res.advice[0].allocations.empty());
  const gl::allocation_advice& one = res.advice[0].allocations.front();
  EXPECT_EQ(one.hits, 1);
  EXPECT_EQ(one.rulings, (std::vector<int>{0, 1}));  // the rulings: the militia
  EXPECT_EQ(one.optimal, (std::vector<int>{1, 0}));  // solved: the regulars
}
