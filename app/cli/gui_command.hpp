#pragma once
#include <optional>
#include <string>

#include "pe/lessons/lesson_file.hpp"
#include "state/app_state.hpp"

namespace app {

struct GuiOptions {
  std::optional<std::string> screenshot;  // write the window to this PNG after `frames` frames, then exit
  int frames = 5;
  int width = 1600, height = 1000;
  bool size_given = false;  // --width/--height given: do not restore the remembered size
  bool autosave = true;  // save the session to ~/.config/pe-viz/last-session.json on exit
  // bench --idle: run the real loop this long without input, print the CPU time used, and
  // leave the user's window size, layout and session alone.
  double quit_after_seconds = 0.0;
  bool report_cpu = false;
  bool remember_window = true;
  // Presenter mode from the start (pe-viz lesson): the lesson, its first slide (0-based),
  // and whether the speaker notes show.
  std::optional<pe::Lesson> lesson;
  std::size_t slide = 0;
  bool notes = false;
};

// Runs the interactive GUI (or a screenshot run). Returns the process exit code.
int run_gui(AppState state, const GuiOptions& options);

}  // namespace app
