#pragma once
// Fonts and style of the ImGui context: one code path for every scale (window, HiDPI,
// exports at any size), so text is rasterised at the pixel size it is drawn at. Part of
// the plot layer: the atlas carries the plot's line and marker textures (line_texture.hpp,
// marker_texture.hpp); the window (platform/window.cpp) applies it at each scale.

struct ImFont;

namespace plot {

// The faces slide text is set in (presenter mode): DejaVu Sans regular, bold, oblique,
// bold oblique, DejaVu Sans Mono for `code`, and bold at 1.5× for headings. All of them
// are in the atlas build_font_atlas made when asked for (presenter mode; regular is ImGui's
// default font); a face not loaded or not installed is the regular one.
struct TextFonts {
  ImFont* regular = nullptr;
  ImFont* bold = nullptr;
  ImFont* italic = nullptr;
  ImFont* bold_italic = nullptr;
  ImFont* mono = nullptr;
  ImFont* heading = nullptr;
};
const TextFonts& text_fonts();

// Glyph ranges covering Latin-1, Greek and the math symbols the views use (θ Δ π · ≤ ‖ √ ∞ ⟨ ⟩ …).
const unsigned short* math_glyph_ranges();

// Replaces the font atlas with DejaVu Sans (Greek, math) at `pixel_size`, or ImGui's
// built-in font where DejaVu is missing. Returns whether the Unicode font was found.
// With `text_faces`, the slide-text faces too (text_fonts(); else they are all the
// regular face). The caller re-uploads the atlas texture.
bool build_font_atlas(float pixel_size, bool text_faces = false);

// pe-viz's style (rounding), dark or light, with every size scaled by `scale`.
void apply_style(bool dark, float scale);

}  // namespace plot
