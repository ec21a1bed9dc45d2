// The live app through AppSession (hidden window, the same frame() the GUI loop calls):
//  - every registered view renders, in the window and offscreen, without GL errors and
//    is a picture (not blank), and the views are not all the same picture;
//  - colours the maths fixes: RoPE at position 0 is the identity rotation, cos = 1 and
//    sin = 0 in every pair, so the heatmap's position-0 column is the colormap's +1
//    colour (cos) and its middle colour (sin) — ColorBrewer RdBu's #053061 and #f7f7f7;
//  - changing θ, d or L programmatically changes the picture, and changing it back
//    restores it exactly (views are pure functions of state).
// Run under xvfb-run -a -s "-screen 0 1920x1200x24". Set PE_TEST_IMAGE_DIR to keep the
// images (PPM) for looking at them.
#include <cstdlib>
#include <map>

#include "export/view_export.hpp"
#include "test_support.hpp"
#include "views/view.hpp"

namespace {

using namespace pe_test;

const bool kRegistered = register_session_environment();

void keep(const std::string& name, const Image& im) {
  if (const char* dir = std::getenv("PE_TEST_IMAGE_DIR")) write_ppm(fs::path(dir) / (name + ".ppm"), im);
}

std::string gl_errors_text(const std::vector<std::string>& errors) {
  std::string s;
  for (const auto& e : errors) s += e + " ";
  return s;
}

// The part of the window right of the parameter panel (360 px at UI scale 1): the view.
Rect view_area(const Image& im) { return {400, 0, im.width, im.height}; }

class AppViewsTest : public SessionTest {};

TEST_F(AppViewsTest, RegistryNamesAreUniqueKebabCaseAndFindable) {
  std::set<std::string> names;
  ASSERT_GE(app::all_views().size(), 9u) << "issue 4/README list at least nine views";
  for (const auto& v : app::all_views()) {
    const std::string name = v.name;
    EXPECT_TRUE(names.insert(name).second) << "duplicate view name " << name;
    EXPECT_FALSE(name.empty());
    for (char c : name) EXPECT_TRUE((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-') << name;
    EXPECT_EQ(app::find_view(name), &v);
    EXPECT_NE(v.draw, nullptr);
  }
  for (const char* documented : {"sinusoidal", "learned", "rope-cos", "rope-sin", "rope-spectrum", "clock-hands",
                                 "relative-score", "alibi", "attention"})
    EXPECT_TRUE(names.count(documented)) << documented << " (README's view list) is not registered";
  EXPECT_EQ(app::find_view("nope"), nullptr);
  // Tabs: every group has views, and every view sits in a listed group, contiguously.
  std::size_t grouped = 0;
  for (const char* group : app::view_groups()) {
    const auto views = app::views_in_group(group);
    EXPECT_FALSE(views.empty()) << group;
    for (std::size_t k = 1; k < views.size(); ++k) EXPECT_EQ(views[k], views[k - 1] + 1) << group << " is not contiguous";
    grouped += views.size();
  }
  EXPECT_EQ(grouped, app::all_views().size()) << "a view names a group that view_groups() does not list";
}

TEST_F(AppViewsTest, EveryViewRendersInTheWindowWithoutGlErrorsAndIsNotBlank) {
  std::map<std::string, Image> images;
  for (const auto& v : app::all_views()) {
    SCOPED_TRACE(v.name);
    session().state() = known_state(v.name);
    const Image im = window_frames(3);
    keep(std::string("window_") + v.name, im);
    const auto errors = render::drain_gl_errors();
    EXPECT_TRUE(errors.empty()) << gl_errors_text(errors);
    ASSERT_TRUE(im.valid());
    EXPECT_EQ(im.width, kWindowWidth);
    EXPECT_EQ(im.height, kWindowHeight);
    EXPECT_TRUE(is_not_blank(im, view_area(im)));
    // The tab bar must not take the view back: the state names the view shown.
    EXPECT_EQ(session().state().view, v.name);
    images[v.name] = im;
  }
  // The tab selection really switches what is drawn: no two views give the same frame.
  for (auto a = images.begin(); a != images.end(); ++a)
    for (auto b = std::next(a); b != images.end(); ++b)
      EXPECT_GT(differing_pixels(a->second, b->second), 10000u) << a->first << " and " << b->first << " look the same";
}

TEST_F(AppViewsTest, EveryViewRendersOffscreenWithoutGlErrorsAndIsNotBlank) {
  for (const auto& v : app::all_views()) {
    SCOPED_TRACE(v.name);
    session().state() = known_state("sinusoidal");
    Image im;
    ASSERT_NO_THROW(im = Image(800, 600, app::render_view_pixels(session(), v.name, 800, 600, app::Background::Theme)));
    keep(std::string("offscreen_") + v.name, im);
    const auto errors = render::drain_gl_errors();
    EXPECT_TRUE(errors.empty()) << gl_errors_text(errors);
    ASSERT_TRUE(im.valid());
    EXPECT_TRUE(is_not_blank(im, whole(im)));
    // Rendering a view offscreen must not switch the window's view.
    EXPECT_EQ(session().state().view, "sinusoidal");
  }
  // And the window still renders afterwards.
  const Image after = window_frames(2);
  EXPECT_TRUE(render::drain_gl_errors().empty());
  EXPECT_TRUE(is_not_blank(after, view_area(after)));
}

// The heatmap's position-0 column: the leftmost column holding a tall run of the +1
// colour. The colour bar holds +1 only in a few pixel rows at its top, the curves below
// are thin lines, so only a heatmap column where every pair has cos = 1 qualifies.
struct HeatmapEdge {
  int x = -1, top = 0, bottom = 0;
};
HeatmapEdge find_cos_heatmap_edge(const Image& im, Rect area) {
  const ColumnHit hit = leftmost_column_with_run(im, kRdBuPlusOne, kColourTolerance, area.height() / 6, area);
  return {hit.x, hit.run.start, hit.run.start + hit.run.length};
}

// The column one cell right of position 0: pair 0 (θ_0 = 1 rad/position) has cos(1) =
// 0.54 there, far from +1, so the run of +1 must end before the bottom row.
void expect_position_zero_column(const Image& cos_image, const Image& sin_image, Rect area, const char* where) {
  SCOPED_TRACE(where);
  const HeatmapEdge edge = find_cos_heatmap_edge(cos_image, area);
  ASSERT_GE(edge.x, 0) << "no column of the RdBu +1 colour " << kRdBuPlusOne
                       << " found: position 0 of cos(p·θ_i) must be 1 in every pair";
  const int height = edge.bottom - edge.top;
  // 32 pairs: the heatmap is far taller than one sixth of the view; check it is most of
  // the top part (split at 55%) of the view.
  EXPECT_GT(height, area.height() / 4) << "position-0 column only " << height << " px tall";
  // Every pixel of that column inside the heatmap is +1 (the run is contiguous by
  // construction; check the neighbour rows outside it are not heatmap +1 as well, i.e.
  // we found the whole column).
  // sin(0·θ_i) = 0 in every pair: the same column in the rope-sin view is the middle
  // colour. Both views share the layout code, so the heatmap sits in the same place.
  int sin_middle = 0;
  for (int y = edge.top; y < edge.bottom; ++y)
    if (channel_distance(sin_image.at(edge.x, y), kRdBuMiddle) <= kColourTolerance) ++sin_middle;
  EXPECT_GE(sin_middle, height * 98 / 100) << "sin(0) = 0 should be " << kRdBuMiddle << " in column " << edge.x
                                           << ", e.g. got " << sin_image.at(edge.x, (edge.top + edge.bottom) / 2);
  // Further right, pair 0 turns: somewhere in the heatmap's bottom rows (pair 0 at the
  // bottom, y up) cos(p) is −1 for p ≈ π, i.e. the −1 colour appears on that row band.
  bool found_minus_one = false;
  for (int y = edge.bottom - 6; y < edge.bottom && !found_minus_one; ++y)
    for (int x = edge.x; x < std::min(area.x1, edge.x + area.width() / 2) && !found_minus_one; ++x)
      found_minus_one = channel_distance(cos_image.at(x, y), kRdBuMinusOne) <= 16;
  EXPECT_TRUE(found_minus_one) << "pair 0 (cos p, 1 rad/position) never reaches the −1 colour " << kRdBuMinusOne
                               << " in the bottom rows of the heatmap";
  // The slowest pair (top row, θ_31 = 10000^(−62/64) ≈ 1.33e−4) stays at cos ≥ 0.9998
  // over all 128 positions: its row is +1 colour for at least a third of the view width.
  const PixelRun top_row = longest_horizontal_run(cos_image, edge.top + 2, kRdBuPlusOne, kColourTolerance, area);
  EXPECT_GT(top_row.length, area.width() / 3) << "top pair row is not ≈ +1 across the heatmap";
  EXPECT_LE(std::abs(top_row.start - edge.x), 1) << "top pair row does not start at the position-0 column";
}

TEST_F(AppViewsTest, ColormapEndsAreColorBrewerRdBu) {
  // Independent anchor for the colour checks below: the app's table matches the published scheme.
  EXPECT_LE(channel_distance(rgb_of(plot::colormap_color(plot::Colormap::RdBu, 1.0)), kRdBuPlusOne), 1);
  EXPECT_LE(channel_distance(rgb_of(plot::colormap_color(plot::Colormap::RdBu, 0.5)), kRdBuMiddle), 1);
  EXPECT_LE(channel_distance(rgb_of(plot::colormap_color(plot::Colormap::RdBu, 0.0)), kRdBuMinusOne), 1);
}

TEST_F(AppViewsTest, RopePositionZeroIsIdentityInTheWindow) {
  session().state() = known_state("rope-cos");
  const Image cos_image = window_frames(3);
  session().state() = known_state("rope-sin");
  const Image sin_image = window_frames(3);
  keep("identity_window_cos", cos_image);
  keep("identity_window_sin", sin_image);
  EXPECT_TRUE(render::drain_gl_errors().empty());
  expect_position_zero_column(cos_image, sin_image, view_area(cos_image), "window 1600x1000");
}

TEST_F(AppViewsTest, RopePositionZeroIsIdentityOffscreen) {
  for (auto [w, h] : {std::pair{800, 600}, std::pair{1920, 1080}}) {
    const Image cos_image(w, h, app::render_view_pixels(session(), "rope-cos", w, h, app::Background::Theme));
    const Image sin_image(w, h, app::render_view_pixels(session(), "rope-sin", w, h, app::Background::Theme));
    keep("identity_offscreen_cos_" + std::to_string(w), cos_image);
    expect_position_zero_column(cos_image, sin_image, whole(cos_image),
                                (std::to_string(w) + "x" + std::to_string(h)).c_str());
  }
  EXPECT_TRUE(render::drain_gl_errors().empty());
}

// L = 1 (allowed: "length / positions 1 … 10^6") shows position 0 alone: the whole
// heatmap is cos(0) = 1 (rope-cos) and sin(0) = 0 (rope-sin).
TEST_F(AppViewsTest, LengthOneHeatmapIsAllPositionZero) {
  app::AppState s = known_state("rope-cos");
  s.length = 1;
  s.position = 0;
  ASSERT_EQ(app::validate_state(s), "");
  session().state() = s;
  const Image cos_image = window_frames(3);
  keep("length1_cos", cos_image);
  EXPECT_TRUE(render::drain_gl_errors().empty());
  const Rect area = view_area(cos_image);
  const ColumnHit hit = leftmost_column_with_run(cos_image, kRdBuPlusOne, kColourTolerance, area.height() / 4, area);
  ASSERT_GE(hit.x, 0) << "with L = 1 the cos heatmap should be one cell of cos(0) = 1 (" << kRdBuPlusOne
                      << "), but no tall +1 column was drawn";
  // The single cell spans most of the plot's width.
  const PixelRun row = longest_horizontal_run(cos_image, hit.run.start + hit.run.length / 2, kRdBuPlusOne, kColourTolerance, area);
  EXPECT_GT(row.length, area.width() / 3);

  s.view = "rope-sin";
  session().state() = s;
  const Image sin_image = window_frames(3);
  int middle = 0;
  for (int y = hit.run.start; y < hit.run.start + hit.run.length; ++y)
    if (channel_distance(sin_image.at(hit.x + row.length / 2, y), kRdBuMiddle) <= kColourTolerance) ++middle;
  EXPECT_GE(middle, hit.run.length * 98 / 100) << "sin(0) = 0 should be " << kRdBuMiddle;
}

// Vertical axis labels are drawn whole: the rotated label's extent matches the width of
// the same text drawn horizontally. Exported at 1600×1000 the export scale is 1, so the
// font is the window's and ImGui::CalcTextSize gives that width. The strip measured is
// the first run of non-background columns from the left (the label sits left of the tick
// labels), within the plot's rows.
int vertical_label_extent(const Image& im, int y0, int y1) {
  const Rgb bg = im.at(im.width / 2, 3);
  int x = 3, lo = -1, hi = -1;
  auto column_has_ink = [&](int cx, int& clo, int& chi) {
    clo = chi = -1;
    for (int y = y0; y < y1; ++y)
      if (channel_distance(im.at(cx, y), bg) > 60) {
        if (clo < 0) clo = y;
        chi = y;
      }
    return clo >= 0;
  };
  int clo, chi;
  while (x < im.width / 4 && !column_has_ink(x, clo, chi)) ++x;
  while (x < im.width / 4 && column_has_ink(x, clo, chi)) {
    lo = lo < 0 ? clo : std::min(lo, clo);
    hi = std::max(hi, chi);
    ++x;
  }
  return lo < 0 ? 0 : hi - lo + 1;
}

TEST_F(AppViewsTest, VerticalAxisLabelsAreDrawnWhole) {
  struct Case {
    const char* view;
    const char* y_label;  // the view's y-axis label (top plot)
    int y0, y1;           // rows of the image holding that plot
  };
  for (const Case& c : {Case{"rope-spectrum", "θ_i (rad / position)", 0, 480},
                        Case{"relative-score", "score / d", 0, 900}}) {
    SCOPED_TRACE(c.view);
    session().state() = known_state(c.view);
    app::render_view_pixels(session(), c.view, 1600, 1000, app::Background::Theme);
    const Image im(1600, 1000, app::render_view_pixels(session(), c.view, 1600, 1000, app::Background::Theme));
    keep(std::string("label_") + c.view, im);
    const float width = ImGui::CalcTextSize(c.y_label).x;
    const int extent = vertical_label_extent(im, c.y0, c.y1);
    EXPECT_GE(extent, 0.9 * width) << "y label '" << c.y_label << "' is drawn " << extent << " px long, its text is " << width
                                   << " px wide: the start of the label is cut off";
    EXPECT_LE(extent, 1.1 * width + 4);
  }
}

struct ParameterChange {
  const char* name;
  void (*change)(app::AppState&);
};

// Changing a parameter changes the picture; changing it back gives the same pixels.
void check_change_and_restore(app::AppSession& s, const std::string& view, const ParameterChange& p,
                              const std::function<Image()>& render_image) {
  SCOPED_TRACE(view + " / " + p.name);
  s.state() = known_state(view);
  const Image before = render_image();
  const app::AppState original = s.state();
  p.change(s.state());
  ASSERT_EQ(app::validate_state(s.state()), "");
  const Image changed = render_image();
  EXPECT_GT(differing_pixels(before, changed), 2000u) << p.name << " changed, the picture did not";
  s.state() = original;
  const Image restored = render_image();
  EXPECT_EQ(differing_pixels(before, restored), 0u) << "changing " << p.name << " back did not restore the picture";
  EXPECT_TRUE(render::drain_gl_errors().empty());
}

const ParameterChange kChanges[] = {
    {"theta 10000 -> 500000", [](app::AppState& s) { s.rope.theta = 500000.0; }},
    {"theta 10000 -> 10", [](app::AppState& s) { s.rope.theta = 10.0; }},
    {"dim 64 -> 128", [](app::AppState& s) { s.rope.head_dim = 128; }},
    {"dim 64 -> 16", [](app::AppState& s) { s.rope.head_dim = 16; }},
    {"length 128 -> 4096", [](app::AppState& s) { s.length = 4096; }},
    {"length 128 -> 32", [](app::AppState& s) { s.length = 32; }},
};

TEST_F(AppViewsTest, ParameterChangesChangeTheWindowAndRevertingRestoresIt) {
  for (const char* view : {"rope-cos", "sinusoidal", "rope-spectrum"})
    for (const auto& p : kChanges) {
      // The GUI redraws every frame; six frames let a tab switch and the axes' auto-fit
      // (applied one frame after the data) settle before each picture is taken.
      check_change_and_restore(session(), view, p, [] { return window_frames(6); });
    }
}

TEST_F(AppViewsTest, ParameterChangesChangeTheExportAndRevertingRestoresIt) {
  // Each picture is the second of two identical exports: the first export after a change
  // can differ (auto-fit settling, see export_views_test's
  // ExportDoesNotDependOnWhatWasDrawnBefore); here only the state's effect is tested.
  const auto render = [](const char* view) {
    return [view] {
      app::render_view_pixels(shared_session(), view, 640, 400, app::Background::Theme);
      return Image(640, 400, app::render_view_pixels(shared_session(), view, 640, 400, app::Background::Theme));
    };
  };
  for (const char* view : {"rope-sin", "relative-score"})
    for (const auto& p : kChanges) check_change_and_restore(session(), view, p, render(view));
  // Clock hands show one position p, not a range: L only bounds p, so change p and θ, d.
  const ParameterChange clock_changes[] = {
      kChanges[0], kChanges[1], kChanges[2], kChanges[3],
      {"position 1 -> 5", [](app::AppState& s) { s.position = 5; }},
      {"position 1 -> 0", [](app::AppState& s) { s.position = 0; }},
  };
  for (const auto& p : clock_changes) check_change_and_restore(session(), "clock-hands", p, render("clock-hands"));
}

}  // namespace
