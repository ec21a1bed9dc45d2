#pragma once
// What the place pe-viz runs in offers around its window: a desktop process (files read and
// written by path, a config folder, a process that ends) or a browser page (a URL, downloads,
// a file picker, the page's local storage, a title). The GL context and the window are
// platform/window.hpp's; this is the rest of the platform. Code above asks what is possible
// (capabilities()) and uses these calls; it never asks which of the two it runs in.
//
// Implemented by platform/desktop/host.cpp and platform/web/host.cpp (one is built).
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "pe/hub/hub_settings.hpp"
#include "pe/hub/http_transport.hpp"
#include "pe/weights/ranged_file.hpp"

namespace app::host {

struct Capabilities {
  bool file_paths = true;    // files are read and written by path (else: downloads and a file picker)
  bool video_export = true;  // FFmpeg's encoders (File → Record animation…, export to .mp4/.webm/.gif)
  bool model_cache = true;   // the Hugging Face hub cache on this machine (--model ORG/NAME)
  bool hub_models = true;    // models by name (ORG/NAME) fetched from the Hugging Face Hub
  bool quit = true;          // the app can end itself (a page is closed by its reader)
  bool page_url = false;     // a URL whose fragment (#view=…&theta=…) carries the state
  bool persistent_runtime = false;  // the program keeps running after main() returns (a page)
};
const Capabilities& capabilities();

// What the user is told where a missing capability would be (a menu item, the Model field):
// what does not work here, and how to get it (the desktop app's install steps).
std::string video_export_unavailable();
std::string model_cache_unavailable();
std::string folder_export_unavailable();

// Runs `frame` until it returns false. On the desktop it returns then, true. A page draws
// when the browser asks (one call per animation frame) and never ends: there it returns at
// once, false, with `frame` kept and called from then on; whatever `frame` uses must not
// live on the caller's stack.
bool run_main_loop(std::function<bool()> frame);

// ---- a page's URL (capabilities().page_url; elsewhere empty / no-ops)
// The fragment without '#', percent-decoding left to the reader (url_fragment.hpp); nullopt
// without a URL, "" for none.
std::optional<std::string> url_fragment();
// Replaces the fragment in place: no history entry, no reload.
void replace_url_fragment(const std::string& fragment);
// The page's address with this fragment, as a link to give to someone.
std::string link_with_fragment(const std::string& fragment);
// The fragment, when the reader changed it since the last call (typed or pasted into the
// address bar of the open page; not replace_url_fragment's own changes).
std::optional<std::string> take_new_url_fragment();

// ---- moving data in and out
// The system clipboard (ImGui's clipboard in a window; the browser's in a page).
void copy_text(const std::string& text);
// A page: the browser saves `bytes` as a download named `file_name`. Desktop: not used
// (files are written by path); throws std::logic_error.
void offer_download(const std::string& file_name, std::span<const unsigned char> bytes, const std::string& mime_type);
// A page: opens the browser's file dialog for files matching `accept` (".json,.gguf"); the
// chosen files arrive later through take_picked_files(), tagged with `purpose`. Files dropped
// onto a page arrive there too, tagged "drop".
void pick_files(const std::string& accept, const std::string& purpose);
struct PickedFile {
  std::string path;     // where the file's bytes now are (the page's in-memory file system)
  std::string purpose;  // as given to pick_files
};
std::vector<PickedFile> take_picked_files();

// ---- the Hugging Face Hub (pe/hub) and files read in place
// An HTTP client for the Hub: libcurl on the desktop (transfers run on a thread of their own),
// fetch() in a page (a single Range header and no other unless a token is given: no CORS
// preflight).
std::unique_ptr<pe::HttpTransport> make_http_transport();
// How to reach the Hub: on the desktop from the environment as huggingface_hub reads it
// (HF_ENDPOINT, HF_TOKEN …, HF_HUB_OFFLINE, the caches); in a page the endpoint the page was
// given and the token typed into it (kept in memory only, unless the reader asks to keep it).
pe::HubSettings hub_settings();
// A page's token for the Hub: `keep` stores it in the page's local storage (else it lives
// until the page is closed). Desktop: the environment's is used; these do nothing.
void set_hub_token(const std::string& token, bool keep);
// Files a page holds in place — dropped or picked weights, read in ranges through File.slice,
// never copied whole: a ranged file for `name` (nullptr when it is not one of them), and the
// loader of their ranges. Desktop: files have paths; nullptr.
std::shared_ptr<pe::RangedFile> page_file(const std::string& name);
std::unique_ptr<pe::RangeLoader> make_page_file_loader();

// A lesson the page was published with (`pe-viz export --lesson NAME DIR --interactive`):
// where its Markdown is in the page's file system. nullopt elsewhere.
std::optional<std::string> published_lesson();

// ---- the session kept between runs: a file in the config folder on the desktop, the
// page's local storage in a browser. Empty / nothing when there is none.
std::optional<std::string> read_saved_session();
// Throws std::runtime_error naming where it failed.
void write_saved_session(const std::string& json);

// ---- bits of the page around the canvas
// Log a line where a developer looks: the browser's console (stderr on the desktop).
void log_line(const std::string& text);
// Removes the page's "loading" cover once the first frame is on screen (desktop: nothing).
void first_frame_shown();
// The reader has a touch screen: a page on a phone or tablet (a coarse pointer), or one
// touched since it opened. The desktop app: false (a touch screen there acts as a mouse).
bool touch_screen();

// ---- a page's test hook (the browser tests): whether the page asked for a report of the
// text cut in the last frame, and the report (JSON) for it to read. Desktop: never / nothing.
bool text_check_requested();
void report_text_check(const std::string& json);
// The browser tests' "read these weights" (peViz.readWeights(name): a Hub model's name or a
// file the page holds), as the frequency-usage view's Open would. Desktop: never.
std::optional<std::string> take_weights_request();

}  // namespace app::host
