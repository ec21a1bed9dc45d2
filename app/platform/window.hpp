#pragma once
// The GLFW window + GL 3.3 core context + Dear ImGui context, visible (GUI) or hidden
// (screenshots, export, bench, GUI tests). The same drawing code runs in both.
#include <string>

struct GLFWwindow;

namespace app {

struct WindowOptions {
  int width = 1600;
  int height = 1000;
  bool visible = true;
  const char* title = "pe-viz";
  std::string ini_path;  // ImGui layout file; empty: none
};

class Window {
 public:
  // Throws std::runtime_error with advice (xvfb-run, headless subcommands) when no
  // display or no GL 3.3 context can be had.
  explicit Window(const WindowOptions& options);
  ~Window();
  Window(const Window&) = delete;
  Window& operator=(const Window&) = delete;

  GLFWwindow* handle() const { return window_; }
  bool should_close() const;
  void begin_frame();   // poll events, start an ImGui frame
  // Starts a frame laid out for an offscreen target of `size` pixels (export): no mouse,
  // framebuffer scale 1. Pair with ImGui::Render() and render_draw_data().
  void begin_offscreen_frame(float width, float height);
  static void render_draw_data();
  void end_frame();     // render ImGui into the default framebuffer (no swap)
  void swap();
  int framebuffer_width() const;
  int framebuffer_height() const;
  // Sets the UI scale (1-3): rebuilds the font atlas at 16 px × scale and scales sizes.
  void set_ui_scale(float scale);
  // Font/size scale without the UI limits (0.5 ... 8), for exports: a 4K export gets a
  // 35 px font atlas instead of an upscaled 16 px one.
  void set_render_scale(float scale);
  float ui_scale() const { return ui_scale_; }
  bool has_unicode_font() const { return unicode_font_; }
  void set_dark_theme(bool dark);
  // F11: the primary monitor at its current video mode, and back to the previous window.
  void toggle_fullscreen();
  bool fullscreen() const;

 private:
  void rebuild_fonts(float pixel_size);
  GLFWwindow* window_ = nullptr;
  float ui_scale_ = 0.0f;
  bool unicode_font_ = false;
  bool dark_ = true;
  std::string ini_path_;
  int windowed_[4] = {0, 0, 0, 0};  // x, y, width, height before fullscreen
};

// Glyph ranges covering Latin-1, Greek and the math symbols the views use (θ Δ π · ≤ ‖ √ ∞ ⟨ ⟩ …).
const unsigned short* math_glyph_ranges();

}  // namespace app
