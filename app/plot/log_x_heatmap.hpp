#pragma once
// A value heatmap on a logarithmic x axis, for quantities whose columns are evenly spaced in
// log x: RoPE's pairs, whose wavelengths 2π·θ^(2j/d) grow by the same factor from each pair to
// the next (the frequency-usage view). The heatmap shaders map pixels to cells affinely; on a
// log axis the map from pixels to log10 x is affine, so cells evenly spaced in log10 x land
// exactly where the axis puts their wavelengths.
#include "plot.hpp"

namespace plot {

// `spec` as for plot_value_heatmap, with x0 < x1 both > 0 the outer edges of the first and
// last columns (column c spans [x0·r^c, x0·r^(c+1)], r = (x1/x0)^(1/columns)). Needs
// setup_axes with x Scale::Log and a linear y; otherwise draws a note instead.
void plot_value_heatmap_log_x(const char* label, const ValueHeatmap& spec);

}  // namespace plot
