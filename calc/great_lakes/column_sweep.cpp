#include "calc/great_lakes/column_sweep.hpp"

#include <algorithm>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "calc/great_lakes/exact_parts.hpp"
#include "calc/great_lakes/round.hpp"

namespace musket::great_lakes {

namespace {

// A side state's key: per unit SP | status << 5, then the rerolls left; folded, a unit out of the
// line for good (eliminated or failed morale) is just 0xFF, as the folded engine holds it.
std::string side_key(const round::battle_rules& r, const round::battle_state& s, int side, bool folded) {
  std::string key;
  for (int i = r.begin[side]; i < r.end[side]; ++i) {
    const bool out = s.st[i] == round::failed || (s.st[i] == round::line && s.sp[i] == 0);
    key.push_back(static_cast<char>(folded && out ? 0xFF : (s.sp[i] | s.st[i] << 5)));
  }
  key.push_back(static_cast<char>(s.rerolls[side]));
  return key;
}

struct side_move {
  std::uint32_t to = 0;
  int dice = 0;  // the attacker's: the dice it fires this round (after the hits, before its checks)
  double p = 0;
};

// One side played alone from the start: each unfolded state, the folded part it belongs to, and
// for each count of hits below its line SP the states after allocation and morale (GL 11.23-11.27).
struct side_alone {
  std::vector<round::battle_state> states;
  std::vector<std::uint32_t> part;     // by state
  std::vector<std::uint32_t> example;  // by part: one of its states
  std::vector<int> line_sp, dice;      // by state: before the round; dice with the ship's (GL 7.13)
  std::vector<std::vector<std::vector<side_move>>> after_hits;  // [state][hits]
  std::vector<std::vector<double>> line_gone;  // [state][hits]: the defender's line gone after its checks
};

side_alone play_alone(const round::battle_rules& r, int side) {
  side_alone out;
  std::unordered_map<std::string, std::uint32_t> seen, parts;
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
  intern(round::initial_state(r));
  for (std::size_t i = 0; i < out.states.size(); ++i) {
    const round::battle_state s = out.states[i];
    const round::side_sums sums = round::sums_of(r, s, side);
    out.line_sp.push_back(sums.line_sp);
    out.dice.push_back(round::fire_dice(r, sums, side, false));
    std::vector<std::vector<side_move>> by_hits(static_cast<std::size_t>(sums.line_sp));
    std::vector<double> gone(static_cast<std::size_t>(sums.line_sp), 0.0);
    for (int hits = 1; hits < sums.line_sp; ++hits) {
      round::round_state t = round::track(r, s);
      round::hit_counts taken{};
      std::uint32_t checks = 0;
      round::allocate_hits(r, t, taken, side, hits, checks);
      const int dice = round::fire_dice(r, t.sum[side], side, false);
      detail::exact_chooser c;
      std::vector<std::pair<round::battle_state, double>> found;
      auto checked = [&](round::round_state& u) {
        if (side == round::defender && u.sum[side].line_units == 0)
          gone[static_cast<std::size_t>(hits)] += c.weight;  // GL 12.1: a forced retreat
        else
          found.emplace_back(u.s, c.weight);
      };
      round::check_morale(r, side, checks, t, taken, c, checked);
      for (const auto& [state, p] : found) by_hits[static_cast<std::size_t>(hits)].push_back({intern(state), dice, p});
    }
    out.after_hits.push_back(std::move(by_hits));
    out.line_gone.push_back(std::move(gone));
  }
  return out;
}

// A side's parts ranked by line SP, highest first, and its states listed part by part.
struct side_order {
  std::vector<std::uint32_t> part_rank;   // by part
  std::vector<std::uint32_t> part_begin;  // by rank: its first place (and one past the last)
  std::vector<std::uint32_t> place;       // by state
};

side_order order_of(const side_alone& s) {
  const std::size_t parts = s.example.size();
  std::vector<std::uint32_t> ranked(parts);
  for (std::uint32_t p = 0; p < parts; ++p) ranked[p] = p;
  std::stable_sort(ranked.begin(), ranked.end(),
                   [&](auto x, auto y) { return s.line_sp[s.example[x]] > s.line_sp[s.example[y]]; });
  side_order o;
  o.part_rank.resize(parts);
  for (std::uint32_t k = 0; k < parts; ++k) o.part_rank[ranked[k]] = k;
  o.part_begin.assign(parts + 1, 0);
  for (std::uint32_t p : s.part) ++o.part_begin[o.part_rank[p] + 1];
  for (std::size_t k = 0; k < parts; ++k) o.part_begin[k + 1] += o.part_begin[k];
  std::vector<std::uint32_t> next(o.part_begin.begin(), o.part_begin.end() - 1);
  o.place.resize(s.states.size());
  for (std::size_t i = 0; i < s.states.size(); ++i) o.place[i] = next[o.part_rank[s.part[i]]]++;
  return o;
}

// Binomial probabilities of sixes (hit faces 1, GL 11.22), by dice and hits.
const double* sixes(int dice) {
  return detail::tables().pmf_row(1, dice);
}

// A side's moves for one fire: summed over the hits, each (target, dice) once, in target order.
// `gone` gets the probability the side's line is gone (hits >= line SP, or the defender's after
// its checks). `from` is a state, targets are mapped by `to_place`; only the attacker's moves keep
// the dice it fires next.
template <class ToPlace>
std::vector<side_move> moves_under_fire(const side_alone& s, std::uint32_t from, int enemy_dice, bool keep_dice,
                                        double& gone, ToPlace&& to_place) {
  std::vector<side_move> moves;
  const double* p = sixes(enemy_dice);
  gone = 0;
  for (int hits = 1; hits <= enemy_dice; ++hits) {
    if (hits >= s.line_sp[from]) {
      gone += p[hits];
      continue;
    }
    gone += p[hits] * s.line_gone[from][static_cast<std::size_t>(hits)];
    for (const side_move& m : s.after_hits[from][static_cast<std::size_t>(hits)])
      moves.push_back({to_place(m.to), keep_dice ? m.dice : 0, p[hits] * m.p});
  }
  std::sort(moves.begin(), moves.end(),
            [](const side_move& x, const side_move& y) { return x.to != y.to ? x.to < y.to : x.dice < y.dice; });
  std::size_t kept = 0;
  for (std::size_t i = 0; i < moves.size(); ++i)
    if (kept > 0 && moves[kept - 1].to == moves[i].to && moves[kept - 1].dice == moves[i].dice)
      moves[kept - 1].p += moves[i].p;
    else
      moves[kept++] = moves[i];
  moves.resize(kept);
  return moves;
}

bool sweep_plays(const round::battle_rules& r) {
  if (r.first_round_matters || r.has_reinforcements[0] || r.has_reinforcements[1]) return false;
  for (int side = 0; side < 2; ++side) {
    const bool retreat_never =
        r.policy[side].kind == retreat_kind::never || r.policy[side].kind == retreat_kind::optimal;  // (optimal: never)
    if (!retreat_never || r.hit_allocation[side].kind == hit_allocation_kind::optimal ||
        r.reroll[side].kind == reroll_kind::optimal)
      return false;
  }
  return true;
}

}  // namespace

std::optional<sweep_outcomes> sweep_battle_outcomes(const battle& b) {
  const round::battle_rules r = round::compile(b);
  if (!sweep_plays(r)) return std::nullopt;
  const side_alone attacker = play_alone(r, round::attacker), defender = play_alone(r, round::defender);
  const side_order a_order = order_of(attacker), d_order = order_of(defender);
  const std::size_t a_parts = attacker.example.size(), a_states = attacker.states.size();
  const std::size_t d_parts = defender.example.size(), d_states = defender.states.size();
  int a_most_dice = 0, d_most_dice = 0;
  for (int d : attacker.dice) a_most_dice = std::max(a_most_dice, d);
  for (int d : defender.dice) d_most_dice = std::max(d_most_dice, d);
  if (std::max(a_most_dice, d_most_dice) > detail::max_table_dice) return std::nullopt;
  detail::tables().ensure(std::max(a_most_dice, d_most_dice));

  // By place (the attacker's) or rank: what the sweep reads of each.
  std::vector<std::uint32_t> a_state_at(a_states), d_state_at(d_states);
  for (std::size_t i = 0; i < a_states; ++i) a_state_at[a_order.place[i]] = static_cast<std::uint32_t>(i);
  for (std::size_t i = 0; i < d_states; ++i) d_state_at[d_order.place[i]] = static_cast<std::uint32_t>(i);
  auto a_place = [&](std::uint32_t s) { return a_order.place[s]; };
  auto a_rank = [&](std::uint32_t s) { return a_order.part_rank[attacker.part[s]]; };
  auto d_place = [&](std::uint32_t s) { return d_order.place[s]; };

  // The attacker's moves under each count of the defender's dice: per unfolded place and per part
  // (rank); the defender's under each count of the attacker's, per unfolded place.
  const int a_dice_count = a_most_dice + 1;
  std::vector<std::vector<std::vector<side_move>>> a_moves(static_cast<std::size_t>(d_most_dice) + 1),
      a_part_moves(static_cast<std::size_t>(d_most_dice) + 1), d_moves(static_cast<std::size_t>(a_dice_count));
  std::vector<std::vector<double>> a_gone(static_cast<std::size_t>(d_most_dice) + 1),
      d_gone(static_cast<std::size_t>(a_dice_count));
  std::vector<bool> enemy_dice_seen(static_cast<std::size_t>(d_most_dice) + 1, false);
  for (int d : defender.dice) enemy_dice_seen[static_cast<std::size_t>(d)] = true;
  for (std::size_t f = 0; f < enemy_dice_seen.size(); ++f) {
    if (!enemy_dice_seen[f]) continue;
    a_moves[f].resize(a_states);
    a_gone[f].resize(a_states);
    a_part_moves[f].resize(a_parts);
    for (std::uint32_t at = 0; at < a_states; ++at)
      a_moves[f][at] = moves_under_fire(attacker, a_state_at[at], static_cast<int>(f), true, a_gone[f][at], a_place);
    double unused = 0;
    for (std::uint32_t k = 0; k < a_parts; ++k)
      a_part_moves[f][k] =
          moves_under_fire(attacker, a_state_at[a_order.part_begin[k]], static_cast<int>(f), true, unused, a_rank);
  }
  for (std::size_t n = 0; n < d_moves.size(); ++n) {
    d_moves[n].resize(d_states);
    d_gone[n].resize(d_states);
    for (std::uint32_t at = 0; at < d_states; ++at)
      d_moves[n][at] = moves_under_fire(defender, d_state_at[at], static_cast<int>(n), false, d_gone[n][at], d_place);
  }

  // by_attacker[d rank][a place]: mass beside the attacker's unfolded state; by_defender[d place][a
  // rank]: beside the defender's. Each entry is the expected visits to the pair at a round's start.
  std::vector<double> by_attacker(d_parts * a_states, 0.0), by_defender(d_states * a_parts, 0.0);
  const std::uint32_t a_start = a_place(0), d_start = d_place(0);
  by_attacker[d_order.part_rank[defender.part[0]] * a_states + a_start] = 1.0;
  by_defender[d_start * a_parts + a_rank(0)] = 1.0;
  std::vector<int> a_line(a_states), a_dice(a_states);
  for (std::uint32_t at = 0; at < a_states; ++at) {
    a_line[at] = attacker.line_sp[a_state_at[at]];
    a_dice[at] = attacker.dice[a_state_at[at]];
  }
  // Mid-round mass of the column: the attacker after its checks, by the dice it fires.
  std::vector<double> mid_attacker(static_cast<std::size_t>(a_dice_count) * a_states), mid_defender;
  sweep_outcomes out;
  double multiply_adds = 0;
  for (std::uint32_t column = 0; column < d_parts; ++column) {
    const std::uint32_t d_first = d_order.part_begin[column], rows = d_order.part_begin[column + 1] - d_first;
    const std::uint32_t d_rep = d_state_at[d_first];
    const int fire = defender.dice[d_rep], d_line = defender.line_sp[d_rep];
    const double* fire_p = sixes(fire);
    const double miss = fire_p[0];
    double* column_mass = &by_attacker[column * a_states];
    std::fill(mid_attacker.begin(), mid_attacker.end(), 0.0);
    const std::size_t dice_stride = static_cast<std::size_t>(rows) * a_parts;
    mid_defender.assign(static_cast<std::size_t>(a_dice_count) * dice_stride, 0.0);
    // First halves: the defender's fire on each attacker part, highest line SP first.
    for (std::uint32_t k = 0; k < a_parts; ++k) {
      const std::uint32_t first = a_order.part_begin[k], last = a_order.part_begin[k + 1];
      const int line = a_line[first], dice = a_dice[first];
      if (line == 0) continue;  // (only mid-round: the attacker's line gone in its checks)
      // Mid-round mass of this part from higher parts, whose fire misses the defender: arrives here.
      for (int n = 0; n < a_dice_count; ++n) {
        const double all_miss = sixes(n)[0];
        const double* mid = &mid_attacker[static_cast<std::size_t>(n) * a_states];
        for (std::uint32_t at = first; at < last; ++at) column_mass[at] += all_miss * mid[at];
        for (std::uint32_t row = 0; row < rows; ++row)
          by_defender[(d_first + row) * a_parts + k] += all_miss * mid_defender[n * dice_stride + row * a_parts + k];
      }
      // The self-loop: both fires miss.
      const double loop = miss * sixes(dice)[0];
      if (loop >= 1.0) {  // RULINGS "stalemate": nobody can hit (no ships, nothing waiting)
        for (std::uint32_t at = first; at < last; ++at) out.stalemate += column_mass[at];
        continue;
      }
      const double scale = 1.0 / (1.0 - loop);
      for (std::uint32_t at = first; at < last; ++at) column_mass[at] *= scale;
      for (std::uint32_t row = 0; row < rows; ++row) by_defender[(d_first + row) * a_parts + k] *= scale;
      for (std::uint32_t at = first; at < last; ++at) {
        const double m = column_mass[at];
        if (m == 0.0) continue;
        mid_attacker[static_cast<std::size_t>(dice) * a_states + at] += miss * m;
        out.defender_holds += m * a_gone[static_cast<std::size_t>(fire)][at];  // GL 12.1: forced retreat
        const auto& moves = a_moves[static_cast<std::size_t>(fire)][at];
        for (const side_move& mv : moves)
          mid_attacker[static_cast<std::size_t>(mv.dice) * a_states + mv.to] += mv.p * m;
        multiply_adds += static_cast<double>(moves.size());
      }
      const auto& part_moves = a_part_moves[static_cast<std::size_t>(fire)][k];
      for (std::uint32_t row = 0; row < rows; ++row) {
        const double m = by_defender[(d_first + row) * a_parts + k];
        if (m == 0.0) continue;
        double* mid = &mid_defender[row * a_parts];
        mid[static_cast<std::size_t>(dice) * dice_stride + k] += miss * m;
        for (const side_move& mv : part_moves) mid[static_cast<std::size_t>(mv.dice) * dice_stride + mv.to] += mv.p * m;
        multiply_adds += static_cast<double>(part_moves.size());
      }
    }
    // Second halves: each mid-round mass fires; a fire that takes the defender's whole line ends the
    // round before any morale check (GL 11.18 step 2), a miss came back above, hits go to lower columns.
    for (int n = 0; n < a_dice_count; ++n) {
      double falls = 0;
      const double* hit_p = sixes(n);
      for (int h = d_line; h <= n; ++h) falls += hit_p[h];
      double* mid = &mid_attacker[static_cast<std::size_t>(n) * a_states];
      std::uint32_t low = static_cast<std::uint32_t>(a_states), high = 0;
      double stands = 0;
      for (std::uint32_t at = 0; at < a_states; ++at) {
        if (mid[at] == 0.0) continue;
        if (a_line[at] == 0) {
          out.attacker_wins += falls * mid[at];
          out.defender_holds += (1.0 - falls) * mid[at];  // GL 12.1: the attacker's line gone in its checks
          mid[at] = 0.0;
          continue;
        }
        stands += mid[at];
        low = std::min(low, at);
        high = at + 1;
      }
      if (low >= high) continue;
      const auto& moves = d_moves[static_cast<std::size_t>(n)][d_first];
      out.attacker_wins += stands * d_gone[static_cast<std::size_t>(n)][d_first];  // (the falls included)
      for (const side_move& mv : moves) {
        double* to = &by_attacker[d_order.part_rank[defender.part[d_state_at[mv.to]]] * a_states];
        for (std::uint32_t at = low; at < high; ++at) to[at] += mv.p * mid[at];
        multiply_adds += static_cast<double>(high - low);
      }
      for (std::uint32_t row = 0; row < rows; ++row) {
        double* from = &mid_defender[n * dice_stride + row * a_parts];
        for (std::uint32_t k = 0; k < a_parts; ++k)
          if (a_line[a_order.part_begin[k]] == 0) from[k] = 0.0;
        for (const side_move& mv : d_moves[static_cast<std::size_t>(n)][d_first + row]) {
          double* to = &by_defender[mv.to * a_parts];
          for (std::uint32_t k = 0; k < a_parts; ++k) to[k] += mv.p * from[k];
          multiply_adds += static_cast<double>(a_parts);
        }
      }
    }
  }
  out.attacker_parts = a_parts;
  out.defender_parts = d_parts;
  out.attacker_states = a_states;
  out.defender_states = d_states;
  out.multiply_adds = multiply_adds;
  return out;
}

}  // namespace musket::great_lakes
