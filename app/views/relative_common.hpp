#pragma once
// Helpers shared by the relative-position views (issue 32: t5-bias, deberta, relative-key,
// transformer-xl, xpos, cope, distance-bias).
#include <imgui.h>

#include <span>
#include <string>
#include <vector>

#include "plot/plot.hpp"
#include "state/app_state.hpp"

namespace app {

// validate_relative's message in red, with what to do; true when the state is invalid (the
// view then draws nothing else: its parameters are named beside their controls too).
bool show_relative_error(const AppState& state);
// The same as a string ("" when valid), for CSVs and formulas, which throw instead.
std::string relative_error(const AppState& state);

// The positions an axis of n positions shows in `cells` cells: every one when n <= cells,
// else one per cell, at the cell's centre (floor((k + 0.5)·n / cells)).
std::vector<long long> cell_positions(long long n, long long cells);

// Bars of `heights` at x = 0 … n−1, from `floor` up (a log axis needs a floor > 0); an
// infinite height is drawn up to `cap` (an unbounded bucket, say), a NaN one not at all.
void plot_bars(const char* label, std::span<const double> heights, double floor, double cap, const plot::LineStyle& style = {});

// The colour of the training length's marker (green, as in extrapolation) and of text that
// says "illustrative, not trained" (amber), readable on both themes.
inline constexpr ImU32 kTrainingColor = IM_COL32(90, 190, 90, 255);
ImVec4 illustrative_text_color();

// A line of text in the illustrative colour (what is seeded or made up, not trained), and
// the height it takes wrapped to the remaining width (reserve it before the plots).
void illustrative_note(const char* text);
float illustrative_note_height(const char* text);

}  // namespace app
