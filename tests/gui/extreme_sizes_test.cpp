// Extreme sizes (issue 8): every view at L = 10^6, d = 1024 renders a screenshot in its
// own process under 500 MB peak RSS (the child's ru_maxrss from wait4), and a table past
// the learned view's budget is refused without being allocated. Needs a display (xvfb-run).
#include <fcntl.h>
#include <gtest/gtest.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

extern char** environ;

namespace {

namespace fs = std::filesystem;

constexpr long kLimitKiB = 500L * 1000L * 1000L / 1024L;  // 500 MB

struct ChildRun {
  int exit_code = -1;
  long max_rss_kib = 0;
  double seconds = 0;
  std::string out;
};

// Runs pe-viz directly (no shell: wait4's ru_maxrss is then pe-viz's own peak) with HOME
// in a scratch directory; stdout and stderr go to a file.
ChildRun run_pe_viz(const std::vector<std::string>& args, const fs::path& dir) {
  std::vector<std::string> argv_s = {PE_VIZ_BINARY};
  argv_s.insert(argv_s.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& a : argv_s) argv.push_back(a.data());
  argv.push_back(nullptr);
  std::vector<std::string> env_s = {"HOME=" + dir.string(), "XDG_CONFIG_HOME=" + (dir / ".config").string()};
  for (char** e = environ; *e; ++e) {
    const std::string v = *e;
    if (v.rfind("HOME=", 0) != 0 && v.rfind("XDG_CONFIG_HOME=", 0) != 0) env_s.push_back(v);
  }
  std::vector<char*> envp;
  for (auto& e : env_s) envp.push_back(e.data());
  envp.push_back(nullptr);
  const fs::path log = dir / "output.txt";
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&actions, 1, 2);
  ChildRun r;
  const auto start = std::chrono::steady_clock::now();
  pid_t pid = 0;
  const int spawned = posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  if (spawned != 0) return r;
  int status = 0;
  rusage usage{};
  if (wait4(pid, &status, 0, &usage) != pid) return r;
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.max_rss_kib = usage.ru_maxrss;  // KiB on Linux
  std::ifstream in(log);
  r.out.assign(std::istreambuf_iterator<char>(in), {});
  return r;
}

fs::path scratch(const char* name) {
  const fs::path dir = fs::temp_directory_path() / ("pe-viz-extreme-" + std::to_string(getpid())) / name;
  fs::create_directories(dir);
  return dir;
}

std::vector<std::string> view_names(const fs::path& dir) {
  const ChildRun r = run_pe_viz({"--list-views"}, dir);
  std::vector<std::string> names;
  std::string line;
  for (char c : r.out) {
    if (c == '\n') {
      if (!line.empty()) names.push_back(line);
      line.clear();
    } else {
      line += c;
    }
  }
  return names;
}

TEST(ExtremeSizes, EveryViewScreenshotAtOneMillionPositionsStaysUnder500MB) {
  const fs::path dir = scratch("views");
  const auto views = view_names(dir);
  ASSERT_GE(views.size(), 10u);
  for (const auto& v : views) {
    const fs::path png = dir / (v + ".png");
    const ChildRun r = run_pe_viz({"--no-restore", "--screenshot", png.string(), "--view", v, "--length", "1000000", "--dim", "1024",
                              "--width", "1280", "--height", "800"},
                             dir);
    std::printf("%-16s peak RSS %6.1f MiB  %5.2f s\n", v.c_str(), double(r.max_rss_kib) / 1024.0, r.seconds);
    EXPECT_EQ(r.exit_code, 0) << v << ":\n" << r.out;
    EXPECT_TRUE(fs::exists(png)) << v;
    EXPECT_LT(r.max_rss_kib, kLimitKiB) << v << " peaked at " << r.max_rss_kib / 1024 << " MiB";
  }
  fs::remove_all(dir.parent_path());
}

// The learned view holds max_len × d floats three times (table, transpose, texture): at
// 8192 × 8192 (256 MiB each) it must say so instead of allocating. A session file sets
// max_len (it has no CLI option); the peak RSS shows nothing of that size was allocated.
TEST(ExtremeSizes, LearnedTableOverTheViewBudgetIsRefusedNotAllocated) {
  const fs::path dir = scratch("learned");
  const fs::path session = dir / "session.json";
  {
    std::ofstream out(session);
    out << R"({"pe_viz_session": 1, "learned_max_len": 8192})";
  }
  const fs::path png = dir / "learned.png";
  const ChildRun r = run_pe_viz({"--session", session.string(), "--screenshot", png.string(), "--view", "learned", "--dim", "8192",
                            "--width", "800", "--height", "600"},
                           dir);
  std::printf("learned 8192 x 8192: peak RSS %.1f MiB\n", double(r.max_rss_kib) / 1024.0);
  EXPECT_EQ(r.exit_code, 0) << r.out;
  EXPECT_TRUE(fs::exists(png));
  // The table alone would be 256 MiB, and the view would hold it three times.
  EXPECT_LT(r.max_rss_kib, 256L * 1024L) << "peak " << r.max_rss_kib / 1024 << " MiB: the table was allocated";
  fs::remove_all(dir.parent_path());
}

}  // namespace
