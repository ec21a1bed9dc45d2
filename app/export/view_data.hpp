#pragma once
// The numbers behind a view as CSV (for --csv and "Save CSV" / "Copy data"). Each view
// defines its own CSV beside its drawing (ViewInfo::csv); this is the export entry point.
#include <string>

#include "state/app_state.hpp"
#include "state/derived.hpp"
#include "views/view_csv.hpp"

namespace app {

// Throws pe::InvalidArgument for an unknown view, std::runtime_error for an invalid state.
std::string view_csv(const std::string& view, const AppState& state, const Derived& derived);

}  // namespace app
