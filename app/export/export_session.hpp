#pragma once
// What an export renders with: a running app's window, its state and derived results, and
// the frame an export shows. The UI's AppSession (ui/app_session.hpp) is the one there is;
// export sits below the UI, so it reaches the UI's frame only through this.
#include <imgui.h>

#include "platform/window.hpp"
#include "state/app_state.hpp"
#include "state/derived.hpp"

namespace app {

class ExportSession {
 public:
  virtual AppState& state() = 0;
  virtual const Derived& derived() const = 0;
  virtual Window& window() = 0;
  // Draws the frame of an export into `display` (between ImGui::NewFrame and ImGui::Render):
  // state.view alone at full size with its formula strip, no panel, tabs or menus. Returns
  // how far (pixels) the view ran past the bottom of its area (a PNG cannot scroll).
  virtual float draw_export_frame(ImVec2 display) = 0;

 protected:
  ~ExportSession() = default;
};

}  // namespace app
