#pragma once
// The GL 3.3 core context + Dear ImGui context + the target frames are rendered into.
//  - visible (the GUI): a GLFW window; frames go to its back buffer; input via GLFW;
//  - offscreen (export, bench, --screenshot, tests): EGL surfaceless where it works, else
//    a hidden GLFW window; frames go to a framebuffer object of the requested size and
//    input is synthesised (platform/headless_input.hpp). PE_VIZ_GL=egl|glfw forces one.
// The drawing code above is the same in all cases; only this layer knows the difference.
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "platform/display_scale.hpp"
#include "platform/gl_backend.hpp"
#include "platform/key_latch.hpp"
#include "render/framebuffer.hpp"

struct ImGuiIO;

struct GLFWwindow;

namespace app {

class GlContext;

struct WindowOptions {
  int width = 1600;   // visible: screen coordinates (scaled to the monitor); offscreen: pixels
  int height = 1000;
  bool visible = true;
  const char* title = "pe-viz";
  std::string ini_path;  // ImGui layout file; empty: none
  // Offscreen context kind; Auto reads PE_VIZ_GL (then EGL, falling back to GLFW).
  GlBackend backend = GlBackend::Auto;
  // > 0: pretend the monitor's content scale is this (tests; Xvfb and EGL report 1);
  // 0: PE_VIZ_CONTENT_SCALE if set, else the monitor's (1 offscreen).
  float content_scale = 0.0f;
};

class Window {
 public:
  // Throws std::runtime_error with advice when no GL 3.3 context can be had (no display
  // for the GUI; neither EGL nor a display offscreen), pe::InvalidArgument for a bad
  // PE_VIZ_GL or PE_VIZ_CONTENT_SCALE.
  explicit Window(const WindowOptions& options);
  ~Window();
  Window(const Window&) = delete;
  Window& operator=(const Window&) = delete;

  GLFWwindow* handle() const;  // null offscreen under EGL
  bool offscreen() const { return target_.has_value(); }
  GlBackend backend() const;                    // Egl or Glfw: what was made
  const std::string& context_description() const;  // e.g. "EGL 1.5 surfaceless (Mesa Project)"
  bool should_close() const;  // offscreen: never
  void request_close();       // visible: as the window's close button
  void begin_frame();         // poll events (visible), start an ImGui frame of the window's size
  // Visible: sleeps until an event arrives, `seconds` pass or wake_gui() is called
  // (platform/frame_pacing.hpp); returns at once for 0 or offscreen. Returns whether to draw
  // now: always, where it can sleep; in a browser page, which cannot, whether input arrived
  // since the last frame (the caller asks again on the next animation frame).
  bool wait_for_events(double seconds);
  // The window's title (a page's document.title).
  void set_title(const std::string& title);
  // Called in begin_frame after the backend read the devices (or the headless input was
  // synthesised) and before ImGui's frame starts: scripted input (GUI tests, drivers)
  // sets mouse and keys here.
  void set_input_hook(std::function<void(ImGuiIO&)> hook) { input_hook_ = std::move(hook); }
  // Starts a frame laid out for an offscreen target of `size` pixels (export): no mouse,
  // framebuffer scale 1. Pair with ImGui::Render() and render_draw_data().
  void begin_offscreen_frame(float width, float height);
  static void render_draw_data();
  void end_frame();  // render ImGui into the window's target (back buffer or FBO), no swap
  void swap();       // visible: present; offscreen: nothing to present
  int framebuffer_width() const;
  int framebuffer_height() const;
  // Visible: the window's size in screen coordinates; offscreen: the target's pixels.
  void set_size(int width, int height);
  // What end_frame() rendered, as top-down opaque RGBA, framebuffer_width × height × 4
  // (call before swap()).
  std::vector<unsigned char> read_pixels() const;
  // The size to remember for the next start: the window's size without the factor
  // GLFW_SCALE_TO_MONITOR applied (so it does not grow run after run).
  void remembered_size(int& width, int& height) const;

  // The monitor's content scale in use (faked, or as GLFW last reported it).
  float content_scale() const { return content_scale_; }
  // The window's width in logical pixels: what it would be on a monitor of content scale 1
  // (CSS pixels in a page: a phone held upright is about 390 wide, whatever its pixel
  // ratio). The layout chooses by it (ui/narrow_layout.hpp); the UI scale does not count.
  float logical_width() const;
  // Sets the user's UI scale (1-3): fonts rasterised at 16 px × UI scale × content scale,
  // sizes scaled to match (display_scale.hpp). Cheap when nothing changed.
  void set_ui_scale(float scale);
  // Font/size scale without the UI limits (0.5 ... 8) and without the monitor, for
  // exports: a 4K export gets a 35 px font atlas instead of an upscaled 16 px one.
  void set_render_scale(float scale);
  // The layout scale in effect (style sizes, plot line widths): UI scale × content
  // scale / framebuffer scale in the window, the render scale in an export.
  float ui_scale() const { return applied_.layout; }
  const FontScale& font_scale() const { return applied_; }
  bool has_unicode_font() const { return unicode_font_; }
  void set_dark_theme(bool dark);
  // Adds the slide-text faces (bold, italic, mono, headings: imgui_theme.hpp) to the font
  // atlas, or drops them: presenter mode only, as they multiply the atlas's size.
  // Rebuilds the atlas when it changes; call between frames.
  void set_text_faces(bool wanted);
  // F11: the primary monitor at its current video mode, and back to the previous window.
  void toggle_fullscreen();
  bool fullscreen() const;

 private:
  void apply_font_scale(const FontScale& scale);
  float framebuffer_scale() const;
  static void on_content_scale(GLFWwindow* window, float x, float y);
  static void on_key(GLFWwindow* window, int key, int scancode, int action, int mods);

  std::unique_ptr<GlContext> context_;
  std::optional<render::Framebuffer> target_;  // offscreen sessions render here
  FontScale applied_;
  float content_scale_ = 1.0f;
  bool content_scale_fixed_ = false;  // faked: ignore the monitor
  bool unicode_font_ = false;
  bool text_faces_ = false;
  bool dark_ = true;
  std::string ini_path_;
  std::function<void(ImGuiIO&)> input_hook_;
  KeyLatch key_latch_;  // quick taps survive until the next frame (ImGui 1.86 has no queue)
  int windowed_[4] = {0, 0, 0, 0};  // x, y, width, height before fullscreen
};

}  // namespace app
