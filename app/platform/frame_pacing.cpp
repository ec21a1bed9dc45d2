#include "platform/frame_pacing.hpp"

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>

namespace app {
namespace {

using Clock = std::chrono::steady_clock;

// The earliest requested frame, as steady-clock ticks; max: none. Atomic because workers
// (attention's async patterns, exports) request frames from their own threads.
std::atomic<Clock::rep> g_deadline{Clock::time_point::max().time_since_epoch().count()};
std::atomic<bool> g_wake_enabled{false};

void request_at(Clock::time_point t) {
  const Clock::rep ticks = t.time_since_epoch().count();
  Clock::rep current = g_deadline.load(std::memory_order_relaxed);
  while (ticks < current && !g_deadline.compare_exchange_weak(current, ticks, std::memory_order_relaxed)) {
  }
}

}  // namespace

void request_frame() { request_at(Clock::now()); }

void request_frame_within(double seconds) {
  if (!(seconds > 0.0)) return request_frame();
  const double capped = std::min(seconds, 3600.0);
  request_at(Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(capped)));
}

void wake_gui() {
  request_frame();
  // glfwPostEmptyEvent is the one GLFW call documented as safe from any thread.
  if (g_wake_enabled.load()) glfwPostEmptyEvent();
}

namespace frame_pacing {

double take_wait(double idle_limit) {
  const Clock::rep ticks = g_deadline.exchange(Clock::time_point::max().time_since_epoch().count());
  if (ticks == Clock::time_point::max().time_since_epoch().count()) return idle_limit;
  const double wait = std::chrono::duration<double>(Clock::time_point(Clock::duration(ticks)) - Clock::now()).count();
  return std::clamp(wait, 0.0, idle_limit);
}

void set_wake_enabled(bool enabled) { g_wake_enabled.store(enabled); }

}  // namespace frame_pacing
}  // namespace app
