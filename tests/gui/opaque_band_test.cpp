// A translucent x-band over a plot's background and grid (plot_xband) is drawn opaque: the
// band's colour over the background as a fill, the grid under the band redrawn in its
// colours seen through the band. The frame must be within one 8-bit level of the blended
// band everywhere (views with bands, both themes, 1× and 2×), and the opaque path must
// actually have been taken, or the comparison proves nothing.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <string>

#include "export/view_export.hpp"
#include "plot/plot.hpp"
#include "test_support.hpp"

namespace {

using namespace pe_test;

const bool kRegistered = register_session_environment();

class OpaqueBand : public SessionTest {
 protected:
  void TearDown() override { plot::set_opaque_bands(true); }
  Image render(bool opaque) {
    plot::set_opaque_bands(opaque);
    const app::AppState& s = session().state();
    return Image(1280, 720, app::render_view_pixels(session(), s.view, 1280, 720, app::Background::Theme));
  }
};

TEST_F(OpaqueBand, WithinOneLevelOfTheBlendedBand) {
  const long long before = plot::opaque_band_count();
  for (const char* view : {"distance-bias", "relative-key", "mrope-positions"})
    for (const bool dark : {true, false}) {
      SCOPED_TRACE(std::string(view) + (dark ? " dark" : " light"));
      app::AppState& s = session().state();
      s = known_state();
      s.view = view;
      s.length = 4000;
      s.dark_theme = dark;
      s.ui_scale = dark ? 1.0f : 2.0f;
      const Image blended = render(false), opaque = render(true);
      ASSERT_TRUE(blended.valid() && opaque.valid());
      int worst = 0;
      for (std::size_t i = 0; i < blended.rgba.size(); ++i)
        worst = std::max(worst, std::abs(int(blended.rgba[i]) - int(opaque.rgba[i])));
      EXPECT_LE(worst, 1);
    }
  // distance-bias has two banded plots, relative-key and mrope-positions one or more each.
  EXPECT_GE(plot::opaque_band_count() - before, 6);
}

}  // namespace
