#pragma once
// Work a view hands to a thread of its own so the GUI stays responsive while it runs (a
// slider dragged over an expensive result: views/async_value.hpp). In a browser page there
// are no threads to hand it to (they need a cross-origin-isolated page, which a static host
// or a file opened from disk does not give): the work runs in place there, and the future
// comes back ready.
#include <exception>
#include <future>
#include <type_traits>
#include <utility>

namespace app {

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
  return std::async(std::launch::async, std::forward<Work>(work));
#endif
}

}  // namespace app
