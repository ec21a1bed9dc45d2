#pragma once
// CSV of the teaching views, one function per view, each in its own file
// (app/export/<view>_data.cpp). view_csv() dispatches here.
#include <string>

#include "state/app_state.hpp"
#include "state/derived.hpp"

namespace app {

std::string walkthrough_csv(const AppState& state);
std::string conventions_csv(const AppState& state, const Derived& derived);
std::string theta_lesson_csv(const AppState& state);
std::string permutation_csv(const AppState& state);
std::string comparison_csv(const AppState& state, const Derived& derived);

}  // namespace app
