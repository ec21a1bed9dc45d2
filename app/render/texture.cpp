#include "texture.hpp"

#include <epoxy/gl.h>

#include <stdexcept>
#include <string>
#include <utility>

namespace render {
namespace {

struct GlFormat {
  GLint internal;
  GLenum format;
  GLenum type;
  int components;
};

GlFormat gl_format(TextureFormat f) {
  switch (f) {
    case TextureFormat::R32F: return {GL_R32F, GL_RED, GL_FLOAT, 1};
    case TextureFormat::RGBA32F: return {GL_RGBA32F, GL_RGBA, GL_FLOAT, 4};
    case TextureFormat::RGBA8: break;
  }
  return {GL_RGBA8, GL_RGBA, GL_UNSIGNED_BYTE, 4};
}

}  // namespace

int max_texture_size() {
  GLint size = 0;
  glGetIntegerv(GL_MAX_TEXTURE_SIZE, &size);
  return size;
}

Texture::Texture(int width, int height, TextureFormat format) : format_(format) {
  glGenTextures(1, &texture_);
  resize(width, height);
}

Texture::~Texture() {
  if (texture_ != 0) glDeleteTextures(1, &texture_);
}

Texture::Texture(Texture&& other) noexcept
    : texture_(std::exchange(other.texture_, 0)),
      width_(other.width_),
      height_(other.height_),
      format_(other.format_) {}

Texture& Texture::operator=(Texture&& other) noexcept {
  if (this != &other) {
    if (texture_ != 0) glDeleteTextures(1, &texture_);
    texture_ = std::exchange(other.texture_, 0);
    width_ = other.width_;
    height_ = other.height_;
    format_ = other.format_;
  }
  return *this;
}

void Texture::resize(int width, int height) {
  if (width == width_ && height == height_) return;
  const int limit = max_texture_size();
  if (width < 1 || height < 1 || width > limit || height > limit)
    throw std::runtime_error("texture size " + std::to_string(width) + "x" + std::to_string(height) +
                             " outside 1.." + std::to_string(limit) + " (GL_MAX_TEXTURE_SIZE)");
  width_ = width;
  height_ = height;
  const GlFormat f = gl_format(format_);
  GLint previous = 0;
  glGetIntegerv(GL_TEXTURE_BINDING_2D, &previous);
  glBindTexture(GL_TEXTURE_2D, texture_);
  glTexImage2D(GL_TEXTURE_2D, 0, f.internal, width, height, 0, f.format, f.type, nullptr);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
  glBindTexture(GL_TEXTURE_2D, static_cast<GLuint>(previous));
}

void Texture::upload(std::span<const float> data) {
  const GlFormat f = gl_format(format_);
  if (f.type != GL_FLOAT) throw std::logic_error("Texture::upload(float) on an RGBA8 texture");
  if (data.size() != static_cast<size_t>(width_) * height_ * f.components)
    throw std::logic_error("Texture::upload: data size does not match the texture");
  GLint previous = 0;
  glGetIntegerv(GL_TEXTURE_BINDING_2D, &previous);
  glBindTexture(GL_TEXTURE_2D, texture_);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
  glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, width_, height_, f.format, GL_FLOAT, data.data());
  glBindTexture(GL_TEXTURE_2D, static_cast<GLuint>(previous));
}

void Texture::upload(std::span<const unsigned char> rgba8) {
  if (format_ != TextureFormat::RGBA8) throw std::logic_error("Texture::upload(bytes) on a float texture");
  if (rgba8.size() != static_cast<size_t>(width_) * height_ * 4)
    throw std::logic_error("Texture::upload: data size does not match the texture");
  GLint previous = 0;
  glGetIntegerv(GL_TEXTURE_BINDING_2D, &previous);
  glBindTexture(GL_TEXTURE_2D, texture_);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
  glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, width_, height_, GL_RGBA, GL_UNSIGNED_BYTE, rgba8.data());
  glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
  glBindTexture(GL_TEXTURE_2D, static_cast<GLuint>(previous));
}

void Texture::bind(int unit) const {
  glActiveTexture(GL_TEXTURE0 + static_cast<GLenum>(unit));
  glBindTexture(GL_TEXTURE_2D, texture_);
}

}  // namespace render
