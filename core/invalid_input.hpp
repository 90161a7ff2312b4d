#pragma once
// The one exception type for impossible or malformed input. `field` names the input in the
// words the user typed it (a CLI option without dashes, a JSON path, a file), so every front
// end can say exactly what is wrong and what is allowed.
#include <stdexcept>
#include <string>

namespace musket {

class invalid_input : public std::runtime_error {
 public:
  invalid_input(std::string field, const std::string& message)
      : std::runtime_error(message), field_(std::move(field)) {}
  const std::string& field() const noexcept { return field_; }

 private:
  std::string field_;
};

// Throws invalid_input unless lowest <= value <= highest.
inline void require_in_range(const std::string& field, long long value, long long lowest, long long highest,
                             const std::string& why = {}) {
  if (value < lowest || value > highest) {
    std::string message =
        std::to_string(value) + " is out of range; allowed " + std::to_string(lowest) + ".." + std::to_string(highest);
    if (!why.empty()) message += " (" + why + ")";
    throw invalid_input(field, message);
  }
}

}  // namespace musket
