// Dashed data lines (plot_line with dashed = true): each dash is one polyline, so a dash
// that runs over many data points costs two vertices a point (not a separate stroke per
// piece), and the ink is that of the dash pattern: on = 4 × width, off = 2.5 × width,
// measured along the path. Rendered offscreen; coverage per pixel is recovered from the
// frames with and without the line.
#include <gtest/gtest.h>
#include <imgui.h>

#include <cmath>
#include <vector>

#include "offscreen_frame.hpp"
#include "plot/curve_strips.hpp"
#include "plot/plot.hpp"
#include "plot/plot_state.hpp"

namespace {

constexpr int kWidth = 480, kHeight = 240;

const auto* const kEnvironment = ::testing::AddGlobalTestEnvironment(new pe_test::OffscreenWindow("dashed_lines_test"));

struct Frame {
  std::vector<unsigned char> rgba;  // top-down
  int line_vertices = 0;            // what the line added: to the plot's draw list, and as curve strips
  float left = 0, right = 0;        // data area in pixels
};

// One frame: a plot over x in [0, 200], y in [0, 1] with a white line at y = 0.53 through
// `points` evenly spaced points (none when points == 0), alternately `zigzag` above and
// below it.
Frame draw(int points, float thickness, bool dashed, double zigzag = 0.0) {
  ImGui::GetIO().MousePos = ImVec2(-1, -1);
  Frame out;
  out.rgba = pe_test::render_offscreen_frame(kWidth, kHeight, ImVec4(0, 0, 0, 1), [&] {
    ImGui::SetNextWindowPos(ImVec2(0, 0));
    ImGui::SetNextWindowSize(ImGui::GetIO().DisplaySize);
    ImGui::Begin("w", nullptr, ImGuiWindowFlags_NoDecoration);
    if (plot::begin_plot("##p", ImVec2(-1, -1), {.legend = false, .crosshair = false})) {
      plot::setup_axes({.min = 0, .max = 200, .auto_fit = false, .lock = true}, {.min = 0, .max = 1, .auto_fit = false, .lock = true});
      std::vector<double> xs, ys;
      for (int i = 0; i < points; ++i) {
        xs.push_back(200.0 * i / (points - 1));
        ys.push_back(0.53 + (i % 2 == 0 ? zigzag : -zigzag));
      }
      ImDrawList* list = ImGui::GetWindowDrawList();
      const int before = list->VtxBuffer.Size;
      const long long strips_before = plot::detail::curve_strip_vertices();
      if (points > 0) plot::plot_line("line", xs, ys, {.color = IM_COL32_WHITE, .thickness = thickness, .dashed = dashed});
      out.line_vertices = list->VtxBuffer.Size - before + int(plot::detail::curve_strip_vertices() - strips_before);
      out.left = plot::detail::current().rect.Min.x;
      out.right = plot::detail::current().rect.Max.x;
      plot::end_plot();
    }
    ImGui::End();
  });
  return out;
}

// Coverage of every pixel by the (opaque white) line: the red channel moved from what was
// under it towards 255, as a fraction of the way; summed over the frame.
double ink(const Frame& with, const Frame& without) {
  double sum = 0;
  for (std::size_t i = 0; i < with.rgba.size(); i += 4) {
    const double under = without.rgba[i], now = with.rgba[i];
    if (under < 250 && now != under) sum += (now - under) / (255.0 - under);
  }
  return sum;
}

// The dash pattern's ink over a straight run of `length` pixels.
double pattern_ink(double length, double width) {
  const double on = 4 * width, period = 6.5 * width;
  const double full = std::floor(length / period), rest = length - full * period;
  return width * (full * on + std::min(rest, on));
}

TEST(DashedLines, EachDashIsOneStrokeAndInksItsPattern) {
  for (const float width : {1.5f, 2.0f, 2.5f}) {
    const Frame empty = draw(0, width, true);
    const Frame two = draw(2, width, true), dense = draw(401, width, true), solid = draw(401, width, false);
    const double length = two.right - two.left, dashes = std::ceil(length / (6.5 * width));
    // Two data points: every dash is a two-point stroke, 4 vertices.
    EXPECT_EQ(two.line_vertices, int(4 * dashes)) << "width " << width;
    // Ink: the pattern's, and the same however many points the straight path has.
    const double expected = pattern_ink(length, width);
    EXPECT_NEAR(ink(two, empty), expected, 0.03 * expected) << "width " << width;
    EXPECT_NEAR(ink(dense, empty), ink(two, empty), 0.01 * expected) << "width " << width;
    EXPECT_NEAR(ink(solid, empty), width * length, 0.03 * width * length) << "width " << width;
  }
}

TEST(DashedLines, ADashOverManyPointsCostsTwoVerticesAPoint) {
  // A fine zig-zag (±0.012 of the y range, ~2 px, a point every ~1.1 px) that no
  // simplification can straighten: dashes bend over several points each.
  for (const float width : {1.5f, 2.5f}) {
    const Frame dashed = draw(401, width, true, 0.012), solid = draw(401, width, false, 0.012);
    EXPECT_EQ(solid.line_vertices, 2 * 401) << "width " << width;
    // At most two vertices a point inside dashes plus each dash's two ends; a stroke per
    // piece (the old way) cost 4–8 vertices a point.
    const double per_step = std::hypot((dashed.right - dashed.left) / 400.0, 0.024 * 150);
    const double dashes = std::ceil(400 * per_step / (6.5 * width));
    EXPECT_LE(dashed.line_vertices, int(2 * (401 + 2 * dashes))) << "width " << width;
  }
}

}  // namespace
