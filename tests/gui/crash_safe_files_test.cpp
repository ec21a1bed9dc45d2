// Crash-safe files (issue 8): a writer SIGKILLed half-way leaves the previous file
// byte-identical, and its temporary is swept by the next write into that directory or the
// next start of pe-viz — while a live writer's temporary is never touched.
//
// PE_VIZ_TEST_STALL_WRITE_MS (platform/atomic_file.cpp) makes a writer pause after half its
// bytes, so the kill lands while the temporary is genuinely half written.
#include <signal.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/time.h>

#include "child_process.hpp"
#include "platform/atomic_file.hpp"
#include "state/session_file.hpp"
#include "test_support.hpp"

namespace {

using namespace pe_test;

std::vector<fs::path> temporaries(const fs::path& dir) {
  std::vector<fs::path> out;
  for (const auto& e : fs::directory_iterator(dir))
    if (app::is_atomic_temp_name(e.path().filename().string())) out.push_back(e.path());
  return out;
}

// The first of our temporaries in `dir` that already holds data, if any.
std::optional<fs::path> half_written_temporary(const fs::path& dir) {
  for (const auto& p : temporaries(dir)) {
    std::error_code ec;
    if (fs::file_size(p, ec) > 0 && !ec) return p;
  }
  return std::nullopt;
}

const std::string kOldBytes = "the previous export: these bytes must survive\n";

class CrashSafeFiles : public ::testing::Test {
 protected:
  TempDir tmp;
  fs::path out_dir() const { return tmp / "out"; }
  fs::path home() const { return tmp / "home"; }
  fs::path io() const { return tmp / "io"; }
  void SetUp() override {
    for (const auto& d : {out_dir(), home(), io()}) fs::create_directories(d);
  }
  std::vector<std::string> env(long stall_ms = 0) const {
    auto e = isolated_env(home());
    if (stall_ms > 0) e.push_back("PE_VIZ_TEST_STALL_WRITE_MS=" + std::to_string(stall_ms));
    return e;
  }
  // Starts a (stalling) export of `size` to `target` and SIGKILLs it once its temporary
  // holds data. Returns the temporary it left.
  fs::path kill_export_mid_write(const fs::path& target, const std::string& size) {
    Child writer({"export", "--view", "sinusoidal", "--size", size, "-o", target.string()}, env(60'000), io());
    std::optional<fs::path> temp;
    const ChildResult r = writer.wait(240, [&] {
      if (!temp && (temp = half_written_temporary(target.parent_path()))) ::kill(writer.pid(), SIGKILL);
    });
    EXPECT_TRUE(temp.has_value()) << "no temporary appeared before the export ended\n" << describe(r);
    EXPECT_EQ(r.signal, SIGKILL) << describe(r);
    return temp.value_or(fs::path());
  }
};

TEST_F(CrashSafeFiles, KilledExportLeavesThePreviousPngAndTheNextWriteSweepsItsTemporary) {
  const fs::path target = out_dir() / "out.png";
  std::ofstream(target, std::ios::binary) << kOldBytes;
  const fs::path temp = kill_export_mid_write(target, "7680x4320");
  EXPECT_EQ(read_file(target), kOldBytes) << "the killed export changed out.png";
  ASSERT_TRUE(fs::exists(temp)) << "the test meant to leave a half-written temporary";
  EXPECT_GT(fs::file_size(temp), 0u);

  // The next export into the directory removes the dead writer's temporary.
  Child next({"export", "--view", "sinusoidal", "--size", "320x240", "-o", target.string()}, env(), io());
  const ChildResult r = next.wait(120);
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(out_dir())) names.push_back(e.path().filename().string());
  EXPECT_EQ(names, std::vector<std::string>{"out.png"}) << "a temporary was left behind";
  const PngHeader h = read_png_header(target);
  ASSERT_TRUE(h.ok) << h.error;
  EXPECT_EQ(h.width, 320u);
}

TEST_F(CrashSafeFiles, ALiveWritersTemporaryIsNotSweptByAnotherWriter) {
  // Writer 1 stalls half-way through a.png; writer 2 exports b.png into the same directory.
  Child slow({"export", "--view", "alibi", "--size", "640x480", "-o", (out_dir() / "a.png").string()}, env(60'000), io());
  std::optional<fs::path> temp;
  for (int i = 0; i < 24'000 && !temp; ++i) {  // up to 120 s (sanitizer builds start slowly)
    temp = half_written_temporary(out_dir());
    if (!temp) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  ASSERT_TRUE(temp.has_value()) << "writer 1 never started writing";
  Child other({"export", "--view", "alibi", "--size", "320x240", "-o", (out_dir() / "b.png").string()}, env(), io());
  const ChildResult r = other.wait(120);
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_TRUE(fs::exists(*temp)) << "writer 2 deleted the temporary of a writer still at work";
  EXPECT_FALSE(fs::exists(out_dir() / "a.png"));

  // Once writer 1 is dead, its temporary is fair game.
  slow.kill_and_wait();
  EXPECT_EQ(app::remove_stale_temp_files(out_dir()), 1u);
  EXPECT_FALSE(fs::exists(*temp));
}

TEST_F(CrashSafeFiles, KilledSessionSaveLeavesThePreviousSessionAndTheNextStartSweeps) {
  // The autosave path of the isolated HOME, holding a known earlier session.
  const fs::path config = home() / ".config" / "pe-viz";
  fs::create_directories(config);
  const fs::path session = config / "last-session.json";
  app::AppState old_state = app::default_state();
  old_state.view = "alibi";
  app::save_session(session, old_state);
  const std::string before = read_file(session);

  app::AppState new_state = app::default_state();
  new_state.view = "clock-hands";
  new_state.length = 333;
  const pid_t pid = ::fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    // The real save_session, stalled half-way through its bytes.
    ::setenv("PE_VIZ_TEST_STALL_WRITE_MS", "60000", 1);
    try {
      app::save_session(session, new_state);
    } catch (...) {
    }
    ::_exit(0);
  }
  std::optional<fs::path> temp;
  for (int i = 0; i < 12'000 && !temp; ++i) {
    temp = half_written_temporary(config);
    if (!temp) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  ::kill(pid, SIGKILL);
  int status = 0;
  ::waitpid(pid, &status, 0);
  ASSERT_TRUE(temp.has_value()) << "the save never started writing";
  EXPECT_TRUE(WIFSIGNALED(status));
  EXPECT_EQ(read_file(session), before) << "the killed save changed the session file";
  EXPECT_TRUE(fs::exists(*temp));
  std::vector<std::string> warnings;
  EXPECT_EQ(app::load_session(session, app::default_state(), warnings).view, "alibi");

  // The next start of pe-viz (a scripted screenshot) sweeps the config directory.
  Child start({"--screenshot", (out_dir() / "shot.png").string(), "--view", "alibi", "--frames", "1", "--width", "320",
               "--height", "240"},
              env(), io());
  const ChildResult r = start.wait(120);
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_TRUE(temporaries(config).empty()) << "the next start left the dead save's temporary";
  EXPECT_EQ(read_file(session), before);
}

// ---- the sweeping rules, in-process ----

fs::path make_temp(const fs::path& dir, const std::string& name, long age_seconds = 0) {
  const fs::path p = dir / name;
  std::ofstream(p) << "partial";
  if (age_seconds > 0) {
    const timeval times[2] = {{::time(nullptr) - age_seconds, 0}, {::time(nullptr) - age_seconds, 0}};
    ::utimes(p.c_str(), times);
  }
  return p;
}

pid_t dead_pid() {
  const pid_t pid = ::fork();
  if (pid == 0) ::_exit(0);
  int status = 0;
  ::waitpid(pid, &status, 0);
  return pid;
}

TEST(AtomicTempNames, OnlyOurExactPattern) {
  EXPECT_TRUE(app::is_atomic_temp_name(".out.png.pe-viz-tmp-123-a1B2c3"));
  EXPECT_TRUE(app::is_atomic_temp_name(".last-session.json.pe-viz-tmp-9-XXXXXX"));
  for (const char* other : {"out.png.pe-viz-tmp-123-a1B2c3", ".out.png.pe-viz-tmp-123-a1B2c", ".out.png.pe-viz-tmp-123-a1B2c34",
                            ".out.png.pe-viz-tmp--a1B2c3", ".out.png.pe-viz-tmp-12x-a1B2c3", ".out.png.XXXXXX", ".pe-viz-tmp-1-abcdef",
                            ".out.png.pe-viz-tmp-123-a1B2c!", "out.png", ".out.png.swp"})
    EXPECT_FALSE(app::is_atomic_temp_name(other)) << other;
}

TEST(AtomicTempSweep, RemovesDeadOrOldUnlockedTemporariesOnly) {
  TempDir dir;
  const std::string dead = std::to_string(dead_pid()), self = std::to_string(::getpid());
  const fs::path dead_writer = make_temp(dir.path(), ".a.png.pe-viz-tmp-" + dead + "-abcdef");
  const fs::path fresh_live = make_temp(dir.path(), ".b.png.pe-viz-tmp-" + self + "-abcdef");
  const fs::path old_live = make_temp(dir.path(), ".c.png.pe-viz-tmp-" + self + "-abcdef", 600);
  const fs::path locked_dead = make_temp(dir.path(), ".d.png.pe-viz-tmp-" + dead + "-abcdef");
  const fs::path not_ours = make_temp(dir.path(), ".e.png." + dead + "-abcdef", 600);
  const fs::path user_file = make_temp(dir.path(), "f.png", 600);
  const int lock = ::open(locked_dead.c_str(), O_RDONLY);
  ASSERT_GE(lock, 0);
  ASSERT_EQ(::flock(lock, LOCK_EX), 0);  // as a writer (on another host, or pid reused) would

  EXPECT_EQ(app::remove_stale_temp_files(dir.path()), 2u);
  EXPECT_FALSE(fs::exists(dead_writer));
  EXPECT_TRUE(fs::exists(fresh_live)) << "a live writer's temporary, unlocked for an instant after mkstemp";
  EXPECT_FALSE(fs::exists(old_live));
  EXPECT_TRUE(fs::exists(locked_dead)) << "a locked temporary belongs to a writer at work";
  EXPECT_TRUE(fs::exists(not_ours));
  EXPECT_TRUE(fs::exists(user_file));
  ::close(lock);
  EXPECT_EQ(app::remove_stale_temp_files(dir.path()), 1u);
  EXPECT_FALSE(fs::exists(locked_dead));
  EXPECT_EQ(app::remove_stale_temp_files(dir.path() / "missing"), 0u);
}

TEST(AtomicFile, RefusesReadOnlyTargetsAndDirectoriesLeavingNothing) {
  TempDir dir;
  const fs::path ro = dir / "ro.json";
  std::ofstream(ro) << "keep";
  fs::permissions(ro, fs::perms::owner_read);
  EXPECT_THROW(app::write_file_atomic(ro, "new"), std::runtime_error);
  EXPECT_EQ(read_file(ro), "keep");
  try {
    app::write_file_atomic(dir.path(), "new");
    ADD_FAILURE() << "wrote over a directory";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find(dir.path().string()), std::string::npos) << e.what();
  }
  EXPECT_EQ(dir.entries(), std::vector<std::string>{"ro.json"});
}

TEST(AtomicFile, UncommittedFileLeavesTheTargetAlone) {
  TempDir dir;
  const fs::path target = dir / "t.csv";
  std::ofstream(target) << "old";
  {
    app::AtomicFile f(target);
    f.write("new", 3);
    EXPECT_TRUE(fs::exists(f.temp_path()));
  }
  EXPECT_EQ(read_file(target), "old");
  EXPECT_EQ(dir.entries(), std::vector<std::string>{"t.csv"});
}

}  // namespace
