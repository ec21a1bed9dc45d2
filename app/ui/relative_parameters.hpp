#pragma once
// The parameter panel's "Relative positions" section (issue 32): the controls of the
// relative-position parameters the views on screen read (ViewInfo::panel_parameters), each
// with a tooltip giving its exact value and range, and validate_state's message beside the
// control it names.
#include <string>

#include "state/app_state.hpp"

namespace app {

void draw_relative_parameters(AppState& state, const std::string& state_error);

// The session key a validate_state message names ("r2 = 3: ..." → "r2"), or "".
std::string parameter_named_by(const std::string& message);

}  // namespace app
