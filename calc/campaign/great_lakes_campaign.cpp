#include "calc/campaign/great_lakes_campaign.hpp"

#include <algorithm>
#include <set>

#include "calc/great_lakes/battle_round.hpp"
#include "calc/great_lakes/scenario.hpp"
#include "calc/great_lakes/turn.hpp"
#include "core/invalid_input.hpp"

namespace musket::campaign {

namespace gl = musket::great_lakes;
using nlohmann::json;

namespace {

int index_of(gl::nation n) {
  return n == gl::nation::american ? 0 : 1;
}

[[noreturn]] void fail(const std::string& file, const std::string& path, const std::string& message) {
  throw invalid_input(file + ": " + path, message);
}

// Every VP location of GL 14 with its value and the side that earns it.
struct vp_location {
  std::string name;
  int vp;
  int earner;  // 0 american, 1 british
};
std::vector<vp_location> vp_locations(const gl::game_data& data) {
  std::vector<vp_location> out;
  for (const auto& l : data.american_vp) out.push_back({l.location, l.vp, 0});
  for (const auto& l : data.british_vp) out.push_back({l.location, l.vp, 1});
  return out;
}

bool occupies(const gl::unit& u) {
  // GL 14.5: occupation needs infantry (regulars), militia or artillery.
  return u.sp > 0 &&
         (u.type == gl::unit_type::regular || u.type == gl::unit_type::militia || u.type == gl::unit_type::artillery);
}

// The battle engine's round, rolled: one outcome per call of each choice.
struct rolling_chooser {
  random_engine* engine;
  template <class F>
  void binomial(int n, int faces, F&& f) {
    f(roll_hits(*engine, n, faces));
  }
  template <class F>
  void binomial_capped(int n, int faces, int cap, F&& f) {
    f(std::min(roll_hits(*engine, n, faces), cap));
  }
  template <class F>
  void choose3(double p0, double p1, double, F&& f) {
    const double u = static_cast<double>((*engine)()) * (1.0 / 4294967296.0);
    f(u < p0 ? 0 : (u < p0 + p1 ? 1 : 2));
  }
};

}  // namespace

great_lakes_plan parse_great_lakes_plan(const json& doc, const std::string& file, const gl::game_data& data) {
  if (!doc.is_object()) fail(file, "$", "a plan is a JSON object with \"armies\" and \"steps\"");
  for (auto it = doc.begin(); it != doc.end(); ++it) {
    static const std::set<std::string> keys{"game", "name", "armies", "control", "steps", "from_turn", "notes"};
    if (!keys.count(it.key()))
      fail(file, it.key(), "unknown key; allowed: game, name, armies, control, steps, from_turn, notes");
  }
  great_lakes_plan plan;
  plan.file = file;
  plan.name = doc.value("name", std::string("campaign"));
  plan.from_turn = doc.value("from_turn", 1);
  if (plan.from_turn < 1 || plan.from_turn > data.last_turn)
    fail(file, "from_turn", "allowed 1.." + std::to_string(data.last_turn));
  if (!doc.contains("armies") || !doc.at("armies").is_object())
    fail(file, "armies", "is required: {\"american\": {\"units\": [...]}, \"british\": {...}}");
  const json& armies = doc.at("armies");
  for (const char* side : {"american", "british"}) {
    if (!armies.contains(side))
      fail(file, std::string("armies.") + side, "is required (an army object like a battle's)");
  }
  // Parse each army through the scenario reader (as the defender of a probe battle) for its units.
  for (int s = 0; s < 2; ++s) {
    const char* side = s == 0 ? "american" : "british";
    json army = armies.at(side);
    army["side"] = side;
    json probe = {{"attacker", army},
                  {"defender",
                   {{"side", s == 0 ? "british" : "american"},
                    {"units", {{{"name", "(probe)"}, {"type", "militia"}, {"sp", 1}, {"morale", 3}, {"dice", 1}}}}}}};
    try {
      plan.army[s] = gl::parse_scenario(probe, file + ": armies." + side).attacker.units;
    } catch (const invalid_input& e) {
      throw invalid_input(file + ": armies." + side, e.what());
    }
  }
  const auto locations = vp_locations(data);
  std::set<std::string> known;
  for (const auto& l : locations) known.insert(l.name);
  if (doc.contains("control")) {
    const json& c = doc.at("control");
    if (!c.is_object()) fail(file, "control", "must map locations to \"american\" or \"british\"");
    for (auto it = c.begin(); it != c.end(); ++it) {
      if (!it.value().is_string() || (it.value() != "american" && it.value() != "british"))
        fail(file, "control." + it.key(), "allowed: american, british");
      plan.control[it.key()] = it.value() == "american" ? gl::nation::american : gl::nation::british;
    }
  }
  if (!doc.contains("steps") || !doc.at("steps").is_array() || doc.at("steps").empty())
    fail(file, "steps", "is required: a non-empty array");
  const json& steps = doc.at("steps");
  int previous = plan.from_turn;
  for (std::size_t i = 0; i < steps.size(); ++i) {
    const std::string path = "steps[" + std::to_string(i) + "]";
    const json& s = steps[i];
    if (!s.is_object()) fail(file, path, "a step is an object");
    great_lakes_step step;
    step.path = path;
    step.id = s.contains("id") && s.at("id").is_string() ? s.at("id").get<std::string>() : path;
    if (!s.contains("kind") || !s.at("kind").is_string() ||
        (s.at("kind") != "battle" && s.at("kind") != "replacements"))
      fail(file, path + ".kind", "allowed: battle, replacements");
    step.turn = s.value("turn", previous);
    if (step.turn < previous) fail(file, path + ".turn", "steps must be in turn order (a campaign only moves forward)");
    if (step.turn > data.last_turn)
      fail(file, path + ".turn", "the game ends after turn " + std::to_string(data.last_turn));
    previous = step.turn;
    if (s.at("kind") == "replacements") {
      step.what = great_lakes_step::kind::replacements;
      for (auto it = s.begin(); it != s.end(); ++it)
        if (it.key() != "kind" && it.key() != "id" && it.key() != "turn" && it.key() != "american" &&
            it.key() != "british")
          fail(file, path + "." + it.key(), "unknown key; allowed: kind, id, turn, american, british");
      step.replacement_sp[0] = s.value("american", 0);
      step.replacement_sp[1] = s.value("british", 0);
      if (step.replacement_sp[0] < 0 || step.replacement_sp[1] < 0 || step.replacement_sp[0] > 30 ||
          step.replacement_sp[1] > 30)
        fail(file, path, "replacement SP are 0..30 per side");
      plan.steps.push_back(step);
      continue;
    }
    for (auto it = s.begin(); it != s.end(); ++it) {
      static const std::set<std::string> keys{"kind",    "id",       "turn", "location",       "attacker",
                                              "niagara", "crossing", "fort", "defender_extra", "attacker_extra"};
      if (!keys.count(it.key()))
        fail(file, path + "." + it.key(),
             "unknown key; allowed: kind, id, turn, location, attacker, niagara, crossing, fort, defender_extra, "
             "attacker_extra");
    }
    if (!s.contains("location") || !s.at("location").is_string())
      fail(file, path + ".location", "is required: where the battle is fought");
    step.location = s.at("location").get<std::string>();
    if (!s.contains("attacker") || (s.at("attacker") != "american" && s.at("attacker") != "british"))
      fail(file, path + ".attacker", "is required: american or british");
    step.attacker = s.at("attacker") == "american" ? gl::nation::american : gl::nation::british;
    const int a = index_of(step.attacker), d = 1 - a;
    json att = armies.at(a == 0 ? "american" : "british"), def = armies.at(d == 0 ? "american" : "british");
    att["side"] = a == 0 ? "american" : "british";
    def["side"] = d == 0 ? "american" : "british";
    step.attacker_army_units = att.at("units").size();
    step.defender_army_units = def.at("units").size();
    if (s.contains("crossing")) {
      for (auto& u : att["units"])
        if (u.is_object()) u["crossing"] = s.at("crossing");
    }
    if (s.contains("attacker_extra"))
      for (const auto& u : s.at("attacker_extra")) att["units"].push_back(u);
    if (s.contains("defender_extra"))
      for (const auto& u : s.at("defender_extra")) def["units"].push_back(u);
    if (s.contains("fort")) def["fort"] = s.at("fort");
    json scenario = {{"niagara", s.value("niagara", false)}, {"attacker", att}, {"defender", def}};
    try {
      step.template_battle = gl::parse_scenario(scenario, file + ": " + path);
    } catch (const invalid_input& e) {
      throw invalid_input(file + ": " + path, e.what() + std::string(" (in the battle built from this step)"));
    }
    plan.steps.push_back(step);
  }
  return plan;
}

great_lakes_campaign_result run_great_lakes_campaign(const great_lakes_plan& plan, const gl::game_data& data,
                                                     const chain_simulation_options& options) {
  namespace d = gl::detail;
  const auto locations = vp_locations(data);
  const gl::war_end_result war_end = gl::resolve_war_end(data, plan.from_turn);
  std::vector<double> end_cdf;
  std::vector<int> end_turns;
  double running = 0;
  for (int t = war_end.last_turn.lowest(); t <= war_end.last_turn.highest(); ++t) {
    const double p = to_double(war_end.last_turn[t]);
    if (p == 0) continue;
    running += p;
    end_turns.push_back(t);
    end_cdf.push_back(running);
  }
  int max_sp[2] = {0, 0};
  for (int s = 0; s < 2; ++s) {
    for (const auto& u : plan.army[s]) max_sp[s] += u.max_sp;
  }
  int max_vp[2] = {0, 0};
  for (const auto& l : locations) max_vp[l.earner] += l.vp;

  tally_layout layout;
  struct step_counters {
    std::size_t fought, attacker_wins, sp[2];
  };
  std::vector<step_counters> counters;
  for (std::size_t i = 0; i < plan.steps.size(); ++i) {
    step_counters c{layout.counter(), layout.counter(), {layout.counter(), layout.counter()}};
    counters.push_back(c);
  }
  std::vector<std::array<std::size_t, 2>> held;
  for (std::size_t l = 0; l < locations.size(); ++l) held.push_back({layout.counter(), layout.counter()});
  const auto vp_hist_a = layout.add_histogram(0, max_vp[0]);
  const auto vp_hist_b = layout.add_histogram(0, max_vp[1]);
  const std::size_t british_ahead = layout.counter(), tied = layout.counter();

  // Compiled battles (rules) are rebuilt per trial because the units change; the template holds
  // everything else.
  auto trial = [&](random_engine& engine, std::span<std::uint64_t> tally) {
    std::vector<gl::unit> army[2] = {plan.army[0], plan.army[1]};
    std::map<std::string, gl::nation> control = plan.control;
    const double u = static_cast<double>(engine()) * (1.0 / 4294967296.0);
    std::size_t e = 0;
    while (e + 1 < end_cdf.size() && u >= end_cdf[e]) ++e;
    const int last_turn = end_turns[e];
    for (std::size_t i = 0; i < plan.steps.size(); ++i) {
      const great_lakes_step& step = plan.steps[i];
      if (step.turn > last_turn) break;
      if (step.what == great_lakes_step::kind::replacements) {
        for (int s = 0; s < 2; ++s) {
          int left = step.replacement_sp[s];
          while (left > 0) {
            gl::unit* worst = nullptr;
            for (auto& un : army[s])
              if (un.sp < un.max_sp && (!worst || un.max_sp - un.sp > worst->max_sp - worst->sp)) worst = &un;
            if (!worst) break;
            ++worst->sp;
            --left;
          }
        }
      } else {
        const int a = index_of(step.attacker), df = 1 - a;
        const bool defender_there = !army[df].empty();
        if (army[a].empty()) {
          // Nothing left to attack with: the battle is not fought.
        } else {
          ++tally[counters[i].fought];
          bool attacker_won = false;
          gl::battle b = step.template_battle;
          // Swap in the carried units (the template lists the starting army first).
          auto carried = [&](std::vector<gl::unit>& units, std::size_t n, const std::vector<gl::unit>& now,
                             bool attacking) {
            std::vector<gl::unit> out;
            for (const auto& c : now) {
              gl::unit copy = c;
              if (attacking && n > 0) copy.crossed = units.front().crossed;
              out.push_back(copy);
            }
            out.insert(out.end(), units.begin() + static_cast<std::ptrdiff_t>(n), units.end());
            units = std::move(out);
          };
          carried(b.attacker.units, step.attacker_army_units, army[a], true);
          carried(b.defender.units, step.defender_army_units, army[df], false);
          const std::size_t defender_carried = army[df].size();
          if (!defender_there && b.defender.units.empty() && !b.defender.fortification) {
            attacker_won = true;  // an undefended location is taken
          } else if (b.defender.units.empty() && !b.defender.fortification) {
            attacker_won = true;
          } else {
            const d::battle_rules r = d::compile(b);
            d::battle_state st = d::initial_state(r);
            rolling_chooser chooser{&engine};
            gl::battle_end end = gl::battle_end::none;
            for (int round = 0; round < 10000 && end == gl::battle_end::none; ++round) {
              d::battle_state next = st;
              gl::battle_end e2 = gl::battle_end::none;
              auto emit = [&](const d::battle_state& s2, gl::battle_end en) {
                next = s2;
                e2 = en;
              };
              d::play_round(r, st, chooser, emit);
              st = next;
              end = e2;
            }
            attacker_won = end == gl::battle_end::defender_eliminated ||
                           end == gl::battle_end::defender_forced_retreat ||
                           end == gl::battle_end::defender_voluntary_retreat;
            // Carry the survivors: the army's units are listed first on each side.
            auto survivors = [&](std::vector<gl::unit>& units, int side) {
              std::vector<gl::unit> out;
              for (std::size_t k = 0; k < units.size(); ++k) {
                const int sp = st.sp[static_cast<std::size_t>(r.begin[side]) + k];
                if (sp > 0) {
                  gl::unit copy = units[k];
                  copy.sp = sp;
                  copy.crossed = gl::crossing::none;
                  out.push_back(copy);
                }
              }
              units = std::move(out);
            };
            survivors(army[a], d::attacker);
            std::vector<gl::unit> defenders(army[df].begin(),
                                            army[df].begin() + static_cast<std::ptrdiff_t>(defender_carried));
            survivors(defenders, d::defender);
            army[df] = std::move(defenders);
          }
          if (attacker_won) {
            ++tally[counters[i].attacker_wins];
            if (std::any_of(army[a].begin(), army[a].end(), occupies)) control[step.location] = step.attacker;
          }
        }
      }
      for (int s = 0; s < 2; ++s) {
        int sp = 0;
        for (const auto& un : army[s]) sp += un.sp;
        tally[counters[i].sp[s]] += static_cast<std::uint64_t>(sp);
      }
    }
    int vp[2] = {0, 0};
    for (std::size_t l = 0; l < locations.size(); ++l) {
      const auto it = control.find(locations[l].name);
      if (it == control.end()) continue;
      const int holder = index_of(it->second);
      ++tally[held[l][static_cast<std::size_t>(holder)]];
      if (holder == locations[l].earner) vp[holder] += locations[l].vp;
    }
    ++tally[vp_hist_a.at(vp[0])];
    ++tally[vp_hist_b.at(vp[1])];
    if (vp[1] > vp[0]) ++tally[british_ahead];
    if (vp[1] == vp[0]) ++tally[tied];
  };
  const simulation_tally t = run_chain_trials(options, layout.size(), trial);
  great_lakes_campaign_result out;
  out.trials = t.trials;
  out.seed = options.simulation.seed;
  for (std::size_t i = 0; i < plan.steps.size(); ++i) {
    great_lakes_step_result r;
    r.id = plan.steps[i].id;
    r.turn = plan.steps[i].turn;
    r.location = plan.steps[i].location;
    r.fought = tally_interval(t, counters[i].fought);
    r.attacker_wins = tally_interval(t, counters[i].attacker_wins);
    for (int s = 0; s < 2; ++s)
      r.mean_sp[s] =
          static_cast<double>(t.counts[counters[i].sp[s]]) / static_cast<double>(std::max<std::uint64_t>(1, t.trials));
    out.steps.push_back(r);
  }
  for (std::size_t l = 0; l < locations.size(); ++l) {
    great_lakes_location_result r;
    r.location = locations[l].name;
    r.vp = locations[l].vp;
    r.earned_by = locations[l].earner == 0 ? "american" : "british";
    r.american = tally_interval(t, held[l][0]);
    r.british = tally_interval(t, held[l][1]);
    out.locations.push_back(r);
  }
  for (std::size_t b = 0; b < vp_hist_a.bins(); ++b)
    out.american_vp.push_back(static_cast<double>(t.counts[vp_hist_a.offset + b]) / static_cast<double>(t.trials));
  for (std::size_t b = 0; b < vp_hist_b.bins(); ++b)
    out.british_vp.push_back(static_cast<double>(t.counts[vp_hist_b.offset + b]) / static_cast<double>(t.trials));
  out.british_ahead = tally_interval(t, british_ahead);
  out.tied = tally_interval(t, tied);
  for (int turn = 0; turn <= war_end.last_turn.highest(); ++turn)
    out.last_turn.push_back(to_double(war_end.last_turn[turn]));
  (void)max_sp;
  return out;
}

}  // namespace musket::campaign
