// The scratch target of two-pass heatmaps holds a GL sync object at each render-target
// switch and releases them two frames later (render/held_fences.hpp: Mesa llvmpipe frees a
// finished scene's fence while a rasterizer thread may still be signalling it). A frame's
// fences stay held through that frame and the next — however many heatmaps it draws — and
// the one after lets them go. Its switches also give the caller back the framebuffer's
// scissor state as they found it.
#include <epoxy/gl.h>
#include <gtest/gtest.h>

#include "offscreen_frame.hpp"
#include "render/held_fences.hpp"
#include "render/scratch_target.hpp"

namespace {

const auto* const kEnvironment = ::testing::AddGlobalTestEnvironment(new pe_test::OffscreenWindow("held_fences_test"));

TEST(HeldFences, AFramesFencesAreHeldForTwoFrames) {
  render::HeldFences fences;
  fences.hold(7);
  fences.hold(7);
  EXPECT_EQ(fences.held(), 2u);
  fences.hold(8);  // frame 7's stay: frame 8 has not been waited for yet
  EXPECT_EQ(fences.held(), 3u);
  fences.hold(9);  // frame 7's go
  EXPECT_EQ(fences.held(), 2u);
  fences.hold(3);  // a restarted counter (a new ImGui context) lets everything older go
  EXPECT_EQ(fences.held(), 1u);
}

TEST(HeldFences, EachSwitchOfTheScratchTargetHoldsOne) {
  render::ScratchTarget scratch;
  ASSERT_TRUE(scratch.begin(64, 8, 1));
  scratch.end();
  ASSERT_TRUE(scratch.begin(32, 4, 1));  // a second heatmap in the same frame
  scratch.end();
  EXPECT_EQ(scratch.held_fences(), 4u);
  ASSERT_TRUE(scratch.begin(64, 8, 2));
  scratch.end();
  EXPECT_EQ(scratch.held_fences(), 6u);
  ASSERT_TRUE(scratch.begin(64, 8, 3));  // frame 1's four go
  EXPECT_EQ(scratch.held_fences(), 3u);
  scratch.end();
  EXPECT_EQ(scratch.held_fences(), 4u);
  EXPECT_FALSE(scratch.begin(0, 8, 4));  // refused sizes change nothing
  EXPECT_EQ(scratch.held_fences(), 4u);
}

TEST(ScratchTarget, EndGivesBackTheScissorStateBeginFound) {
  render::ScratchTarget scratch;
  // Off before: off after, even when the pass in between turned it on.
  glDisable(GL_SCISSOR_TEST);
  ASSERT_TRUE(scratch.begin(16, 4, 1));
  glEnable(GL_SCISSOR_TEST);
  scratch.end();
  EXPECT_EQ(glIsEnabled(GL_SCISSOR_TEST), GL_FALSE);
  // On before: off for the pass (it fills its whole target), on again with the same box.
  glEnable(GL_SCISSOR_TEST);
  glScissor(3, 5, 7, 11);
  ASSERT_TRUE(scratch.begin(16, 4, 1));
  EXPECT_EQ(glIsEnabled(GL_SCISSOR_TEST), GL_FALSE);
  glScissor(0, 0, 1, 1);
  scratch.end();
  EXPECT_EQ(glIsEnabled(GL_SCISSOR_TEST), GL_TRUE);
  GLint box[4] = {};
  glGetIntegerv(GL_SCISSOR_BOX, box);
  EXPECT_EQ(box[0], 3);
  EXPECT_EQ(box[1], 5);
  EXPECT_EQ(box[2], 7);
  EXPECT_EQ(box[3], 11);
  glDisable(GL_SCISSOR_TEST);
}

}  // namespace
