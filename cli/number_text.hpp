#pragma once
// How numbers read in musket's output. The JSON always carries the full value; these are the
// texts a person reads (table, verdicts) and the texts a spreadsheet reads (CSV).
#include <optional>
#include <string>
#include <utility>

namespace musket::cli {

// A probability as a percentage with as many decimals as it needs to stay truthful: one decimal
// normally ("39.1%"), more for a value near 0 or 1 ("0.027%", "99.97%"), so a value that is
// neither 0 nor 1 never reads "0.0%" or "100.0%"; below 0.0001% it reads "<0.0001%" (above
// 99.9999%, ">99.9999%"). Exactly 0 and 1 read "0%" and "100%".
std::string percent(double p);
// The same, but an impossible outcome (exactly 0) reads "-", as in a table cell.
std::string percent_cell(double p);
// An interval's bounds as percentages with the same precision ("[54.5, 54.7]").
std::string percent_interval(double low, double high);

// A plain number (a mean, a count) for a person: whole numbers as such, others to 4 significant
// digits without an exponent ("5.092", "0.01235", "1234.6").
std::string plain_number(double v);

// The shortest decimal that reads back as the same double (fmt's "{}"): "0.6358", not
// "0.63580000000000003". For CSV and any machine reader.
std::string shortest_decimal(double v);

// The number a whole text writes in decimal ("0.5", "-2", "1e3"), if it is one and finite: no sign
// "+", no blanks, no hexadecimal, nothing left over; nothing otherwise. (Not std::from_chars:
// libc++ 14, the web build's, reads no floating point with it.)
std::optional<double> decimal_number(const std::string& text);

// "num/den" split into its two integers (as text, they may exceed 64 bits); a whole number "n"
// gives {"n", "1"}; anything else (a range, a word) gives nothing.
std::optional<std::pair<std::string, std::string>> fraction_parts(const std::string& text);

// The fraction when it is short enough to read at a glance (at most 11 characters, "3125/23328"),
// else "". "0/1" (an impossible outcome, shown as "-") gives "" too.
std::string readable_fraction(const std::string& text);

}  // namespace musket::cli
