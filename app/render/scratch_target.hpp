#pragma once
// An RGBA8 texture with a framebuffer, grown to the largest size asked for and reused: the
// intermediate image of a two-pass draw inside ImGui's render (plot/heatmap_renderer).
// begin() saves the draw framebuffer, viewport and scissor of the frame being rendered and
// targets the texture's lower-left width × height; end() restores them. Both switches hold
// the fence of the work before them until another frame (see held_fences.hpp).
#include "held_fences.hpp"

namespace render {

class ScratchTarget {
 public:
  ScratchTarget() = default;
  ~ScratchTarget();
  ScratchTarget(const ScratchTarget&) = delete;
  ScratchTarget& operator=(const ScratchTarget&) = delete;

  // False (and nothing changed) when the size is beyond the driver's limits or the
  // framebuffer cannot be made.
  // `frame` tells frames apart (any number that changes from frame to frame).
  bool begin(int width, int height, long long frame);
  void end();
  unsigned int texture() const { return texture_; }
  std::size_t held_fences() const { return fences_.held(); }

 private:
  unsigned int texture_ = 0, framebuffer_ = 0;
  int width_ = 0, height_ = 0;
  int saved_framebuffer_ = 0, saved_viewport_[4] = {}, saved_scissor_[4] = {};
  bool saved_scissor_test_ = false;
  long long frame_ = 0;
  HeldFences fences_;
};

}  // namespace render
