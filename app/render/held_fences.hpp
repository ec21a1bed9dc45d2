#pragma once
// Keeps the fences of work submitted around a render-target switch alive until a later frame.
//
// Why: Mesa's llvmpipe (22.3, Debian 12) tests a scene fence's count without its mutex
// (llvmpipe_fence_finish, and the setup's scene recycler), so the main thread can drop the
// last reference to a fence — freeing its mutex and condition variable — while a rasterizer
// thread, having counted, is still inside pthread_cond_broadcast / mutex unlock on it. The
// window is widest for tiny scenes that finish microseconds after they are queued, which is
// what a two-pass heatmap makes: its first pass is a scene of its own between two halves of
// the frame. ThreadSanitizer shows the destroy racing the broadcast at exactly those
// switches, and a release `pe-viz bench` once aborted with "free(): corrupted unsorted chunks".
//
// A GL sync object references the fence of everything submitted so far. Taking one at each
// switch and deleting it only in a later frame — after that frame's own work was waited for,
// so every rasterizer thread has long left the old fences — moves the last release to a
// time when no thread can still touch them. Costs nothing else: the switch flushes anyway.
#include <epoxy/gl.h>

#include <utility>
#include <vector>

namespace render {

class HeldFences {
 public:
  HeldFences() = default;
  ~HeldFences();
  HeldFences(const HeldFences&) = delete;
  HeldFences& operator=(const HeldFences&) = delete;

  // Flushes and holds the fence of all work so far, tagged with `frame`; releases the ones
  // held in any other frame.
  void hold(long long frame);
  std::size_t held() const { return held_.size(); }

 private:
  std::vector<std::pair<long long, GLsync>> held_;
};

}  // namespace render
