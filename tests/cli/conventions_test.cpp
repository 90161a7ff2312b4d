// The prompt conventions every command shares: --version, "did you mean", every missing required
// option named at once, and a game's help offering only that game's options.
#include <gtest/gtest.h>

#include "run_musket.hpp"

namespace {

bool one_line(const std::string& text) {
  return !text.empty() && text.find('\n') == text.size() - 1;
}

TEST(CliConventions, VersionExitsZero) {
  const auto r = run_musket("--version");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.rfind("musket ", 0), 0u) << r.out;
  EXPECT_NE(r.out.find('.'), std::string::npos) << r.out;  // major.minor.patch
}

TEST(CliConventions, MisspelledGameCommandAndOptionGetASuggestion) {
  const auto game = run_musket("nx battle");
  EXPECT_EQ(game.exit_code, 2);
  EXPECT_NE(game.err.find("did you mean 'nt'?"), std::string::npos) << game.err;
  EXPECT_TRUE(one_line(game.err)) << game.err;

  const auto command = run_musket("nt batle --attacker crown");
  EXPECT_EQ(command.exit_code, 2);
  EXPECT_NE(command.err.find("did you mean 'battle'?"), std::string::npos) << command.err;

  const auto option = run_musket("nt battle --attacker crown --terrain point --att-unit 3 --att-war 2 --def-units 2");
  EXPECT_EQ(option.exit_code, 2);
  EXPECT_NE(option.err.find("did you mean '--att-units'?"), std::string::npos) << option.err;
  EXPECT_TRUE(one_line(option.err)) << option.err;

  // Nothing close: no guess.
  const auto far = run_musket("nt zzzzzzzz");
  EXPECT_EQ(far.exit_code, 2);
  EXPECT_EQ(far.err.find("did you mean"), std::string::npos) << far.err;
}

TEST(CliConventions, GameAndCommandNamesIgnoreCase) {
  const auto r = run_musket("NT Battle --attacker crown --terrain point --att-units 3 --att-war 2 --def-units 2");
  EXPECT_EQ(r.exit_code, 0) << r.err;
}

// "crown | patriot" in the help lists an enumerated option's values: any case matches, and a near
// miss is named.
TEST(CliConventions, EnumeratedValuesIgnoreCaseAndSuggest) {
  const auto upper = run_musket(
      "nt battle --attacker Crown --terrain FORT --att-units 3 --att-war 2 --def-units 2 "
      "--format json");
  EXPECT_EQ(upper.exit_code, 0) << upper.err;
  EXPECT_NE(upper.out.find("\"terrain\": \"fort\""), std::string::npos) << upper.out.substr(0, 400);
  const auto typo = run_musket("nt battle --attacker crown --terrain frot --att-units 3 --att-war 2 --def-units 2");
  EXPECT_EQ(typo.exit_code, 2);
  EXPECT_NE(typo.err.find("did you mean 'fort'?"), std::string::npos) << typo.err;
  EXPECT_TRUE(one_line(typo.err)) << typo.err;
}

TEST(CliConventions, EveryMissingRequiredOptionInOneLine) {
  const auto r = run_musket("nt battle --attacker crown");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(one_line(r.err)) << r.err;
  for (const char* name : {"--terrain", "--att-units", "--def-units", "--att-war"})
    EXPECT_NE(r.err.find(name), std::string::npos) << name << " in " << r.err;
  EXPECT_EQ(r.err.find("--attacker"), std::string::npos) << r.err;  // it was given
}

// NT 8.x has no Siege, no Cornwallis and no Subordinate rule in battle; SS has no Declaration floor.
TEST(CliConventions, HelpOffersOnlyTheGamesOwnOptions) {
  const auto nt = run_musket("nt battle --help");
  EXPECT_EQ(nt.exit_code, 0);
  for (const char* ss_only : {"--siege", "--crown-commander", "--patriot-subordinate"})
    EXPECT_EQ(nt.out.find(ss_only), std::string::npos) << ss_only;
  EXPECT_NE(nt.out.find("--track-floor"), std::string::npos);
  const auto ss = run_musket("ss battle --help");
  for (const char* ss_only : {"--siege", "--crown-commander", "--patriot-subordinate"})
    EXPECT_NE(ss.out.find(ss_only), std::string::npos) << ss_only;
  EXPECT_EQ(ss.out.find("--track-floor"), std::string::npos);
  // And an SS option given to NT is refused, not silently ignored.
  const auto refused =
      run_musket("nt battle --attacker crown --terrain city --att-units 3 --att-war 2 --def-units 2 --siege");
  EXPECT_EQ(refused.exit_code, 2);
}

}  // namespace
