#pragma once
// Keyboard shortcuts for teaching in front of a class (F1 lists them) and the help overlay.
#include "state/app_state.hpp"
#include "state/undo_history.hpp"
#include "ui/file_actions.hpp"

namespace app {

// Handles the global keys of one interactive frame. Keys typed into a text field are
// left to the field.
// With `undo`, Ctrl+Z undoes and Ctrl+Shift+Z / Ctrl+Y redo parameter changes.
// `presenting`: a lesson owns the arrows, Page Up / Down and Space (ui/presenter_panel.hpp).
void handle_shortcuts(AppState& state, FileActions& actions, UndoHistory* undo = nullptr, bool presenting = false);
// The F1 overlay: every shortcut with what it does (drawn when state.show_help).
void draw_help_overlay(AppState& state);

}  // namespace app
