#pragma once
// `musket --version` and `musket-gui --version`: the project version (CMake's project(VERSION))
// and, for a build from a git checkout, the revision it was built from.
#include <string>

namespace musket::cli {

// "musket 0.1.0 (git 1a2b3c4d5e)", or "musket 0.1.0" outside a checkout.
std::string version_line(const std::string& program);

}  // namespace musket::cli
