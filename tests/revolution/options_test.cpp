// Variable Forces options: sums, the +/-21 cap, compatibility and the enumeration, worked from
// the rulebook's Variable Forces section and the known part of the compatibility chart.
#include "calc/revolution/options.hpp"

#include <gtest/gtest.h>

#include "calc/revolution/option_compare.hpp"
#include "core/invalid_input.hpp"
#include "test_support.hpp"

namespace musket::revolution {
namespace {

const options_data& data() {
  static const options_data d = load_options({test::shipped("options.json"), ""});
  return d;
}

option_set_analysis analyse(const std::string& letters) {
  return analyse_options(data(), parse_option_letters(letters, "use"));
}

// The worked example: D +9, H +3, B -14 as printed = -2 (goal 49, floor(49/2) = 24); with the
// example's -13 the net is -1 (goal 50, 25). B-D and B-H are not transcribed: unknown, not legal.
TEST(RevolutionOptions, WorkedExampleSums) {
  const auto a = analyse("D,H,B");
  EXPECT_EQ(a.net, -2);
  ASSERT_TRUE(a.net_alternative.has_value());
  EXPECT_EQ(*a.net_alternative, -1);
  EXPECT_EQ(a.goals[0].goal, 49);
  EXPECT_EQ(a.goals[0].after_two_major_successes, 24);
  EXPECT_EQ(a.status, legality::unknown);
  EXPECT_EQ(data().pair('D', 'H').status, compatibility::compatible);
}

// Option F example: -21 is the maximum; goal 30, 15 after two Major Successes. Errata periods:
// 41 - 21 = 20 (10), 51 - 21 = 30 (15), 61 - 21 = 40 (20).
TEST(RevolutionOptions, OptionFGoals) {
  const auto a = analyse("F");
  EXPECT_EQ(a.status, legality::legal);
  EXPECT_EQ(a.goals[0].goal, 30);
  EXPECT_EQ(a.goals[0].after_two_major_successes, 15);
  ASSERT_EQ(a.goals.size(), 4u);
  EXPECT_EQ(a.goals[1].goal, 20);
  EXPECT_EQ(a.goals[1].after_two_major_successes, 10);
  EXPECT_EQ(a.goals[3].goal, 40);
  EXPECT_EQ(a.goals[3].after_two_major_successes, 20);
}

// The cap makes a set illegal whatever its unknown pairs: A+G+H+J = 11+4+3+5 = 23 > 21 and
// F+I = -21-2 = -23 < -21. B+C = -14-7 = -21 is exactly at the cap, and B-C is compatible.
TEST(RevolutionOptions, TheTwentyOneCap) {
  EXPECT_EQ(analyse("A,G,H,J").net, 23);
  EXPECT_EQ(analyse("A,G,H,J").status, legality::illegal);
  EXPECT_EQ(analyse("F,I").net, -23);
  EXPECT_EQ(analyse("F,I").status, legality::illegal);
  EXPECT_EQ(analyse("B,C").net, -21);
  EXPECT_EQ(analyse("B,C").status, legality::legal);
}

// Row A of the chart: A is incompatible with B, C and D and compatible with E..L. H-K: the
// example says incompatible, the chart (per the transcription note) compatible: a conflict,
// reported unknown.
TEST(RevolutionOptions, CompatibilityFromTheKnownChart) {
  EXPECT_EQ(analyse("A,B").status, legality::illegal);
  EXPECT_EQ(analyse("A,D").status, legality::illegal);
  EXPECT_EQ(analyse("A,E").status, legality::legal);
  EXPECT_EQ(analyse("A,E").net, 5);
  EXPECT_EQ(analyse("H,K").status, legality::unknown);
  EXPECT_EQ(data().pair('H', 'K').status, compatibility::conflict);
  EXPECT_EQ(analyse("E,G").status, legality::unknown);  // never transcribed
}

// The transcription note under the chart: the printed chart lists K as incompatible with C, D and
// E (RULINGS.md). C+K = -7-11 = -18 and E+K = -17 are within the cap, so only the pair makes them
// illegal; the reason names the pair and the note. D+K = +9-11 = -2.
TEST(RevolutionOptions, OptionKWithCDEFromTheTranscriptionNote) {
  for (const char* set : {"C,K", "D,K", "E,K"}) {
    const auto a = analyse(set);
    EXPECT_EQ(a.status, legality::illegal) << set;
    ASSERT_EQ(a.reasons.size(), 1u) << set;
    EXPECT_NE(a.reasons[0].find("are incompatible"), std::string::npos) << a.reasons[0];
    EXPECT_NE(a.reasons[0].find("transcription note"), std::string::npos) << a.reasons[0];
  }
  EXPECT_EQ(analyse("C,K").net, -18);
  EXPECT_EQ(analyse("D,K").net, -2);
  EXPECT_EQ(analyse("E,K").net, -17);
  EXPECT_EQ(data().pair('K', 'C').status, compatibility::incompatible);  // symmetric
  // A larger set with K and D: unknown before (D-L, K-L untranscribed), illegal now.
  EXPECT_EQ(analyse("D,K,L").status, legality::illegal);
}

// The classification of all 4096 sets, worked independently of the program: a set is illegal
// when |net| > 21 (adjustments as printed: A +11, B -14, C -7, D +9, E -6, F -21, G +4, H +3,
// I -2, J +5, K -11, L -15) or it holds a known incompatible pair (A-B, A-C, A-D from row A;
// C-K, D-K, E-K from the transcription note).
TEST(RevolutionOptions, IllegalCountFromTheCapAndTheKnownPairs) {
  const std::array<int, 12> adjustment{11, -14, -7, 9, -6, -21, 4, 3, -2, 5, -11, -15};
  const std::vector<std::pair<int, int>> incompatible{{0, 1}, {0, 2}, {0, 3}, {2, 10}, {3, 10}, {4, 10}};
  int illegal = 0;
  for (int mask = 0; mask < 4096; ++mask) {
    int net = 0;
    for (int i = 0; i < 12; ++i)
      if (mask & (1 << i)) net += adjustment[static_cast<std::size_t>(i)];
    bool bad = net > 21 || net < -21;
    for (const auto& [x, y] : incompatible) bad = bad || ((mask >> x) & 1 && (mask >> y) & 1);
    if (bad) ++illegal;
  }
  const auto e = enumerate_option_sets(data());
  EXPECT_EQ(e.illegal_count, illegal);
  EXPECT_EQ(e.unknown_count, 4096 - 23 - illegal);
}

// Known-legal sets are the cliques of the known-compatible pairs within the cap. Those pairs are
// A-E..A-L (8), B-C and D-H: 10 edges, and no triangle (E..L share no known pair among
// themselves; D-H cannot join A because A-D is incompatible). So: the empty set + 12 single
// options + 10 pairs = 23, every one within +/-21 (the extremes are F and B+C at -21, A+J at +16).
TEST(RevolutionOptions, EnumerationCountOnTheKnownChart) {
  const auto e = enumerate_option_sets(data());
  EXPECT_EQ(e.legal_count, 23);
  EXPECT_EQ(e.legal.size(), 23u);
  EXPECT_EQ(e.legal_count + e.illegal_count + e.unknown_count, 4096);
  EXPECT_EQ(e.legal.front().net, -21);
  EXPECT_EQ(e.legal.back().net, 16);
  for (std::size_t i = 1; i < e.legal.size(); ++i) EXPECT_LE(e.legal[i - 1].net, e.legal[i].net);
}

TEST(RevolutionOptions, BadLettersAreRejected) {
  EXPECT_THROW(parse_option_letters("Z", "use"), invalid_input);
  EXPECT_THROW(parse_option_letters("D,D", "use"), invalid_input);
  EXPECT_THROW(parse_option_letters("", "use"), invalid_input);
  EXPECT_EQ(parse_option_letters("d,b", "use"), (std::vector<char>{'B', 'D'}));
}

// Printed reinforcement tables: A adds 4 + 4 + 10 + 12 = 30; B deducts 20 + 6 + 4 = 30; D's '81
// row is cut off in our transcript and kept unknown.
TEST(RevolutionOptions, ReinforcementTables) {
  int a = 0, b = 0;
  for (const auto& c : data().option('A').changes) a += *c.points;
  for (const auto& c : data().option('B').changes) b += *c.points;
  EXPECT_EQ(a, 30);
  EXPECT_EQ(b, -30);
  EXPECT_FALSE(data().option('D').changes.back().points.has_value());
  EXPECT_EQ(data().option('B').adjustment, -14);
}

// Option G: a third lost, rounded up: New York 5 - ceil(5/3) = 3 (the rule's own example);
// Massachusetts Bay 27 - 9 = 18; 1 - ceil(1/3) = 0; 0 stays 0.
TEST(RevolutionOptions, OptionGAllowances) {
  EXPECT_EQ(less_efficient_allowance(5), 3);
  EXPECT_EQ(less_efficient_allowance(27), 18);
  EXPECT_EQ(less_efficient_allowance(1), 0);
  EXPECT_EQ(less_efficient_allowance(0), 0);
}

// --battle: 15M,8C v 3T,8B is 2:1; under G the Militia lose ceil(15/3) = 5 and the Tories
// ceil(3/3) = 1: 10M,8C (18) v 2T,8B (10) is 1:1. E scales 12F to 18F: 12F,3C (15) v 10B is 1:1,
// 18F,3C (21) is 2:1; K removes the French Permanent: 3C v 10B cannot attack.
TEST(RevolutionOptions, BattleVariants) {
  battle_setup s;
  s.attacker = parse_force("15M,8C", "attacker");
  s.defender = parse_force("3T,8B", "defender");
  auto v = option_battle_variants(test::shipped_crt(), s);
  ASSERT_EQ(v.size(), 2u);
  EXPECT_EQ(v[0].result->o.column, 2);
  EXPECT_EQ(v[1].option, "G");
  EXPECT_EQ(v[1].setup.attacker[unit_type::militia], 10);
  EXPECT_EQ(v[1].setup.defender[unit_type::tory], 2);
  EXPECT_EQ(v[1].result->o.column, 1);
  s.attacker = parse_force("12F,3C", "attacker");
  s.defender = parse_force("10B", "defender");
  v = option_battle_variants(test::shipped_crt(), s);
  ASSERT_EQ(v.size(), 3u);
  EXPECT_EQ(v[0].result->o.column, 1);
  EXPECT_EQ(v[1].option, "E");
  EXPECT_EQ(v[1].result->o.column, 2);
  EXPECT_EQ(v[2].option, "K");
  EXPECT_FALSE(v[2].result.has_value());
}

// --battle with American defenders in a Fort: the battle as given must satisfy case F (6C is bad
// input); a variant that breaks it is not fought. 30B v 3F,2C in a Fort (15) is 2:1; under E the
// French become 3 x 18/12 = 4 (rounded down), 4F,2C = 6 points: beyond the Fort's 5.
TEST(RevolutionOptions, BattleVariantsKeepTheFortLimits) {
  battle_setup s;
  s.attacker = parse_force("30B", "attacker");
  s.defender = parse_force("6C", "defender");
  s.fort = true;
  EXPECT_THROW(option_battle_variants(test::shipped_crt(), s), invalid_input);
  s.defender = parse_force("3F,2C", "defender");
  const auto v = option_battle_variants(test::shipped_crt(), s);
  ASSERT_EQ(v.size(), 3u);
  EXPECT_EQ(v[0].result->o.column, 2);
  EXPECT_EQ(v[1].option, "E");
  EXPECT_EQ(v[1].setup.defender[unit_type::french_permanent], 4);
  EXPECT_FALSE(v[1].result.has_value());
  EXPECT_NE(v[1].why_not.find("case F"), std::string::npos);
  EXPECT_EQ(v[2].option, "K");  // 2C in the Fort: 30 v 6, 4:1 (5:1 capped)
  EXPECT_EQ(v[2].result->o.column, 4);
}

// What an option changes, for the list: A's printed table (Win. Spr. Sum. Fall rows '76 and '77)
// by season; D's '81 row is cut off ("?"); a positive adjustment helps the British.
TEST(RevolutionOptions, WhatEachOptionChanges) {
  EXPECT_EQ(reinforcements_text(data().option('A')), "Fall 1776 +4; Winter 1777 +4; Spring 1777 +10; Summer 1777 +12");
  EXPECT_EQ(reinforcements_text(data().option('B')), "Summer 1776 -20; Fall 1776 -6; Winter 1777 -4");
  const std::string d = reinforcements_text(data().option('D'));
  EXPECT_EQ(d.substr(d.size() - 8), "? 1781 ?");
  EXPECT_NE(reinforcements_text(data().option('C')).find("1780"), std::string::npos);
  EXPECT_NE(data().option('E').summary.forces.find("12 -> 18"), std::string::npos);
  EXPECT_FALSE(data().option('H').summary.rules.empty());
  EXPECT_TRUE(data().option('H').summary.forces.empty());
  EXPECT_EQ(favoured_side(data().option('A').adjustment), "British");   // +11
  EXPECT_EQ(favoured_side(data().option('B').adjustment), "American");  // -14
  EXPECT_EQ(favoured_side(0), "neither");
}

// A,E against B,C. Nets from the printed headings: A +11, E -6 -> +5; B -14, C -7 -> -21. Goals
// are base + net, halved (rounded down) after two Major Successes. Reinforcements: A's table
// (Fall '76 4, Win '77 4, Spr '77 10, Sum '77 12) against B's (Sum '76 -20, Fall '76 -6, Win '77
// -4): five turns in season order; C's 1780 deduction has no table and adds no turn.
TEST(RevolutionOptions, CompareTwoSets) {
  const int first_net = 11 + -6, second_net = -14 + -7;
  const auto c = compare_option_sets(data(), parse_option_letters("E,A", "compare"), parse_option_letters("B,C", "c"));
  EXPECT_EQ(c.first.net, first_net);
  EXPECT_EQ(c.second.net, second_net);
  EXPECT_EQ(c.first.status, legality::legal);   // A-E compatible (row A)
  EXPECT_EQ(c.second.status, legality::legal);  // B-C compatible (row B), -21 at the cap
  const std::array<int, 4> bases{51, 41, 51, 61};
  ASSERT_EQ(c.first.goals.size(), 4u);
  for (std::size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(c.first.goals[i].goal, bases[i] + first_net);
    EXPECT_EQ(c.second.goals[i].goal, bases[i] + second_net);
    EXPECT_EQ(c.first.goals[i].after_two_major_successes, (bases[i] + first_net) / 2);
  }
  EXPECT_EQ(c.first.goals[0].goal, 56);
  EXPECT_EQ(c.second.goals[3].after_two_major_successes, 20);  // (61 - 21) / 2
  struct expected_turn {
    int year;
    const char* season;
    int first, second;
  };
  const std::vector<expected_turn> want{{1776, "Summer", 0, -20},
                                        {1776, "Fall", 4, -6},
                                        {1777, "Winter", 4, -4},
                                        {1777, "Spring", 10, 0},
                                        {1777, "Summer", 12, 0}};
  ASSERT_EQ(c.turns.size(), want.size());
  for (std::size_t i = 0; i < want.size(); ++i) {
    EXPECT_EQ(c.turns[i].year, want[i].year) << i;
    EXPECT_EQ(c.turns[i].season, want[i].season) << i;
    EXPECT_EQ(c.turns[i].first_total, want[i].first) << i;
    EXPECT_EQ(c.turns[i].second_total, want[i].second) << i;
  }
}

// Legality with reasons on both sides: C,K is illegal by the transcription note; D,H,B is unknown
// and decided by B-D and B-H (D-H is compatible by the worked example). D's cut-off '81 row makes
// that turn's total unknown, and it comes after every 1781 season we know (none here).
TEST(RevolutionOptions, CompareReportsLegalityAndUnknownTurns) {
  const auto c = compare_option_sets(data(), parse_option_letters("C,K", "c"), parse_option_letters("D,H,B", "c"));
  EXPECT_EQ(c.first.status, legality::illegal);
  ASSERT_EQ(c.first.deciding.size(), 1u);
  EXPECT_NE(c.first.reasons[0].find("transcription note"), std::string::npos);
  EXPECT_EQ(c.second.status, legality::unknown);
  ASSERT_EQ(c.second.deciding.size(), 2u);
  EXPECT_EQ(std::string({c.second.deciding[0].a, c.second.deciding[0].b}), "BD");
  EXPECT_EQ(std::string({c.second.deciding[1].a, c.second.deciding[1].b}), "BH");
  const auto& last = c.turns.back();
  EXPECT_EQ(last.year, 1781);
  EXPECT_EQ(last.season, "");
  EXPECT_FALSE(last.second_total.has_value());
  EXPECT_EQ(last.first_total, 0);  // C and K have no printed table
}

// --sort size: the empty set, then the 12 singles by net (F -21 first, A +11 last), then the 10
// known-compatible pairs by net (B,C -21 first, A,J +16 last). --include-unknown lists every
// unknown set, each with its deciding pairs, none of them compatible.
TEST(RevolutionOptions, EnumerationBySizeWithUnknownSets) {
  const auto e = enumerate_option_sets(data(), true, set_order::size);
  ASSERT_EQ(e.legal.size(), 23u);
  EXPECT_TRUE(e.legal[0].letters.empty());
  EXPECT_EQ(e.legal[1].letters, std::vector<char>{'F'});
  EXPECT_EQ(e.legal[12].letters, std::vector<char>{'A'});
  EXPECT_EQ(e.legal[13].letters, (std::vector<char>{'B', 'C'}));
  EXPECT_EQ(e.legal[22].letters, (std::vector<char>{'A', 'J'}));
  EXPECT_EQ(static_cast<int>(e.unknown.size()), e.unknown_count);
  for (std::size_t i = 1; i < e.unknown.size(); ++i)
    EXPECT_LE(e.unknown[i - 1].letters.size(), e.unknown[i].letters.size());
  for (const auto& a : e.unknown) {
    EXPECT_EQ(a.status, legality::unknown);
    ASSERT_FALSE(a.deciding.empty());
    for (const auto& p : a.deciding) EXPECT_NE(p.entry->status, compatibility::compatible);
  }
  // H,K is unknown only through its conflict; without --include-unknown the list stays empty.
  const auto hk = analyse("H,K");
  ASSERT_EQ(hk.deciding.size(), 1u);
  EXPECT_EQ(hk.deciding[0].entry->status, compatibility::conflict);
  EXPECT_TRUE(enumerate_option_sets(data()).unknown.empty());
  EXPECT_THROW(parse_set_order("largest", "sort"), invalid_input);
}

}  // namespace
}  // namespace musket::revolution
