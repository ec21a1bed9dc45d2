// The permutation and comparison views in the live app: they render (window and
// offscreen, several sizes, an error state) without GL errors, and their CSV carries the
// measured facts: without positions B's attention is A's reordered exactly, every
// position method breaks it; the comparison's parameter counts are L·d and 0.
// Run under xvfb-run -a -s "-screen 0 1920x1200x24".
#include <sstream>

#include "export/view_data.hpp"
#include "export/view_export.hpp"
#include "test_support.hpp"
#include "views/view.hpp"

namespace {

using namespace pe_test;

const bool kRegistered = register_session_environment();

class TeachingViews2Test : public SessionTest {};


void render_both_ways(app::AppSession& s, const std::string& view) {
  SCOPED_TRACE(view + (s.state().dark_theme ? " dark" : " light") + " scale " + std::to_string(s.state().ui_scale));
  s.state().view = view;
  const Image im = window_frames(3);
  auto errors = render::drain_gl_errors();
  EXPECT_TRUE(errors.empty()) << (errors.empty() ? "" : errors.front());
  ASSERT_TRUE(im.valid());
  EXPECT_TRUE(is_not_blank(im, {400, 0, im.width, im.height}));
  EXPECT_EQ(s.state().view, view);
  for (auto [w, h] : {std::pair{800, 600}, std::pair{1920, 1080}}) {
    Image off;
    ASSERT_NO_THROW(off = Image(w, h, app::render_view_pixels(s, view, w, h, app::Background::Theme)));
    errors = render::drain_gl_errors();
    EXPECT_TRUE(errors.empty()) << (errors.empty() ? "" : errors.front());
    EXPECT_TRUE(is_not_blank(off, whole(off)));
  }
}

TEST_F(TeachingViews2Test, PermutationCsvShowsExactReorderingOnlyWithoutPositions) {
  session().state() = known_state("permutation");
  window_frames(3);  // let the tab bar settle: a view switch one frame after another is taken back (reported)
  const auto rows = parse_csv(app::view_csv("permutation", session().state(), session().derived()));
  ASSERT_GT(rows.size(), 1u);
  const auto& h = rows[0];
  const std::size_t method = column(h, "method"), diff = column(h, "abs_difference"), qword = column(h, "query_word"),
                    kword = column(h, "key_word"), bq = column(h, "b_query");
  std::map<std::string, double> max_diff;
  std::map<std::string, int> count;
  for (std::size_t r = 1; r < rows.size(); ++r) {
    ASSERT_EQ(rows[r].size(), h.size()) << "row " << r;
    const std::string m = rows[r][method];
    max_diff[m] = std::max(max_diff[m], std::stod(rows[r][diff]));
    ++count[m];
    // "dog" is word 1 of "the dog bit the man" and word 4 of "the man bit the dog".
    if (rows[r][qword] == "dog" && rows[r][kword] == "dog") {
      EXPECT_EQ(rows[r][bq], "4");
    }
  }
  for (const char* m : {"none", "sinusoidal", "learned", "rope", "alibi"}) EXPECT_EQ(count[m], 25) << m;  // 5 × 5 words
  EXPECT_EQ(max_diff["none"], 0.0);
  for (const char* m : {"sinusoidal", "learned", "rope", "alibi"}) EXPECT_GT(max_diff[m], 1e-6) << m;
}

TEST_F(TeachingViews2Test, PermutationCsvSaysWhenBIsNotAReorderingOrLearnedHasNoRow) {
  app::AppState s = known_state("permutation");
  s.tokens_b = "the cat bit the man";
  s.learned_max_len = 3;
  session().state() = s;
  window_frames(3);  // let the tab bar settle: a view switch one frame after another is taken back (reported)
  const std::string csv = app::view_csv("permutation", session().state(), session().derived());
  EXPECT_NE(csv.find("not a reordering"), std::string::npos);
  EXPECT_NE(csv.find("past max_len 3"), std::string::npos) << csv.substr(0, 400);
  render_both_ways(session(), "permutation");
}

TEST_F(TeachingViews2Test, ComparisonCsvMeasuresSeed004Example) {
  app::AppState s = known_state("comparison");
  s.rope.head_dim = 768;
  s.learned_max_len = 512;
  session().state() = s;
  window_frames(3);  // let the tab bar settle: a view switch one frame after another is taken back (reported)
  const auto rows = parse_csv(app::view_csv("comparison", session().state(), session().derived()));
  ASSERT_FALSE(rows.empty());
  EXPECT_EQ(rows[0], (std::vector<std::string>{"quantity", "sinusoidal", "learned", "rope", "alibi"}));
  std::map<std::string, std::vector<std::string>> by_name;
  for (const auto& r : rows) by_name[r[0]] = r;
  EXPECT_EQ(by_name["trainable_parameters"], (std::vector<std::string>{"trainable_parameters", "0", "393216", "0", "0"}));
  EXPECT_EQ(by_name["is_relative"], (std::vector<std::string>{"is_relative", "0", "0", "1", "1"}));
  EXPECT_EQ(by_name["defined_at_2x_max_len"][2], "0");  // learned: no row past max_len
  EXPECT_GT(std::stod(by_name["unseen_angle_fraction_at_2x"][3]), 0.0);  // RoPE does meet unseen angles
}

TEST_F(TeachingViews2Test, BothViewsRenderWithoutGlErrors) {
  session().state() = known_state("permutation");
  render_both_ways(session(), "permutation");
  session().state() = known_state("comparison");
  render_both_ways(session(), "comparison");
  // Projector settings: larger UI and light theme.
  app::AppState s = known_state("comparison");
  s.ui_scale = 2.0f;
  s.dark_theme = false;
  session().state() = s;
  render_both_ways(session(), "comparison");
  s.view = "permutation";
  session().state() = s;
  render_both_ways(session(), "permutation");
}

}  // namespace
