#include "export/video_export.hpp"

#include <chrono>
#include <cmath>

#include "export/lesson_validation.hpp"
#include "export/view_export.hpp"
#include "pe/base/errors.hpp"
#include "export/export_session.hpp"

namespace app {
namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point start) { return std::chrono::duration<double, std::milli>(Clock::now() - start).count(); }

VideoSettings settings_of(const VideoRequest& r) {
  if (!(r.seconds > 0.0) || r.seconds > 3600.0)
    throw pe::InvalidArgument("duration", pe::format_double(r.seconds), "> 0 and <= 3600 seconds");
  VideoSettings s;
  s.codec = video_codec_for(r.path);
  s.width = r.width;
  s.height = r.height;
  s.fps = r.fps;
  s.quality = r.quality;
  return s;
}

// GIF palettes come from a sample of the clip: an animation's frames share their colours
// (axes, background, the colormap), so 16 evenly spaced frames, first and last included,
// find them at a quarter of the cost of rendering every frame twice.
constexpr long long kPaletteSamples = 16;

}  // namespace

long long video_frame_count(const VideoRequest& request) {
  VideoSettings s;
  s.codec = video_codec_for(request.path);
  s.fps = request.fps;
  return std::max(1LL, std::llround(request.seconds * double(encoded_fps(s))));
}

VideoExportJob::VideoExportJob(ExportSession& session, VideoRequest request)
    : session_(session), request_(std::move(request)), encoder_([&]() -> VideoEncoder {
        // Everything the state must accept is checked before the temporary file exists.
        if (request_.view.empty()) request_.view = session.state().view;
        AppState probe = session.state();
        apply_tracks(probe, request_.tracks, 0.0);
        apply_tracks(probe, request_.tracks, 1.0);
        return VideoEncoder(request_.path, settings_of(request_));
      }()) {
  frames_ = video_frame_count(request_);
  if (encoder_.wants_palette()) {
    const long long n = std::min(frames_, kPaletteSamples);
    for (long long k = 0; k < n; ++k) palette_frames_.push_back(n == 1 ? 0 : std::llround(double(k) * double(frames_ - 1) / double(n - 1)));
  }
  result_.path = request_.path;
  result_.codec = encoder_.settings().codec;
  result_.fps = encoded_fps(encoder_.settings());
}

VideoExportJob::~VideoExportJob() = default;

long long VideoExportJob::done() const { return next_palette_ + next_frame_; }
long long VideoExportJob::total() const { return static_cast<long long>(palette_frames_.size()) + frames_; }

void VideoExportJob::render_one(OffscreenRenderer& renderer, long long frame, bool palette_sample) {
  const auto start = Clock::now();
  apply_tracks(session_.state(), request_.tracks, pe::frame_progress(frame, frames_));
  // The PNG export's full layout fixed point for every frame: with fewer passes ImGui tables
  // and auto-fit axes lag a frame behind the state (the clock-hands table's columns sat at
  // the previous frame's widths). The extra passes are layout only, no rasterizing.
  const std::vector<unsigned char> pixels = renderer.render(kFixedPointPasses);
  result_.render_ms += ms_since(start);
  ++result_.renders;
  if (palette_sample) encoder_.add_palette_frame(pixels);
  else encoder_.add_frame(pixels);
}

bool VideoExportJob::step(double budget_ms) {
  if (finished_) return true;
  const auto start = Clock::now();
  const AppState saved = session_.state();
  try {
    // Video has no alpha channel: a transparent background is drawn in the theme's colour.
    const Background background = request_.background == Background::Transparent ? Background::Theme : request_.background;
    OffscreenRenderer renderer(session_, request_.view, request_.width, request_.height, background);
    do {
      if (next_palette_ < static_cast<long long>(palette_frames_.size())) {
        render_one(renderer, palette_frames_[std::size_t(next_palette_)], true);
        ++next_palette_;
      } else {
        render_one(renderer, next_frame_, false);
        ++next_frame_;
      }
    } while (done() < total() && ms_since(start) < budget_ms);
  } catch (...) {
    session_.state() = saved;
    throw;
  }
  session_.state() = saved;
  if (done() == total()) {
    encoder_.finish();
    finished_ = true;
    result_.frames = encoder_.frames();
  }
  result_.encode_ms = encoder_.encode_ms();
  result_.total_ms += ms_since(start);
  return finished_;
}

VideoResult export_video(ExportSession& session, const VideoRequest& request,
                         const std::function<void(long long, long long)>& progress, const std::atomic<bool>* cancel) {
  const auto start = Clock::now();
  VideoExportJob job(session, request);
  while (true) {
    if (cancel && cancel->load()) throw VideoError("cancelled: " + request.path.string() + " was not written");
    const bool finished = job.step(250.0);
    if (progress) progress(job.done(), job.total());
    if (finished) break;
  }
  VideoResult r = job.result();
  r.total_ms = ms_since(start);
  return r;
}

}  // namespace app
