#pragma once
// Presenter mode on screen: the keys that drive it and the slide panel beside (or under)
// the view: slide counter and progress bar, the slide's text, its animation, speaker notes.
#include <imgui.h>

#include "state/app_state.hpp"
#include "ui/presenter.hpp"

namespace app {

// → / Page Down: next slide; ← / Page Up: previous (clickers send these); Space: play /
// pause the slide's animation; S: speaker notes; Esc: leave the lesson (the state stays).
// Keys typed into a text field, and Ctrl/Alt combinations, are left alone.
void handle_presenter_keys(Presenter& presenter, AppState& state, double now);

// Whether the slide panel goes beside the view (a wide window) or under it.
bool slide_panel_beside(ImVec2 area);
// The panel's width (beside) or height (under) in `area`.
float slide_panel_extent(ImVec2 area);

// What the reader pressed on the slide panel's buttons this frame.
struct SlideActions {
  int step = 0;           // −1 back, +1 next
  bool animate = false;   // play / pause the slide's animation
  bool leave = false;     // leave the lesson
};

// Draws the slide panel into a child window of `size` at the cursor. With `buttons` (touch,
// or a narrow window: no keyboard to press → or Esc) its last row is buttons a finger hits —
// back, next, play, leave — instead of the keys' reminder.
SlideActions draw_slide_panel(const Presenter& presenter, ImVec2 size, bool buttons = false);

// The presenter's keys for the F1 overlay: {keys, action} pairs, null-terminated.
struct PresenterKey {
  const char* keys;
  const char* action;
};
const PresenterKey* presenter_keys();

}  // namespace app
