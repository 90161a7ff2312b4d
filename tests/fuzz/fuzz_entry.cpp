// libFuzzer's entry for one target; the build compiles this once per target with
// MUSKET_FUZZ_TARGET set to the target's function (tests/fuzz/targets.hpp).
#include <cstddef>
#include <cstdint>

#include "tests/fuzz/targets.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return musket::fuzz::MUSKET_FUZZ_TARGET(std::string_view(reinterpret_cast<const char*>(data), size));
}
