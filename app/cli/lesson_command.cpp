#include "cli/lesson_command.hpp"

#include <CLI/CLI.hpp>
#include <cstdio>
#include <optional>
#include <string>

#include "cli/gui_command.hpp"
#include "export/state_options.hpp"
#include "export/builtin_lessons.hpp"
#include "ui/presenter.hpp"

namespace app {

int run_lesson_command(int argc, char** argv) {
  CLI::App cli{"Present a lesson: the GUI in presenter mode, the slide's text beside the view.\n"
               "Keys: -> / Page Down next, <- / Page Up back, Space animation, S notes, Esc leave.",
               "pe-viz lesson"};
  std::string source;
  bool list = false, notes = false;
  int slide = 1;
  GuiOptions gui;
  StateOverrides overrides;
  cli.add_option("lesson", source, "A lesson file (Markdown), or the name of a built-in lesson (see --list)");
  cli.add_flag("--list", list, "Print the built-in lessons (name and title) and exit");
  cli.add_option("--slide", slide, "Start at this slide (1-based)")->check(CLI::Range(1, 100000));
  cli.add_flag("--notes", notes, "Show the speaker notes from the start (S toggles them)");
  cli.add_option("--screenshot", gui.screenshot, "Render offscreen, write the window to this PNG and exit");
  cli.add_option("--frames", gui.frames, "Frames to render before --screenshot (>= 1)")->check(CLI::Range(1, 10000));
  auto* width_option = cli.add_option("--width", gui.width, "Window width in pixels")->check(CLI::Range(320, 16384));
  auto* height_option = cli.add_option("--height", gui.height, "Window height in pixels")->check(CLI::Range(240, 16384));
  // Display options only matter here (--ui-scale, --line-width, --light, --colormap); the
  // slides set the rest.
  add_state_options(cli, overrides);
  cli.footer("The projector sizes (--ui-scale 2, --line-width 3) apply unless given.\n"
             "Lesson format: slides separated by ---, a `key: value` header per slide\n"
             "(view, theta, dim, length, animate: position 0 -> 64 over 4 s, ...), ??? before notes.");
  try {
    cli.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return cli.exit(e);
  }
  if (list) {
    for (const BuiltinLesson& l : builtin_lessons()) std::printf("%-28s %s\n", l.name.c_str(), l.title.c_str());
    if (builtin_lessons().empty()) std::fprintf(stderr, "pe-viz: no built-in lessons in this build\n");
    return 0;
  }
  if (source.empty()) {
    std::fprintf(stderr, "pe-viz lesson: name a lesson file or a built-in lesson (pe-viz lesson --list)\n");
    return 2;
  }
  gui.size_given = width_option->count() > 0 || height_option->count() > 0;
  gui.autosave = !gui.screenshot;
  AppState state;
  try {
    // From the defaults, not the last session: a lesson shows the same thing on every machine.
    state = default_state();
    apply_lesson_display(state);
    apply_overrides(state, overrides);
    gui.lesson = load_lesson_source(source);
    // Every slide's state worked out now, so a bad value stops here, before a window opens.
    AppState probe = state;
    Presenter check;
    check.open(*gui.lesson, probe, 0.0);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "pe-viz: %s\n", e.what());
    return 2;
  }
  if (std::size_t(slide) > gui.lesson->slides.size()) {
    std::fprintf(stderr, "pe-viz: --slide %d: the lesson has %zu slides\n", slide, gui.lesson->slides.size());
    return 2;
  }
  gui.slide = std::size_t(slide - 1);
  gui.notes = notes;
  return run_gui(std::move(state), gui);
}

}  // namespace app
