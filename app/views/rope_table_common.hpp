#pragma once
#include "views/view.hpp"

namespace app {
// Shared body of the rope-cos and rope-sin views (seed 004 §4, seed 003 parts 1–2):
// the table as a heatmap (rows = pairs) and the curves of chosen pairs.
void draw_rope_table(ViewContext& ctx, bool cosine);
}  // namespace app
