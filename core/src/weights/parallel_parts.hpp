#pragma once
// The one place that decides whether the weights reader uses threads: std::thread on the
// desktop, the calling thread alone where threads do not exist (emscripten without
// -pthread). Everything else calls run_parts.
#include <functional>

namespace pe::detail {

// The number of parts run_parts will run at once for a request (0 = the machine's cores).
int weights_thread_count(int requested) noexcept;
// Runs work(0) ... work(parts - 1), part 0 on the calling thread and the others on threads
// of their own when available (else one after another on the calling thread). work must not
// throw.
void run_parts(int parts, const std::function<void(int)>& work);

}  // namespace pe::detail
