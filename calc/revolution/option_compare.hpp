#pragma once
// Two Variable Forces option sets side by side: legality, net adjustment, goals per period, and
// every change to the British Overseas Reinforcements, turn by turn (Variable Forces Options).
#include <optional>
#include <string>
#include <vector>

#include "calc/revolution/options.hpp"

namespace musket::revolution {

struct scheduled_change {
  int year = 0;
  std::string season;  // empty: unknown (the row is cut off in our transcript)
  char option = 'A';
  std::optional<int> points;  // nullopt: unknown
};

// Every printed reinforcement change of the set's options, by year then season in the tables'
// printed order (Winter, Spring, Summer, Fall; an unknown season last in its year), then option.
std::vector<scheduled_change> reinforcement_schedule(const options_data& data, const std::vector<char>& letters);

struct compared_turn {
  int year = 0;
  std::string season;
  std::vector<scheduled_change> first, second;   // the changes of each set on this turn
  std::optional<int> first_total, second_total;  // summed points; nullopt when any is unknown
};

struct option_comparison {
  option_set_analysis first, second;
  std::vector<compared_turn> turns;  // every turn either set changes, in schedule order
};

option_comparison compare_option_sets(const options_data& data, const std::vector<char>& first,
                                      const std::vector<char>& second);

}  // namespace musket::revolution
