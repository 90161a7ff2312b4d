#pragma once
// What an exact solve of a Great Lakes battle would cost, predicted before solving (issue 20):
// cheap enough to ask for every battle, so `auto` can simulate instead of solving for seconds.
//
// Each side is played on its own (calc/great_lakes/rules/round.hpp's hit allocation, morale, rerolls and
// reinforcement, with every count of hits the other side could score): its folded states (units
// out of the line just `out`, as the exact engine holds them) and, per state and per count of hits,
// how many outcomes its half of a round has. A battle's folded states are at most the product of
// the two sides' counts. Each side's losses depend only on the other's fire, and the folded engine
// plays each half of a round on its own (folded_solver.cpp): its outcomes are about the sum of the two
// sides' over every pair of side states. The plain chain (no unit can fail morale) plays whole
// rounds, whose outcomes are about the product. Either, summed over the pairs grouped by the dice
// each side fires, predicts the transitions the engine plays without touching a pair. Both are
// upper bounds in kind (pairs the battle never reaches are counted); the seconds come from them by
// a per-outcome cost measured on this machine (docs/benchmarks.md).
#include <array>
#include <cstddef>

#include "calc/great_lakes/battle.hpp"

namespace musket::great_lakes {

struct exact_cost {
  std::array<std::size_t, 2> side_states{};  // each side's folded states
  double states = 0;                         // their product
  double transitions = 0;                    // predicted round outcomes (half rounds where folded)
  double seconds = 0;                        // predicted wall time of the exact solve
  double bytes = 0;                          // predicted peak memory of the exact solve
  bool swept = false;                        // solved by the column sweep (exact/column_sweep.hpp)
};

// The cost model, measured on the 2-core machine (docs/benchmarks.md): a solve's fixed cost (two
// threads, the ring's fresh buffers), then per predicted outcome: the folded engine's half rounds
// (the 4 v 4 Niagara battle took 0.88-0.97 s for 2.01 M predicted, its 5 v 4 2.33-2.86 s
// for 4.35 M, its 6 v 6 36 s for 41 M: the larger the battle, the more each costs in cache misses,
// so the cost is fitted where `auto` decides, near a second; since nodes are numbered by side parts
// and the labels and rounds pooled, 0.72-0.80 of that, alternated: about 330 ns an outcome for the
// 4 v 4 and 410 ns for the 5 v 4), the plain chain's whole rounds.
// Memory: the folded engine's labels grow with its outcomes more than its states (peak resident,
// since a state's few labels are kept as a short list: the 4 v 4 67 MB, 2.0 kB a predicted state
// and 33 B an outcome; the 5 v 4 117 MB, 1.9 kB and 27 B; the 6 v 6 1.12 GB, 2.9 kB and 27 B), so
// the larger of a bound per state and one per outcome, each about a fifth over the most measured;
// the plain chain keeps every transition besides its states (3.5 kB a state).
inline constexpr double fixed_seconds = 0.1;
inline constexpr double seconds_per_transition = 45e-9;
inline constexpr double seconds_per_half_outcome = 420e-9;
inline constexpr double bytes_per_state = 3'500;  // the plain chain's
inline constexpr double bytes_per_folded_state = 2'500;
inline constexpr double bytes_per_half_outcome = 35;
inline constexpr double bytes_per_transition = 16;
// The column sweep (exact/column_sweep.hpp), where it plays the battle, on the same predicted half-round
// outcomes: on two threads 50-100 ns an outcome on this machine, more the larger the battle
// (docs/benchmarks.md: the 5 v 4 0.20-0.32 s for 4.35 M, the 5 v 4 with a sixth British regular
// 0.92-1.00 s for 13.4 M, with a sixth American 1.07-1.29 s for 13.1 M, the 6 v 6 3.5-3.7 s for
// 41 M), so the budget's decision takes the dearest; and its dense arrays about 600-800 bytes a
// predicted state at the peak (53 MB for the 5 v 4's 62,920, 250 MB for the 6 v 6's 381,892).
inline constexpr double swept_fixed_seconds = 0.005;
inline constexpr double seconds_per_swept_outcome = 100e-9;
inline constexpr double bytes_per_swept_state = 900;

// Whether the predicted solve fits a time budget and a memory bound (`auto` solves exactly only then).
inline bool exact_fits(const exact_cost& c, double seconds, double bytes) {
  return c.seconds <= seconds && c.bytes <= bytes;  // (false for an infinite prediction)
}

// Gives up (seconds and bytes set to infinity) once a side has more than `side_limit` folded
// states, or its count has listed 300,000 outcomes: such a battle is far past any budget.
exact_cost predict_exact_cost(const battle& b, std::size_t side_limit = 200'000);

}  // namespace musket::great_lakes
