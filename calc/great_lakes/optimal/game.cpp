#include "calc/great_lakes/optimal/game.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <optional>
#include <vector>

#include "calc/great_lakes/optimal/pair_values.hpp"
#include "calc/great_lakes/rules/round.hpp"
#include "core/invalid_input.hpp"

namespace musket::great_lakes {

std::string to_string(objective o) {
  return o == objective::win ? "win" : "value";
}

bool plays_optimally(const army& a) {
  return a.retreat.kind == retreat_kind::optimal || a.hit_allocation.kind == hit_allocation_kind::optimal ||
         a.rerolls.kind == reroll_kind::optimal;
}

bool plays_optimally(const battle& b) {
  return plays_optimally(b.attacker) || plays_optimally(b.defender);
}

battle default_play(battle b, int side) {
  for (int s = 0; s < 2; ++s) {
    if (side >= 0 && s != side) continue;
    army& a = s == 0 ? b.attacker : b.defender;
    if (a.retreat.kind == retreat_kind::optimal) a.retreat = {};
    if (a.hit_allocation.kind == hit_allocation_kind::optimal) a.hit_allocation = {};
    if (a.rerolls.kind == reroll_kind::optimal) a.rerolls = {};
  }
  return b;
}

double play_value(const battle_result& r, const game_options& g) {
  if (g.goal == objective::win) return r.attacker_wins;
  double lost = 0;  // E[defender SP lost] - E[attacker SP lost]
  for (std::size_t k = 0; k < r.attacker_sp_lost.size(); ++k) lost -= static_cast<double>(k) * r.attacker_sp_lost[k];
  for (std::size_t k = 0; k < r.defender_sp_lost.size(); ++k) lost += static_cast<double>(k) * r.defender_sp_lost[k];
  return g.win_value * r.attacker_wins + lost;
}

bool has_choice(const battle& b, objective goal) {
  if (goal == objective::value) return plays_optimally(b);
  for (const army* a : {&b.attacker, &b.defender})
    if (a->hit_allocation.kind == hit_allocation_kind::optimal || a->rerolls.kind == reroll_kind::optimal) return true;
  return false;
}

game_result game_of_default_play(const battle& b, const game_options& g, battle_result outcome) {
  game_result out;
  out.goal = g.goal;
  out.choices = false;
  out.value = out.value_default_play = play_value(outcome, g);
  out.outcome = std::move(outcome);
  out.advice = advice_of_units(round::compile(b));
  return out;
}

std::array<side_advice, 2> advice_of_units(const round::battle_rules& r) {
  std::array<side_advice, 2> advice;
  for (int side = 0; side < 2; ++side)
    for (int i = r.begin[side]; i < r.end[side]; ++i)
      advice[static_cast<std::size_t>(side)].units.push_back(r.units[static_cast<std::size_t>(i)].name);
  return advice;
}

// The game over pairs of side states (optimal/pair_values.hpp); the default play by the exact
// engine; each side's gain from the game where only that side decides.
game_result solve_optimal_play(const battle& b, const game_options& g, const exact_options& options) {
  if (!(g.win_value >= 0) || !std::isfinite(g.win_value))
    throw invalid_input("win-value", "must be a number of SP, 0 or more");
  const auto started = std::chrono::steady_clock::now();
  game_result out;
  out.goal = g.goal;
  const bool att = plays_optimally(b.attacker), def = plays_optimally(b.defender);
  // The default play, and each side's game alone where both decide (where one does, its game alone
  // is the game itself): beside the game's outcome chains where they leave a core, the rest after.
  std::optional<double> default_value, att_only, def_only;
  auto others = [&](const exact_options& o) {
    if (!default_value) {
      exact_options value_alone = o;
      value_alone.rounds = false;
      default_value = play_value(solve_exact(default_play(b), value_alone), g);
    }
    if (!att || !def) return;
    if (!att_only) att_only = optimal::solve_over_pairs(default_play(b, 1), g, o, false).value;
    if (!def_only) def_only = optimal::solve_over_pairs(default_play(b, 0), g, o, false).value;
  };
  optimal::pair_solution main = optimal::solve_over_pairs(b, g, options, true, others);
  out.outcome = std::move(main.outcome);
  out.value = main.value;
  out.game_states = main.pairs;
  out.outcomes = main.work;
  out.chain_outcomes = main.chain_outcomes;
  out.chain_predicted = main.chain_predicted;
  out.predicted_seconds = main.predicted_seconds;
  out.swept = main.swept;
  out.advice = std::move(main.advice);
  others(options);
  out.value_default_play = *default_value;
  const double att_value = !att ? out.value_default_play : !def ? out.value : *att_only;
  const double def_value = !def ? out.value_default_play : !att ? out.value : *def_only;
  // A gain within the game's tie tolerance (1e-12 of the value's range, as pair_game breaks ties)
  // is none: the game's value and the default play's come from different sums, so a side with no
  // better choice showed 2.2e-16 or "-0".
  const auto sp = [](const std::vector<double>& lost) { return static_cast<double>(lost.size()) - 1.0; };
  const double scale =
      g.goal == objective::win
          ? 1.0
          : std::max({1.0, sp(out.outcome.attacker_sp_lost), g.win_value + sp(out.outcome.defender_sp_lost)});
  auto gain = [&](double x) { return std::abs(x) < 1e-12 * scale ? 0.0 : x; };
  out.gain_attacker = gain(att_value - out.value_default_play);
  out.gain_defender = gain(out.value_default_play - def_value);
  // (The whole solve's: the game, its outcome chain, the default play and the one-side games.)
  out.outcome.method.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return out;
}

}  // namespace musket::great_lakes
