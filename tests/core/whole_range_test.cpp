// Whole numbers as typed on the command line: ranges for --vary, fixed lists for --fort and the
// squadron dice. Every value past an int is refused, never wrapped.
#include "core/whole_range.hpp"

#include <gtest/gtest.h>

#include "core/invalid_input.hpp"

namespace {

using musket::invalid_input;
using musket::parse_whole_list;
using musket::parse_whole_range;

std::string refusal(const std::string& text, char separator, std::size_t count) {
  try {
    parse_whole_list(text, separator, count, "erie-dice", "BRITISH,AMERICAN");
  } catch (const invalid_input& e) {
    EXPECT_EQ(e.field(), "erie-dice");
    return e.what();
  }
  return "(accepted)";
}

TEST(WholeList, ReadsExactlyTheNumbersAsked) {
  EXPECT_EQ(parse_whole_list("3,2", ',', 2, "erie-dice", "B,A"), (std::vector<int>{3, 2}));
  EXPECT_EQ(parse_whole_list("2:2:4", ':', 3, "fort", "DICE:SP:MORALE"), (std::vector<int>{2, 2, 4}));
  EXPECT_EQ(parse_whole_list("-1,0", ',', 2, "x", "A,B"), (std::vector<int>{-1, 0}));  // ranges are the caller's
}

TEST(WholeList, RefusesEveryOtherShape) {
  for (const std::string text : {"", "3", "3,", ",2", "3,2,1", "3,x", "3,2junk", " 3,2", "3;2", "3.5,2"})
    EXPECT_EQ(refusal(text, ',', 2), "'" + text + "' is not BRITISH,AMERICAN") << text;
}

TEST(WholeList, ANumberPastAnIntIsOutOfRangeNotWrapped) {
  // 4294967299 = 2^32 + 3 would read as 3 through a 32-bit wrap.
  EXPECT_EQ(refusal("4294967299,2", ',', 2), "'4294967299' is out of range; allowed -2147483648..2147483647");
  EXPECT_EQ(refusal("3,99999999999999999999999", ',', 2),
            "'99999999999999999999999' is out of range; allowed -2147483648..2147483647");
}

TEST(WholeRange, StepsAndBounds) {
  EXPECT_EQ(parse_whole_range("1..10:3", "vary", 100), (std::vector<int>{1, 4, 7, 10}));
  EXPECT_EQ(parse_whole_range("2147483646..2147483647", "vary", 100), (std::vector<int>{2147483646, 2147483647}));
  // 0..2^31-1 holds 2^31 values: refused by count before anything is allocated.
  try {
    parse_whole_range("0..2147483647", "vary", 1000);
    FAIL() << "accepted";
  } catch (const invalid_input& e) {
    EXPECT_NE(std::string(e.what()).find("2147483648 points"), std::string::npos) << e.what();
  }
  EXPECT_THROW(parse_whole_range("5..1", "vary", 100), invalid_input);
  EXPECT_THROW(parse_whole_range("1..10:0", "vary", 100), invalid_input);
}

}  // namespace
