// FFmpeg's side of video export, built as the module pe-viz-video.so (see
// export/video_backend.hpp): H.264 in MP4 (libx264), VP9 in WebM (libvpx-vp9), GIF with a
// palette made for the clip (libavfilter palettegen / paletteuse).
#include "export/video_backend.hpp"

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

#include <memory>
#include <mutex>
#include <new>
#include <string>

namespace app {
namespace {

std::string av_error_text(int code) {
  char text[AV_ERROR_MAX_STRING_SIZE] = {};
  av_strerror(code, text, sizeof text);
  return text;
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

class FfmpegVideoBackend final : public VideoBackend {
 public:
  FfmpegVideoBackend(const std::string& file, const std::string& target, const VideoSettings& settings, int fps);
  ~FfmpegVideoBackend() override;
  void add_palette_frame(std::span<const std::uint8_t> rgba) override;
  void add_frame(std::span<const std::uint8_t> rgba) override;
  void finish() override;

 private:
  std::string file;  // the temporary FFmpeg writes
  std::string target;
  VideoSettings settings;
  int fps = 30;
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

  [[noreturn]] void fail(const std::string& step, int code) const {
    throw VideoError("cannot encode " + target + ": " + step + " (" + av_error_text(code) + ")");
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

AVFilterContext* FfmpegVideoBackend::buffer_source(AVFilterGraph* graph, const char* name, int w, int h, AVPixelFormat format) {
  const std::string args = "video_size=" + std::to_string(w) + "x" + std::to_string(h) + ":pix_fmt=" +
                           std::to_string(int(format)) + ":time_base=1/" + std::to_string(fps) + ":pixel_aspect=1/1";
  AVFilterContext* ctx = nullptr;
  check(avfilter_graph_create_filter(&ctx, avfilter_get_by_name("buffer"), name, args.c_str(), nullptr, graph),
        "creating the GIF filter input");
  return ctx;
}

AVFilterContext* FfmpegVideoBackend::filter(AVFilterGraph* graph, const char* type, const char* name, const char* args) {
  const AVFilter* f = avfilter_get_by_name(type);
  if (!f) throw VideoError(std::string("cannot encode GIF: this FFmpeg has no ") + type + " filter (libavfilter)");
  AVFilterContext* ctx = nullptr;
  check(avfilter_graph_create_filter(&ctx, f, name, args, nullptr, graph), type);
  return ctx;
}

void FfmpegVideoBackend::build_palette_graph() {
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

void FfmpegVideoBackend::build_map_graph() {
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

void FfmpegVideoBackend::open_codec() {
  const char* name = settings.codec == VideoCodec::H264 ? "libx264" : settings.codec == VideoCodec::Vp9 ? "libvpx-vp9" : "gif";
  const AVCodec* encoder = avcodec_find_encoder_by_name(name);
  if (!encoder) throw VideoError(std::string("cannot encode ") + target + ": this FFmpeg has no " + name + " encoder");
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

void FfmpegVideoBackend::open_output() {
  // FFmpeg writes the temporary by name: the MP4 muxer seeks back to finish the index and,
  // for faststart, reads the file again to move that index to the front.
  const std::string url = "file:" + file;
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

FramePtr FfmpegVideoBackend::rgba_frame(std::span<const std::uint8_t> rgba, long long pts) const {
  FramePtr f = new_frame();
  f->format = AV_PIX_FMT_RGBA;
  f->width = settings.width;
  f->height = settings.height;
  check(av_frame_get_buffer(f.get(), 0), "allocating a frame");
  av_image_copy_plane(f->data[0], f->linesize[0], rgba.data(), settings.width * 4, settings.width * 4, settings.height);
  f->pts = pts;
  return f;
}

void FfmpegVideoBackend::encode(AVFrame* frame) {
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

void FfmpegVideoBackend::drain_map_graph() {
  for (;;) {
    FramePtr indexed = new_frame();
    const int got = av_buffersink_get_frame(map_out, indexed.get());
    if (got == AVERROR(EAGAIN) || got == AVERROR_EOF) return;
    check(got, "mapping a frame to the palette");
    encode(indexed.get());
  }
}

FfmpegVideoBackend::FfmpegVideoBackend(const std::string& file_, const std::string& target_, const VideoSettings& settings_,
                                       int fps_)
    : file(file_), target(target_), settings(settings_), fps(fps_) {
  quiet_ffmpeg_logs();
  AVFormatContext* format_context = nullptr;
  const char* muxer = settings.codec == VideoCodec::H264 ? "mp4" : settings.codec == VideoCodec::Vp9 ? "webm" : "gif";
  check(avformat_alloc_output_context2(&format_context, nullptr, muxer, nullptr), "creating the container");
  format.reset(format_context);
  packet.reset(av_packet_alloc());
  if (!packet) throw std::bad_alloc();
  open_codec();
  open_output();
  if (settings.codec == VideoCodec::Gif) {
    build_palette_graph();
  } else {
    sws.reset(sws_getContext(settings.width, settings.height, AV_PIX_FMT_RGBA, settings.width, settings.height,
                             AV_PIX_FMT_YUV420P, SWS_BILINEAR, nullptr, nullptr, nullptr));
    if (!sws) throw VideoError("cannot encode " + target + ": no RGBA to YUV 4:2:0 conversion");
    // RGB input (full range) → BT.709 limited-range YUV, matching the stream's tags.
    const int* bt709 = sws_getCoefficients(SWS_CS_ITU709);
    sws_setColorspaceDetails(sws.get(), bt709, 1, bt709, 0, 0, 1 << 16, 1 << 16);
    yuv = new_frame();
    yuv->format = AV_PIX_FMT_YUV420P;
    yuv->width = settings.width;
    yuv->height = settings.height;
    check(av_frame_get_buffer(yuv.get(), 0), "allocating a frame");
  }
}

FfmpegVideoBackend::~FfmpegVideoBackend() {
  // Graphs and codec before the container, which closes the file.
  map_graph.reset();
  palette_graph.reset();
  codec.reset();
  format.reset();
}

void FfmpegVideoBackend::add_palette_frame(std::span<const std::uint8_t> rgba) {
  FramePtr f = rgba_frame(rgba, palette_samples++);
  check(av_buffersrc_add_frame(palette_in, f.get()), "sampling the palette");
}

void FfmpegVideoBackend::add_frame(std::span<const std::uint8_t> rgba) {
  if (settings.codec == VideoCodec::Gif && !map_graph) {
    if (palette_samples == 0) add_palette_frame(rgba);
    build_map_graph();
  }
  if (settings.codec == VideoCodec::Gif) {
    FramePtr f = rgba_frame(rgba, frames);
    check(av_buffersrc_add_frame(map_in, f.get()), "mapping a frame to the palette");
    drain_map_graph();
  } else {
    check(av_frame_make_writable(yuv.get()), "allocating a frame");
    const std::uint8_t* src[1] = {rgba.data()};
    const int stride[1] = {settings.width * 4};
    sws_scale(sws.get(), src, stride, 0, settings.height, yuv->data, yuv->linesize);
    yuv->pts = frames;
    encode(yuv.get());
  }
  ++frames;
}

void FfmpegVideoBackend::finish() {
  if (map_graph) {
    check(av_buffersrc_add_frame(map_in, nullptr), "mapping the last frames");
    drain_map_graph();
  }
  encode(nullptr);  // flush the encoder's delayed frames
  check(av_write_trailer(format.get()), "writing the index");
  check(avio_closep(&format->pb), "closing the file");
}

}  // namespace
}  // namespace app

// C names, looked up with dlsym by export/video_module.cpp.
extern "C" __attribute__((visibility("default"))) int pe_viz_video_backend_version() { return app::kVideoBackendVersion; }

extern "C" __attribute__((visibility("default"))) app::VideoBackend* pe_viz_open_video_backend(const std::string& file,
                                                                                             const std::string& target,
                                                                                             const app::VideoSettings& settings,
                                                                                             int fps) {
  return new app::FfmpegVideoBackend(file, target, settings, fps);
}
