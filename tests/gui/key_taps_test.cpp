// Dear ImGui 1.86 keeps no input queue: a key pressed and released between two frames (a
// quick tap, and every tap while the GUI sleeps waiting for events) used to be invisible.
// These drive a real GLFW window's key callback chain (ImGui's backend, which chains to the
// platform's latch) exactly as GLFW does when both events arrive before the next frame.
// Label gui-window: needs a display (Xvfb in scripts/test.sh).
#include <gtest/gtest.h>

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <imgui.h>

#include "ui/app_session.hpp"
#include "ui/file_actions.hpp"

namespace {

class KeyTaps : public ::testing::Test {
 protected:
  KeyTaps() : session_(state(), {.width = 900, .height = 600, .visible = true, .content_scale = 1.0f}) {
    // GLFW 3.3 has no getter: setting returns the installed callback (ImGui's), put back.
    GLFWwindow* w = session_.window().handle();
    callback_ = glfwSetKeyCallback(w, nullptr);
    glfwSetKeyCallback(w, callback_);
    frame();  // a first frame so that ImGui's key durations start from "up"
  }
  static app::AppState state() {
    app::AppState s;
    s.view = "rope-cos";
    return s;
  }
  void key(int key, int action, int mods = 0) { callback_(session_.window().handle(), key, 0, action, mods); }
  void tap(int k, int mods = 0) {
    key(k, GLFW_PRESS, mods);
    key(k, GLFW_RELEASE, mods);
  }
  app::FileActions frame() {
    app::FrameOptions options;
    options.status = &status_;
    const app::FileActions a = session_.frame(0.0, options);
    session_.window().swap();
    return a;
  }

  app::AppSession session_;
  app::StatusLine status_;
  GLFWkeyfun callback_ = nullptr;
};

TEST_F(KeyTaps, ATapBetweenTwoFramesIsSeenOnce) {
  ASSERT_NE(callback_, nullptr);
  const bool panel = session_.state().show_panel;
  tap(GLFW_KEY_F2);
  frame();
  EXPECT_NE(session_.state().show_panel, panel) << "F2 tapped between frames toggles the panel";
  frame();
  EXPECT_NE(session_.state().show_panel, panel) << "and only once: the key is up again the next frame";
  EXPECT_FALSE(ImGui::IsKeyDown(GLFW_KEY_F2));
}

TEST_F(KeyTaps, AQuickCtrlTapKeepsItsModifier) {
  // Ctrl down, Q down and up, Ctrl up: all before the frame, as xdotool's ctrl+q does.
  key(GLFW_KEY_LEFT_CONTROL, GLFW_PRESS);
  tap(GLFW_KEY_Q, GLFW_MOD_CONTROL);
  key(GLFW_KEY_LEFT_CONTROL, GLFW_RELEASE, GLFW_MOD_CONTROL);
  EXPECT_TRUE(frame().quit) << "Ctrl+Q tapped between frames quits";
  EXPECT_FALSE(frame().quit);
  EXPECT_FALSE(ImGui::GetIO().KeyCtrl) << "Ctrl is not left stuck after the forced frame";
}

TEST_F(KeyTaps, AHeldKeyStaysDownAndActsOnce) {
  const bool grid = session_.state().grid;
  key(GLFW_KEY_F3, GLFW_PRESS);
  frame();
  EXPECT_NE(session_.state().grid, grid);
  frame();
  frame();
  EXPECT_TRUE(ImGui::IsKeyDown(GLFW_KEY_F3)) << "still held";
  EXPECT_NE(session_.state().grid, grid) << "F3 acts on the press, not every frame";
  key(GLFW_KEY_F3, GLFW_RELEASE);
  frame();
  EXPECT_FALSE(ImGui::IsKeyDown(GLFW_KEY_F3));
}

}  // namespace
