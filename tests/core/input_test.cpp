// The one input and output path: size cap, unreadable paths, JSON depth and number checks, the
// checked accessors, safe echo of text, and the atomic output file.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "core/input_file.hpp"
#include "core/invalid_input.hpp"
#include "core/json_input.hpp"
#include "core/output_file.hpp"
#include "core/printable.hpp"
#include "tests/scratch_folder.hpp"

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

fs::path scratch(const std::string& name) {
  return musket::testing::scratch_folder() / name;
}

void write(const fs::path& p, const std::string& text) {
  std::ofstream(p, std::ios::binary) << text;
}

// The field and message of the invalid_input `f` throws; fails the test if it throws none.
template <class F>
std::pair<std::string, std::string> refusal(F&& f) {
  try {
    f();
  } catch (const musket::invalid_input& e) {
    return {e.field(), e.what()};
  }
  ADD_FAILURE() << "no invalid_input thrown";
  return {};
}

TEST(InputFile, ReadsARegularFileWhole) {
  const auto p = scratch("ok.json");
  write(p, "{\"a\": 1}");
  EXPECT_EQ(musket::read_input_file(p.string(), "file"), "{\"a\": 1}");
}

TEST(InputFile, DirectoryMissingAndUnreadableAreEnvironmentProblems) {
  EXPECT_THROW(musket::read_input_file(::testing::TempDir(), "file"), musket::environment_problem);
  EXPECT_THROW(musket::read_input_file(scratch("none.json").string(), "file"), musket::environment_problem);
  const auto [field, message] = refusal([] { musket::read_input_file("/", "scenario"); });
  EXPECT_EQ(field, "scenario");
  EXPECT_NE(message.find("Is a directory"), std::string::npos) << message;
}

TEST(InputFile, OverTheCapIsRefusedAndAStreamIsNeverReadWhole) {
  const auto p = scratch("big.json");
  write(p, std::string(musket::input_file_limit + 1, ' '));
  const auto [field, message] = refusal([&] { musket::read_input_file(p.string(), "file"); });
  EXPECT_EQ(field, "file");
  EXPECT_NE(message.find("1024 KB"), std::string::npos) << message;
  // Exactly at the cap is fine.
  write(p, std::string(musket::input_file_limit, ' '));
  EXPECT_EQ(musket::read_input_file(p.string(), "file").size(), musket::input_file_limit);
  // /dev/zero never ends: the read stops one byte past the cap.
  EXPECT_THROW(musket::read_input_file("/dev/zero", "file"), musket::invalid_input);
  try {
    musket::read_input_file("/dev/zero", "file");
  } catch (const musket::environment_problem&) {
    ADD_FAILURE() << "an endless stream is the input's fault, not an unreadable path";
  } catch (const musket::invalid_input&) {
  }
}

TEST(JsonInput, DeepNestingIsRefusedWithoutRecursion) {
  // 64 levels are allowed, 65 are not; 100,000 levels must not overflow the stack.
  const auto nested = [](int depth) { return std::string(depth, '[') + std::string(depth, ']'); };
  EXPECT_NO_THROW(musket::parse_json_text(nested(musket::json_depth_limit), "f.json"));
  const auto [field, message] = refusal([&] { musket::parse_json_text(nested(65), "f.json"); });
  EXPECT_EQ(field,
            "f.json: /0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/"
            "0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0");
  EXPECT_NE(message.find("deeper than 64"), std::string::npos) << message;
  std::string deep;
  for (int i = 0; i < 100000; ++i) deep += "{\"a\":";
  EXPECT_THROW(musket::parse_json_text(deep, "deep.json"), musket::invalid_input);
}

TEST(JsonInput, NumbersNoFieldCanHoldAreRefusedNamingThePath) {
  auto [field, message] = refusal([] { musket::parse_json_text(R"({"army": {"war": 1e400}})", "p.json"); });
  EXPECT_EQ(field, "p.json: /army/war");
  EXPECT_NE(message.find("out of range"), std::string::npos) << message;
  std::tie(field, message) =
      refusal([] { musket::parse_json_text(R"({"dice": [2, 123456789012345678901234567890]})", "p.json"); });
  EXPECT_EQ(field, "p.json: /dice/1");
  EXPECT_NE(message.find("123456789012345678901234567890"), std::string::npos) << message;
  // 2^64 - 1 fits nlohmann's unsigned type but no field: refused rather than read as -1.
  std::tie(field, message) = refusal([] { musket::parse_json_text(R"({"sp": 18446744073709551615})", "s.json"); });
  EXPECT_EQ(field, "s.json: /sp");
  // 2^63 - 1 and -2^63 are parsed; the accessor then applies the field's range.
  const json ok = musket::parse_json_text(R"([9223372036854775807, -9223372036854775808, 1.5e300])", "x");
  EXPECT_EQ(ok[0].get<long long>(), 9223372036854775807LL);
}

TEST(JsonInput, SyntaxErrorsAndBadUtf8AreInvalidInputNeverAJsonException) {
  EXPECT_THROW(musket::parse_json_text("{\"a\": }", "f"), musket::invalid_input);
  EXPECT_THROW(musket::parse_json_text("\"\xff\"", "f"), musket::invalid_input);
  EXPECT_THROW(musket::parse_json_text("", "f"), musket::invalid_input);
}

// Issue 41: a repeated key is refused naming the file and the key's path, not the last one kept.
TEST(JsonInput, ARepeatedKeyIsRefusedNamingTheKey) {
  auto [field, message] =
      refusal([] { musket::parse_json_text(R"({"army": {"war": 2, "food": 1, "war": 5}})", "plan.json"); });
  EXPECT_EQ(field, "plan.json: /army/war");
  EXPECT_EQ(message, "the key 'war' appears twice in one object; give each key once");
  std::tie(field, message) = refusal([] { musket::parse_json_text(R"([{"a": 1}, {"b": 1, "b": 1}])", "x.json"); });
  EXPECT_EQ(field, "x.json: /1/b");
  // The same key in different objects, and in sibling objects of an array, is fine.
  const json ok = musket::parse_json_text(R"({"a": {"a": 1}, "b": [{"a": 1}, {"a": 2}]})", "y.json");
  EXPECT_EQ(ok["b"][1]["a"], 2);
}

TEST(JsonInput, CheckedAccessorsRefuseWrongTypesAndRanges) {
  const json doc = json::parse(R"({"n": 4294967301, "s": "x", "b": true, "u": 18446744073709551615, "f": 2.5})");
  auto [field, message] = refusal([&] { musket::json_integer(doc["n"], "p: /n", 0, 99); });
  EXPECT_EQ(field, "p: /n");
  EXPECT_EQ(message, "4294967301 is out of range; allowed 0..99");  // never wrapped to 5
  std::tie(field, message) = refusal([&] { musket::json_integer(doc["u"], "p: /u", -10, 10); });
  EXPECT_EQ(message, "18446744073709551615 is out of range; allowed -10..10");  // never -1
  std::tie(field, message) = refusal([&] { musket::json_integer(doc["s"], "p: /s", 0, 9); });
  EXPECT_EQ(message, "expected a whole number, got \"x\"");
  std::tie(field, message) = refusal([&] { musket::json_integer(doc["f"], "p: /f", 0, 9); });
  EXPECT_EQ(message, "expected a whole number, got 2.5");
  std::tie(field, message) = refusal([&] { musket::json_string(doc["b"], "p: /b"); });
  EXPECT_EQ(message, "expected a string, got true");
  std::tie(field, message) = refusal([&] { musket::json_boolean(doc, "p: /"); });
  EXPECT_EQ(message, "expected true or false, got an object");
  EXPECT_EQ(musket::json_integer(json(-3), "x", -3, 3), -3);
  EXPECT_DOUBLE_EQ(musket::json_number(doc["f"], "x", 0, 3), 2.5);
  EXPECT_THROW(musket::json_number(doc["f"], "x", 0, 2), musket::invalid_input);
  EXPECT_TRUE(musket::json_boolean(doc["b"], "x"));
  EXPECT_EQ(musket::json_string(doc["s"], "x"), "x");
}

TEST(JsonInput, ACacheScopeParsesEachPathOnceAndEndsWithItsScope) {
  const fs::path p = scratch("cached.json");
  write(p, R"({"war": 3})");
  {
    const musket::json_file_cache cache;
    EXPECT_EQ(musket::read_json_input(p.string(), "file").at("war"), 3);
    write(p, R"({"war": 5})");  // changed on disk: the scope keeps the first reading
    EXPECT_EQ(musket::read_json_input(p.string(), "file").at("war"), 3);
    write(p, "{");  // even broken, the file is not read again inside the scope
    EXPECT_EQ(musket::read_json_input(p.string(), "file").at("war"), 3);
  }
  // Outside the scope every call reads the file.
  EXPECT_EQ(refusal([&] { musket::read_json_input(p.string(), "file"); }).first.rfind(p.string(), 0), 0u);
  write(p, R"({"war": 7})");
  EXPECT_EQ(musket::read_json_input(p.string(), "file").at("war"), 7);
}

TEST(JsonInput, PointersEscapeTildeAndSlash) {
  EXPECT_EQ(musket::pointer_child("/", "a/b~c"), "/a~1b~0c");
  EXPECT_EQ(musket::pointer_child("/a", 3), "/a/3");
}

TEST(Printable, ControlCharactersAndBadUtf8AreEscapedValidUtf8Kept) {
  EXPECT_EQ(musket::printable("a\nb"), "a\\nb");
  EXPECT_EQ(musket::printable("tab\there\r"), "tab\\there\\r");
  EXPECT_EQ(musket::printable("\x1b[31m"), "\\x1B[31m");
  EXPECT_EQ(musket::printable("\xff"), "\\xFF");
  EXPECT_EQ(musket::printable("\xc3"), "\\xC3");                    // a lead byte with nothing after it
  EXPECT_EQ(musket::printable("\xc0\xaf"), "\\xC0\\xAF");           // an overlong '/'
  EXPECT_EQ(musket::printable("\xed\xa0\x80"), "\\xED\\xA0\\x80");  // a UTF-16 surrogate
  EXPECT_EQ(musket::printable("\xc2\x9b"), "\\u009B");              // C1 control (CSI)
  EXPECT_EQ(musket::printable("Montr\xc3\xa9"
                              "al \xe2\x80\x94 \xf0\x9f\x8e\xb2"),
            "Montr\xc3\xa9"
            "al \xe2\x80\x94 \xf0\x9f\x8e\xb2");
  EXPECT_TRUE(musket::valid_utf8("\xc3\xa9"));
  EXPECT_FALSE(musket::valid_utf8("\xf5\x80\x80\x80"));  // past U+10FFFF
}

TEST(OutputFile, WritesAtomicallyAndReplacesARegularFile) {
  const auto p = scratch("out.csv");
  write(p, "old");
  musket::write_output_file(p.string(), "new contents\n", "csv");
  std::ifstream in(p);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(text, "new contents\n");
  for (const auto& entry : fs::directory_iterator(p.parent_path()))
    EXPECT_EQ(entry.path().filename().string().find(".tmp-"), std::string::npos) << "temporary file left behind";
}

TEST(OutputFile, NonRegularTargetsAreRefusedBeforeAnythingIsWritten) {
  const auto target = scratch("real.csv");
  write(target, "keep");
  const auto link = scratch("link.csv");
  fs::remove(link);
  fs::create_symlink(target, link);
  auto [field, message] = refusal([&] { musket::write_output_file(link.string(), "x", "csv"); });
  EXPECT_EQ(field, "csv");
  EXPECT_NE(message.find("symbolic link"), std::string::npos) << message;
  std::ifstream in(target);
  std::string kept;
  in >> kept;
  EXPECT_EQ(kept, "keep");
  std::tie(field, message) = refusal([&] { musket::write_output_file(target.parent_path().string(), "x", "plot"); });
  EXPECT_NE(message.find("directory"), std::string::npos) << message;
  std::tie(field, message) = refusal([] { musket::write_output_file("/dev/full", "x", "csv"); });
  EXPECT_NE(message.find("not a regular file"), std::string::npos) << message;
  EXPECT_THROW(musket::check_output_target("/dev/null", "csv"), musket::invalid_input);
}

TEST(OutputFile, AnUnwritableDirectoryIsAnEnvironmentProblem) {
  EXPECT_THROW(musket::write_output_file("/nonexistent-musket-dir/out.csv", "x", "csv"), musket::environment_problem);
}

}  // namespace

namespace {

// Issue 41: text a chart draws is valid UTF-8 of XML characters only; text a user gives for one
// is refused naming the first bad byte.
TEST(Printable, PlainTextReplacesWhatXmlAndATerminalCannotTake) {
  const std::string fffd = "\xEF\xBF\xBD";
  EXPECT_EQ(musket::plain_text("a\x01"
                               "b"),
            "a" + fffd + "b");
  EXPECT_EQ(musket::plain_text("\x1B[0m"), fffd + "[0m");
  EXPECT_EQ(musket::plain_text("\xFF\xFE"), fffd + fffd);                  // two bytes that are not UTF-8
  EXPECT_EQ(musket::plain_text("\xC2\x85\xC2\xA0"), fffd + "\xC2\xA0");    // U+0085 (C1) out, U+00A0 kept
  EXPECT_EQ(musket::plain_text("\xEF\xBF\xBE\xEF\xBF\xBF"), fffd + fffd);  // U+FFFE, U+FFFF
  EXPECT_EQ(musket::plain_text("\xED\xA0\x80"), fffd + fffd + fffd);       // a surrogate: 3 bad bytes
  EXPECT_EQ(musket::plain_text("Kriegsvorr\xC3\xA4te \xE2\x80\x94 \xF0\x9F\x8E\xB2"),
            "Kriegsvorr\xC3\xA4te \xE2\x80\x94 \xF0\x9F\x8E\xB2");
  EXPECT_NO_THROW(musket::require_plain_text("Siege \xC2\xBD <&>", "title"));
  auto [field, message] = refusal([] { musket::require_plain_text("ab\x7F", "title"); });
  EXPECT_EQ(field, "title");
  EXPECT_EQ(message, "holds the control character \\x7F at byte 2; give plain text");
  std::tie(field, message) = refusal([] { musket::require_plain_text("a\xC0\xAF", "label"); });
  EXPECT_EQ(message, "is not valid UTF-8 (byte \\xC0 at byte 1); give the text in UTF-8");
}

// Issue 41: an output that is an input by another name (a hard link, a "dir/../" spelling) is
// refused; a different file, or one not there yet, is not.
TEST(OutputFile, AnOutputThatIsAnInputIsRefused) {
  const fs::path plan = scratch("plan-in.json"), link = scratch("plan-link.json");
  write(plan, "{}");
  fs::remove(link);
  fs::create_hard_link(plan, link);
  const std::string dotted = (plan.parent_path() / ".." / plan.parent_path().filename() / "plan-in.json").string();
  auto [field, message] = refusal([&] { musket::check_output_not_input(link.string(), "csv", {"x", plan.string()}); });
  EXPECT_EQ(field, "csv");
  EXPECT_EQ(message, "'" + link.string() + "' is the input file '" + plan.string() +
                         "' this command reads; write the output to another file");
  EXPECT_THROW(musket::check_output_not_input(dotted, "plot", {plan.string()}), musket::invalid_input);
  EXPECT_NO_THROW(musket::check_output_not_input(scratch("other.csv").string(), "csv", {plan.string()}));
  write(scratch("other.csv"), "a");
  EXPECT_NO_THROW(musket::check_output_not_input(scratch("other.csv").string(), "csv", {plan.string(), "1"}));
}

}  // namespace
