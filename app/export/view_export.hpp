#pragma once
// PNG export of a view at any size: the view is redrawn offscreen into a framebuffer of
// that size with the same drawing code, fonts rebuilt for the size, then written atomically.
#include <filesystem>
#include <functional>
#include <memory>
#include <string>

#include "export/export_request.hpp"
#include "render/framebuffer.hpp"
#include "export/export_session.hpp"

namespace app {

// e.g. "rope-cos_theta10000_d64_L128.png" (plus _<scaling>x<factor> when scaled).
std::string default_export_name(const AppState& state, const std::string& view);

// The UI scale a view gets at that size: sizes keep the proportions of a 1600×1000 window.
float export_scale(int width, int height, float ui_scale);

// Renders and writes the PNG. Throws pe::InvalidArgument for a bad size or view and
// std::runtime_error for a GL error or an unwritable path (the message names it). Returns the pixels' time to render+write in ms.
double export_view_png(ExportSession& session, const ExportRequest& request);

class ExportStateGuard;

// Renders the session's current state offscreen at one size, as often as asked (video
// frames): the export settings (view, theme, font scale, background) are set once and
// restored when it goes away. Set state values between render() calls, not the view.
// While it lives, the window's own frames would use the export's fonts: keep it for a
// batch of frames, not across GUI frames. Throws like render_view_pixels.
class OffscreenRenderer {
 public:
  OffscreenRenderer(ExportSession& session, const std::string& view, int width, int height, Background background);
  ~OffscreenRenderer();
  OffscreenRenderer(const OffscreenRenderer&) = delete;
  OffscreenRenderer& operator=(const OffscreenRenderer&) = delete;
  // Top-down RGBA, width × height × 4. `passes` layout passes (see kFixedPointPasses).
  std::vector<unsigned char> render(int passes);

 private:
  ExportSession& session_;
  int width_, height_;
  Background background_;
  std::string view_;
  std::unique_ptr<ExportStateGuard> guard_;
  std::unique_ptr<render::Framebuffer> fbo_;
  // The plots' minimum data height (plot::min_data_lines) this export settled on: lowered
  // from the GUI's until the view fits the image, and kept for every later frame (a video
  // must not change its layout mid-way).
  float min_data_lines_ = -1.0f;
};

// Layout passes that make an export independent of what was drawn before (auto-fit axes
// and tick labels settle in three).
inline constexpr int kFixedPointPasses = 3;

// After an export of `view` at width × height: empty, or a warning that the view ran past
// the bottom of the image even with its plots squeezed (a PNG cannot scroll; e.g. the
// comparison table at UI scale 2 in 1080p), and how much was cut.
std::string export_cut_warning(const std::string& view, int width, int height);

// Renders to top-down RGBA without writing (for tests and the --all deck).
std::vector<unsigned char> render_view_pixels(ExportSession& session, const std::string& view, int width, int height,
                                              Background background);

}  // namespace app
