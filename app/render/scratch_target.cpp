#include "scratch_target.hpp"

#include <epoxy/gl.h>

#include <algorithm>

#include "framebuffer.hpp"

namespace render {

ScratchTarget::~ScratchTarget() {
  // Never destroyed after the context in practice (owners are process-lived); harmless if 0.
  if (framebuffer_) glDeleteFramebuffers(1, &framebuffer_);
  if (texture_) glDeleteTextures(1, &texture_);
}

bool ScratchTarget::begin(int width, int height, long long frame) {
  const int limit = Framebuffer::max_size();
  if (width < 1 || height < 1 || width > limit || height > limit) return false;
  frame_ = frame;
  fences_.hold(frame);  // the frame's work so far
  GLint previous_texture = 0;
  glGetIntegerv(GL_TEXTURE_BINDING_2D, &previous_texture);
  glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &saved_framebuffer_);
  if (width > width_ || height > height_) {
    if (!texture_) glGenTextures(1, &texture_);
    if (!framebuffer_) glGenFramebuffers(1, &framebuffer_);
    width_ = std::max(width, width_);
    height_ = std::max(height, height_);
    glBindTexture(GL_TEXTURE_2D, texture_);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, width_, height_, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, framebuffer_);
    glFramebufferTexture2D(GL_DRAW_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, texture_, 0);
    glBindTexture(GL_TEXTURE_2D, static_cast<GLuint>(previous_texture));
    if (glCheckFramebufferStatus(GL_DRAW_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) {
      glBindFramebuffer(GL_DRAW_FRAMEBUFFER, static_cast<GLuint>(saved_framebuffer_));
      width_ = height_ = 0;
      return false;
    }
  } else {
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, framebuffer_);
  }
  glGetIntegerv(GL_VIEWPORT, saved_viewport_);
  glGetIntegerv(GL_SCISSOR_BOX, saved_scissor_);
  saved_scissor_test_ = glIsEnabled(GL_SCISSOR_TEST) == GL_TRUE;
  glDisable(GL_SCISSOR_TEST);
  glViewport(0, 0, width, height);
  return true;
}

void ScratchTarget::end() {
  glBindFramebuffer(GL_DRAW_FRAMEBUFFER, static_cast<GLuint>(saved_framebuffer_));
  glViewport(saved_viewport_[0], saved_viewport_[1], saved_viewport_[2], saved_viewport_[3]);
  glScissor(saved_scissor_[0], saved_scissor_[1], saved_scissor_[2], saved_scissor_[3]);
  // As begin() found it, whatever the pass in between did.
  if (saved_scissor_test_)
    glEnable(GL_SCISSOR_TEST);
  else
    glDisable(GL_SCISSOR_TEST);
  fences_.hold(frame_);  // the first pass
}

}  // namespace render
