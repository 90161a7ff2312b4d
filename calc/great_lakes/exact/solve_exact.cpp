#include <string>

#include "calc/great_lakes/battle.hpp"
#include "calc/great_lakes/exact/column_sweep.hpp"
#include "calc/great_lakes/exact/exact_chooser.hpp"
#include "calc/great_lakes/exact/plain_chain.hpp"
#include "calc/great_lakes/rules/round.hpp"

namespace musket::great_lakes {

using namespace detail;  // exact/exact_chooser.hpp
using round::battle_rules;
using round::battle_state;

namespace {

// The plain chain (exact/plain_chain.hpp) with the fixed policies' rounds.
battle_result solve_unfolded(const battle& b, const exact_options& options) {
  const battle_rules r = round::compile(b);
  return solve_unfolded_chain(r, options, [&](const battle_state& s, double weight, auto&& emit) {
    exact_chooser c;
    c.weight = weight;
    auto played = [&](const battle_state& t, battle_end end) { emit(t, end, c.weight); };
    // (Retreats handed to the chain, which plays each start's once.)
    auto retreat = [&](battle_state& t, int side, bool forced, int) { emit.retreat(t, side, forced, c.weight); };
    round::play_round_until_retreat(r, s, c, played, retreat);
  });
}

}  // namespace

battle_result solve_exact(const battle& b, const exact_options& options, const sweep::battle_sides* listed) {
  require_fixed_play(b, "the fixed-policy exact engine");
  // Issue 36: one routing decision (choose_engine), the one predict_exact_cost prices.
  if (!options.fold_out_units || choose_engine(round::compile(b)) == exact_engine::plain_chain)
    return solve_unfolded(b, options);
  return solve_by_column_sweep(b, options, listed);
}

}  // namespace musket::great_lakes
