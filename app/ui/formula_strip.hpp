#pragma once
// The formula behind the current view with the current numbers substituted: what a
// lecturer writes on the board, kept in sync with the sliders.
#include <string>
#include <vector>

#include "state/app_state.hpp"
#include "state/derived.hpp"

namespace app {

// Lines of the formula strip for `view` (empty when the state is invalid). Each line is
// the general formula followed by "=" and the numbers of the selected p, i, head ...
std::vector<std::string> view_formula(const std::string& view, const AppState& state, const Derived& derived);

// Height of the strip for these lines wrapped to `width` (spacing above included; 0 for
// no lines), and the strip itself (one framed box, full width) at the cursor.
float formula_strip_height(const std::vector<std::string>& lines, float width);
void draw_formula_strip(const std::vector<std::string>& lines, float height);

}  // namespace app
