#include "cli/bench_command.hpp"
#include "cli/gui_command.hpp"

#include <epoxy/gl.h>
#include <imgui.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "cli/draw_costs.hpp"
#include "cli/soak_driver.hpp"
#include "cli/url_fragment.hpp"
#include "ui/app_session.hpp"
#include "render/gl_errors.hpp"
#include "render/held_fences.hpp"
#include "views/view.hpp"

namespace app {
namespace {

struct Stats {
  double median = 0, p95 = 0;
};

Stats stats(std::vector<double> v) {
  if (v.empty()) return {};
  std::sort(v.begin(), v.end());
  auto at = [&](double q) { return v[std::min(v.size() - 1, std::size_t(q * double(v.size() - 1) + 0.5))]; };
  return {at(0.5), at(0.95)};
}

struct BenchConfig {
  std::string name;
  long long length, dim;
  // Multimodal views: the patch grid side (rope-2d) and the prompt (mrope-positions).
  long long grid = 64;
  std::string prompt = AppState{}.prompt;
  // A window size of its own (0: --width × --height), and every view unless --views is given.
  int width = 0, height = 0;
  bool every_view = false;
};

// The frame budget: 60 Hz, and the margin the largest configuration keeps under it.
constexpr double kFrameBudgetMs = 16.7;
constexpr double kMarginBudgetMs = 15.0;

// rope-2d's query patch and mrope-positions' token move every frame, as a lecturer
// clicking or pressing arrows: their caches miss each frame, like the θ sweep's.
void move_selection(AppState& s, int frame) {
  s.patch_row = (s.grid_rows / 2 + frame) % s.grid_rows;
  s.patch_col = (s.grid_cols / 2 + 3LL * frame) % s.grid_cols;
  try {
    s.prompt_token = (s.prompt_token + 7) % prompt_tokens(s.prompt, s.merge_size);
  } catch (const std::exception&) {
  }
}

// --soak: prints RSS checkpoints, the growth since frame `report_every` and GL errors.
// Exit 3 on GL errors, 4 when the growth exceeds --max-growth, 5 on invalid driver states.
int run_soak_mode(long long frames, long long report_every, double max_growth, long long max_dim, int width, int height) {
  AppSession session(default_state(), {.width = width, .height = height, .visible = false});
  std::printf("pe-viz bench --soak: %lld frames at %dx%d, renderer %s via %s, driver period %lld frames\n", frames, width,
              height, reinterpret_cast<const char*>(glGetString(GL_RENDERER)), session.window().context_description().c_str(),
              soak_period());
  std::fflush(stdout);
  const SoakResult r = run_soak(session, {.frames = frames, .report_every = report_every, .max_dim = max_dim}, stdout);
  for (const auto& e : r.first_errors) std::printf("GL error: %s\n", e.c_str());
  std::vector<SoakResult::ViewTime> times = r.view_times;
  std::sort(times.begin(), times.end(), [](const auto& a, const auto& b) { return a.total_ms > b.total_ms; });
  std::printf("%-28s %7s %9s %9s  slowest frame\n", "shown", "frames", "mean_ms", "max_ms");
  for (const auto& t : times)
    std::printf("%-28s %7lld %9.1f %9.1f  %s\n", t.view.c_str(), t.frames, t.total_ms / double(std::max(t.frames, 1LL)), t.max_ms,
                t.slowest.c_str());
  for (const auto& j : r.largest_jumps)
    std::printf("RSS +%.1f MiB in frame %lld: %s\n", double(j.kib) / 1024.0, j.frame, j.what.c_str());
  if (r.invalid_states) std::printf("invalid driver states: %lld (first: %s)\n", r.invalid_states, r.first_invalid.c_str());
  const double growth = r.growth_percent(report_every);
  const double floor_growth = r.growth_percent(report_every, true);
  const MemoryStatus end = r.checkpoints.empty() ? MemoryStatus{} : r.checkpoints.back().memory;
  std::printf("soak: frames=%lld seconds=%.1f fps=%.1f rss_end_kib=%lld hwm_end_kib=%lld growth_since_%lld=%.2f%% "
              "floor_growth=%.2f%% gl_errors=%llu invalid_states=%lld\n",
              frames, r.seconds, double(frames) / std::max(r.seconds, 1e-9), end.rss_kib, end.hwm_kib, report_every, growth,
              floor_growth, static_cast<unsigned long long>(r.gl_errors), r.invalid_states);
  if (r.gl_errors) return 3;
  if (max_growth >= 0 && frames > report_every && floor_growth > max_growth) return 4;
  return r.invalid_states ? 5 : 0;
}

}  // namespace

int run_bench_command(int argc, char** argv) {
  CLI::App cli{"pe-viz bench: frame times (CPU, GPU, total) while theta sweeps", "pe-viz bench"};
  int frames = 200, width = 1600, height = 1000;
  std::vector<std::string> views = {"sinusoidal", "rope-cos", "clock-hands", "relative-score"};
  cli.add_option("--frames", frames, "Frames per view and config (>= 10)")->check(CLI::Range(10, 100000));
  cli.add_option("--width", width, "Window width (the default run's last row, the budget case, is 1920x1080)")
      ->check(CLI::Range(320, 8192));
  cli.add_option("--height", height, "Window height")->check(CLI::Range(240, 8192));
  cli.add_option("--views", views, "Views to time (\"all\": every view; the default run's last row times every view "
                 "unless this is given)");
  long long length = 0, dim = 0, soak = 0, report_every = 1000;
  double max_growth = -1;
  long long soak_max_dim = kMaxViewDim;
  cli.add_option("--length", length, "Time only this length L (with --dim)")->check(CLI::Range(1LL, 1'000'000'000LL));
  cli.add_option("--dim", dim, "Time only this dimension d (with --length)")->check(CLI::Range(2LL, kMaxViewDim));
  cli.add_option("--soak", soak, "Soak test instead: this many frames of the full GUI while a driver moves every control; "
                 "prints RSS (VmRSS, VmHWM) every --report-every frames")->check(CLI::Range(1LL, 100'000'000LL));
  cli.add_option("--report-every", report_every, "Soak checkpoint interval; growth is measured from the first")
      ->check(CLI::Range(1LL, 100'000'000LL));
  cli.add_option("--soak-max-dim", soak_max_dim, "Soak: largest d the driver sets (default: the views' maximum)")
      ->check(CLI::Range(2LL, kMaxViewDim));
  double idle = 0.0;
  std::string idle_view = "rope-cos";
  cli.add_option("--idle", idle, "Idle measurement instead: the real GUI window left alone this many seconds (needs a "
                 "display); prints the CPU time the process used (target: under 2 % of a core)")
      ->check(CLI::Range(0.5, 3600.0));
  cli.add_option("--idle-view", idle_view, "View shown during --idle (default rope-cos)");
  bool draw_costs = false;
  cli.add_flag("--draw-costs", draw_costs, "After each row, replay its last frame draw list by draw list (and the slow "
               "lists command by command) and print what each costs to render, with the pixels it covers");
  std::vector<std::string> sets;
  cli.add_option("--set", sets, "Set a parameter in every row as KEY=VALUE, keys as in links (heads=1024, num-buckets=1024, "
                 "cope-text=..., ...); repeatable. Applied after --length and --dim, before the θ sweep");
  cli.add_option("--max-growth", max_growth, "Soak: exit 4 when VmRSS grew by more than this many % since the first checkpoint");
  try {
    cli.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return cli.exit(e);
  }
  fix_malloc_mmap_threshold();
  if (idle > 0.0) {
    if (!find_view(idle_view)) {
      std::fprintf(stderr, "pe-viz bench: --idle-view: unknown view '%s' (see pe-viz --list-views)\n", idle_view.c_str());
      return 2;
    }
    AppState state;
    state.view = idle_view;
    GuiOptions gui;
    gui.width = width;
    gui.height = height;
    gui.size_given = true;
    gui.autosave = false;
    gui.remember_window = false;
    gui.quit_after_seconds = idle;
    gui.report_cpu = true;
    return run_gui(state, gui);
  }
  if (soak > 0) {
    try {
      return run_soak_mode(soak, report_every, max_growth, soak_max_dim, width, height);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "pe-viz bench: %s\n", e.what());
      return 1;
    }
  }
  std::vector<std::string> every_view;
  for (const auto& v : all_views()) every_view.emplace_back(v.name);
  const bool views_given = cli.count("--views") > 0;
  if (views.size() == 1 && views[0] == "all") views = every_view;
  for (const auto& v : views)
    if (!find_view(v)) {
      std::fprintf(stderr, "pe-viz bench: unknown view '%s' (see pe-viz --list-views)\n", v.c_str());
      return 2;
    }

  // The multimodal views' sizes grow with the rows: the default grid, 64 × 64 patches, then
  // the largest scored grid (512 × 512) and a ~60k-token prompt.
  // The last row is the budget's own case: the largest L and d the panel sets, in a 1080p
  // window, every view; each must stay within kMarginBudgetMs there.
  std::vector<BenchConfig> configs = {
      {"teaching (L=128, d=64)", 128, 64, AppState{}.grid_rows},
      {"L=131072, d=128", 131072, 128, 64, "text:64,image:1x128x128,text:16,video:8x64x64,text:8"},
      {"L=1000000, d=256", 1000000, 256, 512, "text:1000,video:12x128x128,text:500,image:1x192x192,text:500"},
      {"L=1000000, d=1024, 1920x1080", 1000000, 1024, 64, AppState{}.prompt, 1920, 1080, true}};
  if (length > 0 || dim > 0) {
    if (dim % 2) {
      std::fprintf(stderr, "pe-viz bench: --dim %lld: RoPE needs an even dimension\n", dim);
      return 2;
    }
    const long long l = length > 0 ? length : 128, d = dim > 0 ? dim : 64;
    configs = {{"L=" + std::to_string(l) + ", d=" + std::to_string(d), l, d}};
  }
  try {
    AppSession session(default_state(), {.width = width, .height = height, .visible = false});
    GLuint query = 0;
    const bool timer = epoxy_has_gl_extension("GL_ARB_timer_query") || epoxy_gl_version() >= 33;
    if (timer) glGenQueries(1, &query);
    render::HeldFences fences;
    std::printf("pe-viz bench: %d frames per row at %dx%d, renderer %s via %s\n", frames, width, height,
                reinterpret_cast<const char*>(glGetString(GL_RENDERER)), session.window().context_description().c_str());
    std::printf("each frame: θ sweeps 1e2 … 1e7 and back; rope-2d's query patch and mrope-positions' token move. Patch grids:");
    for (const auto& c : configs) std::printf(" %lld×%lld", c.grid, c.grid == AppState{}.grid_rows ? AppState{}.grid_cols : c.grid);
    std::printf("\n");
    std::printf("%-28s %-16s %10s %10s %10s %10s %10s %10s %8s %9s %7s\n", "config", "view", "cpu_med", "cpu_p95", "gpu_med",
                "gpu_p95", "total_med", "total_p95", "rss_mib", "vertices", "mpx");
    bool all_within = true;
    // The budget row's slowest view.
    std::string margin_view;
    double margin_worst = -1.0;
    for (const auto& c : configs) {
      if (c.width > 0) session.window().set_size(c.width, c.height);
      for (const auto& view : (c.every_view && !views_given) ? every_view : views) {
        AppState& s = session.state();
        s = default_state();
        s.length = c.length;
        s.rope.head_dim = c.dim;
        s.rope.max_position_embeddings = c.length;
        // compare's B keeps its own θ but takes the row's d and L: with equal d the difference
        // table is drawn (and timed), as when a lecturer compares two bases of one model.
        s.compare_b.head_dim = c.dim;
        s.compare_b.max_position_embeddings = c.length;
        s.view = view;
        s.grid_rows = c.grid;
        s.grid_cols = c.grid == AppState{}.grid_rows ? AppState{}.grid_cols : c.grid;
        s.prompt = c.prompt;
        if (!sets.empty()) {
          // All together (num-buckets=1024 needs its max-distance), through the link's parser:
          // the command line's option names, ranges and messages.
          std::vector<std::pair<std::string, std::string>> pairs;
          for (const std::string& kv : sets)
            for (auto& p : split_fragment(kv)) pairs.push_back(std::move(p));
          const auto problems = apply_url_fragment(s, join_fragment(pairs));
          if (!problems.empty()) {
            std::fprintf(stderr, "pe-viz bench: --set %s: %s\n", problems.front().key.c_str(), problems.front().message.c_str());
            return 2;
          }
        }
        for (int warm = 0; warm < 3; ++warm) {
          session.frame(0.0);
          glFinish();
        }
        std::vector<double> cpu, gpu, total, vertices, pixels;
        for (int f = 0; f < frames; ++f) {
          // Sweep θ over 10^2 ... 10^7 and back, as a lecturer dragging the slider.
          const double t = double(f) / double(frames - 1);
          s.rope.theta = std::pow(10.0, 2.0 + 5.0 * (1.0 - std::abs(2.0 * t - 1.0)));
          move_selection(s, f);
          const auto start = std::chrono::steady_clock::now();
          if (timer) glBeginQuery(GL_TIME_ELAPSED, query);
          session.frame(f / 60.0);
          if (timer) glEndQuery(GL_TIME_ELAPSED);
          // The query's end is a tiny scene of its own on llvmpipe: hold its fence into the
          // next frame, out of reach of Mesa's fence race (render/held_fences.hpp).
          if (timer) fences.hold(f);
          const auto submitted = std::chrono::steady_clock::now();
          glFinish();
          const auto done = std::chrono::steady_clock::now();
          cpu.push_back(std::chrono::duration<double, std::milli>(submitted - start).count());
          // What ImGui handed the renderer (llvmpipe's cost grows with vertices and covered pixels).
          if (const ImDrawData* dd = ImGui::GetDrawData()) {
            vertices.push_back(drawn_vertices(*dd));
            pixels.push_back(covered_megapixels(*dd));
          }
          total.push_back(std::chrono::duration<double, std::milli>(done - start).count());
          if (timer) {
            GLuint64 ns = 0;
            glGetQueryObjectui64v(query, GL_QUERY_RESULT, &ns);
            gpu.push_back(double(ns) / 1e6);
          }
        }
        if (draw_costs)
          if (ImDrawData* dd = ImGui::GetDrawData()) print_draw_costs(*dd, stdout);
        const Stats sc = stats(cpu), sg = stats(gpu), st = stats(total), sv = stats(vertices), sp = stats(pixels);
        all_within = all_within && st.median <= kFrameBudgetMs;
        if (c.every_view && st.median > margin_worst) {
          margin_worst = st.median;
          margin_view = view;
        }
        std::printf("%-28s %-16s %10.2f %10.2f %10.2f %10.2f %10.2f %10.2f %8.1f %9.0f %7.2f\n", c.name.c_str(), view.c_str(), sc.median,
                    sc.p95, sg.median, sg.p95, st.median, st.p95, double(read_memory_status().rss_kib) / 1024.0, sv.median, sp.median);
        std::fflush(stdout);
      }
      if (c.width > 0) session.window().set_size(width, height);
    }
    if (timer) glDeleteQueries(1, &query);
    const auto errors = render::drain_gl_errors();
    std::printf("times in ms; total = cpu + wait for the GPU (glFinish); rss_mib = VmRSS after the row; vertices = vertices a frame (ImGui's and the curve strips'), mpx = millions of pixels its triangles and heatmap passes cover (medians). Median total within %.1f ms: %s. GL errors: %zu\n",
                kFrameBudgetMs, all_within ? "yes" : "NO", errors.size());
    if (margin_worst >= 0.0)
      std::printf("L = 10^6, d = 1024 at 1920x1080: every median within %.1f ms (the budget's margin): %s; slowest %s, %.2f ms\n",
                  kMarginBudgetMs, margin_worst <= kMarginBudgetMs ? "yes" : "NO", margin_view.c_str(), margin_worst);
    return errors.empty() ? 0 : 3;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "pe-viz bench: %s\n", e.what());
    return 1;
  }
}

}  // namespace app
