#include "export/video_encoder.hpp"

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavfilter/avfilter.h>
#include <libavfilter/buffersink.h>
#include <libavfilter/buffersrc.h>
#include <libavformat/avformat.h>
#include <libavutil/imgutils.h>
#include <libavutil/opt.h>
#include <libswscale/swscale.h>
}

#include <algorithm>
#include <chrono>
#include <mutex>
#include <optional>

#include "pe/errors.hpp"
#include "render/atomic_file.hpp"

namespace app {
namespace {

std::string av_error_text(int code) {
  char text[AV_ERROR_MAX_STRING_SIZE] = {};
  av_strerror(code, text, sizeof text);
  return text;
}

std::string lower_extension(const std::filesystem::path& path) {
  std::string ext = path.extension().string();
  for (char& c : ext)
    if (c >= 'A' && c <= 'Z') c = char(c - 'A' + 'a');
  return ext;
}

struct FormatContextDeleter {
  void operator()(AVFormatContext* c) const {
    if (c->pb) avio_closep(&c->pb);
    avformat_free_context(c);
  }
};
struct CodecContextDeleter {
  void operator()(AVCodecContext* c) const { avcodec_free_context(&c); }
};
struct FrameDeleter {
  void operator()(AVFrame* f) const { av_frame_free(&f); }
};
struct PacketDeleter {
  void operator()(AVPacket* p) const { av_packet_free(&p); }
};
struct SwsDeleter {
  void operator()(SwsContext* c) const { sws_freeContext(c); }
};
struct GraphDeleter {
  void operator()(AVFilterGraph* g) const { avfilter_graph_free(&g); }
};
using FramePtr = std::unique_ptr<AVFrame, FrameDeleter>;

FramePtr new_frame() {
  FramePtr f(av_frame_alloc());
  if (!f) throw std::bad_alloc();
  return f;
}

// FFmpeg's own chatter (x264's "using cpu capabilities", muxer notes) would drown the CLI's
// output; errors still reach stderr and our messages name what failed.
void quiet_ffmpeg_logs() {
  static std::once_flag once;
  std::call_once(once, [] { av_log_set_level(AV_LOG_ERROR); });
}

}  // namespace

const char* to_string(VideoCodec codec) {
  switch (codec) {
    case VideoCodec::Vp9: return "vp9";
    case VideoCodec::Gif: return "gif";
    case VideoCodec::H264: break;
  }
  return "h264";
}

bool is_video_path(const std::filesystem::path& path) {
  const std::string ext = lower_extension(path);
  return ext == ".mp4" || ext == ".webm" || ext == ".gif";
}

VideoCodec video_codec_for(const std::filesystem::path& path) {
  const std::string ext = lower_extension(path);
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
  std::optional<render::AtomicFile> file;
  std::unique_ptr<AVFormatContext, FormatContextDeleter> format;
  std::unique_ptr<AVCodecContext, CodecContextDeleter> codec;
  AVStream* stream = nullptr;
  std::unique_ptr<AVPacket, PacketDeleter> packet;
  // H.264 / VP9: RGBA → YUV 4:2:0
  std::unique_ptr<SwsContext, SwsDeleter> sws;
  FramePtr yuv;
  // GIF: palettegen over the sample frames, then paletteuse over the clip
  std::unique_ptr<AVFilterGraph, GraphDeleter> palette_graph, map_graph;
  AVFilterContext *palette_in = nullptr, *palette_out = nullptr;
  AVFilterContext *map_in = nullptr, *map_palette = nullptr, *map_out = nullptr;
  long long palette_samples = 0;
  long long frames = 0;
  double encode_ms = 0;
  bool finished = false;

  [[noreturn]] void fail(const std::string& step, int code) const {
    throw VideoError("cannot encode " + target.string() + ": " + step + " (" + av_error_text(code) + ")");
  }
  void check(int code, const char* step) const {
    if (code < 0) fail(step, code);
  }

  void open_codec();
  void open_output();
  AVFilterContext* buffer_source(AVFilterGraph* graph, const char* name, int w, int h, AVPixelFormat format);
  AVFilterContext* filter(AVFilterGraph* graph, const char* type, const char* name, const char* args);
  void build_palette_graph();
  void build_map_graph();
  FramePtr rgba_frame(std::span<const std::uint8_t> rgba, long long pts) const;
  void encode(AVFrame* frame);
  void drain_map_graph();
};

AVFilterContext* VideoEncoder::Impl::buffer_source(AVFilterGraph* graph, const char* name, int w, int h, AVPixelFormat format) {
  const std::string args = "video_size=" + std::to_string(w) + "x" + std::to_string(h) + ":pix_fmt=" +
                           std::to_string(int(format)) + ":time_base=1/" + std::to_string(fps) + ":pixel_aspect=1/1";
  AVFilterContext* ctx = nullptr;
  check(avfilter_graph_create_filter(&ctx, avfilter_get_by_name("buffer"), name, args.c_str(), nullptr, graph),
        "creating the GIF filter input");
  return ctx;
}

AVFilterContext* VideoEncoder::Impl::filter(AVFilterGraph* graph, const char* type, const char* name, const char* args) {
  const AVFilter* f = avfilter_get_by_name(type);
  if (!f) throw VideoError(std::string("cannot encode GIF: this FFmpeg has no ") + type + " filter (libavfilter)");
  AVFilterContext* ctx = nullptr;
  check(avfilter_graph_create_filter(&ctx, f, name, args, nullptr, graph), type);
  return ctx;
}

void VideoEncoder::Impl::build_palette_graph() {
  palette_graph.reset(avfilter_graph_alloc());
  if (!palette_graph) throw std::bad_alloc();
  palette_in = buffer_source(palette_graph.get(), "frames", settings.width, settings.height, AV_PIX_FMT_RGBA);
  // stats_mode=diff weighs what moves (the hands, the curves) over the static background,
  // which a plot has plenty of (FFmpeg's palettegen documentation).
  AVFilterContext* gen = filter(palette_graph.get(), "palettegen", "palettegen", "max_colors=256:stats_mode=diff");
  palette_out = filter(palette_graph.get(), "buffersink", "palette", nullptr);
  check(avfilter_link(palette_in, 0, gen, 0), "linking palettegen");
  check(avfilter_link(gen, 0, palette_out, 0), "linking palettegen");
  check(avfilter_graph_config(palette_graph.get(), nullptr), "configuring palettegen");
}

void VideoEncoder::Impl::build_map_graph() {
  // The palette: end palettegen's input, take its one 16×16 frame.
  check(av_buffersrc_add_frame(palette_in, nullptr), "finishing the palette");
  FramePtr palette = new_frame();
  check(av_buffersink_get_frame(palette_out, palette.get()), "computing the palette");
  palette_graph.reset();

  map_graph.reset(avfilter_graph_alloc());
  if (!map_graph) throw std::bad_alloc();
  map_in = buffer_source(map_graph.get(), "frames", settings.width, settings.height, AV_PIX_FMT_RGBA);
  map_palette = buffer_source(map_graph.get(), "palette", palette->width, palette->height, AVPixelFormat(palette->format));
  // Ordered (Bayer) dithering keeps flat areas flat, so unchanged pixels stay unchanged from
  // frame to frame and diff_mode=rectangle re-maps only the part that moved: small files.
  AVFilterContext* use = filter(map_graph.get(), "paletteuse", "paletteuse", "dither=bayer:bayer_scale=5:diff_mode=rectangle");
  map_out = filter(map_graph.get(), "buffersink", "indexed", nullptr);
  check(avfilter_link(map_in, 0, use, 0), "linking paletteuse");
  check(avfilter_link(map_palette, 0, use, 1), "linking paletteuse");
  check(avfilter_link(use, 0, map_out, 0), "linking paletteuse");
  check(avfilter_graph_config(map_graph.get(), nullptr), "configuring paletteuse");
  palette->pts = 0;
  check(av_buffersrc_add_frame(map_palette, palette.get()), "loading the palette");
  check(av_buffersrc_add_frame(map_palette, nullptr), "loading the palette");  // one palette for the clip
}

void VideoEncoder::Impl::open_codec() {
  const char* name = settings.codec == VideoCodec::H264 ? "libx264" : settings.codec == VideoCodec::Vp9 ? "libvpx-vp9" : "gif";
  const AVCodec* encoder = avcodec_find_encoder_by_name(name);
  if (!encoder) throw VideoError(std::string("cannot encode ") + target.string() + ": this FFmpeg has no " + name + " encoder");
  codec.reset(avcodec_alloc_context3(encoder));
  if (!codec) throw std::bad_alloc();
  AVCodecContext* c = codec.get();
  c->width = settings.width;
  c->height = settings.height;
  c->time_base = AVRational{1, fps};
  c->framerate = AVRational{fps, 1};
  c->sample_aspect_ratio = AVRational{1, 1};
  // Two cores here, more elsewhere: let the encoder pick (0 = one thread per core).
  c->thread_count = 0;
  AVDictionary* options = nullptr;
  if (settings.codec == VideoCodec::Gif) {
    c->pix_fmt = AV_PIX_FMT_PAL8;
  } else {
    c->pix_fmt = AV_PIX_FMT_YUV420P;
    // Rendered pixels are sRGB; tag the stream as BT.709 limited range (HD's default, and
    // what swscale is told below), so players do not guess BT.601.
    c->color_range = AVCOL_RANGE_MPEG;
    c->color_primaries = AVCOL_PRI_BT709;
    c->color_trc = AVCOL_TRC_BT709;
    c->colorspace = AVCOL_SPC_BT709;
    c->gop_size = 2 * fps;  // a keyframe every 2 s: seeking in a lecture stays quick
    if (settings.codec == VideoCodec::H264) {
      // veryfast: a few ms per 1080p frame on two cores (pe-viz export prints the split);
      // CRF 20 keeps thin plot lines and small text sharp (x264's default is 23).
      av_dict_set(&options, "preset", "veryfast", 0);
      av_dict_set(&options, "crf", std::to_string(settings.quality >= 0 ? settings.quality : 20).c_str(), 0);
    } else {
      // libvpx realtime mode with the fastest cpu-used of that mode, row multithreading;
      // constant quality (CRF needs bit_rate 0). libvpx VP9 encoding guide (WebM project).
      av_dict_set(&options, "deadline", "realtime", 0);
      av_dict_set(&options, "cpu-used", "8", 0);
      av_dict_set(&options, "row-mt", "1", 0);
      av_dict_set(&options, "lag-in-frames", "0", 0);
      av_dict_set(&options, "crf", std::to_string(settings.quality >= 0 ? settings.quality : 32).c_str(), 0);
      c->bit_rate = 0;
    }
  }
  if (format->oformat->flags & AVFMT_GLOBALHEADER) c->flags |= AV_CODEC_FLAG_GLOBAL_HEADER;
  const int opened = avcodec_open2(c, encoder, &options);
  av_dict_free(&options);
  check(opened, (std::string("opening the ") + name + " encoder").c_str());
  stream = avformat_new_stream(format.get(), nullptr);
  if (!stream) throw std::bad_alloc();
  check(avcodec_parameters_from_context(stream->codecpar, c), "setting the stream parameters");
  stream->time_base = c->time_base;
  stream->avg_frame_rate = c->framerate;
}

void VideoEncoder::Impl::open_output() {
  // FFmpeg writes the temporary by name: the MP4 muxer seeks back to finish the index and,
  // for faststart, reads the file again to move that index to the front.
  const std::string url = "file:" + file->temp_path().string();
  check(avio_open(&format->pb, url.c_str(), AVIO_FLAG_WRITE), "opening the temporary file");
  av_freep(&format->url);
  format->url = av_strdup(url.c_str());
  AVDictionary* options = nullptr;
  // The index first, so a browser plays an exported lesson video before it has all of it.
  if (settings.codec == VideoCodec::H264) av_dict_set(&options, "movflags", "+faststart", 0);
  const int written = avformat_write_header(format.get(), &options);
  av_dict_free(&options);
  check(written, "writing the header");
}

FramePtr VideoEncoder::Impl::rgba_frame(std::span<const std::uint8_t> rgba, long long pts) const {
  FramePtr f = new_frame();
  f->format = AV_PIX_FMT_RGBA;
  f->width = settings.width;
  f->height = settings.height;
  check(av_frame_get_buffer(f.get(), 0), "allocating a frame");
  av_image_copy_plane(f->data[0], f->linesize[0], rgba.data(), settings.width * 4, settings.width * 4, settings.height);
  f->pts = pts;
  return f;
}

void VideoEncoder::Impl::encode(AVFrame* frame) {
  int sent = avcodec_send_frame(codec.get(), frame);
  check(sent, "encoding a frame");
  for (;;) {
    const int got = avcodec_receive_packet(codec.get(), packet.get());
    if (got == AVERROR(EAGAIN) || got == AVERROR_EOF) return;
    check(got, "encoding a frame");
    av_packet_rescale_ts(packet.get(), codec->time_base, stream->time_base);
    packet->stream_index = stream->index;
    const int written = av_interleaved_write_frame(format.get(), packet.get());  // takes the packet's data
    check(written, "writing a frame");
  }
}

void VideoEncoder::Impl::drain_map_graph() {
  for (;;) {
    FramePtr indexed = new_frame();
    const int got = av_buffersink_get_frame(map_out, indexed.get());
    if (got == AVERROR(EAGAIN) || got == AVERROR_EOF) return;
    check(got, "mapping a frame to the palette");
    encode(indexed.get());
  }
}

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
  quiet_ffmpeg_logs();

  m.file.emplace(m.target);  // throws "cannot write <target>: ..." before any encoding work
  AVFormatContext* format = nullptr;
  const char* muxer = settings.codec == VideoCodec::H264 ? "mp4" : settings.codec == VideoCodec::Vp9 ? "webm" : "gif";
  m.check(avformat_alloc_output_context2(&format, nullptr, muxer, nullptr), "creating the container");
  m.format.reset(format);
  m.packet.reset(av_packet_alloc());
  if (!m.packet) throw std::bad_alloc();
  m.open_codec();
  m.open_output();
  if (settings.codec == VideoCodec::Gif) {
    m.build_palette_graph();
  } else {
    m.sws.reset(sws_getContext(settings.width, settings.height, AV_PIX_FMT_RGBA, settings.width, settings.height,
                               AV_PIX_FMT_YUV420P, SWS_BILINEAR, nullptr, nullptr, nullptr));
    if (!m.sws) throw VideoError("cannot encode " + m.target.string() + ": no RGBA to YUV 4:2:0 conversion");
    // RGB input (full range) → BT.709 limited-range YUV, matching the stream's tags.
    const int* bt709 = sws_getCoefficients(SWS_CS_ITU709);
    sws_setColorspaceDetails(m.sws.get(), bt709, 1, bt709, 0, 0, 1 << 16, 1 << 16);
    m.yuv = new_frame();
    m.yuv->format = AV_PIX_FMT_YUV420P;
    m.yuv->width = settings.width;
    m.yuv->height = settings.height;
    m.check(av_frame_get_buffer(m.yuv.get(), 0), "allocating a frame");
  }
}

VideoEncoder::~VideoEncoder() {
  if (!impl_) return;
  // Tear down FFmpeg before the AtomicFile removes the temporary it was writing.
  impl_->map_graph.reset();
  impl_->palette_graph.reset();
  impl_->codec.reset();
  impl_->format.reset();
  impl_->file.reset();
}

bool VideoEncoder::wants_palette() const { return impl_->settings.codec == VideoCodec::Gif && !impl_->map_graph; }

void VideoEncoder::add_palette_frame(std::span<const std::uint8_t> rgba) {
  Impl& m = *impl_;
  if (!wants_palette()) throw std::logic_error("VideoEncoder::add_palette_frame: only for GIF, before add_frame");
  if (rgba.size() != std::size_t(m.settings.width) * std::size_t(m.settings.height) * 4)
    throw std::invalid_argument("VideoEncoder: frame size does not match the video size");
  const auto start = std::chrono::steady_clock::now();
  FramePtr f = m.rgba_frame(rgba, m.palette_samples++);
  m.check(av_buffersrc_add_frame(m.palette_in, f.get()), "sampling the palette");
  m.encode_ms += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

void VideoEncoder::add_frame(std::span<const std::uint8_t> rgba) {
  Impl& m = *impl_;
  if (m.finished) throw std::logic_error("VideoEncoder::add_frame after finish");
  if (rgba.size() != std::size_t(m.settings.width) * std::size_t(m.settings.height) * 4)
    throw std::invalid_argument("VideoEncoder: frame size does not match the video size");
  if (m.settings.codec == VideoCodec::Gif && !m.map_graph) {
    if (m.palette_samples == 0) add_palette_frame(rgba);
    m.build_map_graph();
  }
  const auto start = std::chrono::steady_clock::now();
  if (m.settings.codec == VideoCodec::Gif) {
    FramePtr f = m.rgba_frame(rgba, m.frames);
    m.check(av_buffersrc_add_frame(m.map_in, f.get()), "mapping a frame to the palette");
    m.drain_map_graph();
  } else {
    m.check(av_frame_make_writable(m.yuv.get()), "allocating a frame");
    const std::uint8_t* src[1] = {rgba.data()};
    const int stride[1] = {m.settings.width * 4};
    sws_scale(m.sws.get(), src, stride, 0, m.settings.height, m.yuv->data, m.yuv->linesize);
    m.yuv->pts = m.frames;
    m.encode(m.yuv.get());
  }
  ++m.frames;
  m.encode_ms += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

void VideoEncoder::finish() {
  Impl& m = *impl_;
  if (m.finished) throw std::logic_error("VideoEncoder::finish twice");
  if (m.frames == 0) throw VideoError("cannot encode " + m.target.string() + ": no frames");
  const auto start = std::chrono::steady_clock::now();
  if (m.map_graph) {
    m.check(av_buffersrc_add_frame(m.map_in, nullptr), "mapping the last frames");
    m.drain_map_graph();
  }
  m.encode(nullptr);  // flush the encoder's delayed frames
  m.check(av_write_trailer(m.format.get()), "writing the index");
  const int closed = avio_closep(&m.format->pb);
  m.check(closed, "closing the file");
  m.file->commit();  // fsync + rename: the previous file is replaced only now
  m.finished = true;
  m.encode_ms += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

long long VideoEncoder::frames() const { return impl_->frames; }
double VideoEncoder::encode_ms() const { return impl_->encode_ms; }
const VideoSettings& VideoEncoder::settings() const { return impl_->settings; }
const std::filesystem::path& VideoEncoder::target() const { return impl_->target; }

}  // namespace app
