#include "png_writer.hpp"

#include <stb/stb_image_write.h>

#include <cerrno>
#include <exception>
#include <stdexcept>
#include <string>

#include "render/atomic_file.hpp"

namespace render {
namespace {

struct WriteState {
  AtomicFile* file;
  std::exception_ptr error;  // first write failure; stb's callback cannot throw through C
};

void write_to_file(void* context, void* data, int size) {
  auto* state = static_cast<WriteState*>(context);
  if (state->error || size <= 0) return;
  try {
    state->file->write(data, static_cast<std::size_t>(size));
  } catch (...) {
    state->error = std::current_exception();
  }
}

}  // namespace

void write_png_atomic(const std::filesystem::path& path, int w, int h,
                      std::span<const unsigned char> rgba_top_down) {
  if (w < 1 || h < 1 || rgba_top_down.size() != static_cast<size_t>(w) * h * 4)
    throw std::invalid_argument("write_png_atomic: " + std::to_string(w) + "x" + std::to_string(h) +
                                " image needs w*h*4 bytes, got " + std::to_string(rgba_top_down.size()));
  // Created before encoding, so a bad path fails fast; removed again if anything throws.
  AtomicFile file(path);
  WriteState state{&file, nullptr};
  const int ok = stbi_write_png_to_func(write_to_file, &state, w, h, 4, rgba_top_down.data(), w * 4);
  if (state.error) std::rethrow_exception(state.error);
  if (ok == 0) throw std::runtime_error("cannot write " + path.string() + ": encoding the PNG failed (out of memory)");
  file.commit();
}

}  // namespace render
