#include "export/png_writer.hpp"

#include <cerrno>
#include <exception>
#include <stdexcept>
#include <string>

#include "platform/atomic_file.hpp"
#include "render/png_encoder.hpp"

namespace app {

void write_png_atomic(const std::filesystem::path& path, int w, int h,
                      std::span<const unsigned char> rgba_top_down) {
  if (w < 1 || h < 1 || rgba_top_down.size() != static_cast<size_t>(w) * h * 4)
    throw std::invalid_argument("write_png_atomic: " + std::to_string(w) + "x" + std::to_string(h) +
                                " image needs w*h*4 bytes, got " + std::to_string(rgba_top_down.size()));
  // Created before encoding, so a bad path fails fast; removed again if anything throws.
  AtomicFile file(path);
  const std::vector<unsigned char> png = render::encode_png(w, h, rgba_top_down);
  file.write(png.data(), png.size());
  file.commit();
}

}  // namespace app
