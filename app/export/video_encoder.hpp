#pragma once
// Video files from RGBA frames (top-down, as the PNG export renders them), with FFmpeg's
// libraries: H.264 in MP4 (libx264), VP9 in WebM (libvpx-vp9), GIF with a palette made
// for the clip (libavfilter palettegen / paletteuse). FFmpeg is reached through the module
// pe-viz-video.so (export/video_backend.hpp), loaded by the first encoder; a missing module
// is a VideoError from the constructor. The file is written like every other
// pe-viz file (platform/atomic_file.hpp): into a temporary next to the target, renamed over
// it by finish(); an error, a cancel or a destroyed unfinished encoder leaves the previous
// file untouched and no temporary behind.
#include <cstdint>
#include <filesystem>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>

namespace app {

enum class VideoCodec { H264, Vp9, Gif };
const char* to_string(VideoCodec codec);  // "h264", "vp9", "gif" (ffprobe's codec names)

// .mp4 → H264, .webm → Vp9, .gif → Gif (case-insensitive); anything else throws
// pe::InvalidArgument("output", path, "a file name ending in .mp4, .webm or .gif").
VideoCodec video_codec_for(const std::filesystem::path& path);
bool is_video_path(const std::filesystem::path& path);

struct VideoSettings {
  VideoCodec codec = VideoCodec::H264;
  int width = 1920, height = 1080;  // H.264 / VP9: even (4:2:0 halves the chroma planes)
  int fps = 30;                     // 1 ... 120; a GIF is encoded at most at kMaxGifFps
  int quality = -1;                 // CRF (H.264 0 ... 51, VP9 0 ... 63); -1: our default
};

// GIF frame delays are whole centiseconds and every frame costs its full palette-mapped
// image: 15 fps keeps a 4 s 720p clip to a few MB and moves smoothly enough for a slide.
inline constexpr int kMaxGifFps = 15;
int encoded_fps(const VideoSettings& settings);  // fps, capped for GIF

// Encoding or file errors; the message names the file and what failed.
class VideoError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class VideoEncoder {
 public:
  // Checks the settings (pe::InvalidArgument naming size / fps / quality), creates the
  // temporary file (std::runtime_error "cannot write <path>: ..." when the directory is
  // missing or unwritable, or the target read-only) and opens the encoder (VideoError).
  VideoEncoder(std::filesystem::path target, const VideoSettings& settings);
  ~VideoEncoder();  // unless finish() succeeded: the temporary is removed, the target untouched
  VideoEncoder(const VideoEncoder&) = delete;
  VideoEncoder& operator=(const VideoEncoder&) = delete;

  // GIF only: frames the palette is computed from, before the first add_frame (every frame
  // of the clip, or a sample of them). Without any, the first frame makes the palette.
  bool wants_palette() const;
  void add_palette_frame(std::span<const std::uint8_t> rgba_top_down);

  // The next frame: width × height × 4 bytes, top row first. Throws VideoError.
  void add_frame(std::span<const std::uint8_t> rgba_top_down);
  // Flushes the encoder, writes the trailer and renames the file into place.
  void finish();

  long long frames() const;       // added so far
  double encode_ms() const;       // time spent converting and encoding (not rendering)
  const VideoSettings& settings() const;
  const std::filesystem::path& target() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace app
