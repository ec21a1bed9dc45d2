#pragma once
// PNG output that never leaves a half-written file under the final name: the image goes
// to a temporary file in the same directory, which is then renamed over the target.
#include <filesystem>
#include <span>

namespace app {

// rgba_top_down: w × h × 4 bytes, first row is the top of the image.
// Throws std::runtime_error naming the path and the system's reason (errno text) when
// the directory is missing/unwritable or the disk is full.
void write_png_atomic(const std::filesystem::path& path, int w, int h,
                      std::span<const unsigned char> rgba_top_down);

}  // namespace app
