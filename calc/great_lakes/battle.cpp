#include "calc/great_lakes/battle.hpp"

#include <algorithm>
#include <cassert>
#include <chrono>
#include <cmath>
#include <set>
#include <string>
#include <type_traits>

#include "calc/great_lakes/battle_loop.hpp"
#include "calc/great_lakes/exact/column_sweep.hpp"
#include "calc/great_lakes/exact_parts.hpp"
#include "calc/great_lakes/rules/round.hpp"
#include "calc/great_lakes/exact/plain_chain.hpp"
#include "core/invalid_input.hpp"
#include "core/markov_chain.hpp"
#include "core/suggest.hpp"

namespace musket::great_lakes {

using namespace detail;  // exact_parts.hpp: shared with optimal/game.cpp

std::string to_string(nation n) {
  return std::string(name_of(names_of_nation, n));
}

std::string to_string(unit_type t) {
  return std::string(name_of(names_of_unit_type, t));
}

std::string to_string(crossing c) {
  return std::string(name_of(names_of_crossing, c));
}

std::string to_string(retreat_kind k) {
  return std::string(name_of(names_of_retreat_kind, k));
}

std::string to_string(hit_allocation_kind k) {
  return std::string(name_of(names_of_hit_allocation_kind, k));
}

std::string to_string(reroll_kind k) {
  return std::string(name_of(names_of_reroll_kind, k));
}

std::string to_string(battle_end e) {
  return std::string(name_of(names_of_battle_end, e));
}

namespace {

void validate_unit(const unit& u, const std::string& path) {
  if (u.name.empty()) throw invalid_input(path + "/name", "a unit needs a name");
  require_in_range(path + "/max_sp", u.max_sp, 1, 15, "GL 4.8 strength points");
  require_in_range(path + "/sp", u.sp, 1, u.max_sp, "current SP is at least 1 and at most max_sp");
  require_in_range(path + "/morale", u.morale, 1, 6, "GL 4.7 morale is a die face");
  require_in_range(path + "/dice", u.dice, 0, 12, "GL 4.7 battle dice");
  if (u.type == unit_type::garrison)
    throw invalid_input(path + "/type", "a garrison is given as the defender's fort, not as a unit");
}

void validate_army(const army& a, const std::string& side, bool is_attacker, std::set<std::string>& names) {
  for (std::size_t i = 0; i < a.units.size(); ++i) {
    const std::string path = side + "/units/" + std::to_string(i);
    validate_unit(a.units[i], path);
    if (!is_attacker && a.units[i].crossed != crossing::none)
      throw invalid_input(path + "/crossing", "only attacking units cross a river or land (GL 11.13)");
    if (!names.insert(lowercase(a.units[i].name)).second)
      throw invalid_input(path + "/name", "duplicate unit name '" + a.units[i].name + "'");
  }
  for (std::size_t i = 0; i < a.reinforcements.size(); ++i) {
    const std::string path = side + "/reinforcements/" + std::to_string(i) + "/unit";
    validate_unit(a.reinforcements[i].u, path);
    if (a.reinforcements[i].u.crossed != crossing::none)
      throw invalid_input(path + "/crossing", "a reinforcement never fights in round 1, so it has no crossing");
    if (!names.insert(lowercase(a.reinforcements[i].u.name)).second)
      throw invalid_input(path + "/name", "duplicate unit name '" + a.reinforcements[i].u.name + "'");
  }
  check_leaders(a.leaders, side + "/leaders");
  require_in_range(side + "/ship_dice", a.ship_dice, 0, 12, "GL 7.11 a squadron's combat value");
  require_in_range(side + "/reinforcement_rating", a.reinforcement_rating, 0, 6, "GL 13.3");
  if (a.retreat.kind == retreat_kind::line_sp_at_most)
    require_in_range(side + "/retreat/k", a.retreat.k, 0, 1000, "line SP threshold");
  if (a.fortification) {
    if (is_attacker) throw invalid_input(side + "/fort", "only the defender has a fort (GL 11.11)");
    const fort& f = *a.fortification;
    require_in_range(side + "/fort/dice", f.dice, 0, 12, "the fort's battle number");
    require_in_range(side + "/fort/sp", f.sp, 1, 15, "the garrison's SP");
    require_in_range(side + "/fort/morale", f.morale, 1, 6, "the garrison's morale");
    if (!f.destroyed && !names.insert("garrison").second)
      throw invalid_input(side + "/fort", "a unit named 'garrison' clashes with the fort's garrison");
  }
  int dice = a.ship_dice;
  for (const auto& u : a.units) dice += u.dice;
  for (const auto& r : a.reinforcements) dice += r.u.dice;
  if (a.fortification && !a.fortification->destroyed) dice += a.fortification->dice;
  require_in_range(side, dice, 0, 200, "total battle dice of one side");
}

using round::battle_rules;
using round::battle_state;

}  // namespace

void check_leaders(const std::vector<std::string>& leaders, const std::string& path) {
  if (leaders.size() > max_leaders)
    throw invalid_input(path, std::to_string(leaders.size()) + " leaders; an army names at most " +
                                  std::to_string(max_leaders) + ", each once");
  std::set<std::string> seen;
  for (std::size_t i = 0; i < leaders.size(); ++i)
    if (!seen.insert(lowercase(leaders[i])).second)
      throw invalid_input(path + "/" + std::to_string(i), "the leader '" + leaders[i] + "' is named twice");
}

int morale_rerolls(const army& a) {
  int count = 0;
  for (const auto& name : a.leaders) {
    const std::string n = lowercase(name);
    if (a.side == nation::british && (n == "drummond" || n == "riall")) ++count;  // GL 11.26
    if (a.side == nation::american && (n == "brown" || n == "scott")) ++count;    // GL 11.27
  }
  return count;
}

void validate(const battle& b) {
  std::set<std::string> names;
  validate_army(b.attacker, "attacker", true, names);
  validate_army(b.defender, "defender", false, names);
  if (b.attacker.side == b.defender.side)
    throw invalid_input("defender/side", "both sides are " + to_string(b.attacker.side));
  if (b.attacker.units.empty()) throw invalid_input("attacker/units", "the attacker needs at least one unit");
  const bool garrison = b.defender.fortification && !b.defender.fortification->destroyed;
  if (b.defender.units.empty() && !garrison)
    throw invalid_input("defender/units", "the defender has no units and no undestroyed fort");
  const std::size_t count = b.attacker.units.size() + b.attacker.reinforcements.size() + b.defender.units.size() +
                            b.defender.reinforcements.size() + (garrison ? 1 : 0);
  require_in_range("units", static_cast<long long>(count), 2, round::max_units, "units in one battle");
}

namespace {

// The plain chain (exact/plain_chain.hpp) with the fixed policies' rounds.
battle_result solve_unfolded(const battle& b, const exact_options& options) {
  const battle_rules r = round::compile(b);
  return solve_unfolded_chain(r, options, [&](const battle_state& s, double weight, auto&& emit) {
    exact_chooser c;
    c.weight = weight;
    auto played = [&](const battle_state& t, battle_end end) { emit(t, end, c.weight); };
    // (Retreats handed to the chain, which plays each start's once.)
    auto retreat = [&](battle_state& t, int side, bool forced, int) { emit.retreat(t, side, forced, c.weight); };
    round::play_round_until_retreat(r, s, c, played, retreat);
  });
}

}  // namespace

namespace {

// Optimal play is a game (optimal/game.hpp solves it); these engines play fixed policies only.
void require_fixed_play(const battle& b, const std::string& engine) {
  for (const auto& [a, side] : {std::pair{&b.attacker, "attacker"}, std::pair{&b.defender, "defender"}}) {
    std::string field;
    if (a->retreat.kind == retreat_kind::optimal) field = "retreat";
    if (a->hit_allocation.kind == hit_allocation_kind::optimal) field = "hit_allocation";
    if (a->rerolls.kind == reroll_kind::optimal) field = "rerolls";
    if (!field.empty())
      throw invalid_input(std::string(side) + "/" + field,
                          "optimal play is solved exactly as a game (solve_optimal_play), not by " + engine);
  }
}

}  // namespace

battle_result solve_exact(const battle& b, const exact_options& options) {
  require_fixed_play(b, "the fixed-policy exact engine");
  // Issue 36: one routing decision (choose_engine), the one predict_exact_cost prices.
  if (!options.fold_out_units || choose_engine(round::compile(b)) == exact_engine::plain_chain)
    return solve_unfolded(b, options);
  return solve_by_column_sweep(b, options);
}

battle_result simulate(const battle& b, const simulation_options& options) {
  require_fixed_play(b, "simulation");
  const auto started = std::chrono::steady_clock::now();
  const battle_rules r = round::compile(b);
  const battle_state start = round::initial_state(r);
  const std::size_t n = r.units.size();
  constexpr std::size_t listed_rounds = 200;
  // Tally layout: ends, attacker loss, defender loss, per unit its final SP and status as one of 64
  // buckets (SP | status << 4: one count per battle, the unit's figures summed from them at the end),
  // rounds histogram (1..listed_rounds, then one overflow bucket), total rounds.
  const std::size_t at_ends = 0;
  const std::size_t at_att = at_ends + 7;
  const std::size_t at_def = at_att + static_cast<std::size_t>(r.starting_sp[0]) + 1;
  const std::size_t at_units = at_def + static_cast<std::size_t>(r.starting_sp[1]) + 1;
  constexpr std::size_t unit_buckets = 64;
  static_assert(round::out < 4);  // SP <= 15 (validate) and status < 4 fit 6 bits
  const std::size_t at_rounds = at_units + unit_buckets * n;
  const std::size_t at_total_rounds = at_rounds + listed_rounds + 1;
  const std::size_t size = at_total_rounds + 1;

  const round::round_state tracked_start = round::track(r, start);
  std::vector<std::size_t> owner(n);
  for (std::size_t u = 0; u < n; ++u) owner[u] = static_cast<std::size_t>(r.units[u].owner);
  const simulation_tally tally = run_trials(options, size, [&](random_engine& engine, std::span<std::uint64_t> t) {
    round::round_state now = tracked_start;  // the sums ride along from round to round
    const auto [end, rounds] = play_battle(r, now, engine);
    const battle_state& s = now.s;
    ++t[at_ends + static_cast<std::size_t>(end)];
    std::array<int, 2> left{};
    for (std::size_t u = 0; u < n; ++u) {
      left[owner[u]] += s.sp[u];
      ++t[at_units + unit_buckets * u + (s.sp[u] | static_cast<std::size_t>(s.st[u]) << 4)];
    }
    ++t[at_att + static_cast<std::size_t>(r.starting_sp[0] - left[0])];
    ++t[at_def + static_cast<std::size_t>(r.starting_sp[1] - left[1])];
    if (rounds >= 1) ++t[at_rounds + std::min<std::size_t>(rounds, listed_rounds + 1) - 1];
    t[at_total_rounds] += rounds;
  });

  battle_result out;
  const std::uint64_t trials = tally.trials;
  const double scale = trials ? 1.0 / static_cast<double>(trials) : 0.0;
  auto p = [&](std::size_t at) { return static_cast<double>(tally.counts[at]) * scale; };
  auto ci = [&](std::uint64_t count) {
    if (trials == 0) return interval{0.0, 1.0};  // cancelled before any battle: no information
    const auto w = wilson_interval(count, trials);
    return interval{w.lower, w.upper};
  };
  for (std::size_t e = 0; e < 7; ++e) {
    out.ends[e] = p(at_ends + e);
    out.ends_interval[e] = ci(tally.counts[at_ends + e]);
  }
  fill_outcomes(out);
  const auto& k = tally.counts;
  std::uint64_t wins = 0, holds = 0;
  for (const battle_end e : all_battle_ends) {
    if (attacker_won(e)) wins += k[at_ends + static_cast<std::size_t>(e)];
    if (defender_held(e)) holds += k[at_ends + static_cast<std::size_t>(e)];
  }
  out.outcomes_interval = {ci(wins), ci(holds), ci(k[6])};
  for (std::size_t i = 0; i <= static_cast<std::size_t>(r.starting_sp[0]); ++i) {
    out.attacker_sp_lost.push_back(p(at_att + i));
    out.attacker_sp_lost_interval.push_back(ci(k[at_att + i]));
  }
  for (std::size_t i = 0; i <= static_cast<std::size_t>(r.starting_sp[1]); ++i) {
    out.defender_sp_lost.push_back(p(at_def + i));
    out.defender_sp_lost_interval.push_back(ci(k[at_def + i]));
  }
  out.units = unit_rows(r);
  std::vector<std::uint64_t> survived(n, 0);
  for (std::size_t u = 0; u < n; ++u) {
    std::uint64_t sp = 0, failed = 0;
    for (std::size_t bucket = 0; bucket < unit_buckets; ++bucket) {
      const std::uint64_t count = k[at_units + unit_buckets * u + bucket];
      survived[u] += (bucket & 15) > 0 ? count : 0;
      sp += (bucket & 15) * count;
      failed += (bucket >> 4) == round::failed ? count : 0;
    }
    out.units[u].survives = static_cast<double>(survived[u]) * scale;
    out.units[u].expected_sp = static_cast<double>(sp) * scale;
    out.units[u].fails_morale = static_cast<double>(failed) * scale;
    out.units[u].survives_interval = ci(survived[u]);
    out.units[u].fails_morale_interval = ci(failed);
  }
  if (r.garrison >= 0) {
    const std::uint64_t eliminated = trials - survived[static_cast<std::size_t>(r.garrison)];
    out.garrison_eliminated = static_cast<double>(eliminated) * scale;
    out.garrison_eliminated_interval = ci(eliminated);
  }
  std::size_t last = 0;
  for (std::size_t i = 0; i < listed_rounds; ++i)
    if (k[at_rounds + i]) last = i + 1;
  for (std::size_t i = 0; i < last; ++i) {
    out.rounds_distribution.push_back(p(at_rounds + i));
    out.rounds_interval.push_back(ci(k[at_rounds + i]));
  }
  out.rounds_tail = p(at_rounds + listed_rounds);
  out.rounds_mean = static_cast<double>(k[at_total_rounds]) * scale;
  out.method.name = "simulation";
  out.method.trials = trials;
  out.method.cancelled = tally.cancelled;
  out.method.seed = options.seed;
  out.method.rounds_simulated = k[at_total_rounds];
  out.method.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return out;
}

}  // namespace musket::great_lakes
