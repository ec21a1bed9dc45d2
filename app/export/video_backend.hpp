#pragma once
// The FFmpeg half of video export, built as a module (pe-viz-video.so) that pe-viz loads
// the first time a video is written (export/video_module.hpp). Linked into the binary,
// FFmpeg's libraries and the ~150 they pull in cost every start ~45 ms of dynamic
// linking (a third of a 1080p PNG export, and of every CLI call); loaded on demand, only a
// recording pays it.
//
// Both sides are built from this tree by the same compiler, so the interface is C++: the
// module's exceptions (VideoError, std::bad_alloc) reach the binary's handlers unchanged.
#include <cstdint>
#include <span>
#include <string>

#include "export/video_encoder.hpp"

namespace app {

// An open encoder writing one file; VideoEncoder (the binary's side) checks the settings,
// the call order and the frame sizes first, and owns the file's atomic replacement.
class VideoBackend {
 public:
  virtual ~VideoBackend() = default;
  // GIF: a frame the palette is computed from; the first add_frame ends the sampling.
  virtual void add_palette_frame(std::span<const std::uint8_t> rgba_top_down) = 0;
  virtual void add_frame(std::span<const std::uint8_t> rgba_top_down) = 0;
  // Flushes the encoder, writes the trailer and closes the file (not renamed: the caller does).
  virtual void finish() = 0;
};

// The module's entry point: opens `file` for writing (`target` names the video in messages)
// as `settings` ask, `fps` being the rate actually encoded. Throws VideoError.
using OpenVideoBackend = VideoBackend* (*)(const std::string& file, const std::string& target,
                                           const VideoSettings& settings, int fps);
inline constexpr const char* kOpenVideoBackendSymbol = "pe_viz_open_video_backend";
// Bumped whenever VideoBackend or VideoSettings change, so an old module left beside a new
// binary is refused with a message instead of crashing.
inline constexpr int kVideoBackendVersion = 1;
inline constexpr const char* kVideoBackendVersionSymbol = "pe_viz_video_backend_version";

}  // namespace app
