#pragma once
#include <string>
#include <vector>

#include "views/view.hpp"

namespace app {
// Shared body of the rope-cos and rope-sin views (the precomputed cos/sin caches of RoPE code):
// the table as a heatmap (rows = pairs) and the curves of chosen pairs.
void draw_rope_table(ViewContext& ctx, bool cosine);
// Their CSV: cos or sin(p·θ_i) per position (sampled to kMaxCsvRows) and pair.
std::string rope_table_csv(const AppState& state, const Derived& derived, bool cosine);
// The rotation formula with the selected position and pair (rope-cos, rope-sin, clock-hands).
std::vector<std::string> rope_angle_formula(const AppState& state, const Derived& derived, bool sine);
inline constexpr const char* kRopeTableAnimatable[] = {"theta", "dim", "length", "position", "pair", "factor"};
}  // namespace app
