#include "cli/version.hpp"

#include "musket_version.hpp"  // generated at build time by cmake/version.cmake

namespace musket::cli {

std::string version_line(const std::string& program) {
  std::string line = program + " " + MUSKET_VERSION;
  if (const std::string revision = MUSKET_GIT_REVISION; !revision.empty()) line += " (git " + revision + ")";
  return line;
}

}  // namespace musket::cli
