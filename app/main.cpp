// pe-viz: one binary. No arguments opens the GUI; `export`, `dump` and `bench` run headless.
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <optional>
#include <iostream>
#include <string>

#include <CLI/CLI.hpp>

#include "cli/bench_command.hpp"
#include "cli/dump_command.hpp"
#include "cli/export_command.hpp"
#include "cli/gui_command.hpp"
#include "cli/inspect_command.hpp"
#include "cli/lesson_command.hpp"
#include "cli/model_config.hpp"
#include "cli/soak_driver.hpp"
#include "export/state_options.hpp"
#include "cli/url_fragment.hpp"
#include "cli/weights_command.hpp"
#include "export/builtin_lessons.hpp"
#include "platform/host.hpp"
#include "platform/atomic_file.hpp"
#include "platform/config_dir.hpp"
#include "state/session_file.hpp"
#include "state/version.hpp"
#include "ui/presenter.hpp"
#include "views/view.hpp"

namespace {

constexpr const char* kFooter = R"(Subcommands (each has --help):
  pe-viz export   write a view (or --all views, with an index.html deck) as PNG at any
                  size, and --csv the numbers behind it (no display needed)
  pe-viz dump     print a configuration's inverse frequencies, wavelengths and attention
                  factor as JSON (no OpenGL at all); --encoding t5, deberta, xpos,
                  kerple-log, ... prints another encoding's numbers instead
  pe-viz inspect  what a model's config says about positions: each key and how it is
                  used, the per-layer plan, transformers vs vLLM vs llama.cpp
  pe-viz weights  which rotary frequencies a trained model's q/k weights use (safetensors,
                  GGUF): per layer the q·k share of the fast, middle and slow pairs
  pe-viz bench    frame-time benchmark (no display needed)
  pe-viz lesson   present a lesson (Markdown slides) in the GUI; --list the built-in ones

In the GUI, F1 lists the keyboard shortcuts (views, steps, projector settings).

Environment:
  PE_VIZ_GL=auto|egl|glfw  how offscreen work (export, bench, --screenshot) gets OpenGL:
                           egl = EGL surfaceless, no display server at all; glfw = a
                           hidden window (needs X11, Wayland or xvfb-run); auto (default)
                           = egl, falling back to glfw. The GUI window is always GLFW.
  PE_VIZ_CONTENT_SCALE=S   pretend the monitor's content scale (DPI / 96) is S, 0.5 ... 4:
                           fonts are rasterised at 16 px x --ui-scale x S

Examples:
  pe-viz --view rope-cos --theta 500000 --dim 128 --length 8192
  pe-viz --screenshot out.png --view clock-hands --position 3
  pe-viz dump --preset llama-3.1-8b
  pe-viz dump --encoding t5 --num-buckets 32 --max-distance 128 --length 256
  pe-viz inspect --preset gemma-3-27b
  pe-viz export --view rope-cos --preset llama-3.1-8b --length 8192 --size 3840x2160 -o out.png
  pe-viz export --all slides/ --size 1920x1080
)";

}  // namespace

int main(int argc, char** argv) {
  // Tables of a few MiB come and go as sliders move; mmap'd, they go back to the OS when
  // freed instead of piling up in glibc's heap (the soak measured 255 vs 130 MiB).
  app::fix_malloc_mmap_threshold();
  // --model's config.json from the Hub, with a progress line and Ctrl-C (export sits below cli).
  app::set_model_config_fetcher([](const std::string& model) { app::ensure_model_config(model, &std::cerr); });
  if (argc >= 2 && std::strcmp(argv[1], "dump") == 0) return run_dump_command(argc - 1, argv + 1);
  if (argc >= 2 && std::strcmp(argv[1], "export") == 0) return app::run_export_command(argc - 1, argv + 1);
  if (argc >= 2 && std::strcmp(argv[1], "bench") == 0) return app::run_bench_command(argc - 1, argv + 1);
  if (argc >= 2 && std::strcmp(argv[1], "inspect") == 0) return app::run_inspect_command(argc - 1, argv + 1);
  if (argc >= 2 && std::strcmp(argv[1], "lesson") == 0) return app::run_lesson_command(argc - 1, argv + 1);
  if (argc >= 2 && std::strcmp(argv[1], "weights") == 0) return app::run_weights_command(argc - 1, argv + 1);

  CLI::App cli{"pe-viz: an interactive visualizer of transformer positional encodings "
               "(sinusoidal, learned, RoPE and its scaling methods, ALiBi).",
               "pe-viz"};
  cli.footer(kFooter);
  cli.set_version_flag("--version", std::string("pe-viz ") + app::kVersion);
  app::StateOverrides overrides;
  app::GuiOptions gui;
  bool list_views = false, no_restore = false;
  std::optional<std::string> session_path;
  cli.add_flag("--list-views", list_views, "Print the view names, one a line, and exit");
  cli.add_option("--screenshot", gui.screenshot, "Render offscreen (no display needed), write the window to this PNG and exit");
  cli.add_option("--frames", gui.frames, "Frames to render before --screenshot (>= 1)")->check(CLI::Range(1, 10000));
  auto* width_option = cli.add_option("--width", gui.width, "Window width in pixels (default: the last size)")->check(CLI::Range(320, 16384));
  auto* height_option = cli.add_option("--height", gui.height, "Window height in pixels (default: the last size)")->check(CLI::Range(240, 16384));
  cli.add_option("--session", session_path, "Open this saved session (JSON); options given here override it");
  cli.add_flag("--no-restore", no_restore, "Start from defaults, not from the last session (autosaved on exit)");
  app::add_state_options(cli, overrides);
  try {
    cli.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return cli.exit(e);
  }
  gui.size_given = width_option->count() > 0 || height_option->count() > 0;
  // An autosave killed mid-write leaves its temporary in the config dir: sweep on start.
  app::remove_stale_temp_files(app::config_dir_location());
  if (list_views) {
    for (const auto& v : app::all_views()) std::printf("%s\n", v.name);
    return 0;
  }
  app::AppState state;
  try {
    state = app::default_state();
    // A page's address may carry the state (#view=rope-cos&theta=500000, cli/url_fragment):
    // a link opens what it shows from the defaults, as a scripted screenshot does.
    const std::optional<std::string> fragment = app::host::url_fragment();
    const bool linked = fragment && !fragment->empty();
    // The last session comes back on start (not for scripted screenshots, which must be
    // reproducible); a broken autosave is reported and skipped, never fatal.
    const bool restore = !no_restore && !gui.screenshot && !session_path && !linked;
    if (restore) {
      try {
        if (const std::optional<std::string> saved = app::host::read_saved_session()) {
          std::vector<std::string> warnings;
          state = app::session_from_json(*saved, state, warnings);
        }
      } catch (const std::exception& e) {
        std::fprintf(stderr, "pe-viz: last session not restored: %s\n", e.what());
      }
    }
    if (session_path) {
      std::vector<std::string> warnings;
      state = app::load_session(*session_path, state, warnings);
      for (const auto& w : warnings) std::fprintf(stderr, "pe-viz: warning: %s\n", w.c_str());
    }
    app::apply_overrides(state, overrides);
    gui.autosave = !gui.screenshot;
    app::apply_page_link(state, gui, linked ? *fragment : std::string());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "pe-viz: %s\n", e.what());
    return 2;
  }
  return app::run_gui(std::move(state), gui);
}
