// The binary's side of video export: settings, call order, timing and the atomic file.
// The encoding itself is FFmpeg's, in the module loaded on first use (export/video_module).
#include "export/video_encoder.hpp"

#include <algorithm>
#include <chrono>
#include <optional>

#include "export/video_backend.hpp"
#include "export/video_module.hpp"
#include "pe/base/errors.hpp"
#include "pe/base/text.hpp"
#include "platform/atomic_file.hpp"

namespace app {

const char* to_string(VideoCodec codec) {
  switch (codec) {
    case VideoCodec::Vp9: return "vp9";
    case VideoCodec::Gif: return "gif";
    case VideoCodec::H264: break;
  }
  return "h264";
}

bool is_video_path(const std::filesystem::path& path) {
  const std::string ext = pe::lower_extension(path);
  return ext == ".mp4" || ext == ".webm" || ext == ".gif";
}

VideoCodec video_codec_for(const std::filesystem::path& path) {
  const std::string ext = pe::lower_extension(path);
  if (ext == ".mp4") return VideoCodec::H264;
  if (ext == ".webm") return VideoCodec::Vp9;
  if (ext == ".gif") return VideoCodec::Gif;
  throw pe::InvalidArgument("output", path.string(),
                            "a video file name ending in .mp4 (H.264), .webm (VP9) or .gif");
}

int encoded_fps(const VideoSettings& s) { return s.codec == VideoCodec::Gif ? std::min(s.fps, kMaxGifFps) : s.fps; }

struct VideoEncoder::Impl {
  std::filesystem::path target;
  VideoSettings settings;
  int fps = 30;
  std::optional<AtomicFile> file;
  std::unique_ptr<VideoBackend> backend;
  long long frames = 0;
  double encode_ms = 0;
  bool palette_closed = false;  // the first frame ends palette sampling (GIF)
  bool finished = false;

  void check_size(std::span<const std::uint8_t> rgba) const {
    if (rgba.size() != std::size_t(settings.width) * std::size_t(settings.height) * 4)
      throw std::invalid_argument("VideoEncoder: frame size does not match the video size");
  }
};

VideoEncoder::VideoEncoder(std::filesystem::path target, const VideoSettings& settings) : impl_(std::make_unique<Impl>()) {
  Impl& m = *impl_;
  m.target = std::move(target);
  m.settings = settings;
  const std::string size = std::to_string(settings.width) + "x" + std::to_string(settings.height);
  if (settings.width < 16 || settings.height < 16 || settings.width > 16384 || settings.height > 16384)
    throw pe::InvalidArgument("size", size, "16 ... 16384 pixels per side for a video");
  if (settings.codec != VideoCodec::Gif && (settings.width % 2 != 0 || settings.height % 2 != 0))
    throw pe::InvalidArgument("size", size,
                              "even width and height for .mp4 and .webm (4:2:0 video halves the colour planes)");
  if (settings.fps < 1 || settings.fps > 120)
    throw pe::InvalidArgument("fps", std::to_string(settings.fps), "1 ... 120 frames per second");
  const int max_quality = settings.codec == VideoCodec::H264 ? 51 : 63;
  if (settings.codec != VideoCodec::Gif && (settings.quality < -1 || settings.quality > max_quality))
    throw pe::InvalidArgument("quality", std::to_string(settings.quality), "CRF 0 ... " + std::to_string(max_quality));
  m.fps = encoded_fps(settings);
  const OpenVideoBackend open = video_backend_entry();  // before the file: a missing module leaves nothing behind
  m.file.emplace(m.target);  // throws "cannot write <target>: ..." before any encoding work
  m.backend.reset(open(m.file->temp_path().string(), m.target.string(), settings, m.fps));
}

VideoEncoder::~VideoEncoder() {
  if (!impl_) return;
  // Close FFmpeg's file before the AtomicFile removes the temporary it was writing.
  impl_->backend.reset();
  impl_->file.reset();
}

bool VideoEncoder::wants_palette() const { return impl_->settings.codec == VideoCodec::Gif && !impl_->palette_closed; }

void VideoEncoder::add_palette_frame(std::span<const std::uint8_t> rgba) {
  Impl& m = *impl_;
  if (!wants_palette()) throw std::logic_error("VideoEncoder::add_palette_frame: only for GIF, before add_frame");
  m.check_size(rgba);
  const auto start = std::chrono::steady_clock::now();
  m.backend->add_palette_frame(rgba);
  m.encode_ms += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

void VideoEncoder::add_frame(std::span<const std::uint8_t> rgba) {
  Impl& m = *impl_;
  if (m.finished) throw std::logic_error("VideoEncoder::add_frame after finish");
  m.check_size(rgba);
  const auto start = std::chrono::steady_clock::now();
  m.palette_closed = true;
  m.backend->add_frame(rgba);
  ++m.frames;
  m.encode_ms += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

void VideoEncoder::finish() {
  Impl& m = *impl_;
  if (m.finished) throw std::logic_error("VideoEncoder::finish twice");
  if (m.frames == 0) throw VideoError("cannot encode " + m.target.string() + ": no frames");
  const auto start = std::chrono::steady_clock::now();
  m.backend->finish();
  m.file->commit();  // fsync + rename: the previous file is replaced only now
  m.finished = true;
  m.encode_ms += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

long long VideoEncoder::frames() const { return impl_->frames; }
double VideoEncoder::encode_ms() const { return impl_->encode_ms; }
const VideoSettings& VideoEncoder::settings() const { return impl_->settings; }
const std::filesystem::path& VideoEncoder::target() const { return impl_->target; }

}  // namespace app
