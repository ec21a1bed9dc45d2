// Round markers drawn as one textured quad each (plot/marker_texture): a marker must weigh
// what a disc with ImGui's one-pixel edge ramp weighs — ∫ clamp(r + ½ − |x − c|, 0, 1) dA =
// π (r² + 1/12), worked out by hand below — sit on its centre at any subpixel position, cost
// four vertices, and leave other radii and textures to ImGui. Rendered offscreen and read back.
#include <gtest/gtest.h>
#include <imgui.h>

#include <cmath>
#include <numbers>
#include <vector>

#include "offscreen_frame.hpp"
#include "plot/marker_texture.hpp"

namespace {

constexpr int kWidth = 160, kHeight = 120;

const auto* const kEnvironment = ::testing::AddGlobalTestEnvironment(new pe_test::OffscreenWindow("marker_texture_test"));

enum class Path { Ours, ImGui };

struct Drawn {
  std::vector<unsigned char> rgba;  // top-down
  int vertices = 0, indices = 0;
  int at(int x, int y) const { return rgba[(std::size_t(y) * kWidth + x) * 4]; }  // red
};

// One frame: white markers on black in the background draw list.
Drawn draw(const std::vector<ImVec2>& centres, float radius, Path path, bool other_texture = false) {
  Drawn out;
  out.rgba = pe_test::render_offscreen_frame(kWidth, kHeight, ImVec4(0, 0, 0, 1), [&] {
    ImDrawList* list = ImGui::GetBackgroundDrawList();
    const int vtx0 = list->VtxBuffer.Size, idx0 = list->IdxBuffer.Size;
    if (other_texture) list->PushTextureID(ImTextureID(intptr_t(12345)));
    for (const ImVec2 c : centres) {
      if (path == Path::Ours)
        plot::detail::add_marker(list, c, radius, IM_COL32_WHITE);
      else
        list->AddCircleFilled(c, radius, IM_COL32_WHITE, 12);
    }
    out.vertices = list->VtxBuffer.Size - vtx0;
    out.indices = list->IdxBuffer.Size - idx0;
    if (other_texture) {  // nothing may reach GL with a made-up texture name
      list->VtxBuffer.resize(vtx0);
      list->IdxBuffer.resize(idx0);
      list->PopTextureID();
    }
  }, /*draw=*/!other_texture);
  return out;
}

// Total ink in units of one covered pixel, and its centroid (pixel centres at i + ½).
struct Ink {
  double weight = 0, x = 0, y = 0;
};
Ink ink(const Drawn& d) {
  Ink k;
  for (int y = 0; y < kHeight; ++y)
    for (int x = 0; x < kWidth; ++x) {
      const double w = d.at(x, y) / 255.0;
      k.weight += w;
      k.x += w * (x + 0.5);
      k.y += w * (y + 0.5);
    }
  if (k.weight > 0) k.x /= k.weight, k.y /= k.weight;
  return k;
}

// Full coverage out to r − ½, then a ramp falling linearly to 0 at r + ½:
// π(r − ½)² + ∫₀¹ (1 − u) 2π(r − ½ + u) du = π(r − ½)² + π(r − ½) + π/3 = π(r² + 1/12).
double ramped_disc_area(double r) { return std::numbers::pi * (r * r + 1.0 / 12.0); }

TEST(MarkerTexture, RadiiAreQuantisedToQuarterPixels) {
  EXPECT_FLOAT_EQ(plot::quantized_marker_radius(2.4f), 2.5f);
  EXPECT_FLOAT_EQ(plot::quantized_marker_radius(2.7f), 2.75f);
  EXPECT_FLOAT_EQ(plot::quantized_marker_radius(3.0f), 3.0f);
}

TEST(MarkerTexture, MarkerWeighsARampedDiscAndSitsOnItsCentre) {
  for (const float r : {1.5f, 2.5f, 2.75f, 4.25f, 7.0f, 12.5f, 16.0f}) {
    for (const ImVec2 c : {ImVec2(60.0f, 50.0f), ImVec2(60.3f, 50.7f), ImVec2(60.5f, 50.5f), ImVec2(61.85f, 49.1f)}) {
      const Ink k = ink(draw({c}, r, Path::Ours));
      // 8-bit texels and blending round each edge pixel by up to half a level.
      EXPECT_NEAR(k.weight, ramped_disc_area(r), 0.01 * ramped_disc_area(r) + 0.05) << "r " << r << " at " << c.x << ", " << c.y;
      EXPECT_NEAR(k.x, c.x, 0.02) << "r " << r << " at " << c.x << ", " << c.y;
      EXPECT_NEAR(k.y, c.y, 0.02) << "r " << r << " at " << c.x << ", " << c.y;
    }
  }
}

TEST(MarkerTexture, WeighsWhatImGuisTwelveGonWeighsToAFewPercent) {
  // ImGui's circle is a 12-gon inscribed in r (area 3r², 4.5 % under the disc's πr²), so the
  // texture's true circle carries a few percent more ink; the picture is the same dot.
  for (const float r : {2.5f, 4.0f, 9.0f}) {
    const Ink ours = ink(draw({{60.3f, 50.6f}}, r, Path::Ours)), imgui = ink(draw({{60.3f, 50.6f}}, r, Path::ImGui));
    EXPECT_GT(ours.weight, imgui.weight) << "r " << r;
    EXPECT_LT(ours.weight, 1.06 * imgui.weight) << "r " << r;
    EXPECT_NEAR(ours.x, imgui.x, 0.05) << "r " << r;
    EXPECT_NEAR(ours.y, imgui.y, 0.05) << "r " << r;
  }
}

TEST(MarkerTexture, FourVerticesAMarker) {
  std::vector<ImVec2> centres;
  for (int i = 0; i < 100; ++i) centres.emplace_back(8.0f + 1.43f * i, 20.0f + 0.7f * i);
  const Drawn ours = draw(centres, 2.5f, Path::Ours), imgui = draw(centres, 2.5f, Path::ImGui);
  EXPECT_EQ(ours.vertices, 4 * 100);
  EXPECT_EQ(ours.indices, 6 * 100);
  EXPECT_GE(imgui.vertices, 24 * 100);  // the 12-gon and its fringe ring
}

TEST(MarkerTexture, OtherRadiiAndTexturesGoToImGui) {
  const std::vector<ImVec2> centres{{40.0f, 40.0f}, {100.3f, 60.6f}};
  for (const float r : {0.5f, 0.75f, 16.5f, 24.0f}) {
    const Drawn ours = draw(centres, r, Path::Ours), imgui = draw(centres, r, Path::ImGui);
    EXPECT_EQ(ours.vertices, imgui.vertices) << "r " << r;
    EXPECT_EQ(ours.rgba, imgui.rgba) << "r " << r;
  }
  const Drawn foreign = draw(centres, 3.0f, Path::Ours, true), imgui = draw(centres, 3.0f, Path::ImGui, true);
  EXPECT_EQ(foreign.vertices, imgui.vertices);
}

}  // namespace
