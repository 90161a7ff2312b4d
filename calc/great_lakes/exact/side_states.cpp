#include "calc/great_lakes/exact/side_states.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <utility>

#include "calc/great_lakes/exact/exact_chooser.hpp"

namespace musket::great_lakes::sweep {

std::string side_key(const round::battle_rules& r, const round::battle_state& s, int side, bool folded) {
  std::string key;
  for (int i = r.begin[side]; i < r.end[side]; ++i) {
    key.push_back(static_cast<char>(folded && round::left_the_line(s, i) ? 0xFF : (s.sp[i] | s.st[i] << 5)));
  }
  key.push_back(static_cast<char>(s.rerolls[side]));
  return key;
}

bool list_side_states(const round::battle_rules& r, int side, std::size_t limit, side_states& out,
                      std::size_t move_limit, const allocations_taken* allocations) {
  out = side_states{};
  std::size_t moves = 0;  // listed: each outcome of a hit count's checks, each of a reinforcement
  out.side = side;
  std::unordered_map<std::string, std::uint32_t> seen, parts, hit_seen;
  auto intern = [&](const round::battle_state& s) {
    const auto [at, fresh] = seen.emplace(side_key(r, s, side, false), static_cast<std::uint32_t>(out.states.size()));
    if (fresh) {
      out.states.push_back(s);
      const auto [p, new_part] = parts.emplace(side_key(r, s, side, true), static_cast<std::uint32_t>(parts.size()));
      out.part.push_back(p->second);
      if (new_part) out.example.push_back(at->second);
    }
    return at->second;
  };
  auto intern_hit = [&](const round::round_state& t) {
    const auto [at, fresh] =
        hit_seen.emplace(side_key(r, t.s, side, false), static_cast<std::uint32_t>(out.hit.size()));
    if (fresh) {
      out.hit.push_back(t.s);
      out.hit_dice.push_back(round::fire_dice(r, t.sum[side], side, false));
      out.hit_line_dice.push_back(t.sum[side].line_dice);
      out.hit_first_dice.push_back(round::fire_dice(r, t.sum[side], side, true));
    }
    return at->second;
  };
  std::vector<std::uint8_t> used;  // (the allocations asked for)
  round::battle_state start = round::initial_state(r);
  start.first_round = false;  // (column_sweep plays round 1 from the start apart)
  intern(start);
  for (std::size_t i = 0; i < out.states.size(); ++i) {
    if (out.states.size() > limit || out.hit.size() > limit || moves > move_limit) return false;
    const round::battle_state s = out.states[i];
    const round::round_state tracked = round::track(r, s);
    const round::side_sums& sums = tracked.sum[side];
    out.line_sp.push_back(sums.line_sp);
    out.dice.push_back(round::fire_dice(r, sums, side, false));
    out.line_dice.push_back(sums.line_dice);
    out.line_units.push_back(sums.line_units);
    out.waiting.push_back(sums.waiting);
    std::vector<side_move> entering;
    if (sums.waiting > 0 && sums.line_units > 0) {  // GL 13.3, at the end of a round the battle goes on
      detail::exact_chooser c;
      std::vector<std::pair<round::battle_state, double>> found;
      round::round_state t = tracked;
      auto entered = [&](round::round_state& u) { found.emplace_back(u.s, c.weight); };
      round::reinforce(r, side, t, c, entered);
      for (const auto& [state, p] : found) entering.push_back({intern(state), 0, p});
      moves += found.size();
    }
    out.entering.push_back(std::move(entering));
    const auto line = static_cast<std::size_t>(std::max<int>(sums.line_sp, 0));
    std::vector<std::uint32_t> hit_of(line);
    std::vector<std::vector<side_move>> by_hits(line);
    std::vector<std::vector<side_states::allocation>> other(allocations ? line : 0);
    for (int hits = 0; hits < sums.line_sp; ++hits) {
      round::round_state t = tracked;
      round::hit_counts taken{};
      std::uint32_t checks = 0;
      round::allocate_hits(r, t, taken, side, hits, checks);
      const std::uint32_t hit = intern_hit(t);
      hit_of[static_cast<std::size_t>(hits)] = hit;
      if (hits == 0) continue;  // (no hit, no check: the state itself)
      detail::exact_chooser c;
      std::vector<std::pair<round::battle_state, double>> found;
      auto checked = [&](round::round_state& u) { found.emplace_back(u.s, c.weight); };
      round::check_morale(r, side, checks, t, taken, c, checked);
      for (const auto& [state, p] : found)
        by_hits[static_cast<std::size_t>(hits)].push_back({intern(state), out.hit_dice[hit], p});
      moves += found.size();
      if (moves > move_limit) return false;
      if (!allocations) continue;
      // GL 11.23: the other allocations asked for, each as optimal play's game lists it
      // (optimal/pair_game.hpp).
      const std::vector<round::hit_counts> options = round::hit_options(r, s, side, hits);
      if (options[0] != taken) throw std::logic_error("side_states: the rulings' allocation is not option 0");
      used.assign(options.size(), 0);
      (*allocations)(s, hits, used);
      auto& others = other[static_cast<std::size_t>(hits)];
      for (std::size_t k = 1; k < options.size(); ++k) {
        if (!used[k]) continue;
        round::battle_state u = s;
        for (int i = r.begin[side]; i < r.end[side]; ++i) u.sp[i] = static_cast<std::uint8_t>(u.sp[i] - options[k][i]);
        round::round_state w = round::track(r, u);
        std::uint32_t option_checks = 0;
        w.sum[side] = round::sums_of(r, w.s, side, &options[k], &option_checks);
        side_states::allocation a;
        a.option = static_cast<int>(k);
        a.hit = intern_hit(w);
        found.clear();
        round::check_morale(r, side, option_checks, w, options[k], c, checked);
        for (const auto& [state, p] : found) a.moves.push_back({intern(state), out.hit_dice[a.hit], p});
        moves += found.size();
        others.push_back(std::move(a));
        if (moves > move_limit) return false;
      }
    }
    out.hit_of.push_back(std::move(hit_of));
    out.after_hits.push_back(std::move(by_hits));
    if (allocations) out.other_allocations.push_back(std::move(other));
  }
  return out.states.size() <= limit && out.hit.size() <= limit;
}

battle_sides list_battle_sides(const round::battle_rules& r, std::size_t state_limit, std::size_t move_limit,
                               const allocations_taken* attacker_allocations) {
  battle_sides out;
  out.complete = list_side_states(r, round::attacker, state_limit, out.side[0], move_limit, attacker_allocations) &&
                 list_side_states(r, round::defender, state_limit, out.side[1], move_limit);
  return out;
}

side_order order_of(const side_states& s) {
  const std::size_t parts = s.example.size();
  std::vector<std::uint32_t> ranked(parts);
  for (std::uint32_t p = 0; p < parts; ++p) ranked[p] = p;
  std::stable_sort(ranked.begin(), ranked.end(), [&](auto x, auto y) {
    const std::uint32_t a = s.example[x], b = s.example[y];
    return s.waiting[a] != s.waiting[b] ? s.waiting[a] > s.waiting[b] : s.line_sp[a] > s.line_sp[b];
  });
  side_order o;
  o.part_rank.resize(parts);
  for (std::uint32_t k = 0; k < parts; ++k) o.part_rank[ranked[k]] = k;
  o.part_begin.assign(parts + 1, 0);
  for (std::uint32_t p : s.part) ++o.part_begin[o.part_rank[p] + 1];
  for (std::size_t k = 0; k < parts; ++k) o.part_begin[k + 1] += o.part_begin[k];
  std::vector<std::uint32_t> next(o.part_begin.begin(), o.part_begin.end() - 1);
  o.place.resize(s.states.size());
  o.state_at.resize(s.states.size());
  for (std::size_t i = 0; i < s.states.size(); ++i) {
    const std::uint32_t at = next[o.part_rank[s.part[i]]]++;
    o.place[i] = at;
    o.state_at[at] = static_cast<std::uint32_t>(i);
  }
  return o;
}

}  // namespace musket::great_lakes::sweep
