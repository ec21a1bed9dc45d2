#pragma once
// The File menu and its dialogs: export PNG (Ctrl+E), save/copy CSV, save/open session
// (Ctrl+S / Ctrl+O). PNG export needs the GPU between frames, so it is returned as a
// request that the GUI loop carries out after the frame; the rest runs immediately.
#include <optional>
#include <string>
#include <vector>

#include "export/export_request.hpp"
#include "state/app_state.hpp"
#include "state/derived.hpp"

namespace app {

class Presenter;

struct StatusLine {
  std::string text;
  bool error = false;
  double shown_at = 0.0;
  float progress = -1.0f;  // 0 ... 1 while a long export runs; < 0: no bar
};

struct FileActions {
  std::optional<ExportRequest> export_png;
  std::vector<ExportRequest> export_all;  // every view into a folder (+ index.html)
  bool toggle_fullscreen = false;         // F11: the window owns the monitor switch
  bool quit = false;                      // File → Quit, Ctrl+Q: as closing the window (autosave)
  std::optional<std::string> open_lesson; // File → Open lesson…: a .md path or a built-in lesson's name
  bool copy_link = false;                 // File → Copy link (a page): the GUI loop knows the lesson shown
};

// Draws the menu bar items and any open dialog; call inside a window with a menu bar.
FileActions draw_file_menu(AppState& state, const Derived& derived, StatusLine& status, double now,
                           int window_width, int window_height);
// Files dropped onto the window: each is loaded as a config.json (a .gguf as a GGUF model,
// a .md as a lesson opened in `presenter` when given); a bad one leaves the current
// configuration untouched and puts the reason in state.config_error (lessons: only) and status.
void load_dropped_files(AppState& state, const std::vector<std::string>& paths, StatusLine& status, double now,
                        Presenter* presenter = nullptr);
// Opens a lesson (a file, or a built-in lesson's name) in presenter mode with the projector
// sizes; a bad lesson leaves state and presenter as they were and says why (file:line: key)
// in the status line. Returns whether it opened.
bool open_lesson(Presenter& presenter, AppState& state, const std::string& file_or_name, StatusLine& status, double now);
void draw_status_line(const StatusLine& status, double now);
// Whether draw_status_line shows anything now (a message fades after a few seconds; an
// error or a progress bar stays).
bool status_shown(const StatusLine& status, double now);
// Opens a saved session (File → Open session…, a file the browser picked); a bad one leaves
// the state as it was and says why in the status line.
void open_session_file(AppState& state, const std::string& path, StatusLine& status, double now);
// What cannot work where the app runs (host::capabilities()), said in a modal over the
// menu the user just used, with the way to get it.
void show_unavailable(const std::string& message);

}  // namespace app
