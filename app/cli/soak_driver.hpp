#pragma once
// `pe-viz bench --soak N`: the whole GUI frame (panel, tabs or grid, menu bar) for N frames
// while a scripted driver moves every control through its range, as the panel, the views'
// own widgets and the shortcuts would. Records the process's RSS (VmRSS) and peak RSS
// (VmHWM) at checkpoints and every GL error, to find caches, textures or ImGui state that
// grow with time instead of with what is on screen.
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "ui/app_session.hpp"

namespace app {

// /proc/self/status figures in KiB (0 where unavailable).
struct MemoryStatus {
  long long rss_kib = 0;  // VmRSS: resident now
  long long hwm_kib = 0;  // VmHWM: peak resident
};
MemoryStatus read_memory_status();

// glibc raises its mmap threshold each time a large block is freed, after which big
// transient buffers (font atlases at a new UI scale, tables, texture uploads) come from the
// heap and stay resident: RSS then climbs for minutes before levelling off (~255 MiB vs
// ~130 MiB live in the soak). A fixed 1 MiB threshold hands them back on free (and the
// trim threshold, which glibc would have raised with it, is set to 2 MiB). Called by
// `pe-viz bench` and the soak test; worth calling from main() for the GUI too.
void fix_malloc_mmap_threshold();

struct SoakOptions {
  long long frames = 10000;
  long long report_every = 1000;  // checkpoint interval (frame 1,000 is the baseline)
  bool swap = true;               // present each frame like the GUI loop
  long long max_dim = kMaxViewDim;  // d (A and B) stays at or below this (the panel's slider: 1024)
};

struct SoakCheckpoint {
  long long frame = 0;
  MemoryStatus memory;
  // Lowest VmRSS over the frames since the previous checkpoint (at most 100): views that
  // compute on a worker thread (attention at large d) hold tens of MiB of temporaries while
  // a job runs, so one sample swings with timing; the floor does not, and a leak raises it.
  long long rss_floor_kib = 0;
  double seconds = 0;  // since the soak started
};

struct SoakResult {
  std::vector<SoakCheckpoint> checkpoints;
  std::uint64_t gl_errors = 0;
  std::vector<std::string> first_errors;   // "frame N, view V: GL_..." (at most 10)
  long long invalid_states = 0;            // driver steps validate_state rejected (driver bug)
  std::string first_invalid;
  double seconds = 0;
  // The largest one-frame VmRSS increases, with what was on screen (where memory goes).
  struct Jump {
    long long kib = 0, frame = 0;
    std::string what;
  };
  std::vector<Jump> largest_jumps;  // at most 8, largest first
  // Frame time per view (what.c_str() = view or grid), for finding slow combinations.
  struct ViewTime {
    std::string view;
    long long frames = 0;
    double total_ms = 0, max_ms = 0;
    std::string slowest;  // the state of the slowest frame
  };
  std::vector<ViewTime> view_times;
  // VmRSS at the last checkpoint relative to the one at `baseline_frame` (in %): of the
  // samples at the checkpoints, or of their floors.
  double growth_percent(long long baseline_frame, bool floor = false) const;
};

// The scripted driver: sets state for frame `f` (periodic, so every combination it visits
// has been visited by the end of the first period). Exposed for tests.
void drive_controls(AppState& state, long long f, long long max_dim = kMaxViewDim);
// Frames in one period of drive_controls (every control's full sweep; <= 1000).
long long soak_period();

SoakResult run_soak(AppSession& session, const SoakOptions& options, std::FILE* progress);

}  // namespace app
