#pragma once
// The advice of optimal play (optimal/game.hpp's side_advice): the choices the solved play makes
// in the start state's round, with the case each is made in, and the retreats it makes anywhere,
// gathered from the start's round played once and from the outcome chain's retreats.
#include <array>
#include <map>
#include <tuple>
#include <utility>
#include <vector>

#include "calc/great_lakes/exact/exact_chooser.hpp"
#include "calc/great_lakes/optimal/game.hpp"
#include "calc/great_lakes/rules/round.hpp"

namespace musket::great_lakes::optimal {

using detail::battle_rules;
using detail::battle_state;
namespace rd = round;

namespace {  // (internal linkage: included by pair_values.cpp alone)

// Advice from the start state's round (each choice the solved play makes there, with the case it
// is made in) and the retreats the solved play makes anywhere.
struct advice_recorder {
  const battle_rules& r;
  std::array<side_advice, 2>& advice;
  // By side, each (own line SP, enemy line SP) a retreat decision was met at: bit 1 where it
  // retreats, bit 2 where it fights on (a table: the chain's replay asks it every round).
  std::array<std::vector<std::uint8_t>, 2> retreat_seen;
  std::array<int, 2> most_sp{0, 0};  // each side's starting SP, the table's bound
  // Round 1's choices as made, by side, what is decided (hits taken; units failed on one die) and
  // case: the choice, and the rulings' choice.
  std::map<std::tuple<int, int, choice_case>, std::pair<std::vector<int>, std::vector<int>>> allocations;
  std::map<std::tuple<int, std::vector<int>, choice_case>, std::pair<int, int>> rerolls;

  advice_recorder(const battle_rules& rules, std::array<side_advice, 2>& advice_out) : r(rules), advice(advice_out) {
    for (const auto& unit : r.units) most_sp[static_cast<std::size_t>(unit.owner)] += unit.start_sp;
    for (auto& seen : retreat_seen) seen.assign(static_cast<std::size_t>((most_sp[0] + 1) * (most_sp[1] + 1)), 0);
  }

  choice_case case_of(const rd::decision& d) const {
    choice_case c;
    for (std::size_t u = 0; u < r.units.size(); ++u) {
      c.hits.push_back(r.units[u].start_sp - d.state->sp[u]);
      if (d.state->st[u] == rd::failed) c.failed.push_back(static_cast<int>(u));
    }
    c.rerolls = d.state->rerolls[d.side];
    return c;
  }

  void start_round(const rd::decision& d, int option) {
    const int first = r.begin[d.side];
    if (d.kind == rd::decision_kind::hits) {
      std::vector<int> optimal, rulings;
      for (int i = first; i < r.end[d.side]; ++i) {
        optimal.push_back((*d.allocations)[static_cast<std::size_t>(option)][i]);
        rulings.push_back((*d.allocations)[0][i]);
      }
      allocations.try_emplace({d.side, d.hits, case_of(d)}, optimal, rulings);
    } else if (d.kind == rd::decision_kind::reroll) {
      std::vector<int> failed;
      int chosen = -1;
      for (std::uint32_t left = d.pending; left; left &= left - 1) {
        if (static_cast<int>(failed.size()) == option) chosen = std::countr_zero(left) - first;
        failed.push_back(std::countr_zero(left) - first);
      }
      rerolls.try_emplace({d.side, failed, case_of(d)}, chosen, failed.front());
    }
  }

  // Each side's choices grouped by what is decided: the choice of most cases (ties to the
  // rulings', then the first), and the cases where another is best. add(what, usual, rulings,
  // otherwise) makes the advice.
  template <class Key, class Choice, class Add>
  static void gather(const std::map<std::tuple<int, Key, choice_case>, std::pair<Choice, Choice>>& made, int side,
                     Add add) {
    auto it = made.lower_bound({side, Key{}, choice_case{}});
    while (it != made.end() && std::get<0>(it->first) == side) {
      const Key& what = std::get<1>(it->first);
      const Choice& rulings = it->second.second;
      std::map<Choice, int> count;
      auto end = it;
      for (; end != made.end() && std::get<0>(end->first) == side && std::get<1>(end->first) == what; ++end)
        ++count[end->second.first];
      Choice usual = rulings;
      int most = count.count(rulings) ? count.at(rulings) : 0;
      for (const auto& [choice, n] : count)
        if (n > most) {
          usual = choice;
          most = n;
        }
      std::vector<std::pair<choice_case, Choice>> otherwise;
      for (; it != end; ++it)
        if (it->second.first != usual) otherwise.emplace_back(std::get<2>(it->first), it->second.first);
      add(what, usual, rulings, std::move(otherwise));
    }
  }

  // A voluntary retreat decided by `side` (GL 12.2) where its line has `own` SP and the enemy's
  // `enemy`: retreating or fighting on.
  void retreat_decided(int side, int own, int enemy, bool retreats) {
    const auto s = static_cast<std::size_t>(side);
    retreat_seen[s].at(static_cast<std::size_t>(own * (most_sp[1 - s] + 1) + enemy)) |= retreats ? 1 : 2;
  }

  void finish() {
    for (std::size_t side = 0; side < 2; ++side) {
      retreat_advice& a = advice[side].retreat;
      // (In order of own SP, then enemy SP.)
      for (std::size_t at = 0; at < retreat_seen[side].size(); ++at) {
        const std::pair<int, int> sp{static_cast<int>(at) / (most_sp[1 - side] + 1),
                                     static_cast<int>(at) % (most_sp[1 - side] + 1)};
        if (retreat_seen[side][at] & 1) a.retreats.push_back(sp);
        if (retreat_seen[side][at] & 2) a.fights.push_back(sp);
      }
      if (a.retreats.empty()) continue;
      int own = 0, enemy = 1 << 20;
      for (const auto& [o, e] : a.retreats) {
        own = std::max(own, o);
        enemy = std::min(enemy, e);
      }
      a.threshold = std::none_of(a.fights.begin(), a.fights.end(),
                                 [&](const auto& p) { return p.first <= own && p.second >= enemy; });
      a.own_at_most = own;
      a.enemy_at_least = enemy;
    }
    for (int side = 0; side < 2; ++side) {
      side_advice& a = advice[static_cast<std::size_t>(side)];
      gather(allocations, side,
             [&](int hits, const std::vector<int>& usual, const std::vector<int>& rulings, auto otherwise) {
               a.allocations.push_back({hits, usual, rulings, std::move(otherwise)});
             });
      gather(rerolls, side, [&](const std::vector<int>& failed, int usual, int, auto otherwise) {
        a.rerolls.push_back({failed, usual, std::move(otherwise)});
      });
    }
  }
};

}  // namespace
}  // namespace musket::great_lakes::optimal
