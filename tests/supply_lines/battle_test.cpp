// Supply Lines battles. Every expected number is worked by hand from RULINGS.md "Supply Lines
// battles" (the working is in the comment above each case), never copied from the program.
#include "calc/supply_lines/battle.hpp"

#include <gtest/gtest.h>

#include "core/invalid_input.hpp"

using namespace musket::supply_lines;
using musket::rational;
using O = battle_outcome;

namespace {

battle_setup make(side attacker, terrain where, int a_units, int a_leaders, int a_war, int d_units, int d_leaders,
                  int d_war) {
  battle_setup s;
  s.attacker = attacker;
  s.where = where;
  s.attacker_units = a_units;
  s.attacker_leaders = a_leaders;
  s.attacker_war_supplies = a_war;
  s.defender_units = d_units;
  s.defender_leaders = d_leaders;
  s.defender_war_supplies = d_war;
  return s;
}

rational sum_outcomes(const battle_result<rational>& r) {
  rational total = 0;
  for (auto o : all_battle_outcomes) total += r[o];
  return total;
}

}  // namespace

TEST(SupplyLinesBattle, CrownAtAPointOneDieEach) {
  // Crown 1 unit + leader, 1 die (hits 1-3, p 1/2) v 1 Patriot unit, no leader, no dice.
  // Hit: the defender is wiped out and surrenders (1/2). Miss: 2 v 1, the Crown wins, and at a
  // point the morale check fails automatically: retreat (1/2).
  const auto r = resolve_battle<rational>(northern_theater(), make(side::crown, terrain::point, 1, 1, 1, 1, 0, 0));
  EXPECT_EQ(r[O::defender_surrenders], rational(1, 2));
  EXPECT_EQ(r[O::defender_retreats], rational(1, 2));
  EXPECT_EQ(r[O::defender_stands], 0);
  // No Patriot leader: the Crown's Victory moves nothing; the Patriot surrender moves -1.
  EXPECT_EQ(r.track_shift[-1], rational(1, 2));
  EXPECT_EQ(r.track_shift[0], rational(1, 2));
  // The unit is lost only when it is hit; a retreat keeps it.
  EXPECT_EQ(r.defender_losses[1], rational(1, 2));
  EXPECT_EQ(r.defender_losses[0], rational(1, 2));
  EXPECT_EQ(r.attacker_losses[0], 1);
}

TEST(SupplyLinesBattle, PatriotAttackWithDefenderFire) {
  // NT Patriot 2 units + leader, 1 War at a point (1 die, hits 1-2) v 3 Crown units, 2 War.
  // Defender hits h ~ Bin(2, 1/3): 4/9, 4/9, 1/9. h = 2 eliminates both attackers: surrender 1/9.
  // h = 0: a hit (1/3) leaves 3 v 2: Victory, retreat at a point; a miss is 3 v 3: tie, repulsed.
  // h = 1: 2 v at least 2: repulsed whatever the die.
  // retreats = 4/9 * 1/3 = 4/27; repulsed = 4/9 * 2/3 + 4/9 = 20/27.
  const auto r = resolve_battle<rational>(northern_theater(), make(side::patriot, terrain::point, 2, 1, 1, 3, 0, 2));
  EXPECT_EQ(r[O::attacker_surrenders], rational(1, 9));
  EXPECT_EQ(r[O::defender_retreats], rational(4, 27));
  EXPECT_EQ(r[O::defender_victory], rational(20, 27));
  // NT: Patriot attacker Victory +1; a Patriot army surrendering -1, its leader -1 more.
  EXPECT_EQ(r.track_shift[1], rational(4, 27));
  EXPECT_EQ(r.track_shift[-2], rational(1, 9));
  EXPECT_EQ(r.attacker_losses[2], rational(1, 9));
  EXPECT_EQ(r.attacker_losses[1], rational(4, 9));
}

TEST(SupplyLinesBattle, TwoLossesCostTheAttackerADie) {
  // NT Crown 3 units + leader, 1 die v 1 Patriot unit with 2 War. h = 2 (1/9) leaves one
  // attacker and 1 - floor(2/2) = 0 dice: 2 v 1, Victory without a roll, retreat (point).
  // h <= 1 (8/9): the die hits half the time (surrender), else Victory and retreat.
  const auto r = resolve_battle<rational>(northern_theater(), make(side::crown, terrain::point, 3, 1, 1, 1, 0, 2));
  EXPECT_EQ(r[O::defender_surrenders], rational(4, 9));
  EXPECT_EQ(r[O::defender_retreats], rational(5, 9));
}

TEST(SupplyLinesBattle, MoraleChecksNorthernTwoForPatriots) {
  // NT Crown 4 units + leader, 2 War at a city (rounded up: 1 die) v 1 Patriot unit + leader.
  // Hit (1/2): surrender. Miss: 5 v 2, difference 3, one check passes on 3-6 (2/3); a Patriot
  // defender makes two: stands (2/3)^2 = 4/9. stands = 1/2 * 4/9 = 2/9, retreats = 1/2 * 5/9.
  const auto r = resolve_battle<rational>(northern_theater(), make(side::crown, terrain::city, 4, 1, 2, 1, 1, 0));
  EXPECT_EQ(r.attacker_dice, 1);
  EXPECT_EQ(r[O::defender_surrenders], rational(1, 2));
  EXPECT_EQ(r[O::defender_stands], rational(2, 9));
  EXPECT_EQ(r[O::defender_retreats], rational(5, 18));
  // Crown Victory over a led Patriot army -1; surrender adds -1 and -1 for the leader.
  EXPECT_EQ(r.track_shift[-1], rational(1, 2));
  EXPECT_EQ(r.track_shift[-3], rational(1, 2));
}

TEST(SupplyLinesBattle, MoraleSouthernOneCheckAndTrackToTheRight) {
  // The same battle in SS (a Crown Subordinate with 4 units is legal): one check, 2/3.
  // stands 1/2 * 2/3 = 1/3, retreats 1/6. SS track: Crown Victory over a led Patriot army +1,
  // Patriot surrender +1 and +1 for its leader.
  const auto r = resolve_battle<rational>(southern_strategy(), make(side::crown, terrain::city, 4, 1, 2, 1, 1, 0));
  EXPECT_EQ(r[O::defender_stands], rational(1, 3));
  EXPECT_EQ(r[O::defender_retreats], rational(1, 6));
  EXPECT_EQ(r.track_shift[1], rational(1, 2));
  EXPECT_EQ(r.track_shift[3], rational(1, 2));
  EXPECT_EQ(r.instant_victory, 0);
}

TEST(SupplyLinesBattle, DugInIgnoresTheFirstHit) {
  // NT Crown 2 units + leader, 4 War at a city (2 dice, p 1/2) v 1 Patriot unit dug in.
  // g hits: 0 (1/4), 1 (1/2), 2 (1/4); dug in, only g = 2 eliminates: surrender 1/4.
  // Otherwise 3 v 1, difference 2: each check passes on 2-6 (5/6), two checks 25/36.
  const auto s = [] {
    auto b = make(side::crown, terrain::city, 2, 1, 4, 1, 0, 0);
    b.dug_in = true;
    return b;
  }();
  const auto r = resolve_battle<rational>(northern_theater(), s);
  EXPECT_EQ(r[O::defender_surrenders], rational(1, 4));
  EXPECT_EQ(r[O::defender_stands], rational(3, 4) * rational(25, 36));
  EXPECT_EQ(r[O::defender_retreats], rational(3, 4) * rational(11, 36));
}

TEST(SupplyLinesBattle, NoRetreatAndSiegeTurnFailedChecksIntoSurrender) {
  auto s = make(side::crown, terrain::city, 4, 1, 2, 1, 1, 0);
  s.retreat_available = false;
  const auto nt = resolve_battle<rational>(northern_theater(), s);
  EXPECT_EQ(nt[O::defender_retreats], 0);
  EXPECT_EQ(nt[O::defender_surrenders], rational(1, 2) + rational(5, 18));
  EXPECT_EQ(nt.defender_losses[1], rational(1, 2) + rational(5, 18));  // the whole army
  auto siege = make(side::crown, terrain::city, 4, 1, 2, 1, 1, 0);
  siege.under_siege = true;
  const auto ss = resolve_battle<rational>(southern_strategy(), siege);
  EXPECT_EQ(ss[O::defender_surrenders], rational(1, 2) + rational(1, 6));
}

TEST(SupplyLinesBattle, CornwallisCapturedIsAnInstantVictory) {
  // SS Patriot 1 unit + leader, 1 die (1-2) v Cornwallis with 1 unit. A hit (1/3) wipes out the
  // Crown army: Cornwallis is captured. A miss is 2 v 2: repulsed.
  auto s = make(side::patriot, terrain::point, 1, 1, 1, 1, 1, 0);
  s.crown_commander = true;
  const auto r = resolve_battle<rational>(southern_strategy(), s);
  EXPECT_EQ(r.instant_victory, rational(1, 3));
  EXPECT_EQ(r[O::defender_surrenders], rational(1, 3));
  // Patriot Victory -1, Crown army surrender -1; Cornwallis is not a subordinate: no more.
  EXPECT_EQ(r.track_shift[-2], rational(1, 3));
}

TEST(SupplyLinesBattle, RoundingOfDiceAtCitiesAndForts) {
  // NT: Crown rounds up, Patriot down (8.2); SS: both up (10.2).
  EXPECT_EQ(attacker_dice(northern_theater(), make(side::crown, terrain::fort, 1, 1, 3, 1, 0, 0)), 2);
  EXPECT_EQ(attacker_dice(northern_theater(), make(side::patriot, terrain::fort, 1, 1, 3, 1, 0, 0)), 1);
  EXPECT_EQ(attacker_dice(southern_strategy(), make(side::patriot, terrain::city, 1, 1, 3, 1, 0, 0)), 2);
  EXPECT_EQ(attacker_dice(northern_theater(), make(side::patriot, terrain::point, 1, 1, 3, 1, 0, 0)), 3);
  // One War Supply earns a Patriot no die at an NT city: illegal; in SS it earns one.
  EXPECT_THROW(resolve_battle<rational>(northern_theater(), make(side::patriot, terrain::city, 1, 1, 1, 1, 0, 0)),
               musket::invalid_input);
  EXPECT_NO_THROW(resolve_battle<rational>(southern_strategy(), make(side::patriot, terrain::city, 1, 1, 1, 1, 0, 0)));
}

TEST(SupplyLinesBattle, EveryBattleSumsToOneAndDoubleAgrees) {
  for (const rule_set* rules : {&northern_theater(), &southern_strategy()})
    for (side attacker : {side::crown, side::patriot})
      for (terrain where : {terrain::point, terrain::city, terrain::fort})
        for (int a = 1; a <= 5; a += 2)
          for (int d = 1; d <= 5; d += 2)
            for (int wa = 2; wa <= 6; wa += 2)
              for (int wd = 0; wd <= 4; wd += 2) {
                auto s = make(attacker, where, a, 1, wa, d, 1, wd);
                if (rules == &southern_strategy()) s.crown_commander = true;
                const auto exact = resolve_battle<rational>(*rules, s);
                EXPECT_EQ(sum_outcomes(exact), 1);
                EXPECT_EQ(total_mass(exact.attacker_losses), 1);
                EXPECT_EQ(total_mass(exact.defender_losses), 1);
                EXPECT_EQ(total_mass(exact.track_shift), 1);
                const auto fast = resolve_battle<double>(*rules, s);
                for (auto o : all_battle_outcomes) EXPECT_NEAR(fast[o], musket::to_double(exact[o]), 1e-12);
              }
}

// Battles of up to 24 dice are counted in machine words, larger ones in 256-bit counts: both sides
// of that line must give the rules' answer. The attacker surrenders exactly when the defender's
// dice score at least its units (8.4, 8.7): P = sum over h >= A of C(n, h) (1/3)^h (2/3)^(n - h).
TEST(SupplyLinesBattle, BattlesAboveAndBelowTwentyFourDiceCountAlike) {
  const auto binomial_tail = [](int n, int at_least) {
    rational tail = 0;
    for (int h = at_least; h <= n; ++h) {
      musket::big_integer ways = 1;  // C(n, h) 2^(n - h) of the 3^n equally likely thirds
      for (int i = 1; i <= h; ++i) ways = ways * (n - h + i) / i;
      for (int i = 0; i < n - h; ++i) ways *= 2;
      musket::big_integer all = 1;
      for (int i = 0; i < n; ++i) all *= 3;
      tail += rational(ways, all);
    }
    return tail;
  };
  bool word = false, wide = false;
  for (int defender_war = 8; defender_war <= 16; defender_war += 4)
    for (int attacker_war = 6; attacker_war <= 18; attacker_war += 6) {
      const auto s = make(side::crown, terrain::point, 4, 1, attacker_war, 3, 0, defender_war);
      const rule_set& rules = northern_theater();
      const int dice = defender_war + attacker_dice(rules, s) + defender_morale_checks(rules, s);
      (dice <= 24 ? word : wide) = true;
      const auto exact = resolve_battle<rational>(rules, s);
      EXPECT_EQ(sum_outcomes(exact), 1) << dice << " dice";
      EXPECT_EQ(total_mass(exact.attacker_losses), 1) << dice << " dice";
      EXPECT_EQ(exact[O::attacker_surrenders], binomial_tail(defender_war, 4)) << dice << " dice";
      EXPECT_EQ(exact.attacker_losses[4], binomial_tail(defender_war, 4)) << dice << " dice";
      const auto fast = resolve_battle<double>(rules, s);
      for (auto o : all_battle_outcomes) EXPECT_NEAR(fast[o], musket::to_double(exact[o]), 1e-12) << dice << " dice";
    }
  EXPECT_TRUE(word);
  EXPECT_TRUE(wide);
}

TEST(SupplyLinesBattle, MoreAttackerWarSuppliesNeverLowerVictory) {
  for (const rule_set* rules : {&northern_theater(), &southern_strategy()})
    for (side attacker : {side::crown, side::patriot})
      for (terrain where : {terrain::point, terrain::city})
        for (int a = 1; a <= 4; ++a)
          for (int d = 1; d <= 4; ++d)
            for (int wd = 0; wd <= 3; ++wd) {
              rational previous = -1;
              for (int wa = 1; wa <= 10; ++wa) {
                auto s = make(attacker, where, a, 1, wa, d, 1, wd);
                if (rules == &southern_strategy()) s.crown_commander = true;
                if (attacker_dice(*rules, s) == 0) continue;
                const auto r = resolve_battle<rational>(*rules, s);
                const rational victory = r[O::defender_stands] + r[O::defender_retreats] + r[O::defender_surrenders];
                EXPECT_GE(victory, previous) << "wa=" << wa;
                previous = victory;
              }
            }
}

TEST(SupplyLinesBattle, SimulationAgreesWithExactWithinFourSigma) {
  std::vector<std::pair<const rule_set*, battle_setup>> battles{
      {&northern_theater(), make(side::crown, terrain::city, 6, 1, 5, 4, 1, 3)},
      {&northern_theater(), make(side::patriot, terrain::point, 5, 1, 4, 3, 0, 2)},
      {&southern_strategy(), make(side::patriot, terrain::fort, 4, 1, 5, 3, 1, 2)},
  };
  auto dug = make(side::crown, terrain::fort, 8, 2, 9, 5, 1, 4);
  dug.dug_in = true;
  battles.emplace_back(&northern_theater(), dug);
  for (const auto& [rules, s] : battles) {
    const auto exact = resolve_battle<double>(*rules, s);
    musket::simulation_options options;
    options.trials = 200'000;
    options.seed = 11;
    const auto estimate = simulate_battle(*rules, s, options);
    const double n = static_cast<double>(estimate.trials);
    for (auto o : all_battle_outcomes) {
      const double p = exact[o];
      const double sigma = std::sqrt(std::max(p * (1 - p), 1e-12) / n);
      EXPECT_NEAR(static_cast<double>(estimate.outcome_counts[static_cast<std::size_t>(o)]) / n, p, 4 * sigma + 1e-9)
          << to_string(o);
    }
    for (int k = 0; k <= s.defender_units; ++k) {
      const double p = exact.defender_losses[k];
      const double sigma = std::sqrt(std::max(p * (1 - p), 1e-12) / n);
      EXPECT_NEAR(static_cast<double>(estimate.defender_loss_counts[static_cast<std::size_t>(k)]) / n, p,
                  4 * sigma + 1e-9);
    }
  }
}

TEST(SupplyLinesBattle, ImpossibleBattlesAreRejectedNamingTheOption) {
  auto expect_field = [](const rule_set& rules, const battle_setup& s, const std::string& field) {
    try {
      validate(rules, s);
      ADD_FAILURE() << "accepted a battle that should name " << field;
    } catch (const musket::invalid_input& e) {
      EXPECT_EQ(e.field(), field) << e.what();
    }
  };
  const auto ok = make(side::crown, terrain::city, 6, 1, 5, 4, 1, 3);
  EXPECT_NO_THROW(validate(northern_theater(), ok));
  auto s = ok;
  s.attacker_units = -1;
  expect_field(northern_theater(), s, "att-units");
  s = ok, s.attacker_units = 100;
  expect_field(northern_theater(), s, "att-units");
  s = ok, s.attacker_leaders = 0;
  expect_field(northern_theater(), s, "att-leaders");
  s = ok, s.attacker_war_supplies = 41;
  expect_field(northern_theater(), s, "att-war");
  s = ok, s.defender_war_supplies = -2;
  expect_field(northern_theater(), s, "def-war");
  s = ok, s.attacker_war_supplies = 0;
  expect_field(northern_theater(), s, "att-war");
  s = make(side::crown, terrain::point, 2, 1, 2, 2, 0, 0), s.dug_in = true;
  expect_field(northern_theater(), s, "dug-in");
  s = ok, s.under_siege = true;
  expect_field(northern_theater(), s, "siege");
  // SS: a Crown Subordinate commands at most 4 units; Cornwallis has no limit.
  s = make(side::crown, terrain::city, 6, 1, 4, 2, 1, 0);
  expect_field(southern_strategy(), s, "att-units");
  s.crown_commander = true;
  EXPECT_NO_THROW(validate(southern_strategy(), s));
  s = make(side::patriot, terrain::city, 5, 1, 4, 2, 1, 0), s.patriot_subordinate = true;
  expect_field(southern_strategy(), s, "att-units");
}

namespace {
// An independent reading of the procedure: roll every face of every die (defender's, then the
// attacker's full set of which only the first `rolled` count, then two morale dice) and count.
std::array<rational, 5> brute_force(const rule_set& rules, const battle_setup& s) {
  const int defender_dice = s.defender_war_supplies, full = attacker_dice(rules, s);
  const int total_dice = defender_dice + full + 2;
  std::array<long long, 5> counts{};
  std::vector<int> face(static_cast<std::size_t>(total_dice), 1);
  long long all = 0;
  for (;;) {
    ++all;
    int h = 0;
    for (int i = 0; i < defender_dice; ++i) h += face[static_cast<std::size_t>(i)] <= 2;
    const int lost_a = std::min(h, s.attacker_units);
    O o;
    if (lost_a == s.attacker_units) {
      o = O::attacker_surrenders;
    } else {
      const int rolled = std::max(0, full - lost_a / 2);
      int g = 0;
      for (int i = 0; i < rolled; ++i)
        g += face[static_cast<std::size_t>(defender_dice + i)] <= (s.attacker == side::crown ? 3 : 2);
      if (s.dug_in && g > 0) --g;
      const int lost_d = std::min(g, s.defender_units);
      const int a = s.attacker_units - lost_a + s.attacker_leaders, d = s.defender_units - lost_d + s.defender_leaders;
      if (lost_d == s.defender_units)
        o = O::defender_surrenders;
      else if (a <= d)
        o = O::defender_victory;
      else {
        const bool patriot_defends = s.attacker == side::crown;
        const int checks = s.where == terrain::point                                    ? 0
                           : (rules.which == game::northern_theater && patriot_defends) ? 2
                                                                                        : 1;
        bool pass = checks > 0;
        for (int c = 0; c < checks; ++c)
          pass = pass && face[static_cast<std::size_t>(defender_dice + full + c)] >= a - d;
        o = pass ? O::defender_stands : (s.retreat_available ? O::defender_retreats : O::defender_surrenders);
      }
    }
    ++counts[static_cast<std::size_t>(o)];
    int i = 0;
    while (i < total_dice && face[static_cast<std::size_t>(i)] == 6) face[static_cast<std::size_t>(i++)] = 1;
    if (i == total_dice) break;
    ++face[static_cast<std::size_t>(i)];
  }
  std::array<rational, 5> p;
  for (std::size_t k = 0; k < 5; ++k) p[k] = rational(counts[k], all);
  return p;
}
}  // namespace

TEST(SupplyLinesBattle, MatchesFaceByFaceEnumeration) {
  // README's battle: 6 + 1 Crown, 5 War at a city (3 dice) v 4 + 1 Patriot, 3 War.
  std::vector<std::pair<const rule_set*, battle_setup>> battles{
      {&northern_theater(), make(side::crown, terrain::city, 6, 1, 5, 4, 1, 3)},
      {&northern_theater(), make(side::patriot, terrain::fort, 3, 2, 6, 2, 0, 2)},
      {&southern_strategy(), make(side::patriot, terrain::city, 4, 1, 3, 2, 1, 3)},
      {&northern_theater(), make(side::crown, terrain::point, 3, 1, 3, 3, 1, 2)},
  };
  auto dug = make(side::crown, terrain::fort, 5, 1, 6, 3, 1, 2);
  dug.dug_in = true;
  dug.retreat_available = false;
  battles.emplace_back(&northern_theater(), dug);
  for (const auto& [rules, s] : battles) {
    const auto expected = brute_force(*rules, s);
    const auto r = resolve_battle<rational>(*rules, s);
    for (auto o : all_battle_outcomes) EXPECT_EQ(r[o], expected[static_cast<std::size_t>(o)]) << to_string(o);
  }
  // And the README's headline, by the same enumeration (and a separate script when written): 761/1944.
  EXPECT_EQ(brute_force(northern_theater(), battles[0].second)[static_cast<std::size_t>(O::defender_retreats)],
            rational(761, 1944));
}
