#include "platform/worker.hpp"

#if defined(__linux__) && !defined(__EMSCRIPTEN__)
#include <pthread.h>
#include <sched.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

namespace app {

void lower_this_thread_priority() {
#if defined(__linux__) && !defined(__EMSCRIPTEN__)
  // A thread started by a real-time process (chrt, a benchmark harness) inherits its class,
  // where niceness means nothing: back to the normal class first (always permitted).
  sched_param normal{};
  pthread_setschedparam(pthread_self(), SCHED_OTHER, &normal);
  // On Linux the nice value is per thread: the lowest weight the normal class has (19:
  // 1.5 % of a nice-0 thread's share when both want the CPU, all of it when the GUI is idle).
  // Failure leaves the thread as it was, which is only slower frames.
  setpriority(PRIO_PROCESS, static_cast<id_t>(syscall(SYS_gettid)), 19);
#endif
}

}  // namespace app
