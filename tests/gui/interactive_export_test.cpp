// `pe-viz export --lesson NAME|FILE DIR --interactive` (issue 29): the browser page and its
// program copied from the web build, with the lesson put into the page's lesson slot as
// base64 (any text survives, even an end tag). Here a stand-in web build (PE_VIZ_WEB_DIR);
// tests/web/ opens the real one from disk in Chromium.
#include <fstream>

#include "test_support.hpp"

namespace {

using namespace pe_test;

std::string decode_base64(const std::string& text) {
  const std::string alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  unsigned bits = 0;
  int count = 0;
  for (char c : text) {
    const auto v = alphabet.find(c);
    if (v == std::string::npos) continue;
    bits = bits << 6 | unsigned(v);
    count += 6;
    if (count >= 8) {
      count -= 8;
      out += char((bits >> count) & 0xFF);
    }
  }
  return out;
}

class InteractiveExport : public ::testing::Test {
 protected:
  TempDir home;
  fs::path web = home / "web";
  void SetUp() override {
    fs::create_directories(web);
    std::ofstream(web / "index.html") << "<html><body><script type=\"text/markdown\" id=\"pe-viz-lesson\" data-name=\"\"></script>"
                                         "<script src=\"pe-viz.js\"></script></body></html>";
    std::ofstream(web / "pe-viz.js") << "/* the program */";
  }
  CommandResult run(const std::string& args) {
    return run_pe_viz("export " + args, home.path(), {});
  }
};

TEST_F(InteractiveExport, ABuiltInLessonGoesIntoThePageBesideItsProgram) {
  const fs::path out = home / "pe-101";
  setenv("PE_VIZ_WEB_DIR", web.c_str(), 1);
  const CommandResult r = run("--lesson positional-encoding-101 " + shell_quote(out.string()) + " --interactive");
  unsetenv("PE_VIZ_WEB_DIR");
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_EQ(read_file(out / "pe-viz.js"), "/* the program */");
  const std::string page = read_file(out / "index.html");
  const std::string open = "data-name=\"positional-encoding-101\" data-encoding=\"base64\">";
  const auto at = page.find(open);
  ASSERT_NE(at, std::string::npos) << page.substr(0, 300);
  const auto end = page.find("</script>", at);
  const std::string markdown = decode_base64(page.substr(at + open.size(), end - at - open.size()));
  EXPECT_NE(markdown.find("# Why order matters"), std::string::npos) << markdown.substr(0, 200);
  EXPECT_NE(r.out.find("presenter mode"), std::string::npos) << r.out;
}

TEST_F(InteractiveExport, ALessonFileKeepsEveryCharacter) {
  const fs::path lesson = home / "talk.md";
  const std::string text = "view: rope-cos\n\n# A </script> <!-- & ü\n";
  std::ofstream(lesson) << text;
  setenv("PE_VIZ_WEB_DIR", web.c_str(), 1);
  const CommandResult r = run("--lesson " + shell_quote(lesson.string()) + " " + shell_quote((home / "out").string()) + " --interactive");
  unsetenv("PE_VIZ_WEB_DIR");
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const std::string page = read_file(home / "out" / "index.html");
  const std::string open = "data-name=\"talk\" data-encoding=\"base64\">";
  const auto at = page.find(open);
  ASSERT_NE(at, std::string::npos) << page;
  EXPECT_EQ(decode_base64(page.substr(at + open.size(), page.find("</script>", at) - at - open.size())), text);
}

TEST_F(InteractiveExport, ABadLessonWritesNothingAndInteractiveNeedsALesson) {
  setenv("PE_VIZ_WEB_DIR", web.c_str(), 1);
  const CommandResult bad = run("--lesson no-such-lesson " + shell_quote((home / "x").string()) + " --interactive");
  const CommandResult alone = run("--view rope-cos --interactive -o " + shell_quote((home / "y.png").string()));
  unsetenv("PE_VIZ_WEB_DIR");
  EXPECT_EQ(bad.exit_code, 2) << bad.err;
  EXPECT_FALSE(fs::exists(home / "x" / "index.html"));
  EXPECT_EQ(alone.exit_code, 2) << alone.err;
  EXPECT_NE(alone.err.find("--interactive goes with --lesson"), std::string::npos) << alone.err;
}

}  // namespace
