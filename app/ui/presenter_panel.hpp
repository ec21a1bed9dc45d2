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

// Draws the slide panel into a child window of `size` at the cursor.
void draw_slide_panel(const Presenter& presenter, ImVec2 size);

// The presenter's keys for the F1 overlay: {keys, action} pairs, null-terminated.
struct PresenterKey {
  const char* keys;
  const char* action;
};
const PresenterKey* presenter_keys();

}  // namespace app
