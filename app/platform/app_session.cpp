#include "platform/app_session.hpp"

#include <epoxy/gl.h>
#include <imgui.h>

#include "plot/plot.hpp"

namespace app {

AppSession::AppSession(AppState state, const WindowOptions& window_options)
    : state_(std::move(state)), window_(std::make_unique<Window>(window_options)) {}

FileActions AppSession::frame(double time_seconds, const FrameOptions& options) {
  // Font atlas changes are only legal between frames; wait until the slider is released.
  if (state_.ui_scale != window_->ui_scale() && !ImGui::IsAnyItemActive()) window_->set_ui_scale(state_.ui_scale);
  window_->set_dark_theme(state_.dark_theme);
  window_->begin_frame();
  plot::set_pixel_scale(window_->ui_scale());
  FileActions actions = draw_main_frame(state_, derived_, ImGui::GetIO().DisplaySize, time_seconds, options);
  window_->end_frame();
  return actions;
}

std::vector<unsigned char> AppSession::read_window_pixels() const {
  const int w = window_->framebuffer_width(), h = window_->framebuffer_height();
  std::vector<unsigned char> bottom_up(std::size_t(w) * std::size_t(h) * 4);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glReadBuffer(GL_BACK);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadPixels(0, 0, w, h, GL_RGBA, GL_UNSIGNED_BYTE, bottom_up.data());
  // GL's origin is bottom-left; PNG rows go top-down.
  std::vector<unsigned char> top_down(bottom_up.size());
  const std::size_t row = std::size_t(w) * 4;
  for (int y = 0; y < h; ++y)
    std::copy_n(bottom_up.data() + std::size_t(h - 1 - y) * row, row, top_down.data() + std::size_t(y) * row);
  for (std::size_t i = 3; i < top_down.size(); i += 4) top_down[i] = 255;  // window pixels are opaque
  return top_down;
}

}  // namespace app
