#include "cli/bench_command.hpp"

#include <epoxy/gl.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "platform/app_session.hpp"
#include "render/gl_errors.hpp"
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
  const char* name;
  long long length, dim;
};

}  // namespace

int run_bench_command(int argc, char** argv) {
  CLI::App cli{"pe-viz bench: frame times (CPU, GPU, total) while theta sweeps", "pe-viz bench"};
  int frames = 200, width = 1600, height = 1000;
  std::vector<std::string> views = {"sinusoidal", "rope-cos", "clock-hands", "relative-score"};
  cli.add_option("--frames", frames, "Frames per view and config (>= 10)")->check(CLI::Range(10, 100000));
  cli.add_option("--width", width, "Window width")->check(CLI::Range(320, 8192));
  cli.add_option("--height", height, "Window height")->check(CLI::Range(240, 8192));
  cli.add_option("--views", views, "Views to time");
  try {
    cli.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return cli.exit(e);
  }
  for (const auto& v : views)
    if (!find_view(v)) {
      std::fprintf(stderr, "pe-viz bench: unknown view '%s' (see pe-viz --list-views)\n", v.c_str());
      return 2;
    }

  const BenchConfig configs[] = {{"teaching (L=128, d=64)", 128, 64},
                                 {"L=131072, d=128", 131072, 128},
                                 {"L=1000000, d=256", 1000000, 256}};
  try {
    AppSession session(default_state(), {.width = width, .height = height, .visible = false});
    GLuint query = 0;
    const bool timer = epoxy_has_gl_extension("GL_ARB_timer_query") || epoxy_gl_version() >= 33;
    if (timer) glGenQueries(1, &query);
    std::printf("pe-viz bench: %d frames per row at %dx%d, renderer %s\n", frames, width, height,
                reinterpret_cast<const char*>(glGetString(GL_RENDERER)));
    std::printf("%-20s %-16s %10s %10s %10s %10s %10s %10s\n", "config", "view", "cpu_med", "cpu_p95", "gpu_med",
                "gpu_p95", "total_med", "total_p95");
    bool all_within = true;
    for (const auto& c : configs) {
      for (const auto& view : views) {
        AppState& s = session.state();
        s = default_state();
        s.length = c.length;
        s.rope.head_dim = c.dim;
        s.rope.max_position_embeddings = c.length;
        s.view = view;
        for (int warm = 0; warm < 3; ++warm) {
          session.frame(0.0);
          glFinish();
        }
        std::vector<double> cpu, gpu, total;
        for (int f = 0; f < frames; ++f) {
          // Sweep θ over 10^2 ... 10^7 and back, as a lecturer dragging the slider.
          const double t = double(f) / double(frames - 1);
          s.rope.theta = std::pow(10.0, 2.0 + 5.0 * (1.0 - std::abs(2.0 * t - 1.0)));
          const auto start = std::chrono::steady_clock::now();
          if (timer) glBeginQuery(GL_TIME_ELAPSED, query);
          session.frame(f / 60.0);
          if (timer) glEndQuery(GL_TIME_ELAPSED);
          const auto submitted = std::chrono::steady_clock::now();
          glFinish();
          const auto done = std::chrono::steady_clock::now();
          cpu.push_back(std::chrono::duration<double, std::milli>(submitted - start).count());
          total.push_back(std::chrono::duration<double, std::milli>(done - start).count());
          if (timer) {
            GLuint64 ns = 0;
            glGetQueryObjectui64v(query, GL_QUERY_RESULT, &ns);
            gpu.push_back(double(ns) / 1e6);
          }
        }
        const Stats sc = stats(cpu), sg = stats(gpu), st = stats(total);
        all_within = all_within && st.median <= 16.7;
        std::printf("%-20s %-16s %10.2f %10.2f %10.2f %10.2f %10.2f %10.2f\n", c.name, view.c_str(), sc.median, sc.p95,
                    sg.median, sg.p95, st.median, st.p95);
        std::fflush(stdout);
      }
    }
    if (timer) glDeleteQueries(1, &query);
    const auto errors = render::drain_gl_errors();
    std::printf("times in ms; total = cpu + wait for the GPU (glFinish). Median total within 16.7 ms: %s. GL errors: %zu\n",
                all_within ? "yes" : "NO", errors.size());
    return errors.empty() ? 0 : 3;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "pe-viz bench: %s\n", e.what());
    return 1;
  }
}

}  // namespace app
