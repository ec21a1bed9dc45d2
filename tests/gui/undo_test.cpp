// Undo / redo through the real frame loop (issue 14): a slider dragged with the mouse is one
// step, a preset load is one step, a config.json that fails to load records nothing, and
// Ctrl+Z / Ctrl+Shift+Z / Ctrl+Y walk the history. The mouse is scripted through the
// window's input hook, as a user's would arrive from GLFW.
#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_internal.h>

#include <cfloat>

#include "state/undo_history.hpp"
#include "test_support.hpp"
#include "ui/file_actions.hpp"

namespace {

using namespace pe_test;

const bool kRegistered = register_session_environment();

class UndoTest : public SessionTest {
 protected:
  void SetUp() override {
    SessionTest::SetUp();
    undo_ = app::UndoHistory();
    mouse_ = {-FLT_MAX, -FLT_MAX};
    down_ = false;
    session().window().set_input_hook([this](ImGuiIO& io) {
      io.MousePos = mouse_;
      io.MouseDown[0] = down_;
    });
    frame();  // the baseline
  }
  void TearDown() override { session().window().set_input_hook(nullptr); }

  void frame() {
    app::StatusLine status;
    app::FrameOptions options;
    options.status = &status;
    options.undo = &undo_;
    session().frame(0.0, options);
  }
  void press(int key, bool shift = false) {
    // As GLFW's key callback reports them in ImGui 1.86: the key and the modifier flags.
    ImGuiIO& io = ImGui::GetIO();
    io.KeysDown[GLFW_KEY_LEFT_CONTROL] = io.KeysDown[key] = io.KeyCtrl = true;
    io.KeysDown[GLFW_KEY_LEFT_SHIFT] = io.KeyShift = shift;
    frame();
    io.KeysDown[key] = io.KeysDown[GLFW_KEY_LEFT_CONTROL] = io.KeysDown[GLFW_KEY_LEFT_SHIFT] = false;
    io.KeyCtrl = io.KeyShift = false;
    frame();
  }

  // Where the parameter panel's θ slider is: the mouse is moved down the panel until ImGui
  // reports the slider's ID as hovered (no layout numbers hard-coded).
  ImVec2 find_theta_slider() {
    ImGuiWindow* panel = nullptr;
    for (ImGuiWindow* w : GImGui->Windows)
      if (std::string(w->Name).find("##parameters") != std::string::npos) panel = w;
    if (!panel) return {-1, -1};
    const ImGuiID id = panel->GetID("θ (theta)");
    const float x = panel->Pos.x + panel->Size.x * 0.3f;
    for (float y = panel->Pos.y; y < panel->Pos.y + panel->Size.y; y += 4.0f) {
      mouse_ = {x, y};
      frame();
      if (GImGui->HoveredId == id) return mouse_;
    }
    return {-1, -1};
  }

  app::UndoHistory undo_;
  ImVec2 mouse_;
  bool down_ = false;
};

TEST_F(UndoTest, ASliderDragIsOneStep) {
  app::AppState& s = session().state();
  const double theta0 = s.rope.theta;
  const ImVec2 at = find_theta_slider();
  ASSERT_GE(at.x, 0.0f) << "θ slider not found in the parameter panel";
  down_ = true;
  frame();
  for (int k = 1; k <= 6; ++k) {  // dragged right over six frames
    mouse_.x = at.x + 15.0f * float(k);
    frame();
  }
  EXPECT_NE(s.rope.theta, theta0) << "the drag moved θ";
  EXPECT_EQ(undo_.undo_steps(), 0u) << "nothing is recorded while the slider is held";
  down_ = false;
  mouse_ = {-FLT_MAX, -FLT_MAX};
  frame();
  const double dragged = s.rope.theta;
  EXPECT_EQ(undo_.undo_steps(), 1u) << "the whole drag is one step";
  EXPECT_EQ(undo_.undo_label(), "preset, theta") << "θ moved, so the configuration is no longer the preset";
  press(GLFW_KEY_Z);
  EXPECT_EQ(s.rope.theta, theta0) << "Ctrl+Z restores θ exactly";
  press(GLFW_KEY_Z, /*shift=*/true);
  EXPECT_EQ(s.rope.theta, dragged) << "Ctrl+Shift+Z redoes it";
  press(GLFW_KEY_Z);
  press(GLFW_KEY_Y);
  EXPECT_EQ(s.rope.theta, dragged) << "Ctrl+Y redoes too";
}

TEST_F(UndoTest, APresetLoadIsOneStepAndViewSwitchesAreNot) {
  app::AppState& s = session().state();
  const app::AppState before = s;
  app::apply_preset(s, "llama-3.1-8b");  // what choosing it in the preset combo does
  frame();
  s.view = "clock-hands";  // navigation, not a parameter
  s.dark_theme = !s.dark_theme;
  frame();
  ASSERT_EQ(undo_.undo_steps(), 1u);
  EXPECT_NE(undo_.undo_label().find("theta"), std::string::npos) << undo_.undo_label();
  press(GLFW_KEY_Z);
  EXPECT_EQ(s.rope.theta, before.rope.theta);
  EXPECT_EQ(s.rope.head_dim, before.rope.head_dim);
  EXPECT_EQ(s.length, before.length);
  EXPECT_EQ(s.rope.scaling.type, before.rope.scaling.type);
  EXPECT_EQ(s.preset, before.preset);
  EXPECT_EQ(s.view, "clock-hands") << "undo keeps the view the user is on";
  EXPECT_NE(s.dark_theme, before.dark_theme) << "and the display choices";
}

TEST_F(UndoTest, AConfigThatFailsToLoadRecordsNothing) {
  app::AppState& s = session().state();
  const fs::path bad = fs::temp_directory_path() / "pe-viz-undo-bad-config.json";
  std::ofstream(bad) << R"({"rope_theta": "not a number", "head_dim": 64, "max_position_embeddings": 4096})";
  std::vector<std::string> dropped = {bad.string()};
  app::StatusLine status;
  app::load_dropped_files(s, dropped, status, 0.0);  // what a drop onto the window does
  frame();
  EXPECT_NE(s.config_error, "");
  EXPECT_EQ(undo_.undo_steps(), 0u) << "nothing changed, so nothing to undo";
  fs::remove(bad);
}

TEST_F(UndoTest, HistoryIsBoundedAndANewChangeClearsRedo) {
  app::UndoHistory small(3);
  app::AppState s = app::default_state();
  small.observe(s, true);
  for (int k = 1; k <= 5; ++k) {
    s.rope.theta = 1000.0 * k;
    small.observe(s, true);
  }
  EXPECT_EQ(small.undo_steps(), 3u) << "bounded at 3";
  small.undo(s);
  small.undo(s);
  EXPECT_EQ(s.rope.theta, 3000.0);
  EXPECT_TRUE(small.can_redo());
  s.position = 7;
  small.observe(s, true);
  EXPECT_FALSE(small.can_redo()) << "a new change forgets the undone future";
  EXPECT_EQ(small.undo_label(), "position");
  small.observe(s, false);  // unchanged and unsettled: nothing happens
  EXPECT_EQ(small.undo_steps(), 2u);
}

}  // namespace
