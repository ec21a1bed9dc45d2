// VideoEncoder (export/video_encoder.hpp) on synthetic frames, no GL: what ffprobe reports
// (codec, size, frame count, duration), where a moving square ends up in the decoded
// frames, colours after the YUV and palette round trips, and the file rules (a failed or
// abandoned encode leaves the previous file and no temporary; bad names and sizes refused).
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "export/video_encoder.hpp"
#include "pe/base/errors.hpp"
#include "platform/atomic_file.hpp"
#include "video_test_support.hpp"

namespace {

namespace fs = std::filesystem;
using namespace pe_test;

class TempDirectory {
 public:
  TempDirectory() {
    std::string t = (fs::temp_directory_path() / "pe-viz-video-XXXXXX").string();
    if (!mkdtemp(t.data())) throw std::runtime_error("mkdtemp");
    path_ = t;
  }
  ~TempDirectory() { fs::remove_all(path_); }
  fs::path operator/(const std::string& n) const { return path_ / n; }
  const fs::path& path() const { return path_; }
  std::vector<std::string> entries() const {
    std::vector<std::string> out;
    for (const auto& e : fs::directory_iterator(path_)) out.push_back(e.path().filename().string());
    return out;
  }

 private:
  fs::path path_;
};

std::string read_all(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// A dark frame with a 32×32 light square whose left edge is at x (RGBA, top-down).
std::vector<std::uint8_t> square_frame(int w, int h, int x) {
  std::vector<std::uint8_t> f(std::size_t(w) * h * 4);
  for (int y = 0; y < h; ++y)
    for (int i = 0; i < w; ++i) {
      const bool in = i >= x && i < x + 32 && y >= h / 2 - 16 && y < h / 2 + 16;
      std::uint8_t* p = &f[(std::size_t(y) * w + i) * 4];
      p[0] = in ? 240 : 20;
      p[1] = in ? 230 : 24;
      p[2] = in ? 200 : 30;
      p[3] = 255;
    }
  return f;
}

// Mean x of the pixels brighter than mid-grey in the middle row of an RGB24 frame.
double bright_centre_x(const std::vector<unsigned char>& rgb, int w, int h) {
  double sum = 0, n = 0;
  const int y = h / 2;
  for (int x = 0; x < w; ++x) {
    const unsigned char* p = &rgb[(std::size_t(y) * w + x) * 3];
    if (p[0] + p[1] + p[2] > 3 * 128) {
      sum += x;
      ++n;
    }
  }
  return n > 0 ? sum / n : -1;
}

struct Case {
  const char* name;
  app::VideoCodec codec;
  const char* probe_codec;
  int fps_in, fps_out;
};

class EncodeEachCodec : public ::testing::TestWithParam<Case> {};

TEST_P(EncodeEachCodec, StreamFactsAndTheSquareMoves) {
  PE_REQUIRE_FFPROBE();
  const Case c = GetParam();
  TempDirectory dir;
  const fs::path path = dir / c.name;
  const int w = 320, h = 240;
  const int frames = 2 * app::encoded_fps({c.codec, w, h, c.fps_in});  // 2 s
  ASSERT_EQ(app::video_codec_for(path), c.codec);
  {
    app::VideoEncoder enc(path, {c.codec, w, h, c.fps_in});
    for (int k = 0; k < frames; ++k) enc.add_frame(square_frame(w, h, 10 + k * (w - 60) / (frames - 1)));
    enc.finish();
    EXPECT_EQ(enc.frames(), frames);
  }
  const VideoFacts f = probe_video(path);
  EXPECT_EQ(f.codec, c.probe_codec) << f.raw;
  EXPECT_EQ(f.width, w) << f.raw;
  EXPECT_EQ(f.height, h) << f.raw;
  EXPECT_EQ(f.frames, frames) << f.raw;
  // GIF delays are whole centiseconds: within one frame of the 2 s asked for.
  EXPECT_NEAR(f.duration, 2.0, 1.0 / c.fps_out + 1e-3) << f.raw;
  if (c.codec != app::VideoCodec::Gif) {
    EXPECT_EQ(f.pix_fmt, "yuv420p") << f.raw;
  }
  // The square's centre: x = 10 + 16 in the first frame, 10 + (w − 60) + 16 in the last.
  const auto first = decode_frame(path, 0), last = decode_frame(path, frames - 1);
  ASSERT_EQ(first.size(), std::size_t(w) * h * 3);
  ASSERT_EQ(last.size(), std::size_t(w) * h * 3);
  EXPECT_NEAR(bright_centre_x(first, w, h), 10 + 15.5, 1.5);
  EXPECT_NEAR(bright_centre_x(last, w, h), 10 + (w - 60) + 15.5, 1.5);
  EXPECT_GT(mean_frame_difference(first, last), 1.0);
  EXPECT_EQ(dir.entries().size(), 1u);  // no temporary left
}

INSTANTIATE_TEST_SUITE_P(Codecs, EncodeEachCodec,
                         ::testing::Values(Case{"a.mp4", app::VideoCodec::H264, "h264", 30, 30},
                                           Case{"a.webm", app::VideoCodec::Vp9, "vp9", 30, 30},
                                           Case{"a.gif", app::VideoCodec::Gif, "gif", 30, 15},
                                           Case{"A.GIF", app::VideoCodec::Gif, "gif", 10, 10}),
                         [](const auto& info) { return std::string(info.param.probe_codec) + "_" + std::to_string(info.index); });

TEST(VideoEncoder, ColoursSurviveTheRoundTrip) {
  PE_REQUIRE_FFPROBE();
  TempDirectory dir;
  // Three flat bands: the colormap's ends and a mid grey (RdBu −1, +1; sRGB values).
  const int w = 96, h = 64;
  std::vector<std::uint8_t> frame(std::size_t(w) * h * 4);
  const std::uint8_t bands[3][3] = {{0x67, 0x00, 0x1f}, {0x80, 0x80, 0x80}, {0x05, 0x30, 0x61}};
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      const auto* c = bands[x / 32];
      std::uint8_t* p = &frame[(std::size_t(y) * w + x) * 4];
      p[0] = c[0], p[1] = c[1], p[2] = c[2], p[3] = 255;
    }
  for (const char* name : {"c.mp4", "c.webm", "c.gif"}) {
    SCOPED_TRACE(name);
    const fs::path path = dir / name;
    app::VideoEncoder enc(path, {app::video_codec_for(path), w, h, 10});
    for (int k = 0; k < 5; ++k) enc.add_frame(frame);
    enc.finish();
    const auto rgb = decode_frame(path, 2);
    ASSERT_EQ(rgb.size(), std::size_t(w) * h * 3);
    for (int b = 0; b < 3; ++b) {
      const unsigned char* p = &rgb[(std::size_t(h / 2) * w + 32 * b + 16) * 3];
      // 4:2:0 at a band's centre, limited-range BT.709 both ways: a few levels of rounding.
      for (int ch = 0; ch < 3; ++ch) EXPECT_NEAR(int(p[ch]), int(bands[b][ch]), 4) << "band " << b << " channel " << ch;
    }
  }
}

TEST(VideoEncoder, GifOfAFewMegabytesFor720pAt4Seconds) {
  PE_REQUIRE_FFPROBE();
  TempDirectory dir;
  const fs::path path = dir / "moving.gif";
  const int w = 1280, h = 720;
  app::VideoEncoder enc(path, {app::VideoCodec::Gif, w, h, 30});
  const int frames = 4 * app::encoded_fps(enc.settings());
  EXPECT_EQ(frames, 60);
  for (int k = 0; k < frames; ++k) enc.add_frame(square_frame(w, h, 20 * k));
  enc.finish();
  EXPECT_LT(fs::file_size(path), 8u << 20);
  EXPECT_EQ(probe_video(path).frames, 60);
}

TEST(VideoEncoder, AbandonedEncodeLeavesThePreviousFileAndNoTemporary) {
  TempDirectory dir;
  const fs::path path = dir / "talk.mp4";
  { std::ofstream(path) << "previous"; }
  {
    app::VideoEncoder enc(path, {app::VideoCodec::H264, 64, 64, 10});
    enc.add_frame(square_frame(64, 64, 3));
    // Destroyed without finish(): a cancel or an error between frames.
  }
  EXPECT_EQ(read_all(path), "previous");
  EXPECT_EQ(dir.entries(), std::vector<std::string>{"talk.mp4"});
  // A wrong frame size is refused, and the file is still untouched afterwards.
  {
    app::VideoEncoder enc(path, {app::VideoCodec::Vp9, 64, 64, 10});
    EXPECT_THROW(enc.add_frame(square_frame(32, 32, 0)), std::invalid_argument);
  }
  EXPECT_EQ(read_all(path), "previous");
  EXPECT_EQ(dir.entries(), std::vector<std::string>{"talk.mp4"});
}

TEST(VideoEncoder, RefusesWhatItCannotWrite) {
  TempDirectory dir;
  // Unknown extension: the allowed ones are listed.
  try {
    app::video_codec_for(dir / "talk.avi");
    ADD_FAILURE();
  } catch (const pe::InvalidArgument& e) {
    EXPECT_EQ(e.parameter(), "output");
    const std::string what = e.what();
    for (const char* ext : {".mp4", ".webm", ".gif"}) EXPECT_NE(what.find(ext), std::string::npos) << what;
  }
  // Odd sizes cannot be 4:2:0; GIF takes them.
  try {
    app::VideoEncoder enc(dir / "odd.mp4", {app::VideoCodec::H264, 321, 240, 30});
    ADD_FAILURE();
  } catch (const pe::InvalidArgument& e) {
    EXPECT_EQ(e.parameter(), "size");
    EXPECT_NE(std::string(e.what()).find("321x240"), std::string::npos) << e.what();
  }
  EXPECT_NO_THROW(app::VideoEncoder(dir / "odd.gif", {app::VideoCodec::Gif, 321, 241, 10}));
  EXPECT_THROW(app::VideoEncoder(dir / "f.mp4", {app::VideoCodec::H264, 64, 64, 0}), pe::InvalidArgument);
  EXPECT_THROW(app::VideoEncoder(dir / "f.mp4", {app::VideoCodec::H264, 64, 64, 30, 60}), pe::InvalidArgument);
  // A missing directory and a read-only file: the path is named, nothing is created.
  try {
    app::VideoEncoder enc(dir / "missing" / "x.mp4", {app::VideoCodec::H264, 64, 64, 30});
    ADD_FAILURE();
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("missing/x.mp4"), std::string::npos) << e.what();
  }
  const fs::path locked = dir / "locked.webm";
  { std::ofstream(locked) << "keep"; }
  ::chmod(locked.c_str(), 0444);
  EXPECT_THROW(app::VideoEncoder(locked, {app::VideoCodec::Vp9, 64, 64, 30}), std::runtime_error);
  EXPECT_EQ(read_all(locked), "keep");
  // Only what the test created: no temporaries from the refused encoders.
  std::vector<std::string> names = dir.entries();
  std::sort(names.begin(), names.end());
  EXPECT_EQ(names, std::vector<std::string>{"locked.webm"});  // odd.gif was abandoned, so never created
}

}  // namespace
