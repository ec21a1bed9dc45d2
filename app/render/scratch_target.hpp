#pragma once
// An RGBA8 texture with a framebuffer, grown to the largest size asked for and reused: the
// intermediate image of a two-pass draw inside ImGui's render (plot/heatmap_renderer).
// begin() saves the draw framebuffer, viewport and scissor of the frame being rendered and
// targets the texture's lower-left width × height; end() restores them.
namespace render {

class ScratchTarget {
 public:
  ScratchTarget() = default;
  ~ScratchTarget();
  ScratchTarget(const ScratchTarget&) = delete;
  ScratchTarget& operator=(const ScratchTarget&) = delete;

  // False (and nothing changed) when the size is beyond the driver's limits or the
  // framebuffer cannot be made.
  bool begin(int width, int height);
  void end();
  unsigned int texture() const { return texture_; }

 private:
  unsigned int texture_ = 0, framebuffer_ = 0;
  int width_ = 0, height_ = 0;
  int saved_framebuffer_ = 0, saved_viewport_[4] = {}, saved_scissor_[4] = {};
  bool saved_scissor_test_ = false;
};

}  // namespace render
