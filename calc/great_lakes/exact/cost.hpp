#pragma once
// What an exact solve of a Great Lakes battle would cost, predicted before solving (issue 20):
// cheap enough to ask for every battle, so `auto` can simulate instead of solving for seconds.
//
// Each side is played on its own (calc/great_lakes/rules/round.hpp's hit allocation, morale, rerolls and
// reinforcement, with every count of hits the other side could score): its folded states (units
// out of the line just `out`, as the column sweep holds them) and, per state and per count of hits,
// how many outcomes its half of a round has. A battle's folded states are at most the product of
// the two sides' counts. Each side's losses depend only on the other's fire, and the column sweep
// plays each half of a round on its own (exact/column_sweep.hpp): its outcomes are about the sum of the
// two sides' over every pair of side states. The plain chain (no unit can fail morale:
// choose_engine) plays whole rounds, whose outcomes are about the product. Either, summed over the
// pairs grouped by the dice each side fires, predicts the transitions the engine plays without
// touching a pair. Both are upper bounds in kind (pairs the battle never reaches are counted); the
// seconds come from them by a per-outcome cost measured on this machine (docs/benchmarks.md).
#include <array>
#include <cstddef>

#include "calc/great_lakes/battle.hpp"

namespace musket::great_lakes {

struct exact_cost {
  std::array<std::size_t, 2> side_states{};  // each side's folded states
  double states = 0;                         // their product
  double transitions = 0;                    // predicted round outcomes (half rounds where swept)
  double seconds = 0;                        // predicted wall time of the exact solve
  double bytes = 0;                          // predicted peak memory of the exact solve
  bool swept = false;                        // solved by the column sweep (exact/column_sweep.hpp)
};

// The cost model, measured on the 2-core machine (docs/benchmarks.md): the plain chain's fixed
// cost, then per predicted whole-round outcome; it keeps every transition besides its states
// (3.5 kB a state).
inline constexpr double fixed_seconds = 0.1;
inline constexpr double seconds_per_transition = 45e-9;
inline constexpr double bytes_per_state = 3'500;
inline constexpr double bytes_per_transition = 16;
// The column sweep (exact/column_sweep.hpp), on the predicted half-round
// outcomes: on two threads 50-100 ns an outcome on this machine, more the larger the battle
// (docs/benchmarks.md: the 5 v 4 0.20-0.32 s for 4.35 M, the 5 v 4 with a sixth British regular
// 0.92-1.00 s for 13.4 M, with a sixth American 1.07-1.29 s for 13.1 M, the 6 v 6 3.5-3.7 s for
// 41 M), so the budget's decision takes the dearest; and its dense arrays about 600-800 bytes a
// predicted state at the peak (53 MB for the 5 v 4's 62,920, 250 MB for the 6 v 6's 381,892).
inline constexpr double swept_fixed_seconds = 0.005;
inline constexpr double seconds_per_swept_outcome = 100e-9;
inline constexpr double bytes_per_swept_state = 900;

// The seconds above are this machine's native build's. The web build (scripts/web: WebAssembly on
// one thread) runs the same engines slower, so its predictions are scaled by this one factor and
// auto's budget holds in a browser too. Measured (method.seconds of --method exact, native on two
// threads against the web build under Node 20, the best of 3 and of 2 runs): the column sweep
// 5.7x on README's 3 v 2 (2,251 states), 5.4x on a 4 v 3 (17,136), 4.8x on the 5 v 4 Niagara
// (62,861), 4.5x with a sixth British regular (153,970); the plain chain 4.5-5.9x on a 5 v 4 of
// morale 6 (989 states). Six covers the dearest. Re-measure: scripts/web, then
// `musket gl battle <units> --method exact --format json` through build/musket and through
// `node build-web/node/musket.js`, comparing method.seconds (docs/benchmarks.md's battles).
#ifdef __EMSCRIPTEN__
inline constexpr double build_slowdown = 6;
#else
inline constexpr double build_slowdown = 1;
#endif

// Whether the predicted solve fits a time budget and a memory bound (`auto` solves exactly only then).
inline bool exact_fits(const exact_cost& c, double seconds, double bytes) {
  return c.seconds <= seconds && c.bytes <= bytes;  // (false for an infinite prediction)
}

namespace round {
struct battle_rules;  // rules/state.hpp
}
namespace sweep {
struct battle_sides;  // exact/side_states.hpp
}

// The prediction lists each side alone as the column sweep does (sweep::list_battle_sides), giving
// up past `side_limit` states of a side or `move_limit` moves listed: such a battle is far past any
// budget, and its cost is infinite. The lists can then be handed to solve_exact, which plays them.
inline constexpr std::size_t predicted_side_limit = 200'000, move_limit = 2'000'000;
exact_cost predict_exact_cost(const battle& b, std::size_t side_limit = predicted_side_limit);
// The same from sides already listed (incomplete: an infinite cost).
exact_cost predict_exact_cost(const round::battle_rules& r, const sweep::battle_sides& listed);

}  // namespace musket::great_lakes
