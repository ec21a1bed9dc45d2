#include "parallel_parts.hpp"

#include <algorithm>
#include <vector>

#if defined(__EMSCRIPTEN__) && !defined(__EMSCRIPTEN_PTHREADS__)
#define PE_WEIGHTS_THREADS 0
#else
#define PE_WEIGHTS_THREADS 1
#include <system_error>
#include <thread>
#endif

#include "pe/weights/frequency_usage.hpp"

namespace pe {

bool weights_threads_available() noexcept { return PE_WEIGHTS_THREADS != 0; }

namespace detail {

int weights_thread_count(int requested) noexcept {
#if PE_WEIGHTS_THREADS
  const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  return std::clamp(requested <= 0 ? cores : requested, 1, 256);
#else
  (void)requested;
  return 1;
#endif
}

void run_parts(int parts, const std::function<void(int)>& work) {
#if PE_WEIGHTS_THREADS
  std::vector<std::thread> others;
  others.reserve(static_cast<std::size_t>(std::max(0, parts - 1)));
  int next = 1;
  try {
    for (; next < parts; ++next) others.emplace_back(work, next);
  } catch (const std::system_error&) {
    // No more threads to be had: the parts not started run here.
  }
  for (int p = next; p < parts; ++p) work(p);
  if (parts > 0) work(0);
  for (auto& t : others) t.join();
#else
  for (int p = 0; p < parts; ++p) work(p);
#endif
}

}  // namespace detail
}  // namespace pe
