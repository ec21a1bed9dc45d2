// The teaching views walkthrough, theta-lesson and conventions, through the live app
// (hidden window, AppSession) and their CSV:
//  - each renders in the window and offscreen without GL errors and is a picture;
//  - the CSV carries the numbers the maths fixes (seed 001's example, the slowest
//    wavelength 2π·θ^((d−2)/d), equal scores across the pair layouts), computed here
//    independently;
//  - the walkthrough's step, its inputs and the theta lesson's bases change the picture,
//    and putting them back restores it exactly; an export shows the steps so far.
// Run under xvfb-run -a -s "-screen 0 1920x1200x24". PE_TEST_IMAGE_DIR keeps the images.
#include <cmath>
#include <cstdlib>
#include <numbers>
#include <sstream>

#include "export/view_data.hpp"
#include "export/view_export.hpp"
#include "test_support.hpp"

namespace {

using namespace pe_test;

const bool kRegistered = register_session_environment();

const char* const kTeachingViews[] = {"walkthrough", "theta-lesson", "conventions"};

void keep(const std::string& name, const Image& im) {
  if (const char* dir = std::getenv("PE_TEST_IMAGE_DIR")) write_ppm(fs::path(dir) / (name + ".ppm"), im);
}

Rect view_area(const Image& im) { return {400, 0, im.width, im.height}; }


class TeachingViewsTest : public SessionTest {
 protected:
  std::string csv(const std::string& view) {
    session().frame(0.0);  // derived results for the current state
    return app::view_csv(view, session().state(), session().derived());
  }
  // Five frames: tabs follow a programmatic switch within two, and a new ImGui table sizes
  // its columns over the next two.
  Image window_view(const std::string& view) {
    session().state().view = view;
    return window_frames(5);
  }
};

TEST_F(TeachingViewsTest, RenderInWindowAndOffscreenWithoutGlErrors) {
  for (const char* view : kTeachingViews) {
    SCOPED_TRACE(view);
    session().state() = known_state(view);
    const Image im = window_frames(3);
    keep(std::string("teaching_window_") + view, im);
    auto errors = render::drain_gl_errors();
    EXPECT_TRUE(errors.empty()) << errors.size() << " GL errors";
    EXPECT_TRUE(is_not_blank(im, view_area(im)));
    Image off;
    ASSERT_NO_THROW(off = Image(1280, 720, app::render_view_pixels(session(), view, 1280, 720, app::Background::Theme)));
    keep(std::string("teaching_offscreen_") + view, off);
    errors = render::drain_gl_errors();
    EXPECT_TRUE(errors.empty()) << errors.size() << " GL errors";
    EXPECT_TRUE(is_not_blank(off, whole(off)));
    // More than the placeholder's single line of text (~0.3% of the pixels).
    EXPECT_GT(non_background_fraction(off, whole(off)), 0.02);
  }
}

TEST_F(TeachingViewsTest, WalkthroughCsvHasSeed001sExactAndPrintedNumbers) {
  session().state() = known_state("walkthrough");
  const auto rows = parse_csv(csv("walkthrough"));
  ASSERT_EQ(rows.size(), 3u) << "header + 2 pairs at d = 4";
  const auto& h = rows[0];
  // Exact rotation by angle p·10000^(−2i/4), written out here.
  const double c0 = std::cos(1.0), s0 = std::sin(1.0), c1 = std::cos(0.01), s1 = std::sin(0.01);
  const double exact[4] = {0.8 * c0 - 0.3 * s0, 0.8 * s0 + 0.3 * c0, -0.5 * c1 - 0.2 * s1, -0.5 * s1 + 0.2 * c1};
  const double printed[4] = {0.179, 0.836, -0.502, 0.195};
  for (int i = 0; i < 2; ++i) {
    const auto& r = rows[std::size_t(i) + 1];
    EXPECT_NEAR(std::stod(r[column(h, "freq")]), i == 0 ? 1.0 : 0.01, 1e-9);
    EXPECT_NEAR(std::stod(r[column(h, "angle_deg")]), (i == 0 ? 1.0 : 0.01) * 180 / std::numbers::pi, 1e-6);
    EXPECT_NEAR(std::stod(r[column(h, "x_rotated")]), exact[2 * i], 1e-8);
    EXPECT_NEAR(std::stod(r[column(h, "y_rotated")]), exact[2 * i + 1], 1e-8);
    EXPECT_NEAR(std::stod(r[column(h, "x_rotated_printed_arithmetic")]), printed[2 * i], 1e-12);
    EXPECT_NEAR(std::stod(r[column(h, "y_rotated_printed_arithmetic")]), printed[2 * i + 1], 1e-12);
    EXPECT_NEAR(std::stod(r[column(h, "delta_angle_rad")]), i == 0 ? 2.0 : 0.02, 1e-9);  // (3 − 1)·freq
    // Step 5: each pair's share of the score is the same at (1, 3) and (11, 13).
    EXPECT_NEAR(std::stod(r[column(h, "score_share")]), std::stod(r[column(h, "score_share_shifted")]), 1e-8);
  }
  const double score = std::stod(rows[1][column(h, "score_share")]) + std::stod(rows[2][column(h, "score_share")]);
  EXPECT_NEAR(score, 0.73 * std::cos(2.0) + 0.29 * std::cos(0.02), 1e-8);
}

TEST_F(TeachingViewsTest, ThetaLessonCsvCountsWrappingPairsAndLongestWavelength) {
  app::AppState& s = session().state() = known_state("theta-lesson");
  s.length = 4096;
  s.rope.head_dim = 128;
  const auto rows = parse_csv(csv("theta-lesson"));
  ASSERT_GT(rows.size(), 64u);
  auto find = [&](const std::string& quantity) {
    for (const auto& r : rows)
      if (r[0] == quantity) return r;
    ADD_FAILURE() << "no row " << quantity;
    return std::vector<std::string>(4);
  };
  // SEED-ERRATA 2: θ = 100 at d = 128 wraps after 2π·100^(126/128) ≈ 585 positions.
  const auto longest = find("longest_wavelength");
  EXPECT_NEAR(std::stod(longest[2]), 2 * std::numbers::pi * std::pow(100.0, 126.0 / 128.0), 1e-6);
  EXPECT_NEAR(std::stod(longest[3]), 2 * std::numbers::pi * std::pow(1e5, 126.0 / 128.0), 1e-2);
  const auto wrapping = find("pairs_wavelength_below_length");
  EXPECT_EQ(wrapping[2], "64");  // every pair of θ = 100 turns fully inside 4096 positions
  long long high = 0;
  for (int i = 0; i < 64; ++i) high += 2 * std::numbers::pi * std::pow(1e5, 2.0 * i / 128.0) < 4096.0 ? 1 : 0;
  EXPECT_EQ(std::stoll(wrapping[3]), high);
  long long scores = 0;
  for (const auto& r : rows)
    if (r[0] == "score") ++scores;
  EXPECT_EQ(scores, 4096);
}

TEST_F(TeachingViewsTest, ConventionsCsvScoresAgreeAcrossLayoutsAndMixingDiffers) {
  session().state() = known_state("conventions");
  const std::string text = csv("conventions");
  EXPECT_NE(text.find(" 1->32 "), std::string::npos) << "interleaved dim 1 is half-split dim 32 at d = 64";
  const auto rows = parse_csv(text);
  ASSERT_EQ(rows.size(), 8u);
  const auto& h = rows[0];
  for (std::size_t k = 1; k < rows.size(); ++k) {
    const double a = std::stod(rows[k][column(h, "score_interleaved")]), b = std::stod(rows[k][column(h, "score_half_split_permuted")]);
    const double mixed = std::stod(rows[k][column(h, "score_mixed")]);
    EXPECT_LT(std::fabs(a - b), 1e-12 * std::max(1.0, std::fabs(a))) << "row " << k;
    if (rows[k][0] != "0") {
      EXPECT_GT(std::fabs(mixed - a), 1e-3) << "row " << k;
    } else {
      EXPECT_NEAR(mixed, a, 1e-12);
    }
  }
}

TEST_F(TeachingViewsTest, WalkthroughStepsAndInputsChangeThePictureAndRestore) {
  session().state() = known_state("walkthrough");
  std::vector<Image> steps;
  for (long long k = 0; k < app::kWalkthroughSteps; ++k) {
    session().state().walkthrough_step = k;
    steps.push_back(window_view("walkthrough"));
    keep("teaching_walkthrough_step" + std::to_string(k + 1), steps.back());
    EXPECT_TRUE(render::drain_gl_errors().empty()) << "step " << k + 1;
  }
  for (std::size_t a = 0; a < steps.size(); ++a)
    for (std::size_t b = a + 1; b < steps.size(); ++b)
      EXPECT_GT(differing_pixels(steps[a], steps[b]), 2000u) << "steps " << a + 1 << " and " << b + 1 << " look the same";
  // d = 6 and another θ change step 3's picture; seed 001's inputs give it back exactly.
  session().state().walkthrough_step = 2;
  session().state().walkthrough_q = {0.8, 0.3, -0.5, 0.2, 0.6, -0.4};
  session().state().walkthrough_theta = 500000.0;
  const Image changed = window_view("walkthrough");
  EXPECT_GT(differing_pixels(changed, steps[2]), 2000u);
  session().state().walkthrough_q = {0.8, 0.3, -0.5, 0.2};
  session().state().walkthrough_theta = 10000.0;
  EXPECT_EQ(differing_pixels(window_view("walkthrough"), steps[2]), 0u);
}

TEST_F(TeachingViewsTest, WalkthroughExportShowsTheStepsSoFar) {
  app::AppState& s = session().state() = known_state("sinusoidal");
  s.walkthrough_step = 0;
  const Image first(1600, 1000, app::render_view_pixels(session(), "walkthrough", 1600, 1000, app::Background::Theme));
  s.walkthrough_step = 4;
  const Image all(1600, 1000, app::render_view_pixels(session(), "walkthrough", 1600, 1000, app::Background::Theme));
  keep("teaching_walkthrough_export_step1", first);
  keep("teaching_walkthrough_export_step5", all);
  EXPECT_TRUE(render::drain_gl_errors().empty());
  // Steps 1 – 5 stacked cover clearly more of the picture than step 1 alone.
  EXPECT_GT(non_background_fraction(all, whole(all)), non_background_fraction(first, whole(first)) * 1.5);
  EXPECT_TRUE(is_not_blank(all, {0, 500, 1600, 1000})) << "steps 3 – 5 fill the lower half";
}

TEST_F(TeachingViewsTest, ThetaLessonFollowsItsBasesAndRestores) {
  session().state() = known_state("theta-lesson");
  const Image before = window_view("theta-lesson");
  session().state().theta_high = 1e6;
  const Image after = window_view("theta-lesson");
  EXPECT_GT(differing_pixels(before, after), 2000u);
  session().state().theta_high = 100000.0;
  EXPECT_EQ(differing_pixels(window_view("theta-lesson"), before), 0u);
}

TEST_F(TeachingViewsTest, LargeUiScaleAndLightThemeRenderWithoutGlErrors) {
  for (const char* view : kTeachingViews) {
    SCOPED_TRACE(view);
    app::AppState& s = session().state() = known_state(view);
    s.ui_scale = 2.0f;
    s.dark_theme = false;
    s.walkthrough_step = 4;
    s.walkthrough_q = std::vector<double>(16, 0.5);
    const Image im = window_frames(3);
    keep(std::string("teaching_scale2_") + view, im);
    EXPECT_TRUE(render::drain_gl_errors().empty());
    EXPECT_TRUE(is_not_blank(im, whole(im)));
  }
  session().state() = known_state();
  window_frames(2);
}

}  // namespace
