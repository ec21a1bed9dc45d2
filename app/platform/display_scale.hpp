#pragma once
// How big text and sizes are drawn: the user's UI scale × the monitor's content scale,
// with text rasterised at the pixels it covers (never a small atlas stretched).
//
// Three numbers meet here (GLFW 3.3, "Window content scale" and "Framebuffer size"):
//  - content scale c: the monitor's DPI over the platform's default (2 on a typical 4K
//    laptop panel), from glfwGetWindowContentScale;
//  - framebuffer scale f: framebuffer pixels per window screen coordinate. On X11 and
//    Windows it is 1 and GLFW_SCALE_TO_MONITOR makes the window c times larger instead;
//    on macOS and Wayland the window keeps its size and f = c;
//  - the UI scale u (1 ... 3, AppState::ui_scale), the user's own factor.
// ImGui lays out in screen coordinates: sizes scale by u·c/f; glyphs are rasterised at
// 16·u·c pixels and drawn at 1/f of that, so on every platform a glyph is one atlas texel
// per framebuffer pixel.
namespace app {

inline constexpr float kBaseFontPixels = 16.0f;  // the font size at scale 1

struct FontScale {
  float atlas_pixels = 0;      // glyph size in the font atlas
  float layout = 0;            // ImGui style sizes and plot pixel scale (screen coordinates)
  float global = 1;            // io.FontGlobalScale: atlas pixels → screen coordinates
  friend bool operator==(const FontScale&, const FontScale&) = default;
};

// For the window: u is clamped to 1 ... 3, c to 0.5 ... 4, f to 0.5 ... 4.
FontScale window_font_scale(float ui_scale, float content_scale, float framebuffer_scale);
// For an offscreen export where one pixel is one screen coordinate (f = 1): layout and
// glyphs at `scale` (0.5 ... 8), e.g. 2.16 for a 4K export.
FontScale render_font_scale(float scale);

// PE_VIZ_CONTENT_SCALE, to pretend the monitor has that content scale (Xvfb reports 1):
// 0 when unset or empty; throws pe::InvalidArgument unless it is a number 0.5 ... 4.
float content_scale_from_environment();

}  // namespace app
