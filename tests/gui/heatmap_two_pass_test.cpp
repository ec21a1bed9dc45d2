// Two-pass heatmaps (plot/heatmap_renderer.cpp) give exactly the pixels of one pass: every
// heatmap view rendered both ways, at 1× dark and 2× light, at a teaching size and at
// L = 10⁶, d = 1024 (pixel means), must be byte-identical — and the two-pass path must
// actually have drawn, or the comparison would prove nothing. Heatmaps computed on the CPU
// (software GL: plot/heatmap_pixels.hpp) must be within one 8-bit level of the shaders'
// everywhere, with no row, column or NaN hole moved.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <string>
#include <vector>

#include "export/view_export.hpp"
#include "plot/plot.hpp"
#include "test_support.hpp"

namespace {

using namespace pe_test;

const bool kRegistered = register_session_environment();

class HeatmapTwoPass : public SessionTest {
 protected:
  // The shader paths are compared here; the CPU path has its own test below.
  void SetUp() override {
    SessionTest::SetUp();
    plot::set_cpu_heatmaps(false);
  }
  void TearDown() override {
    plot::set_two_pass_heatmaps(true);
    plot::set_cpu_heatmaps(true);
    SessionTest::TearDown();
  }

  struct Render {
    Image image;
    plot::HeatmapDrawCounts draws;  // during the export
  };
  // Through the export path, which waits for every worker's exact result: a window frame
  // may show a previous result while one is computed (extrapolation, comparison).
  Render render(bool two_pass) {
    plot::set_two_pass_heatmaps(two_pass);
    const plot::HeatmapDrawCounts before = plot::heatmap_draw_counts();
    const app::AppState& s = session().state();
    Image im(kWidth, kHeight, app::render_view_pixels(session(), s.view, kWidth, kHeight, app::Background::Theme));
    const plot::HeatmapDrawCounts after = plot::heatmap_draw_counts();
    return {std::move(im), {after.one_pass - before.one_pass, after.two_pass - before.two_pass, after.cpu - before.cpu}};
  }
  static constexpr int kWidth = 1280, kHeight = 720;

  struct Config {
    long long length, dim;
    float scale;
    bool dark;
  };
  // The session shows `view` in configuration `c` (and says so in failure messages).
  void show(const char* view, const Config& c) {
    app::AppState& s = session().state();
    s = known_state();
    s.view = view;
    s.length = c.length;
    s.rope.head_dim = c.dim;
    s.rope.max_position_embeddings = c.length;
    s.ui_scale = c.scale;
    s.dark_theme = c.dark;
  }
  static std::string describe(const char* view, const Config& c) {
    return std::string(view) + " L=" + std::to_string(c.length) + " d=" + std::to_string(c.dim) + (c.dark ? " dark" : " light") +
           " scale " + std::to_string(c.scale);
  }
};

TEST_F(HeatmapTwoPass, SamePixelsAsOnePassInEveryHeatmapView) {
  const std::vector<Config> configs = {{128, 64, 1.0f, true}, {1000000, 1024, 2.0f, false}, {300, 96, 1.0f, false}};
  const char* views[] = {"sinusoidal", "learned", "rope-cos", "rope-sin", "attention", "alibi", "extrapolation",
                         "compare", "rope-2d", "scaling", "mrope-layout"};
  long long two_pass_draws = 0;
  for (const Config& c : configs)
    for (const char* view : views) {
      SCOPED_TRACE(describe(view, c));
      show(view, c);
      const Render one = render(false), two = render(true);
      ASSERT_TRUE(one.image.valid() && two.image.valid());
      EXPECT_EQ(one.draws.two_pass, 0);
      EXPECT_EQ(differing_pixels(one.image, two.image), 0u);
      EXPECT_TRUE(one.image.rgba == two.image.rgba);
      two_pass_draws += two.draws.two_pass;
    }
  // sinusoidal / RoPE at d = 64: 32–64 rows over hundreds of pixels always take two passes.
  EXPECT_GT(two_pass_draws, 10);
}

// The largest difference of any colour channel between two images of one size.
int max_channel_difference(const Image& a, const Image& b) {
  int worst = 0;
  for (std::size_t i = 0; i < a.rgba.size() && i < b.rgba.size(); ++i)
    worst = std::max(worst, std::abs(int(a.rgba[i]) - int(b.rgba[i])));
  return worst;
}

TEST_F(HeatmapTwoPass, CpuHeatmapsWithinOneLevelOfTheShaders) {
  if (plot::heatmap_draw_counts().cpu == 0) {
    // Only software GL takes the CPU path: find out with one frame.
    plot::set_cpu_heatmaps(true);
    session().state().view = "rope-cos";
    if (render(true).draws.cpu == 0) GTEST_SKIP() << "not a software renderer: encoding heatmaps stay on the GPU";
  }
  // Pixel means at 10⁶, cells when zoomed in (L = 128), rows taller and shorter than pixels.
  const std::vector<Config> configs = {{128, 64, 1.0f, true}, {1000000, 1024, 2.0f, false}, {1000000, 1024, 1.0f, true},
                                       {300, 96, 1.0f, false}};
  // Encoding heatmaps, then value heatmaps (attention's 64 × 64 patterns, bias tables, the
  // learned table with its NaN columns past max_len, compare's difference table).
  const char* views[] = {"sinusoidal", "rope-cos", "rope-sin", "compare", "transformer-xl", "attention", "t5-bias",
                         "deberta", "relative-key", "alibi", "learned", "rope-2d", "mrope-positions"};
  long long cpu_draws = 0;
  for (const Config& c : configs)
    for (const char* view : views) {
      SCOPED_TRACE(describe(view, c));
      show(view, c);
      plot::set_cpu_heatmaps(false);
      const Render shader = render(true);
      plot::set_cpu_heatmaps(true);
      const Render cpu = render(true);
      ASSERT_TRUE(shader.image.valid() && cpu.image.valid());
      EXPECT_EQ(shader.draws.cpu, 0);
      EXPECT_LE(max_channel_difference(shader.image, cpu.image), 1);
      cpu_draws += cpu.draws.cpu;
    }
  EXPECT_GE(cpu_draws, 100);  // 123 here: at least one heatmap a view and configuration, most several
}

TEST_F(HeatmapTwoPass, TallRowsTakeTwoPassesShortRowsOne) {
  app::AppState& s = session().state();
  s.view = "rope-cos";
  s.rope.head_dim = 64;  // 32 rows: each many pixels tall
  Render r = render(true);
  EXPECT_GE(r.draws.two_pass, 1);
  EXPECT_EQ(r.draws.one_pass, 0);
  s.rope.head_dim = 4096;  // 2048 rows in a few hundred pixels: one pass is cheaper
  s.length = 256;
  r = render(true);
  EXPECT_EQ(r.draws.two_pass, 0);
  EXPECT_GE(r.draws.one_pass, 1);
}

}  // namespace
