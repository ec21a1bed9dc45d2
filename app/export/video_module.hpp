#pragma once
// Finds and loads pe-viz-video.so, FFmpeg's side of video export (export/video_backend.hpp),
// once per process, the first time a video is written. Looked for, in order:
//   $PE_VIZ_VIDEO_MODULE (a path to the file: tests, unusual installs);
//   beside the running binary (the build tree);
//   <binary>/../lib/pe-viz/modules/ (installed: /usr/bin/pe-viz, /usr/lib/pe-viz/modules/).
#include <string>
#include <vector>

#include "export/video_backend.hpp"

namespace app {

// The entry point of the loaded module. Throws VideoError naming every place looked in and
// why each failed (missing, not loadable: dlerror, or built for another version).
OpenVideoBackend video_backend_entry();

// The candidate paths, in search order (for messages and tests).
std::vector<std::string> video_module_candidates();

inline constexpr const char* kVideoModuleFile = "pe-viz-video.so";

}  // namespace app
