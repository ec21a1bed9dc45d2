// The browser page's side of platform/host.hpp and platform/web/page.hpp: JavaScript that
// the page runs for the app (EM_JS), and emscripten's main loop.
#include "platform/host.hpp"
#include "platform/web/http_transport_fetch.hpp"
#include "platform/web/page.hpp"
#include "platform/web/page_files.hpp"

#include <emscripten.h>
#include <emscripten/html5.h>
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <imgui.h>

#include <algorithm>
#include <cfloat>
#include <cstdlib>
#include <memory>
#include <stdexcept>

// clang-format off
EM_JS(char*, pe_js_fragment, (), {
  var h = window.location.hash || "";
  return allocateUTF8(h.charAt(0) == '#' ? h.substring(1) : h);
});
EM_JS(void, pe_js_replace_fragment, (const char* fragment), {
  var f = UTF8ToString(fragment);
  var base = window.location.href.split('#')[0];
  /* replaceState: the fragment follows the state without a history entry per slider step. */
  try { window.history.replaceState(window.history.state, "", f ? base + '#' + f : base); } catch (e) {}
});
EM_JS(char*, pe_js_link, (const char* fragment), {
  var f = UTF8ToString(fragment);
  return allocateUTF8(window.location.href.split('#')[0] + (f ? "#" + f : ""));
});
EM_JS(int, pe_js_take_hash_change, (), { var v = Module.peViz.hashChanged; Module.peViz.hashChanged = false; return v ? 1 : 0; });
EM_JS(void, pe_js_copy_text, (const char* text), {
  var t = UTF8ToString(text);
  Module.peViz.copy(t);
});
EM_JS(void, pe_js_download, (const char* name, const unsigned char* data, int size, const char* mime), {
  Module.peViz.download(UTF8ToString(name), HEAPU8.slice(data, data + size), UTF8ToString(mime));
});
EM_JS(void, pe_js_pick_files, (const char* accept, const char* purpose), {
  Module.peViz.pickFiles(UTF8ToString(accept), UTF8ToString(purpose));
});
EM_JS(char*, pe_js_take_picked, (), {
  /* "purpose TAB path NEWLINE" per file that arrived since the last call. */
  var text = Module.peViz.picked.map(function(f) { return f.purpose + '\t' + f.path + '\n'; }).join("");
  Module.peViz.picked = [];
  return allocateUTF8(text);
});
EM_JS(char*, pe_js_storage_get, (const char* key), {
  try {
    var v = window.localStorage.getItem(UTF8ToString(key));
    return v === null ? 0 : allocateUTF8(v);
  } catch (e) { return 0; }
});
EM_JS(int, pe_js_storage_set, (const char* key, const char* value), {
  try { window.localStorage.setItem(UTF8ToString(key), UTF8ToString(value)); return 1; } catch (e) { return 0; }
});
EM_JS(char*, pe_js_hub_endpoint, (), { return allocateUTF8(Module.peViz.hubEndpoint()); });
EM_JS(char*, pe_js_hub_token, (), { return allocateUTF8(Module.peViz.hubToken()); });
EM_JS(void, pe_js_set_hub_token, (const char* token, int keep), { Module.peViz.setHubToken(UTF8ToString(token), keep != 0); });
EM_JS(char*, pe_js_published_lesson, (), {
  return Module.peViz.lessonPath ? allocateUTF8(Module.peViz.lessonPath) : 0;
});
EM_JS(void, pe_js_log, (const char* text), { console.log(UTF8ToString(text)); });
EM_JS(void, pe_js_first_frame, (), { Module.peViz.firstFrame(); });
EM_JS(double, pe_js_pixel_ratio, (), { return window.devicePixelRatio || 1; });
EM_JS(int, pe_js_canvas_css_width, (), { return Module.canvas.getBoundingClientRect().width; });
EM_JS(int, pe_js_canvas_css_height, (), { return Module.canvas.getBoundingClientRect().height; });
EM_JS(int, pe_js_take_input, (), { var v = Module.peViz.input; Module.peViz.input = false; return v ? 1 : 0; });
EM_JS(int, pe_js_take_touch, (float* xy), {
  var t = Module.peViz.takeTouch();
  HEAPF32[xy >> 2] = t[1];
  HEAPF32[(xy >> 2) + 1] = t[2];
  return t[0];
});
EM_JS(int, pe_js_touch_screen, (), { return Module.peViz.touch.seen || Module.peViz.coarse ? 1 : 0; });
EM_JS(int, pe_js_text_check_requested, (), {
  var v = Module.peViz.textCheckWanted;
  Module.peViz.textCheckWanted = false;
  return v ? 1 : 0;
});
EM_JS(char*, pe_js_take_weights_request, (), {
  var v = Module.peViz.weightsWanted;
  Module.peViz.weightsWanted = null;
  return v ? allocateUTF8(v) : 0;
});
EM_JS(void, pe_js_report_text_check, (const char* json), { Module.peViz.textChecked(UTF8ToString(json)); });
EM_JS(void, pe_js_toggle_fullscreen, (), {
  if (document.fullscreenElement) { document.exitFullscreen(); }
  else if (document.documentElement.requestFullscreen) { document.documentElement.requestFullscreen().catch(function() {}); }
});
EM_JS(char*, pe_js_clipboard, (), { return allocateUTF8(Module.peViz.clipboard || ""); });
EM_JS(int, pe_js_fullscreen, (), { return document.fullscreenElement ? 1 : 0; });
// clang-format on

namespace app {
namespace {

std::string take_js_string(char* text) {
  if (!text) return {};
  std::string out(text);
  std::free(text);
  return out;
}

constexpr const char* kSessionKey = "pe-viz.last-session";

// The Hugging Face cache of a page: a folder in its in-memory file system (set before anything
// reads the environment: huggingface_hub's HF_HUB_CACHE is what pe::hf_hub_cache_dir reads).
const bool g_cache_set = [] {
  setenv("HF_HUB_CACHE", "/huggingface/hub", 0);
  return true;
}();
constexpr const char* kDesktopSteps =
    "the desktop app (Debian/Ubuntu: clone the repository and run scripts/run.sh, which installs what is "
    "missing, builds and opens it; see the README)";

}  // namespace

namespace page {

float device_pixel_ratio() { return std::clamp(float(pe_js_pixel_ratio()), 0.5f, 4.0f); }

void fit_canvas(GLFWwindow* window) {
  const float ratio = device_pixel_ratio();
  const int w = std::max(1, int(float(pe_js_canvas_css_width()) * ratio + 0.5f));
  const int h = std::max(1, int(float(pe_js_canvas_css_height()) * ratio + 0.5f));
  int current_w = 0, current_h = 0;
  glfwGetWindowSize(window, &current_w, &current_h);
  if (w != current_w || h != current_h) glfwSetWindowSize(window, w, h);
}

bool take_input() { return pe_js_take_input() != 0; }

void apply_touch(ImGuiIO& io) {
  float xy[2] = {0, 0};
  const int mode = pe_js_take_touch(xy);
  if (mode == 0) return;  // the mouse's, as GLFW read it
  io.MousePos = mode == 3 ? ImVec2(-FLT_MAX, -FLT_MAX) : ImVec2(xy[0], xy[1]);
  io.MouseDown[0] = mode == 2;
  // ImGui's defaults (6 pixels) are a mouse's; a finger wobbles by a few logical pixels.
  const float ratio = device_pixel_ratio();
  io.MouseDoubleClickMaxDist = 12.0f * ratio;
  io.MouseDragThreshold = 8.0f * ratio;
}
void toggle_fullscreen() { pe_js_toggle_fullscreen(); }
bool fullscreen() { return pe_js_fullscreen() != 0; }

void install_clipboard(ImGuiIO& io) {
  io.SetClipboardTextFn = [](void*, const char* text) { pe_js_copy_text(text); };
  io.GetClipboardTextFn = [](void*) -> const char* {
    static std::string pasted;
    pasted = take_js_string(pe_js_clipboard());
    return pasted.c_str();
  };
  io.ClipboardUserData = nullptr;
}

}  // namespace page

namespace host {

const Capabilities& capabilities() {
  static const Capabilities page{.file_paths = false,
                                 .video_export = false,
                                 .model_cache = false,
                                 .hub_models = true,
                                 .quit = false,
                                 .page_url = true,
                                 .persistent_runtime = true};
  return page;
}

std::string video_export_unavailable() {
  return std::string("Video export (MP4, WebM, GIF) needs FFmpeg, which a browser page does not have: use ") +
         kDesktopSteps + ". Here, File → Export PNG downloads a still at any size.";
}

std::string model_cache_unavailable() {
  return "A page cannot read the Hugging Face cache on your disk: drop the model's config.json, .gguf or "
         "config.json with model.safetensors onto the page, or pick them with File → Open model files….";
}

std::string folder_export_unavailable() {
  return std::string("Writing every view into a folder of slides needs ") + kDesktopSteps +
         " (pe-viz export --all DIR). Here each view downloads as one PNG.";
}

namespace {
std::function<bool()>* g_frame = nullptr;
void run_frame(void*) {
  if (!(*g_frame)()) emscripten_cancel_main_loop();
}
}  // namespace

bool run_main_loop(std::function<bool()> frame) {
  // Kept for the page's lifetime: the browser calls it once per animation frame.
  g_frame = new std::function<bool()>(std::move(frame));
  emscripten_set_main_loop_arg(run_frame, nullptr, 0, 0);
  return false;
}

std::optional<std::string> url_fragment() { return take_js_string(pe_js_fragment()); }
void replace_url_fragment(const std::string& fragment) { pe_js_replace_fragment(fragment.c_str()); }
std::string link_with_fragment(const std::string& fragment) { return take_js_string(pe_js_link(fragment.c_str())); }

std::optional<std::string> take_new_url_fragment() {
  if (!pe_js_take_hash_change()) return std::nullopt;
  return url_fragment();
}

void copy_text(const std::string& text) { pe_js_copy_text(text.c_str()); }

void offer_download(const std::string& file_name, std::span<const unsigned char> bytes, const std::string& mime_type) {
  pe_js_download(file_name.c_str(), bytes.data(), int(bytes.size()), mime_type.c_str());
}

void pick_files(const std::string& accept, const std::string& purpose) { pe_js_pick_files(accept.c_str(), purpose.c_str()); }

std::vector<PickedFile> take_picked_files() {
  const std::string text = take_js_string(pe_js_take_picked());
  std::vector<PickedFile> files;
  std::size_t start = 0;
  while (start < text.size()) {
    const std::size_t end = text.find('\n', start);
    const std::string line = text.substr(start, end - start);
    const std::size_t tab = line.find('\t');
    if (tab != std::string::npos) files.push_back({line.substr(tab + 1), line.substr(0, tab)});
    if (end == std::string::npos) break;
    start = end + 1;
  }
  return files;
}

std::unique_ptr<pe::HttpTransport> make_http_transport() { return std::make_unique<FetchTransport>(); }

pe::HubSettings hub_settings() {
  pe::HubSettings s;
  // The endpoint the page was given (index.html: peViz.hubEndpoint, or ?hf_endpoint=… for a
  // Hub on this computer); the public Hub otherwise.
  s.endpoint = take_js_string(pe_js_hub_endpoint());
  while (!s.endpoint.empty() && s.endpoint.back() == '/') s.endpoint.pop_back();
  if (s.endpoint.empty()) s.endpoint = pe::kHubDefaultEndpoint;
  s.token = take_js_string(pe_js_hub_token());
  s.token_source = "the page's token field";
  s.token_advice = "type it into the Hub token field under Model (left panel) and press Enter";
  s.offline = false;  // a page has no cache of its own to fall back on
  // config.json is kept in the page's memory, in huggingface_hub's layout, for the session;
  // ranges are not kept (they would hold the q/k bytes in the tab's memory).
  s.hf_cache = pe::hf_hub_cache_dir();
  s.user_agent = std::string("pe-viz/") + PE_VIZ_VERSION;  // not sent: the browser's own is
  s.parallel = 4;
  return s;
}

void set_hub_token(const std::string& token, bool keep) { pe_js_set_hub_token(token.c_str(), keep ? 1 : 0); }

std::shared_ptr<pe::RangedFile> page_file(const std::string& name) { return held_page_file(name); }
std::unique_ptr<pe::RangeLoader> make_page_file_loader() { return make_held_file_loader(); }

std::optional<std::string> published_lesson() {
  char* path = pe_js_published_lesson();
  if (!path) return std::nullopt;
  return take_js_string(path);
}

std::optional<std::string> read_saved_session() {
  char* text = pe_js_storage_get(kSessionKey);
  if (!text) return std::nullopt;
  return take_js_string(text);
}

void write_saved_session(const std::string& json) {
  if (!pe_js_storage_set(kSessionKey, json.c_str()))
    throw std::runtime_error("the browser's local storage refused the session (full, or storage is off for this page)");
}

void log_line(const std::string& text) { pe_js_log(text.c_str()); }
void first_frame_shown() { pe_js_first_frame(); }
bool touch_screen() { return pe_js_touch_screen() != 0; }
bool text_check_requested() { return pe_js_text_check_requested() != 0; }
void report_text_check(const std::string& json) { pe_js_report_text_check(json.c_str()); }
std::optional<std::string> take_weights_request() {
  char* name = pe_js_take_weights_request();
  if (!name) return std::nullopt;
  return take_js_string(name);
}

}  // namespace host
}  // namespace app
