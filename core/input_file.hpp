#pragma once
// Reading an input file (a scenario, a plan, a data table) the one way every parser does: the
// size is capped before anything is parsed, and a path that cannot be read at all is told apart
// from a file whose contents are wrong.
#include <cstddef>
#include <string>

#include "core/invalid_input.hpp"

namespace musket {

// A path the program cannot use: missing, a directory, no permission, a failed write. Not the
// input's fault but the environment's, so front ends give it its own exit code (3 in `musket`).
class environment_problem : public invalid_input {
 public:
  using invalid_input::invalid_input;
};

// Input files larger than this are refused before they are parsed.
inline constexpr std::size_t input_file_limit = 1024 * 1024;

// The whole file at `path`, read with at most `limit` + 1 bytes taken from it (so /dev/zero or a
// pipe never runs away). Throws environment_problem naming `field` when the path cannot be read
// (missing, a directory, no permission, a read error), invalid_input when it is over `limit`.
std::string read_input_file(const std::string& path, const std::string& field, std::size_t limit = input_file_limit);

}  // namespace musket
