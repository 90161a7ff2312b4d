#pragma once
// The public round API of War Along the Great Lakes battles (GL 11-13, RULINGS.md "War Along the
// Great Lakes battles"): the rules of one battle round, written once and shared by the exact
// engine, the simulation and anything else that plays battles (the campaign module).
//
//   round::battle_rules r = round::compile(battle);      // validates; throws invalid_input
//   round::battle_state s = round::initial_state(r);
//   round::play_round(r, s, chooser, emit);              // one round from s
//
// play_round is generic in a Chooser, which decides every random event:
//   binomial(n, faces, f)             call f(k) for k of n dice showing one of `faces` hit faces
//   binomial_capped(n, faces, cap, f) the same, where any k >= cap may be reported as cap
//   choose3(p0, p1, p2, f)            call f(0), f(1) or f(2) with those probabilities
// An exact chooser calls f for every outcome (tracking the probability); a sampling chooser
// rolls and calls f once. emit(state, end) receives each outcome of the round: end ==
// battle_end::none means the battle goes on from `state`; anything else is how it ended, with
// `state` the final one (per-unit SP in state.sp, status in state.st, in listing order: the
// attacker's side, then the defender's, each its own units, then the garrison (defender), then
// its reinforcements; r.begin/r.end give each side's range). The sides' policies (retreat, hit
// allocation, rerolls; battle.hpp) are part of the compiled rules.
#include <array>
#include <cstdint>

#include "calc/great_lakes/rules/chooser.hpp"
#include "calc/great_lakes/rules/hits.hpp"
#include "calc/great_lakes/rules/morale.hpp"
#include "calc/great_lakes/rules/reinforcement.hpp"
#include "calc/great_lakes/rules/retreat.hpp"
#include "calc/great_lakes/rules/state.hpp"

namespace musket::great_lakes::round {

// Steps 2-5 of the round (GL 11.18 in the RULINGS order) from `s`, where the attacker has taken the
// defender's fire (`hits`: this round's hits so far) and rolls `dice`: the attacker fires and the
// defender allocates; morale, where attacker_morale(state, hits, next) checks the attacker's units
// (or goes straight on where that is done already) and the defender's follow; voluntary retreat;
// reinforcement. emit and retreat as for play_tracked_round_until_retreat below.
template <class Chooser, class AttackerMorale, class Emit, class Retreat>
void play_attacker_fire(const battle_rules& r, round_state& s, int dice, hit_counts& hits, Chooser& c,
                        AttackerMorale& attacker_morale, Emit& emit, Retreat& retreat) {
  // 2. Attacker line fires (units eliminated in step 1 are gone; round-1 crossing penalty).
  c.binomial_capped(dice, 1, s.sum[defender].alive_sp, [&](int attacker_hits) {
    change<Chooser>(s, [&](round_state& s1b) {
      change<Chooser>(hits, [&](hit_counts& hits1) {
        auto after_defender_hits = [&](round_state& s2, hit_counts& hits2, std::uint32_t defender_checks, int spill2) {
          if (s2.sum[defender].line_units == 0) {
            retreat(s2, defender, true, spill2);
            return;
          }
          // 3. Morale: attacker first; if its line empties, the defender does not check.
          auto after_defender_morale = [&](round_state& s4) {
            if (s4.sum[defender].line_units == 0) {
              retreat(s4, defender, true, 0);
              return;
            }
            // 5. Reinforcement: defender, then attacker.
            auto after_attacker_reinforcement = [&](round_state& s6) {
              const battle_end end = is_stalemate(r, s6.sum) ? battle_end::stalemate : battle_end::none;
              if (!s6.s.first_round) {
                emit(s6, end);  // no copy just to clear a clear flag
                return;
              }
              change<Chooser>(s6, [&](round_state& out) {
                out.s.first_round = false;
                emit(out, end);
              });
            };
            auto after_defender_reinforcement = [&](round_state& s5) {
              reinforce(r, attacker, s5, c, after_attacker_reinforcement);
            };
            // 4. Voluntary retreat: attacker, then defender.
            if constexpr (deciding_chooser<Chooser>) {
              if (r.policy[attacker].kind == retreat_kind::optimal ||
                  r.policy[defender].kind == retreat_kind::optimal) {
                decide_retreats(r, s4, c, retreat,
                                [&](round_state& t) { reinforce(r, defender, t, c, after_defender_reinforcement); });
                return;
              }
            }
            if (wants_retreat(r, s4.sum, attacker)) {
              retreat(s4, attacker, false, 0);
              return;
            }
            if (wants_retreat(r, s4.sum, defender)) {
              retreat(s4, defender, false, 0);
              return;
            }
            reinforce(r, defender, s4, c, after_defender_reinforcement);
          };
          auto after_attacker_morale = [&](round_state& s3) {
            if (s3.sum[attacker].line_units == 0) {
              retreat(s3, attacker, true, 0);
              return;
            }
            check_morale(r, defender, defender_checks, s3, hits2, c, after_defender_morale);
          };
          attacker_morale(s2, hits2, after_attacker_morale);
        };
        allocate_hits_then(r, s1b, hits1, defender, attacker_hits, c, after_defender_hits);
      });
    });
  });
}

// One battle round from s (GL 11.18 in the RULINGS order) up to the start of any retreat. emit(state,
// end) is called for each outcome that is not a retreat: end == battle_end::none means the battle
// goes on from that state, else it is a stalemate; here both are round_states (with their sums).
// retreat(state, side, forced, spill) is called where `side` starts to retreat (GL 12.2), before the
// garrison is lost and before retreat fire, with the round_state (which it may change only if the
// chooser takes one outcome: change); `spill` counts the hits of this round's fire that found no
// unit of `side` to take them.
template <class Chooser, class Emit, class Retreat>
void play_tracked_round_until_retreat(const battle_rules& r, round_state& s, Chooser& c, Emit& emit, Retreat& retreat) {
  const bool first = s.s.first_round;
  // 1. Defender line (and ship) fires; hits applied at once.
  c.binomial_capped(
      fire_dice(r, s.sum[defender], defender, false), 1, s.sum[attacker].alive_sp, [&](int defender_hits) {
        change<Chooser>(s, [&](round_state& s0) {
          hit_counts hits0{};
          // s1: after the hits; hits: this round's so far; attacker_checks: its units to check morale (step 3).
          auto after_attacker_hits = [&](round_state& s1, hit_counts& hits, std::uint32_t attacker_checks, int spill) {
            if (s1.sum[attacker].line_units == 0) {
              retreat(s1, attacker, true, spill);
              return;
            }
            auto attacker_morale = [&](round_state& s2, const hit_counts& hits2, auto& next) {
              check_morale(r, attacker, attacker_checks, s2, hits2, c, next);
            };
            play_attacker_fire(r, s1, fire_dice(r, s1.sum[attacker], attacker, first), hits, c, attacker_morale, emit,
                               retreat);
          };
          allocate_hits_then(r, s0, hits0, attacker, defender_hits, c, after_attacker_hits);
        });
      });
}

// The same from a bare state: emit and retreat receive bare battle_states.
template <class Chooser, class Emit, class Retreat>
void play_round_until_retreat(const battle_rules& r, const battle_state& s, Chooser& c, Emit& emit, Retreat& retreat) {
  auto emit_state = [&](const round_state& t, battle_end end) { emit(t.s, end); };
  auto retreat_state = [&](round_state& t, int side, bool forced, int spill) { retreat(t.s, side, forced, spill); };
  round_state t = track(r, s);
  play_tracked_round_until_retreat(r, t, c, emit_state, retreat_state);
}

// One whole battle round from s: as above, with every retreat resolved (retreat fire included).
// emit(state, end) receives a round_state, or the bare battle_state where a retreat ended the
// battle (a finished battle needs no sums).
template <class Chooser, class Emit>
void play_tracked_round(const battle_rules& r, round_state& s, Chooser& c, Emit& emit) {
  auto retreat = [&](round_state& t, int side, bool forced, int) { resolve_retreat(r, t, side, forced, c, emit); };
  play_tracked_round_until_retreat(r, s, c, emit, retreat);
}

// One whole battle round from a bare state, emit receiving bare battle_states.
template <class Chooser, class Emit>
void play_round(const battle_rules& r, const battle_state& s, Chooser& c, Emit& emit) {
  auto retreat = [&](battle_state& t, int side, bool forced, int) { resolve_retreat(r, t, side, forced, c, emit); };
  play_round_until_retreat(r, s, c, emit, retreat);
}

}  // namespace musket::great_lakes::round
