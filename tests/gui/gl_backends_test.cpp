// One rendering path, two ways to get its OpenGL context: EGL surfaceless (no display
// server) and a hidden GLFW window. The same view through each must give the same PNG,
// byte for byte; and a visible GLFW window's back buffer must hold the same pixels as
// the offscreen framebuffer. Needs a display for the GLFW half: label gui-window, run
// under xvfb-run -a -s "-screen 0 1920x1200x24" (scripts/test.sh does).
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include <cstdlib>
#include <memory>
#include <string>

#include "test_support.hpp"

namespace {

using namespace pe_test;

struct Outcome {
  int exit_code = -1;
  std::string out, err;
};

// pe-viz with `env` (e.g. "-u DISPLAY PE_VIZ_GL=egl", arguments to env(1)), a private
// HOME, in `dir`.
Outcome run(const std::string& env, const std::string& args, const TempDir& dir) {
  const fs::path out = dir / "stdout.txt", err = dir / "stderr.txt";
  const std::string cmd = "cd " + shell_quote(dir.path().string()) + " && env " + env + " HOME=" + shell_quote(dir.path().string()) +
                          " XDG_CONFIG_HOME=" + shell_quote((dir / ".config").string()) + " " + shell_quote(PE_VIZ_BINARY) + " " +
                          args + " >" + shell_quote(out.string()) + " 2>" + shell_quote(err.string());
  const int status = std::system(cmd.c_str());
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, read_file(out), read_file(err)};
}

std::string describe(const Outcome& r) { return "exit " + std::to_string(r.exit_code) + "\nstdout: " + r.out + "\nstderr: " + r.err; }

constexpr const char* kEgl = "-u DISPLAY -u WAYLAND_DISPLAY PE_VIZ_GL=egl";  // cannot reach X even if it wanted to
constexpr const char* kGlfw = "PE_VIZ_GL=glfw";

class GlBackendsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!std::getenv("DISPLAY")) FAIL() << "needs a display for the GLFW half: run under xvfb-run -a";
  }
  // Renders `args` (writing `file`) through each backend; expects identical bytes.
  void expect_identical(const std::string& args, const std::string& file) {
    TempDir egl_dir, glfw_dir;
    const Outcome egl = run(kEgl, args, egl_dir);
    ASSERT_EQ(egl.exit_code, 0) << describe(egl);
    const Outcome glfw = run(kGlfw, args, glfw_dir);
    ASSERT_EQ(glfw.exit_code, 0) << describe(glfw);
    const Image a = decode_png(egl_dir / file), b = decode_png(glfw_dir / file);
    ASSERT_TRUE(a.valid() && b.valid());
    EXPECT_TRUE(is_not_blank(a, whole(a)));
    EXPECT_EQ(differing_pixels(a, b), 0u) << args;
    EXPECT_TRUE(read_file(egl_dir / file) == read_file(glfw_dir / file)) << "PNG files differ: " << args;
  }
};

// Proof that the runs below use two different kinds of context: without a display the
// GLFW backend cannot start, the EGL one can.
TEST_F(GlBackendsTest, GlfwNeedsTheDisplayAndEglDoesNot) {
  TempDir dir;
  const Outcome glfw = run(std::string("-u DISPLAY -u WAYLAND_DISPLAY ") + kGlfw, "export --view alibi --size 200x100 -o a.png", dir);
  EXPECT_EQ(glfw.exit_code, 1) << describe(glfw);
  EXPECT_NE(glfw.err.find("PE_VIZ_GL=glfw: no hidden window"), std::string::npos) << glfw.err;
  const Outcome egl = run(kEgl, "export --view alibi --size 200x100 -o a.png", dir);
  EXPECT_EQ(egl.exit_code, 0) << describe(egl);
  const Outcome bench = run(kEgl, "bench --frames 10 --views alibi --length 128 --dim 64", dir);
  EXPECT_EQ(bench.exit_code, 0) << describe(bench);
  EXPECT_NE(bench.out.find("via EGL"), std::string::npos) << bench.out;
  const Outcome bench_glfw = run(kGlfw, "bench --frames 10 --views alibi --length 128 --dim 64", dir);
  EXPECT_EQ(bench_glfw.exit_code, 0) << describe(bench_glfw);
  EXPECT_NE(bench_glfw.out.find("via GLFW"), std::string::npos) << bench_glfw.out;
}

TEST_F(GlBackendsTest, ExportsAreIdentical) {
  for (const char* view : {"rope-cos", "clock-hands", "attention", "scaling"}) {
    SCOPED_TRACE(view);
    expect_identical(std::string("export --view ") + view + " --size 960x600 -o out.png", "out.png");
  }
  expect_identical("export --view relative-score --preset llama-3.1-8b --size 3840x2160 --background white -o big.png", "big.png");
}

TEST_F(GlBackendsTest, ScreenshotsOfTheWholeWindowAreIdentical) {
  expect_identical("--screenshot shot.png --view walkthrough --width 1100 --height 700 --ui-scale 1.5", "shot.png");
  expect_identical("--screenshot shot.png --view rope-cos --light --width 800 --height 600", "shot.png");
}

// The interactive window draws into its back buffer through imgui_impl_glfw; the same
// frame offscreen (EGL) must match it. Not bit for bit: the X visual's framebuffer has
// another pixel format than the RGBA8 texture, and llvmpipe rounds blended edges of
// text and widgets by one level differently there (measured: 45 of 540000 pixels, ±1).
TEST_F(GlBackendsTest, VisibleWindowMatchesTheOffscreenFramebuffer) {
  constexpr int kW = 900, kH = 600;
  std::vector<unsigned char> window_pixels;
  {
    app::AppSession s(known_state("clock-hands"), {.width = kW, .height = kH, .visible = true, .content_scale = 1.0f});
    ASSERT_EQ(s.window().backend(), app::GlBackend::Glfw);
    ASSERT_NE(s.window().handle(), nullptr);
    ASSERT_FALSE(s.window().offscreen());
    // The pointer away from the window: no hover highlight in either.
    glfwSetCursorPos(s.window().handle(), -1000.0, -1000.0);
    for (int f = 0; f < 4; ++f) {
      s.frame(0.0);
      if (f < 3) s.window().swap();
    }
    ASSERT_EQ(s.window().framebuffer_width(), kW) << "Xvfb has no window manager to resize it";
    ASSERT_EQ(s.window().framebuffer_height(), kH);
    window_pixels = s.read_window_pixels();
  }
  app::AppSession offscreen(known_state("clock-hands"), {.width = kW, .height = kH, .visible = false, .backend = app::GlBackend::Egl});
  for (int f = 0; f < 4; ++f) offscreen.frame(0.0);
  const Image a(kW, kH, window_pixels), b(kW, kH, offscreen.read_window_pixels());
  EXPECT_TRUE(is_not_blank(a, whole(a)));
  int max_difference = 0;
  for (std::size_t i = 0; i < a.rgba.size(); ++i) max_difference = std::max(max_difference, std::abs(a.rgba[i] - b.rgba[i]));
  EXPECT_LE(max_difference, 1);
  EXPECT_LT(differing_pixels(a, b), std::size_t(kW) * kH / 1000) << "more than 0.1% of the pixels differ";
  if (const char* dir = std::getenv("PE_TEST_IMAGE_DIR")) {
    write_ppm(fs::path(dir) / "visible_window.ppm", a);
    write_ppm(fs::path(dir) / "offscreen_egl.ppm", b);
  }
}

// A visible window on a (faked) 2× monitor rasterises its fonts at 32 px.
TEST_F(GlBackendsTest, VisibleWindowFontsFollowTheContentScale) {
  app::AppSession s(known_state("rope-cos"), {.width = 800, .height = 500, .visible = true, .content_scale = 2.0f});
  s.frame(0.0);
  EXPECT_FLOAT_EQ(ImGui::GetIO().Fonts->Fonts[0]->FontSize, 32.0f);
  EXPECT_FLOAT_EQ(s.window().ui_scale(), 2.0f);  // X11: one pixel per screen coordinate
  s.window().swap();
}

}  // namespace
