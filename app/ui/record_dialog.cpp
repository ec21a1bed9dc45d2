#include "ui/record_dialog.hpp"

#include <imgui.h>
#include <imgui_stdlib.h>

#include <cmath>
#include <nlohmann/json.hpp>

#include "export/lesson_validation.hpp"
#include "export/video_encoder.hpp"
#include "pe/base/errors.hpp"
#include "state/session_file.hpp"
#include "ui/app_session.hpp"

namespace app {
namespace {

constexpr const char* kDialog = "Record animation";

// Defaults for a freshly chosen key: a sweep a lecturer would want to see.
void default_range(RecordDialog::Settings& s, const AppState& state) {
  const pe::ParameterInfo* info = lesson_parameters().find(s.key);
  const double now = state_value(state, s.key).value_or(0.0);
  if (s.key == "position") {
    s.from = 0;
    s.to = double(std::min<long long>(64, std::max<long long>(state.length - 1, 0)));
  } else if (info && info->default_scale == pe::AnimationScale::Log && now > 0) {
    s.from = now / 10.0;
    s.to = now * 10.0;
  } else if (info && info->kind == pe::ParameterInfo::Kind::Integer) {
    s.from = 0;
    s.to = now > 0 ? now : 10;
  } else {
    s.from = now;
    s.to = now > 0 ? 2 * now : 1;
  }
}

}  // namespace

std::optional<double> state_value(const AppState& state, const std::string& key) {
  std::string k = key;
  for (char& c : k)
    if (c == '-') c = '_';
  const nlohmann::json j = nlohmann::json::parse(session_to_json(state));
  for (const nlohmann::json* o : {&j, j.contains("rope") ? &j["rope"] : nullptr,
                                  j.contains("rope") && j["rope"].contains("scaling") ? &j["rope"]["scaling"] : nullptr}) {
    if (o && o->is_object() && o->contains(k) && (*o)[k].is_number()) return (*o)[k].get<double>();
  }
  return std::nullopt;
}

RecordDialog::RecordDialog() = default;
RecordDialog::~RecordDialog() = default;

const std::vector<std::string>& RecordDialog::animatable_keys() {
  static const std::vector<std::string> keys = [] {
    std::vector<std::string> out;
    for (const auto& p : lesson_parameters().parameters)
      if (p.animatable && p.kind != pe::ParameterInfo::Kind::Text) out.push_back(p.key);
    return out;
  }();
  return keys;
}

void RecordDialog::open(const AppState& state) {
  if (recording()) return;
  default_range(settings_, state);
  error_.clear();
  open_requested_ = true;
}

double RecordDialog::progress() const {
  if (!job_ || job_->total() <= 0) return 0.0;
  return double(job_->done()) / double(job_->total());
}

std::string RecordDialog::start(const Settings& s, const AppState& state) {
  error_.clear();
  try {
    if (recording()) throw std::runtime_error("a recording is already running");
    VideoRequest r;
    r.view = state.view;
    r.path = s.path;
    if (s.path.empty()) throw pe::InvalidArgument("output", "(none)", "a file name ending in .mp4, .webm or .gif");
    (void)video_codec_for(r.path);
    if (s.width < 16 || s.height < 16 || s.width > 16384 || s.height > 16384)
      throw pe::InvalidArgument("size", std::to_string(s.width) + "x" + std::to_string(s.height), "16 ... 16384 pixels a side");
    if (s.fps < 1 || s.fps > 120) throw pe::InvalidArgument("fps", std::to_string(s.fps), "1 ... 120");
    if (!(s.seconds > 0.0) || s.seconds > 3600.0)
      throw pe::InvalidArgument("duration", pe::format_double(s.seconds), "> 0 and <= 3600 seconds");
    pe::AnimationTrack track{s.key, s.from, s.to};
    pe::resolve_track(track, lesson_parameters());
    r.tracks = {track};
    AppState probe = state;  // the state must accept both ends (position < length, ...)
    apply_tracks(probe, r.tracks, 0.0);
    apply_tracks(probe, r.tracks, 1.0);
    r.width = s.width;
    r.height = s.height;
    r.fps = s.fps;
    r.seconds = s.seconds;
    recorded_state_ = state;
    recorded_size_ = std::to_string(s.width) + "×" + std::to_string(s.height);
    pending_ = std::move(r);
    cancel_requested_ = false;
  } catch (const std::exception& e) {
    error_ = e.what();
  }
  return error_;
}

void RecordDialog::draw(const AppState& state, StatusLine& status, double now) {
  if (open_requested_) {
    ImGui::OpenPopup(kDialog);
    open_requested_ = false;
  }
  if (ImGui::BeginPopupModal(kDialog, nullptr, ImGuiWindowFlags_AlwaysAutoResize)) {
    Settings& s = settings_;
    if (ImGui::BeginCombo("parameter", s.key.c_str())) {
      for (const std::string& key : animatable_keys())
        if (ImGui::Selectable(key.c_str(), key == s.key)) {
          s.key = key;
          default_range(s, state);
        }
      ImGui::EndCombo();
    }
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("The numeric parameter that moves (as --animate KEY=FROM:TO).");
    ImGui::InputDouble("from", &s.from, 0, 0, "%.6g");
    ImGui::InputDouble("to", &s.to, 0, 0, "%.6g");
    if (const pe::ParameterInfo* info = lesson_parameters().find(s.key); info && info->default_scale == pe::AnimationScale::Log)
      ImGui::TextDisabled("%s moves on a log scale (equal ratios per second)", s.key.c_str());
    ImGui::InputDouble("duration (s)", &s.seconds, 0, 0, "%.3g");
    ImGui::InputInt("fps", &s.fps);
    ImGui::InputInt("width", &s.width);
    ImGui::InputInt("height", &s.height);
    ImGui::InputText("path", &s.path);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip(".mp4 (H.264), .webm (VP9) or .gif; written when complete.");
    ImGui::TextDisabled("View %s, drawn offscreen at this size.", state.view.c_str());
    if (!error_.empty()) {
      ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.45f, 0.4f, 1.0f));
      ImGui::PushTextWrapPos(ImGui::GetFontSize() * 28.0f);
      ImGui::TextUnformatted(error_.c_str());
      ImGui::PopTextWrapPos();
      ImGui::PopStyleColor();
    }
    if (ImGui::Button("Record")) {
      if (start(s, state).empty()) {
        status = {"Recording " + s.path + " …", false, now, 0.0f};
        ImGui::CloseCurrentPopup();
      }
    }
    ImGui::SameLine();
    if (ImGui::Button("Close")) ImGui::CloseCurrentPopup();
    ImGui::EndPopup();
  }
  if (recording()) {
    // A small window, not a modal: the lecturer may keep looking at the view meanwhile.
    ImGui::SetNextWindowPos(ImVec2(ImGui::GetIO().DisplaySize.x * 0.5f, ImGui::GetIO().DisplaySize.y * 0.5f),
                            ImGuiCond_Appearing, ImVec2(0.5f, 0.5f));
    ImGui::Begin("Recording", nullptr,
                 ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoSavedSettings);
    ImGui::Text("%s", settings_.path.c_str());
    ImGui::ProgressBar(float(progress()), ImVec2(ImGui::GetFontSize() * 16.0f, 0.0f));
    if (ImGui::Button("Cancel")) cancel();
    ImGui::End();
  }
}

void RecordDialog::step(AppSession& session, StatusLine& status, double now, double budget_ms) {
  if (!recording()) return;
  const std::string path = pending_ ? pending_->path.string() : settings_.path;
  if (cancel_requested_) {
    job_.reset();  // removes the temporary: the target is untouched
    pending_.reset();
    cancel_requested_ = false;
    status = {"Recording cancelled: " + path + " was not written", false, now};
    return;
  }
  // The clip shows the state of the moment Record was pressed, whatever the user does
  // with the panel meanwhile; the live state is put back after every step.
  AppState live = session.state();
  session.state() = recorded_state_;
  bool done = false;
  try {
    if (pending_) {
      job_ = std::make_unique<VideoExportJob>(session, *pending_);
      pending_.reset();
    }
    done = job_->step(budget_ms);
  } catch (const std::exception& e) {
    session.state() = std::move(live);
    job_.reset();
    pending_.reset();
    status = {std::string("Recording failed: ") + e.what(), true, now};
    return;
  }
  session.state() = std::move(live);
  if (done) {
    const VideoResult& r = job_->result();
    status = {"Recorded " + r.path.string() + " (" + std::to_string(r.frames) + " frames at " + std::to_string(r.fps) +
                  " fps, " + recorded_size_ + ")",
              false, now};
    job_.reset();
  } else {
    status = {"Recording " + path + " …", false, now, float(progress())};
  }
}

}  // namespace app
