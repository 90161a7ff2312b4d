#include "calc/great_lakes/exact/cost.hpp"

#include <algorithm>
#include <limits>
#include <vector>

#include "calc/great_lakes/exact/column_sweep.hpp"
#include "calc/great_lakes/exact/side_states.hpp"
#include "calc/great_lakes/rules/round.hpp"

namespace musket::great_lakes {

namespace {

// Per side: for each folded state (a part's example), its line dice and the outcomes of a round in
// which it takes 0, 1, ... hits (GL 11.23-11.27 and 13 as rules/round.hpp plays them): each state
// its checks can leave, times the reinforcement's outcomes from there (GL 13.3).
struct side_play {
  std::vector<int> dice;                  // by part whose line stands
  std::vector<std::vector<double>> outs;  // by part: outcomes by hits taken, 0..line SP
};

side_play play_side(const sweep::side_states& s) {
  side_play out;
  auto entering = [&](std::uint32_t state) {
    return std::max<double>(1.0, static_cast<double>(s.entering[state].size()));
  };
  for (const std::uint32_t example : s.example) {
    if (s.line_sp[example] <= 0) continue;  // (its line gone: the battle has ended, GL 12.1)
    out.dice.push_back(s.line_dice[example]);
    const auto line = static_cast<std::size_t>(s.line_sp[example]);
    std::vector<double> by_hits(line + 1, 1.0);  // (every count from the line SP up: one end)
    if (line > 0) by_hits[0] = entering(example);
    for (std::size_t hits = 1; hits < line; ++hits) {
      double count = 0;
      for (const sweep::side_move& m : s.after_hits[example][hits]) count += entering(m.to);
      by_hits[hits] = std::max(count, 1.0);
    }
    out.outs.push_back(std::move(by_hits));
  }
  return out;
}

}  // namespace

exact_cost predict_exact_cost(const battle& b, std::size_t side_limit) {
  const round::battle_rules r = round::compile(b);
  return predict_exact_cost(r, sweep::list_battle_sides(r, side_limit, move_limit));
}

exact_cost predict_exact_cost(const round::battle_rules& r, const sweep::battle_sides& listed) {
  exact_cost cost;
  if (!listed.complete) {  // (the states found before the listing stopped)
    for (int side = 0; side < 2; ++side) cost.side_states[side] = listed.side[side].example.size();
    cost.states = static_cast<double>(cost.side_states[0]) * static_cast<double>(cost.side_states[1]);
    cost.transitions = cost.seconds = cost.bytes = std::numeric_limits<double>::infinity();
    return cost;
  }
  const std::array<side_play, 2> sides{play_side(listed.side[0]), play_side(listed.side[1])};
  for (int side = 0; side < 2; ++side) cost.side_states[side] = sides[side].dice.size();
  // (Plus the start itself when round 1 differs: GL 11.22's crossing attackers roll one less.)
  cost.states = static_cast<double>(cost.side_states[0]) * static_cast<double>(cost.side_states[1]) +
                (r.first_round_matters ? 1.0 : 0.0);
  // by_dice[side][d][D]: over the side's states firing d dice, their round outcomes summed when
  // the other side fires D dice (hits 0..D; every count past the line SP ends the battle: one each).
  std::array<int, 2> max_dice{};
  for (int side = 0; side < 2; ++side)
    for (int d : sides[side].dice) max_dice[side] = std::max(max_dice[side], d);
  std::array<std::vector<std::vector<double>>, 2> by_dice;
  for (int side = 0; side < 2; ++side) {
    const int enemy_max = max_dice[1 - side] + r.ship_dice[1 - side];
    by_dice[side].assign(static_cast<std::size_t>(max_dice[side]) + 1,
                         std::vector<double>(static_cast<std::size_t>(enemy_max) + 1, 0.0));
    for (std::size_t i = 0; i < sides[side].dice.size(); ++i) {
      const auto& outs = sides[side].outs[i];
      auto& row = by_dice[side][static_cast<std::size_t>(sides[side].dice[i])];
      double run = 0;
      for (int d = 0; d <= enemy_max; ++d) {
        run += d < static_cast<int>(outs.size()) ? outs[static_cast<std::size_t>(d)] : 1.0;
        row[static_cast<std::size_t>(d)] += run;
      }
    }
  }
  // Per side, its states by the dice they fire.
  std::array<std::vector<double>, 2> states_by_dice;
  for (int side = 0; side < 2; ++side) {
    states_by_dice[side].assign(static_cast<std::size_t>(max_dice[side]) + 1, 0.0);
    for (int d : sides[side].dice) states_by_dice[side][static_cast<std::size_t>(d)] += 1.0;
  }
  // The plain chain plays whole rounds: per pair of states, the product of the two sides' outcomes.
  // The column sweep plays each half of the round on its own: per pair, the sum. Which one answers
  // is solve_exact's choice (choose_engine).
  const bool swept = choose_engine(r) == exact_engine::column_sweep;
  double transitions = 0;
  for (std::size_t da = 0; da <= static_cast<std::size_t>(max_dice[0]); ++da)
    for (std::size_t dd = 0; dd <= static_cast<std::size_t>(max_dice[1]); ++dd) {
      const double attacker_outcomes = by_dice[0][da][dd + static_cast<std::size_t>(r.ship_dice[1])];
      const double defender_outcomes = by_dice[1][dd][da + static_cast<std::size_t>(r.ship_dice[0])];
      transitions += swept ? attacker_outcomes * states_by_dice[1][dd] + states_by_dice[0][da] * defender_outcomes
                           : attacker_outcomes * defender_outcomes;
    }
  cost.transitions = transitions;
  if (swept) {
    cost.swept = true;
    cost.seconds = (swept_fixed_seconds + transitions * seconds_per_swept_outcome) * build_slowdown;
    cost.bytes = cost.states * bytes_per_swept_state;
    return cost;
  }
  // The plain chain keeps every transition besides its states.
  cost.seconds = (fixed_seconds + transitions * seconds_per_transition) * build_slowdown;
  cost.bytes = cost.states * bytes_per_state + transitions * bytes_per_transition;
  return cost;
}

}  // namespace musket::great_lakes
