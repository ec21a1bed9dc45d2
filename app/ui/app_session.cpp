#include "ui/app_session.hpp"

#include <imgui.h>

#include "platform/host.hpp"
#include "plot/plot.hpp"
#include "ui/narrow_layout.hpp"
#include "ui/presenter.hpp"

namespace app {

AppSession::AppSession(AppState state, const WindowOptions& window_options)
    : state_(std::move(state)), window_(std::make_unique<Window>(window_options)) {}

FileActions AppSession::frame(double time_seconds, const FrameOptions& frame_options) {
  FrameOptions options = frame_options;
  if (options.logical_width == 0.0f) options.logical_width = window_->logical_width();
  options.touch = options.touch || host::touch_screen();
  // Font atlas changes are only legal between frames; wait until the slider is released.
  // This also picks up a new monitor's content scale and undoes an export's render scale.
  if (!ImGui::IsAnyItemActive()) window_->set_ui_scale(usable_ui_scale(state_.ui_scale, options.logical_width));
  window_->set_dark_theme(state_.dark_theme);
  window_->set_text_faces(options.presenter && options.presenter->active());
  window_->begin_frame();
  plot::set_pixel_scale(window_->ui_scale());
  FileActions actions = draw_main_frame(state_, derived_, ImGui::GetIO().DisplaySize, time_seconds, options);
  window_->end_frame();
  return actions;
}

float AppSession::draw_export_frame(ImVec2 display) {
  draw_main_frame(state_, derived_, display, 0.0, {.show_panel = false, .show_tabs = false, .exporting = true});
  return last_view_overflow();
}

}  // namespace app
