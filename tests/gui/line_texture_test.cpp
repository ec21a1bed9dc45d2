// Fractional-width anti-aliased lines drawn as one textured strip (plot/line_texture):
// the stroke must weigh what its width says — every cross-section of a straight line
// integrates to width × 255 — sit where the points say, cost two vertices a point, and
// leave whole-pixel widths to ImGui. Rendered offscreen and read back; the expected
// weights are the widths themselves (and width / cos(angle) across columns for a slope).
#include <gtest/gtest.h>
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <utility>
#include <vector>

#include "offscreen_frame.hpp"
#include "plot/line_texture.hpp"

namespace {

constexpr int kWidth = 240, kHeight = 160;

const auto* const kEnvironment = ::testing::AddGlobalTestEnvironment(new pe_test::OffscreenWindow("line_texture_test"));

enum class Path { Ours, ImGui };

struct Drawn {
  std::vector<unsigned char> rgba;  // top-down
  int vertices = 0, indices = 0;
  // Red channel (the line is white on black) at pixel (x, y).
  int at(int x, int y) const { return rgba[(std::size_t(y) * kWidth + x) * 4]; }
};

// One frame: `points` drawn white on black into the background draw list.
Drawn draw(const std::vector<ImVec2>& points, float thickness, Path path, bool other_texture = false) {
  Drawn out;
  out.rgba = pe_test::render_offscreen_frame(kWidth, kHeight, ImVec4(0, 0, 0, 1), [&] {
    ImDrawList* list = ImGui::GetBackgroundDrawList();
    const int vtx0 = list->VtxBuffer.Size, idx0 = list->IdxBuffer.Size;
    if (other_texture) list->PushTextureID(ImTextureID(intptr_t(12345)));
    if (path == Path::Ours)
      plot::detail::add_polyline(list, points.data(), int(points.size()), IM_COL32_WHITE, thickness);
    else
      list->AddPolyline(points.data(), int(points.size()), IM_COL32_WHITE, ImDrawFlags_None, thickness);
    out.vertices = list->VtxBuffer.Size - vtx0;
    out.indices = list->IdxBuffer.Size - idx0;
    if (other_texture) {
      // Nothing may reach GL with a made-up texture name.
      list->VtxBuffer.resize(vtx0);
      list->IdxBuffer.resize(idx0);
      list->PopTextureID();
    }
  }, /*draw=*/!other_texture);
  return out;
}

// Sum of the red channel down column x, in units of one fully covered pixel, and the
// weighted mean y of that column (pixel centres at y + 0.5).
struct Column {
  double weight = 0, centroid = 0;
};
Column column(const Drawn& d, int x) {
  double sum = 0, moment = 0;
  for (int y = 0; y < kHeight; ++y) {
    sum += d.at(x, y);
    moment += d.at(x, y) * (y + 0.5);
  }
  return {sum / 255.0, sum > 0 ? moment / sum : 0};
}

// The centroid area-sampling gives a horizontal band [y − w/2, y + w/2]: each pixel row
// weighs its overlap with the band, so the centroid leans to pixel centres for thin lines.
double area_sampled_centroid(double y, double w) {
  double sum = 0, moment = 0;
  for (int row = 0; row < kHeight; ++row) {
    const double overlap = std::max(0.0, std::min(row + 1.0, y + w / 2) - std::max(double(row), y - w / 2));
    sum += overlap;
    moment += overlap * (row + 0.5);
  }
  return moment / sum;
}

std::vector<ImVec2> line(ImVec2 a, ImVec2 b, int n) {
  std::vector<ImVec2> p;
  for (int i = 0; i < n; ++i) {
    const float t = float(i) / float(n - 1);
    p.emplace_back(a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t);
  }
  return p;
}

TEST(LineTexture, WidthsAreQuantisedToEighthsOfAPixel) {
  EXPECT_FLOAT_EQ(plot::quantized_line_width(1.5f), 1.5f);
  EXPECT_FLOAT_EQ(plot::quantized_line_width(1.54f), 1.5f);
  EXPECT_FLOAT_EQ(plot::quantized_line_width(1.57f), 1.625f);
  EXPECT_FLOAT_EQ(plot::quantized_line_width(3.0f), 3.0f);
}

TEST(LineTexture, HorizontalStrokeWeighsItsWidthAndSitsOnItsPoints) {
  for (const float width : {1.25f, 1.5f, 2.5f, 3.75f, 6.5f}) {
    for (const float y : {60.0f, 60.3f, 60.5f, 60.8f}) {
      const Drawn ours = draw(line({20, y}, {220, y}, 9), width, Path::Ours);
      for (const int x : {40, 100, 171, 200}) {
        const Column c = column(ours, x);
        // 8-bit rounding of texels and of the blend: a few hundredths of a pixel.
        EXPECT_NEAR(c.weight, width, 0.04) << "width " << width << " y " << y << " column " << x;
        EXPECT_NEAR(c.centroid, area_sampled_centroid(y, width), 0.01) << "width " << width << " y " << y << " column " << x;
      }
    }
  }
}

// Across a sloped stroke a column samples the profile every cos(angle) pixels, so single
// columns vary with the phase (for ImGui's strokes too); their mean over many columns is
// exactly the ink a band of that width leaves: width / cos(angle) a column.
struct Mean {
  double weight = 0, offset = 0;  // offset: mean of (centroid − expected y)
};
template <class ExpectedY>
Mean mean_over_columns(const Drawn& d, int x_begin, int x_end, ExpectedY expected_y) {
  Mean m;
  for (int x = x_begin; x < x_end; ++x) {
    const Column c = column(d, x);
    m.weight += c.weight;
    m.offset += c.centroid - expected_y(x + 0.5);
  }
  m.weight /= (x_end - x_begin);
  m.offset /= (x_end - x_begin);
  return m;
}

TEST(LineTexture, SlopedStrokeWeighsWhatImGuisFringedStrokeWeighs) {
  const double angle = std::numbers::pi / 6;  // 30° down to the right
  const ImVec2 a(20, 20), b(220, float(20 + 200 * std::tan(angle)));
  const auto line_y = [&](double x) { return a.y + (x - a.x) * std::tan(angle); };
  for (const float width : {1.5f, 2.5f, 4.25f}) {
    const Drawn ours = draw(line(a, b, 2), width, Path::Ours);
    const Drawn imgui = draw(line(a, b, 2), width, Path::ImGui);
    const Mean m = mean_over_columns(ours, 40, 200, line_y), r = mean_over_columns(imgui, 40, 200, line_y);
    EXPECT_NEAR(m.weight, width / std::cos(angle), 0.02) << "width " << width;
    EXPECT_NEAR(m.weight, r.weight, 0.05 * r.weight) << "width " << width;
    EXPECT_NEAR(m.offset, 0.0, 0.02) << "width " << width;
  }
}

TEST(LineTexture, JoinsKeepTheStrokeWidth) {
  // A zig-zag turning by 73° (slope ±0.746, so the columns sample every phase of the
  // profile): away from the corners the columns weigh width · √(1 + slope²).
  constexpr float kLow = 77.3f;
  const double slope = (kLow - 40.0) / 50.0;
  std::vector<ImVec2> zig;
  for (int i = 0; i <= 4; ++i) zig.emplace_back(20.0f + 50.0f * i, i % 2 == 0 ? 40.0f : kLow);
  const float width = 2.5f;
  const Drawn ours = draw(zig, width, Path::Ours);
  for (int leg = 0; leg < 4; ++leg) {
    const double x0 = 20 + 50 * leg, y0 = leg % 2 == 0 ? 40 : kLow, dir = leg % 2 == 0 ? slope : -slope;
    const Mean m = mean_over_columns(ours, int(x0) + 8, int(x0) + 42, [&](double x) { return y0 + dir * (x - x0); });
    EXPECT_NEAR(m.weight, width * std::sqrt(1 + slope * slope), 0.03) << "leg " << leg;
    EXPECT_NEAR(m.offset, 0.0, 0.02) << "leg " << leg;
  }
  // At the turn (70, kLow) the miter reaches (width / 2) / cos(half the turn) = (width / 2) ·
  // √(1 + slope²) below the point (the stroke's edges meet there), plus the half-pixel ramp.
  const int corner_x = 70;
  int lowest = 0;
  for (int y = 0; y < kHeight; ++y)
    if (ours.at(corner_x, y) > 0) lowest = y;
  const double reach = kLow + width / 2 * std::sqrt(1 + slope * slope);
  EXPECT_LE(lowest + 0.5, reach + 1.0);
  EXPECT_GE(lowest + 0.5, reach - 1.0);
}

TEST(LineTexture, TwoVerticesAPointOneQuadASegment) {
  const auto points = line({10, 10}, {230, 150}, 100);
  const Drawn ours = draw(points, 1.5f, Path::Ours);
  EXPECT_EQ(ours.vertices, 2 * 100);
  EXPECT_EQ(ours.indices, 6 * 99);
  // ImGui's fringed path for the same width: a core and two fringes.
  const Drawn imgui = draw(points, 1.5f, Path::ImGui);
  EXPECT_GE(imgui.vertices, 4 * 100);
}

TEST(LineTexture, WholePixelWidthsAndOtherTexturesGoToImGui) {
  const auto points = line({10, 10}, {230, 150}, 50);
  // 2.04 px rounds to 2 px, which ImGui draws with its own textured path.
  for (const auto& [width, imgui_width] : {std::pair{1.0f, 1.0f}, {2.0f, 2.0f}, {2.04f, 2.0f}, {0.5f, 0.5f}, {20.0f, 20.0f}}) {
    const Drawn ours = draw(points, width, Path::Ours), imgui = draw(points, imgui_width, Path::ImGui);
    EXPECT_EQ(ours.vertices, imgui.vertices) << "width " << width;
    EXPECT_EQ(ours.rgba, imgui.rgba) << "width " << width;
  }
  const Drawn foreign = draw(points, 1.5f, Path::Ours, true), imgui = draw(points, 1.5f, Path::ImGui, true);
  EXPECT_EQ(foreign.vertices, imgui.vertices);
}

}  // namespace
