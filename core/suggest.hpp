#pragma once
// "did you mean ...?" for a misspelled game, command or option: the closest allowed word by edit
// distance, when it is close enough to be a likely typo.
#include <string>
#include <vector>

namespace musket {

// Edit distance (insert, delete, replace, swap two neighbours), case-insensitive.
std::size_t edit_distance(const std::string& a, const std::string& b);

// " (did you mean 'battle'?)" for the nearest candidate within max(1, length / 3) edits of
// `word`, else "". Candidates are compared as given (with or without leading dashes).
std::string did_you_mean(const std::string& word, const std::vector<std::string>& candidates);

// `word` in lower case (ASCII), for names the user may type in any case.
std::string lowercase(std::string word);

}  // namespace musket
