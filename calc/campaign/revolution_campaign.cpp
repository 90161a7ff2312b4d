#include "calc/campaign/revolution_campaign.hpp"

#include <algorithm>
#include <compare>

#include "calc/campaign/plan_json.hpp"
#include "core/invalid_input.hpp"
#include "core/state_distribution.hpp"

namespace musket::campaign {

namespace ar = musket::revolution;
using nlohmann::json;

revolution_plan parse_revolution_plan(const json& doc, const std::string& file) {
  auto fail = [&](const std::string& path, const std::string& message) {
    throw invalid_input(file + ": " + path, message);
  };
  auto integer = [&](const json& o, const std::string& path, const char* key, int fallback, int lo, int hi) {
    return plan_whole_number(o, key, fallback, file + ": " + path + key, lo, hi);
  };
  if (!doc.is_object()) fail("$", "a plan is a JSON object with \"attacks\"");
  for (auto it = doc.begin(); it != doc.end(); ++it) {
    static const std::vector<std::string> keys{"game",         "name",          "prior_major_successes",
                                               "british_goal", "british_vp",    "last_turn",
                                               "attacks",      "british_moves", "notes"};
    if (std::find(keys.begin(), keys.end(), it.key()) == keys.end())
      fail(it.key(),
           "unknown key; allowed: game, name, prior_major_successes, british_goal, british_vp, last_turn, "
           "attacks, notes");
  }
  if (doc.contains("game") && doc.at("game") != "ar") fail("game", "the plan is not for `musket ar`");
  revolution_plan plan;
  plan.file = file;
  plan.name = plan_text(doc, "name", "campaign", file + ": name");
  plan.prior_major_successes = integer(doc, "", "prior_major_successes", 0, 0, 2);
  plan.british_goal = integer(doc, "", "british_goal", 51, 30, 72);  // 51 +- 21 (Variable Forces)
  plan.british_vp = integer(doc, "", "british_vp", 0, 0, 200);
  if (!doc.contains("attacks") || !doc.at("attacks").is_array() || doc.at("attacks").empty())
    fail("attacks", "is required: a non-empty array of American attacks");
  const json& attacks = doc.at("attacks");
  int previous_turn = 0;
  for (std::size_t i = 0; i < attacks.size(); ++i) {
    const std::string path = "attacks[" + std::to_string(i) + "]";
    const json& a = attacks[i];
    if (!a.is_object()) fail(path, "an attack is an object {\"turn\", \"attacker\", \"defender\"}");
    for (auto it = a.begin(); it != a.end(); ++it) {
      static const std::vector<std::string> keys{"id",   "turn",      "attacker", "defender",
                                                 "fort", "besieging", "policy",   "note"};
      if (std::find(keys.begin(), keys.end(), it.key()) == keys.end())
        fail(path + "." + it.key(),
             "unknown key; allowed: id, turn, attacker, defender, fort, besieging, policy, note");
    }
    revolution_attack at;
    at.path = path;
    at.id = plan_text(a, "id", path, file + ": " + path + ".id");
    at.turn = integer(a, path + ".", "turn", previous_turn == 0 ? 1 : previous_turn, 1, 200);
    if (at.turn < previous_turn) fail(path + ".turn", "attacks must be in turn order (a campaign only moves forward)");
    previous_turn = at.turn;
    auto force_of = [&](const char* key) {
      if (!a.contains(key) || !a.at(key).is_string()) fail(path + "." + key, "is required: points like \"20C,10M\"");
      try {
        return ar::parse_force(a.at(key).get<std::string>(), key);
      } catch (const invalid_input& e) {
        fail(path + "." + key, e.what());
      }
      return ar::force{};
    };
    at.battle.attacker = force_of("attacker");
    at.battle.defender = force_of("defender");
    if (at.battle.attacker.owner != ar::side::american)
      fail(path + ".attacker", "a season plan lists American attacks; give American points (C, M, F, SF)");
    at.battle.fort = plan_flag(a, "fort", false, file + ": " + path + ".fort");
    at.battle.besieging = plan_flag(a, "besieging", false, file + ": " + path + ".besieging");
    if (a.contains("policy")) {
      try {
        at.battle.policy = ar::parse_loss_policy(a.at("policy").get<std::string>(), "policy");
      } catch (const std::exception& e) {
        fail(path + ".policy", e.what());
      }
    }
    try {
      ar::compute_odds(at.battle);
    } catch (const invalid_input& e) {
      fail(path + "." + e.field(), e.what());
    }
    plan.attacks.push_back(at);
  }
  if (doc.contains("british_moves")) {
    const json& moves = doc.at("british_moves");
    if (!moves.is_array()) fail("british_moves", "must be an array of {\"areas\", \"groups\"}");
    for (std::size_t i = 0; i < moves.size(); ++i) {
      const std::string path = "british_moves[" + std::to_string(i) + "]";
      const json& m = moves[i];
      if (!m.is_object()) fail(path, "a move is an object {\"id\", \"turn\", \"areas\", \"groups\"}");
      for (auto it = m.begin(); it != m.end(); ++it)
        if (it.key() != "id" && it.key() != "turn" && it.key() != "areas" && it.key() != "groups" && it.key() != "note")
          fail(path + "." + it.key(), "unknown key; allowed: id, turn, areas, groups, note");
      revolution_move mv;
      mv.path = path;
      mv.id = m.contains("id") && m.at("id").is_string() ? m.at("id").get<std::string>() : path;
      mv.turn = integer(m, path + ".", "turn", 1, 1, 200);
      if (!m.contains("areas")) fail(path + ".areas", "is required: Areas entered (a sea move counts one), 1..5");
      mv.areas = integer(m, path + ".", "areas", 1, 1, ar::movement_allowance);
      mv.groups = integer(m, path + ".", "groups", 1, 1, 20);
      plan.british_moves.push_back(mv);
    }
  }
  plan.last_turn = integer(doc, "", "last_turn", previous_turn + 6, previous_turn, 400);
  return plan;
}

namespace {

struct war_state {
  int major = 0;       // Major Successes so far (prior included), capped at 3
  int first_turn = 0;  // turn of the first Major Success in the plan (0: none yet, or before it)
  bool over = false;   // the Americans have won
  bool withdrawal = false;
  auto operator<=>(const war_state&) const = default;
};

struct attack_law {
  rational p_major;    // P(Major Success)
  rational p_partial;  // P(Major Success with >= 15 Regulars: Partial Withdrawal), a subset of p_major
};

attack_law law_of(const ar::battle_result& r, bool high) {
  attack_law law{0, 0};
  for (auto c : ar::all_crt_results) {
    const auto& o = r.outcome(c);
    if (o.major_success) law.p_major += r.probability(c);
    if (o.partial_withdrawal) law.p_partial += r.probability(c);
  }
  // The unknown cell could hold any of the three results (not only those already in the column).
  bool any_major = false, all_major = true, any_partial = false, all_partial = true;
  for (auto c : ar::all_crt_results) {
    const auto& o = r.outcome(c);
    any_major = any_major || o.major_success;
    all_major = all_major && o.major_success;
    any_partial = any_partial || o.partial_withdrawal;
    all_partial = all_partial && o.partial_withdrawal;
  }
  if (high ? any_major : all_major) law.p_major += r.unknown();
  if (high ? any_partial : all_partial) law.p_partial += r.unknown();
  return law;
}

}  // namespace

revolution_campaign_result run_revolution_campaign(const ar::crt_table& table, const revolution_plan& plan) {
  revolution_campaign_result out;
  out.continue_threshold = plan.british_goal / 2;
  const bool british_short = plan.british_vp < out.continue_threshold;
  std::vector<ar::battle_result> battles;
  for (const auto& a : plan.attacks) {
    battles.push_back(ar::resolve_battle(table, a.battle));
    if (battles.back().unknown_faces > 0) {
      const auto m = battles.back().major_success();
      if (!m.exact()) out.exact = false;
    }
  }
  const int first = plan.attacks.front().turn;
  for (int t = first; t <= plan.last_turn; ++t) out.turns.push_back(t);
  out.french_triggered_by.resize(out.turns.size());
  out.french_permanent_by.resize(out.turns.size());
  out.at_least.resize(4);
  out.attacks.resize(plan.attacks.size());

  for (int end = 0; end < 2; ++end) {
    const bool high = end == 1;
    auto set = [high](interval_value& v, const rational& p) { (high ? v.high : v.low) = p; };
    war_state start;
    start.major = plan.prior_major_successes;
    start.over = start.major >= 3 || (start.major >= 2 && british_short);
    auto d = state_distribution<war_state, rational>::certain(start);
    for (std::size_t i = 0; i < plan.attacks.size(); ++i) {
      const attack_law law = law_of(battles[i], high);
      const int turn = plan.attacks[i].turn;
      rational made = d.probability([](const war_state& s) { return !s.over; });
      set(out.attacks[i].reached, made);
      set(out.attacks[i].major_success, made * law.p_major);
      out.attacks[i].id = plan.attacks[i].id;
      out.attacks[i].turn = turn;
      out.attacks[i].column = battles[i].o.column;
      d = propagate(
          d,
          [&](const war_state& s, auto&& emit) {
            if (s.over) return emit(s, rational(1));
            war_state success = s;
            success.major = std::min(3, s.major + 1);
            if (s.major == 0 && success.first_turn == 0) success.first_turn = turn;  // Major Success A
            // Major Success B, C: two with the British short of floor(goal/2), or three, win at once.
            success.over = success.major >= 3 || (success.major >= 2 && british_short);
            war_state withdrawal = success;
            if (!s.withdrawal) withdrawal.withdrawal = true;  // the first time: Partial Withdrawal
            if (law.p_partial != 0) emit(withdrawal, law.p_partial);
            if (law.p_major - law.p_partial != 0) emit(success, law.p_major - law.p_partial);
            if (law.p_major != 1) emit(s, 1 - law.p_major);
          },
          1000);
    }
    for (int k = 0; k <= 3; ++k)
      set(out.at_least[static_cast<std::size_t>(k)], d.probability([k](const war_state& s) { return s.major >= k; }));
    set(out.american_victory, d.probability([](const war_state& s) { return s.over; }));
    set(out.partial_withdrawal, d.probability([](const war_state& s) { return s.withdrawal; }));
    for (std::size_t t = 0; t < out.turns.size(); ++t) {
      const int turn = out.turns[t];
      set(out.french_triggered_by[t],
          d.probability([turn](const war_state& s) { return s.first_turn > 0 && s.first_turn <= turn; }));
      // French Arrival: the Permanent Reinforcements arrive six Game-Turns after the first success.
      set(out.french_permanent_by[t],
          d.probability([turn](const war_state& s) { return s.first_turn > 0 && s.first_turn + 6 <= turn; }));
    }
  }
  for (const auto& m : plan.british_moves) out.british_moves.push_back(ar::british_movement(m.areas, m.groups));
  // The low and high ends coincide when no unknown cell mattered.
  out.exact = out.american_victory.low == out.american_victory.high;
  for (const auto& v : out.at_least) out.exact = out.exact && v.low == v.high;
  return out;
}

}  // namespace musket::campaign
