#include "core/enum_names.hpp"

#include <gtest/gtest.h>

namespace musket {
namespace {

enum class colour { red, green, blue };
inline constexpr enum_names<colour, 3> names_of_colour{
    {{colour::red, "red"}, {colour::green, "green"}, {colour::blue, "blue"}}};

static_assert(name_of(names_of_colour, colour::green) == "green");
static_assert(value_of(names_of_colour, "blue") == colour::blue);
static_assert(!value_of(names_of_colour, "Blue"));  // exact spelling only

TEST(EnumNames, PrintParseAndList) {
  for (const auto& [value, name] : names_of_colour) {
    EXPECT_EQ(name_of(names_of_colour, value), name);
    EXPECT_EQ(value_of(names_of_colour, name), value);
  }
  EXPECT_EQ(name_of(names_of_colour, static_cast<colour>(7)), "?");
  EXPECT_EQ(value_of(names_of_colour, ""), std::nullopt);
  EXPECT_EQ(names_list(names_of_colour), "red, green, blue");
  EXPECT_EQ(names_list(names_of_colour, " | "), "red | green | blue");
  const colour some[] = {colour::blue, colour::red};
  EXPECT_EQ(names_list_of(names_of_colour, some), "blue, red");
  EXPECT_EQ(names_list_of(names_of_colour, some, " | ", [](colour c) { return c == colour::red ? ":N" : ""; }),
            "blue | red:N");
}

}  // namespace
}  // namespace musket
