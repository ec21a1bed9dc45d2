// One window after another in a process (as tests and tools open them): GL objects kept by
// the plot layer (heatmap programs, textures, the band shader) belong to the context they were
// made in. Each new window must draw the same pixels as the first, without GL errors — with
// stale objects, the second window's heatmaps used names that no longer meant them.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "export/view_export.hpp"
#include "render/gl_errors.hpp"
#include "ui/app_session.hpp"

namespace {

std::vector<unsigned char> render_once(const std::string& view) {
  app::AppSession session(app::default_state(), app::WindowOptions{.width = 1280, .height = 800, .visible = false});
  session.state().view = view;
  render::drain_gl_errors();
  session.frame(0.0);
  auto pixels = app::render_view_pixels(session, view, 800, 500, app::Background::Theme);
  EXPECT_TRUE(render::drain_gl_errors().empty()) << view;
  return pixels;
}

TEST(GlContextReuse, EveryNewWindowDrawsWhatTheFirstDrew) {
  // rope-cos: encoding heatmap (two passes); learned: value heatmap and its band; sinusoidal:
  // encoding heatmap in one pass at d = 512 rows.
  for (const char* view : {"rope-cos", "learned", "sinusoidal"}) {
    SCOPED_TRACE(view);
    const auto first = render_once(view);
    for (int k = 1; k < 3; ++k) EXPECT_TRUE(render_once(view) == first) << "window " << k;
  }
}

}  // namespace
