#include "cli/gui_command.hpp"

#include <GLFW/glfw3.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <string>
#include <vector>

#include "platform/frame_pacing.hpp"
#include "ui/app_session.hpp"
#include "ui/presenter.hpp"
#include "export/slide_deck.hpp"
#include "ui/record_dialog.hpp"
#include "export/view_export.hpp"
#include "render/gl_errors.hpp"
#include "render/png_writer.hpp"
#include "state/session_file.hpp"

namespace app {
namespace {

// ImGui's layout file lives in the user's config dir, not the working directory.
std::string layout_file() {
  const auto dir = config_dir();
  return dir.empty() ? std::string() : (dir / "imgui.ini").string();
}

// Files dropped onto the window, collected by GLFW's callback and handled after the frame.
std::vector<std::string> g_dropped;

void on_drop(GLFWwindow*, int count, const char** paths) {
  for (int i = 0; i < count; ++i) g_dropped.emplace_back(paths[i]);
}

// Dynamic NTK teaching aid: L sweeps L_orig/2 ... 16·L_orig and back (log scale), 12 s a cycle.
void animate_length(AppState& s, double t) {
  const double lo = std::log(std::max(1.0, double(s.rope.original_max_position_embeddings()) / 2.0));
  const double hi = std::log(double(s.rope.original_max_position_embeddings()) * 16.0);
  const double phase = std::fmod(t / 12.0, 1.0);
  const double u = phase < 0.5 ? 2 * phase : 2 - 2 * phase;
  s.length = std::clamp<long long>(std::llround(std::exp(lo + (hi - lo) * u)), 1, 1'000'000);
  s.position = std::min(s.position, s.length - 1);
  s.anchor = std::min(s.anchor, s.length - 1);
}

// The window's size is remembered between runs (ImGui's ini keeps the layout).
std::filesystem::path window_size_file() {
  const auto dir = config_dir();
  return dir.empty() ? dir : dir / "window-size.txt";
}

void restore_window_size(int& width, int& height) {
  std::FILE* f = std::fopen(window_size_file().c_str(), "r");
  if (!f) return;
  int w = 0, h = 0;
  if (std::fscanf(f, "%d %d", &w, &h) == 2 && w >= 320 && h >= 240 && w <= 16384 && h <= 16384) {
    width = w;
    height = h;
  }
  std::fclose(f);
}

// After any wake-up (input, a timer, a worker) a few frames are drawn before sleeping
// again: ImGui settles layouts (auto-sized windows, tab switches) over a couple of frames.
constexpr int kSettleFrames = 3;
// With nothing requested the GUI still draws once in a while, a safety net that costs
// nothing measurable (3 frames per 10 s).
constexpr double kIdleWakeSeconds = 10.0;

double process_cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return double(t.tv_sec) + double(t.tv_nsec) * 1e-9;
}

}  // namespace

int run_gui(AppState state, const GuiOptions& options) {
  const bool screenshot = options.screenshot.has_value();
  int width = options.width, height = options.height;
  if (!screenshot && options.remember_window && !options.size_given && !window_size_file().empty()) restore_window_size(width, height);
  try {
    AppSession session(std::move(state), {.width = width,
                                          .height = height,
                                          .visible = !screenshot,
                                          .title = "pe-viz — positional encodings",
                                          .ini_path = screenshot || !options.remember_window ? std::string() : layout_file()});
    Presenter presenter;  // the lesson, when one is open (pe-viz lesson, File → Open lesson, a dropped .md)
    if (options.lesson) {
      presenter.open(*options.lesson, session.state(), 0.0, options.slide);
      if (options.notes) presenter.toggle_notes();
    }
    if (screenshot) {
      FrameOptions shot;
      shot.presenter = &presenter;
      for (int f = 0; f < std::max(options.frames, 1); ++f) {
        session.frame(f / 60.0, shot);
        if (f + 1 < options.frames) session.window().swap();
      }
      const auto pixels = session.read_window_pixels();
      const auto errors = render::drain_gl_errors();
      for (const auto& e : errors) std::fprintf(stderr, "pe-viz: OpenGL error during rendering: %s\n", e.c_str());
      render::write_png_atomic(*options.screenshot, session.window().framebuffer_width(),
                               session.window().framebuffer_height(), pixels);
      std::printf("wrote %s (%dx%d, view %s)\n", options.screenshot->c_str(), session.window().framebuffer_width(),
                  session.window().framebuffer_height(), session.state().view.c_str());
      return errors.empty() ? 0 : 3;
    }
    StatusLine status;
    UndoHistory undo;
    // A deck export runs one view per frame so the window stays responsive and shows progress.
    SlideDeckJob deck;
    // File → Record animation… renders its frames here, between window frames.
    RecordDialog record;
    glfwSetDropCallback(session.window().handle(), on_drop);
    int settle = kSettleFrames;
    long long frames = 0;
    const double start_time = glfwGetTime(), start_cpu = process_cpu_seconds();
    while (!session.window().should_close()) {
      if (options.quit_after_seconds > 0.0 && glfwGetTime() - start_time >= options.quit_after_seconds) break;
      // An idle GUI sleeps until input, a requested frame or a worker's wake-up.
      if (deck.active() || record.recording() || presenter.animating()) request_frame();
      double wait = frame_pacing::take_wait(kIdleWakeSeconds);
      if (options.quit_after_seconds > 0.0)
        wait = std::min(wait, std::max(0.0, start_time + options.quit_after_seconds - glfwGetTime()));
      if (settle > 0) {
        --settle;
      } else if (wait > 0.0) {
        session.window().wait_for_events(wait);
        settle = kSettleFrames;
      }
      ++frames;
      if (session.state().animate_length) animate_length(session.state(), glfwGetTime());
      FrameOptions frame_options;
      frame_options.status = &status;
      frame_options.undo = &undo;
      frame_options.record = &record;
      frame_options.presenter = &presenter;
      const FileActions actions = session.frame(glfwGetTime(), frame_options);
      session.window().swap();
      if (actions.toggle_fullscreen) session.window().toggle_fullscreen();
      if (actions.quit) session.window().request_close();
      load_dropped_files(session.state(), g_dropped, status, glfwGetTime(), &presenter);
      if (actions.open_lesson) open_lesson(presenter, session.state(), *actions.open_lesson, status, glfwGetTime());
      g_dropped.clear();
      if (!actions.export_all.empty() && !deck.active()) deck.start(actions.export_all);
      if (deck.active()) {
        const SlideDeckJob::Step step = deck.step(session);
        status = {step.message, step.error, glfwGetTime(), step.finished ? -1.0f : float(step.done) / float(step.total)};
      }
      record.step(session, status, glfwGetTime());
      if (actions.export_png) {
        try {
          const double ms = export_view_png(session, *actions.export_png);
          const ExportRequest& r = *actions.export_png;
          const std::string cut = export_cut_warning(r.view, r.width, r.height);
          status = {"Exported " + r.path.string() + " (" + std::to_string(r.width) + "×" + std::to_string(r.height) + ", " +
                        std::to_string(int(ms)) + " ms)" + (cut.empty() ? "" : "; but " + cut + " (a taller size or a smaller UI scale shows it all)"),
                    !cut.empty(), glfwGetTime()};
        } catch (const std::exception& e) {
          status = {std::string("Export failed: ") + e.what(), true, glfwGetTime()};
        }
      }
    }
    if (options.report_cpu) {
      const double seconds = glfwGetTime() - start_time, cpu = process_cpu_seconds() - start_cpu;
      std::printf("idle: seconds=%.2f frames=%lld cpu_seconds=%.3f cpu_percent=%.2f (of one core) view=%s\n", seconds, frames,
                  cpu, seconds > 0 ? 100.0 * cpu / seconds : 0.0, session.state().view.c_str());
    }
    if (!options.remember_window) return 0;
    if (!window_size_file().empty()) {
      int w = 0, h = 0;
      session.window().remembered_size(w, h);
      try {
        write_file_atomic(window_size_file(), std::to_string(w) + " " + std::to_string(h) + "\n");
      } catch (const std::exception&) {
        // Not worth bothering the user about on exit.
      }
    }
    if (options.autosave && !autosave_path().empty()) {
      try {
        save_session(autosave_path(), session.state());
      } catch (const std::exception& e) {
        std::fprintf(stderr, "pe-viz: could not autosave the session: %s\n", e.what());
      }
    }
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "pe-viz: %s\n", e.what());
    return 1;
  }
}

}  // namespace app
