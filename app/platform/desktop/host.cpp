#include "platform/host.hpp"

#include <imgui.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "platform/atomic_file.hpp"
#include "platform/config_dir.hpp"
#include "platform/desktop/http_transport_curl.hpp"

namespace app::host {

const Capabilities& capabilities() {
  static const Capabilities desktop{};
  return desktop;
}

// Everything is available here: nothing to explain.
std::string video_export_unavailable() { return {}; }
std::string model_cache_unavailable() { return {}; }
std::string folder_export_unavailable() { return {}; }

bool run_main_loop(std::function<bool()> frame) {
  while (frame()) {
  }
  return true;
}

std::optional<std::string> url_fragment() { return std::nullopt; }
void replace_url_fragment(const std::string&) {}
std::string link_with_fragment(const std::string&) { return {}; }
std::optional<std::string> take_new_url_fragment() { return std::nullopt; }

void copy_text(const std::string& text) { ImGui::SetClipboardText(text.c_str()); }

void offer_download(const std::string& file_name, std::span<const unsigned char>, const std::string&) {
  throw std::logic_error("offer_download(" + file_name + "): the desktop writes files by path");
}
void pick_files(const std::string&, const std::string&) {}
std::vector<PickedFile> take_picked_files() { return {}; }

std::unique_ptr<pe::HttpTransport> make_http_transport() { return std::make_unique<CurlTransport>(); }

pe::HubSettings hub_settings() {
  pe::HubSettings s = pe::hub_settings_from_environment(std::string("pe-viz/") + PE_VIZ_VERSION);
  if (const char* t = std::getenv("PE_VIZ_HUB_TRACE"); t && *t && std::string(t) != "0") {
    const auto start = std::chrono::steady_clock::now();
    s.trace = [start](const std::string& line) {
      std::fprintf(stderr, "hub %8.3f %s\n", std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), line.c_str());
    };
  }
  return s;
}

void set_hub_token(const std::string&, bool) {}
std::shared_ptr<pe::RangedFile> page_file(const std::string&) { return nullptr; }
std::unique_ptr<pe::RangeLoader> make_page_file_loader() { return nullptr; }
std::optional<std::string> take_weights_request() { return std::nullopt; }

std::optional<std::string> published_lesson() { return std::nullopt; }

std::optional<std::string> read_saved_session() {
  // Not autosave_path(): that creates the folder, and only a save needs it.
  const std::filesystem::path dir = config_dir_location();
  if (dir.empty()) return std::nullopt;
  const std::filesystem::path file = dir / "last-session.json";
  std::error_code ec;
  if (!std::filesystem::exists(file, ec)) return std::nullopt;
  std::ifstream in(file, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + file.string());
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

void write_saved_session(const std::string& json) {
  const std::filesystem::path file = autosave_path();
  if (file.empty()) return;
  write_file_atomic(file, json.data(), json.size());
}

void log_line(const std::string& text) { std::fprintf(stderr, "%s\n", text.c_str()); }
void first_frame_shown() {}
bool touch_screen() { return false; }
bool text_check_requested() { return false; }
void report_text_check(const std::string&) {}

}  // namespace app::host
