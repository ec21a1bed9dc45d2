// Anti-aliased lines drawn as one strip, shaded (plot/curve_strips) or, where that shader is
// unavailable, textured from the atlas (plot/line_texture): the stroke must weigh what its
// width says — every cross-section of a straight line integrates to width × 255 — sit where
// the points say, cost two vertices a point, and leave hairlines and other widths to ImGui.
// Rendered offscreen and read back; the expected weights are the widths themselves (and
// width / cos(angle) across columns for a slope).
#include <gtest/gtest.h>
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <utility>
#include <vector>

#include "offscreen_frame.hpp"
#include "plot/curve_strips.hpp"
#include "plot/line_texture.hpp"

namespace {

constexpr int kWidth = 240, kHeight = 160;

const auto* const kEnvironment = ::testing::AddGlobalTestEnvironment(new pe_test::OffscreenWindow("line_texture_test"));

// Ours: the shaded strip; Atlas: the textured one it falls back to; ImGui: AddPolyline.
enum class Path { Ours, Atlas, ImGui };

struct Drawn {
  std::vector<unsigned char> rgba;  // top-down
  int vertices = 0, indices = 0;  // added to the ImGui draw list
  long long strip_vertices = 0;    // queued as shaded strips
  // Red channel (the line is white on black) at pixel (x, y).
  int at(int x, int y) const { return rgba[(std::size_t(y) * kWidth + x) * 4]; }
};

// One frame: `points` drawn white on black into the background draw list.
Drawn draw(const std::vector<ImVec2>& points, float thickness, Path path, bool other_texture = false) {
  Drawn out;
  out.rgba = pe_test::render_offscreen_frame(kWidth, kHeight, ImVec4(0, 0, 0, 1), [&] {
    ImDrawList* list = ImGui::GetBackgroundDrawList();
    const int vtx0 = list->VtxBuffer.Size, idx0 = list->IdxBuffer.Size;
    const long long strips0 = plot::detail::curve_strip_vertices();
    if (other_texture) list->PushTextureID(ImTextureID(intptr_t(12345)));
    plot::detail::set_curve_strips_enabled(path == Path::Ours);
    if (path == Path::ImGui)
      list->AddPolyline(points.data(), int(points.size()), IM_COL32_WHITE, ImDrawFlags_None, thickness);
    else
      plot::detail::add_polyline(list, points.data(), int(points.size()), IM_COL32_WHITE, thickness);
    plot::detail::set_curve_strips_enabled(true);
    out.vertices = list->VtxBuffer.Size - vtx0;
    out.indices = list->IdxBuffer.Size - idx0;
    out.strip_vertices = plot::detail::curve_strip_vertices() - strips0;
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
  for (const Path path : {Path::Ours, Path::Atlas}) {
    for (const float width : {1.25f, 1.5f, 2.0f, 2.5f, 3.0f, 3.75f, 6.5f}) {
      if (path == Path::Atlas && width == std::round(width)) continue;  // whole pixels: ImGui's there
      for (const float y : {60.0f, 60.3f, 60.5f, 60.8f}) {
        const Drawn ours = draw(line({20, y}, {220, y}, 9), width, path);
        for (const int x : {40, 100, 171, 200}) {
          const Column c = column(ours, x);
          // 8-bit rounding of texels and of the blend: a few hundredths of a pixel.
          EXPECT_NEAR(c.weight, width, 0.04) << "path " << int(path) << " width " << width << " y " << y << " column " << x;
          EXPECT_NEAR(c.centroid, area_sampled_centroid(y, width), 0.01)
              << "path " << int(path) << " width " << width << " y " << y << " column " << x;
        }
      }
    }
  }
}

// The shaded strip computes the profile the atlas rows store: the same pixels but for the
// atlas's 8-bit texels and filter weights, on straight legs, at joins and at the ends.
TEST(LineTexture, ShadedStripDrawsWhatTheAtlasStripDraws) {
  std::vector<ImVec2> zig;
  for (int i = 0; i <= 8; ++i) zig.emplace_back(15.0f + 26.0f * i, i % 2 == 0 ? 30.3f : 131.7f - 3.0f * i);
  for (const float width : {1.25f, 1.5f, 2.625f, 4.5f}) {
    const Drawn shaded = draw(zig, width, Path::Ours), atlas = draw(zig, width, Path::Atlas);
    ASSERT_EQ(shaded.rgba.size(), atlas.rgba.size());
    int worst = 0;
    long long inked = 0;
    for (std::size_t i = 0; i < shaded.rgba.size(); i += 4) {
      worst = std::max(worst, std::abs(int(shaded.rgba[i]) - int(atlas.rgba[i])));
      inked += shaded.rgba[i] > 0;
    }
    EXPECT_LE(worst, 1) << "width " << width;
    EXPECT_GT(inked, 8 * 100 * width) << "width " << width;  // eight legs over 100 px tall were drawn
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
  for (const Path path : {Path::Ours, Path::Atlas})
    for (const float width : {1.5f, 2.5f, 4.25f}) {
      const Drawn ours = draw(line(a, b, 2), width, path);
      const Drawn imgui = draw(line(a, b, 2), width, Path::ImGui);
      const Mean m = mean_over_columns(ours, 40, 200, line_y), r = mean_over_columns(imgui, 40, 200, line_y);
      EXPECT_NEAR(m.weight, width / std::cos(angle), 0.02) << "path " << int(path) << " width " << width;
      EXPECT_NEAR(m.weight, r.weight, 0.05 * r.weight) << "path " << int(path) << " width " << width;
      EXPECT_NEAR(m.offset, 0.0, 0.02) << "path " << int(path) << " width " << width;
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
  for (const Path path : {Path::Ours, Path::Atlas}) {
  SCOPED_TRACE(path == Path::Ours ? "shaded strip" : "atlas strip");
  const Drawn ours = draw(zig, width, path);
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
}

TEST(LineTexture, TwoVerticesAPointOneQuadASegment) {
  const auto points = line({10, 10}, {230, 150}, 100);
  const Drawn ours = draw(points, 1.5f, Path::Ours);
  EXPECT_EQ(ours.strip_vertices, 2 * 100);
  EXPECT_EQ(ours.indices, 0);  // nothing for ImGui's shader: two callbacks, no triangles
  const Drawn atlas = draw(points, 1.5f, Path::Atlas);
  EXPECT_EQ(atlas.vertices, 2 * 100);
  EXPECT_EQ(atlas.indices, 6 * 99);
  EXPECT_EQ(atlas.strip_vertices, 0);
  // ImGui's fringed path for the same width: a core and two fringes.
  const Drawn imgui = draw(points, 1.5f, Path::ImGui);
  EXPECT_GE(imgui.vertices, 4 * 100);
}

// Curves drawn one after another share one draw; anything ImGui draws between them, or
// another clip rectangle, starts the next.
TEST(LineTexture, ConsecutiveStripsShareOneDraw) {
  const auto a = line({10, 10}, {230, 150}, 20), b = line({10, 150}, {230, 10}, 20);
  auto strip_draws = [&](auto between) {
    int callbacks = 0;
    pe_test::render_offscreen_frame(kWidth, kHeight, ImVec4(0, 0, 0, 1), [&] {
      ImDrawList* list = ImGui::GetBackgroundDrawList();
      const int cmd0 = list->CmdBuffer.Size;
      plot::detail::add_polyline(list, a.data(), int(a.size()), IM_COL32_WHITE, 1.5f);
      const bool pushed = between(list);
      plot::detail::add_polyline(list, b.data(), int(b.size()), IM_COL32_WHITE, 1.5f);
      plot::detail::add_polyline(list, a.data(), int(a.size()), IM_COL32(255, 0, 0, 255), 2.5f);
      if (pushed) list->PopClipRect();
      for (int c = std::max(cmd0 - 1, 0); c < list->CmdBuffer.Size; ++c)
        callbacks += plot::strip_command_stats(list->CmdBuffer[c]).has_value();
    });
    return callbacks;
  };
  EXPECT_EQ(strip_draws([](ImDrawList*) { return false; }), 1);
  EXPECT_EQ(strip_draws([](ImDrawList* l) {
              l->AddRectFilled({0, 0}, {4, 4}, IM_COL32_WHITE);
              return false;
            }),
            2);
  EXPECT_EQ(strip_draws([](ImDrawList* l) {
              l->PushClipRect({0, 0}, {100, 100});
              return true;
            }),
            2);
}

TEST(LineTexture, HairlinesAndWideStrokesGoToImGui) {
  const auto points = line({10, 10}, {230, 150}, 50);
  for (const auto& [width, imgui_width] : {std::pair{1.0f, 1.0f}, {0.5f, 0.5f}, {20.0f, 20.0f}}) {
    const Drawn ours = draw(points, width, Path::Ours), imgui = draw(points, imgui_width, Path::ImGui);
    EXPECT_EQ(ours.vertices, imgui.vertices) << "width " << width;
    EXPECT_EQ(ours.strip_vertices, 0) << "width " << width;
    EXPECT_EQ(ours.rgba, imgui.rgba) << "width " << width;
  }
  // Without the shader, whole pixels (2.04 px rounds to 2) go to ImGui's own textured path,
  // and so does any width while the list draws with another texture.
  for (const auto& [width, imgui_width] : {std::pair{2.0f, 2.0f}, {2.04f, 2.0f}}) {
    const Drawn atlas = draw(points, width, Path::Atlas), imgui = draw(points, imgui_width, Path::ImGui);
    EXPECT_EQ(atlas.vertices, imgui.vertices) << "width " << width;
    EXPECT_EQ(atlas.rgba, imgui.rgba) << "width " << width;
  }
  const Drawn foreign = draw(points, 1.5f, Path::Atlas, true), imgui = draw(points, 1.5f, Path::ImGui, true);
  EXPECT_EQ(foreign.vertices, imgui.vertices);
  // The shaded strip needs no texture: it draws whatever the list is drawing with.
  EXPECT_EQ(draw(points, 1.5f, Path::Ours, true).strip_vertices, 2 * 50);
}

}  // namespace
