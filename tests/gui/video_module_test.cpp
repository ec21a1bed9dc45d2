// Video export's FFmpeg module (export/video_module.hpp): pe-viz starts without FFmpeg
// linked, finds pe-viz-video.so where it is installed, and when it is missing or broken
// says which paths it tried and why — while PNG export keeps working.
#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "export/video_module.hpp"
#include "test_support.hpp"

namespace {

namespace fs = std::filesystem;
using pe_test::shell_quote;

struct Outcome {
  int exit_code = -1;
  std::string output;  // stdout and stderr
};

Outcome run(const std::string& command) {
  Outcome r;
  FILE* pipe = popen((command + " 2>&1").c_str(), "r");
  if (!pipe) return r;
  char buf[4096];
  std::size_t n;
  while ((n = fread(buf, 1, sizeof buf, pipe)) > 0) r.output.append(buf, n);
  const int status = pclose(pipe);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

class VideoModuleInstall : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string t = (fs::temp_directory_path() / "pe-viz-module-XXXXXX").string();
    ASSERT_NE(mkdtemp(t.data()), nullptr);
    root_ = t;
    fs::create_directories(root_ / "bin");
    fs::create_directories(root_ / "home");
    fs::copy_file(PE_VIZ_BINARY, root_ / "bin" / "pe-viz");
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(root_, ec);
  }
  // The copied binary, no display, a throwaway HOME, PE_VIZ_VIDEO_MODULE as given ("" = unset).
  Outcome pe_viz(const std::string& args, const std::string& module_env = "") {
    const std::string env = module_env.empty() ? "-u PE_VIZ_VIDEO_MODULE" : "PE_VIZ_VIDEO_MODULE=" + shell_quote(module_env);
    return run("env -u DISPLAY -u WAYLAND_DISPLAY " + env + " HOME=" + shell_quote((root_ / "home").string()) + " XDG_CONFIG_HOME=" +
               shell_quote((root_ / "home" / ".config").string()) + " " + shell_quote((root_ / "bin" / "pe-viz").string()) + " " + args);
  }
  std::string video_args(const fs::path& out) {
    return "export --view clock-hands --animate position=0:4 --duration 0.2 --size 64x48 -o " + shell_quote(out.string());
  }
  fs::path root_;
};

TEST(VideoModule, TheBinaryDoesNotLinkFfmpeg) {
  // The point of the module: FFmpeg's ~150 libraries are not loaded at every start.
  const Outcome ldd = run("ldd " + shell_quote(PE_VIZ_BINARY));
  ASSERT_EQ(ldd.exit_code, 0) << ldd.output;
  EXPECT_EQ(ldd.output.find("libavcodec"), std::string::npos) << ldd.output;
  EXPECT_EQ(ldd.output.find("libavfilter"), std::string::npos) << ldd.output;
  const Outcome module = run("ldd " + shell_quote(PE_VIZ_VIDEO_MODULE_FILE));
  EXPECT_NE(module.output.find("libavcodec"), std::string::npos) << module.output;
}

TEST(VideoModule, CandidatesInSearchOrder) {
  const char* before = std::getenv("PE_VIZ_VIDEO_MODULE");
  const std::string saved = before ? before : "";
  setenv("PE_VIZ_VIDEO_MODULE", "/somewhere/m.so", 1);
  const auto with_env = app::video_module_candidates();
  unsetenv("PE_VIZ_VIDEO_MODULE");
  const auto without = app::video_module_candidates();
  if (before) setenv("PE_VIZ_VIDEO_MODULE", saved.c_str(), 1);
  const fs::path exe_dir = fs::read_symlink("/proc/self/exe").parent_path();
  ASSERT_EQ(with_env.size(), 3u);
  EXPECT_EQ(with_env[0], "/somewhere/m.so");
  ASSERT_EQ(without.size(), 2u);
  EXPECT_EQ(without[0], (exe_dir / "pe-viz-video.so").string());
  EXPECT_EQ(without[1], (exe_dir.parent_path() / "lib" / "pe-viz" / "modules" / "pe-viz-video.so").string());
  EXPECT_EQ(with_env[1], without[0]);
}

TEST_F(VideoModuleInstall, FoundInTheInstalledLayout) {
  fs::create_directories(root_ / "lib" / "pe-viz" / "modules");
  fs::copy_file(PE_VIZ_VIDEO_MODULE_FILE, root_ / "lib" / "pe-viz" / "modules" / "pe-viz-video.so");
  const fs::path out = root_ / "clip.mp4";
  const Outcome r = pe_viz(video_args(out));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  std::ifstream in(out, std::ios::binary);
  char head[12] = {};
  in.read(head, sizeof head);
  EXPECT_EQ(std::string(head + 4, 4), "ftyp") << "not an MP4";
}

TEST_F(VideoModuleInstall, MissingModuleIsExplainedAndPngExportStillWorks) {
  const fs::path out = root_ / "clip.mp4", png = root_ / "still.png";
  const std::string nowhere = (root_ / "nowhere.so").string();
  const Outcome r = pe_viz(video_args(out), nowhere);
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.output.find("pe-viz-video.so"), std::string::npos) << r.output;
  for (const fs::path& p : {fs::path(nowhere), root_ / "bin" / "pe-viz-video.so", root_ / "lib" / "pe-viz" / "modules" / "pe-viz-video.so"})
    EXPECT_NE(r.output.find(p.string() + ": not found"), std::string::npos) << p << "\n" << r.output;
  EXPECT_FALSE(fs::exists(out));
  for (const auto& entry : fs::directory_iterator(root_)) EXPECT_EQ(entry.path().string().find("clip.mp4"), std::string::npos) << entry.path();
  const Outcome still = pe_viz("export --view rope-cos --size 64x48 -o " + shell_quote(png.string()), nowhere);
  EXPECT_EQ(still.exit_code, 0) << still.output;
  EXPECT_TRUE(fs::exists(png));
}

TEST_F(VideoModuleInstall, AFileThatIsNotALibraryGetsTheLoadersReason) {
  const fs::path fake = root_ / "fake.so";
  std::ofstream(fake) << "not an ELF file\n";
  const Outcome r = pe_viz(video_args(root_ / "clip.webm"), fake.string());
  EXPECT_NE(r.exit_code, 0);
  // dlerror's text follows the path (glibc: "invalid ELF header" or "file too short").
  const auto at = r.output.find(fake.string() + ": ");
  ASSERT_NE(at, std::string::npos) << r.output;
  EXPECT_EQ(r.output.find(fake.string() + ": not found"), std::string::npos) << r.output;
  EXPECT_FALSE(fs::exists(root_ / "clip.webm"));
}

}  // namespace
