// `pe-viz export --lesson FILE.md|NAME DIR` through the real binary (issue 13 part 5): a PNG
// per slide at --size, an MP4 per animated slide (ffprobe: codec, size, frames), an
// index.html that references every file and escapes the slide text; progress per slide;
// bad input (missing file, unknown view, a value refused on a later slide, an unwritable
// folder) → message with file:line:key, non-zero exit, and the folder's previous files
// untouched.
#include <fstream>

#include "test_support.hpp"
#include "video_test_support.hpp"

namespace {

using namespace pe_test;

class LessonExport : public ::testing::Test {
 protected:
  TempDir home;
  CommandResult run(const std::string& args) { return run_pe_viz(args, home.path()); }
  std::string q(const fs::path& p) { return shell_quote(p.string()); }
  fs::path write(const std::string& name, const std::string& text) {
    const fs::path p = home / name;
    std::ofstream(p) << text;
    return p;
  }
};

constexpr const char* kSmallLesson =
    "view: rope-cos\n"
    "theta: 10000\n"
    "\n"
    "# Tables & 1 < 2 > 0\n"
    "\n"
    "Compare a < b and <script>alert(1)</script> stays text.\n"
    "???\n"
    "Notes for **me**.\n"
    "---\n"
    "view: clock-hands\n"
    "position: 0\n"
    "animate: position 0 -> 20 over 1 s\n"
    "\n"
    "## Hands\n"
    "\n"
    "- pair 0 is the fastest\n";

TEST_F(LessonExport, WritesAPngPerSlideAVideoPerAnimationAndAnIndex) {
  PE_REQUIRE_FFPROBE();
  const fs::path lesson = write("talk.md", kSmallLesson), out = home / "deck";
  const CommandResult r = run("export --lesson " + q(lesson) + " " + q(out) + " --size 320x180 --fps 10");
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_NE(r.out.find("[1/2] slide-01-rope-cos.png"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("[2/2] slide-02-clock-hands.png + slide-02-clock-hands.mp4 (10 frames)"), std::string::npos) << r.out;
  for (const char* png : {"slide-01-rope-cos.png", "slide-02-clock-hands.png"}) {
    const PngHeader h = read_png_header(out / png);
    ASSERT_TRUE(h.ok) << png << ": " << h.error;
    EXPECT_EQ(h.width, 320u);
    EXPECT_EQ(h.height, 180u);
  }
  const VideoFacts v = probe_video(out / "slide-02-clock-hands.mp4");
  EXPECT_EQ(v.codec, "h264") << v.raw;
  EXPECT_EQ(v.pix_fmt, "yuv420p") << v.raw;
  EXPECT_EQ(v.width, 320) << v.raw;
  EXPECT_EQ(v.height, 180) << v.raw;
  EXPECT_EQ(v.frames, 10) << v.raw;  // 1 s at 10 fps
  // The hands move: first and last frames differ.
  EXPECT_GT(mean_frame_difference(decode_frame(out / "slide-02-clock-hands.mp4", 0),
                                  decode_frame(out / "slide-02-clock-hands.mp4", 9)),
            0.5);

  const std::string html = read_file(out / "index.html");
  for (const char* f : {"slide-01-rope-cos.png", "slide-02-clock-hands.png", "slide-02-clock-hands.mp4"})
    EXPECT_NE(html.find(std::string("\"") + f + "\""), std::string::npos) << f;
  EXPECT_NE(html.find("Tables &amp; 1 &lt; 2 &gt; 0"), std::string::npos) << "the heading is escaped";
  EXPECT_NE(html.find("a &lt; b"), std::string::npos);
  EXPECT_EQ(html.find("<script>alert"), std::string::npos) << "raw HTML never reaches the page";
  EXPECT_NE(html.find("ArrowRight"), std::string::npos) << "arrow keys move through the slides";
  EXPECT_NE(html.find("class=\"notes\""), std::string::npos);
  EXPECT_EQ(html.find("http"), std::string::npos) << "self-contained: nothing fetched";
  // Only the files named, and no temporaries left.
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(out)) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  EXPECT_EQ(names, (std::vector<std::string>{"index.html", "slide-01-rope-cos.png", "slide-02-clock-hands.mp4",
                                             "slide-02-clock-hands.png"}));
}

// Every built-in lesson exports to a deck (by name; -o DIR as well as DIR).
class BuiltinLessonExport : public LessonExport, public ::testing::WithParamInterface<const char*> {};

TEST_P(BuiltinLessonExport, ExportsByName) {
  PE_REQUIRE_FFPROBE();
  const fs::path out = home / GetParam();
  const CommandResult r = run(std::string("export --lesson ") + GetParam() + " -o " + q(out) + " --size 320x180 --fps 3");
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  const std::string html = read_file(out / "index.html");
  std::size_t pngs = 0, videos = 0;
  for (const auto& e : fs::directory_iterator(out)) {
    const std::string name = e.path().filename().string();
    if (name == "index.html") continue;
    EXPECT_NE(html.find("\"" + name + "\""), std::string::npos) << name << " is not in index.html";
    if (e.path().extension() == ".png") {
      ++pngs;
      EXPECT_EQ(read_png_header(e.path()).width, 320u) << name;
    } else if (e.path().extension() == ".mp4") {
      ++videos;
      const VideoFacts v = probe_video(e.path());
      EXPECT_EQ(v.codec, "h264") << name << v.raw;
      EXPECT_EQ(v.width, 320) << name;
      EXPECT_GT(v.frames, 1) << name;
    } else {
      ADD_FAILURE() << "unexpected file " << name;
    }
  }
  EXPECT_GE(pngs, 6u);
  EXPECT_GE(videos, 1u);
  EXPECT_NE(r.out.find("[" + std::to_string(pngs) + "/" + std::to_string(pngs) + "]"), std::string::npos) << r.out;
  EXPECT_NE(html.find("<title>"), std::string::npos);
}

INSTANTIATE_TEST_SUITE_P(Lessons, BuiltinLessonExport,
                         ::testing::Values("positional-encoding-101", "rope-scaling-in-practice", "multimodal-rope"),
                         [](const ::testing::TestParamInfo<const char*>& info) {
                           std::string name = info.param;
                           for (char& c : name)
                             if (c == '-' || c == '.') c = '_';
                           return name;
                         });

TEST_F(LessonExport, TheDeckTitleIsTheFirstHeading) {
  const fs::path lesson = write("t.md", "view: alibi\n\n# ALiBi & friends\n"), out = home / "t";
  const CommandResult r = run("export --lesson " + q(lesson) + " " + q(out) + " --size 320x180");
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_NE(read_file(out / "index.html").find("<title>ALiBi &amp; friends</title>"), std::string::npos);
}

TEST_F(LessonExport, BadInputNamesFileLineAndKeyAndLeavesTheFolderAlone) {
  const fs::path out = home / "deck";
  fs::create_directories(out);
  std::ofstream(out / "index.html") << "previous";
  std::ofstream(out / "slide-01-rope-cos.png") << "previous png";
  const auto untouched = [&] {
    EXPECT_EQ(read_file(out / "index.html"), "previous");
    EXPECT_EQ(read_file(out / "slide-01-rope-cos.png"), "previous png");
    std::size_t n = 0;
    for ([[maybe_unused]] const auto& e : fs::directory_iterator(out)) ++n;
    EXPECT_EQ(n, 2u) << "nothing else written";
  };
  {
    const CommandResult r = run("export --lesson " + q(home / "missing.md") + " " + q(out));
    EXPECT_NE(r.exit_code, 0);
    EXPECT_NE(r.err.find("missing.md"), std::string::npos) << r.err;
    untouched();
  }
  {
    const fs::path bad = write("bad-view.md", "view: rope-cos\n\n# A\n---\nview: clock-hand\n\n# B\n");
    const CommandResult r = run("export --lesson " + q(bad) + " " + q(out));
    EXPECT_NE(r.exit_code, 0);
    EXPECT_NE(r.err.find("bad-view.md:5: view"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("clock-hands"), std::string::npos) << "the closest view is suggested: " << r.err;
    untouched();
  }
  {
    // Refused only by the state on slide 2 (position past the length): still nothing written.
    const fs::path bad = write("late.md", "view: rope-cos\n\n# A\n---\nview: clock-hands\nlength: 64\nposition: 100\n\n# B\n");
    const CommandResult r = run("export --lesson " + q(bad) + " " + q(out) + " --size 320x180");
    EXPECT_NE(r.exit_code, 0);
    EXPECT_NE(r.err.find("late.md:7: position"), std::string::npos) << r.err;
    untouched();
  }
  {
    const fs::path bad = write("anim.md", "view: clock-hands\nlength: 64\nanimate: position 0 -> 100 over 1 s\n\n# A\n");
    const CommandResult r = run("export --lesson " + q(bad) + " " + q(out) + " --size 320x180");
    EXPECT_NE(r.exit_code, 0);
    EXPECT_NE(r.err.find("anim.md:3: position"), std::string::npos) << r.err;
    untouched();
  }
  {
    const fs::path file = write("not-a-dir", "x");
    const CommandResult r = run("export --lesson multimodal-rope " + q(file / "sub") + " --size 320x180");
    EXPECT_NE(r.exit_code, 0);
    EXPECT_NE(r.err.find("not-a-dir"), std::string::npos) << r.err;
    EXPECT_EQ(read_file(file), "x");
  }
  {
    const CommandResult r = run("export --lesson no-such-lesson " + q(out));
    EXPECT_NE(r.exit_code, 0);
    EXPECT_NE(r.err.find("positional-encoding-101"), std::string::npos) << "lists the built-in lessons: " << r.err;
    untouched();
  }
  {
    const CommandResult r = run("export " + q(out));
    EXPECT_NE(r.exit_code, 0);
    EXPECT_NE(r.err.find("--lesson"), std::string::npos) << r.err;
  }
}

}  // namespace
