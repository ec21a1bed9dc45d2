#pragma once
// Helpers for the CSV each view defines beside its drawing (ViewInfo::csv).
#include <sstream>
#include <string>
#include <vector>

namespace app {

// At most this many rows; longer ranges are sampled evenly (a header comment says so).
inline constexpr long long kMaxCsvRows = 4096;

// A CSV number: 9 significant digits (what a float table holds), or 17 where a value
// must read back exactly (e.g. differences that are exactly zero).
std::string csv_number(double v, int significant_digits = 9);

// A CSV field: as is, or quoted (RFC 4180) when it holds a comma, a quote or a line break.
std::string csv_text(const std::string& text);

// Positions 0 ... length-1, or kMaxCsvRows of them evenly spaced; in that case a comment
// line saying so is written to `out` first.
std::vector<long long> sampled_positions(long long length, std::ostringstream& out);

}  // namespace app
