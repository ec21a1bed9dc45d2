// File → Record animation… through the real frame loop (issue 13 part 4): the dialog is
// drawn by the main frame, its Record button is clicked with the scripted mouse, and the
// recording then advances only in step() calls between frames (the GL context is the
// window's), with a progress that grows, the live state left alone, Cancel leaving the
// previous file untouched, and refused settings named in the dialog.
#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_internal.h>

#include <cfloat>
#include <fstream>

#include "test_support.hpp"
#include "ui/file_actions.hpp"
#include "ui/main_frame.hpp"
#include "ui/record_dialog.hpp"
#include "video_test_support.hpp"

namespace {

using namespace pe_test;

const bool kRegistered = register_session_environment();

class RecordDialogTest : public SessionTest {
 protected:
  void SetUp() override {
    SessionTest::SetUp();
    session().state().view = "clock-hands";
    mouse_ = {-FLT_MAX, -FLT_MAX};
    down_ = false;
    session().window().set_input_hook([this](ImGuiIO& io) {
      io.MousePos = mouse_;
      io.MouseDown[0] = down_;
    });
    frame();
  }
  void TearDown() override { session().window().set_input_hook(nullptr); }

  void frame() {
    app::FrameOptions options;
    options.status = &status_;
    options.record = &dialog_;
    session().frame(0.0, options);
  }

  // Finds a button of the dialog by moving the mouse down the window's left content edge
  // (both buttons start their line) until ImGui reports it hovered, then clicks it.
  bool click(const char* window_name, const char* button) {
    frame();  // a window that just appeared is placed (centred) in its second frame
    ImGuiWindow* w = ImGui::FindWindowByName(window_name);
    if (!w || !w->Active) return false;
    const ImGuiID id = w->GetID(button);
    for (float dy = 0; dy < w->Size.y; dy += 4.0f) {
      mouse_ = {w->Pos.x + w->WindowPadding.x + 4.0f, w->Pos.y + dy};
      frame();
      if (GImGui->HoveredId == id) {
        down_ = true;
        frame();
        down_ = false;
        frame();
        return true;
      }
    }
    return false;
  }

  app::StatusLine status_;
  app::RecordDialog dialog_;
  ImVec2 mouse_;
  bool down_ = false;
};

TEST_F(RecordDialogTest, TheButtonQueuesAndTheLoopRecordsStepByStep) {
  PE_REQUIRE_FFPROBE();
  TempDir dir;
  const fs::path out = dir / "hands.mp4";
  dialog_.open(session().state());
  EXPECT_EQ(dialog_.settings().key, "position");
  EXPECT_EQ(dialog_.settings().from, 0.0);
  EXPECT_EQ(dialog_.settings().to, 64.0);  // min(64, L − 1) at L = 128
  dialog_.settings() = {"position", 0, 30, 1.0, 10, 320, 180, out.string()};
  frame();
  ASSERT_TRUE(click("Record animation", "Record")) << "Record button not found";
  ASSERT_TRUE(dialog_.recording()) << dialog_.error();
  EXPECT_EQ(dialog_.error(), "");

  const long long position = session().state().position;
  std::vector<double> progress;
  int steps = 0;
  while (dialog_.recording() && steps < 200) {
    dialog_.step(session(), status_, 0.0, 1.0);  // a tiny budget: one frame per step
    progress.push_back(dialog_.progress());
    session().state().rope.theta = 20000.0;  // the user moves a slider meanwhile
    frame();
    ++steps;
  }
  EXPECT_FALSE(dialog_.recording());
  EXPECT_GE(steps, 5) << "rendering is spread over the frame loop";
  for (std::size_t k = 1; k + 1 < progress.size(); ++k) EXPECT_GE(progress[k], progress[k - 1]);
  EXPECT_EQ(session().state().position, position) << "the live state is not the recording's";
  EXPECT_EQ(session().state().rope.theta, 20000.0);
  EXPECT_FALSE(status_.error) << status_.text;
  EXPECT_NE(status_.text.find("Recorded " + out.string()), std::string::npos) << status_.text;
  EXPECT_NE(status_.text.find("10 frames"), std::string::npos) << status_.text;

  const VideoFacts v = probe_video(out);
  EXPECT_EQ(v.codec, "h264") << v.raw;
  EXPECT_EQ(v.width, 320);
  EXPECT_EQ(v.height, 180);
  EXPECT_EQ(v.frames, 10);
  EXPECT_GT(mean_frame_difference(decode_frame(out, 0), decode_frame(out, 9)), 0.5) << "the hands turned";
}

TEST_F(RecordDialogTest, CancelLeavesThePreviousFileAndNoTemporary) {
  TempDir dir;
  const fs::path out = dir / "clip.mp4";
  std::ofstream(out) << "previous";
  ASSERT_EQ(dialog_.start({"theta", 100, 1e6, 2.0, 30, 320, 180, out.string()}, session().state()), "");
  dialog_.step(session(), status_, 0.0, 1.0);
  frame();
  ASSERT_TRUE(dialog_.recording());
  EXPECT_GT(dialog_.progress(), 0.0);
  ASSERT_TRUE(click("Recording", "Cancel")) << "Cancel button not found";
  dialog_.step(session(), status_, 0.0, 1.0);
  EXPECT_FALSE(dialog_.recording());
  EXPECT_NE(status_.text.find("cancelled"), std::string::npos) << status_.text;
  EXPECT_EQ(read_file(out), "previous");
  EXPECT_EQ(dir.entries(), std::vector<std::string>{"clip.mp4"});
}

TEST_F(RecordDialogTest, RefusedSettingsAreNamedAndNothingStarts) {
  TempDir dir;
  const auto refused = [&](app::RecordDialog::Settings s, const std::string& word) {
    const std::string error = dialog_.start(s, session().state());
    EXPECT_NE(error.find(word), std::string::npos) << "'" << error << "' lacks " << word;
    EXPECT_FALSE(dialog_.recording());
  };
  const std::string mp4 = (dir / "x.mp4").string();
  refused({"position", 0, 500, 1, 10, 320, 180, mp4}, "position");  // past L = 128
  refused({"theta", -1, 1e6, 1, 10, 320, 180, mp4}, "theta");        // log scale needs > 0
  refused({"thetta", 1, 2, 1, 10, 320, 180, mp4}, "theta");          // suggests the key
  refused({"position", 0, 10, 1, 10, 320, 180, (dir / "x.avi").string()}, ".avi");
  refused({"position", 0, 10, 0, 10, 320, 180, mp4}, "duration");
  refused({"position", 0, 10, 1, 500, 320, 180, mp4}, "fps");
  refused({"position", 0, 10, 1, 10, 8, 8, mp4}, "size");
  EXPECT_TRUE(dir.entries().empty());
  // The dialog shows the refusal and stays usable.
  dialog_.open(session().state());
  frame();
  frame();
  EXPECT_NE(ImGui::FindWindowByName("Record animation"), nullptr);
}

TEST(RecordDialogKeys, OnlyAnimatableNumbers) {
  const auto& keys = app::RecordDialog::animatable_keys();
  EXPECT_NE(std::find(keys.begin(), keys.end(), "position"), keys.end());
  EXPECT_NE(std::find(keys.begin(), keys.end(), "theta"), keys.end());
  EXPECT_EQ(std::find(keys.begin(), keys.end(), "ui-scale"), keys.end());
  EXPECT_EQ(std::find(keys.begin(), keys.end(), "view"), keys.end());
  app::AppState s = app::default_state();
  s.rope.theta = 12345.0;
  s.position = 7;
  EXPECT_EQ(app::state_value(s, "theta"), 12345.0);
  EXPECT_EQ(app::state_value(s, "position"), 7.0);
  EXPECT_EQ(app::state_value(s, "view"), std::nullopt);
}

}  // namespace
