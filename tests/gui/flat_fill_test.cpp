// Large translucent rectangles through plot/rect_fills' one-colour shader: the frame must be
// byte for byte what ImGui's AddRectFilled leaves, at fractional edges, over a background
// with structure (lines and another translucent fill), inside and across a clip rectangle.
// Opaque fills with a hole left out under an opaque item: the same frame as without.
#include <gtest/gtest.h>
#include <imgui.h>

#include <algorithm>
#include <functional>
#include <string>
#include <vector>

#include "offscreen_frame.hpp"
#include "plot/rect_fills.hpp"

namespace {

constexpr int kWidth = 400, kHeight = 300;

const auto* const kEnvironment = ::testing::AddGlobalTestEnvironment(new pe_test::OffscreenWindow("flat_fill_test"));

struct Drawn {
  std::vector<unsigned char> rgba;
  int vertices = 0, callbacks = 0;
};

Drawn draw(const std::function<void(ImDrawList*)>& add) {
  Drawn out;
  out.rgba = pe_test::render_offscreen_frame(kWidth, kHeight, ImVec4(0.1f, 0.1f, 0.12f, 1), [&] {
    ImDrawList* list = ImGui::GetBackgroundDrawList();
    // Structure under the fill: stripes and lines in several colours.
    for (int i = 0; i < 20; ++i)
      list->AddRectFilled(ImVec2(0, 15.0f * i), ImVec2(kWidth, 15.0f * i + 7.3f), IM_COL32(40 + 9 * i, 200 - 7 * i, 90 + 5 * i, 255));
    for (int i = 0; i < 12; ++i)
      list->AddLine(ImVec2(10.0f + 31.7f * i, 0), ImVec2(200.0f + 13.0f * i, kHeight), IM_COL32(250, 250, 250, 200), 1.5f);
    const int vtx0 = list->VtxBuffer.Size, cmd0 = list->CmdBuffer.Size;
    add(list);
    out.vertices = list->VtxBuffer.Size - vtx0;
    for (int c = cmd0 > 0 ? cmd0 - 1 : 0; c < list->CmdBuffer.Size; ++c) out.callbacks += list->CmdBuffer[c].UserCallback != nullptr;
  });
  return out;
}

TEST(FlatFill, LargeTranslucentRectanglesMatchImGuiByteForByte) {
  struct Case {
    ImVec2 min, max;
    ImU32 color;
  };
  const Case cases[] = {
      {{20, 30}, {380, 280}, IM_COL32(200, 60, 60, 70)},
      {{20.3f, 30.7f}, {377.6f, 251.2f}, IM_COL32(60, 120, 240, 128)},
      {{-50, -20}, {450, 340}, IM_COL32(255, 255, 255, 31)},
      {{100.5f, 0.5f}, {300.5f, 299.5f}, IM_COL32(10, 20, 30, 255)},
      {{57.25f, 99.75f}, {333.125f, 240.5f}, IM_COL32(250, 200, 10, 1)},
  };
  for (const Case& c : cases)
    for (const bool clipped : {false, true}) {
      auto add = [&](ImDrawList* d, bool ours) {
        if (clipped) d->PushClipRect(ImVec2(40, 50), ImVec2(310.0f, 222.0f), true);
        if (ours) plot::detail::add_translucent_rect(d, c.min, c.max, c.color);
        else d->AddRectFilled(c.min, c.max, c.color);
        if (clipped) d->PopClipRect();
      };
      const Drawn ours = draw([&](ImDrawList* d) { add(d, true); });
      const Drawn imgui = draw([&](ImDrawList* d) { add(d, false); });
      EXPECT_EQ(ours.vertices, 0) << "took ImGui's quad";
      EXPECT_GE(ours.callbacks, 1);
      EXPECT_TRUE(ours.rgba == imgui.rgba) << "from " << c.min.x << "," << c.min.y << " to " << c.max.x << "," << c.max.y << (clipped ? " clipped" : "")
                                           << " colour " << std::hex << c.color;
    }
}

TEST(OpaqueFill, AHoleUnderAnOpaqueItemLeavesTheFrameUnchanged) {
  // A plot's background leaves out what its heatmap covers: the frame must be the one the
  // whole fill gives, at fractional edges and across a clip rectangle, and the hole must
  // really be skipped (the structure under it shows where nothing covers it).
  struct Case {
    ImVec2 fill_min, fill_max, hole_min, hole_max;
  };
  const Case cases[] = {
      {{20, 30}, {380, 280}, {40, 50}, {300, 250}},
      {{20.3f, 30.7f}, {377.6f, 251.2f}, {21.3f, 31.7f}, {376.6f, 250.2f}},
      {{10.5f, 10.5f}, {390.5f, 290.5f}, {0, 0}, {400, 300}},  // a hole past the fill: all of it
      {{57.25f, 99.75f}, {333.125f, 240.5f}, {100.4f, 120.6f}, {250.2f, 200.9f}},
  };
  const ImU32 fill = IM_COL32(24, 26, 30, 255), cover = IM_COL32(200, 120, 40, 255);
  for (const Case& c : cases)
    for (const bool clipped : {false, true}) {
      const ImVec2 clip_min(40, 50), clip_max(310.3f, 222.6f);
      auto add = [&](ImDrawList* d, bool hole, bool covered) {
        if (clipped) d->PushClipRect(clip_min, clip_max, true);
        plot::detail::QueuedFill* f = plot::detail::add_opaque_rect(d, c.fill_min, c.fill_max, fill);
        ASSERT_NE(f, nullptr);
        // The scissor truncates a clip rectangle's corner and size (up to two pixels lost at
        // the right and the top), so a hole stays two pixels inside it, as the heatmaps' does.
        ImVec2 hole_min = c.hole_min, hole_max = c.hole_max;
        if (clipped) {
          hole_min = ImVec2(std::max(hole_min.x, clip_min.x + 2), std::max(hole_min.y, clip_min.y + 2));
          hole_max = ImVec2(std::min(hole_max.x, clip_max.x - 2), std::min(hole_max.y, clip_max.y - 2));
        }
        if (hole) plot::detail::leave_out_of_fill(f, hole_min, hole_max);
        // What a heatmap does: every pixel of the hole and a little more, opaque.
        if (covered) d->AddRectFilled(ImVec2(c.hole_min.x - 1, c.hole_min.y - 1), ImVec2(c.hole_max.x + 1, c.hole_max.y + 1), cover);
        if (clipped) d->PopClipRect();
      };
      const std::string where = std::to_string(c.hole_min.x) + "," + std::to_string(c.hole_min.y) + (clipped ? " clipped" : "");
      EXPECT_TRUE(draw([&](ImDrawList* d) { add(d, true, true); }).rgba == draw([&](ImDrawList* d) { add(d, false, true); }).rgba)
          << where;
      EXPECT_FALSE(draw([&](ImDrawList* d) { add(d, true, false); }).rgba == draw([&](ImDrawList* d) { add(d, false, false); }).rgba)
          << where << ": the hole was cleared";
    }
}

TEST(FlatFill, SmallOrInvisibleRectanglesAreImGuisOwn) {
  const Drawn small = draw([](ImDrawList* d) { plot::detail::add_translucent_rect(d, {10, 10}, {60, 40}, IM_COL32(200, 60, 60, 70)); });
  EXPECT_EQ(small.vertices, 4);
  EXPECT_EQ(small.callbacks, 0);
  const Drawn none = draw([](ImDrawList* d) { plot::detail::add_translucent_rect(d, {10, 10}, {300, 200}, IM_COL32(200, 60, 60, 0)); });
  EXPECT_EQ(none.vertices, 0);
  EXPECT_EQ(none.callbacks, 0);
}

}  // namespace
