#include "core/printable.hpp"

#include <cstdio>

#include "core/invalid_input.hpp"

namespace musket {

namespace {

// The length of the valid UTF-8 sequence starting at text[i], or 0 if it is not one.
std::size_t utf8_length(std::string_view text, std::size_t i) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char b = byte(i);
  if (b < 0x80) return 1;
  std::size_t n = 0;
  unsigned lowest = 0;
  unsigned cp = 0;
  if (b >= 0xC2 && b <= 0xDF)
    n = 2, cp = b & 0x1Fu, lowest = 0x80;
  else if (b >= 0xE0 && b <= 0xEF)
    n = 3, cp = b & 0x0Fu, lowest = 0x800;
  else if (b >= 0xF0 && b <= 0xF4)
    n = 4, cp = b & 0x07u, lowest = 0x10000;
  else
    return 0;
  if (i + n > text.size()) return 0;
  for (std::size_t k = 1; k < n; ++k) {
    if ((byte(i + k) & 0xC0u) != 0x80u) return 0;
    cp = (cp << 6) | (byte(i + k) & 0x3Fu);
  }
  if (cp < lowest || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
  return n;
}

// Whether the valid sequence of `n` bytes at text[i] is a control character (C0, DEL, C1) or a
// noncharacter XML refuses (U+FFFE, U+FFFF).
bool is_control(std::string_view text, std::size_t i, std::size_t n) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[i + k]); };
  if (n == 1) return byte(0) < 0x20 || byte(0) == 0x7F;
  if (n == 2) return byte(0) == 0xC2 && byte(1) < 0xA0;
  if (n == 3) return byte(0) == 0xEF && byte(1) == 0xBF && (byte(2) == 0xBE || byte(2) == 0xBF);
  return false;
}

}  // namespace

std::string plain_text(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    const std::size_t n = utf8_length(text, i);
    if (n == 0 || is_control(text, i, n)) {
      out += "\xEF\xBF\xBD";  // U+FFFD
      i += n == 0 ? 1 : n;
      continue;
    }
    out.append(text.substr(i, n));
    i += n;
  }
  return out;
}

void require_plain_text(std::string_view text, const std::string& field) {
  char hex[8];
  for (std::size_t i = 0; i < text.size();) {
    const std::size_t n = utf8_length(text, i);
    if (n == 0) {
      std::snprintf(hex, sizeof hex, "\\x%02X", static_cast<unsigned>(static_cast<unsigned char>(text[i])));
      throw invalid_input(field, std::string("is not valid UTF-8 (byte ") + hex + " at byte " + std::to_string(i) +
                                     "); give the text in UTF-8");
    }
    if (is_control(text, i, n))
      throw invalid_input(field, "holds the control character " + printable(text.substr(i, n)) + " at byte " +
                                     std::to_string(i) + "; give plain text");
    i += n;
  }
}

bool valid_utf8(std::string_view text) {
  for (std::size_t i = 0; i < text.size();) {
    const std::size_t n = utf8_length(text, i);
    if (n == 0) return false;
    i += n;
  }
  return true;
}

std::string printable(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  char hex[8];
  for (std::size_t i = 0; i < text.size();) {
    const unsigned char b = static_cast<unsigned char>(text[i]);
    const std::size_t n = utf8_length(text, i);
    if (n == 2 && b == 0xC2 && static_cast<unsigned char>(text[i + 1]) < 0xA0) {  // C1 controls, U+0080..U+009F
      std::snprintf(hex, sizeof hex, "\\u%04X", static_cast<unsigned>(static_cast<unsigned char>(text[i + 1])));
      out += hex;
      i += 2;
      continue;
    }
    if (n > 1) {
      out.append(text.substr(i, n));
      i += n;
      continue;
    }
    if (n == 1 && b >= 0x20 && b != 0x7F) {
      out.push_back(static_cast<char>(b));
    } else if (b == '\n') {
      out += "\\n";
    } else if (b == '\t') {
      out += "\\t";
    } else if (b == '\r') {
      out += "\\r";
    } else {
      std::snprintf(hex, sizeof hex, "\\x%02X", b);
      out += hex;
    }
    ++i;
  }
  return out;
}

}  // namespace musket
