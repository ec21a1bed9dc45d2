#pragma once
// A view as a video: frames rendered offscreen at the requested size (the PNG export's
// OffscreenRenderer), animated parameters set on the state per frame, encoded by
// VideoEncoder. As a job that advances a few frames per step, so the GUI can draw a
// progress bar and offer Cancel between steps; export_video() runs it to the end (CLI).
#include <atomic>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "export/export_request.hpp"
#include "export/video_encoder.hpp"
#include "pe/lessons/animation.hpp"
#include "state/app_state.hpp"

namespace app {

class ExportSession;
class OffscreenRenderer;

struct VideoRequest {
  std::string view;  // empty: the state's view
  std::filesystem::path path;  // .mp4, .webm or .gif
  int width = 1920, height = 1080;
  int fps = 30;                 // a GIF is encoded at min(fps, kMaxGifFps)
  double seconds = 4.0;         // > 0, <= 3600
  std::vector<pe::AnimationTrack> tracks;  // resolved (app::animate_option / check_lesson)
  Background background = Background::Theme;  // transparent is drawn as the theme's colour
  int quality = -1;             // CRF; -1: the encoder's default
};

// Frames in the file: round(seconds × encoded fps), at least 1. The first frame shows the
// tracks' start values, the last their end values (pe::frame_progress).
long long video_frame_count(const VideoRequest& request);

struct VideoResult {
  std::filesystem::path path;
  VideoCodec codec = VideoCodec::H264;
  long long frames = 0;
  int fps = 0;                 // encoded
  long long renders = 0;       // frames rendered: frames, plus the GIF palette samples
  double render_ms = 0;        // total offscreen rendering + read-back
  double encode_ms = 0;        // total conversion + encoding + muxing
  double total_ms = 0;
};

class VideoExportJob {
 public:
  // Checks everything before the first frame: extension, size, fps, duration, and that
  // the state accepts the tracks' start and end values (pe::InvalidArgument naming the
  // key). Creates the temporary file (std::runtime_error when unwritable).
  VideoExportJob(ExportSession& session, VideoRequest request);
  ~VideoExportJob();  // unfinished: the temporary is removed, state restored
  VideoExportJob(const VideoExportJob&) = delete;
  VideoExportJob& operator=(const VideoExportJob&) = delete;

  // Renders and encodes frames for about `budget_ms` (at least one), restoring the
  // session's state and export settings before it returns, so the GUI can draw between
  // steps. Returns true when the file is complete and in place. Throws on any error (the
  // target is then untouched).
  bool step(double budget_ms = 100.0);
  bool finished() const { return finished_; }
  long long done() const;   // units of work done (GIF: palette samples + frames)
  long long total() const;
  const VideoResult& result() const { return result_; }

 private:
  void render_one(OffscreenRenderer& renderer, long long frame, bool palette_sample);

  ExportSession& session_;
  VideoRequest request_;
  VideoEncoder encoder_;
  long long frames_ = 0;
  std::vector<long long> palette_frames_;  // GIF: frames sampled for the palette
  long long next_palette_ = 0, next_frame_ = 0;
  bool finished_ = false;
  VideoResult result_;
};

// Runs a job to the end. `progress(done, total)` after each step; `cancel` is read between
// steps and, when set, stops the export with VideoError("cancelled"), leaving no file.
VideoResult export_video(ExportSession& session, const VideoRequest& request,
                         const std::function<void(long long done, long long total)>& progress = {},
                         const std::atomic<bool>* cancel = nullptr);

}  // namespace app
