#pragma once
// Shared helpers for the app-level GUI tests (app_*, export_*, session_*, cli_*, dump_*):
//  - one hidden AppSession per test process (GL context creation is slow on llvmpipe);
//  - images: pixel access, blankness measures, differences, 4×4 box downsampling;
//  - PNG files: IHDR size read by hand, pixels decoded with stb_image (an independent
//    decoder: the app writes with stb_image_write);
//  - colours that the maths fixes, as published by ColorBrewer (not read from the app);
//  - running the pe-viz binary with captured stdout, stderr and exit status.
// Header-only; each test executable includes it once.
#include <gtest/gtest.h>
#include <imgui.h>
#include <stb/stb_image.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <iterator>
#include <memory>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "ui/app_session.hpp"
#include "plot/plot.hpp"
#include "render/gl_errors.hpp"
#include "state/app_state.hpp"

namespace pe_test {

namespace fs = std::filesystem;

// ---- Colours ------------------------------------------------------------------------

struct Rgb {
  int r = 0, g = 0, b = 0;
  friend bool operator==(const Rgb&, const Rgb&) = default;
};

inline std::ostream& operator<<(std::ostream& os, const Rgb& c) {
  return os << "rgb(" << c.r << ", " << c.g << ", " << c.b << ")";
}

inline Rgb rgb_of(ImU32 u) {
  return {int(u >> IM_COL32_R_SHIFT & 0xff), int(u >> IM_COL32_G_SHIFT & 0xff), int(u >> IM_COL32_B_SHIFT & 0xff)};
}

inline int channel_distance(Rgb a, Rgb b) {
  return std::max({std::abs(a.r - b.r), std::abs(a.g - b.g), std::abs(a.b - b.b)});
}

// ColorBrewer RdBu, 11 classes (colorbrewer2.org): the ends and the middle of the
// diverging scheme. The app maps value −1 → t = 0 (dark red), +1 → t = 1 (dark blue).
inline constexpr Rgb kRdBuPlusOne{0x05, 0x30, 0x61};   // #053061
inline constexpr Rgb kRdBuMiddle{0xf7, 0xf7, 0xf7};    // #f7f7f7
inline constexpr Rgb kRdBuMinusOne{0x67, 0x00, 0x1f};  // #67001f
// Heatmap colours go through the colormap table on the GPU and 8-bit framebuffers:
// the readback test allows 3 per channel; a little more here for blended edges.
inline constexpr int kColourTolerance = 4;

// ---- Images -------------------------------------------------------------------------

struct Image {
  int width = 0, height = 0;
  std::vector<unsigned char> rgba;  // top-down rows

  Image() = default;
  Image(int w, int h, std::vector<unsigned char> px) : width(w), height(h), rgba(std::move(px)) {}
  Rgb at(int x, int y) const {
    const unsigned char* p = &rgba[(std::size_t(y) * width + x) * 4];
    return {p[0], p[1], p[2]};
  }
  int alpha(int x, int y) const { return rgba[(std::size_t(y) * width + x) * 4 + 3]; }
  bool valid() const { return width > 0 && height > 0 && rgba.size() == std::size_t(width) * height * 4; }
};

struct Rect {
  int x0 = 0, y0 = 0, x1 = 0, y1 = 0;  // [x0, x1) × [y0, y1)
  int width() const { return x1 - x0; }
  int height() const { return y1 - y0; }
};

inline Rect whole(const Image& im) { return {0, 0, im.width, im.height}; }

inline std::size_t distinct_colours(const Image& im, Rect r) {
  std::set<std::uint32_t> seen;
  for (int y = r.y0; y < r.y1; ++y)
    for (int x = r.x0; x < r.x1; ++x) {
      const Rgb c = im.at(x, y);
      seen.insert(std::uint32_t(c.r) << 16 | std::uint32_t(c.g) << 8 | std::uint32_t(c.b));
    }
  return seen.size();
}

// Standard deviation of luma (Rec. 601 weights) over the region.
inline double luma_stddev(const Image& im, Rect r) {
  double sum = 0, sum2 = 0;
  const double n = double(r.width()) * r.height();
  for (int y = r.y0; y < r.y1; ++y)
    for (int x = r.x0; x < r.x1; ++x) {
      const Rgb c = im.at(x, y);
      const double l = 0.299 * c.r + 0.587 * c.g + 0.114 * c.b;
      sum += l, sum2 += l * l;
    }
  const double mean = sum / n;
  return std::sqrt(std::max(0.0, sum2 / n - mean * mean));
}

// Fraction of the region's pixels that are not the region's most common colour.
inline double non_background_fraction(const Image& im, Rect r) {
  std::vector<std::uint32_t> all;
  all.reserve(std::size_t(r.width()) * r.height());
  for (int y = r.y0; y < r.y1; ++y)
    for (int x = r.x0; x < r.x1; ++x) {
      const Rgb c = im.at(x, y);
      all.push_back(std::uint32_t(c.r) << 16 | std::uint32_t(c.g) << 8 | std::uint32_t(c.b));
    }
  std::sort(all.begin(), all.end());
  std::size_t best = 0;
  for (std::size_t i = 0; i < all.size();) {
    std::size_t j = i;
    while (j < all.size() && all[j] == all[i]) ++j;
    best = std::max(best, j - i);
    i = j;
  }
  return all.empty() ? 0.0 : 1.0 - double(best) / double(all.size());
}

// A picture, not a blank or nearly uniform frame: many colours, visible contrast, and a
// good share of the area covered by something other than the background.
inline ::testing::AssertionResult is_not_blank(const Image& im, Rect r) {
  const std::size_t colours = distinct_colours(im, r);
  const double sd = luma_stddev(im, r);
  const double covered = non_background_fraction(im, r);
  if (colours >= 64 && sd >= 12.0 && covered >= 0.05) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "image looks blank: " << colours << " distinct colours (want >= 64), luma stddev "
                                       << sd << " (want >= 12), " << covered * 100
                                       << "% non-background pixels (want >= 5%)";
}

inline std::size_t differing_pixels(const Image& a, const Image& b) {
  if (a.width != b.width || a.height != b.height) return std::size_t(-1);
  std::size_t n = 0;
  for (std::size_t i = 0; i < a.rgba.size(); i += 4)
    if (a.rgba[i] != b.rgba[i] || a.rgba[i + 1] != b.rgba[i + 1] || a.rgba[i + 2] != b.rgba[i + 2]) ++n;
  return n;
}

// 4×4 (factor × factor) box filter; integer means rounded to nearest.
inline Image box_downsample(const Image& im, int factor) {
  Image out(im.width / factor, im.height / factor, {});
  out.rgba.resize(std::size_t(out.width) * out.height * 4);
  const int n = factor * factor;
  for (int y = 0; y < out.height; ++y)
    for (int x = 0; x < out.width; ++x)
      for (int ch = 0; ch < 4; ++ch) {
        int sum = 0;
        for (int dy = 0; dy < factor; ++dy)
          for (int dx = 0; dx < factor; ++dx)
            sum += im.rgba[((std::size_t(y) * factor + dy) * im.width + std::size_t(x) * factor + dx) * 4 + ch];
        out.rgba[(std::size_t(y) * out.width + x) * 4 + ch] = static_cast<unsigned char>((sum + n / 2) / n);
      }
  return out;
}

// Mean absolute difference per RGB channel (0 ... 255) over a region of two same-size images.
inline double mean_abs_difference(const Image& a, const Image& b, Rect r) {
  double sum = 0;
  for (int y = r.y0; y < r.y1; ++y)
    for (int x = r.x0; x < r.x1; ++x) {
      const Rgb p = a.at(x, y), q = b.at(x, y);
      sum += std::abs(p.r - q.r) + std::abs(p.g - q.g) + std::abs(p.b - q.b);
    }
  return sum / (3.0 * r.width() * r.height());
}

// The longest vertical run of pixels within `tol` of `colour` in column x.
struct PixelRun {
  int start = 0, length = 0;
};
inline PixelRun longest_vertical_run(const Image& im, int x, Rgb colour, int tol, Rect r) {
  PixelRun best, cur;
  for (int y = r.y0; y < r.y1; ++y) {
    if (channel_distance(im.at(x, y), colour) <= tol) {
      if (cur.length == 0) cur.start = y;
      ++cur.length;
      if (cur.length > best.length) best = cur;
    } else {
      cur.length = 0;
    }
  }
  return best;
}
inline PixelRun longest_horizontal_run(const Image& im, int y, Rgb colour, int tol, Rect r) {
  PixelRun best, cur;
  for (int x = r.x0; x < r.x1; ++x) {
    if (channel_distance(im.at(x, y), colour) <= tol) {
      if (cur.length == 0) cur.start = x;
      ++cur.length;
      if (cur.length > best.length) best = cur;
    } else {
      cur.length = 0;
    }
  }
  return best;
}

// The leftmost column whose longest run of `colour` is at least `min_run` pixels tall.
struct ColumnHit {
  int x = -1;
  PixelRun run;
};
inline ColumnHit leftmost_column_with_run(const Image& im, Rgb colour, int tol, int min_run, Rect r) {
  for (int x = r.x0; x < r.x1; ++x) {
    const PixelRun run = longest_vertical_run(im, x, colour, tol, r);
    if (run.length >= min_run) return {x, run};
  }
  return {};
}

inline bool write_ppm(const fs::path& path, const Image& im) {  // for looking at failures
  std::ofstream out(path, std::ios::binary);
  out << "P6\n" << im.width << " " << im.height << "\n255\n";
  for (std::size_t i = 0; i < im.rgba.size(); i += 4) out.write(reinterpret_cast<const char*>(&im.rgba[i]), 3);
  return bool(out);
}

// ---- PNG files ----------------------------------------------------------------------

struct PngHeader {
  bool ok = false;
  std::string error;
  std::uint32_t width = 0, height = 0;
  int bit_depth = 0, colour_type = 0;
};

// The 8-byte signature, then the IHDR chunk: length (13), "IHDR", width, height (big
// endian), bit depth, colour type (PNG spec, ISO/IEC 15948 §11.2.2).
inline PngHeader read_png_header(const fs::path& path) {
  PngHeader h;
  std::ifstream in(path, std::ios::binary);
  if (!in) return h.error = "cannot open " + path.string(), h;
  unsigned char b[26] = {};
  in.read(reinterpret_cast<char*>(b), sizeof b);
  if (in.gcount() != sizeof b) return h.error = "shorter than a PNG header", h;
  static const unsigned char sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
  if (!std::equal(sig, sig + 8, b)) return h.error = "no PNG signature", h;
  auto be32 = [&](int at) {
    return std::uint32_t(b[at]) << 24 | std::uint32_t(b[at + 1]) << 16 | std::uint32_t(b[at + 2]) << 8 | b[at + 3];
  };
  if (be32(8) != 13 || std::string(reinterpret_cast<const char*>(b + 12), 4) != "IHDR")
    return h.error = "first chunk is not a 13-byte IHDR", h;
  h.width = be32(16);
  h.height = be32(20);
  h.bit_depth = b[24];
  h.colour_type = b[25];
  h.ok = true;
  return h;
}

inline std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// Decodes to RGBA with stb_image; an invalid Image when the file does not decode.
inline Image decode_png(const fs::path& path) {
  const std::string bytes = read_file(path);
  int w = 0, h = 0, n = 0;
  unsigned char* data = stbi_load_from_memory(reinterpret_cast<const stbi_uc*>(bytes.data()), int(bytes.size()), &w, &h,
                                              &n, 4);
  if (!data) return {};
  Image im(w, h, std::vector<unsigned char>(data, data + std::size_t(w) * h * 4));
  stbi_image_free(data);
  return im;
}

// ---- Temporary directories ------------------------------------------------------------

class TempDir {
 public:
  TempDir() {
    std::string tmpl = (fs::temp_directory_path() / "pe-viz-test-XXXXXX").string();
    if (!mkdtemp(tmpl.data())) throw std::runtime_error("mkdtemp failed");
    path_ = tmpl;
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const fs::path& path() const { return path_; }
  fs::path operator/(const std::string& name) const { return path_ / name; }
  std::vector<std::string> entries() const {
    std::vector<std::string> out;
    for (const auto& e : fs::directory_iterator(path_)) out.push_back(e.path().filename().string());
    std::sort(out.begin(), out.end());
    return out;
  }

 private:
  fs::path path_;
};

// ---- The shared hidden session ----------------------------------------------------------

inline constexpr int kWindowWidth = 1600;
inline constexpr int kWindowHeight = 1000;

// A known, explicit state: the teaching preset and the display settings spelled out, so
// the user's autosave or a changed default never leaks into a test.
inline app::AppState known_state(const std::string& view = "rope-cos") {
  app::AppState s = app::default_state();
  s.view = view;
  s.rope.theta = 10000.0;
  s.rope.head_dim = 64;
  s.length = 128;
  s.position = 1;
  s.pair = 0;
  s.playing = false;
  s.colormap = app::ColormapChoice::RdBu;
  s.pixel_mean = true;
  s.ui_scale = 1.0f;
  s.dark_theme = true;
  return s;
}

struct SharedSession {
  static inline std::unique_ptr<app::AppSession> session;
  static inline std::string error;
};

// Registers (once per process) a global environment that opens the hidden window before
// the first test and closes it after the last.
class SessionEnvironment : public ::testing::Environment {
 public:
  void SetUp() override {
    try {
      SharedSession::session = std::make_unique<app::AppSession>(
          known_state(), app::WindowOptions{.width = kWindowWidth, .height = kWindowHeight, .visible = false,
                                            .title = "pe-viz gui test"});
      SharedSession::session->frame(0.0);  // fonts, shaders, derived results
      render::drain_gl_errors();
    } catch (const std::exception& e) {
      SharedSession::error = e.what();
    }
  }
  void TearDown() override { SharedSession::session.reset(); }
};

inline bool register_session_environment() {
  static const bool once = (::testing::AddGlobalTestEnvironment(new SessionEnvironment), true);
  return once;
}

inline app::AppSession& shared_session() { return *SharedSession::session; }

// Renders `frames` window frames (tab switches settle in the second) and reads the last.
inline Image window_frames(int frames = 3) {
  app::AppSession& s = shared_session();
  for (int f = 0; f < frames; ++f) s.frame(0.0);
  return Image(s.window().framebuffer_width(), s.window().framebuffer_height(), s.read_window_pixels());
}

// Fixture base: gives each test the shared session with a freshly reset known state.
class SessionTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(SharedSession::session) << "no offscreen GL context (EGL, or a hidden window under xvfb-run): "
                                        << SharedSession::error;
    session().state() = known_state();
    render::drain_gl_errors();
  }
  static app::AppSession& session() { return shared_session(); }
};

// ---- CSV ------------------------------------------------------------------------------

// CSV rows of a view's data (comment lines skipped; row 0 is the header): quoted fields
// with "" escapes, no newlines inside fields.
inline std::vector<std::vector<std::string>> parse_csv(const std::string& text) {
  std::vector<std::vector<std::string>> rows;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::vector<std::string> fields(1);
    bool quoted = false;
    for (std::size_t i = 0; i < line.size(); ++i) {
      const char c = line[i];
      if (quoted && c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        fields.back() += '"';
        ++i;
      } else if (c == '"') {
        quoted = !quoted;
      } else if (c == ',' && !quoted) {
        fields.emplace_back();
      } else {
        fields.back() += c;
      }
    }
    rows.push_back(std::move(fields));
  }
  return rows;
}

// Index of the named column of a CSV header (a test failure, and 0, when it is missing).
inline std::size_t column(const std::vector<std::string>& header, const std::string& name) {
  const auto it = std::find(header.begin(), header.end(), name);
  if (it == header.end()) {
    ADD_FAILURE() << "no column " << name;
    return 0;
  }
  return std::size_t(it - header.begin());
}

// ---- Running the binary -----------------------------------------------------------------

struct CommandResult {
  int exit_code = -1;  // -1: did not exit normally
  std::string out, err;
};

inline std::string shell_quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

// Runs PE_VIZ_BINARY with `args` (already quoted where needed), with HOME and
// XDG_CONFIG_HOME pointing into `home` so no user configuration or autosave is touched.
// With `cwd`, runs there.
inline CommandResult run_pe_viz(const std::string& args, const fs::path& home, const fs::path& cwd = {}) {
  const fs::path err_file = home / "stderr.txt";
  const std::string cmd = (cwd.empty() ? std::string() : "cd " + shell_quote(cwd.string()) + " && ") + "HF_HUB_OFFLINE=1 HOME=" + shell_quote(home.string()) + " XDG_CONFIG_HOME=" + shell_quote((home / ".config").string()) +
                          " " + shell_quote(PE_VIZ_BINARY) + " " + args + " 2>" + shell_quote(err_file.string());
  CommandResult r;
  FILE* pipe = popen(cmd.c_str(), "r");
  if (!pipe) return r;
  char buf[4096];
  std::size_t n;
  while ((n = fread(buf, 1, sizeof buf, pipe)) > 0) r.out.append(buf, n);
  const int status = pclose(pipe);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.err = read_file(err_file);
  std::error_code ec;
  fs::remove(err_file, ec);
  return r;
}

inline std::string describe(const CommandResult& r) {
  return "exit " + std::to_string(r.exit_code) + "\n--- stdout ---\n" + r.out.substr(0, 2000) + "\n--- stderr ---\n" +
         r.err.substr(0, 2000);
}

}  // namespace pe_test
