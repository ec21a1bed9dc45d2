#pragma once
// One running app: a window (visible or hidden), the state and its derived results, and
// the per-frame driver shared by the GUI loop, --screenshot, bench and GUI tests.
#include <memory>
#include <vector>

#include "platform/window.hpp"
#include "state/app_state.hpp"
#include "state/derived.hpp"
#include "ui/main_frame.hpp"

namespace app {

class AppSession {
 public:
  AppSession(AppState state, const WindowOptions& window_options);

  // Draws and renders one frame into the window's back buffer (no swap).
  FileActions frame(double time_seconds, const FrameOptions& options = {});
  // Back buffer as top-down RGBA (call after frame(), before swap()).
  std::vector<unsigned char> read_window_pixels() const;

  AppState& state() { return state_; }
  const Derived& derived() const { return derived_; }
  Window& window() { return *window_; }

 private:
  AppState state_;
  Derived derived_;
  std::unique_ptr<Window> window_;
};

}  // namespace app
