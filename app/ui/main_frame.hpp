#pragma once
#include <imgui.h>

#include "state/app_state.hpp"
#include "state/derived.hpp"
#include "state/undo_history.hpp"
#include "ui/file_actions.hpp"

namespace app {

class RecordDialog;
class Presenter;

struct FrameOptions {
  bool show_panel = true;   // parameter panel on the left
  bool show_tabs = true;    // false: only state.view, full size (export)
  bool exporting = false;
  StatusLine* status = nullptr;  // non-null: interactive window with File menu and status line
  UndoHistory* undo = nullptr;   // non-null: parameter changes are recorded (Edit menu, Ctrl+Z)
  RecordDialog* record = nullptr;  // non-null: File → Record animation… (the GUI loop calls its step())
  // Non-null and active: presenter mode (the slide beside the view; the arrows, page keys
  // and Space belong to the lesson; ui/presenter_panel.hpp).
  Presenter* presenter = nullptr;
  // The window's width in logical pixels (platform/window.hpp; AppSession sets it): below
  // kNarrowLayoutWidth the layout is the narrow one (ui/narrow_layout.hpp). 0: wide.
  float logical_width = 0;
  // The reader uses a touch screen (AppSession asks the host): taller controls, lesson
  // buttons, drag to scroll, swipe between slides.
  bool touch = false;
};

// Draws the whole UI for one frame into a window covering `display` (call between
// ImGui::NewFrame and ImGui::Render). Recomputes derived results if inputs changed.
// How far (pixels) the last view drawn ran past the bottom of its area: more plots than fit
// at their readable height (main_frame.cpp lets the view scroll; an export is cut there).
float last_view_overflow();
// The narrow layout's parameter drawer: open or closed (the menu bar's "≡ Parameters" and
// F2 toggle it; tests set it).
bool parameter_drawer_open();
void set_parameter_drawer_open(bool open);

FileActions draw_main_frame(AppState& state, Derived& derived, ImVec2 display, double time_seconds,
                     const FrameOptions& options = {});

}  // namespace app
