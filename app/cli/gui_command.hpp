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
  std::string lesson_name;  // the built-in lesson's name (a page's link names it), else empty
  bool lesson_published = false;  // the lesson a page was published with (host::published_lesson)
  // Shown in the status line from the first frame (e.g. a URL fragment's key that was left out).
  std::string startup_message;
  bool startup_error = false;
  // A page's bench=N: sweep θ for N frames, report the median frame time (console, title).
  std::optional<int> bench_frames;
};

// What a page opens with (its URL fragment, cli/url_fragment.hpp): the state's keys applied
// to `state` (a key that cannot apply is left out and named in gui.startup_message; the app
// opens anyway), a lesson (the link's `lesson`, or the one the page was published with:
// host::published_lesson) into gui.lesson, a benchmark run. Nothing for an empty fragment
// on the desktop.
void apply_page_link(AppState& state, GuiOptions& gui, const std::string& fragment);

// Runs the interactive GUI (or a screenshot run). Returns the process exit code.
int run_gui(AppState state, const GuiOptions& options);

}  // namespace app
