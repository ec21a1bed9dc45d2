// Soak (issue 8): the full GUI frame for six periods of the scripted driver of
// `pe-viz bench --soak` (every view in turn, in tabs, the grid and compare A/B, while every
// control sweeps its range, the multimodal grids up to 512 × 512). Resident memory must not
// grow steadily. Each period repeats the same states, but a period's floor (the lowest RSS of
// its last 100 frames: a worker's temporaries come and go with timing) is bimodal: whether it
// still holds one cached table as large as the learned table at d = 1024, max_len = 8192
// (64 MiB of doubles) depends on when a worker finished. Measured floors (MiB):
// 327, 327, 327, 392, 392 in one run; 325, 379, 387, 391, 390, 418, 420, 389, 395, 392 over
// ten periods in another; so "the last period within 5 % of the ones before" failed one run
// in four without any leak. A leak makes every period a new high: the test fails when each
// of the last three period-to-period changes is a rise of more than 3 %, or when the last
// floor is more than 64 MiB plus 25 % above the highest floor of the first four periods.
// On a busy machine the caches take longer to fill: 300, 323, 356, 389, 401 (still rising by
// 3.2 % in the fifth period) failed one five-period run in eight, so the test runs six; and
// 303, 315, 327, 414, 413, 421 came within 5 MiB of the earlier "64 MiB + 10 % over the first
// three" (eight six-period runs beside other GL tests: last floors 352–453 MiB, none failed).
// No OpenGL error may occur. Runs in this process with a small hidden window; needs a
// display (xvfb-run).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <vector>

#include "cli/soak_driver.hpp"
#include "ui/app_session.hpp"
#include "state/app_state.hpp"

namespace {

TEST(Soak, MemoryLevelsOffAndNoGlErrors) {
  app::fix_malloc_mmap_threshold();  // as `pe-viz bench --soak`: RSS then follows live memory
  std::unique_ptr<app::AppSession> session;
  try {
    session = std::make_unique<app::AppSession>(
        app::default_state(), app::WindowOptions{.width = 480, .height = 320, .visible = false, .title = "pe-viz soak"});
  } catch (const std::exception& e) {
    GTEST_SKIP() << "no hidden GL window (run under xvfb-run): " << e.what();
  }
  const long long period = app::soak_period();
  const long long frames = 6 * period;
  // d up to the panel's 1024 keeps the run near a minute here; `pe-viz bench --soak 10000`
  // covers the views' maximum of 8192.
  const app::SoakResult r = app::run_soak(*session, {.frames = frames, .report_every = period, .max_dim = 1024}, stdout);
  ASSERT_EQ(r.checkpoints.size(), 6u);
  for (const auto& e : r.first_errors) ADD_FAILURE() << e;
  EXPECT_EQ(r.gl_errors, 0u);
  EXPECT_EQ(r.invalid_states, 0) << r.first_invalid;
  std::vector<long long> floors;
  for (const auto& c : r.checkpoints) floors.push_back(c.rss_floor_kib);
  const long long earlier_high = *std::max_element(floors.begin(), floors.begin() + 4);
  int rises = 0;
  for (std::size_t c = floors.size() - 3; c < floors.size(); ++c)
    if (double(floors[c]) > 1.03 * double(floors[c - 1])) ++rises;
  const long long last = floors.back();
  const long long allowed = (64LL << 10) + earlier_high + earlier_high / 4;
  std::printf("soak: %lld frames in %.1f s; VmRSS floors (KiB)", frames, r.seconds);
  for (const long long f : floors) std::printf(" %lld", f);
  std::printf("; %d of the last 3 changes rise > 3 %%; last %lld vs allowed %lld; VmHWM %lld KiB\n", rises, last, allowed,
              r.checkpoints.back().memory.hwm_kib);
  EXPECT_LT(rises, 3) << "the RSS floor rose in every one of the last three periods";
  EXPECT_LE(last, allowed) << "VmRSS floor " << last << " KiB after the last period, highest of the first four "
                           << earlier_high << " KiB";
}

}  // namespace
