// AsyncValue: the last value stays on screen while a worker computes the newest key, the
// picture settles to the newest key, and exports (wait) always get the exact value without
// waiting for the worker.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <map>
#include <string>
#include <thread>

#include "views/async_value.hpp"

#ifdef __linux__
#include <sched.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

namespace {

using namespace std::chrono_literals;

// Polls like frames do until the shown value is the one for `key` (or 5 s pass).
template <class Compute>
int settle(app::AsyncValue<int, int>& v, int key, Compute compute) {
  const auto deadline = std::chrono::steady_clock::now() + 5s;
  int shown = v.get(key, false, compute);
  while (shown != key * 10 && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(1ms);
    shown = v.get(key, false, compute);
  }
  return shown;
}

TEST(AsyncValue, FirstFrameIsExactThenStaleWhileWorking) {
  std::atomic<bool> release{false};
  std::atomic<int> calls{0};
  auto compute = [&](int key) {
    ++calls;
    if (key != 1)
      while (!release) std::this_thread::sleep_for(1ms);
    return key * 10;
  };
  app::AsyncValue<int, int> v;
  EXPECT_EQ(v.get(1, false, compute), 10);  // nothing on screen yet: computed at once
  EXPECT_FALSE(v.settling());
  EXPECT_EQ(v.get(2, false, compute), 10);  // a worker starts; the old value stays
  EXPECT_TRUE(v.settling());
  EXPECT_EQ(v.get(3, false, compute), 10);  // still busy with 2: no second worker
  release = true;
  EXPECT_EQ(settle(v, 3, compute), 30);     // 2 finishes, then 3 is computed
  EXPECT_FALSE(v.settling());
  EXPECT_EQ(calls.load(), 3);               // 1, 2, 3: no key twice
}

TEST(AsyncValue, WaitComputesInPlaceWithoutWaitingForTheWorker) {
  // Workers run at background priority: an export that waited for one would last as long
  // as the machine is busy. It computes its key in place; the busy worker's older value is
  // dropped when it finishes instead of replacing the exact one.
  std::atomic<bool> release{false};
  auto compute = [&](int key) {
    if (key == 2)
      while (!release) std::this_thread::sleep_for(1ms);
    return key * 10;
  };
  app::AsyncValue<int, int> v;
  v.get(1, false, compute);
  EXPECT_EQ(v.get(2, false, compute), 10);
  std::atomic<bool> returned{false};
  std::thread unblock([&] {  // frees the worker after 2 s, should the export wait for it
    const auto until = std::chrono::steady_clock::now() + 2s;
    while (!returned && std::chrono::steady_clock::now() < until) std::this_thread::sleep_for(1ms);
    release = true;
  });
  EXPECT_EQ(v.get(5, true, compute), 50);  // an export: in place
  EXPECT_FALSE(release.load()) << "the export waited for the worker";
  returned = true;
  unblock.join();
  const auto deadline = std::chrono::steady_clock::now() + 5s;
  while (v.settling() && std::chrono::steady_clock::now() < deadline) {
    EXPECT_EQ(v.get(5, false, compute), 50);  // never the worker's older 20
    std::this_thread::sleep_for(1ms);
  }
  EXPECT_FALSE(v.settling());
  EXPECT_EQ(v.get(5, false, compute), 50);
}

#ifdef __linux__
TEST(AsyncValue, WorkersRunBelowTheGuiPriority) {
  // Frames come first: a worker is nice 19 in the normal class, even when started from a
  // real-time thread (it would otherwise inherit the class, where niceness means nothing).
  auto probe = [] {
    return std::pair{sched_getscheduler(0), getpriority(PRIO_PROCESS, static_cast<id_t>(syscall(SYS_gettid)))};
  };
  const auto caller = probe();
  const auto [policy, nice] = app::start_worker(probe).get();
  EXPECT_EQ(policy, SCHED_OTHER);
  EXPECT_EQ(nice, 19);
  EXPECT_EQ(probe(), caller) << "the caller's own priority changed";
}
#endif

TEST(AsyncValue, SlotsAreKeptPerOwner) {
  std::map<const int*, app::AsyncValue<int, int>> slots;
  const int a = 0, b = 0;
  auto compute = [](int key) { return key * 10; };
  EXPECT_EQ(app::slot_for(slots, &a).get(1, false, compute), 10);
  EXPECT_EQ(app::slot_for(slots, &b).get(2, false, compute), 20);
  EXPECT_EQ(app::slot_for(slots, &a).get(1, false, compute), 10);  // a's value was not replaced by b's
  EXPECT_EQ(slots.size(), 2u);
}

}  // namespace
