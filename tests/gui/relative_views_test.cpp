// The relative-position views of issue 32 (t5-bias, deberta, relative-key, transformer-xl,
// xpos, cope, distance-bias), through the live app (hidden window, AppSession) and their CSV:
//  - each renders in the window and offscreen without GL errors and is a picture, at the
//    defaults and at the extremes (L = 10^6, 1024 heads, 1024 buckets …);
//  - each CSV carries the numbers the reference implementations fix, computed here
//    independently (T5's and DeBERTa's float32 buckets at every relative position, BERT's
//    rows, xPos's decay, CoPE's counts, each family's curve against distance);
//  - a bad parameter leaves the app running and the view naming it.
// PE_TEST_IMAGE_DIR keeps the images.
#include <cmath>
#include <cstdlib>
#include <numbers>
#include <string>
#include <vector>

#include "export/view_data.hpp"
#include "export/view_export.hpp"
#include "state/relative_params.hpp"
#include "test_support.hpp"
#include "views/view.hpp"

namespace {

using namespace pe_test;

const bool kRegistered = register_session_environment();

const char* const kRelativeViews[] = {"t5-bias", "deberta", "relative-key", "transformer-xl", "xpos", "cope", "distance-bias"};

void keep(const std::string& name, const Image& im) {
  if (const char* dir = std::getenv("PE_TEST_IMAGE_DIR")) write_ppm(fs::path(dir) / (name + ".ppm"), im);
}

Rect view_area(const Image& im) { return {400, 0, im.width, im.height}; }

// transformers' T5Attention._relative_position_bucket, float32 as torch computes it:
// relative_position.float() / max_exact, torch.log in float32, the divisor math.log(...) a
// double rounded to float32, × (N − max_exact) in float32, .to(long) truncating.
long long t5_bucket(long long relative_position, long long num_buckets, long long max_distance, bool causal) {
  long long bucket = 0, n = relative_position, buckets = num_buckets;
  if (!causal) {
    buckets /= 2;
    if (n > 0) bucket += buckets;
    n = std::llabs(n);
  } else {
    n = n < 0 ? -n : 0;
  }
  const long long max_exact = buckets / 2;
  if (n < max_exact) return bucket + n;
  const float ratio = static_cast<float>(n) / static_cast<float>(max_exact);
  const float divisor = static_cast<float>(std::log(static_cast<double>(max_distance) / static_cast<double>(max_exact)));
  const float scaled = std::log(ratio) / divisor * static_cast<float>(buckets - max_exact);
  return bucket + std::min(max_exact + static_cast<long long>(scaled), buckets - 1);
}

// transformers' make_log_bucket_position (DeBERTa-v2/v3), float32 throughout; microsoft/DeBERTa
// clamps |r| to max_position − 1 first.
long long deberta_bucket(long long r, long long position_buckets, long long max_position, bool microsoft) {
  if (microsoft) r = std::clamp(r, -(max_position - 1), max_position - 1);
  const long long mid = position_buckets / 2;
  const long long a = std::llabs(r);
  if (a <= mid) return r;
  const float num = std::log(static_cast<float>(a) / static_cast<float>(mid));
  const float den = std::log(static_cast<float>(static_cast<double>(max_position - 1) / static_cast<double>(mid)));
  const float log_pos = std::ceil(num / den * static_cast<float>(mid - 1)) + static_cast<float>(mid);
  return (r > 0 ? 1 : -1) * static_cast<long long>(log_pos);
}

class RelativeViewsTest : public SessionTest {
 protected:
  std::string csv(const std::string& view) {
    session().frame(0.0);
    return app::view_csv(view, session().state(), session().derived());
  }
};

TEST_F(RelativeViewsTest, RenderInWindowAndOffscreenWithoutGlErrors) {
  for (const char* view : kRelativeViews) {
    for (const bool light : {false, true}) {
      SCOPED_TRACE(std::string(view) + (light ? " light" : " dark"));
      app::AppState s = known_state(view);
      s.dark_theme = !light;
      session().state() = s;
      const Image im = window_frames(4);
      keep(std::string("relative_window_") + view + (light ? "_light" : ""), im);
      auto errors = render::drain_gl_errors();
      EXPECT_TRUE(errors.empty()) << errors.size() << " GL errors";
      EXPECT_TRUE(is_not_blank(im, view_area(im)));
      Image off;
      ASSERT_NO_THROW(off = Image(1280, 720, app::render_view_pixels(session(), view, 1280, 720, app::Background::Theme)));
      keep(std::string("relative_offscreen_") + view + (light ? "_light" : ""), off);
      errors = render::drain_gl_errors();
      EXPECT_TRUE(errors.empty()) << errors.size() << " GL errors";
      EXPECT_GT(non_background_fraction(off, whole(off)), 0.02) << "more than a line of text";
    }
  }
}

// L = 10^6, 1024 heads, 1024 buckets, 65536 DeBERTa buckets, d = 1024: every view samples to
// its cells and pixels instead of building 10^12-entry tables.
TEST_F(RelativeViewsTest, ExtremesRenderSampled) {
  for (const char* view : kRelativeViews) {
    SCOPED_TRACE(view);
    app::AppState s = known_state(view);
    s.length = 1'000'000;
    s.position = 999'999;
    s.rope.head_dim = 1024;
    s.heads = 1024;
    s.head = 1024;
    s.num_buckets = 1024;
    s.max_distance = 1'000'000;
    s.position_buckets = 65536;
    s.max_relative_positions = 100'000;
    s.max_position_embeddings = 1'000'000;
    s.training_length = 100'000;
    s.clamp_len = 5000;
    s.cope_npos_max = 3;
    ASSERT_EQ(app::validate_state(s), "");
    session().state() = s;
    Image off;
    ASSERT_NO_THROW(off = Image(1280, 720, app::render_view_pixels(session(), view, 1280, 720, app::Background::Theme)));
    keep(std::string("relative_extreme_") + view, off);
    EXPECT_TRUE(render::drain_gl_errors().empty());
    EXPECT_GT(non_background_fraction(off, whole(off)), 0.02);
    EXPECT_NO_THROW((void)csv(view));
  }
}

TEST_F(RelativeViewsTest, T5CsvHasTheReferenceBucketOfEveryRelativePosition) {
  for (const bool causal : {false, true}) {
    SCOPED_TRACE(causal ? "causal" : "bidirectional");
    app::AppState& s = session().state() = known_state("t5-bias");
    s.length = 300;  // relative positions −299 … 299: every bucket edge of (32, 128) on both sides
    s.causal = causal;
    s.heads = 4;
    s.head = 3;
    const auto rows = parse_csv(csv("t5-bias"));
    ASSERT_EQ(rows.size(), 600u);
    const auto& h = rows[0];
    // The illustrative bias of bucket b, head 3 of 4: −(3/4)·log(1 + first distance of b), halved
    // for later keys (bidirectional); the first distance found here by walking every position.
    std::vector<long long> first(32, -1);
    for (long long d = 0; d <= 100000; ++d)
      for (const long long r : {-d, d}) {
        const long long b = t5_bucket(r, 32, 128, causal);
        if (first[std::size_t(b)] < 0 || d < first[std::size_t(b)]) first[std::size_t(b)] = d;
      }
    for (std::size_t k = 1; k < rows.size(); ++k) {
      const long long r = std::stoll(rows[k][column(h, "relative_position")]);
      EXPECT_EQ(r, static_cast<long long>(k) - 300);
      const long long b = t5_bucket(r, 32, 128, causal);
      ASSERT_EQ(std::stoll(rows[k][column(h, "bucket")]), b) << "relative position " << r;
      const bool after = !causal && b >= 16;
      const double expected = -(3.0 / 4.0) * std::log1p(double(first[std::size_t(b)])) * (after ? 0.5 : 1.0);
      EXPECT_NEAR(std::stod(rows[k][column(h, "bias")]), expected, 1e-7 * std::max(1.0, std::abs(expected))) << r;
    }
  }
  // t5-base's float32 cases: distance 16, 32 and 64 before the query fall into 10, 12 and 14.
  EXPECT_EQ(t5_bucket(-16, 32, 128, false), 10);
  EXPECT_EQ(t5_bucket(-32, 32, 128, false), 12);
  EXPECT_EQ(t5_bucket(-64, 32, 128, false), 14);
}

TEST_F(RelativeViewsTest, DebertaCsvHasBothReferencesBucketsAndRows) {
  app::AppState& s = session().state() = known_state("deberta");
  s.length = 700;  // past max_position − 1 = 511, where the two references part
  const auto rows = parse_csv(csv("deberta"));
  ASSERT_EQ(rows.size(), 1400u);
  const auto& h = rows[0];
  for (std::size_t k = 1; k < rows.size(); ++k) {
    const long long r = std::stoll(rows[k][column(h, "relative_position")]);
    const long long b = deberta_bucket(r, 256, 512, false);
    ASSERT_EQ(std::stoll(rows[k][column(h, "bucket")]), b) << r;
    ASSERT_EQ(std::stoll(rows[k][column(h, "bucket_microsoft")]), deberta_bucket(r, 256, 512, true)) << r;
    EXPECT_EQ(std::stoll(rows[k][column(h, "embedding_row")]), std::clamp<long long>(b + 256, 0, 511)) << r;
  }
}

TEST_F(RelativeViewsTest, RelativeKeyCsvRowIsDistancePlusPMinusOne) {
  app::AppState& s = session().state() = known_state("relative-key");
  s.max_position_embeddings = 40;
  s.length = 100;  // longer than BERT's table: only the first 40 tokens' distances exist
  const auto rows = parse_csv(csv("relative-key"));
  ASSERT_EQ(rows.size(), 80u);
  for (std::size_t k = 1; k < rows.size(); ++k) {
    const long long d = std::stoll(rows[k][0]);
    EXPECT_EQ(d, static_cast<long long>(k) - 40);
    EXPECT_EQ(std::stoll(rows[k][1]), d + 39);
  }
}

TEST_F(RelativeViewsTest, XposCsvHasTheDecayAndBothScores) {
  app::AppState& s = session().state() = known_state("xpos");
  s.rope.head_dim = 16;
  s.pair = 3;
  s.scale_base = 64.0;
  s.length = 200;
  const auto rows = parse_csv(csv("xpos"));
  ASSERT_EQ(rows.size(), 201u);
  const auto& h = rows[0];
  for (std::size_t k = 1; k < rows.size(); k += 7) {
    const double delta = std::stod(rows[k][0]);
    double with = 0, without = 0, mean = 0;
    for (int i = 0; i < 8; ++i) {
      const double zeta = (2.0 * i + 0.4 * 16) / (1.4 * 16), decay = std::pow(zeta, delta / 64.0);
      const double c = std::cos(delta * std::pow(10000.0, -2.0 * i / 16));
      with += 2.0 * decay * c;  // q = k with N(0, 1) entries: a_i = 2 in expectation
      without += 2.0 * c;
      mean += decay / 8.0;
    }
    const double zeta3 = (6.0 + 6.4) / 22.4;
    EXPECT_NEAR(std::stod(rows[k][column(h, "decay_pair_3")]), std::pow(zeta3, delta / 64.0), 1e-8) << delta;
    EXPECT_NEAR(std::stod(rows[k][column(h, "mean_decay")]), mean, 1e-8) << delta;
    EXPECT_NEAR(std::stod(rows[k][column(h, "score_xpos")]), with, 1e-7) << delta;
    EXPECT_NEAR(std::stod(rows[k][column(h, "score_rope")]), without, 1e-7) << delta;
  }
}

TEST_F(RelativeViewsTest, CopeCsvCountsTheGatedTokensBetweenKeyAndQuery) {
  app::AppState& s = session().state() = known_state("cope");
  s.cope_text = "One. Two three! Four, five? Six";
  s.cope_gates = "sentence-ends";
  s.cope_npos_max = 3;
  // Tokens: One . Two three ! Four , five ? Six — sentence ends at 1, 4, 8.
  const std::vector<int> end = {0, 1, 0, 0, 1, 0, 0, 0, 1, 0};
  const auto rows = parse_csv(csv("cope"));
  ASSERT_EQ(rows.size(), 1u + 10 * 11 / 2);
  const auto& h = rows[0];
  for (std::size_t k = 1; k < rows.size(); ++k) {
    const int i = std::stoi(rows[k][column(h, "query")]), j = std::stoi(rows[k][column(h, "key")]);
    int count = 0;
    for (int t = j; t <= i; ++t) count += end[std::size_t(t)];
    EXPECT_EQ(std::stod(rows[k][column(h, "position")]), std::min(count, 2)) << i << ", " << j;  // clamped at npos_max − 1
    EXPECT_EQ(std::stod(rows[k][column(h, "key_gate")]), end[std::size_t(j)]);
  }
  EXPECT_EQ(rows[1][column(h, "query_token")], "One");
  s.cope_gates = "every-token";
  s.cope_npos_max = 64;
  for (const auto& r : parse_csv(csv("cope")))
    if (r[0] != "query") {
      EXPECT_EQ(std::stod(r[column(h, "position")]), std::stoi(r[0]) - std::stoi(r[1]) + 1);
    }
}

TEST_F(RelativeViewsTest, DistanceBiasCsvHasEachFamilysCurve) {
  app::AppState& s = session().state() = known_state("distance-bias");
  s.training_length = 300;
  s.length = 1000;  // every distance 0 … 999 is a row
  s.heads = 8;
  s.head = 2;
  s.r1 = 0.8;
  s.r2 = 0.7;
  s.fire_c = 2.0;
  s.fire_threshold = 100.0;
  s.sandwich_dim = 16;
  const auto rows = parse_csv(csv("distance-bias"));
  ASSERT_EQ(rows.size(), 1001u);
  const auto& h = rows[0];
  const double slope = std::pow(2.0, -8.0 * 2 / 8);  // ALiBi head 2 of 8
  for (std::size_t k = 1; k < rows.size(); k += 37) {
    const double d = std::stod(rows[k][0]);
    EXPECT_NEAR(std::stod(rows[k][column(h, "alibi")]), -slope * d, 1e-6 * std::max(1.0, d));
    EXPECT_NEAR(std::stod(rows[k][column(h, "kerple-log")]), -0.8 * std::log1p(0.7 * d), 1e-7 * std::max(1.0, d));
    EXPECT_NEAR(std::stod(rows[k][column(h, "kerple-power")]), -0.8 * std::pow(d, 0.7), 1e-6 * std::max(1.0, d));
    double sandwich = -8.0;
    for (int i = 0; i < 8; ++i) sandwich += std::cos(d * std::pow(10000.0, -2.0 * i / 16));
    EXPECT_NEAR(std::stod(rows[k][column(h, "sandwich")]), sandwich, 1e-6);
    // FIRE at the query position 999: log(2·d + 1) / log(2·max(100, 999) + 1).
    EXPECT_NEAR(std::stod(rows[k][column(h, "fire")]), std::log(2.0 * d + 1.0) / std::log(2.0 * 999 + 1.0), 1e-7);
    EXPECT_EQ(std::stod(rows[k][column(h, "nope")]), 0.0);
    // Normalised over the training window: ALiBi reaches −1 at distance L_train − 1.
    EXPECT_NEAR(std::stod(rows[k][column(h, "alibi_normalised")]), -d / 299.0, 1e-6 * std::max(1.0, d));
  }
}

TEST_F(RelativeViewsTest, TransformerXlCsvSumsItsFourTerms) {
  session().state() = known_state("transformer-xl");
  const auto rows = parse_csv(csv("transformer-xl"));
  ASSERT_EQ(rows.size(), 1u + 48 * 49 / 2);  // pairs j <= i of the first 48 tokens
  const auto& h = rows[0];
  for (std::size_t k = 1; k < rows.size(); k += 11) {
    double sum = 0;
    for (const char* t : {"a", "b", "c", "d"}) sum += std::stod(rows[k][column(h, t)]);
    EXPECT_NEAR(std::stod(rows[k][column(h, "logit")]), sum, 1e-7 * std::max(1.0, std::abs(sum)));
    EXPECT_LE(std::stoi(rows[k][column(h, "key")]), std::stoi(rows[k][column(h, "query")]));
  }
}

// A bad value is named by validate_state; each view says so and the app keeps drawing.
TEST_F(RelativeViewsTest, BadValuesAreNamedAndTheAppKeepsRunning) {
  struct Bad {
    const char* view;
    void (*set)(app::AppState&);
    const char* parameter;
  };
  const Bad cases[] = {
      {"t5-bias", [](app::AppState& s) { s.max_distance = 8; }, "max_distance"},  // = num_buckets/4
      {"t5-bias", [](app::AppState& s) { s.num_buckets = 3; }, "num_buckets"},
      {"t5-bias", [](app::AppState& s) { s.num_buckets = 8192; }, "num_buckets"},
      {"deberta", [](app::AppState& s) { s.position_buckets = 1; }, "position_buckets"},
      {"deberta", [](app::AppState& s) { s.max_relative_positions = 129; }, "max_relative_positions"},  // mid + 1
      {"deberta", [](app::AppState& s) { s.pos_att_type = "p2p"; }, "pos_att_type"},
      {"relative-key", [](app::AppState& s) { s.position_embedding_type = "absolute"; }, "position_embedding_type"},
      {"xpos", [](app::AppState& s) { s.scale_base = 0.0; }, "scale_base"},
      {"distance-bias", [](app::AppState& s) { s.r2 = 2.5; }, "r2"},
      {"distance-bias", [](app::AppState& s) { s.r1 = -1.0; }, "r1"},
      {"distance-bias", [](app::AppState& s) { s.sandwich_dim = 7; }, "sandwich_dim"},
      {"distance-bias", [](app::AppState& s) { s.fire_c = 0.0; }, "fire_c"},
      {"distance-bias", [](app::AppState& s) { s.training_length = 1; }, "training_length"},
      {"cope", [](app::AppState& s) { s.cope_text = "   "; }, "cope_text"},
      {"cope", [](app::AppState& s) { s.cope_gates = "commas"; }, "cope_gates"},
      {"cope", [](app::AppState& s) { s.cope_npos_max = 0; }, "cope_npos_max"},
      {"transformer-xl", [](app::AppState& s) { s.clamp_len = -1; }, "clamp_len"},
  };
  for (const Bad& b : cases) {
    SCOPED_TRACE(std::string(b.view) + ": " + b.parameter);
    app::AppState s = known_state(b.view);
    b.set(s);
    const std::string error = app::validate_state(s);
    EXPECT_EQ(error.rfind(std::string(b.parameter) + " = ", 0), 0u) << error;
    session().state() = s;
    (void)window_frames(3);  // the view shows the message; the panel names it beside the control
    EXPECT_TRUE(render::drain_gl_errors().empty());
    EXPECT_THROW((void)csv(b.view), std::exception);
    session().state() = known_state(b.view);  // and back: it draws again
    EXPECT_NO_THROW((void)csv(b.view));
  }
}

// The panel shows the relative parameters of the views on screen only.
TEST_F(RelativeViewsTest, ViewsListThePanelParametersTheyRead) {
  const app::ViewInfo* t5 = app::find_view("t5-bias");
  ASSERT_NE(t5, nullptr);
  EXPECT_EQ(std::vector<std::string>(t5->panel_parameters.begin(), t5->panel_parameters.end()),
            (std::vector<std::string>{"num_buckets", "max_distance", "causal"}));
  EXPECT_TRUE(app::find_view("rope-cos")->panel_parameters.empty());
  app::AppState s = known_state("compare");
  s.compare_view = "deberta";
  std::vector<std::string> shown;
  for (const app::ViewInfo* v : app::shown_views(s)) shown.emplace_back(v->name);
  EXPECT_EQ(shown, (std::vector<std::string>{"compare", "deberta"}));
  s.grid = true;
  s.grid_views = {"cope", "xpos", "cope", "sinusoidal"};
  shown.clear();
  for (const app::ViewInfo* v : app::shown_views(s)) shown.emplace_back(v->name);
  EXPECT_EQ(shown, (std::vector<std::string>{"cope", "xpos", "sinusoidal"}));
}

}  // namespace
