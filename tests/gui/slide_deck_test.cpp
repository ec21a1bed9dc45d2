// The GUI's "all views, as slides" export: one view per step with progress, then an
// index.html naming every image; an unwritable folder stops the job with a message.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>

#include "export/slide_deck.hpp"
#include "ui/app_session.hpp"
#include "views/view.hpp"

namespace {

namespace fs = std::filesystem;

TEST(SlideDeckJob, ExportsOneViewPerStepThenTheIndex) {
  app::AppSession session(app::default_state(), {.width = 800, .height = 500, .visible = false});
  const fs::path dir = fs::temp_directory_path() / ("pe-viz-slide-deck-test-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  auto requests = app::slide_deck_requests(session.state(), dir, 320, 200, app::Background::White);
  ASSERT_EQ(requests.size(), app::all_views().size());
  requests.resize(3);  // three views keep the test quick on llvmpipe

  app::SlideDeckJob job;
  job.start(requests);
  for (std::size_t k = 1; k <= 3; ++k) {
    ASSERT_TRUE(job.active());
    const auto step = job.step(session);
    EXPECT_FALSE(step.error) << step.message;
    EXPECT_EQ(step.done, k);
    EXPECT_EQ(step.total, 3u);
    EXPECT_EQ(step.finished, k == 3);
    EXPECT_TRUE(fs::exists(requests[k - 1].path)) << requests[k - 1].path;
  }
  EXPECT_FALSE(job.active());
  std::ifstream index(dir / "index.html");
  ASSERT_TRUE(index.good());
  std::stringstream html;
  html << index.rdbuf();
  for (const auto& r : requests) EXPECT_NE(html.str().find(r.path.filename().string()), std::string::npos);
  fs::remove_all(dir);
}

TEST(SlideDeckJob, UnwritableFolderStopsWithAMessage) {
  app::AppSession session(app::default_state(), {.width = 800, .height = 500, .visible = false});
  app::SlideDeckJob job;
  job.start(app::slide_deck_requests(session.state(), "/proc/pe-viz-cannot-write-here", 320, 200, app::Background::Theme));
  const auto step = job.step(session);
  EXPECT_TRUE(step.error);
  EXPECT_TRUE(step.finished);
  EXPECT_NE(step.message.find("/proc/pe-viz-cannot-write-here"), std::string::npos) << step.message;
  EXPECT_FALSE(job.active());
  // The session still draws.
  session.frame(0.0);
}

}  // namespace
