#pragma once
namespace app {
// `pe-viz export`: PNG (and CSV) of one view or, with --all DIR, of every view plus an
// index.html slide deck. Renders offscreen: no display needed (see platform/window.hpp).
int run_export_command(int argc, char** argv);
}  // namespace app
