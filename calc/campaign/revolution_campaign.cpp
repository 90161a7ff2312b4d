#include "calc/campaign/revolution_campaign.hpp"

#include <algorithm>
#include <array>
#include <compare>
#include <cstdint>

#include "calc/campaign/plan_json.hpp"
#include "core/invalid_input.hpp"
#include "core/json_input.hpp"
#include "core/state_distribution.hpp"

namespace musket::campaign {

namespace ar = musket::revolution;
using nlohmann::json;

int british_goal_on_turn(const revolution_goals& goals, int turn) {
  // The Errata's goal by period, or the plan's for every turn; the net adjustment on either.
  if (goals.stated) return *goals.stated + goals.adjustment;
  const int year = ar::date_of_turn(turn).year;
  for (const auto& g : goals.period_goals)
    if (g.first_year <= year && year <= g.last_year) return g.goal + goals.adjustment;
  throw invalid_input("year", std::to_string(year) + " has no British goal in the period goals given");
}

revolution_plan parse_revolution_plan(const json& doc, const std::string& file, const ar::options_data& options) {
  // Paths are JSON pointers ("/attacks/1/defender"), as every input file's errors name them.
  auto fail = [&](const std::string& path, const std::string& message) {
    throw invalid_input(file + ": " + (path.empty() ? "/" : path), message);
  };
  auto at = [](const std::string& path, const std::string& key) { return pointer_child(path, key); };
  auto integer = [&](const json& o, const std::string& path, const char* key, int fallback, int lo, int hi) {
    return plan_whole_number(o, key, fallback, file + ": " + at(path, key), lo, hi);
  };
  auto only_keys = [&](const json& o, const std::string& path, const std::vector<std::string>& keys) {
    for (auto it = o.begin(); it != o.end(); ++it)
      if (std::find(keys.begin(), keys.end(), it.key()) == keys.end()) {
        std::string allowed;
        for (const auto& k : keys) allowed += (allowed.empty() ? "" : ", ") + k;
        fail(at(path, it.key()), "unknown key; allowed: " + allowed);
      }
  };
  auto capped_array = [&](const json& v, const std::string& path, int cap, const char* what) {
    if (v.size() > static_cast<std::size_t>(cap))
      fail(path, std::to_string(v.size()) + " " + what + "; a plan has at most " + std::to_string(cap));
  };
  if (!doc.is_object()) fail("", "a plan is a JSON object with \"attacks\"");
  only_keys(doc, "",
            {"game", "name", "prior_major_successes", "british_goal", "british_vp", "last_turn", "regions", "attacks",
             "british_moves", "notes"});
  if (doc.contains("game") && doc.at("game") != "ar") fail("/game", "the plan is not for `musket ar`");
  revolution_plan plan;
  plan.file = file;
  plan.name = plan_text(doc, "name", "campaign", file + ": /name");
  plan.prior_major_successes = integer(doc, "", "prior_major_successes", 0, 0, 2);
  // The plan's own goal, for every Game-Turn in place of the Errata's by period (RULINGS.md).
  if (doc.contains("british_goal")) plan.goals.stated = integer(doc, "", "british_goal", 51, 30, 72);
  plan.goals.period_goals = options.period_goals;
  plan.british_vp = integer(doc, "", "british_vp", 0, 0, 200);
  if (doc.contains("regions")) {
    const json& regions = doc.at("regions");
    if (!regions.is_array())
      fail("/regions", "must be an array of {\"name\", \"victory_points\", \"british_control\"}");
    capped_array(regions, "/regions", max_revolution_regions, "Regions");
    int british_total = 0;
    for (std::size_t i = 0; i < regions.size(); ++i) {
      const std::string path = pointer_child("/regions", i);
      const json& g = regions[i];
      if (!g.is_object()) fail(path, "a Region is an object {\"name\", \"victory_points\", \"british_control\"}");
      only_keys(g, path, {"name", "victory_points", "british_control", "note"});
      revolution_region region;
      if (!g.contains("name")) fail(at(path, "name"), "is required: the Region's name");
      region.name = plan_text(g, "name", "", file + ": " + at(path, "name"));
      for (const auto& other : plan.regions)
        if (other.name == region.name) fail(at(path, "name"), "\"" + region.name + "\" is listed twice");
      if (!g.contains("victory_points"))
        fail(at(path, "victory_points"), "is required: the Region's Victory Points (data/ar/regions.json), 0..30");
      region.victory_points = integer(g, path, "victory_points", 0, 0, 30);
      region.british_control = plan_flag(g, "british_control", true, file + ": " + at(path, "british_control"));
      if (region.british_control) british_total += region.victory_points;
      plan.regions.push_back(region);
    }
    // british_vp counts every Region the British control, these among them.
    if (british_total > plan.british_vp)
      fail("/british_vp", std::to_string(plan.british_vp) + " is less than the " + std::to_string(british_total) +
                              " Victory Points of the British-controlled Regions in \"regions\"");
  }
  if (!doc.contains("attacks") || !doc.at("attacks").is_array() || doc.at("attacks").empty())
    fail("/attacks", "is required: a non-empty array of American attacks");
  const json& attacks = doc.at("attacks");
  capped_array(attacks, "/attacks", max_revolution_attacks, "attacks");
  int previous_turn = 0;
  for (std::size_t i = 0; i < attacks.size(); ++i) {
    const std::string path = pointer_child("/attacks", i);
    const json& a = attacks[i];
    if (!a.is_object()) fail(path, "an attack is an object {\"turn\", \"attacker\", \"defender\"}");
    only_keys(a, path,
              {"id", "turn", "attacker", "defender", "fort", "besieging", "policy", "region", "british_elsewhere",
               "americans_elsewhere", "militia_elsewhere", "note"});
    revolution_attack attack;
    attack.path = path;
    attack.id = plan_text(a, "id", path, file + ": " + at(path, "id"));
    attack.turn = integer(a, path, "turn", previous_turn == 0 ? 1 : previous_turn, 1, ar::last_game_turn);
    if (attack.turn < previous_turn)
      fail(at(path, "turn"), "attacks must be in turn order (a campaign only moves forward)");
    previous_turn = attack.turn;
    auto force_of = [&](const char* key) {
      if (!a.contains(key) || !a.at(key).is_string()) fail(at(path, key), "is required: points like \"20C,10M\"");
      try {
        return ar::parse_force(a.at(key).get<std::string>(), key);
      } catch (const invalid_input& e) {
        fail(at(path, key), e.what());
      }
      return ar::force{};
    };
    attack.battle.attacker = force_of("attacker");
    attack.battle.defender = force_of("defender");
    if (attack.battle.attacker.owner != ar::side::american)
      fail(at(path, "attacker"), "a season plan lists American attacks; give American points (C, M, F, SF)");
    attack.battle.fort = plan_flag(a, "fort", false, file + ": " + at(path, "fort"));
    attack.battle.besieging = plan_flag(a, "besieging", false, file + ": " + at(path, "besieging"));
    if (a.contains("policy")) {
      try {
        attack.battle.policy =
            ar::parse_loss_policy(plan_text(a, "policy", "", file + ": " + at(path, "policy")), "policy");
      } catch (const invalid_input& e) {
        fail(at(path, "policy"), e.what());
      }
    }
    try {
      ar::compute_odds(attack.battle);
    } catch (const invalid_input& e) {
      fail(at(path, e.field()), e.what());
    }
    const bool elsewhere =
        a.contains("british_elsewhere") || a.contains("americans_elsewhere") || a.contains("militia_elsewhere");
    if (a.contains("region")) {
      const std::string name = plan_text(a, "region", "", file + ": " + at(path, "region"));
      const auto found = std::find_if(plan.regions.begin(), plan.regions.end(),
                                      [&](const revolution_region& g) { return g.name == name; });
      if (found == plan.regions.end())
        fail(at(path, "region"),
             "\"" + name + "\" is not in the plan's \"regions\"; list it there with its Victory Points");
      attack.region = static_cast<int>(found - plan.regions.begin());
      // Control is judged once, at the end of the Game-Turn, from one combat's survivors and the
      // rest of the Region: a second combat there in the same turn would need the first's survivors.
      for (const auto& earlier : plan.attacks)
        if (earlier.region == attack.region && earlier.turn == attack.turn)
          fail(at(path, "region"), "\"" + name + "\" is already fought in on turn " + std::to_string(attack.turn) +
                                       " (" + earlier.path +
                                       "); give one combat per Region and Game-Turn, with the Region's other "
                                       "forces in british_elsewhere, americans_elsewhere, militia_elsewhere");
      attack.british_elsewhere = integer(a, path, "british_elsewhere", 0, 0, 500);
      attack.americans_elsewhere = integer(a, path, "americans_elsewhere", 0, 0, 500);
      attack.militia_elsewhere = integer(a, path, "militia_elsewhere", 0, 0, 500);
    } else if (elsewhere) {
      fail(at(path, "region"), "is required with british_elsewhere, americans_elsewhere or militia_elsewhere");
    }
    plan.attacks.push_back(attack);
  }
  if (doc.contains("british_moves")) {
    const json& moves = doc.at("british_moves");
    if (!moves.is_array()) fail("/british_moves", "must be an array of {\"areas\", \"groups\"}");
    capped_array(moves, "/british_moves", max_revolution_moves, "British moves");
    for (std::size_t i = 0; i < moves.size(); ++i) {
      const std::string path = pointer_child("/british_moves", i);
      const json& m = moves[i];
      if (!m.is_object()) fail(path, "a move is an object {\"id\", \"turn\", \"areas\", \"groups\"}");
      only_keys(m, path, {"id", "turn", "areas", "groups", "note"});
      revolution_move mv;
      mv.path = path;
      mv.id = plan_text(m, "id", path, file + ": " + at(path, "id"));
      mv.turn = integer(m, path, "turn", 1, 1, ar::last_game_turn);
      if (!m.contains("areas")) fail(at(path, "areas"), "is required: Areas entered (a sea move counts one), 1..5");
      mv.areas = integer(m, path, "areas", 1, 1, ar::movement_allowance);
      mv.groups = integer(m, path, "groups", 1, 1, 20);
      plan.british_moves.push_back(mv);
    }
  }
  plan.last_turn =
      integer(doc, "", "last_turn", std::min(previous_turn + 6, ar::last_game_turn), previous_turn, ar::last_game_turn);
  return plan;
}

namespace {

struct war_state {
  int major = 0;      // Major Successes so far (prior included), capped at 3
  bool over = false;  // the game has ended: the Americans have won, or the British if `british`
  bool british = false;
  bool withdrawal = false;
  int vp = 0;  // British Victory Points as last judged (Control: at the end of a Game-Turn)
  // Followed Regions the British control as last judged, kept only for Regions fought in later
  // (the rest is in vp already), and this Game-Turn's judgements, applied at its end.
  std::uint32_t control = 0, judged = 0, judged_british = 0;
  auto operator<=>(const war_state&) const = default;
};

enum class holder { british, american, disputed };

// Control and American Militia, judged at the end of the attack's Game-Turn from what the
// combat leaves in the Region (no combat result moves a unit: the survivors stay) and the rest of
// the Region as the plan gives it. The British Player-Turn that follows adds nothing the plan does
// not count in british_elsewhere.
holder control_after(const revolution_attack& a, const revolution_region& region, const ar::result_outcome& o) {
  auto left = [](const ar::force& f, const ar::points_by_type& lost, ar::unit_type t) {
    return f[t] - lost[static_cast<std::size_t>(t)];
  };
  int british = a.british_elsewhere;
  // Control, general rule: fortified or besieging points never count toward control.
  if (!a.battle.fort && !a.battle.besieging)
    for (auto t : {ar::unit_type::regular, ar::unit_type::tory}) british += left(a.battle.defender, o.defender_lost, t);
  int americans = a.americans_elsewhere;  // Continentals and French, open
  if (!a.battle.besieging)                // attackers of besiegers "solely from a Fort" are fortified
    for (auto t : {ar::unit_type::continental, ar::unit_type::french_permanent, ar::unit_type::french_seasonal})
      americans += left(a.battle.attacker, o.attacker_lost, t);
  // Control E: Militia count against British control fortified or not.
  const int militia = a.militia_elsewhere + left(a.battle.attacker, o.attacker_lost, ar::unit_type::militia);
  if (region.name == "Canada")  // Control A, exception: the larger side; a tie (or none) is British
    return british >= americans + militia ? holder::british : holder::american;
  // Control, procedure: every Militia point destroyed, and a garrison of the Region's Victory
  // Points plus the open Continental and French points there.
  if (militia == 0 && british >= region.victory_points + americans) return holder::british;
  if (british == 0) return holder::american;  // Control A: no unfortified British forces
  return holder::disputed;                    // Control B
}

}  // namespace

revolution_campaign_result run_revolution_campaign(const ar::crt_table& table, const revolution_plan& plan) {
  revolution_campaign_result out;
  std::vector<ar::battle_result> battles;
  for (const auto& a : plan.attacks) battles.push_back(ar::resolve_battle(table, a.battle));
  const std::size_t regions = plan.regions.size();
  // last_attack[r]: the last attack in Region r; its control bit is dropped into vp after that.
  std::vector<long> last_attack(regions, -1);  // -1: never fought in
  for (std::size_t i = 0; i < plan.attacks.size(); ++i)
    if (plan.attacks[i].region >= 0)
      last_attack[static_cast<std::size_t>(plan.attacks[i].region)] = static_cast<long>(i);
  const int first = plan.attacks.front().turn;
  const int last = std::max(plan.last_turn, plan.attacks.back().turn);
  // Each Game-Turn's goal (RULINGS.md "American Revolution victory"): control is judged at the end
  // of a Game-Turn, so the goal checked is that turn's.
  for (int t = first; t <= last; ++t) {
    out.turns.push_back(t);
    out.goal_by_turn.push_back(british_goal_on_turn(plan.goals, t));
  }
  auto goal_of = [&](int t) { return out.goal_by_turn[static_cast<std::size_t>(t - first)]; };
  // Major Success B and Variable Forces: after two Major Successes the British need one-half of
  // the goal then in force, rounded down, to continue the game.
  auto continue_threshold = [&](int t) { return goal_of(t) / 2; };
  out.french_triggered_by.resize(out.turns.size());
  out.french_permanent_by.resize(out.turns.size());
  out.at_least.resize(4);
  out.attacks.resize(plan.attacks.size());
  constexpr std::size_t state_limit = 200000;

  // Both ends of every interval: the unknown CRT cell as the worst result for the Americans
  // (1/2Ex: no Major Success, the attacker loses points) and as the best (De). Every result is
  // at least as good for them as 1/2Ex and at most as good as De, in every loss.
  std::vector<std::array<interval_value, 2>> control_runs(plan.attacks.size());
  interval_value british_runs;  // British victory at each end, ordered after both runs
  for (int end = 0; end < 2; ++end) {
    const bool high = end == 1;
    auto set = [high](interval_value& v, const rational& p) { (high ? v.high : v.low) = p; };
    const ar::crt_result unknown_as = high ? ar::crt_result::De : ar::crt_result::HalfEx;
    war_state start;
    start.major = plan.prior_major_successes;
    start.vp = plan.british_vp;
    for (std::size_t r = 0; r < regions; ++r)
      if (plan.regions[r].british_control) start.control |= 1u << r;
    start.over = start.major >= 3 || (start.major >= 2 && start.vp < continue_threshold(first));
    auto d = state_distribution<war_state, rational>::certain(start);
    // P(the first Major Success comes at attack i): French Arrival's clock. Summed as it happens
    // rather than kept in the state, so the state does not grow with the number of turns.
    std::vector<rational> first_success(plan.attacks.size(), rational(0));
    // The end of Game-Turn t: this turn's control judgements take effect; a Region not fought in
    // again leaves the state for vp. With two Major Successes the British must still hold half the
    // turn's goal to continue (Major Success B); holding the whole goal, they win (Victory
    // Conditions; Errata).
    auto end_of_turn = [&](int t, std::size_t next_attack) {
      const int goal = goal_of(t), threshold = continue_threshold(t);
      d = propagate(
          d,
          [&](const war_state& s, auto&& emit) {
            war_state n = s;
            for (std::size_t r = 0; r < regions; ++r) {
              const std::uint32_t bit = 1u << r;
              if (!(s.judged & bit)) continue;
              const int vp = plan.regions[r].victory_points;
              n.vp += ((s.judged_british & bit) ? vp : 0) - ((s.control & bit) ? vp : 0);
              n.control = (n.control & ~bit) | (s.judged_british & bit);
            }
            n.judged = n.judged_british = 0;
            for (std::size_t r = 0; r < regions; ++r)
              if (static_cast<long>(next_attack) > last_attack[r]) n.control &= ~(1u << r);
            if (!n.over && n.major >= 2 && n.vp < threshold) n.over = true;
            if (!n.over && n.vp >= goal) n.over = n.british = true;
            emit(n, rational(1));
          },
          state_limit);
    };
    std::size_t i = 0;
    for (int turn = first; turn <= last; ++turn) {
      for (; i < plan.attacks.size() && plan.attacks[i].turn == turn; ++i) {
        const auto& attack = plan.attacks[i];
        const int threshold = continue_threshold(turn);
        const ar::battle_result& battle = battles[i];
        std::array<rational, 3> p;
        for (auto c : ar::all_crt_results) {
          p[static_cast<std::size_t>(c)] = battle.probability(c);
          if (c == unknown_as) p[static_cast<std::size_t>(c)] += battle.unknown();
        }
        std::array<holder, 3> control{};
        if (attack.region >= 0)
          for (auto c : ar::all_crt_results)
            control[static_cast<std::size_t>(c)] =
                control_after(attack, plan.regions[static_cast<std::size_t>(attack.region)], battle.outcome(c));
        rational made = d.probability([](const war_state& s) { return !s.over; });
        first_success[i] = d.probability([](const war_state& s) { return !s.over && s.major == 0; });
        rational major(0), british(0), american(0);
        for (auto c : ar::all_crt_results) {
          const auto k = static_cast<std::size_t>(c);
          if (battle.outcome(c).major_success) major += p[k];
          if (control[k] == holder::british) british += p[k];
          if (control[k] == holder::american) american += p[k];
        }
        auto& row = out.attacks[i];
        set(row.reached, made);
        set(row.major_success, made * major);
        first_success[i] *= major;  // Major Success A: the first one triggers the French Arrival
        row.id = attack.id;
        row.turn = attack.turn;
        row.british_goal = goal_of(turn);
        row.column = battle.o.column;
        row.judges_control = attack.region >= 0;
        if (row.judges_control) {
          set(control_runs[i][0], made * british);
          set(control_runs[i][1], made * american);
        }
        try {
          d = propagate(
              d,
              [&](const war_state& s, auto&& emit) {
                if (s.over) return emit(s, rational(1));
                for (auto c : ar::all_crt_results) {
                  const auto k = static_cast<std::size_t>(c);
                  if (p[k] == 0) continue;
                  const auto& o = battle.outcome(c);
                  war_state n = s;
                  if (o.major_success) {
                    n.major = std::min(3, s.major + 1);
                    // Major Success B, C: a third wins; so does a second with the British short of
                    // half this turn's goal as last judged (Control: at the end of a turn).
                    n.over = n.major >= 3 || (n.major >= 2 && s.vp < threshold);
                    if (o.partial_withdrawal) n.withdrawal = true;  // the first time: Partial Withdrawal
                  }
                  if (attack.region >= 0) {
                    const std::uint32_t bit = 1u << attack.region;
                    n.judged |= bit;
                    if (control[k] == holder::british) n.judged_british |= bit;
                  }
                  emit(n, p[k]);
                }
              },
              state_limit);
        } catch (const state_space_exceeded&) {
          throw invalid_input(plan.file + ": /regions", "the plan's Regions and attacks give more than " +
                                                            std::to_string(state_limit) +
                                                            " combined states; follow fewer Regions at once");
        }
      }
      end_of_turn(turn, i);
    }
    for (int k = 0; k <= 3; ++k)
      set(out.at_least[static_cast<std::size_t>(k)], d.probability([k](const war_state& s) { return s.major >= k; }));
    set(out.american_victory, d.probability([](const war_state& s) { return s.over && !s.british; }));
    set(british_runs, d.probability([](const war_state& s) { return s.british; }));
    set(out.partial_withdrawal, d.probability([](const war_state& s) { return s.withdrawal; }));
    // French Arrival: triggered by turn t if the first success came on a turn <= t; the Permanent
    // Reinforcements arrive six Game-Turns after it (never under Option K). Both sums run forward
    // once over the turns.
    rational triggered(0), permanent(0);
    std::size_t next_trigger = 0, next_permanent = 0;
    for (std::size_t t = 0; t < out.turns.size(); ++t) {
      const int turn = out.turns[t];
      for (; next_trigger < plan.attacks.size() && plan.attacks[next_trigger].turn <= turn; ++next_trigger)
        triggered += first_success[next_trigger];
      for (; next_permanent < plan.attacks.size() && plan.attacks[next_permanent].turn + 6 <= turn; ++next_permanent)
        if (!plan.no_french_permanent) permanent += first_success[next_permanent];
      set(out.french_triggered_by[t], triggered);
      set(out.french_permanent_by[t], permanent);
    }
  }
  auto order = [](interval_value v) {
    if (v.high < v.low) std::swap(v.low, v.high);
    return v;
  };
  for (std::size_t i = 0; i < plan.attacks.size(); ++i) {
    out.attacks[i].british_control = order(control_runs[i][0]);
    out.attacks[i].american_control = order(control_runs[i][1]);
  }
  out.british_victory = order(british_runs);
  for (const auto& m : plan.british_moves) out.british_moves.push_back(ar::british_movement(m.areas, m.groups));
  // The low and high ends coincide when no unknown cell mattered.
  out.exact =
      out.american_victory.low == out.american_victory.high && out.british_victory.low == out.british_victory.high;
  for (const auto& v : out.at_least) out.exact = out.exact && v.low == v.high;
  for (const auto& a : out.attacks) out.exact = out.exact && a.british_control.low == a.british_control.high;
  return out;
}

namespace {

std::string combat_text(const ar::battle_setup& b) {
  return ar::to_string(b.attacker.points) + " v " + ar::to_string(b.defender.points);
}

}  // namespace

std::vector<revolution_option_effect> apply_variable_forces(revolution_plan& plan, const std::vector<char>& letters) {
  std::vector<revolution_option_effect> effects;
  for (char letter : letters) {
    revolution_option_effect e;
    e.option = letter;
    void (*change)(ar::force&) = nullptr;
    switch (letter) {
      case 'G':
        change = ar::apply_less_efficient_militia;
        e.what =
            "every attack's Militia and Tory points a third smaller, the loss rounded up, each side's taken as a "
            "Region's raised allowance (Option G); militia_elsewhere likewise; british_elsewhere is unchanged (the "
            "plan "
            "does not say how many of those points are Tories)";
        break;
      case 'E':
        change = ar::apply_increased_french_effort;
        e.what =
            "every attack's French Permanent points x18/12 and Seasonal x10/6, rounded down (Option E gives the "
            "totals 12 -> 18 and 6 -> 10; a part is scaled by the same ratio: our assumption)";
        break;
      case 'K':
        change = ar::apply_invasion_threat;
        e.what =
            "every attack's French Permanent points removed and french_permanent_arrived held at 0 (Option K: the "
            "French Permanent Reinforcements are eliminated); NOT applied: the deduction of every British Overseas "
            "Reinforcement after Summer 1778, since the plan does not say which British points came from them";
        break;
      case 'A':
      case 'B':
      case 'C':
      case 'D':
      case 'J':
        e.what =
            "not applied: it changes the British Overseas Reinforcements, and the plan does not say which of its "
            "British points came from them; give the forces as they would be under it";
        break;
      case 'I':
        e.what =
            "not applied: it delays British Overseas Reinforcements, and the plan does not say which of its British "
            "points came from them; give the forces as they would be under it";
        break;
      case 'F':
        e.what =
            "not applied: it adds Continental Levy rolls, and the plan does not say which of its Continentals came "
            "from the Levy; give the forces as they would be under it";
        break;
      case 'H':
        e.what =
            "not applied: it lowers the minimum garrison of an uncontested Region by its Tory allowance, which the "
            "plan's regions do not give; Region control is judged with the full garrison";
        break;
      case 'L':
        e.what = "not applied: the plan does not follow Canada's rebellion (Canadian Militia and Continentals)";
        break;
      default:
        throw invalid_input("use", std::string("option ") + letter + " is not an option; allowed A..L");
    }
    if (change) {
      e.applied = true;
      for (auto& a : plan.attacks) {
        ar::battle_setup before = a.battle;
        change(a.battle.attacker);
        change(a.battle.defender);
        if (letter == 'G' && a.militia_elsewhere > 0)
          a.militia_elsewhere = ar::less_efficient_allowance(a.militia_elsewhere);
        if (a.battle.attacker.points == before.attacker.points && a.battle.defender.points == before.defender.points)
          continue;
        e.attacks_changed.push_back(a.id + ": " + combat_text(before) + " -> " + combat_text(a.battle));
        try {
          ar::compute_odds(a.battle);
        } catch (const invalid_input& err) {
          throw invalid_input("use", std::string("under Option ") + letter + " " + plan.file + ": " + a.path + " (" +
                                         a.id + ") is " + combat_text(a.battle) + ", not a combat: " + err.what());
        }
      }
      if (letter == 'K') plan.no_french_permanent = true;
    }
    effects.push_back(e);
  }
  return effects;
}

}  // namespace musket::campaign
