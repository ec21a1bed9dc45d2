// pe-viz: one binary. No arguments opens the GUI; `export`, `dump` and `bench` run headless.
#include <cstdio>
#include <cstring>
#include <string>

#include <CLI/CLI.hpp>

#include "cli/bench_command.hpp"
#include "cli/dump_command.hpp"
#include "cli/gui_command.hpp"
#include "cli/state_options.hpp"
#include "views/view.hpp"

namespace {

constexpr const char* kFooter = R"(Subcommands (each has --help):
  pe-viz dump     print a configuration's inverse frequencies, wavelengths and attention
                  factor as JSON (no window needed)
  pe-viz bench    frame-time benchmark (hidden window; use xvfb-run without a display)

Examples:
  pe-viz --view rope-cos --theta 500000 --dim 128 --length 8192
  xvfb-run -a pe-viz --screenshot out.png --view clock-hands --position 3
  pe-viz dump --preset llama-3.1-8b
)";

}  // namespace

int main(int argc, char** argv) {
  if (argc >= 2 && std::strcmp(argv[1], "dump") == 0) return run_dump_command(argc - 1, argv + 1);
  if (argc >= 2 && std::strcmp(argv[1], "bench") == 0) return app::run_bench_command(argc - 1, argv + 1);

  CLI::App cli{"pe-viz: an interactive visualizer of transformer positional encodings "
               "(sinusoidal, learned, RoPE and its scaling methods, ALiBi)."};
  cli.footer(kFooter);
  app::StateOverrides overrides;
  app::GuiOptions gui;
  bool list_views = false;
  cli.add_flag("--list-views", list_views, "Print the view names, one a line, and exit");
  cli.add_option("--screenshot", gui.screenshot, "Render headless, write the window to this PNG and exit");
  cli.add_option("--frames", gui.frames, "Frames to render before --screenshot (>= 1)")->check(CLI::Range(1, 10000));
  cli.add_option("--width", gui.width, "Window width in pixels")->check(CLI::Range(320, 16384));
  cli.add_option("--height", gui.height, "Window height in pixels")->check(CLI::Range(240, 16384));
  app::add_state_options(cli, overrides);
  try {
    cli.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return cli.exit(e);
  }
  if (list_views) {
    for (const auto& v : app::all_views()) std::printf("%s\n", v.name);
    return 0;
  }
  app::AppState state;
  try {
    state = app::default_state();
    app::apply_overrides(state, overrides);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "pe-viz: %s\n", e.what());
    return 2;
  }
  return app::run_gui(std::move(state), gui);
}
