// The platform layer without any display server: with DISPLAY and WAYLAND_DISPLAY unset,
// an offscreen window is an EGL surfaceless context rendering into a framebuffer object
// of the requested size; ImGui gets its frame size, time step and key map from us. Also
// the HiDPI arithmetic: fonts rasterised at 16 px × UI scale × content scale (a faked
// content scale, as Xvfb and EGL report 1), and the environment variables' errors.
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <stdlib.h>

#include <memory>
#include <optional>
#include <string>

#include "pe/base/errors.hpp"
#include "platform/display_scale.hpp"
#include "platform/gl_backend.hpp"
#include "test_support.hpp"

namespace {

using namespace pe_test;

// Unsets an environment variable for one test and puts it back afterwards.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const char* value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    if (value) ::setenv(name, value, 1); else ::unsetenv(name);
  }
  ~ScopedEnv() {
    if (old_) ::setenv(name_, old_->c_str(), 1); else ::unsetenv(name_);
  }

 private:
  const char* name_;
  std::optional<std::string> old_;
};

class HeadlessPlatformTest : public ::testing::Test {
 protected:
  // No display server reachable: whatever works here works on a machine without X.
  ScopedEnv no_x_{"DISPLAY", nullptr};
  ScopedEnv no_wayland_{"WAYLAND_DISPLAY", nullptr};
  ScopedEnv auto_backend_{"PE_VIZ_GL", nullptr};
  ScopedEnv no_fake_scale_{"PE_VIZ_CONTENT_SCALE", nullptr};

  static std::unique_ptr<app::AppSession> session(int width, int height, float content_scale = 0.0f,
                                                  const std::string& view = "rope-cos") {
    return std::make_unique<app::AppSession>(
        known_state(view), app::WindowOptions{.width = width, .height = height, .visible = false, .content_scale = content_scale});
  }
};

TEST_F(HeadlessPlatformTest, OffscreenWindowIsEglWithoutADisplayAndRendersItsSize) {
  auto s = session(640, 400);
  app::Window& w = s->window();
  EXPECT_EQ(w.backend(), app::GlBackend::Egl) << w.context_description();
  EXPECT_EQ(w.handle(), nullptr);
  EXPECT_TRUE(w.offscreen());
  EXPECT_NE(w.context_description().find("EGL"), std::string::npos) << w.context_description();
  EXPECT_FALSE(w.should_close());
  for (int f = 0; f < 3; ++f) s->frame(0.0);
  EXPECT_EQ(ImGui::GetIO().DisplaySize.x, 640.0f);
  EXPECT_EQ(ImGui::GetIO().DisplaySize.y, 400.0f);
  EXPECT_EQ(ImGui::GetIO().DeltaTime, 1.0f / 60.0f);
  ASSERT_EQ(w.framebuffer_width(), 640);
  ASSERT_EQ(w.framebuffer_height(), 400);
  const Image im(640, 400, s->read_window_pixels());
  ASSERT_TRUE(im.valid());
  EXPECT_TRUE(is_not_blank(im, whole(im)));
  for (std::size_t i = 3; i < im.rgba.size(); i += 4) ASSERT_EQ(im.rgba[i], 255) << "window pixels are opaque";
  EXPECT_TRUE(render::drain_gl_errors().empty());
}

TEST_F(HeadlessPlatformTest, SetSizeResizesTheOffscreenTargetAndTheLayout) {
  auto s = session(640, 400);
  s->frame(0.0);
  s->window().set_size(800, 300);
  for (int f = 0; f < 2; ++f) s->frame(0.0);
  EXPECT_EQ(s->window().framebuffer_width(), 800);
  EXPECT_EQ(s->window().framebuffer_height(), 300);
  EXPECT_EQ(ImGui::GetIO().DisplaySize.x, 800.0f);
  EXPECT_EQ(s->read_window_pixels().size(), std::size_t(800) * 300 * 4);
  int w = 0, h = 0;
  s->window().remembered_size(w, h);
  EXPECT_EQ(w, 800);
  EXPECT_EQ(h, 300);
}

// The same frames give the same pixels: nothing in the headless input depends on time.
// (Enough frames for the plots' auto-fitted axes to settle; their cache outlives a session.)
TEST_F(HeadlessPlatformTest, TwoSessionsRenderIdenticalFrames) {
  std::vector<unsigned char> first;
  for (int run = 0; run < 2; ++run) {
    auto s = session(500, 320, 0.0f, "clock-hands");
    for (int f = 0; f < 8; ++f) s->frame(f / 60.0);
    if (run == 0) first = s->read_window_pixels();
    else {
      const Image a(500, 320, first), b(500, 320, s->read_window_pixels());
      EXPECT_EQ(differing_pixels(a, b), 0u) << "frame differs between two identical sessions";
      if (const char* dir = std::getenv("PE_TEST_IMAGE_DIR")) {
        write_ppm(fs::path(dir) / "session1.ppm", a);
        write_ppm(fs::path(dir) / "session2.ppm", b);
      }
    }
  }
}

TEST_F(HeadlessPlatformTest, KeysArePressedByGlfwKeyCodeAsWithAWindow) {
  auto s = session(320, 240);
  const ImGuiIO& io = ImGui::GetIO();
  EXPECT_EQ(io.KeyMap[ImGuiKey_Tab], GLFW_KEY_TAB);
  EXPECT_EQ(io.KeyMap[ImGuiKey_Escape], GLFW_KEY_ESCAPE);
  EXPECT_EQ(io.KeyMap[ImGuiKey_Enter], GLFW_KEY_ENTER);
  EXPECT_EQ(io.KeyMap[ImGuiKey_Z], GLFW_KEY_Z);
}

// 16 px × UI scale × content scale, worked by hand: 16 × 1.5 × 2 = 48 px glyphs, and
// style sizes 1.5 × 2 = 3 times ImGui's defaults.
TEST_F(HeadlessPlatformTest, FontsAreRasterisedAtUiScaleTimesContentScale) {
  // 960 logical pixels wide: the wide layout, where the UI scale is the user's (a narrower
  // window caps it: narrow_layout_test).
  auto s = session(1920, 1000, 2.0f);
  EXPECT_EQ(s->window().content_scale(), 2.0f);
  s->state().ui_scale = 1.5f;
  s->frame(0.0);
  ImFontAtlas* atlas = ImGui::GetIO().Fonts;
  ASSERT_EQ(atlas->Fonts.Size, 1);
  EXPECT_FLOAT_EQ(atlas->Fonts[0]->FontSize, 48.0f);
  EXPECT_FLOAT_EQ(ImGui::GetIO().FontGlobalScale, 1.0f);  // offscreen: one pixel per screen coordinate
  EXPECT_FLOAT_EQ(s->window().ui_scale(), 3.0f);
  const ImGuiStyle defaults;
  EXPECT_FLOAT_EQ(ImGui::GetStyle().FramePadding.x, defaults.FramePadding.x * 3.0f);
  EXPECT_FLOAT_EQ(ImGui::GetStyle().ItemSpacing.y, defaults.ItemSpacing.y * 3.0f);
  const int big_atlas_area = atlas->TexWidth * atlas->TexHeight;

  // Back to 1 × 2: 32 px glyphs, a smaller atlas (same glyphs, fewer pixels each).
  s->state().ui_scale = 1.0f;
  s->frame(0.0);
  EXPECT_FLOAT_EQ(ImGui::GetIO().Fonts->Fonts[0]->FontSize, 32.0f);
  EXPECT_LT(ImGui::GetIO().Fonts->TexWidth * ImGui::GetIO().Fonts->TexHeight, big_atlas_area);
}

TEST_F(HeadlessPlatformTest, ContentScaleComesFromTheEnvironmentWhenNotGiven) {
  ScopedEnv scale("PE_VIZ_CONTENT_SCALE", "1.25");
  auto s = session(400, 300);
  s->frame(0.0);
  EXPECT_EQ(s->window().content_scale(), 1.25f);
  EXPECT_FLOAT_EQ(ImGui::GetIO().Fonts->Fonts[0]->FontSize, 20.0f);  // 16 × 1 × 1.25
}

TEST_F(HeadlessPlatformTest, ExportsIgnoreTheContentScale) {
  // A 1600×1000 export is drawn at scale 1 on any monitor: reproducible files.
  auto s = session(400, 300, 2.0f);
  s->frame(0.0);
  s->window().set_render_scale(1.0f);
  EXPECT_FLOAT_EQ(ImGui::GetIO().Fonts->Fonts[0]->FontSize, 16.0f);
  s->frame(0.0);  // the next window frame puts the window's scale back
  EXPECT_FLOAT_EQ(ImGui::GetIO().Fonts->Fonts[0]->FontSize, 32.0f);
}

TEST_F(HeadlessPlatformTest, BadEnvironmentValuesAreErrorsNamingTheVariable) {
  {
    ScopedEnv bad("PE_VIZ_CONTENT_SCALE", "big");
    try {
      session(320, 240);
      FAIL() << "expected an error";
    } catch (const pe::InvalidArgument& e) {
      EXPECT_EQ(e.parameter(), "PE_VIZ_CONTENT_SCALE");
      EXPECT_EQ(e.value(), "big");
      EXPECT_EQ(e.allowed(), "a number 0.5 ... 4");
    }
  }
  {
    ScopedEnv bad("PE_VIZ_GL", "vulkan");
    try {
      session(320, 240);
      FAIL() << "expected an error";
    } catch (const pe::InvalidArgument& e) {
      EXPECT_EQ(e.parameter(), "PE_VIZ_GL");
      EXPECT_EQ(e.allowed(), "egl, glfw or auto");
    }
  }
}

TEST_F(HeadlessPlatformTest, ForcedGlfwWithoutADisplayFailsWithAdvice) {
  ScopedEnv glfw("PE_VIZ_GL", "glfw");
  try {
    session(320, 240);
    FAIL() << "a GLFW window without a display server";
  } catch (const std::runtime_error& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("PE_VIZ_GL=glfw"), std::string::npos) << message;
    EXPECT_NE(message.find("xvfb-run"), std::string::npos) << message;
    EXPECT_NE(message.find("unset PE_VIZ_GL"), std::string::npos) << message;
  }
}

TEST(GlBackendNames, ParseAndPrint) {
  EXPECT_EQ(app::parse_gl_backend("egl"), app::GlBackend::Egl);
  EXPECT_EQ(app::parse_gl_backend("GLFW"), app::GlBackend::Glfw);
  EXPECT_EQ(app::parse_gl_backend("auto"), app::GlBackend::Auto);
  EXPECT_THROW(app::parse_gl_backend(""), pe::InvalidArgument);
  EXPECT_STREQ(app::to_string(app::GlBackend::Egl), "egl");
  EXPECT_STREQ(app::to_string(app::GlBackend::Glfw), "glfw");
}

// display_scale.hpp's three cases, by hand: u = UI scale, c = content scale, f =
// framebuffer pixels per screen coordinate.
TEST(FontScaleArithmetic, X11MacOsAndWaylandCases) {
  // X11/Windows at 200 %: the window grew (f = 1); layout and glyphs both × 2.
  EXPECT_EQ(app::window_font_scale(1.0f, 2.0f, 1.0f), (app::FontScale{.atlas_pixels = 32.0f, .layout = 2.0f, .global = 1.0f}));
  // macOS/Wayland at 200 %: coordinates stay, pixels double (f = 2): layout × 1, glyphs
  // rasterised at 32 px and drawn at half that in coordinates, i.e. one texel per pixel.
  EXPECT_EQ(app::window_font_scale(1.0f, 2.0f, 2.0f), (app::FontScale{.atlas_pixels = 32.0f, .layout = 1.0f, .global = 0.5f}));
  // Projector UI scale 3 on a 150 % monitor (X11): 16 × 3 × 1.5 = 72 px, layout 4.5.
  EXPECT_EQ(app::window_font_scale(3.0f, 1.5f, 1.0f), (app::FontScale{.atlas_pixels = 72.0f, .layout = 4.5f, .global = 1.0f}));
  // The UI scale's limits hold (1 ... 3).
  EXPECT_EQ(app::window_font_scale(5.0f, 1.0f, 1.0f).atlas_pixels, 48.0f);
  EXPECT_EQ(app::window_font_scale(0.2f, 1.0f, 1.0f).atlas_pixels, 16.0f);
  // Exports: no monitor in it.
  EXPECT_EQ(app::render_font_scale(2.16f), (app::FontScale{.atlas_pixels = 16.0f * 2.16f, .layout = 2.16f, .global = 1.0f}));
}

}  // namespace
