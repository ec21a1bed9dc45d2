// The scratch target of two-pass heatmaps holds a GL sync object at each render-target
// switch and releases them in a later frame (render/held_fences.hpp: Mesa llvmpipe frees a
// finished scene's fence while a rasterizer thread may still be signalling it). A frame's
// fences stay held through that frame — however many heatmaps it draws — and the next frame
// lets them go.
#include <gtest/gtest.h>

#include "offscreen_frame.hpp"
#include "render/held_fences.hpp"
#include "render/scratch_target.hpp"

namespace {

const auto* const kEnvironment = ::testing::AddGlobalTestEnvironment(new pe_test::OffscreenWindow("held_fences_test"));

TEST(HeldFences, AFramesFencesAreHeldUntilAnotherFrame) {
  render::HeldFences fences;
  fences.hold(7);
  fences.hold(7);
  EXPECT_EQ(fences.held(), 2u);
  fences.hold(8);  // frame 7's are released
  EXPECT_EQ(fences.held(), 1u);
  fences.hold(3);  // any other frame number counts as another frame (a new ImGui context restarts)
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
  EXPECT_EQ(scratch.held_fences(), 1u);
  scratch.end();
  EXPECT_EQ(scratch.held_fences(), 2u);
  EXPECT_FALSE(scratch.begin(0, 8, 3));  // refused sizes change nothing
  EXPECT_EQ(scratch.held_fences(), 2u);
}

}  // namespace
