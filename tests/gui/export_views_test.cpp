// PNG export through export_view_png / render_view_pixels (issue 5):
//  - every view at 800×600 writes a PNG whose IHDR says 800×600 (read by hand), which
//    decodes (stb_image) to a picture, not a blank frame, and equals the rendered pixels;
//  - a few views at 3840×2160 likewise;
//  - a 4K export box-filtered 4×4 matches a 960×540 export (same aspect, same layout at
//    1/4 scale) in the heatmap region;
//  - default file names say what is in them; writes are atomic (no temp files left);
//  - unwritable paths and bad sizes throw with the path/size named, and the session goes on.
#include <chrono>
#include <cstdlib>

#include "export/view_export.hpp"
#include "test_support.hpp"
#include "views/view.hpp"

namespace {

using namespace pe_test;

const bool kRegistered = register_session_environment();

class ExportTest : public SessionTest {};

void expect_png(const fs::path& path, int w, int h) {
  SCOPED_TRACE(path.string());
  const PngHeader header = read_png_header(path);
  ASSERT_TRUE(header.ok) << header.error;
  EXPECT_EQ(header.width, std::uint32_t(w));
  EXPECT_EQ(header.height, std::uint32_t(h));
  EXPECT_EQ(header.bit_depth, 8);
  EXPECT_TRUE(header.colour_type == 6 || header.colour_type == 2) << "colour type " << header.colour_type;
}

TEST_F(ExportTest, DefaultNameSaysWhatIsInTheFile) {
  app::AppState s = known_state();
  EXPECT_EQ(app::default_export_name(s, "rope-cos"), "rope-cos_theta10000_d64_L128.png");  // issue 5's example
  s.rope.theta = 500000;
  s.rope.head_dim = 128;
  s.length = 8192;
  EXPECT_EQ(app::default_export_name(s, "sinusoidal"), "sinusoidal_theta500000_d128_L8192.png");
  s.rope.theta = 1e6;
  const std::string name = app::default_export_name(s, "alibi");
  EXPECT_NE(name.find("alibi_theta"), std::string::npos);
  EXPECT_EQ(name.find('+'), std::string::npos) << name;  // 1e+06 would be an odd file name
  EXPECT_TRUE(name.ends_with(".png"));
  // Scaled configurations name the method and factor; different factors, different names.
  s.rope.scaling.type = pe::RopeType::Linear;
  s.rope.scaling.factor = 4;
  const std::string a = app::default_export_name(s, "rope-cos");
  s.rope.scaling.factor = 8;
  const std::string b = app::default_export_name(s, "rope-cos");
  EXPECT_NE(a.find("linear"), std::string::npos) << a;
  EXPECT_NE(a, b);
}

TEST_F(ExportTest, EveryViewAt800x600IsAnExactSizeNonBlankPng) {
  TempDir dir;
  for (const auto& v : app::all_views()) {
    SCOPED_TRACE(v.name);
    const fs::path path = dir / app::default_export_name(session().state(), v.name);
    // A throw-away render first: the first export of a view can differ from later ones
    // (ExportDoesNotDependOnWhatWasDrawnBefore tests that); here the file is compared
    // with the render of the same state right after it.
    app::render_view_pixels(session(), v.name, 800, 600, app::Background::Theme);
    ASSERT_NO_THROW(app::export_view_png(session(), {v.name, 800, 600, app::Background::Theme, path}));
    EXPECT_TRUE(render::drain_gl_errors().empty());
    ASSERT_TRUE(fs::exists(path));
    expect_png(path, 800, 600);
    const Image decoded = decode_png(path);
    ASSERT_TRUE(decoded.valid()) << "stb_image cannot decode " << path;
    EXPECT_EQ(decoded.width, 800);
    EXPECT_EQ(decoded.height, 600);
    EXPECT_TRUE(is_not_blank(decoded, whole(decoded)));
    // The file holds what the renderer draws for that state (rendered again right after
    // the export: see ExportDoesNotDependOnWhatWasDrawnBefore for the first export).
    const Image rendered(800, 600, app::render_view_pixels(session(), v.name, 800, 600, app::Background::Theme));
    EXPECT_EQ(differing_pixels(decoded, rendered), 0u);
  }
  // Only the PNGs: the atomic writer leaves no temporary files behind.
  EXPECT_EQ(dir.entries().size(), app::all_views().size());
  for (const auto& name : dir.entries()) EXPECT_TRUE(name.ends_with(".png") && name[0] != '.') << name;
}

TEST_F(ExportTest, FourKExportsOfSomeViewsAreExactSizeAndNotBlank) {
  TempDir dir;
  for (const char* view : {"rope-cos", "clock-hands", "relative-score"}) {
    SCOPED_TRACE(view);
    const fs::path path = dir / (std::string(view) + ".png");
    double ms = 0;
    ASSERT_NO_THROW(ms = app::export_view_png(session(), {view, 3840, 2160, app::Background::Theme, path}));
    std::printf("4K export of %s: %.0f ms\n", view, ms);
    EXPECT_GT(ms, 0.0);
    EXPECT_TRUE(render::drain_gl_errors().empty());
    expect_png(path, 3840, 2160);
    const Image decoded = decode_png(path);
    ASSERT_TRUE(decoded.valid());
    EXPECT_TRUE(is_not_blank(decoded, whole(decoded)));
  }
}

// A 3840×2160 export is laid out exactly like a 960×540 one at 4× scale (export_scale
// keeps the proportions of a 1600×1000 window: 2.16 vs 0.54). Box-filtering the 4K image
// 4×4 must then give the small image's heatmap, up to the cells' edges: a cell boundary
// falls inside a 4×4 block at most once per cell column, where the average mixes the two
// neighbours' colours. The heatmap shows 128 positions over ~600 px (a boundary every
// ~4.7 px, blending at most half the step between neighbouring colours), so whole-region
// mean differences of a few levels are expected; a misplaced or rescaled heatmap (one
// pixel shift of a pair-0 row whose colour changes by ~60 levels per cell) or an
// upscaled low-resolution render gives far more. Tolerance: mean ≤ 6 levels of 255, and
// 90% of pixels within 24.
TEST_F(ExportTest, FourKDownsampledMatchesSmallExportInTheHeatmap) {
  const Image small(960, 540, app::render_view_pixels(session(), "rope-cos", 960, 540, app::Background::Theme));
  const Image big(3840, 2160, app::render_view_pixels(session(), "rope-cos", 3840, 2160, app::Background::Theme));
  const Image down = box_downsample(big, 4);
  ASSERT_EQ(down.width, 960);
  ASSERT_EQ(down.height, 540);
  if (const char* d = std::getenv("PE_TEST_IMAGE_DIR")) {
    write_ppm(fs::path(d) / "small960.ppm", small);
    write_ppm(fs::path(d) / "down4k.ppm", down);
  }
  // The heatmap region from the small image: its position-0 column (all +1) and the top
  // pair's row (≈ +1 across the table) give its left, top, bottom and right.
  const ColumnHit edge = leftmost_column_with_run(small, kRdBuPlusOne, kColourTolerance, small.height / 8, whole(small));
  ASSERT_GE(edge.x, 0) << "no heatmap found in the 960x540 export";
  const PixelRun top_row = longest_horizontal_run(small, edge.run.start + 1, kRdBuPlusOne, kColourTolerance, whole(small));
  Rect heat{edge.x, edge.run.start, top_row.start + top_row.length, edge.run.start + edge.run.length};
  ASSERT_GT(heat.width(), 200) << "heatmap region too small to compare";
  // Stay 2 px inside the edges (anti-aliased plot frame lines).
  heat = {heat.x0 + 2, heat.y0 + 2, heat.x1 - 2, heat.y1 - 2};
  const double mad = mean_abs_difference(small, down, heat);
  int within = 0;
  for (int y = heat.y0; y < heat.y1; ++y)
    for (int x = heat.x0; x < heat.x1; ++x) within += channel_distance(small.at(x, y), down.at(x, y)) <= 24;
  const double fraction = double(within) / (double(heat.width()) * heat.height());
  std::printf("heatmap [%d,%d)x[%d,%d): mean abs difference %.2f, %.1f%% of pixels within 24\n", heat.x0, heat.x1,
              heat.y0, heat.y1, mad, fraction * 100);
  EXPECT_LE(mad, 6.0);
  EXPECT_GE(fraction, 0.90);
  // And the 4K image found the same heatmap place, scaled: its position-0 column at 4×.
  const ColumnHit big_edge = leftmost_column_with_run(big, kRdBuPlusOne, kColourTolerance, big.height / 8, whole(big));
  EXPECT_NEAR(big_edge.x, 4 * edge.x, 6);
  EXPECT_NEAR(big_edge.run.length, 4 * edge.run.length, 12);
}

TEST_F(ExportTest, BackgroundsWhiteAndTransparent) {
  const Image white(640, 400, app::render_view_pixels(session(), "rope-spectrum", 640, 400, app::Background::White));
  // Inside the corner (the outermost pixels carry the window's rounded border) is window
  // background: white. Everything opaque.
  EXPECT_EQ(white.at(6, 6), (Rgb{255, 255, 255}));
  EXPECT_EQ(white.alpha(6, 6), 255);
  EXPECT_TRUE(is_not_blank(white, whole(white)));
  const Image clear(640, 400, app::render_view_pixels(session(), "rope-spectrum", 640, 400, app::Background::Transparent));
  EXPECT_EQ(clear.alpha(6, 6), 0) << "transparent background: the corner should have alpha 0";
  std::size_t opaque = 0;
  for (std::size_t i = 3; i < clear.rgba.size(); i += 4) opaque += clear.rgba[i] == 255;
  EXPECT_GT(opaque, clear.rgba.size() / 4 / 50) << "the plot itself must still be drawn";
  // Exports do not change the session's theme.
  EXPECT_TRUE(session().state().dark_theme);
  EXPECT_TRUE(render::drain_gl_errors().empty());
}

void expect_failure_names(const std::function<void()>& f, const std::string& needle) {
  try {
    f();
    ADD_FAILURE() << "no exception; expected one naming " << needle;
  } catch (const std::exception& e) {
    EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << "message does not name " << needle << ": " << e.what();
  }
}

TEST_F(ExportTest, UnwritablePathsThrowNamingThePathAndTheSessionGoesOn) {
  TempDir dir;
  const fs::path good = dir / "good.png";
  for (const fs::path& bad : {fs::path("/nonexistent-pe-viz-dir/sub/x.png"), fs::path("/proc/forbidden/x.png"),
                             dir.path() / "missing" / "x.png"}) {
    SCOPED_TRACE(bad.string());
    try {
      app::export_view_png(session(), {"rope-cos", 320, 200, app::Background::Theme, bad});
      ADD_FAILURE() << "export to " << bad << " did not throw";
    } catch (const std::runtime_error& e) {
      EXPECT_NE(std::string(e.what()).find(bad.string()), std::string::npos) << e.what();
    }
    EXPECT_FALSE(fs::exists(bad));
  }
  // A directory as the target path.
  EXPECT_THROW(app::export_view_png(session(), {"rope-cos", 320, 200, app::Background::Theme, dir.path()}),
               std::runtime_error);
  EXPECT_TRUE(fs::is_directory(dir.path()));
  // The session is intact: state unchanged, window and exports still work.
  EXPECT_EQ(session().state().view, "rope-cos");
  EXPECT_TRUE(render::drain_gl_errors().empty());
  ASSERT_NO_THROW(app::export_view_png(session(), {"rope-sin", 320, 200, app::Background::Theme, good}));
  expect_png(good, 320, 200);
  const Image after = window_frames(2);
  EXPECT_TRUE(is_not_blank(after, {400, 0, after.width, after.height}));
  EXPECT_TRUE(render::drain_gl_errors().empty());
}

TEST_F(ExportTest, BadSizesAndViewsAreRefusedWithoutDamage) {
  TempDir dir;
  const fs::path path = dir / "x.png";
  expect_failure_names([&] { app::export_view_png(session(), {"rope-cos", 8, 8, app::Background::Theme, path}); }, "8x8");
  expect_failure_names([&] { app::export_view_png(session(), {"rope-cos", 100000, 100, app::Background::Theme, path}); },
                       "100000");
  expect_failure_names([&] { app::export_view_png(session(), {"nope", 320, 200, app::Background::Theme, path}); }, "nope");
  EXPECT_FALSE(fs::exists(path));
  EXPECT_TRUE(dir.entries().empty());
  EXPECT_EQ(session().state().view, "rope-cos");
  const Image after(320, 200, app::render_view_pixels(session(), "rope-cos", 320, 200, app::Background::Theme));
  EXPECT_TRUE(is_not_blank(after, whole(after)));
  EXPECT_TRUE(render::drain_gl_errors().empty());
}

// An export is a function of the state and the size: the same request gives the same
// pixels whatever was drawn before it (the window, another size, another view).
TEST_F(ExportTest, ExportDoesNotDependOnWhatWasDrawnBefore) {
  for (const auto& v : app::all_views()) {
    SCOPED_TRACE(v.name);
    session().state() = known_state(v.name);
    window_frames(2);  // the window draws the same view at 1600x1000 with the panel
    const Image first(800, 600, app::render_view_pixels(session(), v.name, 800, 600, app::Background::Theme));
    const Image second(800, 600, app::render_view_pixels(session(), v.name, 800, 600, app::Background::Theme));
    app::render_view_pixels(session(), v.name, 1200, 500, app::Background::Theme);  // another size between
    const Image third(800, 600, app::render_view_pixels(session(), v.name, 800, 600, app::Background::Theme));
    EXPECT_EQ(differing_pixels(first, second), 0u) << "first export after the window differs from the next one";
    EXPECT_EQ(differing_pixels(second, third), 0u) << "an export at another size in between changed this one";
  }
  EXPECT_TRUE(render::drain_gl_errors().empty());
}

TEST_F(ExportTest, ExportingDoesNotChangeTheWindowPicture) {
  session().state() = known_state("sinusoidal");
  const Image before = window_frames(6);  // tab switch and auto-fit settled
  TempDir dir;
  app::export_view_png(session(), {"attention", 1280, 720, app::Background::White, dir / "a.png"});
  app::export_view_png(session(), {"rope-cos", 1920, 1080, app::Background::Transparent, dir / "b.png"});
  const Image after = window_frames(6);
  EXPECT_EQ(differing_pixels(before, after), 0u) << "an export left the window's theme, scale or view changed";
}

}  // namespace
