#pragma once
// "did you mean ...?" lives in core (calc's own checks suggest too); the CLI's names for it.
#include "core/suggest.hpp"

namespace musket::cli {

using musket::did_you_mean;
using musket::edit_distance;

}  // namespace musket::cli
