#pragma once
// The Combat Results Table (Combat Resolution Table, rows 1-6 by odds 1:1..4:1) as data.
// Row 6 is blank in our transcript; RULINGS.md settles 1:1 and 2:1 and leaves 3:1 and 4:1
// unknown, so a cell may carry no result: callers keep its probability as unknown mass.
#include <array>
#include <optional>
#include <string>

#include "calc/revolution/data.hpp"

namespace musket::revolution {

enum class crt_result { De, HalfDe, HalfEx };
inline constexpr std::array<crt_result, 3> all_crt_results{crt_result::De, crt_result::HalfDe, crt_result::HalfEx};
std::string key(crt_result r);    // "De", "HalfDe", "HalfEx" (JSON keys)
std::string label(crt_result r);  // "De", "1/2De", "1/2Ex" (as printed)

struct crt_cell {
  std::optional<crt_result> result;  // nullopt: unknown
  std::string source;
};

inline constexpr int crt_columns = 4;  // 1:1, 2:1, 3:1, 4:1
struct crt_table {
  std::array<std::array<crt_cell, 6>, crt_columns> cells;  // [column - 1][die - 1]
  std::string path;

  const crt_cell& at(int column, int die) const {
    return cells[static_cast<std::size_t>(column - 1)][static_cast<std::size_t>(die - 1)];
  }
  bool complete() const;
};

std::string column_name(int column);  // 2 -> "2:1"

// Reads and validates a CRT file: {"columns": {"1:1": [six cells], ...}}, a cell being a result
// code ("De", "1/2De", "1/2Ex"; "½De", "HalfDe" too) or {"result": code | null, "unknown": true,
// "source": "..."}. A missing column or row, or an unknown code, is an invalid_input naming the
// file and the cell.
crt_table load_crt(const data_source& source);
crt_table parse_crt(const json& doc, const data_source& source);

}  // namespace musket::revolution
