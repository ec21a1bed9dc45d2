// AsyncValue: the last value stays on screen while a worker computes the newest key, the
// picture settles to the newest key, and exports (wait) always get the exact value.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <map>
#include <string>
#include <thread>

#include "views/async_value.hpp"

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

TEST(AsyncValue, WaitGivesTheExactValueEvenWithAWorkerRunning) {
  std::atomic<bool> release{false};
  auto compute = [&](int key) {
    if (key == 2)
      while (!release) std::this_thread::sleep_for(1ms);
    return key * 10;
  };
  app::AsyncValue<int, int> v;
  v.get(1, false, compute);
  EXPECT_EQ(v.get(2, false, compute), 10);
  std::thread unblock([&] {
    std::this_thread::sleep_for(20ms);
    release = true;
  });
  EXPECT_EQ(v.get(5, true, compute), 50);  // an export: waits for the worker, then computes 5
  unblock.join();
  EXPECT_EQ(v.get(5, false, compute), 50);
  EXPECT_FALSE(v.settling());
}

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
