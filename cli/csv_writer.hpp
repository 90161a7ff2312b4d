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

// One row of the long CSV: a leaf's dotted key, its value (null where none), the text the value
// column prints ("no fort" for a null that means so) and its exact fraction, whole and split in
// two (empty where the value has none).
struct csv_leaf {
  std::string key;
  nlohmann::ordered_json value;
  std::string text;
  std::string exact_num, exact_den;
  std::string exact;  // the fraction as the document writes it ("761/1944"), empty where none
};

// The rows of document_csv, in its order: a sweep reads its metrics from here, so every key the
// CSV prints is a metric.
std::vector<csv_leaf> document_leaves(const report& r);

// A report as the long CSV `--format csv` prints: key,value,exact_num,exact_den with one row per
// leaf of each result (dotted key), then the `stats` and `intervals` rows. An exact fraction is
// split into its numerator and denominator so that no spreadsheet reads "1/12" as a date.
std::string document_csv(const report& r);

}  // namespace musket::cli
