// Projector readiness, the part text clipping cannot see: every plot of every view keeps a
// data area a viewer can read. A view that shares its height among several plots gives
// each a fixed band of title, tick labels and axis label; at 2× on a 1920×1080 projector
// that band can eat the whole share and leave a heatmap a few pixels tall (seen in
// `extrapolation` and `compare` before the plots reserved their decorations).
#include <imgui.h>

#include <string>
#include <vector>

#include "plot/plot.hpp"
#include "test_support.hpp"
#include "ui/main_frame.hpp"
#include "views/view.hpp"

namespace {

using namespace pe_test;

const bool kRegistered = register_session_environment();

class PlotSizesTest : public SessionTest {};

// At least three lines of the UI font: enough for a heatmap's rows to read as a picture
// and for a curve's y axis to carry two tick labels.
constexpr float kMinDataHeightInLines = plot::kMinPlotDataLines;

TEST_F(PlotSizesTest, EveryPlotOfEveryViewHasARoomyDataAreaAtScale1And2) {
  struct Setup { float scale; int width, height; };
  plot::set_record_drawn_plots(true);
  for (const Setup setup : {Setup{1.0f, kWindowWidth, kWindowHeight}, Setup{1.0f, 1920, 1080}, Setup{2.0f, 1920, 1080}}) {
    session().window().set_size(setup.width, setup.height);
    for (const auto& v : app::all_views()) {
      const std::string where = std::string(v.name) + " at " + std::to_string(int(setup.scale)) + "× " +
                                std::to_string(setup.width) + "×" + std::to_string(setup.height);
      app::AppState st = known_state(v.name);
      st.ui_scale = setup.scale;
      session().state() = st;
      for (int f = 0; f < 2; ++f) session().frame(0.0);  // scale change settles (font atlas) in frame 1
      plot::take_drawn_plots();
      session().frame(0.0);
      // At 1× everything fits without scrolling; at 2× a view may run past the bottom and
      // scroll, but its plots keep their height.
      // Everything fits without scrolling, at 2× on a 1080p projector too, but extrapolation:
      // four plots under their controls need ~13 more lines there, and it scrolls (its plots
      // keep their height, checked below).
      if (setup.scale == 1.0f || std::string(v.name) != "extrapolation") {
        EXPECT_LT(app::last_view_overflow(), 1.0f) << where << " runs past the bottom of its area by " << app::last_view_overflow()
                                                   << " px";
      }
      // compare draws two whole views side by side above its own plots: those keep the
      // embedded minimum of one line (the view grid's cells likewise).
      const float lines = std::string(v.name) == "compare" ? plot::kEmbeddedMinDataLines : kMinDataHeightInLines;
      const float min_height = lines * ImGui::GetFontSize();
      for (const plot::DrawnPlot& p : plot::take_drawn_plots()) {
        const float h = p.max.y - p.min.y;
        EXPECT_GE(h, min_height) << where << ": plot \"" << p.title << "\" has a data area " << h << " px tall (minimum "
                                 << min_height << ")";
      }
    }
  }
  plot::set_record_drawn_plots(false);
  session().window().set_size(kWindowWidth, kWindowHeight);
  for (int f = 0; f < 2; ++f) session().frame(0.0);
}

// A view that runs past the bottom gets a scrollbar, which narrows it; a view that decides
// its layout from its width (permutation and comparison page themselves when they do not
// fit) must not then flip back and forth between two layouts every frame or two. Left
// alone, every view draws the same frame over and over once settled.
TEST_F(PlotSizesTest, EveryViewLeftAloneSettlesOnOneLayout) {
  struct Setup { float scale; int width, height; };
  // 1600×700: short enough that permutation's and comparison's full tables overflow at 1×.
  for (const Setup setup : {Setup{1.0f, kWindowWidth, kWindowHeight}, Setup{1.0f, 1600, 700}, Setup{2.0f, 1920, 1080}}) {
    session().window().set_size(setup.width, setup.height);
    for (const auto& v : app::all_views()) {
      const std::string where = std::string(v.name) + " at " + std::to_string(int(setup.scale)) + "× " +
                                std::to_string(setup.width) + "×" + std::to_string(setup.height);
      app::AppState st = known_state(v.name);
      st.ui_scale = setup.scale;
      session().state() = st;
      for (int f = 0; f < 8; ++f) session().frame(0.0);  // fonts, async results, scrollbars
      std::vector<int> vertices;
      for (int f = 0; f < 6; ++f) {
        session().frame(0.0);
        vertices.push_back(ImGui::GetDrawData()->TotalVtxCount);
      }
      for (std::size_t f = 1; f < vertices.size(); ++f)
        EXPECT_EQ(vertices[f], vertices[0]) << where << ": frame " << f << " of a view left alone drew another layout";
    }
  }
  session().window().set_size(kWindowWidth, kWindowHeight);
  for (int f = 0; f < 2; ++f) session().frame(0.0);
}

}  // namespace
