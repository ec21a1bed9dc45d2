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
// switch and deleting it two frames later moves the last release to a time when no thread
// can still touch the fence: the frame in between was displayed or read back, which waits
// for all of its scenes, and the rasterizer threads finish scenes in order. (The sync is
// never queried: st/mesa drops a sync's fence as soon as a query sees it signalled, which
// would be the same early release.) Costs nothing else: the switch flushes anyway.
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
  // held two or more frames before (or in a later-numbered frame: a restarted counter).
  void hold(long long frame);
  std::size_t held() const { return held_.size(); }

 private:
  std::vector<std::pair<long long, GLsync>> held_;
};

}  // namespace render
