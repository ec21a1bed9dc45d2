#pragma once
// RAII offscreen framebuffer with one RGBA8 colour attachment, for PNG export at any
// size the driver allows (e.g. 3840×2160 regardless of the window size) and for tests.
#include <vector>

namespace render {

class Framebuffer {
 public:
  // Throws std::runtime_error when the size exceeds GL_MAX_TEXTURE_SIZE /
  // GL_MAX_RENDERBUFFER_SIZE / GL_MAX_VIEWPORT_DIMS or the framebuffer is incomplete.
  Framebuffer(int width, int height);
  ~Framebuffer();
  Framebuffer(Framebuffer&& other) noexcept;
  Framebuffer& operator=(Framebuffer&& other) noexcept;
  Framebuffer(const Framebuffer&) = delete;
  Framebuffer& operator=(const Framebuffer&) = delete;

  // Binds for drawing and sets the viewport to the whole attachment.
  void bind() const;
  // Binds the default framebuffer (the window) again.
  static void unbind();

  // The colour attachment as RGBA bytes, rows top-down (PNG order), width × height × 4.
  std::vector<unsigned char> read_pixels() const;

  int width() const { return width_; }
  int height() const { return height_; }
  unsigned int id() const { return framebuffer_; }
  unsigned int color_texture() const { return color_; }

  // Largest square size accepted by the constructor on the current context.
  static int max_size();

 private:
  void release();
  unsigned int framebuffer_ = 0;
  unsigned int color_ = 0;
  int width_ = 0, height_ = 0;
};

}  // namespace render
