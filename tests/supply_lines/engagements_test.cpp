// Skirmish, bombard, initiative, navies, raids, cup draws and refusing battle, each worked by
// hand from the rules (NT 6.0, 7.6, 8.1, 8.8, 9.0; SS 6.0, 8.3, 12.2, 12.4, 13.2).
#include <gtest/gtest.h>

#include "calc/supply_lines/bombard.hpp"
#include "calc/supply_lines/cup_draws.hpp"
#include "calc/supply_lines/initiative.hpp"
#include "calc/supply_lines/naval.hpp"
#include "calc/supply_lines/raid.hpp"
#include "calc/supply_lines/refuse_battle.hpp"
#include "calc/supply_lines/skirmish.hpp"
#include "core/invalid_input.hpp"

using namespace musket::supply_lines;
using musket::rational;

TEST(Skirmish, TwoDiceAtOneCrownUnit) {
  // Two dice hitting on 1-2: at least one hit 1 - (2/3)^2 = 5/9 eliminates the lone Crown
  // unit, and its army surrenders: NT +1 for the army, +1 for its leader.
  skirmish_setup s;
  s.war_supplies = 2;
  s.crown_units = 1;
  s.crown_leaders = 1;
  const auto r = resolve_skirmish(northern_theater(), s);
  EXPECT_EQ(r.crown_army_surrenders, rational(5, 9));
  EXPECT_EQ(r.crown_units_eliminated[0], rational(4, 9));
  EXPECT_EQ(r.crown_units_eliminated[1], rational(5, 9));
  EXPECT_EQ(r.track_shift[2], rational(5, 9));
  EXPECT_EQ(r.track_shift[0], rational(4, 9));
  // SS, Cornwallis at the point: his capture is the instant victory, his army -1 on the track.
  s.crown_commander = true;
  const auto ss = resolve_skirmish(southern_strategy(), s);
  EXPECT_EQ(ss.instant_victory, rational(5, 9));
  EXPECT_EQ(ss.track_shift[-1], rational(5, 9));
}

TEST(Skirmish, RejectsCrownSkirmishAndThreeUnits) {
  skirmish_setup s;
  s.attacker = side::crown;
  EXPECT_THROW(resolve_skirmish(northern_theater(), s), musket::invalid_input);
  s = {};
  s.patriot_units = 3;
  EXPECT_THROW(resolve_skirmish(northern_theater(), s), musket::invalid_input);
}

TEST(Bombard, ThreeSuppliesAtTwoUnits) {
  // Each die eliminates on a 1: P(0) = (5/6)^3 = 125/216, P(1) = 3 * 25/216 = 75/216,
  // P(2 or more, capped at the 2 units) = 16/216.
  bombard_setup s;
  s.war_supplies = 3;
  s.patriot_units = 2;
  const auto r = resolve_bombard(northern_theater(), s);
  EXPECT_EQ(r.patriot_units_eliminated[0], rational(125, 216));
  EXPECT_EQ(r.patriot_units_eliminated[1], rational(75, 216));
  EXPECT_EQ(r.patriot_units_eliminated[2], rational(16, 216));
  s.attacker = side::patriot;
  EXPECT_THROW(resolve_bombard(northern_theater(), s), musket::invalid_input);
}

TEST(Initiative, TiesAndThePassMarker) {
  // 15 of 36 rolls the Crown is higher, 15 the Patriot, 6 ties.
  const auto before = resolve_initiative(northern_theater(), false);
  EXPECT_EQ(before.crown_first, rational(21, 36));
  EXPECT_EQ(before.patriot_first, rational(15, 36));
  const auto after = resolve_initiative(northern_theater(), true);
  EXPECT_EQ(after.patriot_first, rational(21, 36));
  // Untied high roll v: 2(v - 1) of 36. Space 2: 2, 3: 4, 4: 6; 5-6: 8 + 10 + 6 ties = 24.
  EXPECT_EQ(before.pass_marker[1], 0);
  EXPECT_EQ(before.pass_marker[2], rational(2, 36));
  EXPECT_EQ(before.pass_marker[3], rational(4, 36));
  EXPECT_EQ(before.pass_marker[4], rational(6, 36));
  EXPECT_EQ(before.pass_marker[5], rational(24, 36));
  EXPECT_EQ(resolve_initiative(southern_strategy(), false).crown_first, rational(21, 36));
  EXPECT_THROW(resolve_initiative(southern_strategy(), true), musket::invalid_input);
}

TEST(SeaBattle, ModifiersAndTheInitiator) {
  // Modifier 0 on red, the Crown initiates: the Crown needs 9+ on 2d6 (10/36), the Patriot 10+
  // (6/36). Modifier 2 on blue, Patriot initiates: Patriot needs 7+ (21/36), Crown 12+ (1/36).
  sea_battle_setup s;
  s.initiator = side::crown;
  auto r = resolve_sea_battle(southern_strategy(), s);
  EXPECT_EQ(r.french_navy_defeated, rational(10, 36));
  EXPECT_EQ(r.crown_navy_defeated, rational(6, 36));
  EXPECT_EQ(r.both_defeated, rational(60, 1296));
  EXPECT_EQ(r.neither_defeated, rational(26 * 30, 1296));
  EXPECT_EQ(r.both_defeated + r.neither_defeated + r.only_crown_navy_defeated + r.only_french_navy_defeated, 1);
  s = {2, track_colour::blue, side::patriot};
  r = resolve_sea_battle(southern_strategy(), s);
  EXPECT_EQ(r.crown_navy_defeated, rational(21, 36));
  EXPECT_EQ(r.french_navy_defeated, rational(1, 36));
  s.modifier = 10;
  EXPECT_THROW(resolve_sea_battle(southern_strategy(), s), musket::invalid_input);
}

TEST(NavyReturn, OneToTwoOrOneToThree) {
  const auto off = resolve_navy_return(southern_strategy(), false, 3);
  EXPECT_EQ(off.per_turn, rational(1, 3));
  EXPECT_EQ(off.returned_by[2], 1 - rational(8, 27));  // 1 - (2/3)^3
  EXPECT_EQ(resolve_navy_return(southern_strategy(), true, 1).per_turn, rational(1, 2));
}

TEST(Raid, TheSampleTurnsSwampFoxRaid) {
  // SS sample turn: the only Militia piece is removed (0 remain); a 5 +1 for the Swamp Fox
  // makes 6 and succeeds. So success needs 5 or 6: 1/3.
  EXPECT_EQ(raid_success(southern_strategy(), 0, true), rational(1, 3));
  EXPECT_EQ(raid_success(southern_strategy(), 0, false), rational(1, 6));
  EXPECT_EQ(raid_success(southern_strategy(), 2, true), rational(4, 6));
  EXPECT_EQ(raid_success(southern_strategy(), 5, false), 1);
  EXPECT_THROW(raid_success(southern_strategy(), -1, false), musket::invalid_input);
  EXPECT_THROW(raid_success(northern_theater(), 1, false), musket::invalid_input);
}

TEST(CupDraws, NorthernReinforcements) {
  // 10 markers, 3 Crown-occupied, draw 2: no Crown marker C(7,2)/C(10,2) = 21/45 (4 units),
  // one 3*7/45 = 21/45 (2 units), two C(3,2)/45 = 3/45 (none).
  reinforcement_setup s{10, 3, 2, false};
  const auto r = resolve_reinforcements(northern_theater(), s);
  EXPECT_EQ(r.new_units[4], rational(21, 45));
  EXPECT_EQ(r.new_units[2], rational(21, 45));
  EXPECT_EQ(r.new_units[0], rational(3, 45));
  EXPECT_EQ(r.new_units[1], 0);
  // Winter draws two more, but a cup of 3 yields at most 3 markers.
  const auto winter = resolve_reinforcements(northern_theater(), {3, 1, 2, true});
  EXPECT_EQ(winter.markers_drawn, 3);
  EXPECT_EQ(winter.new_units[4], 1);
  EXPECT_THROW(resolve_reinforcements(northern_theater(), {3, 4, 1, false}), musket::invalid_input);
}

TEST(CupDraws, SouthernIrregulars) {
  const auto cup = parse_irregular_cup("ga-loyalist=2,sc-loyalist=1,sc-militia=2,swamp-fox=1", "cup");
  const auto r = resolve_irregulars(southern_strategy(), cup);
  EXPECT_EQ(r.draws, 3);
  EXPECT_EQ(r.swamp_fox_drawn, rational(1, 2));  // 3 of 6 chits come out
  // Both SC Militia drawn: C(2,2) C(4,1) / C(6,3) = 4/20.
  EXPECT_EQ(r.drawn_by_kind[2][2], rational(4, 20));
  EXPECT_THROW(parse_irregular_cup("sc-redcoat=1", "cup"), musket::invalid_input);
  EXPECT_THROW(parse_irregular_cup("swamp-fox=2", "cup"), musket::invalid_input);
}

TEST(RefuseBattle, WhatGoesAlong) {
  // 5 units with a leader take floor(5/2) = 2 of 4 supplies; without a leader, nothing.
  auto r = refuse_battle(northern_theater(), {5, 1, 4, false, false, true});
  EXPECT_TRUE(r.can_refuse);
  EXPECT_EQ(r.supplies_taken, 2);
  EXPECT_EQ(r.supplies_abandoned, 2);
  r = refuse_battle(northern_theater(), {5, 0, 4, false, false, true});
  EXPECT_EQ(r.supplies_taken, 0);
  EXPECT_FALSE(refuse_battle(northern_theater(), {5, 1, 4, true, false, true}).can_refuse);
  EXPECT_FALSE(refuse_battle(southern_strategy(), {5, 1, 4, false, true, true}).can_refuse);
}

#include "calc/supply_lines/morale.hpp"
#include "calc/supply_lines/track.hpp"

TEST(Morale, OneDiePerCheck) {
  // Difference 3: a die passes on 3-6 (4/6); two checks (4/6)^2 = 4/9. Difference 7+: never;
  // difference 1: always.
  EXPECT_EQ(morale_pass(3, 1), rational(2, 3));
  EXPECT_EQ(morale_pass(3, 2), rational(4, 9));
  EXPECT_EQ(morale_pass(7, 1), 0);
  EXPECT_EQ(morale_pass(1, 2), 1);
  EXPECT_EQ(morale_pass(2, 0), 0);  // at a Point
}

TEST(TrackPosition, DeclarationFloorAndEnds) {
  musket::pmf shift = musket::pmf::empty();
  shift.add_mass(-1, rational(3, 4));
  shift.add_mass(2, rational(1, 4));
  // From space 7 with the Declaration floor at 7, a -1 stays at 7 (NT 11.1).
  const auto held = track_position_after(shift, {7, 7, 0, 12});
  EXPECT_EQ(held[7], rational(3, 4));
  EXPECT_EQ(held[9], rational(1, 4));
  // Without a floor it moves to 6; near the last space a +2 stops at the end.
  const auto free = track_position_after(shift, {8, std::nullopt, 0, 9});
  EXPECT_EQ(free[7], rational(3, 4));
  EXPECT_EQ(free[9], rational(1, 4));
  EXPECT_THROW(track_position_after(shift, {5, 7, 0, 12}), musket::invalid_input);
  EXPECT_THROW(track_position_after(shift, {13, std::nullopt, 0, 12}), musket::invalid_input);
}
