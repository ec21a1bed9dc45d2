// Renders encoding heatmaps on the GPU into an offscreen framebuffer, reads the pixels
// back and compares each with the colour of the value computed here in double:
//  - a pixel narrower than a position shows cos/sin(p·θ) at the nearest integer p;
//  - a pixel spanning positions [a, b] shows the exact mean
//      mean cos = (sin θb − sin θa) / (θ(b − a)),  mean sin = (cos θa − cos θb) / (θ(b − a)).
// Needs no display: the platform layer renders through EGL where it can.
#include <epoxy/gl.h>
#include <backends/imgui_impl_opengl3.h>
#include <gtest/gtest.h>
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "platform/window.hpp"
#include "plot/plot.hpp"
#include "render/framebuffer.hpp"
#include "render/gl_errors.hpp"
#include "export/png_writer.hpp"

namespace {

constexpr int kDim = 64;
constexpr int kMaxChannelDifference = 3;  // 8-bit rounding plus interpolation order

std::vector<float> rope_frequencies(int dim, double base) {
  std::vector<float> f(dim / 2);
  for (int i = 0; i < dim / 2; ++i) f[i] = static_cast<float>(std::pow(base, -2.0 * i / dim));
  return f;
}

// The GL context and ImGui context shared by all tests: the platform's offscreen window
// (EGL without a display, else a hidden GLFW window), drawn into our own framebuffers.
class GlEnvironment : public ::testing::Environment {
 public:
  void SetUp() override {
    try {
      window_ = std::make_unique<app::Window>(
          app::WindowOptions{.width = 64, .height = 64, .visible = false, .title = "plot_heatmap_readback_test"});
    } catch (const std::exception& e) {
      GTEST_FAIL() << "no GL context: " << e.what();
    }
    ImGui::StyleColorsLight();
    ready = true;
  }
  void TearDown() override {
    ready = false;
    window_.reset();
  }
  static inline bool ready = false;

 private:
  std::unique_ptr<app::Window> window_;
};

struct Rgba {
  int r, g, b;
};

Rgba expected_color(plot::Colormap c, double value, double vmin, double vmax) {
  const ImU32 u = plot::colormap_color(c, (value - vmin) / (vmax - vmin));
  return {static_cast<int>(u >> IM_COL32_R_SHIFT & 0xff), static_cast<int>(u >> IM_COL32_G_SHIFT & 0xff),
          static_cast<int>(u >> IM_COL32_B_SHIFT & 0xff)};
}

// One rendered heatmap and the mapping from framebuffer pixels to plot coordinates.
struct Rendered {
  int width = 0, height = 0;
  std::vector<unsigned char> rgba;  // top-down
  // Plot data area in framebuffer pixels (y down) and the visible plot range.
  double left = 0, top = 0, right = 0, bottom = 0;
  double x_min = 0, x_max = 0, y_min = 0, y_max = 0;

  Rgba at(int x, int y) const {
    const unsigned char* p = &rgba[(static_cast<size_t>(y) * width + x) * 4];
    return {p[0], p[1], p[2]};
  }
  // Plot x at framebuffer x (continuous, pixel column X spans [X, X + 1]).
  double plot_x(double fx) const { return x_min + (fx - left) / (right - left) * (x_max - x_min); }
  double plot_y(double fy) const { return y_max - (fy - top) / (bottom - top) * (y_max - y_min); }
};

Rendered render(const plot::EncodingHeatmap& spec, int width, int height, float framebuffer_scale = 1.0f) {
  Rendered out;
  out.width = width;
  out.height = height;
  render::Framebuffer fb(width, height);
  ImGuiIO& io = ImGui::GetIO();
  io.DisplaySize = ImVec2(width / framebuffer_scale, height / framebuffer_scale);
  io.DisplayFramebufferScale = ImVec2(framebuffer_scale, framebuffer_scale);
  io.DeltaTime = 1.0f / 60.0f;
  io.MousePos = ImVec2(-1, -1);
  ImGui_ImplOpenGL3_NewFrame();
  ImGui::NewFrame();
  ImGui::SetNextWindowPos(ImVec2(0, 0));
  ImGui::SetNextWindowSize(io.DisplaySize);
  ImGui::Begin("test", nullptr, ImGuiWindowFlags_NoDecoration);
  if (plot::begin_plot("##heatmap", ImVec2(-1, -1), {.legend = false, .crosshair = false})) {
    const double y_max = spec.rows - 0.5;
    // Cells are centred on positions x0 .. x1, so the heatmap spans x0 - 1/2 .. x1 + 1/2.
    const double x_min = spec.x0 - 0.5, x_max = spec.x1 + 0.5;
    plot::setup_axes({.label = "position", .min = x_min, .max = x_max, .lock = true},
                     {.label = "row", .min = -0.5, .max = y_max, .lock = true});
    plot::plot_encoding_heatmap("enc", spec);
    const ImVec2 a = plot::to_pixels(x_min, -0.5), b = plot::to_pixels(x_max, y_max);
    out.left = a.x * framebuffer_scale, out.bottom = a.y * framebuffer_scale;
    out.right = b.x * framebuffer_scale, out.top = b.y * framebuffer_scale;
    out.x_min = plot::visible_x_min(), out.x_max = plot::visible_x_max();
    out.y_min = plot::visible_y_min(), out.y_max = plot::visible_y_max();
    plot::end_plot();
  }
  ImGui::End();
  ImGui::Render();
  fb.bind();
  glClearColor(0.5f, 0.5f, 0.5f, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
  out.rgba = fb.read_pixels();
  render::Framebuffer::unbind();
  if (const char* dir = std::getenv("PE_VIZ_TEST_PNG_DIR")) {
    static int counter = 0;
    app::write_png_atomic(std::string(dir) + "/heatmap_" + std::to_string(counter++) + ".png", width, height,
                             out.rgba);
  }
  return out;
}

bool is_cos_row(plot::EncodingFunction f, int row) {
  return f == plot::EncodingFunction::RopeCos || (f == plot::EncodingFunction::Sinusoidal && row % 2 == 1);
}

double theta_of_row(const plot::EncodingHeatmap& spec, int row) {
  return spec.frequencies[spec.function == plot::EncodingFunction::Sinusoidal ? row / 2 : row];
}

// What the pixel spanning positions [a, b] must show, in double.
double expected_value(const plot::EncodingHeatmap& spec, int row, double a, double b) {
  const double theta = theta_of_row(spec, row);
  const bool cos_row = is_cos_row(spec.function, row);
  const double center = 0.5 * (a + b);
  if (b - a <= 1.0) {
    const double p = std::floor(center + 0.5);
    return cos_row ? std::cos(theta * p) : std::sin(theta * p);
  }
  if (!spec.pixel_mean) return cos_row ? std::cos(theta * center) : std::sin(theta * center);
  const double span = theta * (b - a);
  if (span < 1e-9) return cos_row ? std::cos(theta * center) : std::sin(theta * center);
  return cos_row ? (std::sin(theta * b) - std::sin(theta * a)) / span
                 : (std::cos(theta * a) - std::cos(theta * b)) / span;
}

struct Comparison {
  int compared = 0, mismatched = 0, worst = 0;
  std::string first_mismatch;
};

// Compares every interior pixel column on each row's centre line.
Comparison compare(const Rendered& r, const plot::EncodingHeatmap& spec, float framebuffer_scale) {
  Comparison c;
  // The plot border (1 point plus its anti-aliasing fringe) covers the outermost columns.
  const int margin = static_cast<int>(std::ceil(2.0f * framebuffer_scale)) + 1;
  const int x_begin = static_cast<int>(std::ceil(r.left)) + margin;
  const int x_end = static_cast<int>(std::floor(r.right)) - margin;
  for (int row = 0; row < spec.rows; ++row) {
    // Framebuffer row whose centre is closest to the row's centre in plot y.
    const double fy_center = r.top + (r.y_max - row) / (r.y_max - r.y_min) * (r.bottom - r.top);
    const int y = static_cast<int>(std::floor(fy_center));
    if (y < 0 || y >= r.height) continue;
    const double plot_y = r.plot_y(y + 0.5);
    if (std::abs(plot_y - row) > 0.45) continue;  // too close to a row boundary
    for (int x = x_begin; x < x_end; ++x) {
      const double a = r.plot_x(x), b = r.plot_x(x + 1.0);
      // Pixels whose centre sits on a cell boundary could go either way.
      if (b - a <= 1.0) {
        const double center = 0.5 * (a + b);
        if (std::abs(center - std::floor(center) - 0.5) < 1e-3 * (b - a) + 1e-9) continue;
      }
      const double v = expected_value(spec, row, a, b);
      const Rgba want = expected_color(spec.colormap, v, spec.vmin, spec.vmax);
      const Rgba got = r.at(x, y);
      const int diff = std::max({std::abs(want.r - got.r), std::abs(want.g - got.g), std::abs(want.b - got.b)});
      ++c.compared;
      c.worst = std::max(c.worst, diff);
      if (diff > kMaxChannelDifference) {
        if (c.mismatched++ == 0) {
          char text[256];
          std::snprintf(text, sizeof text,
                        "pixel (%d,%d) row %d positions [%.3f, %.3f] value %.6f: want (%d,%d,%d) got (%d,%d,%d)", x,
                        y, row, a, b, v, want.r, want.g, want.b, got.r, got.g, got.b);
          c.first_mismatch = text;
        }
      }
    }
  }
  return c;
}

class HeatmapReadback : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!GlEnvironment::ready) GTEST_SKIP() << "no GL context";
    render::drain_gl_errors();
  }
  void TearDown() override {
    if (!GlEnvironment::ready) return;
    const auto errors = render::drain_gl_errors();
    EXPECT_TRUE(errors.empty()) << "GL error: " << (errors.empty() ? "" : errors.front());
    EXPECT_EQ(plot::heatmap_gpu_error(), "");
  }

  void expect_matches(const plot::EncodingHeatmap& spec, float framebuffer_scale = 1.0f, int width = 1100,
                      int height = 560) {
    const Rendered r = render(spec, width, height, framebuffer_scale);
    ASSERT_GT(r.right - r.left, 900.0) << "plot area should be about 1000 px wide";
    const Comparison c = compare(r, spec, framebuffer_scale);
    EXPECT_GT(c.compared, spec.rows * 800);
    EXPECT_EQ(c.mismatched, 0) << c.mismatched << " of " << c.compared
                               << " pixels differ by more than " << kMaxChannelDifference << "; first: "
                               << c.first_mismatch;
    std::printf("    %d pixels compared, worst channel difference %d\n", c.compared, c.worst);
  }

  std::vector<float> freqs_ = rope_frequencies(kDim, 10000.0);
  // A heatmap of positions first .. last.
  plot::EncodingHeatmap spec(plot::EncodingFunction f, double first, double last) const {
    plot::EncodingHeatmap s;
    s.function = f;
    s.frequencies = freqs_;
    s.rows = f == plot::EncodingFunction::Sinusoidal ? kDim : kDim / 2;
    s.x0 = first;
    s.x1 = last;
    return s;
  }
};

using plot::EncodingFunction;

TEST_F(HeatmapReadback, RopeCosShortTableMatchesExactValues) {
  expect_matches(spec(EncodingFunction::RopeCos, 0, 127));
}

TEST_F(HeatmapReadback, RopeSinShortTableMatchesExactValues) {
  expect_matches(spec(EncodingFunction::RopeSin, 0, 127));
}

TEST_F(HeatmapReadback, SinusoidalShortTableMatchesExactValues) {
  expect_matches(spec(EncodingFunction::Sinusoidal, 0, 127));
}

TEST_F(HeatmapReadback, RopeCosMillionPositionsShowsPixelMeans) {
  expect_matches(spec(EncodingFunction::RopeCos, 0, 1e6 - 1));
}

TEST_F(HeatmapReadback, RopeSinMillionPositionsShowsPixelMeans) {
  expect_matches(spec(EncodingFunction::RopeSin, 0, 1e6 - 1));
}

TEST_F(HeatmapReadback, SinusoidalMillionPositionsShowsPixelMeans) {
  expect_matches(spec(EncodingFunction::Sinusoidal, 0, 1e6 - 1));
}

// Zoomed in near p = 10^6, where float32 p·θ is off by up to 0.03 rad: each pixel is
// narrower than a position, so the exact per-position values must appear.
TEST_F(HeatmapReadback, ExactCellsNearOneMillion) {
  for (auto f : {EncodingFunction::RopeCos, EncodingFunction::RopeSin, EncodingFunction::Sinusoidal})
    expect_matches(spec(f, 1e6 - 400, 1e6 + 399));
}

// A few positions per pixel at p ~ 10^6: means over short spans, where phase errors
// would show directly.
TEST_F(HeatmapReadback, ShortMeansNearOneMillion) {
  for (auto f : {EncodingFunction::RopeCos, EncodingFunction::Sinusoidal})
    expect_matches(spec(f, 1e6 - 3000, 1e6 + 2999));
}

TEST_F(HeatmapReadback, PointSamplingWithoutPixelMean) {
  auto s = spec(EncodingFunction::RopeCos, 0, 131072 - 1);
  s.pixel_mean = false;
  expect_matches(s);
}

TEST_F(HeatmapReadback, HighDpiFramebufferScale) {
  expect_matches(spec(EncodingFunction::RopeCos, 0, 1e6 - 1), 2.0f, 2200, 1120);
  expect_matches(spec(EncodingFunction::RopeSin, 1e6 - 400, 1e6 + 399), 2.0f, 2200, 1120);
}

TEST_F(HeatmapReadback, ViridisColormap) {
  auto s = spec(EncodingFunction::RopeCos, 0, 127);
  s.colormap = plot::Colormap::Viridis;
  expect_matches(s);
}

// cos(0·θ) = 1 for every pair: the first position's column is the colour of +1.
TEST_F(HeatmapReadback, PositionZeroOfCosIsPlusOneColour) {
  const auto s = spec(EncodingFunction::RopeCos, 0, 127);
  const Rendered r = render(s, 1100, 560);
  const Rgba plus_one = expected_color(plot::Colormap::RdBu, 1.0, -1.0, 1.0);
  const int x0 = static_cast<int>(std::ceil(r.left)) + 1;  // inside cell [-0.5, 0.5]
  const int x1 = static_cast<int>(std::floor(r.left + (r.right - r.left) / 128.0)) - 1;
  ASSERT_LT(x0, x1);
  int checked = 0;
  for (int y = static_cast<int>(std::ceil(r.top)) + 1; y < static_cast<int>(r.bottom) - 1; ++y)
    for (int x = x0; x <= x1; ++x) {
      const Rgba got = r.at(x, y);
      ASSERT_LE(std::max({std::abs(got.r - plus_one.r), std::abs(got.g - plus_one.g), std::abs(got.b - plus_one.b)}),
                1)
          << "pixel (" << x << "," << y << ")";
      ++checked;
    }
  EXPECT_GT(checked, 100);
}

}  // namespace

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  ::testing::AddGlobalTestEnvironment(new GlEnvironment);
  return RUN_ALL_TESTS();
}
