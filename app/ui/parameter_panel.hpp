#pragma once
#include "state/app_state.hpp"

namespace app {
// The left-hand panel: preset, theta, dim, length, convention, position, pair, scaling,
// display. Every control has a tooltip that names its parameter and explains it. `narrow`:
// the narrow layout's drawer (a preset's title shortened to what its combo shows whole).
void draw_parameter_panel(AppState& state, const std::string& state_error, bool narrow = false);
}  // namespace app
