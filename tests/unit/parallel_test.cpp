// pe::in_two_parts: every index exactly once, split where the alignment allows, small loops
// in place, and an exception from the helper thread's part reaches the caller.
#include <gtest/gtest.h>

#include <atomic>
#include <stdexcept>
#include <thread>
#include <vector>

#include "pe/base/parallel.hpp"

namespace {

TEST(InTwoParts, EveryIndexOnceAndTheSplitAligned) {
  for (const long long n : {1LL, 7LL, 256LL, 1000LL, 4097LL}) {
    for (const long long align : {1LL, 16LL, 1024LL}) {
      std::vector<int> seen(std::size_t(n), 0);
      std::vector<std::pair<long long, long long>> parts(2, {-1, -1});
      std::atomic<int> calls{0};
      pe::in_two_parts(n, 64, align, [&](long long first, long long last) {
        parts[std::size_t(calls++)] = {first, last};
        for (long long i = first; i < last; ++i) ++seen[std::size_t(i)];
      });
      for (long long i = 0; i < n; ++i) ASSERT_EQ(seen[std::size_t(i)], 1) << "n " << n << ", align " << align << ", i " << i;
      for (const auto& [first, last] : parts)
        if (first > 0) EXPECT_EQ(first % align, 0) << "n " << n << ", align " << align;
      // Two parts only when each has at least min_part and an aligned split exists.
      const bool split = n >= 128 && (n / 2) / align * align > 0;
      EXPECT_EQ(calls.load(), split ? 2 : 1) << "n " << n << ", align " << align;
    }
  }
}

TEST(InTwoParts, SmallLoopsRunOnTheCallingThread) {
  const std::thread::id caller = std::this_thread::get_id();
  pe::in_two_parts(100, 64, 1, [&](long long, long long) { EXPECT_EQ(std::this_thread::get_id(), caller); });
}

TEST(InTwoParts, AnExceptionInEitherPartReachesTheCaller) {
  EXPECT_THROW(pe::in_two_parts(1000, 64, 1,
                                [](long long first, long long) {
                                  if (first > 0) throw std::runtime_error("second part");
                                }),
               std::runtime_error);
  EXPECT_THROW(pe::in_two_parts(1000, 64, 1,
                                [](long long first, long long) {
                                  if (first == 0) throw std::runtime_error("first part");
                                }),
               std::runtime_error);
}

}  // namespace
