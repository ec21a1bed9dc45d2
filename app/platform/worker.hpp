#pragma once
// Work a view hands to a thread of its own so the GUI stays responsive while it runs (a
// slider dragged over an expensive result: views/async_value.hpp). In a browser page there
// are no threads to hand it to (they need a cross-origin-isolated page, which a static host
// or a file opened from disk does not give): the work runs in place there, and the future
// comes back ready.
//
// The thread runs below the GUI's priority (worker_priority.cpp): on two cores a worker at
// the same priority took a core from llvmpipe's rasteriser threads while θ was dragged
// (`pe-viz bench` at L = 10^6, d = 1024, 1920×1080: attention 16–28 ms a frame instead of
// 10–11, comparison 14–20 instead of 8). It gets what the frames leave. So nothing that
// draws a frame may block on its future: a caller that needs the result now (an export)
// computes it in place, or the wait would last as long as the machine is busy.
#include <exception>
#include <future>
#include <type_traits>
#include <utility>

namespace app {

// Moves the calling thread below normal priority (and out of a real-time class it may
// have inherited). Does nothing where threads have no priorities to set.
void lower_this_thread_priority();

template <class Work>
std::future<std::invoke_result_t<std::decay_t<Work>>> start_worker(Work&& work) {
#ifdef __EMSCRIPTEN__
  using Result = std::invoke_result_t<std::decay_t<Work>>;
  std::promise<Result> done;
  try {
    if constexpr (std::is_void_v<Result>) {
      work();
      done.set_value();
    } else {
      done.set_value(work());
    }
  } catch (...) {
    done.set_exception(std::current_exception());
  }
  return done.get_future();
#else
  return std::async(std::launch::async, [work = std::forward<Work>(work)]() mutable {
    lower_this_thread_priority();
    return work();
  });
#endif
}

}  // namespace app
