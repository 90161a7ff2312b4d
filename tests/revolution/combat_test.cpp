// Combat: odds, CRT results, losses and Major Success, every expectation worked by hand from the
// rules (rules/american-revolution-spi.txt) and RULINGS.md "American Revolution (SPI) combat".
#include "calc/revolution/combat.hpp"

#include <gtest/gtest.h>

#include "core/invalid_input.hpp"
#include "test_support.hpp"

namespace musket::revolution {
namespace {

using test::shipped_crt;

battle_setup setup(const std::string& attacker, const std::string& defender,
                   loss_policy policy = loss_policy::protect_regulars) {
  battle_setup s;
  s.attacker = parse_force(attacker, "attacker");
  s.defender = parse_force(defender, "defender");
  s.policy = policy;
  return s;
}

int lost(const points_by_type& p, unit_type t) {
  return p[static_cast<std::size_t>(t)];
}

// Combat procedure example: 15M + 8C = 23 against 3T + 8B = 11; 23/11 = 2.09, rounded in the
// defender's favour to 2:1.
TEST(RevolutionOdds, TwentyThreeAgainstElevenIsTwoToOne) {
  const odds o = compute_odds(setup("15M,8C", "3T,8B"));
  EXPECT_EQ(o.attacker, 23);
  EXPECT_EQ(o.defender, 11);
  EXPECT_EQ(o.defender_effective, 11);
  EXPECT_EQ(o.column, 2);
}

// Combat case G example: 35 British against 5 Americans in a Fort: 35 to 5 x 3 = 15, 2.33 -> 2:1.
TEST(RevolutionOdds, ThirtyFiveAgainstFiveInAFortIsTwoToOne) {
  battle_setup s = setup("35B", "5C");
  s.fort = true;
  const odds o = compute_odds(s);
  EXPECT_EQ(o.multiplier, 3);
  EXPECT_EQ(o.defender_effective, 15);
  EXPECT_EQ(o.column, 2);
}

// Besieging units attacked solely from the Fort double: 20 v 5 x 2 = 10 -> 2:1 (4:1 without).
TEST(RevolutionOdds, BesiegingDoublesAndAboveFourToOneIsFour) {
  battle_setup s = setup("20C", "5B");
  EXPECT_EQ(compute_odds(s).column, 4);
  s.besieging = true;
  EXPECT_EQ(compute_odds(s).column, 2);
  EXPECT_EQ(compute_odds(setup("100C", "5B")).column, 4);  // 20:1 is treated as 4:1
}

// Combat F (Fortifications E): an American Fort holds at most 5 Strength Points, with at least
// as many Continental (or French) as Militia points. At the boundary: 5 points fight (30 v 5 x 3
// = 15, 2:1), 6 do not; 3C,2M fights, 2C,3M does not; French count with the Continentals
// (2F,1C,3M = 3 v 3 is 1:1, fights). The error names the defender and case F.
TEST(RevolutionOdds, AmericanFortLimitsCaseF) {
  auto fort = [](const std::string& attacker, const std::string& defender) {
    battle_setup s = setup(attacker, defender);
    s.fort = true;
    return s;
  };
  const auto case_f = [](const battle_setup& s) {
    try {
      compute_odds(s);
    } catch (const invalid_input& e) {
      return e.field() == "defender" && std::string(e.what()).find("case F") != std::string::npos;
    }
    return false;
  };
  EXPECT_EQ(compute_odds(fort("30B", "5C")).column, 2);
  EXPECT_TRUE(case_f(fort("30B", "6C")));
  EXPECT_EQ(compute_odds(fort("30B", "3C,2M")).column, 2);
  EXPECT_TRUE(case_f(fort("30B", "2C,3M")));
  EXPECT_TRUE(case_f(fort("30B", "3C,4M")));  // the repro: 7 points and 4 Militia to 3
  EXPECT_TRUE(case_f(fort("30B", "1M")));     // 0 Continentals to 1 Militia
  EXPECT_EQ(compute_odds(fort("30B", "2F,1C,2M")).column, 2);
  EXPECT_TRUE(case_f(fort("30B", "1F,1C,3M")));
  // Not in a Fort, or British in a Fort: no limit. 30 v 7 open is 4:1; 60 v 10B x 3 = 30 is 2:1.
  EXPECT_EQ(compute_odds(setup("30B", "3C,4M")).column, 4);
  battle_setup besieging = setup("30B", "3C,4M");
  besieging.besieging = true;
  EXPECT_EQ(compute_odds(besieging).column, 2);  // 30 v 14
  EXPECT_EQ(compute_odds(fort("60C", "10B")).column, 2);
}

TEST(RevolutionOdds, BadCombatsAreRejected) {
  EXPECT_THROW(compute_odds(setup("10C", "11B")), invalid_input);  // 10/11 below 1:1 (Combat A)
  battle_setup fort = setup("14B", "5C");
  fort.fort = true;
  EXPECT_THROW(compute_odds(fort), invalid_input);  // 14 v 15
  fort.besieging = true;
  EXPECT_THROW(compute_odds(fort), invalid_input);  // both conditions at once
  battle_setup same;
  same.attacker = parse_force("5B", "attacker");
  same.defender = parse_force("3T", "defender");
  EXPECT_THROW(compute_odds(same), invalid_input);  // both British
  try {
    compute_odds(setup("10C", "11B"));
  } catch (const invalid_input& e) {
    EXPECT_EQ(e.field(), "attacker");
    EXPECT_NE(std::string(e.what()).find("1:1"), std::string::npos);
  }
}

TEST(RevolutionForces, StrengthStringsParseAndRejectBadInput) {
  const force f = parse_force("15M, 8C", "attacker");
  EXPECT_EQ(f.owner, side::american);
  EXPECT_EQ(f[unit_type::militia], 15);
  EXPECT_EQ(f[unit_type::continental], 8);
  EXPECT_EQ(parse_force("2SF,4F", "x")[unit_type::french_seasonal], 2);
  EXPECT_THROW(parse_force("15X", "attacker"), invalid_input);    // unknown letter
  EXPECT_THROW(parse_force("3T,8C", "attacker"), invalid_input);  // mixed sides
  EXPECT_THROW(parse_force("0M", "attacker"), invalid_input);     // zero strength
  EXPECT_THROW(parse_force("-3M", "attacker"), invalid_input);    // negative strength
  EXPECT_THROW(parse_force("", "attacker"), invalid_input);
  EXPECT_THROW(parse_force("M", "attacker"), invalid_input);
}

// The shipped table: rows 1-5 as printed, 1:1 and 2:1 row 6 = 1/2Ex (RULINGS.md), 3:1 and 4:1
// row 6 unknown.
TEST(RevolutionCrt, ShippedTableMatchesThePrintedColumns) {
  const auto& t = shipped_crt();
  const crt_result De = crt_result::De, H = crt_result::HalfDe, X = crt_result::HalfEx;
  const std::array<std::array<std::optional<crt_result>, 6>, 4> expected{
      {{De, H, H, X, X, X}, {De, De, H, H, X, X}, {De, De, De, H, H, std::nullopt}, {De, De, De, De, H, std::nullopt}}};
  for (int c = 1; c <= 4; ++c)
    for (int die = 1; die <= 6; ++die)
      EXPECT_EQ(t.at(c, die).result, expected[c - 1][die - 1]) << c << ":1 row " << die;
  EXPECT_FALSE(t.complete());
}

// The rules' 1/2Ex example: 23 v 11 at 2:1, a 5 or a 6 (2 faces of 6) is 1/2Ex; the British lose
// ceil(11/2) = 6 and the Americans an equal 6. With the owner choices of the example (British
// take the last four as Regulars, Americans as Continentals) the British keep 3B + 2T and the
// Americans 3C + 14M.
TEST(RevolutionBattle, HalfExchangeExampleLosesSixEach) {
  const auto s = setup("15M,8C", "3T,8B", loss_policy::protect_irregulars);
  const auto res = resolve_battle(shipped_crt(), s);
  EXPECT_EQ(res.probability(crt_result::HalfEx), rational(2, 6));
  const auto& x = res.outcome(crt_result::HalfEx);
  EXPECT_EQ(x.defender_loss, 6);
  EXPECT_EQ(x.attacker_loss, 6);
  EXPECT_EQ(8 - lost(x.defender_lost, unit_type::regular), 3);
  EXPECT_EQ(3 - lost(x.defender_lost, unit_type::tory), 2);
  EXPECT_EQ(8 - lost(x.attacker_lost, unit_type::continental), 3);
  EXPECT_EQ(15 - lost(x.attacker_lost, unit_type::militia), 14);
  EXPECT_FALSE(x.major_success);  // a 1/2Ex never counts
  // 2:1: De on 1-2, 1/2De on 3-4, 1/2Ex on 5-6, nothing unknown.
  EXPECT_EQ(res.probability(crt_result::De), rational(1, 3));
  EXPECT_EQ(res.probability(crt_result::HalfDe), rational(1, 3));
  EXPECT_EQ(res.unknown(), 0);
}

// Combat G example: 35 v 5 in a Fort at 2:1; a 5 (1/2Ex) costs the Americans ceil(5/2) = 3 and
// the British an equal 3, losses at basic strength.
TEST(RevolutionBattle, FortExampleExchangesThreeEach) {
  battle_setup s = setup("35B", "5C");
  s.fort = true;
  const auto x = resolve_battle(shipped_crt(), s).outcome(crt_result::HalfEx);
  EXPECT_EQ(x.defender_loss, 3);
  EXPECT_EQ(x.attacker_loss, 3);
}

// Loss order: first point Tory/Militia if any, second Regular/Continental if any, then policy.
TEST(RevolutionLosses, OrderFollowsTheTwoPointRuleThenThePolicy) {
  const force british = parse_force("1T,10B", "d");
  // protect-regulars, 3 points: T (rule), B (rule), then no Tory left so B.
  auto l = allocate_losses(british, 3, loss_policy::protect_regulars);
  EXPECT_EQ(lost(l, unit_type::tory), 1);
  EXPECT_EQ(lost(l, unit_type::regular), 2);
  const force tories = parse_force("5T,1B", "d");
  // protect-irregulars, 3 points: T, B, then no Regular left so T: 2T + 1B.
  l = allocate_losses(tories, 3, loss_policy::protect_irregulars);
  EXPECT_EQ(lost(l, unit_type::tory), 2);
  EXPECT_EQ(lost(l, unit_type::regular), 1);
  // protect-regulars, 4 points of 5T,1B: T, B, T, T.
  l = allocate_losses(tories, 4, loss_policy::protect_regulars);
  EXPECT_EQ(lost(l, unit_type::tory), 3);
  EXPECT_EQ(lost(l, unit_type::regular), 1);
  // One type only: every loss from it.
  l = allocate_losses(parse_force("8B", "d"), 6, loss_policy::protect_regulars);
  EXPECT_EQ(lost(l, unit_type::regular), 6);
  // Americans, protect-regulars: M, C, then Militia: 15M,8C losing 6 -> 5M + 1C.
  l = allocate_losses(parse_force("15M,8C", "a"), 6, loss_policy::protect_regulars);
  EXPECT_EQ(lost(l, unit_type::militia), 5);
  EXPECT_EQ(lost(l, unit_type::continental), 1);
  // Never more than the force holds.
  l = allocate_losses(parse_force("2M", "a"), 6, loss_policy::protect_regulars);
  EXPECT_EQ(lost(l, unit_type::militia), 2);
}

// Major Success on a Regular-heavy defence: 30C v 2T,10B is 30/12 -> 2:1.
// De (rows 1-2) eliminates all 10B: a Major Success either way.
// 1/2De (rows 3-4) takes ceil(12/2) = 6: T, B, then protect-regulars T, B, B, B -> 4B (no
// success); protect-irregulars B, B, B, B -> 5B (success). 1/2Ex (rows 5-6) never counts.
// So P = 2/6 protecting Regulars and 4/6 protecting Tories, with nothing unknown.
TEST(RevolutionMajorSuccess, RegularHeavyDefenceDependsOnTheBritishChoice) {
  auto res = resolve_battle(shipped_crt(), setup("30C", "2T,10B", loss_policy::protect_regulars));
  EXPECT_EQ(res.o.column, 2);
  EXPECT_EQ(res.outcome(crt_result::HalfDe).british_regulars_eliminated, 4);
  EXPECT_EQ(res.major_success().min, rational(1, 3));
  EXPECT_EQ(res.major_success().max, rational(1, 3));
  res = resolve_battle(shipped_crt(), setup("30C", "2T,10B", loss_policy::protect_irregulars));
  EXPECT_EQ(res.outcome(crt_result::HalfDe).british_regulars_eliminated, 5);
  EXPECT_EQ(res.major_success().min, rational(2, 3));
  EXPECT_EQ(res.major_success().max, rational(2, 3));
  EXPECT_EQ(res.partial_withdrawal().max, 0);
}

// 3:1 row 6 is unknown: 33C v 11B has De on 1-3 (1/2), 1/2De on 4-5 (1/3), 1/6 unknown.
// De and 1/2De both eliminate >= 5 Regulars (11 and 6); a 1/2Ex would not count: so the unknown
// face may or may not be a success, P in [5/6, 1]. Losses: 11 in [1/2, 2/3], 6 in [1/3, 1/2].
TEST(RevolutionMajorSuccess, UnknownRowSixGivesBounds) {
  const auto res = resolve_battle(shipped_crt(), setup("33C", "11B"));
  EXPECT_EQ(res.o.column, 3);
  EXPECT_EQ(res.unknown(), rational(1, 6));
  EXPECT_EQ(res.major_success().min, rational(5, 6));
  EXPECT_EQ(res.major_success().max, rational(1));
  const auto losses = defender_loss_bounds(res);
  ASSERT_EQ(losses.size(), 2u);
  EXPECT_EQ(losses[0].points, 6);
  EXPECT_EQ(losses[0].p.min, rational(1, 3));
  EXPECT_EQ(losses[0].p.max, rational(1, 2));
  EXPECT_EQ(losses[1].points, 11);
  EXPECT_EQ(losses[1].p.min, rational(1, 2));
  EXPECT_EQ(losses[1].p.max, rational(2, 3));
  const auto attacker = attacker_loss_bounds(res);  // 0 unless the unknown face is a 1/2Ex (6)
  ASSERT_EQ(attacker.size(), 2u);
  EXPECT_EQ(attacker[0].p.min, rational(5, 6));
  EXPECT_EQ(attacker[0].p.max, rational(1));
  EXPECT_EQ(attacker[1].p.min, rational(0));
  EXPECT_EQ(attacker[1].p.max, rational(1, 6));
}

// Partial Withdrawal: 60C v 20B at 3:1. De (1-3) takes 20B >= 15; 1/2De (4-5) takes 10B, a
// Major Success only; the unknown 6 could be De: P in [1/2, 2/3]. Major Success in [5/6, 1].
TEST(RevolutionMajorSuccess, PartialWithdrawalNeedsFifteenRegulars) {
  const auto res = resolve_battle(shipped_crt(), setup("60C", "20B"));
  EXPECT_EQ(res.partial_withdrawal().min, rational(1, 2));
  EXPECT_EQ(res.partial_withdrawal().max, rational(2, 3));
  EXPECT_EQ(res.major_success().min, rational(5, 6));
}

// Only American attacks score: 33B v 11C at 3:1 has no Major Success whatever row 6 holds.
TEST(RevolutionMajorSuccess, BritishAttacksNeverScore) {
  const auto res = resolve_battle(shipped_crt(), setup("33B", "11C"));
  EXPECT_EQ(res.major_success().max, 0);
  EXPECT_EQ(res.partial_withdrawal().max, 0);
}

// A user's complete table removes every unknown: with 3:1 row 6 = De, 33C v 11B succeeds surely.
TEST(RevolutionCrt, UserTableFillsTheBlanks) {
  json doc = json::parse(std::ifstream(test::shipped("crt.json")));
  doc["columns"]["3:1"][5] = "De";
  doc["columns"]["4:1"][5] = "1/2De";
  const auto table = parse_crt(doc, {"user.json", "crt"});
  EXPECT_TRUE(table.complete());
  const auto res = resolve_battle(table, setup("33C", "11B"));
  EXPECT_EQ(res.unknown(), 0);
  EXPECT_EQ(res.major_success().min, rational(1));
}

}  // namespace
}  // namespace musket::revolution
