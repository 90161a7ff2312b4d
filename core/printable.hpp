#pragma once
// Text from the user or a file made safe to echo on one line of a terminal or a log: control
// characters are escaped (\n, \t, \xNN) and bytes that are not valid UTF-8 are shown as \xNN.
// Valid UTF-8 (accented names, em dashes) passes through unchanged.
#include <string>
#include <string_view>

namespace musket {

std::string printable(std::string_view text);

// Whether `text` is valid UTF-8 (no overlong forms, surrogates or code points past U+10FFFF).
bool valid_utf8(std::string_view text);

}  // namespace musket
