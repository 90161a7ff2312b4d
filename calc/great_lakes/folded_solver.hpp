#pragma once
// The folded exact engine of Great Lakes battles (docs/engines.md): the chain over states in
// which every unit out of the line is just `out`, with what the out units hold carried beside it as
// labels (side_labels.hpp), solved in two stages side by side. solve_exact (battle.cpp) calls it
// where some unit can fail morale.
#include "calc/great_lakes/battle.hpp"

namespace musket::great_lakes::detail {

// The battle solved exactly on the folded chain (the fixed policies only: solve_exact checks).
battle_result solve_folded(const battle& b, const exact_options& options);

}  // namespace musket::great_lakes::detail
