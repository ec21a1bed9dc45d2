// Soak (issue 8): the full GUI frame for six periods of the scripted driver of
// `pe-viz bench --soak` (every view in turn, in tabs, the grid and compare A/B, while every
// control sweeps its range, the multimodal grids up to 512 × 512). Resident memory must
// level off, and no OpenGL error may occur.
//
// Memory levels off in steps, at random times: a period's floor (the lowest RSS of its last
// 100 frames) moves by a 64 MiB table or a worker's arena depending on when workers finished.
// Measured floors (MiB) over twenty periods of `pe-viz bench --soak 19780 --report-every 989
// --soak-max-dim 1024 --width 480 --height 320`: 348, 402, 415, 404, 409, 425, 407, 405, 404,
// 405, 417, 417, 454, 457, 465, 466, 470, 470, 470, 471. Shape rules failed without a leak:
// "the last within 5 % of the ones before" one run in four, "three rises of > 3 % in a row"
// one in eight locally and once in CI (359, 405, 398, 416, 452, 468). So the test bounds the
// growth instead: the last floor may exceed the first by at most 256 MiB (sixteen six-period
// runs beside other GL tests grew 13–150 MiB, CI's 110 MiB; a leak of ~40 KiB a frame, 40 MiB
// a period, fails). Slower leaks are for the long soak above, whose floors level off.
// Runs in this process with a small hidden window.
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
  const long long first = floors.front(), last = floors.back();
  const long long allowed = first + (256LL << 10);
  std::printf("soak: %lld frames in %.1f s; VmRSS floors (KiB)", frames, r.seconds);
  for (const long long f : floors) std::printf(" %lld", f);
  std::printf("; last %lld vs allowed %lld; VmHWM %lld KiB\n", last, allowed, r.checkpoints.back().memory.hwm_kib);
  EXPECT_LE(last, allowed) << "VmRSS floor " << last << " KiB after the last period, " << first << " KiB after the first";
}

}  // namespace
