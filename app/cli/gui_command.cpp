#include "cli/gui_command.hpp"

#include <epoxy/gl.h>
#include <GLFW/glfw3.h>
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cli/url_fragment.hpp"
#include "export/builtin_lessons.hpp"
#include "platform/config_dir.hpp"
#include "platform/host.hpp"
#include "pe/base/text.hpp"
#include "render/png_encoder.hpp"

#include "platform/frame_pacing.hpp"
#include "ui/app_session.hpp"
#include "ui/cut_text.hpp"
#include "ui/presenter.hpp"
#include "export/slide_deck.hpp"
#include "ui/record_dialog.hpp"
#include "export/view_export.hpp"
#include "render/gl_errors.hpp"
#include "export/png_writer.hpp"
#include "state/hub_config.hpp"
#include "views/model_family.hpp"
#include "state/session_file.hpp"
#include "state/weights_usage.hpp"

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

// A page link's Hub model (#model=ORG/NAME): its config.json, fetched a step per frame.
std::unique_ptr<ModelConfigFetch>& link_model_fetch() {
  static std::unique_ptr<ModelConfigFetch> fetch;
  return fetch;
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

namespace {

// The interactive GUI, one frame per step(): the desktop calls it in a loop that sleeps while
// nothing happens; a browser page calls it once per animation frame (platform/host.hpp), so
// everything a frame needs lives here, not on run_gui's stack.
class GuiLoop {
 public:
  GuiLoop(AppState state, const GuiOptions& options, int width, int height)
      : options_(options),
        session_(std::move(state), {.width = width,
                                    .height = height,
                                    .visible = true,
                                    .title = "pe-viz — positional encodings",
                                    .ini_path = options.remember_window ? layout_file() : std::string()}) {
    if (options.lesson) {
      presenter_.open(*options.lesson, session_.state(), 0.0, options.slide);
      if (options.notes) presenter_.toggle_notes();
      lesson_name_ = options.lesson_name;
      lesson_published_ = options.lesson_published;
    }
    if (!options.startup_message.empty()) status_ = {options.startup_message, options.startup_error, 0.0};
    glfwSetDropCallback(session_.window().handle(), on_drop);
    start_time_ = glfwGetTime();
    start_cpu_ = process_cpu_seconds();
    if (options.bench_frames) bench_.emplace(*options.bench_frames, session_.state());
  }

  // One frame, or nothing when the GUI is idle; false once the window is to close.
  bool step() {
    if (session_.window().should_close()) return false;
    if (options_.quit_after_seconds > 0.0 && glfwGetTime() - start_time_ >= options_.quit_after_seconds) return false;
    if (!waiting_) {
      // An idle GUI sleeps until input, a requested frame or a worker's wake-up.
      if (deck_.active() || record_.recording() || presenter_.animating() || bench_) request_frame();
      double wait = frame_pacing::take_wait(kIdleWakeSeconds);
      if (options_.quit_after_seconds > 0.0)
        wait = std::min(wait, std::max(0.0, start_time_ + options_.quit_after_seconds - glfwGetTime()));
      if (settle_ > 0) {
        --settle_;
      } else if (wait > 0.0) {
        wake_at_ = glfwGetTime() + wait;
        waiting_ = true;
      }
    }
    if (waiting_) {
      // The desktop sleeps in here; a page cannot, and asks again on its next frame.
      if (!session_.window().wait_for_events(std::max(0.0, wake_at_ - glfwGetTime())) && glfwGetTime() < wake_at_)
        return true;
      waiting_ = false;
      settle_ = kSettleFrames;
    }
    draw();
    return true;
  }

  // After the last frame: the figures bench --idle asks for; the window's size and the
  // session kept for the next start.
  int finish() {
    if (options_.report_cpu) {
      const double seconds = glfwGetTime() - start_time_, cpu = process_cpu_seconds() - start_cpu_;
      std::printf("idle: seconds=%.2f frames=%lld cpu_seconds=%.3f cpu_percent=%.2f (of one core) view=%s\n", seconds, frames_,
                  cpu, seconds > 0 ? 100.0 * cpu / seconds : 0.0, session_.state().view.c_str());
    }
    if (!options_.remember_window) return 0;
    if (!window_size_file().empty()) {
      int w = 0, h = 0;
      session_.window().remembered_size(w, h);
      try {
        write_file_atomic(window_size_file(), std::to_string(w) + " " + std::to_string(h) + "\n");
      } catch (const std::exception&) {
        // Not worth bothering the user about on exit.
      }
    }
    if (options_.autosave) {
      try {
        host::write_saved_session(session_to_json(session_.state()));
      } catch (const std::exception& e) {
        std::fprintf(stderr, "pe-viz: could not autosave the session: %s\n", e.what());
      }
    }
    return 0;
  }

 private:
  // bench=N in a page's fragment: θ sweeps 10^2 … 10^7 and back over N frames (as
  // `pe-viz bench` does), each frame timed to the end of its GPU work.
  struct Bench {
    Bench(int n, const AppState& s) : frames(std::max(n, 2)), view(s.view) {}
    int frames, done = 0;
    std::string view;
    std::vector<double> ms;
  };

  void draw() {
    AppState& state = session_.state();
    const double now = glfwGetTime();
    ++frames_;
    if (state.animate_length) animate_length(state, now);
    if (bench_ && bench_->done < bench_->frames) {
      const double t = double(bench_->done) / double(bench_->frames - 1);
      state.rope.theta = std::pow(10.0, 2.0 + 5.0 * (1.0 - std::abs(2.0 * t - 1.0)));
    }
    const double frame_start = glfwGetTime();
    FrameOptions frame_options;
    frame_options.status = &status_;
    frame_options.undo = &undo_;
    frame_options.record = &record_;
    frame_options.presenter = &presenter_;
    const FileActions actions = session_.frame(now, frame_options);
    // The browser tests ask what text this frame had to cut (phone and tablet sizes), and
    // whether the narrow layout's drawer is open.
    if (host::text_check_requested())
      host::report_text_check("{\"cuts\": " + cut_text_json(find_cut_text(*ImGui::GetDrawData())) +
                              ", \"drawer\": " + (parameter_drawer_open() ? "true" : "false") + "}");
    if (bench_ && bench_->done < bench_->frames) {
      glFinish();
      bench_->ms.push_back((glfwGetTime() - frame_start) * 1000.0);
      if (++bench_->done == bench_->frames) report_bench();
    }
    session_.window().swap();
    after_frame(actions, now);
  }

  void report_bench() {
    std::vector<double> v = bench_->ms;
    std::sort(v.begin(), v.end());
    const double median = v[v.size() / 2], p95 = v[std::min(v.size() - 1, std::size_t(0.95 * double(v.size() - 1) + 0.5))];
    const AppState& s = session_.state();
    char line[256];
    std::snprintf(line, sizeof line,
                  "pe-viz bench: view %s, L=%lld, d=%lld, %d frames at %dx%d, θ 1e2…1e7: median %.2f ms, p95 %.2f ms, max %.2f ms",
                  bench_->view.c_str(), s.length, s.rope.head_dim, bench_->frames, session_.window().framebuffer_width(),
                  session_.window().framebuffer_height(), median, p95, v.back());
    host::log_line(line);
    std::snprintf(line, sizeof line, "pe-viz · bench %s: median %.2f ms", bench_->view.c_str(), median);
    bench_title_ = line;
    status_ = {line + std::string(" (p95 ") + std::to_string(int(p95 + 0.5)) + " ms)", false, glfwGetTime()};
  }

  void after_frame(const FileActions& actions, double now) {
    AppState& state = session_.state();
    // The title names the view once a frame of it is on screen (a page's tests wait for it).
    const std::string title = bench_title_.empty() ? "pe-viz · " + state.view : bench_title_;
    if (title != title_) {
      session_.window().set_title(title);
      title_ = title;
    }
    if (frames_ == 1) host::first_frame_shown();
    if (actions.toggle_fullscreen) session_.window().toggle_fullscreen();
    if (actions.quit) session_.window().request_close();
    for (const host::PickedFile& f : host::take_picked_files()) {
      if (f.purpose == "session") {
        open_session_file(state, f.path, status_, now);
      } else if (f.purpose == "lesson") {
        open_lesson_named(f.path, now);
      } else {  // "model" (the picker's), "drop": as dropped onto the window
        g_dropped.push_back(f.path);
      }
    }
    if (auto& fetch = link_model_fetch()) {
      if (fetch->advance(0)) {
        try {
          if (!fetch->error().empty()) throw std::runtime_error(fetch->error());
          load_cached_model(state, fetch->model());
          open_family_view(state);
          state.config_error.clear();
          status_ = {"Opened " + fetch->model() + " from " + host::hub_settings().endpoint + " (its weights: Read weights under Model)",
                     false, now};
        } catch (const std::exception& e) {
          status_ = {"Model " + fetch->model() + " not opened: " + e.what(), true, now};
          host::log_line("pe-viz: model " + fetch->model() + " not opened: " + e.what());
        }
        fetch.reset();
      } else {
        status_ = {fetch->status(), false, now};
        request_frame_within(0.1);
      }
    }
    if (const std::optional<std::string> wanted = host::take_weights_request()) {
      forget_weights(*wanted);
      state.weights = *wanted;
      state.weights_layer = 0;
      state.view = "frequency-usage";
    }
    load_dropped_files(state, g_dropped, status_, now, &presenter_);
    // A dropped lesson is a file here: no link can carry it.
    for (const std::string& path : g_dropped) {
      const std::string ext = pe::lower_extension(path);
      if (ext == ".md" || ext == ".markdown") lesson_name_.clear();
    }
    if (actions.open_lesson) open_lesson_named(*actions.open_lesson, now);
    g_dropped.clear();
    if (!actions.export_all.empty() && !deck_.active()) deck_.start(actions.export_all);
    if (deck_.active()) {
      const SlideDeckJob::Step step = deck_.step(session_);
      status_ = {step.message, step.error, now, step.finished ? -1.0f : float(step.done) / float(step.total)};
    }
    record_.step(session_, status_, now);
    if (actions.export_png) {
      try {
        const ExportRequest& r = *actions.export_png;
        double ms = 0;
        std::string where = r.path.string();
        if (host::capabilities().file_paths) {
          ms = export_view_png(session_, r);
        } else {
          // A page has no paths: the PNG is a download, named as the file would be.
          const auto start = glfwGetTime();
          const auto pixels = render_view_pixels(session_, r.view.empty() ? state.view : r.view, r.width, r.height, r.background);
          const auto png = render::encode_png(r.width, r.height, pixels, 1);
          host::offer_download(r.path.filename().string(), png, "image/png");
          ms = (glfwGetTime() - start) * 1000.0;
          where = r.path.filename().string() + " as a download";
        }
        const std::string cut = export_cut_warning(r.view, r.width, r.height);
        status_ = {"Exported " + where + " (" + std::to_string(r.width) + "×" + std::to_string(r.height) + ", " +
                       std::to_string(int(ms)) + " ms)" + (cut.empty() ? "" : "; but " + cut + " (a taller size or a smaller UI scale shows it all)"),
                   !cut.empty(), now};
      } catch (const std::exception& e) {
        status_ = {std::string("Export failed: ") + e.what(), true, now};
      }
    }
    if (actions.copy_link) copy_link(now);
    if (const std::optional<std::string> typed = host::take_new_url_fragment()) follow_new_link(*typed, now);
    if (host::capabilities().page_url) follow_url(now);
    if (host::capabilities().persistent_runtime && options_.autosave) keep_session(now);
  }

  // The fragment this page would open with to show what is on screen now: a built-in
  // lesson at its slide (its state is the slide's), or the state's options.
  std::string current_fragment(bool* exact) {
    if (presenter_.active() && (!lesson_name_.empty() || lesson_published_)) {
      if (exact) *exact = true;
      // The lesson a page was published with needs no name: the page opens it.
      std::vector<std::pair<std::string, std::string>> keys;
      if (!lesson_published_) keys.emplace_back("lesson", lesson_name_);
      keys.emplace_back("slide", std::to_string(presenter_.index() + 1));
      if (presenter_.notes_shown()) keys.emplace_back("notes", "");
      return join_fragment(keys);
    }
    return url_fragment_for(session_.state(), exact);
  }

  // Opens a lesson and remembers its name when it is a built-in one (a link can name it).
  void open_lesson_named(const std::string& file_or_name, double now) {
    if (open_lesson(presenter_, session_.state(), file_or_name, status_, now)) {
      lesson_name_ = find_builtin_lesson(file_or_name) ? file_or_name : std::string();
      lesson_published_ = false;
    }
  }

  // The reader changed the page's address by hand (a link pasted into an open page): it
  // opens as a new page would, from the defaults.
  void follow_new_link(const std::string& fragment, double now) {
    AppState state = default_state();
    GuiOptions opened;
    apply_page_link(state, opened, fragment);
    session_.state() = std::move(state);
    if (opened.lesson) {
      presenter_.open(*opened.lesson, session_.state(), now, opened.slide);
      if (opened.notes != presenter_.notes_shown()) presenter_.toggle_notes();
      lesson_name_ = opened.lesson_name;
      lesson_published_ = opened.lesson_published;
    } else if (presenter_.active()) {
      presenter_.close();
    }
    if (opened.bench_frames) bench_.emplace(*opened.bench_frames, session_.state());
    bench_title_.clear();
    status_ = {opened.startup_message.empty() ? "Opened the link" : opened.startup_message, opened.startup_error, now};
    url_written_ = fragment;
  }

  void copy_link(double now) {
    bool exact = true;
    const std::string fragment = current_fragment(&exact);
    const std::string link = host::capabilities().page_url ? host::link_with_fragment(fragment) : "#" + fragment;
    host::copy_text(link);
    status_ = {exact ? "Copied the link to this view: " + link
                     : "Copied a link with every option that differs (a model read from a file has numbers no link "
                       "carries: send the file too): " + link,
               false, now};
  }

  // The page's URL follows the state (history.replaceState: Back leaves the page instead of
  // undoing slider steps), never while a slider is held and at most four times a second (a
  // playing animation changes the state every frame; browsers throttle faster rewrites).
  void follow_url(double now) {
    if (ImGui::IsAnyItemActive()) return;  // the release draws a frame, which writes it
    const std::string fragment = current_fragment(nullptr);
    if (fragment == url_written_) return;
    if (now - url_written_at_ < 0.25) {
      // Not yet: a page that goes idle now must still be woken to write it.
      request_frame_within(0.25 - (now - url_written_at_) + 0.01);
      return;
    }
    url_written_ = fragment;
    url_written_at_ = now;
    host::replace_url_fragment(fragment);
  }

  // A page is never closed by the app: the session is kept as it changes, every 2 s at most.
  void keep_session(double now) {
    if (session_failed_) return;
    const std::string json = session_to_json(session_.state());
    if (json == session_written_) return;
    if (now - session_written_at_ < 2.0) {
      request_frame_within(2.0 - (now - session_written_at_) + 0.01);
      return;
    }
    session_written_at_ = now;
    try {
      host::write_saved_session(json);
      session_written_ = json;
    } catch (const std::exception& e) {
      status_ = {std::string("Session not kept: ") + e.what(), true, now};
      session_failed_ = true;
    }
  }

  GuiOptions options_;
  AppSession session_;
  Presenter presenter_;  // the lesson, when one is open (pe-viz lesson, File → Open lesson, a dropped .md)
  StatusLine status_;
  UndoHistory undo_;
  // A deck export runs one view per frame so the window stays responsive and shows progress.
  SlideDeckJob deck_;
  // File → Record animation… renders its frames here, between window frames.
  RecordDialog record_;
  std::optional<Bench> bench_;
  std::string bench_title_, title_, lesson_name_;
  bool lesson_published_ = false;  // the lesson is the one the page was published with
  int settle_ = kSettleFrames;
  bool waiting_ = false;
  double wake_at_ = 0.0;
  long long frames_ = 0;
  double start_time_ = 0.0, start_cpu_ = 0.0;
  double url_written_at_ = -1.0, session_written_at_ = -1.0;
  std::string url_written_, session_written_;
  bool session_failed_ = false;
};

int run_screenshot(AppState state, const GuiOptions& options) {
  AppSession session(std::move(state), {.width = options.width, .height = options.height, .visible = false});
  Presenter presenter;
  if (options.lesson) {
    presenter.open(*options.lesson, session.state(), 0.0, options.slide);
    if (options.notes) presenter.toggle_notes();
  }
  FrameOptions shot;
  shot.presenter = &presenter;
  for (int f = 0; f < std::max(options.frames, 1); ++f) {
    session.frame(f / 60.0, shot);
    if (f + 1 < options.frames) session.window().swap();
  }
  const auto pixels = session.read_window_pixels();
  const auto errors = render::drain_gl_errors();
  for (const auto& e : errors) std::fprintf(stderr, "pe-viz: OpenGL error during rendering: %s\n", e.c_str());
  write_png_atomic(*options.screenshot, session.window().framebuffer_width(), session.window().framebuffer_height(),
                           pixels);
  std::printf("wrote %s (%dx%d, view %s)\n", options.screenshot->c_str(), session.window().framebuffer_width(),
              session.window().framebuffer_height(), session.state().view.c_str());
  return errors.empty() ? 0 : 3;
}

}  // namespace

// What a page opens with besides the state: its link's keys (a key that cannot apply is
// left out and named in the status line; the app opens anyway), a lesson (the link's, or the
// one the page was published with), a benchmark run.
void apply_page_link(AppState& state, GuiOptions& gui, const std::string& fragment) {
  PageRequest page;
  std::string message;
  if (!fragment.empty()) {
    for (const FragmentProblem& p : apply_url_fragment(state, fragment, &page))
      message += (message.empty() ? "" : "; ") + p.key + " (" + p.message + ")";
    if (!message.empty()) message = "Link: left out " + message;
  }
  std::optional<std::string> lesson = page.lesson ? page.lesson : host::published_lesson();
  if (lesson) {
    try {
      AppState s = state;
      apply_lesson_display(s);
      pe::Lesson loaded = load_lesson_source(*lesson);
      AppState probe = s;
      Presenter check;  // every slide worked out now, so a bad one is named before the first frame
      check.open(loaded, probe, 0.0);
      gui.slide = std::min(page.slide, loaded.slides.empty() ? 0 : loaded.slides.size() - 1);
      gui.lesson = std::move(loaded);
      gui.notes = page.notes;
      gui.lesson_name = find_builtin_lesson(*lesson) ? *lesson : std::string();
      gui.lesson_published = !page.lesson;
      state = std::move(s);
    } catch (const std::exception& e) {
      message += (message.empty() ? "" : "; ") + std::string("lesson not opened: ") + e.what();
    }
  }
  gui.bench_frames = page.bench_frames;
  // A Hub model by name: its config.json comes over the network, a frame at a time.
  if (page.model) link_model_fetch() = std::make_unique<ModelConfigFetch>(*page.model);
  if (!message.empty()) {
    gui.startup_message = message;
    gui.startup_error = true;
    host::log_line("pe-viz: " + message);
  }
}

int run_gui(AppState state, const GuiOptions& options) {
  try {
    if (options.screenshot) return run_screenshot(std::move(state), options);
    int width = options.width, height = options.height;
    if (options.remember_window && !options.size_given && !window_size_file().empty()) restore_window_size(width, height);
    auto loop = std::make_shared<GuiLoop>(std::move(state), options, width, height);
    // A page keeps calling step() after this returns (the loop owns everything it needs).
    if (!host::run_main_loop([loop] { return loop->step(); })) return 0;
    return loop->finish();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "pe-viz: %s\n", e.what());
    return 1;
  }
}

}  // namespace app
