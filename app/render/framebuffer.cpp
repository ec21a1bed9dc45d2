#include "framebuffer.hpp"

#include <epoxy/gl.h>

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>
#include <utility>

namespace render {

int Framebuffer::max_size() {
  GLint texture = 0, renderbuffer = 0, viewport[2] = {0, 0};
  glGetIntegerv(GL_MAX_TEXTURE_SIZE, &texture);
  glGetIntegerv(GL_MAX_RENDERBUFFER_SIZE, &renderbuffer);
  glGetIntegerv(GL_MAX_VIEWPORT_DIMS, viewport);
  return std::min({texture, renderbuffer, viewport[0], viewport[1]});
}

Framebuffer::Framebuffer(int width, int height) : width_(width), height_(height) {
  const int limit = max_size();
  if (width < 1 || height < 1 || width > limit || height > limit)
    throw std::runtime_error("framebuffer size " + std::to_string(width) + "x" + std::to_string(height) +
                             " outside 1.." + std::to_string(limit) + " supported by this GL driver");
  GLint previous_texture = 0, previous_fbo = 0;
  glGetIntegerv(GL_TEXTURE_BINDING_2D, &previous_texture);
  glGetIntegerv(GL_FRAMEBUFFER_BINDING, &previous_fbo);

  glGenTextures(1, &color_);
  glBindTexture(GL_TEXTURE_2D, color_);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, width, height, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);

  glGenFramebuffers(1, &framebuffer_);
  glBindFramebuffer(GL_FRAMEBUFFER, framebuffer_);
  glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, color_, 0);
  const GLenum status = glCheckFramebufferStatus(GL_FRAMEBUFFER);

  glBindTexture(GL_TEXTURE_2D, static_cast<GLuint>(previous_texture));
  glBindFramebuffer(GL_FRAMEBUFFER, static_cast<GLuint>(previous_fbo));
  if (status != GL_FRAMEBUFFER_COMPLETE) {
    release();
    throw std::runtime_error("offscreen framebuffer " + std::to_string(width) + "x" + std::to_string(height) +
                             " incomplete (status 0x" + [&] {
                               char hex[16];
                               std::snprintf(hex, sizeof hex, "%x", status);
                               return std::string(hex);
                             }() + ")");
  }
}

void Framebuffer::release() {
  if (framebuffer_ != 0) glDeleteFramebuffers(1, &framebuffer_);
  if (color_ != 0) glDeleteTextures(1, &color_);
  framebuffer_ = color_ = 0;
}

Framebuffer::~Framebuffer() { release(); }

Framebuffer::Framebuffer(Framebuffer&& other) noexcept
    : framebuffer_(std::exchange(other.framebuffer_, 0)),
      color_(std::exchange(other.color_, 0)),
      width_(other.width_),
      height_(other.height_) {}

Framebuffer& Framebuffer::operator=(Framebuffer&& other) noexcept {
  if (this != &other) {
    release();
    framebuffer_ = std::exchange(other.framebuffer_, 0);
    color_ = std::exchange(other.color_, 0);
    width_ = other.width_;
    height_ = other.height_;
  }
  return *this;
}

void Framebuffer::bind() const {
  glBindFramebuffer(GL_FRAMEBUFFER, framebuffer_);
  glViewport(0, 0, width_, height_);
}

void Framebuffer::unbind() { glBindFramebuffer(GL_FRAMEBUFFER, 0); }

std::vector<unsigned char> Framebuffer::read_pixels() const {
  const size_t row = static_cast<size_t>(width_) * 4;
  std::vector<unsigned char> bottom_up(row * height_);
  GLint previous_read = 0, previous_alignment = 4;
  glGetIntegerv(GL_READ_FRAMEBUFFER_BINDING, &previous_read);
  glGetIntegerv(GL_PACK_ALIGNMENT, &previous_alignment);
  glBindFramebuffer(GL_READ_FRAMEBUFFER, framebuffer_);
  glReadBuffer(GL_COLOR_ATTACHMENT0);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadPixels(0, 0, width_, height_, GL_RGBA, GL_UNSIGNED_BYTE, bottom_up.data());
  glPixelStorei(GL_PACK_ALIGNMENT, previous_alignment);
  glBindFramebuffer(GL_READ_FRAMEBUFFER, static_cast<GLuint>(previous_read));
  // GL's row 0 is the bottom; PNG's is the top.
  std::vector<unsigned char> top_down(bottom_up.size());
  for (int y = 0; y < height_; ++y)
    std::memcpy(top_down.data() + row * y, bottom_up.data() + row * (height_ - 1 - y), row);
  return top_down;
}

}  // namespace render
