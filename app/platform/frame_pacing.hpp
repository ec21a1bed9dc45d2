#pragma once
// When the GUI draws. A window left alone sleeps until input arrives (an idle app must not
// spin a core); whatever moves without input asks for frames here:
//  - request_frame(): draw the next frame at once (a playing animation, a parameter glide);
//  - request_frame_within(s): draw again no later than s seconds from now (a status message
//    that expires, a text cursor that blinks, a worker whose result is pending).
// Requests made while drawing frame N decide how long the loop waits before frame N+1.
// Both may be called from any thread; wake_gui() also interrupts a wait at once (a worker
// that finished).
namespace app {

void request_frame();
void request_frame_within(double seconds);
void wake_gui();

namespace frame_pacing {
// The wait before the next frame, in seconds: 0 for at once, the earliest requested
// deadline, else `idle_limit`. Clears the requests (they are per frame).
double take_wait(double idle_limit);
// Called by the platform layer once a visible window exists / is gone: wake_gui() then
// posts an empty event to GLFW's queue.
void set_wake_enabled(bool enabled);
}  // namespace frame_pacing

}  // namespace app
