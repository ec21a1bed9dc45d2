// The plot layer without a GPU: tick placement and labels, colormap tables, and the
// interaction (wheel zoom around the cursor, per-axis zoom, drag pan, double-click reset,
// lock, auto-fit, equal aspect) driven through ImGui's input state frame by frame.
#include <gtest/gtest.h>
#include <imgui.h>

#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "headless_imgui.hpp"
#include "plot/colormap.hpp"
#include "plot/plot.hpp"
#include "plot/plot_state.hpp"
#include "plot/text_draw.hpp"
#include "plot/ticks.hpp"

namespace {

using plot::detail::Tick;

std::vector<double> major_values(const std::vector<Tick>& ticks) {
  std::vector<double> v;
  for (const auto& t : ticks)
    if (t.major) v.push_back(t.value);
  return v;
}

TEST(Ticks, LinearUsesOneTwoFiveSteps) {
  const auto ticks = plot::detail::linear_ticks(0.0, 1.0, 6);
  ASSERT_EQ(major_values(ticks), (std::vector<double>{0.0, 0.2, 0.4, 0.6000000000000001, 0.8, 1.0}));
  EXPECT_EQ(ticks.front().label, "0.0");
  EXPECT_EQ(ticks[1].label, "0.2");
  EXPECT_EQ(ticks.back().label, "1.0");

  const auto wide = plot::detail::linear_ticks(-3.0, 127.0, 8);
  ASSERT_GE(wide.size(), 2u);
  const double step = wide[1].value - wide[0].value;
  EXPECT_DOUBLE_EQ(step, 20.0);
  EXPECT_EQ(wide[0].label, "0");
}

TEST(Ticks, IntegerFormatNeverRepeatsLabels) {
  const auto ticks = plot::detail::linear_ticks(-0.5, 3.5, 12, "%.0f");
  std::vector<std::string> labels;
  for (const auto& t : ticks) labels.push_back(t.label);
  EXPECT_EQ(labels, (std::vector<std::string>{"0", "1", "2", "3"}));
}

TEST(Ticks, LinearLargeValuesAreCompactScientific) {
  const auto ticks = plot::detail::linear_ticks(0.0, 1e6, 6);
  ASSERT_FALSE(ticks.empty());
  EXPECT_EQ(ticks.front().label, "0");
  EXPECT_EQ(ticks[1].label, "2e5");
  EXPECT_EQ(ticks.back().label, "1e6");
}

TEST(Ticks, NoNegativeZero) {
  for (const auto& t : plot::detail::linear_ticks(-1.0, 1.0, 5)) {
    if (t.value == 0.0) {
      EXPECT_EQ(t.label, "0.0");
    }
  }
}

TEST(Ticks, LogUsesDecadesWithMinorTicks) {
  const auto ticks = plot::detail::log_ticks(1.0, 1e6, 10);
  EXPECT_EQ(major_values(ticks), (std::vector<double>{1, 10, 100, 1e3, 1e4, 1e5, 1e6}));
  int minors = 0;
  for (const auto& t : ticks) minors += t.major ? 0 : 1;
  EXPECT_EQ(minors, 6 * 8);  // 2..9 in each full decade
  // Beyond 10^4 the labels are 10 with a superscript exponent.
  EXPECT_EQ(ticks.back().label, "10");
  EXPECT_EQ(ticks.back().superscript, "6");
}

TEST(Ticks, LogSmallRangeLabelsPlainly) {
  const auto ticks = plot::detail::log_ticks(0.01, 100.0, 10);
  std::vector<std::string> labels;
  for (const auto& t : ticks)
    if (t.major) labels.push_back(t.label + t.superscript);
  EXPECT_EQ(labels, (std::vector<std::string>{"0.01", "0.1", "1", "10", "100"}));
}

TEST(Ticks, LogThinsOutManyDecades) {
  const auto ticks = plot::detail::log_ticks(1e-30, 1e30, 8);
  EXPECT_LE(major_values(ticks).size(), 8u);
  EXPECT_GE(major_values(ticks).size(), 4u);
}

TEST(Colormap, PublishedEndpointsAndMidpoint) {
  EXPECT_EQ(plot::colormap_color(plot::Colormap::RdBu, 0.0), IM_COL32(0x67, 0x00, 0x1f, 255));
  EXPECT_EQ(plot::colormap_color(plot::Colormap::RdBu, 0.5), IM_COL32(0xf7, 0xf7, 0xf7, 255));
  EXPECT_EQ(plot::colormap_color(plot::Colormap::RdBu, 1.0), IM_COL32(0x05, 0x30, 0x61, 255));
  EXPECT_EQ(plot::colormap_color(plot::Colormap::Viridis, 0.0), IM_COL32(0x44, 0x01, 0x54, 255));
  EXPECT_EQ(plot::colormap_color(plot::Colormap::Viridis, 1.0), IM_COL32(0xfd, 0xe7, 0x25, 255));
  EXPECT_EQ(plot::colormap_color(plot::Colormap::Cividis, 0.0), IM_COL32(0x00, 0x20, 0x4d, 255));
  EXPECT_EQ(plot::colormap_color(plot::Colormap::Cividis, 1.0), IM_COL32(0xff, 0xea, 0x46, 255));
  // Clamped outside [0, 1].
  EXPECT_EQ(plot::colormap_color(plot::Colormap::RdBu, 7.0), plot::colormap_color(plot::Colormap::RdBu, 1.0));
}

// ---- Interaction, frame by frame -----------------------------------------------------

struct Input {
  ImVec2 mouse{-1, -1};
  bool down = false;
  float wheel = 0.0f;
};

struct Visible {
  double x_min, x_max, y_min, y_max;
  ImVec2 data_min, data_max;  // data area in pixels
};

class PlotInteraction : public ::testing::Test {
 protected:
  void SetUp() override {
    plot::clear_state();  // zoom/fit state is keyed by ImGui ID and outlives contexts
    imgui_.emplace();
  }
  void TearDown() override { imgui_.reset(); }

  // One frame with the given input; the plot covers the whole window.
  Visible frame(const Input& in, const plot::AxisSpec& x = {.min = 0, .max = 100},
                const plot::AxisSpec& y = {.min = 0, .max = 1}, plot::PlotOptions options = {},
                const std::vector<double>& line_x = {}, const std::vector<double>& line_y = {}) {
    ImGuiIO& io = ImGui::GetIO();
    io.MousePos = in.mouse;
    io.MouseDown[0] = in.down;
    io.MouseWheel = in.wheel;
    ImGui::NewFrame();
    ImGui::SetNextWindowPos(ImVec2(0, 0));
    ImGui::SetNextWindowSize(io.DisplaySize);
    ImGui::Begin("w", nullptr, ImGuiWindowFlags_NoDecoration);
    Visible v{};
    if (plot::begin_plot("##p", ImVec2(-1, -1), options)) {
      plot::setup_axes(x, y);
      if (!line_x.empty()) plot::plot_line("line", line_x, line_y);
      v = {plot::visible_x_min(), plot::visible_x_max(), plot::visible_y_min(), plot::visible_y_max(),
           plot::detail::current().rect.Min, plot::detail::current().rect.Max};
      plot::end_plot();
    }
    ImGui::End();
    ImGui::Render();
    return v;
  }

  ImVec2 center(const Visible& v) const {
    return ImVec2((v.data_min.x + v.data_max.x) * 0.5f, (v.data_min.y + v.data_max.y) * 0.5f);
  }
  double x_at(const Visible& v, float px) const {
    return v.x_min + (px - v.data_min.x) / (v.data_max.x - v.data_min.x) * (v.x_max - v.x_min);
  }

 private:
  std::optional<pe_test::HeadlessImGui> imgui_;
};

TEST_F(PlotInteraction, WheelZoomsAroundTheCursor) {
  Visible v = frame({});
  const ImVec2 m(v.data_min.x + (v.data_max.x - v.data_min.x) * 0.25f, center(v).y);
  const double before = x_at(v, m.x);
  frame({m});
  v = frame({m, false, 1.0f});
  EXPECT_LT(v.x_max - v.x_min, 100.0 * 0.9);
  EXPECT_LT(v.y_max - v.y_min, 0.9);
  const double tenth_pixel = (v.x_max - v.x_min) / (v.data_max.x - v.data_min.x) * 0.1;
  EXPECT_NEAR(x_at(v, m.x), before, tenth_pixel) << "the value under the cursor stays under it";
}

TEST_F(PlotInteraction, WheelOverAnAxisZoomsOnlyThatAxis) {
  Visible v = frame({});
  const ImVec2 below_x_axis(center(v).x, v.data_max.y + 8.0f);
  frame({below_x_axis});
  v = frame({below_x_axis, false, 2.0f});
  EXPECT_LT(v.x_max - v.x_min, 90.0);
  EXPECT_DOUBLE_EQ(v.y_min, 0.0);
  EXPECT_DOUBLE_EQ(v.y_max, 1.0);
}

TEST_F(PlotInteraction, DragPansAndDoubleClickResets) {
  Visible v = frame({});
  const ImVec2 m = center(v);
  const double px_per_unit = (v.data_max.x - v.data_min.x) / 100.0;
  frame({m});
  frame({m, true});
  v = frame({ImVec2(m.x + 100.0f, m.y), true});
  EXPECT_NEAR(v.x_min, -100.0 / px_per_unit, 1e-3);
  EXPECT_NEAR(v.x_max, 100.0 - 100.0 / px_per_unit, 1e-3);
  frame({ImVec2(m.x + 100.0f, m.y), false});
  // Double click: down, up, down within the double-click time.
  frame({m, true});
  frame({m, false});
  v = frame({m, true});
  frame({m, false});
  v = frame({m, false});
  EXPECT_DOUBLE_EQ(v.x_min, 0.0);
  EXPECT_DOUBLE_EQ(v.x_max, 100.0);
}

TEST_F(PlotInteraction, LockedAxisIgnoresZoom) {
  const plot::AxisSpec locked{.min = 0, .max = 100, .lock = true};
  Visible v = frame({}, locked);
  const ImVec2 m = center(v);
  frame({m}, locked);
  v = frame({m, false, 3.0f}, locked);
  EXPECT_DOUBLE_EQ(v.x_min, 0.0);
  EXPECT_DOUBLE_EQ(v.x_max, 100.0);
  EXPECT_LT(v.y_max - v.y_min, 0.9);  // y is still free
}

TEST_F(PlotInteraction, AutoFitFollowsTheData) {
  const std::vector<double> xs{0, 5, 10}, ys{-2, 3, 1};
  const plot::AxisSpec fit{};
  frame({}, fit, fit, {}, xs, ys);
  const Visible v = frame({}, fit, fit, {}, xs, ys);
  EXPECT_LE(v.x_min, 0.0);
  EXPECT_GE(v.x_max, 10.0);
  EXPECT_LT(v.y_min, -2.0);
  EXPECT_GT(v.y_max, 3.0);
  EXPECT_LT(v.y_max - v.y_min, 5.0 * 1.2);
}

TEST_F(PlotInteraction, EqualAspectMakesUnitsSquare) {
  const Visible v = frame({}, {.min = -1, .max = 1}, {.min = -1, .max = 1}, {.equal_aspect = true});
  const double ux = (v.x_max - v.x_min) / (v.data_max.x - v.data_min.x);
  const double uy = (v.y_max - v.y_min) / (v.data_max.y - v.data_min.y);
  EXPECT_NEAR(ux, uy, 1e-9);
  EXPECT_LE(v.x_min, -1.0);
  EXPECT_LE(v.y_min, -1.0);
}

TEST_F(PlotInteraction, XTickLabelsDoNotOverlap) {
  ImGuiIO& io = ImGui::GetIO();
  for (float width : {260.0f, 500.0f, 1200.0f}) {
    io.DisplaySize = ImVec2(width, 300);
    for (auto scale : {plot::Scale::Linear, plot::Scale::Log}) {
      io.MousePos = ImVec2(-1, -1);
      ImGui::NewFrame();
      ImGui::SetNextWindowPos(ImVec2(0, 0));
      ImGui::SetNextWindowSize(io.DisplaySize);
      ImGui::Begin("w", nullptr, ImGuiWindowFlags_NoDecoration);
      ASSERT_TRUE(plot::begin_plot("##ticks", ImVec2(-1, -1)));
      plot::setup_axes({.scale = scale, .min = 1, .max = 1048576, .lock = true}, {.min = 0, .max = 1});
      float previous_right = -1e9f;
      int labels = 0;
      for (const auto& t : plot::detail::current().x_ticks) {
        if (!t.major) continue;
        const float x = plot::to_pixels(t.value, 0).x;
        const float w = plot::detail::tick_label_size(t).x;
        EXPECT_GT(x - w * 0.5f, previous_right) << "width " << width << " label " << t.label << t.superscript;
        previous_right = x + w * 0.5f;
        ++labels;
      }
      EXPECT_GE(labels, 2);
      plot::end_plot();
      ImGui::End();
      ImGui::Render();
    }
  }
}

// A short plot (compare's sides, a curve under a heatmap at projector scale) keeps at least
// two y labels, none overlapping: a cos axis used to round to a step of 2 and show only "0".
TEST_F(PlotInteraction, ShortPlotsKeepTwoYLabelsApart) {
  ImGuiIO& io = ImGui::GetIO();
  io.DisplaySize = ImVec2(600, 400);
  const float font = io.Fonts->Fonts[0]->FontSize;
  for (float height : {5.0f * font, 6.0f * font, 7.0f * font, 8.0f * font, 10.0f * font}) {
    io.MousePos = ImVec2(-1, -1);
    ImGui::NewFrame();
    ImGui::SetNextWindowPos(ImVec2(0, 0));
    ImGui::SetNextWindowSize(io.DisplaySize);
    ImGui::Begin("w", nullptr, ImGuiWindowFlags_NoDecoration);
    const plot::MinDataLinesScope short_plots(0.0f);
    ASSERT_TRUE(plot::begin_plot("##short", ImVec2(-1, height)));
    plot::setup_axes({.min = 0, .max = 127, .lock = true}, {.min = -1.1, .max = 1.1, .auto_fit = false, .lock = true});
    std::vector<float> ys;
    for (const auto& t : plot::detail::current().y_ticks)
      if (t.major) ys.push_back(plot::to_pixels(0, t.value).y);
    const float data_height = plot::detail::current().rect.GetHeight();
    plot::end_plot();
    ImGui::End();
    ImGui::Render();
    if (data_height < 2.7f * font) continue;  // no room for two labels and the gap between
    EXPECT_GE(ys.size(), 2u) << "plot " << height << " px, data " << data_height << " px";
    for (std::size_t k = 1; k < ys.size(); ++k) EXPECT_GE(std::abs(ys[k] - ys[k - 1]), 1.25f * font) << "labels overlap";
  }
}

}  // namespace

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
