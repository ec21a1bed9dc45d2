#pragma once
// File → Record animation…: one numeric parameter animated from → to into an MP4 / WebM / GIF,
// rendered offscreen at the chosen size (export/video_export.hpp) while the window keeps
// running. Rendering needs the GL context between frames, so the dialog only collects the
// settings inside the frame; the GUI loop calls step() after each frame, which runs the
// export job for a few tens of milliseconds. A progress bar and Cancel show while it runs;
// Cancel (or an error) leaves no file and any previous file at that path untouched.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "export/video_export.hpp"
#include "state/app_state.hpp"
#include "ui/file_actions.hpp"

namespace app {

class AppSession;

class RecordDialog {
 public:
  struct Settings {
    std::string key = "position";  // an animatable numeric key of lesson_parameters()
    double from = 0, to = 64;
    double seconds = 4.0;
    int fps = 30;
    int width = 1280, height = 720;
    std::string path = "animation.mp4";  // .mp4, .webm or .gif
  };

  RecordDialog();
  ~RecordDialog();

  // The menu item: fills from/to from the state and opens the dialog on the next draw().
  void open(const AppState& state);
  // Inside the frame, after the menu bar: the settings dialog, or while recording a small
  // window with the progress bar and Cancel.
  void draw(const AppState& state, StatusLine& status, double now);
  // Between frames (after swap): starts a requested recording of the state it was asked
  // for and renders for about `budget_ms`; the session's live state is left as it was.
  void step(AppSession& session, StatusLine& status, double now, double budget_ms = 40.0);

  // What the Record button does: checks the settings against `state` (the message names the
  // setting) and queues the recording for the next step(). Returns the error, or "".
  std::string start(const Settings& settings, const AppState& state);
  void cancel() { cancel_requested_ = true; }  // takes effect in the next step()

  bool recording() const { return job_ != nullptr || pending_.has_value(); }
  double progress() const;  // 0 ... 1 while recording
  Settings& settings() { return settings_; }
  const std::string& error() const { return error_; }  // the dialog's last refusal

  // The animatable numeric keys offered, in lesson_parameters() order.
  static const std::vector<std::string>& animatable_keys();

 private:
  Settings settings_;
  bool open_requested_ = false, cancel_requested_ = false;
  std::string error_;
  std::optional<VideoRequest> pending_;  // checked, waiting for step()
  AppState recorded_state_;
  std::string recorded_size_;
  std::unique_ptr<VideoExportJob> job_;
};

// The current value of a lesson key in the state (session spelling), if it is a number.
std::optional<double> state_value(const AppState& state, const std::string& key);

}  // namespace app
