#pragma once
// Kept so code written against the old name still builds: the round API is public now, in
// round.hpp (namespace musket::great_lakes::round). New code includes round.hpp.
#include "calc/great_lakes/round.hpp"

namespace musket::great_lakes {
namespace detail = round;
}  // namespace musket::great_lakes
