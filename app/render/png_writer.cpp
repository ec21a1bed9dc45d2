#include "png_writer.hpp"

#include <stb/stb_image_write.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <string>
#include <system_error>
#include <sys/stat.h>
#include <unistd.h>

namespace render {
namespace {

struct WriteState {
  std::FILE* file;
  int error;  // first errno seen by fwrite
};

void write_to_file(void* context, void* data, int size) {
  auto* state = static_cast<WriteState*>(context);
  if (state->error != 0 || size <= 0) return;
  if (std::fwrite(data, 1, static_cast<size_t>(size), state->file) != static_cast<size_t>(size))
    state->error = errno != 0 ? errno : EIO;
}

[[noreturn]] void fail(const std::filesystem::path& path, const char* what, int error) {
  throw std::runtime_error("cannot write PNG '" + path.string() + "': " + what + ": " +
                           std::strerror(error));
}

}  // namespace

void write_png_atomic(const std::filesystem::path& path, int w, int h,
                      std::span<const unsigned char> rgba_top_down) {
  if (w < 1 || h < 1 || rgba_top_down.size() != static_cast<size_t>(w) * h * 4)
    throw std::invalid_argument("write_png_atomic: " + std::to_string(w) + "x" + std::to_string(h) +
                                " image needs w*h*4 bytes, got " + std::to_string(rgba_top_down.size()));
  // Same directory, so the final rename is atomic (no cross-device move).
  const std::filesystem::path dir = path.has_parent_path() ? path.parent_path() : ".";
  std::filesystem::path temp = dir / (path.filename().string() + ".tmp-XXXXXX");
  std::string temp_name = temp.string();
  const int fd = mkstemp(temp_name.data());
  if (fd < 0) fail(path, "cannot create a temporary file in its directory", errno);
  // mkstemp uses 0600; a PNG should get the usual 0666 minus the umask.
  const mode_t mask = umask(0);
  umask(mask);
  fchmod(fd, 0666 & ~mask);
  std::FILE* file = fdopen(fd, "wb");
  if (file == nullptr) {
    const int error = errno;
    close(fd);
    std::remove(temp_name.c_str());
    fail(path, "fdopen", error);
  }
  WriteState state{file, 0};
  errno = 0;
  const int ok = stbi_write_png_to_func(write_to_file, &state, w, h, 4, rgba_top_down.data(), w * 4);
  int error = state.error;
  if (error == 0 && std::fflush(file) != 0) error = errno;
  if (error == 0 && fsync(fileno(file)) != 0 && errno != EINVAL) error = errno;
  if (std::fclose(file) != 0 && error == 0) error = errno;
  if (ok == 0 && error == 0) error = ENOMEM;  // stb only fails on allocation
  if (error != 0) {
    std::remove(temp_name.c_str());
    fail(path, "writing the image data failed", error);
  }
  if (std::rename(temp_name.c_str(), path.c_str()) != 0) {
    error = errno;
    std::remove(temp_name.c_str());
    fail(path, "rename from temporary file failed", error);
  }
}

}  // namespace render
