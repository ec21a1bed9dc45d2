#include "cli/soak_driver.hpp"

#include <epoxy/gl.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include <algorithm>
#include <chrono>
#include <climits>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "pe/models/config.hpp"
#include "pe/scaling/scaling.hpp"
#include "render/gl_errors.hpp"
#include "ui/file_actions.hpp"
#include "views/view.hpp"

namespace app {
namespace {

// Frames each view is selected for within one period (the last few show the grid).
long long slot_frames() {
  const long long n = static_cast<long long>(all_views().size());
  return std::clamp<long long>(1000 / std::max<long long>(n, 1), 10, 50);
}

// 0 → 1 → 0 over u in [0, 1): a slider dragged up and back down.
double triangle(double u) {
  u -= std::floor(u);
  return u < 0.5 ? 2 * u : 2 - 2 * u;
}

// Log-scale value between lo and hi at fraction t.
double log_sweep(double lo, double hi, double t) { return std::exp(std::log(lo) + (std::log(hi) - std::log(lo)) * t); }

long long log_sweep_int(long long lo, long long hi, double t) {
  return std::clamp<long long>(std::llround(log_sweep(double(lo), double(hi), t)), lo, hi);
}

// The views' dimension range: the panel's slider (2 ... 1024) plus the views' maximum.
constexpr long long kDims[] = {2, 4, 6, 8, 16, 64, 128, 512, 1024, kMaxViewDim};

const std::vector<pe::PresetInfo>& presets() {
  static const std::vector<pe::PresetInfo> list = pe::list_presets();
  return list;
}

std::vector<std::string> view_names(bool with_compare) {
  std::vector<std::string> out;
  for (const auto& v : all_views())
    if (with_compare || !v.hosts_views) out.emplace_back(v.name);
  return out;
}

// What the panel's d slider does, plus dropping LongRoPE factor lists of another size
// (a user would pick another scaling; the driver keeps the state valid).
void set_dim(pe::RopeConfig& rope, long long dim) {
  rope.head_dim = std::max<long long>(2, dim - dim % 2);
  // A preset's partial rotary (GLM-4.5's 0.5) leaves no pair at d = 2: the whole head rotates.
  if (rope.rotary_dim() < 2) rope.partial_rotary_factor = 1.0;
  auto& sc = rope.scaling;
  if (static_cast<long long>(sc.short_factor.size()) != rope.rotary_dim() / 2) {
    sc.short_factor.clear();
    sc.long_factor.clear();
    if (sc.type == pe::RopeType::LongRope) sc.type = pe::RopeType::Default;
  }
}

// The panel's scaling combo: LongRoPE only when the factor lists exist; NTK needs 4 dims.
void set_scaling(pe::RopeConfig& rope, pe::RopeType t, double factor) {
  if (t == pe::RopeType::LongRope && (rope.scaling.short_factor.empty() || rope.scaling.long_factor.empty())) return;
  if ((t == pe::RopeType::NtkAware || t == pe::RopeType::Dynamic) && rope.rotary_dim() < 4) return;
  const pe::RopeType before = rope.scaling.type;
  rope.scaling.type = t;
  // Proportional keeps int(p·d // 2) pairs: none at d = 2 with p = 0.5.
  if (t == pe::RopeType::Proportional && rope.rotating_pairs() < 1) {
    rope.scaling.type = before;
    return;
  }
  rope.scaling.factor = std::max(1.0, factor);
}

// After d or the rotary fraction moved: NTK's exponent d/(d−2) needs 4 rotating dims.
void keep_scaling_valid(pe::RopeConfig& rope) {
  const auto t = rope.scaling.type;
  if ((t == pe::RopeType::NtkAware || t == pe::RopeType::Dynamic) && rope.rotary_dim() < 4) rope.scaling.type = pe::RopeType::Default;
  if (t == pe::RopeType::Proportional && rope.rotating_pairs() < 1) rope.scaling.type = pe::RopeType::Default;
  // Leaving proportional (which spans the whole head) can leave a partial head with no pair.
  if (rope.rotary_dim() < 2) rope.partial_rotary_factor = 1.0;
}

}  // namespace

long long soak_period() { return slot_frames() * static_cast<long long>(all_views().size()); }

void drive_controls(AppState& s, long long f, long long max_dim) {
  const long long slot = slot_frames();
  const long long period = soak_period();
  const long long k = f % period;          // frame within the period
  const long long view_index = k / slot;   // which view is selected
  const long long j = k % slot;            // frame within the view's slot
  const double u = double(j) / double(slot);
  const auto all = view_names(true);
  const auto inner = view_names(false);
  const auto types = pe::all_rope_types();

  // Preset combo at the start of each view's slot; the sliders take over from there.
  if (j == 0) {
    apply_preset(s, presets()[std::size_t(view_index) % presets().size()].key);
    s.vector.clear();
  }
  s.view = all[std::size_t(view_index)];
  // The last frames of each slot show the grid of four views, rotated through all views.
  s.grid = j >= slot - std::max<long long>(slot / 5, 2);
  for (std::size_t c = 0; c < 4; ++c) s.grid_views[c] = inner[(std::size_t(view_index) + c * 5) % inner.size()];
  s.show_panel = !(j >= slot / 2 && j < slot / 2 + 3);  // F2

  // Encoding: θ dragged up and down once per slot, d stepped, L swept over its range.
  s.rope.theta = log_sweep(2.0, 1e7, triangle(u));
  s.preset.clear();
  const long long dim = std::min(max_dim, kDims[std::size_t((k / 5) % std::size(kDims))]);
  if (dim != s.rope.head_dim) {
    set_dim(s.rope, dim);
    s.vector.clear();
  }
  s.rope.partial_rotary_factor = 1.0;
  if ((k / 13) % 3 == 1) s.rope.partial_rotary_factor = 0.5;
  if ((k / 13) % 3 == 2) s.rope.partial_rotary_factor = 0.25;
  if (s.rope.rotary_dim() < 2 || !s.rope.scaling.short_factor.empty()) s.rope.partial_rotary_factor = 1.0;
  set_scaling(s.rope, types[std::size_t((k / 7) % types.size())], log_sweep(1.0, 64.0, triangle(2 * u)));
  keep_scaling_valid(s.rope);
  s.rope.convention = (k / 11) % 2 ? pe::PairConvention::HalfSplit : pe::PairConvention::Interleaved;
  s.length = log_sweep_int(1, 1'000'000, triangle(2 * u + 0.25));
  // Selection (sliders clamp to the current ranges).
  s.position = std::llround(triangle(7 * u) * double(s.length - 1));
  s.anchor = std::llround(triangle(5 * u) * double(s.length - 1));
  s.pair = std::llround(triangle(3 * u) * double(std::max<long long>(s.rope.rotary_dim() / 2 - 1, 0)));
  s.seed = std::uint64_t(k / 17);
  // View widgets.
  s.samples = log_sweep_int(1, 1024, triangle(4 * u));
  s.heads = log_sweep_int(1, 128, triangle(3 * u + 0.5));
  s.head = 1 + k % s.heads;
  s.learned_max_len = log_sweep_int(1, kMaxLearnedLen, triangle(2 * u + 0.5));
  s.delta_axis = (k / 3) % 3 == 0 ? "auto" : (k / 3) % 3 == 1 ? "linear" : "log";
  s.mirrored_rotation = (k / 37) % 2 == 1;
  s.playing = (k / 43) % 2 == 1;
  s.play_speed = log_sweep(0.1, 50.0, triangle(u));
  for (std::size_t n = 0; n < types.size(); ++n) {
    const pe::RopeType t = types[(std::size_t(k / 41) + n) % types.size()];
    if (t != pe::RopeType::Default && t != pe::RopeType::LongRope && t != pe::RopeType::Proportional) {
      s.extrapolation_method = t;
      break;
    }
  }
  // Compare A/B: B's own sliders, and the inner view changes every frame.
  s.compare_view = inner[std::size_t(k) % inner.size()];
  s.compare_b.theta = log_sweep(2.0, 1e7, 1.0 - triangle(u));
  set_dim(s.compare_b, std::min(max_dim, kDims[std::size_t((k / 7 + 3) % std::size(kDims))]));
  set_scaling(s.compare_b, types[std::size_t((k / 9) % types.size())], log_sweep(1.0, 64.0, triangle(u)));
  keep_scaling_valid(s.compare_b);
  s.compare_b_preset.clear();
  // Teaching views.
  const std::size_t wd = std::size_t(2 + 2 * ((k / 3) % (kMaxWalkthroughDim / 2)));
  s.walkthrough_q.resize(wd);
  for (std::size_t i = 0; i < wd; ++i) s.walkthrough_q[i] = std::sin(double(k + 3 * i));
  s.walkthrough_theta = log_sweep(2.0, 1e7, triangle(u + 0.3));
  s.walkthrough_position = std::llround(log_sweep(1.0, 1e9, triangle(u))) - 1;
  s.walkthrough_position_b = (k * 7919) % 1'000'000'000;
  s.walkthrough_step = k % kWalkthroughSteps;
  static const char* const kWords[] = {"the", "dog", "bit", "man", "a", "cat", "saw", "who", "ran", "far"};
  const long long words = 1 + (k % kMaxTokens);
  s.tokens.clear();
  s.tokens_b.clear();
  for (long long w = 0; w < words; ++w) {
    s.tokens += std::string(w ? " " : "") + kWords[(k + w) % std::size(kWords)];
    s.tokens_b += std::string(w ? " " : "") + kWords[(k + 3 * w) % std::size(kWords)];
  }
  s.theta_low = log_sweep(2.0, 1e4, triangle(u));
  s.theta_high = log_sweep(1e4, 1e7, triangle(u));
  s.mistake = (k / 47) % 2 ? "interleaved-cache" : "half-split-cache";
  // Multimodal views: every scheme, explicit and config sections, prompts from one token
  // to ~25k, both merge sizes, both get_rope_index rules, grids up to the scored maximum.
  static const char* const kSchemes[] = {"auto", "mrope", "mrope-interleaved", "vision-2d", "axial"};
  static const char* const kPrompts[] = {"text:1", "text:4,image:1x8x12,text:3,video:4x8x8,text:2",
                                         "image:1x64x64,text:8,image:1x2x2", "text:16,video:8x64x64,text:4",
                                         "video:2x2x2,video:4x4x4,text:1"};
  static const char* const kQk[] = {"identical", "random", "mean-identical", "mean-random"};
  s.scheme = kSchemes[std::size_t(k / 3) % std::size(kSchemes)];
  const long long pairs = s.rope.rotary_dim() / 2;
  if ((k / 17) % 2 == 1 && pairs >= 3) {
    const long long t = pairs / 4, h = (pairs - t) / 2;
    s.sections = {t, h, pairs - t - h};
  } else {
    s.sections.clear();
  }
  s.prompt = kPrompts[std::size_t(k / 5) % std::size(kPrompts)];
  s.merge_size = (k / 7) % 2 ? 1 : 2;
  s.sample_fps = log_sweep(0.25, 30.0, triangle(u));
  s.rope_index = (k / 19) % 2 ? "transformers-5" : "transformers-4";
  s.prompt_token = std::llround(triangle(9 * u) * double(prompt_tokens(s.prompt, s.merge_size) - 1));
  const long long side = log_sweep_int(1, 512, triangle(2 * u + 0.1));
  s.grid_rows = side;
  s.grid_cols = std::max<long long>(1, side / (1 + (k / 11) % 3));
  s.patch_row = std::llround(triangle(5 * u) * double(s.grid_rows - 1));
  s.patch_col = std::llround(triangle(7 * u) * double(s.grid_cols - 1));
  s.qk = kQk[std::size_t(k / 13) % std::size(kQk)];
  // Display.
  s.colormap = ColormapChoice((k / 19) % 3);
  s.pixel_mean = (k / 31) % 2 == 0;
  s.dark_theme = (k / 23) % 2 == 0;
  s.line_width = float(1.0 + 3.0 * triangle(3 * u));
  s.show_formula = (k / 29) % 2 == 0;
  s.show_help = k % 97 < 3;  // F1 overlay, briefly
  // UI scale rebuilds the font atlas: a new step each slot, not each frame.
  static constexpr float kScales[] = {1.0f, 1.5f, 2.0f, 3.0f, 1.25f, 1.0f};
  s.ui_scale = kScales[std::size_t(view_index) % std::size(kScales)];
}

void fix_malloc_mmap_threshold() {
#ifdef __GLIBC__
  mallopt(M_MMAP_THRESHOLD, 1 << 20);
  // Fixing the mmap threshold also freezes the trim threshold at its 128 KiB start (glibc
  // raises the two together, trim = 2 × mmap): the top of the heap was then handed back and
  // taken again every frame, ~300 page faults a frame for sinusoidal at L = 1e6, d = 1024
  // (bench --draw-costs' frames, perf stat -e page-faults). Twice the mmap threshold, as
  // glibc's own rule would set it.
  mallopt(M_TRIM_THRESHOLD, 2 << 20);
#endif
}

MemoryStatus read_memory_status() {
  MemoryStatus m;
  std::FILE* f = std::fopen("/proc/self/status", "r");
  if (!f) return m;
  char line[256];
  while (std::fgets(line, sizeof line, f)) {
    long long v = 0;
    if (std::sscanf(line, "VmRSS: %lld", &v) == 1) m.rss_kib = v;
    if (std::sscanf(line, "VmHWM: %lld", &v) == 1) m.hwm_kib = v;
  }
  std::fclose(f);
  return m;
}

double SoakResult::growth_percent(long long baseline_frame, bool floor) const {
  const SoakCheckpoint* base = nullptr;
  for (const auto& c : checkpoints)
    if (c.frame == baseline_frame) base = &c;
  auto rss = [&](const SoakCheckpoint& c) { return floor ? c.rss_floor_kib : c.memory.rss_kib; };
  if (!base || checkpoints.empty() || rss(*base) <= 0) return 0.0;
  return 100.0 * double(rss(checkpoints.back()) - rss(*base)) / double(rss(*base));
}

SoakResult run_soak(AppSession& session, const SoakOptions& options, std::FILE* progress) {
  SoakResult result;
  StatusLine status;  // non-null status: the interactive frame with its menu bar
  const auto start = std::chrono::steady_clock::now();
  render::drain_gl_errors();
  long long last_rss = read_memory_status().rss_kib;
  long long rss_floor = LLONG_MAX;
  for (long long f = 0; f < options.frames; ++f) {
    AppState& s = session.state();
    drive_controls(s, f, options.max_dim);
    if (const std::string invalid = validate_state(s); !invalid.empty()) {
      if (result.invalid_states++ == 0) result.first_invalid = "frame " + std::to_string(f) + ": " + invalid;
    }
    FrameOptions frame_options;
    frame_options.status = &status;
    const auto frame_start = std::chrono::steady_clock::now();
    session.frame(double(f) / 60.0, frame_options);
    if (options.swap) session.window().swap();
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - frame_start).count();
    for (const auto& e : render::drain_gl_errors()) {
      ++result.gl_errors;
      if (result.first_errors.size() < 10)
        result.first_errors.push_back("frame " + std::to_string(f) + ", view " + s.view + (s.grid ? " (grid)" : "") + ": " + e);
    }
    const long long rss = read_memory_status().rss_kib;
    const std::string shown = s.grid ? "grid" : shown_view_label(s);
    auto vt = std::find_if(result.view_times.begin(), result.view_times.end(), [&](const auto& v) { return v.view == shown; });
    if (vt == result.view_times.end()) vt = result.view_times.insert(result.view_times.end(), {shown});
    ++vt->frames;
    vt->total_ms += ms;
    if (ms > vt->max_ms) {
      vt->max_ms = ms;
      vt->slowest = "frame " + std::to_string(f) + " d=" + std::to_string(s.rope.head_dim) + " L=" + std::to_string(s.length) +
                    " B d=" + std::to_string(s.compare_b.head_dim) + " max_len=" + std::to_string(s.learned_max_len) +
                    " samples=" + std::to_string(s.samples) + (s.grid ? " grid " + s.grid_views[0] + "," + s.grid_views[1] + "," +
                    s.grid_views[2] + "," + s.grid_views[3] : "");
    }
    if (rss - last_rss > 1024) {
      auto& jumps = result.largest_jumps;
      const std::string what = (s.grid ? "grid with " + s.grid_views[0] + "," + s.grid_views[1] + "," + s.grid_views[2] + "," +
                                             s.grid_views[3]
                                       : shown_view_label(s)) +
                               " d=" + std::to_string(s.rope.head_dim) + " L=" + std::to_string(s.length) +
                               " max_len=" + std::to_string(s.learned_max_len) + " B d=" + std::to_string(s.compare_b.head_dim);
      jumps.push_back({rss - last_rss, f, what});
      std::sort(jumps.begin(), jumps.end(), [](const auto& a, const auto& b) { return a.kib > b.kib; });
      if (jumps.size() > 8) jumps.resize(8);
    }
    last_rss = rss;
    const long long done = f + 1;
    const long long window = std::min<long long>(options.report_every, 100);
    if (done % options.report_every > options.report_every - window || done % options.report_every == 0)
      rss_floor = std::min(rss_floor, rss);
    if (done % options.report_every == 0 || done == options.frames) {
      glFinish();
      SoakCheckpoint c{done, read_memory_status(), std::min(rss_floor, rss),
                       std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count()};
      result.checkpoints.push_back(c);
      rss_floor = LLONG_MAX;
      if (progress) {
        std::fprintf(progress, "frame %7lld: VmRSS %8.1f MiB (floor of the last %lld frames %8.1f MiB)  VmHWM %8.1f MiB  %7.1f s  GL errors %llu\n",
                     c.frame, double(c.memory.rss_kib) / 1024.0, window, double(c.rss_floor_kib) / 1024.0,
                     double(c.memory.hwm_kib) / 1024.0, c.seconds, static_cast<unsigned long long>(result.gl_errors));
        std::fflush(progress);
      }
    }
  }
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

}  // namespace app
