// Issue 6: the scaling, extrapolation and compare views render for every preset without
// GL errors and are not blank; malformed config files, loaded by path or dropped onto the
// window, show the error and keep the previous configuration.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "export/view_data.hpp"
#include "export/view_export.hpp"
#include "pe/models/config.hpp"
#include "ui/app_session.hpp"
#include "render/gl_errors.hpp"
#include "state/session_file.hpp"
#include "ui/file_actions.hpp"

namespace {

namespace fs = std::filesystem;

class ScalingViewsTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    session_ = std::make_unique<app::AppSession>(app::default_state(),
                                                 app::WindowOptions{.width = 1280, .height = 800, .visible = false});
  }
  static void TearDownTestSuite() { session_.reset(); }
  static std::unique_ptr<app::AppSession> session_;
};
std::unique_ptr<app::AppSession> ScalingViewsTest::session_;

// Distinct colours in a coarse grid of samples: a blank or single-colour image has 1–2.
std::size_t distinct_colours(const std::vector<unsigned char>& rgba) {
  std::set<unsigned> colours;
  for (std::size_t i = 0; i + 3 < rgba.size(); i += 4 * 97)
    colours.insert(unsigned(rgba[i]) << 16 | unsigned(rgba[i + 1]) << 8 | unsigned(rgba[i + 2]));
  return colours.size();
}

// Compare names each side truthfully: B starts as the teaching preset with θ = 5·10⁵, so its
// preset title (which says θ = 10000) must not stand alone; a preset chosen for B is named.
TEST_F(ScalingViewsTest, CompareNamesWhatEachSideIs) {
  session_->state() = app::default_state();
  session_->state().view = "compare";
  session_->frame(0.0);
  std::string header = app::view_csv("compare", session_->state(), session_->derived());
  header = header.substr(0, header.find('\n'));
  const std::string b = header.substr(header.find("; B: "));
  EXPECT_NE(b.find("custom, based on"), std::string::npos) << header;
  EXPECT_NE(b.find("theta = 500000"), std::string::npos) << header;
  EXPECT_NE(header.find("A: Teaching"), std::string::npos) << header;

  session_->state().compare_b = pe::load_preset("llama-3.1-8b");
  session_->state().compare_b_preset = "llama-3.1-8b";
  session_->frame(0.0);
  header = app::view_csv("compare", session_->state(), session_->derived());
  header = header.substr(0, header.find('\n'));
  EXPECT_NE(header.find("; B: " + session_->state().compare_b.title + " (theta = 500000, d = 128)"), std::string::npos) << header;
}

TEST_F(ScalingViewsTest, EveryPresetRendersScalingExtrapolationAndCompareViews) {
  for (const pe::PresetInfo& preset : pe::list_presets()) {
    app::AppState state = app::default_state();
    app::apply_preset(state, preset.key);
    // Twice the training context: the regime the views are about.
    state.length = std::min<long long>(2 * state.rope.original_max_position_embeddings(), 1'000'000);
    for (const char* view : {"scaling", "extrapolation", "compare"}) {
      SCOPED_TRACE(preset.key + " / " + view);
      session_->state() = state;
      session_->state().view = view;
      render::drain_gl_errors();
      session_->frame(0.0);
      const auto pixels = app::render_view_pixels(*session_, view, 960, 600, app::Background::Theme);
      EXPECT_TRUE(render::drain_gl_errors().empty());
      EXPECT_GT(distinct_colours(pixels), 20u);
      EXPECT_TRUE(session_->derived().error.empty()) << session_->derived().error;
    }
  }
}

TEST_F(ScalingViewsTest, MalformedConfigByPathOrDropKeepsThePreviousConfig) {
  const fs::path dir = fs::temp_directory_path() / ("pe-viz-scaling-views-test-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const fs::path bad = dir / "truncated-config.json";
  std::ofstream(bad) << R"({"rope_theta": 500000.0, "head_dim": 128, "rope_scaling": {"rope_type": "llama3", "fact)";
  const fs::path wrong_type = dir / "wrong-type-config.json";
  std::ofstream(wrong_type) << R"({"rope_theta": "big", "head_dim": 128, "max_position_embeddings": 8192})";

  app::AppState state = app::default_state();
  app::apply_preset(state, "llama-2-7b");
  const pe::RopeConfig before = state.rope;

  EXPECT_THROW(app::load_config_file(state, bad.string()), std::exception);
  EXPECT_EQ(state.rope.theta, before.theta);
  EXPECT_EQ(state.rope.head_dim, before.head_dim);

  app::StatusLine status;
  app::load_dropped_files(state, {wrong_type.string()}, status, 1.0);
  EXPECT_TRUE(status.error);
  EXPECT_NE(state.config_error.find("rope_theta"), std::string::npos) << state.config_error;
  EXPECT_EQ(state.rope.theta, before.theta);
  EXPECT_EQ(state.rope.max_position_embeddings, before.max_position_embeddings);

  // A good file dropped afterwards loads, clears the error and is remembered.
  const fs::path good = dir / "good-config.json";
  std::ofstream(good) << R"({"rope_theta": 1000000.0, "hidden_size": 4096, "num_attention_heads": 32,
                             "max_position_embeddings": 16384})";
  app::load_dropped_files(state, {good.string()}, status, 2.0);
  EXPECT_FALSE(status.error) << status.text;
  EXPECT_EQ(state.rope.theta, 1e6);
  EXPECT_EQ(state.rope.head_dim, 128);
  EXPECT_EQ(state.length, 16384);
  EXPECT_TRUE(state.config_error.empty());
  ASSERT_FALSE(state.recent_configs.empty());
  EXPECT_EQ(state.recent_configs.front(), good.string());

  // The app keeps drawing after the errors.
  session_->state() = state;
  session_->state().view = "scaling";
  session_->frame(0.0);
  EXPECT_TRUE(render::drain_gl_errors().empty());
  fs::remove_all(dir);
}

}  // namespace

namespace {

// The grid layout draws four views in one frame without GL errors, survives a session
// round trip, and refuses cells it cannot draw.
TEST_F(ScalingViewsTest, GridOfFourViewsDrawsAndRoundTrips) {
  app::AppState state = app::default_state();
  state.grid = true;
  state.grid_views = {"rope-sin", "alibi", "scaling", "attention"};
  ASSERT_EQ(app::validate_state(state), "");
  session_->state() = state;
  render::drain_gl_errors();
  for (int f = 0; f < 3; ++f) session_->frame(f / 60.0);
  EXPECT_TRUE(render::drain_gl_errors().empty());

  std::vector<std::string> warnings;
  const app::AppState back = app::session_from_json(app::session_to_json(state), app::default_state(), warnings);
  EXPECT_TRUE(back.grid);
  EXPECT_EQ(back.grid_views, state.grid_views);
  EXPECT_TRUE(warnings.empty());

  state.grid_views[2] = "compare";
  EXPECT_NE(app::validate_state(state).find("grid_views"), std::string::npos);
}

}  // namespace
