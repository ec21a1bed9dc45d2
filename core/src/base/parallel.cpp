#include "pe/base/parallel.hpp"

#include <exception>
#include <system_error>
#include <thread>

namespace pe {

void in_two_parts(long long n, long long min_part, long long align, const std::function<void(long long, long long)>& body) {
  if (n <= 0) return;
  const long long a = align < 1 ? 1 : align;
  const long long split = (n / 2) / a * a;
#ifndef __EMSCRIPTEN__
  if (n >= 2 * min_part && split > 0 && split < n) {
    std::exception_ptr helper_error;
    std::thread helper;
    try {
      helper = std::thread([&] {
        try {
          body(split, n);
        } catch (...) {
          helper_error = std::current_exception();
        }
      });
    } catch (const std::system_error&) {
      body(0, n);  // no thread to be had: all in place
      return;
    }
    std::exception_ptr own_error;
    try {
      body(0, split);
    } catch (...) {
      own_error = std::current_exception();
    }
    helper.join();
    if (own_error) std::rethrow_exception(own_error);
    if (helper_error) std::rethrow_exception(helper_error);
    return;
  }
#else
  (void)min_part;
  (void)split;
#endif
  body(0, n);
}

}  // namespace pe
