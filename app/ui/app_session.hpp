#pragma once
// One running app: a window (visible, or offscreen with no display at all), the state and
// its derived results, and the per-frame driver shared by the GUI loop, --screenshot,
// export, bench and the GUI tests. It sits above the platform (which makes the window and
// knows nothing of the UI) and runs the main frame (ui/main_frame.hpp) on it.
#include <memory>
#include <vector>

#include "export/export_session.hpp"
#include "platform/window.hpp"
#include "state/app_state.hpp"
#include "state/derived.hpp"
#include "ui/main_frame.hpp"

namespace app {

class AppSession : public ExportSession {
 public:
  AppSession(AppState state, const WindowOptions& window_options);

  // Draws and renders one frame into the window's target (no swap). The options' logical
  // width (when 0) and touch come from the window and the host.
  FileActions frame(double time_seconds, const FrameOptions& options = {});
  // The frame as top-down RGBA (call after frame(), before swap()); the same read-back
  // whether the target is a window's back buffer or an offscreen framebuffer.
  std::vector<unsigned char> read_window_pixels() const { return window_->read_pixels(); }

  AppState& state() override { return state_; }
  const Derived& derived() const override { return derived_; }
  Window& window() override { return *window_; }
  // The main frame as an export draws it (draw_main_frame without panel, tabs or menus).
  float draw_export_frame(ImVec2 display) override;

 private:
  AppState state_;
  Derived derived_;
  std::unique_ptr<Window> window_;
};

}  // namespace app
