#pragma once
// ffprobe / ffmpeg (Debian's `ffmpeg` package, a test-only dependency) as an independent
// reader of the videos we write: stream facts and decoded frames.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace pe_test {

inline std::string quoted(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

// stdout of a shell command (stderr discarded), or "" when it failed.
inline std::string command_output(const std::string& command, int* exit_code = nullptr) {
  std::string out;
  FILE* pipe = popen((command + " 2>/dev/null").c_str(), "r");
  if (!pipe) return out;
  char buf[65536];
  std::size_t n;
  while ((n = fread(buf, 1, sizeof buf, pipe)) > 0) out.append(buf, n);
  const int status = pclose(pipe);
  if (exit_code) *exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return out;
}

inline bool have_ffprobe() {
  int code = -1;
  command_output("command -v ffprobe && command -v ffmpeg", &code);
  return code == 0;
}

#define PE_REQUIRE_FFPROBE()                                                                       \
  do {                                                                                             \
    if (!::pe_test::have_ffprobe())                                                                \
      GTEST_SKIP() << "ffprobe/ffmpeg not found: install Debian's ffmpeg package to check videos"; \
  } while (0)

struct VideoFacts {
  std::string codec, pix_fmt;
  int width = 0, height = 0;
  long long frames = 0;   // counted by decoding (-count_frames)
  double duration = 0;    // the container's, seconds
  std::string raw;        // ffprobe's output, for messages
};

inline VideoFacts probe_video(const std::filesystem::path& path) {
  VideoFacts f;
  f.raw = command_output("ffprobe -v error -count_frames -select_streams v:0 -show_entries "
                         "stream=codec_name,pix_fmt,width,height,nb_read_frames:format=duration -of default=nw=1 " +
                         quoted(path.string()));
  std::istringstream in(f.raw);
  std::string line;
  while (std::getline(in, line)) {
    const auto eq = line.find('=');
    if (eq == std::string::npos) continue;
    const std::string k = line.substr(0, eq), v = line.substr(eq + 1);
    if (k == "codec_name") f.codec = v;
    else if (k == "pix_fmt") f.pix_fmt = v;
    else if (k == "width") f.width = std::atoi(v.c_str());
    else if (k == "height") f.height = std::atoi(v.c_str());
    else if (k == "nb_read_frames") f.frames = std::atoll(v.c_str());
    else if (k == "duration") f.duration = std::atof(v.c_str());
  }
  return f;
}

// Frame `index` (0-based, in decoding order) as RGB24 bytes, width × height × 3.
inline std::vector<unsigned char> decode_frame(const std::filesystem::path& path, long long index) {
  const std::string out = command_output("ffmpeg -v error -i " + quoted(path.string()) + " -vf 'select=eq(n\\," +
                                         std::to_string(index) + ")' -vsync 0 -frames:v 1 -f rawvideo -pix_fmt rgb24 -");
  return {out.begin(), out.end()};
}

// Mean absolute difference per byte of two decoded frames (255 = opposite colours).
inline double mean_frame_difference(const std::vector<unsigned char>& a, const std::vector<unsigned char>& b) {
  if (a.size() != b.size() || a.empty()) return -1;
  double sum = 0;
  for (std::size_t i = 0; i < a.size(); ++i) sum += std::abs(int(a[i]) - int(b[i]));
  return sum / double(a.size());
}

}  // namespace pe_test
