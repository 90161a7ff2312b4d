#pragma once
// CSV as RFC 4180 reads it: a field with a comma, a double quote, CR or LF is quoted and its
// quotes doubled; numbers are shortest round-trip decimals. Shared by every CSV musket writes.
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace musket::cli {

struct report;

std::string csv_field(std::string_view text);
// One record: the fields quoted as needed, joined by commas, ended by "\n".
std::string csv_line(const std::vector<std::string>& fields);
// A JSON scalar as a CSV value: numbers shortest round-trip, booleans true/false, null empty,
// strings as they are (csv_line quotes them).
std::string csv_value(const nlohmann::ordered_json& value);

// A report as the long CSV `--format csv` prints: key,value,exact_num,exact_den with one row per
// leaf of each result (dotted key), then the `stats` and `intervals` rows. An exact fraction is
// split into its numerator and denominator so that no spreadsheet reads "1/12" as a date.
std::string document_csv(const report& r);

}  // namespace musket::cli
