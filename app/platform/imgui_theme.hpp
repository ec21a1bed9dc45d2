#pragma once
// Fonts and style of the ImGui context: one code path for every scale (window, HiDPI,
// exports at any size), so text is rasterised at the pixel size it is drawn at.

namespace app {

// Glyph ranges covering Latin-1, Greek and the math symbols the views use (θ Δ π · ≤ ‖ √ ∞ ⟨ ⟩ …).
const unsigned short* math_glyph_ranges();

// Replaces the font atlas with DejaVu Sans (Greek, math) at `pixel_size`, or ImGui's
// built-in font where DejaVu is missing. Returns whether the Unicode font was found.
// The caller re-uploads the atlas texture.
bool build_font_atlas(float pixel_size);

// pe-viz's style (rounding), dark or light, with every size scaled by `scale`.
void apply_style(bool dark, float scale);

}  // namespace app
