// The frequency-usage view (issue 26) drawn in the offscreen GL session: with stories260K's
// weights (tests/data/stories260K) in both themes at 1× and 2× UI scale, every plot shows
// varying data, no text is cut off and GL reports no error; without weights it shows how to
// load them (no plot); a file it cannot read shows the reason naming the file and tensor;
// its CSV is the measure's table; clicking and ← / → pick a layer.
#include <fstream>

#include "../unit/weights_test_writer.hpp"
#include "clipped_text.hpp"
#include "export/view_data.hpp"
#include "export/view_export.hpp"
#include "plot/plot.hpp"
#include "state/weights_usage.hpp"
#include "test_support.hpp"
#include "ui/main_frame.hpp"
#include "ui/formula_strip.hpp"
#include "views/view.hpp"

namespace {

using namespace pe_test;

const bool kRegistered = register_session_environment();

const std::string kStories = (fs::path(PE_SOURCE_DIR) / "tests" / "data" / "stories260K").string();

class FrequencyUsageViewTest : public SessionTest {};

app::AppState with_weights(const std::string& source) {
  app::AppState s = known_state("frequency-usage");
  s.weights = source;
  return s;
}

TEST_F(FrequencyUsageViewTest, Stories260KInBothThemesAtScale1And2) {
  ASSERT_TRUE(app::weights_status(kStories, true).result->ok());
  struct Setup {
    float scale;
    int width, height;
  };
  for (const Setup setup : {Setup{1.0f, kWindowWidth, kWindowHeight}, Setup{1.0f, 1920, 1080}, Setup{2.0f, 1920, 1080}}) {
    session().window().set_size(setup.width, setup.height);
    for (const bool dark : {true, false}) {
      SCOPED_TRACE(std::string(dark ? "dark " : "light ") + std::to_string(int(setup.scale)) + "×");
      app::AppState s = with_weights(kStories);
      s.ui_scale = setup.scale;
      s.dark_theme = dark;
      session().state() = s;
      render::drain_gl_errors();
      plot::set_record_drawn_plots(true);
      for (int f = 0; f < 4; ++f) session().frame(0.0);
      const auto plots = plot::take_drawn_plots();
      plot::set_record_drawn_plots(false);
      const auto cut = clipped_text(*ImGui::GetDrawData());
      EXPECT_TRUE(cut.empty()) << "text cut off:" << describe(cut);
      const auto errors = render::drain_gl_errors();
      EXPECT_TRUE(errors.empty()) << errors.size() << " GL errors, first: " << (errors.empty() ? "" : errors[0]);
      // The last frame's plots: layers × pairs, the layer's curves, its heads × pairs, each
      // with data that varies and a readable data area (three lines of the UI font), the
      // whole view inside its area (as plot_sizes_test asks of every view's default state).
      ASSERT_GE(plots.size(), 3u);
      for (std::size_t i = plots.size() - 3; i < plots.size(); ++i) {
        EXPECT_TRUE(plots[i].varied) << plots[i].title;
        EXPECT_GE(plots[i].max.y - plots[i].min.y, plot::kMinPlotDataLines * ImGui::GetFontSize()) << plots[i].title;
      }
      EXPECT_LT(app::last_view_overflow(), 1.0f) << "runs past the bottom of its area";
    }
  }
  session().window().set_size(kWindowWidth, kWindowHeight);
  for (int f = 0; f < 2; ++f) session().frame(0.0);
}

TEST_F(FrequencyUsageViewTest, ExportDrawsEveryPlotWithData) {
  app::forget_weights(kStories);  // an export reads what it has not read yet, on the spot
  session().state() = with_weights(kStories);
  plot::set_record_drawn_plots(true);
  plot::take_drawn_plots();
  const auto pixels = app::render_view_pixels(session(), "frequency-usage", 1600, 1000, app::Background::Theme);
  const auto plots = plot::take_drawn_plots();
  plot::set_record_drawn_plots(false);
  EXPECT_TRUE(is_not_blank(Image(1600, 1000, pixels), {0, 0, 1600, 1000}));
  ASSERT_GE(plots.size(), 3u);  // the export's frames each draw the three plots
  EXPECT_EQ(plots.size() % 3, 0u);
  for (const auto& p : plots) EXPECT_TRUE(p.varied) << p.title;
}

TEST_F(FrequencyUsageViewTest, WithoutWeightsItSaysHowToLoadThemAndShowsTheConfigsPairs) {
  session().state() = known_state("frequency-usage");
  plot::set_record_drawn_plots(true);
  plot::take_drawn_plots();
  const auto pixels = app::render_view_pixels(session(), "frequency-usage", 1200, 800, app::Background::Theme);
  // Only the configuration's wavelengths: no heatmap of norms that were never read.
  const auto plots = plot::take_drawn_plots();
  plot::set_record_drawn_plots(false);
  ASSERT_FALSE(plots.empty());
  for (const auto& p : plots) {
    EXPECT_NE(p.title.find("Until weights are read"), std::string::npos) << p.title;
    EXPECT_TRUE(p.varied);
  }
  EXPECT_TRUE(is_not_blank(Image(1200, 800, pixels), {0, 0, 1200, 800}));
  app::Derived d;
  app::update_derived(session().state(), d);
  const auto formula = app::view_formula("frequency-usage", session().state(), d);
  ASSERT_EQ(formula.size(), 2u);
  EXPECT_NE(formula[1].find("--weights"), std::string::npos) << formula[1];
}

TEST_F(FrequencyUsageViewTest, AnUnreadableModelShowsWhyNamingTheFileAndTensor) {
  TempDir dir;
  {
    std::ofstream(dir / "config.json") << read_file(fs::path(kStories) / "config.json");
    // Layer 0's q_proj has the wrong shape (stories260K's is 64 × 64).
    SafetensorsWriter w;
    w.values("model.layers.0.self_attn.q_proj.weight", "F32", {2, 2}, {0.5, 0.5, 0.5, 0.5});
    w.values("model.layers.0.self_attn.k_proj.weight", "F32", {32, 64}, std::vector<double>(32 * 64, 0.25));
    write_bytes(dir / "model.safetensors", w.bytes());
  }
  session().state() = with_weights(dir.path().string());
  const app::WeightsStatus st = app::weights_status(dir.path().string(), true);
  ASSERT_FALSE(st.result->ok());
  plot::set_record_drawn_plots(true);
  plot::take_drawn_plots();
  for (int f = 0; f < 3; ++f) session().frame(0.0);
  EXPECT_TRUE(plot::take_drawn_plots().empty());
  plot::set_record_drawn_plots(false);
  app::Derived d;
  app::update_derived(session().state(), d);
  const auto formula = app::view_formula("frequency-usage", session().state(), d);
  ASSERT_EQ(formula.size(), 2u);
  EXPECT_NE(formula[1].find("model.safetensors"), std::string::npos) << formula[1];
  EXPECT_NE(formula[1].find("model.layers.0.self_attn.q_proj.weight"), std::string::npos) << formula[1];
  EXPECT_THROW(app::view_csv("frequency-usage", session().state(), d), std::exception);
}

TEST_F(FrequencyUsageViewTest, CsvIsTheMeasuresTableAndArrowsPickALayer) {
  app::AppState s = with_weights(kStories);
  app::Derived d;
  app::update_derived(s, d);
  const std::string csv = app::view_csv("frequency-usage", s, d);
  const auto rows = parse_csv(csv);
  ASSERT_EQ(rows.size(), 1u + 5u * (8u + 4u) * 4u);  // 5 layers × (8 query + 4 key heads) × 4 pairs
  EXPECT_EQ(csv.substr(csv.find('\n') + 1), app::weights_csv(*app::weights_status(kStories, true).result));
  const app::ViewInfo* v = app::find_view("frequency-usage");
  ASSERT_NE(v, nullptr);
  EXPECT_EQ(std::string(v->group), "Model");
  s.weights_layer = 0;
  v->step(s, +1);
  EXPECT_EQ(s.weights_layer, 1);
  for (int i = 0; i < 10; ++i) v->step(s, +1);
  EXPECT_EQ(s.weights_layer, 4);  // the last layer
  v->step(s, -1);
  EXPECT_EQ(s.weights_layer, 3);
  const auto formula = app::view_formula("frequency-usage", s, d);
  ASSERT_EQ(formula.size(), 2u);
  EXPECT_NE(formula[0].find("half-split"), std::string::npos);
  EXPECT_NE(formula[0].find("interleaved"), std::string::npos);
  EXPECT_NE(formula[1].find("stories260K"), std::string::npos) << formula[1];
}

}  // namespace
