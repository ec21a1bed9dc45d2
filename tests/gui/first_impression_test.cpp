// First impression (issue 14): opened with the default parameters, every view shows
// something worth looking at. Each view is exported with app::default_state(); the picture
// must not be near-uniform, and every plot in it must carry data that varies (no empty
// heatmap, no flat line as the only content of a plot).
#include <cstdio>

#include "export/view_export.hpp"
#include "plot/plot.hpp"
#include "test_support.hpp"
#include "views/view.hpp"

namespace {

using namespace pe_test;

const bool kRegistered = register_session_environment();

class FirstImpressionTest : public SessionTest {};

TEST_F(FirstImpressionTest, EveryViewWithDefaultParametersShowsVaryingData) {
  constexpr int kWidth = 1280, kHeight = 800;
  plot::set_record_drawn_plots(true);
  for (const app::ViewInfo& v : app::all_views()) {
    SCOPED_TRACE(v.name);
    session().state() = app::default_state();
    session().state().view = v.name;
    plot::take_drawn_plots();
    const auto pixels = app::render_view_pixels(session(), v.name, kWidth, kHeight, app::Background::Theme);
    const std::vector<plot::DrawnPlot> plots = plot::take_drawn_plots();
    const Image image(kWidth, kHeight, pixels);
    if (const char* dir = std::getenv("PE_TEST_IMAGE_DIR"))
      write_ppm(fs::path(dir) / (std::string("first-impression-") + v.name + ".ppm"), image);
    EXPECT_TRUE(is_not_blank(image, whole(image)));
    for (const plot::DrawnPlot& p : plots)
      EXPECT_TRUE(p.varied) << "plot \"" << p.title << "\" shows no varying data with the default parameters";
  }
  plot::set_record_drawn_plots(false);
}

TEST_F(FirstImpressionTest, TheCheckSeesAnEmptyPlot) {
  // The same check on a state known to give flat data: L = 1 (one position, no variation).
  plot::set_record_drawn_plots(true);
  session().state() = app::default_state();
  session().state().length = 1;
  session().state().position = 0;
  plot::take_drawn_plots();
  app::render_view_pixels(session(), "sinusoidal", 640, 400, app::Background::Theme);
  bool any_flat = false;
  for (const plot::DrawnPlot& p : plot::take_drawn_plots()) any_flat = any_flat || !p.varied;
  plot::set_record_drawn_plots(false);
  EXPECT_TRUE(any_flat) << "a one-position table must count as flat";
}

}  // namespace
