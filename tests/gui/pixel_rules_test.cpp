// Grid lines and tick marks as whole-pixel rules (plot/pixel_rules): a rule lights exactly
// round(width) whole columns (or rows), every one at the full colour, centred within half
// a pixel of its value at every sub-pixel position, over the rows its ends span; a
// translucent rule blends once per pixel. Rendered offscreen and read back. (The ImGui
// AddLine calls these replace put a 1-px line at round(x) + 0.5 on a pixel edge: two
// columns at half strength, a pixel off — the first test would fail on them.)
#include <gtest/gtest.h>
#include <imgui.h>

#include <cmath>
#include <functional>
#include <vector>

#include "offscreen_frame.hpp"
#include "plot/pixel_rules.hpp"

namespace {

constexpr int kWidth = 160, kHeight = 120;

const auto* const kEnvironment = ::testing::AddGlobalTestEnvironment(new pe_test::OffscreenWindow("pixel_rules_test"));

struct Drawn {
  std::vector<unsigned char> rgba;  // top-down
  int vertices = 0;
  int red(int x, int y) const { return rgba[(std::size_t(y) * kWidth + x) * 4]; }
};

// One frame on black: `add` appends to the background draw list.
Drawn draw(const std::function<void(ImDrawList*)>& add) {
  Drawn out;
  out.rgba = pe_test::render_offscreen_frame(kWidth, kHeight, ImVec4(0, 0, 0, 1), [&] {
    ImDrawList* list = ImGui::GetBackgroundDrawList();
    const int vtx0 = list->VtxBuffer.Size;
    add(list);
    out.vertices = list->VtxBuffer.Size - vtx0;
  });
  return out;
}

// Columns with any light in row y, and the light-weighted mean column centre.
struct Lit {
  std::vector<int> columns;
  double centre = 0;
};
Lit lit_columns(const Drawn& d, int y) {
  Lit l;
  double sum = 0, moment = 0;
  for (int x = 0; x < kWidth; ++x)
    if (const int v = d.red(x, y); v > 0) {
      l.columns.push_back(x);
      sum += v;
      moment += v * (x + 0.5);
    }
  l.centre = sum > 0 ? moment / sum : -1;
  return l;
}

TEST(PixelRules, WidthsAreWholePixelsAtLeastOne) {
  EXPECT_EQ(plot::detail::rule_width(1.0f), 1.0f);
  EXPECT_EQ(plot::detail::rule_width(1.08f), 1.0f);  // the export's UI scale at 1920×1080
  EXPECT_EQ(plot::detail::rule_width(0.5f), 1.0f);
  EXPECT_EQ(plot::detail::rule_width(2.16f), 2.0f);
  EXPECT_EQ(plot::detail::rule_width(3.0f), 3.0f);
}

TEST(PixelRules, VerticalRuleIsCrispAndWithinHalfAPixelOfItsValue) {
  for (const float width : {1.0f, 1.08f, 2.0f, 2.16f, 3.0f})
    for (const float x : {40.0f, 40.25f, 40.5f, 40.75f, 41.0f}) {
      const Drawn d = draw([&](ImDrawList* l) { plot::detail::add_vertical_rule(l, x, 10.0f, 100.0f, IM_COL32_WHITE, width); });
      EXPECT_EQ(d.vertices, 4);
      const Lit lit = lit_columns(d, 50);
      const int w = int(std::round(std::max(1.0f, width)));
      ASSERT_EQ(int(lit.columns.size()), w) << "width " << width << " x " << x;
      for (std::size_t i = 0; i < lit.columns.size(); ++i) {
        EXPECT_EQ(lit.columns[i], lit.columns[0] + int(i)) << "contiguous";
        EXPECT_EQ(d.red(lit.columns[i], 50), 255) << "full strength, width " << width << " x " << x;
      }
      EXPECT_LE(std::abs(lit.centre - x), 0.5 + 1e-6) << "width " << width << " x " << x;
      // Rows: pixel centres within [10, 100).
      int rows = 0;
      for (int y = 0; y < kHeight; ++y) rows += d.red(lit.columns[0], y) > 0;
      EXPECT_EQ(rows, 90);
    }
}

TEST(PixelRules, HorizontalRuleIsCrispAndWithinHalfAPixelOfItsValue) {
  for (const float width : {1.0f, 2.0f, 3.0f})
    for (const float y : {60.0f, 60.3f, 60.5f, 60.9f}) {
      const Drawn d = draw([&](ImDrawList* l) { plot::detail::add_horizontal_rule(l, y, 150.0f, 20.0f, IM_COL32_WHITE, width); });
      int lit_rows = 0;
      double sum = 0, moment = 0;
      for (int r = 0; r < kHeight; ++r)
        if (const int v = d.red(80, r); v > 0) {
          ++lit_rows;
          EXPECT_EQ(v, 255);
          sum += v;
          moment += v * (r + 0.5);
        }
      EXPECT_EQ(lit_rows, int(width));
      ASSERT_GT(sum, 0);
      const double centre = moment / sum;
      EXPECT_LE(std::abs(centre - y), 0.5 + 1e-6) << "width " << width << " y " << y;
      int columns = 0;
      for (int x = 0; x < kWidth; ++x) columns += d.red(x, int(centre)) > 0;
      EXPECT_EQ(columns, 130);
    }
}

TEST(PixelRules, TranslucentRuleBlendsOncePerPixel) {
  const Drawn d = draw([](ImDrawList* l) { plot::detail::add_vertical_rule(l, 70.5f, 5.0f, 115.0f, IM_COL32(255, 255, 255, 96), 1.0f); });
  const Lit lit = lit_columns(d, 60);
  ASSERT_EQ(lit.columns.size(), 1u);
  EXPECT_NEAR(d.red(lit.columns[0], 60), 96, 1);  // 255 × 96/255 over black
}

TEST(PixelRules, FrameIsAClosedRingInsideItsRectangleBlendedOnce) {
  for (const float width : {1.0f, 2.0f})
    for (const auto& [min, max] : {std::pair{ImVec2(10.0f, 12.0f), ImVec2(150.0f, 110.0f)}, {ImVec2(20.69f, 8.2f), ImVec2(133.3f, 97.7f)}}) {
      const Drawn d = draw([&](ImDrawList* l) { plot::detail::add_frame_rules(l, min, max, IM_COL32(255, 255, 255, 96), width); });
      // The pixels whose centres lie inside [min, max], and the ring of `width` along their edge.
      const int x0 = int(std::ceil(min.x - 0.5f)), x1 = int(std::ceil(max.x - 0.5f)) - 1;
      const int y0 = int(std::ceil(min.y - 0.5f)), y1 = int(std::ceil(max.y - 0.5f)) - 1;
      const int w = int(width);
      int wrong = 0;
      for (int y = 0; y < kHeight; ++y)
        for (int x = 0; x < kWidth; ++x) {
          const bool inside = x >= x0 && x <= x1 && y >= y0 && y <= y1;
          const bool ring = inside && (x < x0 + w || x > x1 - w || y < y0 + w || y > y1 - w);
          const int v = d.red(x, y);
          if (ring ? std::abs(v - 96) > 1 : v != 0) ++wrong;
        }
      EXPECT_EQ(wrong, 0) << "width " << width << " from " << min.x << "," << min.y;
    }
}

TEST(PixelRules, NothingForAnEmptyOrInvisibleRule) {
  EXPECT_EQ(draw([](ImDrawList* l) { plot::detail::add_vertical_rule(l, 40.0f, 30.0f, 30.0f, IM_COL32_WHITE, 1.0f); }).vertices, 0);
  EXPECT_EQ(draw([](ImDrawList* l) { plot::detail::add_horizontal_rule(l, 40.0f, 10.0f, 90.0f, IM_COL32(255, 255, 255, 0), 1.0f); }).vertices, 0);
}

}  // namespace
