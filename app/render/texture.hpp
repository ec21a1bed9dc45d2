#pragma once
// RAII 2D texture for data (R32F values, RGBA32F parameter rows) and images (RGBA8).
// Nearest filtering and clamp-to-edge: data textures are read with texelFetch or as
// cells, never blurred.
#include <span>

namespace render {

enum class TextureFormat { R32F, RGBA32F, RGBA8 };

class Texture {
 public:
  Texture() = default;
  Texture(int width, int height, TextureFormat format);
  ~Texture();
  Texture(Texture&& other) noexcept;
  Texture& operator=(Texture&& other) noexcept;
  Texture(const Texture&) = delete;
  Texture& operator=(const Texture&) = delete;

  // Replaces the whole image; `data` holds width × height texels, rows bottom-up as GL
  // expects (row 0 = t 0). Floats for R32F/RGBA32F.
  void upload(std::span<const float> data);
  void upload(std::span<const unsigned char> rgba8);
  // Reallocates when the size differs (keeps the object when it does not).
  void resize(int width, int height);
  void bind(int unit) const;

  unsigned int id() const { return texture_; }
  int width() const { return width_; }
  int height() const { return height_; }
  TextureFormat format() const { return format_; }
  bool valid() const { return texture_ != 0; }

 private:
  unsigned int texture_ = 0;
  int width_ = 0, height_ = 0;
  TextureFormat format_ = TextureFormat::RGBA8;
};

// GL_MAX_TEXTURE_SIZE of the current context.
int max_texture_size();

}  // namespace render
