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

// Text as a chart or an XML document may hold it: every byte that is not valid UTF-8, every control
// character (U+0000..U+001F, U+007F..U+009F) and the noncharacters U+FFFE and U+FFFF replaced by
// U+FFFD. The result is valid UTF-8 of XML 1.0 characters only, and writes nothing a terminal obeys.
std::string plain_text(std::string_view text);

// Throws invalid_input naming `field` unless `text` is valid UTF-8 without control characters
// (text the user gives for a chart or a table: --title, --label): "is not valid UTF-8 (byte
// \xFF at byte 3)" or "holds the control character \x1B at byte 0; give plain text".
void require_plain_text(std::string_view text, const std::string& field);

}  // namespace musket
