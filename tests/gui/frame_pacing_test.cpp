// The GUI's sleep: with nothing requested the loop waits the idle limit; a requested frame
// or deadline shortens the wait, the earliest request wins, and requests last one frame.
#include <gtest/gtest.h>

#include <thread>

#include "platform/frame_pacing.hpp"

namespace {

using app::frame_pacing::take_wait;

TEST(FramePacing, NothingRequestedWaitsTheIdleLimit) {
  take_wait(10.0);  // drop whatever an earlier test left
  EXPECT_EQ(take_wait(10.0), 10.0);
  EXPECT_EQ(take_wait(2.5), 2.5);
}

TEST(FramePacing, ARequestedFrameMeansNoWaitForOneFrame) {
  take_wait(10.0);
  app::request_frame();
  EXPECT_EQ(take_wait(10.0), 0.0);
  EXPECT_EQ(take_wait(10.0), 10.0) << "a request lasts one frame";
}

TEST(FramePacing, TheEarliestDeadlineWins) {
  take_wait(10.0);
  app::request_frame_within(3.0);
  app::request_frame_within(0.5);
  app::request_frame_within(2.0);
  const double w = take_wait(10.0);
  EXPECT_GT(w, 0.4);
  EXPECT_LE(w, 0.5);
  app::request_frame_within(30.0);
  EXPECT_EQ(take_wait(10.0), 10.0) << "a deadline past the idle limit waits the limit";
  app::request_frame_within(0.0);
  EXPECT_EQ(take_wait(10.0), 0.0) << "within 0 s is at once";
}

TEST(FramePacing, AWorkerThreadCanWakeTheGui) {
  take_wait(10.0);
  std::thread worker([] { app::wake_gui(); });  // no window: only the request, no GLFW call
  worker.join();
  EXPECT_EQ(take_wait(10.0), 0.0);
}

}  // namespace
