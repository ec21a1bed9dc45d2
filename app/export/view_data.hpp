#pragma once
// The numbers behind each view as CSV (for --csv and "Save CSV" / "Copy data").
#include <string>

#include "state/app_state.hpp"
#include "state/derived.hpp"

namespace app {

// At most this many rows; longer ranges are sampled evenly (a header comment says so).
inline constexpr long long kMaxCsvRows = 4096;

// A CSV number: 9 significant digits (what a float table holds), or 17 where a value
// must read back exactly (e.g. differences that are exactly zero).
std::string csv_number(double v, int significant_digits = 9);

// Throws pe::InvalidArgument for an unknown view or invalid state.
std::string view_csv(const std::string& view, const AppState& state, const Derived& derived);

}  // namespace app
