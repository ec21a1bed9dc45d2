#pragma once
// `pe-viz lesson`: opens the GUI in presenter mode on a lesson (ui/presenter.hpp).
//
//   pe-viz lesson talk.md                 a lesson file
//   pe-viz lesson positional-encoding-101 a built-in lesson (a file of that name wins)
//   pe-viz lesson --list                  the built-in lessons, "NAME  TITLE" a line
//   pe-viz lesson talk.md --slide 4 --screenshot slide4.png --ui-scale 1
//
// A lesson is checked whole (every key, value and animation of every slide) before a
// window opens. Exit codes: 0 done, 2 bad command line or bad lesson (file:line: key:
// message on stderr), 1 no window could be opened.
namespace app {

// argv[0] is "lesson".
int run_lesson_command(int argc, char** argv);

}  // namespace app
