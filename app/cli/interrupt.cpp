#include "cli/interrupt.hpp"

#include <signal.h>

#include <atomic>

namespace app {

namespace {

std::atomic<bool> g_interrupted{false};
struct sigaction g_previous {};

void on_interrupt(int) {
  if (g_interrupted.exchange(true)) {
    // The second Ctrl-C: the default action, now.
    signal(SIGINT, SIG_DFL);
    raise(SIGINT);
  }
}

}  // namespace

InterruptGuard::InterruptGuard() {
  g_interrupted = false;
  struct sigaction a {};
  a.sa_handler = on_interrupt;
  sigemptyset(&a.sa_mask);
  sigaction(SIGINT, &a, &g_previous);
}

InterruptGuard::~InterruptGuard() { sigaction(SIGINT, &g_previous, nullptr); }

bool InterruptGuard::interrupted() { return g_interrupted.load(); }

}  // namespace app
