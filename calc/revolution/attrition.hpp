#pragma once
// Winter attrition (Sequence of Play, Attrition Interphase D): an Area's Continentals lose a
// fraction a/b; the Strength Points left over when b does not divide the total (at most two)
// each roll a die and survive on the table's survival numbers. The Winter Attrition Table
// itself is not in our transcript: the fraction and the survival numbers are inputs, and
// data/ar/attrition.json holds the printed rows once someone transcribes them.
#include <array>
#include <string>
#include <vector>

#include "calc/revolution/data.hpp"
#include "core/pmf.hpp"

namespace musket::revolution {

struct loss_fraction {
  int numerator = 0;
  int denominator = 1;
};
// "1/3", "2/3", "1/2", "0", "1". The rules allow at most two survival rolls per Area, so the
// denominator (in lowest terms) is 1, 2 or 3. Throws invalid_input(field, ...).
loss_fraction parse_loss_fraction(const std::string& text, const std::string& field);
std::string to_string(const loss_fraction& f);

using die_faces = std::array<bool, 6>;  // [face - 1]
// "5-6", "4,5,6", "6", "none". Throws invalid_input(field, ...).
die_faces parse_faces(const std::string& text, const std::string& field);
std::string to_string(const die_faces& faces);
int count(const die_faces& faces);

struct attrition_row {
  std::string label;
  loss_fraction fraction;
  die_faces survive_on{};
  std::string source;
};
struct attrition_table {
  bool transcribed = false;
  std::string source;
  std::vector<attrition_row> rows;
};
attrition_table load_attrition(const data_source& source);

struct attrition_result {
  int strength = 0;
  int certain_losses = 0;     // (strength div b) * a
  int certain_survivors = 0;  // (strength div b) * (b - a)
  int left_over = 0;          // strength mod b, each rolling for survival
  rational survive_each{0};   // survival faces / 6
  pmf survivors;              // 0..strength
  pmf losses;                 // 0..strength
};

// Throws invalid_input: strength 0..999 (field "strength").
attrition_result winter_attrition(int strength, const loss_fraction& fraction, const die_faces& survive_on);

}  // namespace musket::revolution
