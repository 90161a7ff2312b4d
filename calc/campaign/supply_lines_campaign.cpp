#include "calc/campaign/supply_lines_campaign.hpp"

#include <algorithm>
#include <compare>
#include <functional>
#include <map>
#include <mutex>
#include <shared_mutex>
#include <tuple>

#include "calc/campaign/battle_joint.hpp"
#include "calc/supply_lines/battle.hpp"
#include "calc/supply_lines/skirmish.hpp"
#include "core/invalid_input.hpp"
#include "core/state_distribution.hpp"

namespace musket::campaign {

namespace sl = musket::supply_lines;

namespace {

// stopped: a stop_if rule; not_taken: an attack failed with if_not_taken "stop" (after any retries).
enum class army_status : std::uint8_t { active, stopped, stalled, destroyed, track_end, instant_victory, not_taken };

// Flags of what happened at the step just taken (cleared before the next step).
enum step_flag : std::uint8_t {
  reached = 1,
  skipped = 2,
  performed = 4,
  won = 8,
  stalled = 16,
  stopped = 32,
  taken = 64,  // attack: we took the Area; defend: the enemy took ours
  away = 128,  // skipped because the army is not in the step's Area
};
inline constexpr int flag_count = 8;

struct army_state {
  std::int16_t units = 0, leaders = 0, war = 0, food = 0, track = 0;
  std::uint8_t pc = 0;  // the next step to take
  army_status status = army_status::active;
  std::uint8_t dug_in = 0;
  std::uint8_t flags = 0;
  std::uint8_t area = 0;      // the Area the army stands in (plan.areas), or elsewhere_area
  std::uint8_t missed = 0;    // an attack did not take its Area, or a step was skipped for it
  std::uint8_t outcome = 0;   // step_outcome of the step just taken
  std::uint8_t attempts = 0;  // attacks fought at the step just taken
  auto operator<=>(const army_state&) const = default;
};

int field_value(const army_state& s, state_field f) {
  switch (f) {
    case state_field::units:
      return s.units;
    case state_field::leaders:
      return s.leaders;
    case state_field::war:
      return s.war;
    case state_field::food:
      return s.food;
    case state_field::track:
      return s.track;
  }
  return 0;
}

int evaluate(const amount& a, const army_state& s) {
  if (!a.field) return a.constant;
  int v = field_value(s, *a.field) - a.minus;
  if (a.at_most) v = std::min(v, *a.at_most);
  return std::max(0, v);
}

bool holds(const condition& c, const army_state& s, bool was_won) {
  switch (c.what) {
    case condition::kind::always:
      return true;
    case condition::kind::won:
      return was_won;
    case condition::kind::lost:
      return !was_won;
    case condition::kind::taken:
      return (s.flags & taken) != 0;
    case condition::kind::not_taken:
      return (s.flags & taken) == 0;
    case condition::kind::compare: {
      const int v = field_value(s, c.field);
      switch (c.op) {
        case condition::comparison::below:
          return v < c.value;
        case condition::comparison::at_most:
          return v <= c.value;
        case condition::comparison::at_least:
          return v >= c.value;
        case condition::comparison::above:
          return v > c.value;
        case condition::comparison::equals:
          return v == c.value;
      }
    }
  }
  return false;
}

int activation_food(int units) {
  return (units + 3) / 4;  // NT 7.1/7.3, SS 9.1/9.4: 1 Food per four Units, rounding up
}

// How an attack walks a battle's joint law (cells): every cell with its probability (the exact
// engine), or one cell drawn per attempt, weight 1 (the simulation: an attack retried K times
// then costs K draws, not the whole joint law of K attempts).
struct every_cell {
  template <class Cells, class Visit>
  void operator()(const Cells& cells, Visit&& visit) const {
    for (const auto& cell : cells) visit(cell, cell.probability);
  }
};
struct one_drawn_cell {
  random_engine* engine;
  template <class Cells, class Visit>
  void operator()(const Cells& cells, Visit&& visit) const {
    double u = static_cast<double>((*engine)()) / 4294967296.0;
    for (std::size_t k = 0; k < cells.size(); ++k) {
      if (u < cells[k].probability || k + 1 == cells.size()) return visit(cells[k], 1.0);
      u -= cells[k].probability;
    }
  }
};

// The step kernel shared by the exact and the simulated engine: one state in, weighted
// successors out (weights summing to 1). With one_drawn_cell an attack emits one successor.
template <class P>
class step_kernel {
 public:
  explicit step_kernel(const supply_lines_plan& plan) : plan_(plan), rules_(*plan.rules) {}

  template <class Emit, class Cells = every_cell>
  void apply(army_state s, Emit&& emit, const Cells& cells = Cells{}) {
    const std::size_t i = s.pc;
    const plan_step& step = plan_.steps[i];
    if (s.area != step.from) {
      // The army is not where this step needs it: an earlier attack did not take its Area (it
      // moved back, NT 8.7 / SS 10.7) or it retreated from a defence. The step does not run.
      s.flags = away;
      s.missed = 1;
      s.pc = static_cast<std::uint8_t>(i + 1);
      emit(s, P(1));
      return;
    }
    s.flags = reached;
    for (const auto& c : step.skip_if)
      if (holds(c, s, false)) {
        s.flags |= skipped;
        s.pc = static_cast<std::uint8_t>(i + 1);
        emit(s, P(1));
        return;
      }
    auto stall = [&] {
      s.flags |= stalled;
      s.status = army_status::stalled;
      emit(s, P(1));
    };
    switch (step.kind) {
      case step_kind::march: {
        const int cost = activation_food(s.units);
        if (s.food < cost) return stall();
        s.food = static_cast<std::int16_t>(s.food - cost);
        s.dug_in = 0;
        s.area = step.to;
        return finish(s, step, false, P(1), emit);
      }
      case step_kind::dig_in: {
        if (s.food < 1 || s.war < 1) return stall();  // NT 7.5, SS 9.6: 1 Food and 1 War
        --s.food;
        --s.war;
        s.dug_in = 1;
        return finish(s, step, false, P(1), emit);
      }
      case step_kind::receive: {
        s.food = static_cast<std::int16_t>(s.food + step.receive_food);
        s.war = static_cast<std::int16_t>(std::min<int>(s.war + step.receive_war, sl::max_war_supplies));
        s.units = static_cast<std::int16_t>(std::min<int>(s.units + step.receive_units, sl::max_units));
        return finish(s, step, false, P(1), emit);
      }
      case step_kind::attack:
        return attack(s, step, emit, cells);
      case step_kind::defend:
        return defend(s, step, emit);
      case step_kind::skirmish: {
        const int committed = std::min<int>(evaluate(step.war, s), s.war);
        if (s.food < 1 || committed < 1 || s.units < 1) return stall();  // NT 7.4, SS 9.5: 1 Food
        sl::skirmish_setup k;
        k.patriot_units = std::min<int>(2, s.units);
        k.war_supplies = committed;
        k.crown_units = step.enemy_units;
        k.crown_leaders = step.enemy_leaders;
        k.crown_commander = step.enemy_commander;
        const sl::skirmish_result r = skirmish(k, step);
        army_state t = s;
        t.food = static_cast<std::int16_t>(s.food - 1);
        t.war = static_cast<std::int16_t>(s.war - committed);
        t.dug_in = 0;
        // NT 8.8, SS 10.8: the skirmisher moves back to its own Area whatever happened.
        const P surrender = convert(r.crown_army_surrenders);
        if (surrender != P(0)) {
          army_state w = t;
          sl::battle_setup as;
          as.attacker = sl::side::patriot;
          as.defender_units = k.crown_units;
          as.defender_leaders = k.crown_leaders;
          as.crown_commander = k.crown_commander;
          shift_track(w, sl::army_surrender_shift(rules_, as, sl::side::crown));
          if (rules_.crown_commander_instant_win && k.crown_commander) w.status = army_status::instant_victory;
          finish(w, step, true, surrender, emit);
        }
        if (surrender != P(1)) finish(t, step, false, P(1) - surrender, emit);
        return;
      }
    }
  }

 private:
  // An attack (NT 8, SS 10), fought again in later Impulses while the plan retries it. Only a
  // retreat or surrender of the defender takes the Area (NT 8.7, SS 10.7); any other end leaves
  // the army back in the Area it attacked from.
  template <class Emit, class Cells>
  void attack(const army_state& start, const plan_step& step, Emit& emit, const Cells& cells) {
    struct attempt_state {
      army_state s;
      int enemy_lost = 0;                   // defending units lost in earlier attempts
      int spoils_food = 0, spoils_war = 0;  // our carried Supplies the defender took when it repulsed us
      auto operator<=>(const attempt_state&) const = default;
    };
    std::map<attempt_state, P> pending{{attempt_state{start}, P(1)}};
    for (int attempt = 1; !pending.empty(); ++attempt) {
      std::map<attempt_state, P> again;
      for (const auto& entry : pending) {
        // Named references, not structured bindings: clang 14 (the fuzz build) cannot capture those.
        const attempt_state& k = entry.first;
        const P& w = entry.second;
        army_state s = k.s;
        const int committed = std::min<int>(evaluate(step.war, s), s.war);
        plan_step facing = step;
        facing.enemy_units = step.enemy_units - k.enemy_lost;
        const sl::battle_setup b = battle_for(plan_, facing, {s.units, s.leaders, committed, false});
        // An Attack needs a Leader, Food for its Units and War enough for one die (NT 7.3, SS 9.4).
        const int cost = activation_food(s.units);
        if (s.food < cost || s.leaders < 1 || s.units < 1 || sl::attacker_dice(rules_, b) < 1) {
          if (attempt == 1) {
            s.flags |= stalled;
            s.status = army_status::stalled;
            emit(s, w);
          } else {
            not_taken(s, step, (s.flags & won) != 0, w, emit);  // no retry it can pay for
          }
          continue;
        }
        army_state base = s;
        base.war = static_cast<std::int16_t>(s.war - committed);  // spent whatever the outcome
        base.food = static_cast<std::int16_t>(s.food - cost);
        base.dug_in = 0;
        base.attempts = static_cast<std::uint8_t>(attempt);
        base.flags = static_cast<std::uint8_t>(base.flags & ~(won | taken));
        cells(battle(b, step), [&](const battle_cell<P>& cell, const P& cell_probability) {
          army_state t = base;
          const P p = w * cell_probability;
          t.units = static_cast<std::int16_t>(t.units - cell.attacker_lost);
          t.outcome = static_cast<std::uint8_t>(outcome_of(cell.outcome));
          shift_track(t, sl::track_shift(rules_, b, cell.outcome));
          if (sl::eliminates_crown_commander(rules_, b, cell.outcome)) t.status = army_status::instant_victory;
          const bool victory = attacker_victory(cell.outcome);
          switch (cell.outcome) {
            case sl::battle_outcome::attacker_surrenders:
              t.units = 0;  // NT 8.7: every unit eliminated; nothing is left to carry Supplies
              t.leaders = 0;
              t.food = 0;
              t.war = 0;
              t.status = army_status::destroyed;
              t.missed = 1;
              finish(t, step, false, p, emit);
              return;
            case sl::battle_outcome::defender_retreats:
            case sl::battle_outcome::defender_surrenders:
              // The army occupies the Area and gains the Supplies the defender abandoned there.
              t.area = step.to;
              t.flags |= taken;
              gain_within_limits(t, step.where, step.enemy_food + k.spoils_food, step.enemy_supply_war + k.spoils_war);
              finish(t, step, true, p, emit);
              return;
            case sl::battle_outcome::defender_victory:
            case sl::battle_outcome::defender_stands:
              break;
          }
          attempt_state next{t, k.enemy_lost + cell.defender_lost, k.spoils_food, k.spoils_war};
          if (cell.outcome == sl::battle_outcome::defender_victory) {
            // Repulsed: the Supplies the army carried go to the defender (NT 8.7, SS 10.7).
            next.spoils_food += t.food;
            next.spoils_war += t.war;
            next.s.food = 0;
            next.s.war = 0;
          }
          if (victory) next.s.flags |= won;
          if (attempt <= step.not_taken.retries && next.s.status == army_status::active)
            again[next] += p;
          else
            not_taken(next.s, step, victory, p, emit);
        });
      }
      pending = std::move(again);
    }
  }

  // The attack ended without taking its Area: the plan stops here or goes on from where the army is.
  template <class Emit>
  void not_taken(army_state t, const plan_step& step, bool victory, const P& weight, Emit& emit) {
    t.missed = 1;
    if (step.not_taken.then == if_not_taken::action::stop && t.status == army_status::active) {
      t.status = army_status::not_taken;
      t.flags |= stopped;
    }
    finish(t, step, victory, weight, emit);
  }

  // Our army defends its Area. It holds unless it retreats (abandoning its Supplies there, NT 8.7)
  // or surrenders; a repulsed attacker's carried Supplies come to it.
  template <class Emit>
  void defend(army_state s, const plan_step& step, Emit& emit) {
    if (s.units < 1) {
      s.flags |= stalled;
      s.status = army_status::stalled;
      return emit(s, P(1));
    }
    const int committed = std::min<int>(evaluate(step.war, s), s.war);
    const sl::battle_setup b = battle_for(plan_, step, {s.units, s.leaders, committed, s.dug_in != 0});
    army_state base = s;
    base.war = static_cast<std::int16_t>(s.war - committed);
    base.attempts = 1;
    for (const auto& cell : battle(b, step)) {
      army_state t = base;
      t.units = static_cast<std::int16_t>(t.units - cell.defender_lost);
      t.outcome = static_cast<std::uint8_t>(outcome_of(cell.outcome));
      shift_track(t, sl::track_shift(rules_, b, cell.outcome));
      if (sl::eliminates_crown_commander(rules_, b, cell.outcome)) t.status = army_status::instant_victory;
      switch (cell.outcome) {
        case sl::battle_outcome::defender_surrenders:
          t.units = 0;  // its Supplies are taken as on a retreat
          t.leaders = 0;
          t.food = 0;
          t.war = 0;
          t.status = army_status::destroyed;
          t.flags |= taken;
          break;
        case sl::battle_outcome::defender_retreats:
          // It leaves for an adjacent Area the plan does not name, taking no Supplies with it.
          t.area = elsewhere_area;
          t.food = 0;
          t.war = 0;
          t.dug_in = 0;
          t.flags |= taken;
          break;
        case sl::battle_outcome::defender_victory:
          // The defender is not bound by Supply limits until its own Impulse (NT 8.7, SS 10.7).
          t.food = static_cast<std::int16_t>(t.food + step.enemy_food);
          t.war = static_cast<std::int16_t>(std::min(t.war + step.enemy_supply_war, sl::max_war_supplies));
          break;
        case sl::battle_outcome::defender_stands:
        case sl::battle_outcome::attacker_surrenders:
          break;
      }
      finish(t, step, !attacker_victory(cell.outcome), cell.probability, emit);
    }
  }

  static bool attacker_victory(sl::battle_outcome o) {
    return o == sl::battle_outcome::defender_stands || o == sl::battle_outcome::defender_retreats ||
           o == sl::battle_outcome::defender_surrenders;
  }

  static step_outcome outcome_of(sl::battle_outcome o) {
    switch (o) {
      case sl::battle_outcome::attacker_surrenders:
        return step_outcome::attacker_surrendered;
      case sl::battle_outcome::defender_victory:
        return step_outcome::repulsed;
      case sl::battle_outcome::defender_stands:
        return step_outcome::stood;
      case sl::battle_outcome::defender_retreats:
        return step_outcome::retreated;
      case sl::battle_outcome::defender_surrenders:
        return step_outcome::surrendered;
    }
    return step_outcome::none;
  }

  // NT 5.3/5.5, SS 5.2/5.5: an army at a Point carries at most 1 + its Units in Supplies; a City or
  // Fort stores at most 8. Abandoned Supplies past that stay in the Area; War goes before Food.
  static void gain_within_limits(army_state& t, sl::terrain where, int food, int war) {
    const int limit = where == sl::terrain::point ? t.units + 1 : 8;
    int room = std::max(0, limit - t.food - t.war);
    const int f = std::min(food, room);
    room -= f;
    t.food = static_cast<std::int16_t>(t.food + f);
    t.war = static_cast<std::int16_t>(std::min(t.war + std::min(war, room), sl::max_war_supplies));
  }

  static P convert(const rational& r) {
    if constexpr (std::is_same_v<P, rational>)
      return r;
    else
      return to_double(r);
  }

  void shift_track(army_state& t, int shift) const {
    const int lowest = plan_.track_lowest.value_or(-1000), highest = plan_.track_highest.value_or(1000);
    const int bottom = std::max(lowest, plan_.track_floor.value_or(lowest));
    t.track = static_cast<std::int16_t>(std::clamp(t.track + shift, bottom, highest));
    // NT 11.2: reaching the Treaty of Alliance ends the game at once. (SS checks its ends only at
    // the Victory Check, so the SS marker just sits there.)
    if (rules_.which == sl::game::northern_theater && plan_.track_highest && t.track >= *plan_.track_highest &&
        t.status == army_status::active)
      t.status = army_status::track_end;
  }

  template <class Emit>
  void finish(army_state t, const plan_step& step, bool victory, const P& weight, Emit& emit) {
    t.flags |= performed;
    if (victory) t.flags |= won;
    const std::size_t i = t.pc;
    t.pc = static_cast<std::uint8_t>(i + 1);
    if (t.status == army_status::active) {
      for (const auto& c : step.stop_if)
        if (holds(c, t, victory)) {
          t.status = army_status::stopped;
          t.flags |= stopped;
          break;
        }
    }
    if (t.status == army_status::active && step.jump_to && holds(step.jump_when, t, victory))
      t.pc = static_cast<std::uint8_t>(*step.jump_to);
    emit(t, weight);
  }

  const std::vector<battle_cell<P>>& battle(const sl::battle_setup& b, const plan_step& step) {
    const auto key =
        std::make_tuple(static_cast<const void*>(&step), b.attacker_units, b.attacker_leaders, b.attacker_war_supplies,
                        b.defender_units, b.defender_leaders, b.defender_war_supplies, b.dug_in);
    {
      std::shared_lock lock(mutex_);  // simulation threads share the cache; most calls only read
      const auto it = battles_.find(key);
      if (it != battles_.end()) return it->second;
    }
    std::vector<battle_cell<P>> cells;
    try {
      cells = joint_battle<P>(rules_, b);
    } catch (const invalid_input& e) {
      throw invalid_input(plan_.file + ": " + step.path,
                          std::string("during the campaign: ") + e.what() + " (--" + e.field() + " of the battle)");
    }
    std::unique_lock lock(mutex_);
    return battles_.try_emplace(key, std::move(cells)).first->second;
  }

  sl::skirmish_result skirmish(const sl::skirmish_setup& k, const plan_step& step) {
    const auto key = std::make_tuple(static_cast<const void*>(&step), k.patriot_units, k.war_supplies);
    {
      std::shared_lock lock(mutex_);
      const auto it = skirmishes_.find(key);
      if (it != skirmishes_.end()) return it->second;
    }
    sl::skirmish_result r = sl::resolve_skirmish(rules_, k);
    std::unique_lock lock(mutex_);
    return skirmishes_.try_emplace(key, std::move(r)).first->second;
  }

  const supply_lines_plan& plan_;
  const sl::rule_set& rules_;
  std::shared_mutex mutex_;
  std::map<std::tuple<const void*, int, int, int, int, int, int, bool>, std::vector<battle_cell<P>>> battles_;
  std::map<std::tuple<const void*, int, int>, sl::skirmish_result> skirmishes_;
};

army_state start_state(const supply_lines_plan& plan) {
  army_state s;
  s.units = static_cast<std::int16_t>(plan.units);
  s.leaders = static_cast<std::int16_t>(plan.leaders);
  s.war = static_cast<std::int16_t>(plan.war);
  s.food = static_cast<std::int16_t>(plan.food);
  s.track = static_cast<std::int16_t>(plan.track);
  return s;
}

constexpr std::uint8_t ended_pc = 255;  // past every step (plans have at most 200)

bool at_step(const army_state& s, std::size_t i) {
  return s.status == army_status::active && s.pc == i;
}

// What a step's row reports, as predicates on the state just after it: both engines use these.
void clear_step_marks(army_state& s) {
  s.flags = 0;
  s.outcome = 0;
  s.attempts = 0;
}

using state_event = std::function<bool(const army_state&)>;
struct step_events {
  std::vector<state_event> events;
  std::size_t outcomes_at = 0, attempts_at = 0, attempts_count = 0;
};
enum event_index : std::size_t {
  e_reached,
  e_skipped,
  e_performed,
  e_won,
  e_stalled,
  e_stopped,
  e_taken,
  e_away,
  e_held
};

step_events events_of(const plan_step& step) {
  step_events e;
  for (int f = 0; f < flag_count; ++f)
    e.events.push_back([bit = 1u << f](const army_state& s) { return (s.flags & bit) != 0; });
  e.events.push_back([](const army_state& s) { return (s.flags & performed) != 0 && (s.flags & taken) == 0; });
  e.outcomes_at = e.events.size();
  for (int o = 0; o < step_outcome_count; ++o)
    e.events.push_back([o](const army_state& s) { return (s.flags & reached) != 0 && s.outcome == o; });
  if (step.kind == step_kind::attack) {
    e.attempts_at = e.events.size();
    e.attempts_count = static_cast<std::size_t>(step.not_taken.retries) + 1;
    for (std::size_t k = 1; k <= e.attempts_count; ++k)
      e.events.push_back([k](const army_state& s) { return (s.flags & performed) != 0 && s.attempts == k; });
  }
  return e;
}

void fill_step(step_result& r, const plan_step& step, const std::vector<std::string>& areas, const step_events& e,
               const std::vector<probability_value>& v) {
  r.id = step.id;
  r.kind = step_kind_names[static_cast<int>(step.kind)];
  r.reached = v[e_reached];
  r.skipped = v[e_skipped];
  r.performed = v[e_performed];
  r.won = v[e_won];
  r.stalled = v[e_stalled];
  r.stopped = v[e_stopped];
  r.taken = v[e_taken];
  r.skipped_away = v[e_away];
  r.held = v[e_held];
  r.from_area = areas[step.from];
  r.to_area = areas[step.to];
  r.outcomes.assign(v.begin() + static_cast<std::ptrdiff_t>(e.outcomes_at),
                    v.begin() + static_cast<std::ptrdiff_t>(e.outcomes_at + step_outcome_count));
  if (e.attempts_count)
    r.attempts.assign(v.begin() + static_cast<std::ptrdiff_t>(e.attempts_at),
                      v.begin() + static_cast<std::ptrdiff_t>(e.attempts_at + e.attempts_count));
}

// Histogram ranges that cover every value a plan can produce.
struct value_bounds {
  int max_units, max_war, max_food, track_low, track_high;
};
value_bounds bounds_of(const supply_lines_plan& plan) {
  value_bounds v{plan.units, plan.war, plan.food, plan.track, plan.track};
  int swing = 0;
  for (const auto& s : plan.steps) {
    v.max_units += s.receive_units;
    v.max_war += s.receive_war + s.enemy_supply_war;
    v.max_food += s.receive_food + s.enemy_food;
    swing += (2 + plan.rules->max_leaders_per_army + s.enemy_leaders) * (1 + s.not_taken.retries);
  }
  v.max_units = std::min(v.max_units, sl::max_units);
  v.max_war = std::min(v.max_war, sl::max_war_supplies);
  v.track_low = std::max(plan.track - swing, plan.track_lowest.value_or(-1000));
  v.track_high = std::min(plan.track + swing, plan.track_highest.value_or(1000));
  return v;
}

template <class P>
probability_value exact_value(const P& p) {
  probability_value v;
  v.value = to_double(p);
  if constexpr (std::is_same_v<P, rational>) v.exact = to_fraction_string(p);
  return v;
}

probability_value simulated_value(const simulation_tally& tally, std::size_t index) {
  probability_value v;
  v.interval = tally_interval(tally, index);
  v.value = tally.trials ? static_cast<double>(tally.counts[index]) / static_cast<double>(tally.trials) : 0.0;
  return v;
}

struct end_condition {
  std::string name;
  std::function<bool(const army_state&)> holds;
};

std::vector<end_condition> end_conditions(const supply_lines_plan& plan) {
  std::vector<end_condition> out;
  const bool nt = plan.rules->which == sl::game::northern_theater;
  // Every step meant to run ran, and every attack took its Area.
  out.push_back({"completed_plan", [n = plan.steps.size()](const army_state& s) {
                   return s.status == army_status::active && s.pc >= n && !s.missed;
                 }});
  out.push_back({"stopped_by_rule", [](const army_state& s) { return s.status == army_status::stopped; }});
  out.push_back({"stopped_not_taken", [](const army_state& s) { return s.status == army_status::not_taken; }});
  out.push_back({"stalled_without_supplies", [](const army_state& s) { return s.status == army_status::stalled; }});
  out.push_back({"army_destroyed", [](const army_state& s) { return s.units == 0; }});
  if (nt) {
    if (plan.track_highest)
      out.push_back({"treaty_of_alliance_patriot_victory",
                     [h = *plan.track_highest](const army_state& s) { return s.track >= h; }});
    if (plan.track_floor)
      out.push_back(
          {"track_at_declaration_floor", [f = *plan.track_floor](const army_state& s) { return s.track <= f; }});
  } else {
    out.push_back({"political_will_0_patriot_victory",
                   [l = plan.track_lowest.value_or(0)](const army_state& s) { return s.track <= l; }});
    out.push_back({"political_will_9_crown_victory",
                   [h = plan.track_highest.value_or(9)](const army_state& s) { return s.track >= h; }});
    out.push_back({"cornwallis_captured_patriot_victory",
                   [](const army_state& s) { return s.status == army_status::instant_victory; }});
  }
  return out;
}

pmf_double normalised_histogram(const simulation_tally& tally, const tally_layout::histogram& h) {
  std::vector<double> masses(h.bins());
  for (std::size_t b = 0; b < h.bins(); ++b)
    masses[b] = tally.trials ? static_cast<double>(tally.counts[h.offset + b]) / static_cast<double>(tally.trials) : 0;
  return pmf_double(h.lowest, std::move(masses));
}

template <class P>
pmf_double marginal(const state_distribution<army_state, P>& d, int (*field)(const army_state&)) {
  return to_double(d.marginal(field));
}

int units_of(const army_state& s) {
  return s.units;
}
int war_of(const army_state& s) {
  return s.war;
}
int food_of(const army_state& s) {
  return s.food;
}
int track_of(const army_state& s) {
  return s.track;
}

template <class P>
campaign_result run(const supply_lines_plan& plan, const campaign_options& options) {
  campaign_result result;
  const std::size_t n = plan.steps.size();
  step_kernel<P> kernel(plan);
  using distribution = state_distribution<army_state, P>;
  distribution d = distribution::certain(start_state(plan));
  std::size_t first_simulated = n;
  const bool exact_allowed = options.method != "sim";
  for (std::size_t i = 0; i < n && exact_allowed; ++i) {
    distribution next;
    try {
      next = propagate(
          d,
          [&](const army_state& s, auto&& emit) {
            army_state cleared = s;
            clear_step_marks(cleared);
            if (at_step(cleared, i)) {
              kernel.apply(cleared, emit);
            } else {
              // A campaign that has ended takes no more steps: where it stopped no longer matters,
              // so ended states merge and the distribution does not grow with the plan's length.
              if (cleared.status != army_status::active) cleared.pc = ended_pc;
              emit(cleared, P(1));
            }
          },
          options.state_limit);
    } catch (const state_space_exceeded&) {
      if (options.method == "exact")
        throw invalid_input("state-limit", "the plan's exact state space passes " +
                                               std::to_string(options.state_limit) + " states at " +
                                               plan.steps[i].path + "; raise --state-limit or use --method auto|sim");
      first_simulated = i;
      result.switched_at = i;
      break;
    }
    d = std::move(next);
    result.peak_states = std::max(result.peak_states, d.size());
    step_result r;
    r.method = "exact";
    const step_events events = events_of(plan.steps[i]);
    std::vector<probability_value> values;
    for (const auto& e : events.events) values.push_back(exact_value(d.probability(e)));
    fill_step(r, plan.steps[i], plan.areas, events, values);
    r.units = marginal(d, units_of);
    r.war = marginal(d, war_of);
    r.food = marginal(d, food_of);
    r.track = marginal(d, track_of);
    result.steps.push_back(std::move(r));
  }
  if (!exact_allowed) first_simulated = 0;
  const auto ends = end_conditions(plan);

  if (first_simulated == n) {
    for (const auto& e : ends) result.end.push_back({e.name, exact_value(d.probability(e.holds))});
    return result;
  }

  // Simulate steps first_simulated..n-1 from states drawn from the exact distribution there.
  state_distribution<army_state, double> start;
  for (const auto& [s, p] : d.masses()) {
    army_state c = s;
    clear_step_marks(c);
    start.add(c, to_double(p));
  }
  const state_sampler<army_state> sampler(start);
  step_kernel<double> sim_kernel(plan);
  const value_bounds vb = bounds_of(plan);
  tally_layout layout;
  struct step_tally {
    step_events events;
    std::vector<std::size_t> counters;
    tally_layout::histogram units, war, food, track;
  };
  std::vector<step_tally> tallies;
  for (std::size_t i = first_simulated; i < n; ++i) {
    step_tally t;
    t.events = events_of(plan.steps[i]);
    for (std::size_t e = 0; e < t.events.events.size(); ++e) t.counters.push_back(layout.counter());
    t.units = layout.add_histogram(0, vb.max_units);
    t.war = layout.add_histogram(0, vb.max_war);
    t.food = layout.add_histogram(0, vb.max_food);
    t.track = layout.add_histogram(vb.track_low, vb.track_high);
    tallies.push_back(t);
  }
  std::vector<std::size_t> end_counters;
  for (std::size_t e = 0; e < ends.size(); ++e) end_counters.push_back(layout.counter());

  auto trial = [&](random_engine& engine, std::span<std::uint64_t> tally) {
    army_state s = sampler(engine);
    for (std::size_t i = first_simulated; i < n; ++i) {
      clear_step_marks(s);
      if (at_step(s, i)) {
        // Draw one successor of the exact step kernel.
        army_state chosen = s;
        double u = static_cast<double>(engine()) / 4294967296.0;
        bool picked = false;
        sim_kernel.apply(
            s,
            [&](const army_state& next, double w) {
              if (picked) return;
              chosen = next;
              if (u < w)
                picked = true;
              else
                u -= w;
            },
            one_drawn_cell{&engine});
        s = chosen;
      }
      const step_tally& t = tallies[i - first_simulated];
      for (std::size_t e = 0; e < t.counters.size(); ++e)
        if (t.events.events[e](s)) ++tally[t.counters[e]];
      ++tally[t.units.at(s.units)];
      ++tally[t.war.at(s.war)];
      ++tally[t.food.at(s.food)];
      ++tally[t.track.at(s.track)];
    }
    for (std::size_t e = 0; e < ends.size(); ++e)
      if (ends[e].holds(s)) ++tally[end_counters[e]];
  };
  const simulation_tally tally = run_chain_trials(options.simulation, layout.size(), trial);
  result.trials = tally.trials;
  result.seed = options.simulation.simulation.seed;
  for (std::size_t i = first_simulated; i < n; ++i) {
    const step_tally& t = tallies[i - first_simulated];
    step_result r;
    r.method = "simulation";
    std::vector<probability_value> values;
    for (const std::size_t c : t.counters) values.push_back(simulated_value(tally, c));
    fill_step(r, plan.steps[i], plan.areas, t.events, values);
    r.units = normalised_histogram(tally, t.units);
    r.war = normalised_histogram(tally, t.war);
    r.food = normalised_histogram(tally, t.food);
    r.track = normalised_histogram(tally, t.track);
    result.steps.push_back(std::move(r));
  }
  for (std::size_t e = 0; e < ends.size(); ++e)
    result.end.push_back({ends[e].name, simulated_value(tally, end_counters[e])});
  return result;
}

}  // namespace

campaign_result run_supply_lines_campaign(const supply_lines_plan& plan, const campaign_options& options) {
  if (options.method != "exact" && options.method != "sim" && options.method != "auto" && options.method != "double")
    throw invalid_input("method", "'" + options.method + "' is not a method; allowed: exact, sim, auto");
  campaign_result result = options.method == "double" ? run<double>(plan, options) : run<rational>(plan, options);
  if (result.switched_at)
    result.notes.push_back("the exact state space passed the limit of " + std::to_string(options.state_limit) +
                           " states at " + plan.steps[*result.switched_at].path +
                           ": that step and the rest are simulated from the exact distribution before it");
  if (result.trials) result.seed = options.simulation.simulation.seed;
  // NT 5.5, SS 5.5: an army carries at most 1 + its Units in Supplies (Leaders do not count); a City
  // or Fort stores 8, and an army leaving one takes only what it can carry. A plan's army that sets
  // out with more is beyond the rules: said, not hidden.
  const bool nt = plan.rules->which == sl::game::northern_theater;
  result.start_supplies = plan.war + plan.food;
  result.carrying_limit = plan.units + 1;
  if (result.start_supplies > result.carrying_limit)
    result.notes.insert(result.notes.begin(),
                        "the army sets out with " + std::to_string(plan.war) + " War + " + std::to_string(plan.food) +
                            " Food = " + std::to_string(result.start_supplies) + " Supplies, more than its " +
                            std::to_string(plan.units) + " Units carry: at most 1 + Units = " +
                            std::to_string(result.carrying_limit) + " (" + (nt ? "NT" : "SS") +
                            " 5.5); the plan counts Supplies the rules would have it leave behind or discard "
                            "(War first), so its answers are for a larger army's supply");
  result.notes.push_back(
      "Food and War are paid as the rules charge them: March and Attack 1 Food per 4 Units rounded up, Dig-In 1 Food "
      "+ 1 War, Skirmish 1 Food; committed War Supplies are expended; a step the army cannot pay for stalls the "
      "campaign");
  result.notes.push_back(
      "an attack takes its Area only when the defender retreats or surrenders (NT 8.7, SS 10.7): repulsed, the army "
      "moves back and its carried Food and War go to the defender; if the defender stands it moves back with them; "
      "taking the Area it gains the defender's abandoned Supplies (enemy.supplies) up to 1 + Units at a Point, 8 in "
      "a City or Fort (NT 5.3-5.5)");
  return result;
}

}  // namespace musket::campaign
