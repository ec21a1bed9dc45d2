// `pe-viz lesson` as a user runs it: the built-in list, a missing or bad lesson refused
// with the file (line, key) named before any window opens, and a presenter screenshot.
#include "test_support.hpp"

namespace {

using namespace pe_test;

class LessonCliTest : public ::testing::Test {
 protected:
  TempDir home;
  CommandResult run(const std::string& args) { return run_pe_viz(args, home.path()); }
};

TEST_F(LessonCliTest, ListExitsZero) {
  const CommandResult r = run("lesson --list");
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
}

TEST_F(LessonCliTest, HelpNamesTheKeys) {
  const CommandResult r = run("lesson --help");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("--list"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("Space"), std::string::npos) << r.out;
}

TEST_F(LessonCliTest, MissingFileIsRefusedNamingIt) {
  const CommandResult r = run("lesson missing-lesson.md");
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("missing-lesson.md"), std::string::npos) << r.err;
}

TEST_F(LessonCliTest, BadKeyIsRefusedWithFileLineAndKeyBeforeAnyWindow) {
  const fs::path lesson = home / "talk.md";
  std::ofstream(lesson) << "view: rope-cos\n\n# One\n---\nview: clock-hands\nthetta: 5\n";
  const fs::path png = home / "shot.png";
  const CommandResult r = run("lesson " + shell_quote(lesson.string()) + " --screenshot " + shell_quote(png.string()));
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("talk.md:6: thetta"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("theta"), std::string::npos) << "the closest key is suggested: " << r.err;
  EXPECT_FALSE(fs::exists(png)) << "no window, no screenshot";
}

TEST_F(LessonCliTest, ScreenshotShowsTheChosenSlide) {
  const fs::path lesson = home / "talk.md";
  std::ofstream(lesson) << "view: rope-cos\n\n# One\n---\nview: clock-hands\nposition: 3\n\n# Two\n\n- a **bold** point\n";
  const fs::path png = home / "shot.png";
  const CommandResult r = run("lesson " + shell_quote(lesson.string()) + " --slide 2 --width 1280 --height 720 --screenshot " +
                              shell_quote(png.string()));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("view clock-hands"), std::string::npos) << r.out;
  const Image im = decode_png(png);
  ASSERT_TRUE(im.valid());
  EXPECT_EQ(im.width, 1280);
  EXPECT_TRUE(is_not_blank(im, whole(im)));
  const CommandResult past = run("lesson " + shell_quote(lesson.string()) + " --slide 3 --screenshot " + shell_quote(png.string()));
  EXPECT_EQ(past.exit_code, 2);
  EXPECT_NE(past.err.find("2 slides"), std::string::npos) << past.err;
}

}  // namespace
