#pragma once
// Helpers shared by the relative-position views (issue 32: t5-bias, deberta, relative-key,
// transformer-xl, xpos, cope, distance-bias).
#include <imgui.h>

#include <span>
#include <string>
#include <vector>

#include "pe/relative/bucket_types.hpp"
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

// The bucket of each shown (query row, key column) cell, row-major, over cell_positions'
// `positions` of n: the exact n × n matrix (exact(): a pe::BucketTable) when every position
// has its own cell, else bucket(query, key) at each cell's position.
template <class Exact, class Bucket>
std::vector<float> bucket_cells(long long n, const std::vector<long long>& positions, Exact&& exact, Bucket&& bucket) {
  const long long cells = static_cast<long long>(positions.size());
  std::vector<float> map(std::size_t(cells * cells));
  if (cells == n) {
    const pe::BucketTable m = exact();
    for (long long i = 0; i < n; ++i)
      for (long long j = 0; j < n; ++j) map[std::size_t(i * n + j)] = float(m(i, j));
  } else {
    for (long long r = 0; r < cells; ++r)
      for (long long c = 0; c < cells; ++c)
        map[std::size_t(r * cells + c)] = float(bucket(positions[std::size_t(r)], positions[std::size_t(c)]));
  }
  return map;
}

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
