#pragma once
// Colormaps as data tables of evenly spaced sRGB control points, interpolated linearly.
// The same tables feed the CPU (legends, colour bars, tooltips, tests) and the heatmap
// shaders (uploaded as packed 8-bit points, turned back into the same floats), so CPU and GPU
// agree to the 8-bit level.
//
// Sources: RdBu is ColorBrewer's 11-class diverging scheme (Brewer, colorbrewer2.org), the
// table matplotlib interpolates; viridis (van der Walt & Smith) and cividis (Nuñez et al.
// 2018) are sampled at 16 points as published by the viridisLite package.
#include <array>
#include <span>

#include "plot.hpp"

namespace plot {

using Rgb = std::array<float, 3>;  // components in [0, 1]
inline constexpr int kMaxColormapPoints = 16;

// Control points, value 0 first (RdBu: 0 = dark red, 0.5 = white, 1 = dark blue).
std::span<const Rgb> colormap_table(Colormap c);
// The same points as 8-bit sRGB packed 0xRRGGBB (each component is k / 255), as the
// heatmap shaders take them (shaders/colormap.glsl).
std::array<unsigned, kMaxColormapPoints> colormap_packed_rgb(Colormap c);
// Linear interpolation between control points; t is clamped to [0, 1].
Rgb colormap_rgb(Colormap c, double t);
// t for value v in [vmin, vmax] (0.5 for a degenerate range).
double colormap_position(double v, double vmin, double vmax);

}  // namespace plot
