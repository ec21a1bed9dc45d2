// The lecture keys act on the state exactly as the F1 overlay says, only in the
// interactive window, and not while a text field has the keyboard.
#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_internal.h>

#include "test_support.hpp"
#include "ui/file_actions.hpp"
#include "views/view.hpp"

namespace {

using namespace pe_test;

const bool kRegistered = register_session_environment();

class ShortcutsTest : public SessionTest {
 protected:
  // One interactive frame (menu bar, status line) with `key` held down, then one with it
  // released, as GLFW's key callback would report it.
  app::FileActions press(int key) {
    app::StatusLine status;
    app::FrameOptions options;
    options.status = &status;
    ImGui::GetIO().KeysDown[key] = true;
    app::FileActions actions = session().frame(0.0, options);
    ImGui::GetIO().KeysDown[key] = false;
    session().frame(0.0, options);
    return actions;
  }
};

TEST_F(ShortcutsTest, ArrowsStepThePositionAndPairWithinRange) {
  app::AppState& s = session().state();
  s.position = 5;
  s.pair = 0;
  press(GLFW_KEY_RIGHT);
  EXPECT_EQ(s.position, 6);
  press(GLFW_KEY_LEFT);
  press(GLFW_KEY_LEFT);
  EXPECT_EQ(s.position, 4);
  press(GLFW_KEY_UP);
  EXPECT_EQ(s.pair, 1);
  press(GLFW_KEY_DOWN);
  press(GLFW_KEY_DOWN);
  EXPECT_EQ(s.pair, 0) << "clamped at pair 0";
  s.position = s.length - 1;
  press(GLFW_KEY_RIGHT);
  EXPECT_EQ(s.position, s.length - 1) << "clamped at L − 1";
}

TEST_F(ShortcutsTest, ArrowsStepTheWalkthroughWhenItIsShown) {
  app::AppState& s = session().state() = known_state("walkthrough");
  s.walkthrough_step = 0;
  const long long position = s.position;
  press(GLFW_KEY_RIGHT);
  press(GLFW_KEY_RIGHT);
  EXPECT_EQ(s.walkthrough_step, 2);
  EXPECT_EQ(s.position, position);
  for (int k = 0; k < 10; ++k) press(GLFW_KEY_RIGHT);
  EXPECT_EQ(s.walkthrough_step, app::kWalkthroughSteps - 1);
}

TEST_F(ShortcutsTest, DigitsPickAViewOfTheGroupAndPageKeysTheGroup) {
  app::AppState& s = session().state() = known_state("rope-cos");
  press(GLFW_KEY_3);
  EXPECT_EQ(s.view, "rope-spectrum") << "third view of the RoPE group";
  press(GLFW_KEY_PAGE_DOWN);
  EXPECT_STREQ(app::find_view(s.view)->group, "Relative");
  press(GLFW_KEY_PAGE_UP);
  press(GLFW_KEY_PAGE_UP);
  EXPECT_EQ(s.view, "sinusoidal") << "first view of the first group";
  press(GLFW_KEY_PAGE_UP);
  EXPECT_STREQ(app::find_view(s.view)->group, app::view_groups().back()) << "wraps around to the last group";
}

TEST_F(ShortcutsTest, FunctionKeysToggleTheTeachingAids) {
  app::AppState& s = session().state();
  const bool formula = s.show_formula, panel = s.show_panel;
  press(GLFW_KEY_F4);
  EXPECT_NE(s.show_formula, formula);
  press(GLFW_KEY_F2);
  EXPECT_NE(s.show_panel, panel);
  press(GLFW_KEY_F1);
  EXPECT_TRUE(s.show_help);
  press(GLFW_KEY_ESCAPE);
  EXPECT_FALSE(s.show_help);
  EXPECT_TRUE(press(GLFW_KEY_F11).toggle_fullscreen);
  s.line_width = 1.0f;
  press(GLFW_KEY_W);
  EXPECT_FLOAT_EQ(s.line_width, 2.0f);
  s.line_width = 4.0f;
  press(GLFW_KEY_W);
  EXPECT_FLOAT_EQ(s.line_width, 1.0f);
  const bool dark = s.dark_theme;
  press(GLFW_KEY_T);
  EXPECT_NE(s.dark_theme, dark);
  s.ui_scale = 1.0f;
  press(GLFW_KEY_EQUAL);
  EXPECT_FLOAT_EQ(s.ui_scale, 1.25f);
  press(GLFW_KEY_MINUS);
  press(GLFW_KEY_MINUS);
  EXPECT_FLOAT_EQ(s.ui_scale, 1.0f) << "not below 1×";
}

TEST_F(ShortcutsTest, ScreenshotsAndExportsIgnoreKeys) {
  app::AppState& s = session().state();
  s.position = 5;
  ImGui::GetIO().KeysDown[GLFW_KEY_RIGHT] = true;
  session().frame(0.0);  // no status line: not the interactive window
  ImGui::GetIO().KeysDown[GLFW_KEY_RIGHT] = false;
  session().frame(0.0);
  EXPECT_EQ(s.position, 5);
}

TEST_F(ShortcutsTest, HelpOverlayOpensOverTheViews) {
  app::AppState& s = session().state();
  s.show_help = true;
  app::StatusLine status;
  app::FrameOptions options;
  options.status = &status;
  for (int f = 0; f < 3; ++f) session().frame(0.0, options);
  if (const char* dir = std::getenv("PE_TEST_IMAGE_DIR"))
    write_ppm(fs::path(dir) / "help_overlay.ppm", Image(session().window().framebuffer_width(),
                                                        session().window().framebuffer_height(), session().read_window_pixels()));
  ImGuiWindow* help = ImGui::FindWindowByName("Keyboard shortcuts (F1 or Esc to close)");
  ASSERT_NE(help, nullptr);
  EXPECT_TRUE(help->Active || help->WasActive);
  s.show_help = false;
}

}  // namespace
