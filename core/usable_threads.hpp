#pragma once

#include <algorithm>
#include <thread>

namespace musket {

// The threads a calculation may start when its options ask for `requested` (0: as many as the
// machine has). The one place that knows a build without threads: under Emscripten without
// pthreads (scripts/web's build) starting a std::thread fails, so every engine runs in the
// calling thread there, whatever was asked.
inline unsigned usable_threads(unsigned requested = 0) {
#if defined(__EMSCRIPTEN__) && !defined(__EMSCRIPTEN_PTHREADS__)
  (void)requested;
  return 1;
#else
  return requested ? requested : std::max(1u, std::thread::hardware_concurrency());
#endif
}

}  // namespace musket
