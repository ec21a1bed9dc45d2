// The pe-viz binary's command line (issues 4 and 5), run as a user would: a child process
// (PE_VIZ_BINARY) with stdout/stderr captured, HOME pointing at a temp dir. Export runs
// open a hidden window on the same Xvfb display as the rest of the GUI suite.
#include <nlohmann/json.hpp>

#include <cstdio>
#include <sstream>
#include <string>

#include "test_support.hpp"
#include "views/view.hpp"

namespace {

using namespace pe_test;

class CliTest : public ::testing::Test {
 protected:
  TempDir home;
  CommandResult run(const std::string& args) { return run_pe_viz(args, home.path()); }
  std::string q(const fs::path& p) { return shell_quote(p.string()); }
};

TEST_F(CliTest, ListViewsPrintsExactlyTheRegistryNames) {
  const CommandResult r = run("--list-views");
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  std::string expected;
  for (const auto& v : app::all_views()) expected += std::string(v.name) + "\n";
  EXPECT_EQ(r.out, expected);
  EXPECT_EQ(r.err, "");
}

TEST_F(CliTest, ExportWritesTheRequestedPngWithRopeIdentityColumn) {
  const fs::path out = home / "cos.png";
  const CommandResult r = run("export --view rope-cos --size 800x600 -o " + q(out));
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_NE(r.out.find(out.string()), std::string::npos) << "the command should say what it wrote\n" << describe(r);
  const PngHeader h = read_png_header(out);
  ASSERT_TRUE(h.ok) << h.error;
  EXPECT_EQ(h.width, 800u);
  EXPECT_EQ(h.height, 600u);
  const Image im = decode_png(out);
  ASSERT_TRUE(im.valid());
  EXPECT_TRUE(is_not_blank(im, whole(im)));
  // cos(0·θ_i) = 1 for every pair: the heatmap's first column is RdBu's +1 colour.
  const ColumnHit hit = leftmost_column_with_run(im, kRdBuPlusOne, kColourTolerance, im.height / 8, whole(im));
  EXPECT_GE(hit.x, 0) << "no position-0 column of cos = 1 in the exported rope-cos heatmap";
  // Nothing written to the user's config: export never autosaves.
  EXPECT_FALSE(fs::exists(home / ".config" / "pe-viz" / "last-session.json"));
}

TEST_F(CliTest, ExportSizeSyntaxVariantsAndPresetOptions) {
  const fs::path out = home / "sin.png";
  const CommandResult r =
      run("export --view rope-sin --preset llama-3.1-8b --length 8192 --theta 20000 --dim 32 --size 321X123 -o " + q(out));
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  const PngHeader h = read_png_header(out);
  ASSERT_TRUE(h.ok) << h.error;
  EXPECT_EQ(h.width, 321u);
  EXPECT_EQ(h.height, 123u);
}

TEST_F(CliTest, ExportWithoutOutputUsesTheDescriptiveNameInTheWorkingDirectory) {
  const fs::path work = home / "work";
  fs::create_directories(work);
  const CommandResult r =
      run_pe_viz("export --view rope-cos --theta 500000 --dim 128 --length 8192 --size 400x300", home.path(), work);
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  // Issue 5: names say what is in them, e.g. rope-cos_theta10000_d64_L128.png.
  EXPECT_TRUE(fs::exists(work / "rope-cos_theta500000_d128_L8192.png")) << describe(r);
  EXPECT_EQ(read_png_header(work / "rope-cos_theta500000_d128_L8192.png").width, 400u);
}

struct BadOption {
  std::string args;
  std::vector<std::string> names;  // stderr must contain each
};

TEST_F(CliTest, BadExportOptionsExitNonZeroNamingTheProblem) {
  const fs::path out = home / "never.png";
  const BadOption cases[] = {
      {"--view rope-cos --size 12 -o " + q(out), {"--size", "12"}},
      {"--view rope-cos --size 0x600 -o " + q(out), {"0x600"}},
      {"--view rope-cos --size 99999x99999 -o " + q(out), {"99999x99999"}},
      {"--view nope --size 800x600 -o " + q(out), {"view", "nope"}},
      {"--view rope-cos --dim 7 --size 800x600 -o " + q(out), {"dim", "7"}},
      {"--view rope-cos --theta 1 --size 800x600 -o " + q(out), {"theta"}},
      {"--view rope-cos --length 0 --size 800x600 -o " + q(out), {"length"}},
      {"--view rope-cos --preset no-such-model --size 800x600 -o " + q(out), {"no-such-model"}},
      {"--view rope-cos --background plaid --size 800x600 -o " + q(out), {"background", "plaid"}},
      {"--view rope-cos --colormap rainbow --size 800x600 -o " + q(out), {"colormap", "rainbow"}},
      {"--view rope-cos --no-such-option -o " + q(out), {"--no-such-option"}},
      {"--view rope-cos --size 400x300 -o /nonexistent-pe-viz-dir/x.png", {"/nonexistent-pe-viz-dir/x.png"}},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE("pe-viz export " + c.args);
    const CommandResult r = run("export " + c.args);
    EXPECT_NE(r.exit_code, 0) << describe(r);
    EXPECT_GE(r.exit_code, 1) << "crashed instead of exiting with an error\n" << describe(r);
    for (const auto& n : c.names) EXPECT_NE(r.err.find(n), std::string::npos) << "stderr does not name " << n << "\n" << describe(r);
    EXPECT_FALSE(fs::exists(out));
  }
}

TEST_F(CliTest, BadGuiOptionsExitNonZeroNamingTheProblem) {
  const BadOption cases[] = {
      {"--view nope --screenshot " + q(home / "s.png"), {"nope"}},
      {"--dim 7 --screenshot " + q(home / "s.png"), {"dim"}},
      {"--theta 1 --screenshot " + q(home / "s.png"), {"theta"}},
      {"--session " + q(home / "missing.json") + " --screenshot " + q(home / "s.png"), {"missing.json"}},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE("pe-viz " + c.args);
    const CommandResult r = run(c.args);
    EXPECT_GE(r.exit_code, 1) << describe(r);
    for (const auto& n : c.names) EXPECT_NE(r.err.find(n), std::string::npos) << "stderr does not name " << n << "\n" << describe(r);
    EXPECT_FALSE(fs::exists(home / "s.png"));
  }
}

TEST_F(CliTest, ExportWithASessionFileAndMalformedSession) {
  const fs::path session = home / "s.json";
  {
    std::ofstream(session) << R"({"pe_viz_session": 1, "view": "clock-hands", "length": 64, "future_key": true})";
  }
  const fs::path out = home / "from-session.png";
  CommandResult r = run("export --session " + q(session) + " --size 400x300 -o " + q(out));
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_NE(r.err.find("future_key"), std::string::npos) << "unknown key should be warned about\n" << describe(r);
  EXPECT_NE(r.out.find("clock-hands"), std::string::npos) << "the session's view should be exported\n" << describe(r);
  EXPECT_TRUE(read_png_header(out).ok);

  {
    std::ofstream(session) << "{\n  \"pe_viz_session\": 1,\n  \"length\": 64,\n";
  }
  r = run("export --session " + q(session) + " --size 400x300 -o " + q(home / "never.png"));
  EXPECT_GE(r.exit_code, 1) << describe(r);
  EXPECT_NE(r.err.find("line"), std::string::npos) << describe(r);
  EXPECT_NE(r.err.find(session.string()), std::string::npos) << describe(r);
  EXPECT_FALSE(fs::exists(home / "never.png"));
}

TEST_F(CliTest, ExportAllWritesEveryViewAndAnIndex) {
  const fs::path deck = home / "deck";
  const CommandResult r = run("export --all " + q(deck) + " --size 480x270");
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  const std::string html = read_file(deck / "index.html");
  ASSERT_FALSE(html.empty());
  std::size_t pngs = 0;
  for (const auto& e : fs::directory_iterator(deck)) {
    const std::string name = e.path().filename().string();
    if (!name.ends_with(".png")) continue;
    ++pngs;
    SCOPED_TRACE(name);
    const PngHeader h = read_png_header(e.path());
    ASSERT_TRUE(h.ok) << h.error;
    EXPECT_EQ(h.width, 480u);
    EXPECT_EQ(h.height, 270u);
    EXPECT_NE(html.find("src=\"" + name + "\""), std::string::npos) << "index.html does not show " << name;
  }
  EXPECT_EQ(pngs, app::all_views().size());
  for (const auto& v : app::all_views())
    EXPECT_NE(html.find(std::string("src=\"") + v.name + "_"), std::string::npos) << v.name << " missing from index.html";
}

TEST_F(CliTest, ScreenshotWritesTheWindow) {
  const fs::path out = home / "shot.png";
  const CommandResult r = run("--screenshot " + q(out) + " --view rope-cos --frames 3 --width 1200 --height 800");
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  const PngHeader h = read_png_header(out);
  ASSERT_TRUE(h.ok) << h.error;
  EXPECT_EQ(h.width, 1200u);
  EXPECT_EQ(h.height, 800u);
  const Image im = decode_png(out);
  ASSERT_TRUE(im.valid());
  const ColumnHit hit = leftmost_column_with_run(im, kRdBuPlusOne, kColourTolerance, im.height / 8, whole(im));
  EXPECT_GE(hit.x, 0) << "the rope-cos screenshot has no position-0 column of cos = 1";
  // A screenshot never autosaves over the user's last session.
  EXPECT_FALSE(fs::exists(home / ".config" / "pe-viz" / "last-session.json"));
}

// `bench --draw-costs` replays the last frame list by list: every ImGui draw list of the
// frame gets a line, and their covered pixels add up to the whole frame's.
TEST_F(CliTest, BenchDrawCostsBreaksTheFrameIntoItsDrawLists) {
  const CommandResult r =
      run("bench --views extrapolation --frames 10 --length 128 --dim 64 --width 800 --height 600 --draw-costs");
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  const auto whole_at = r.out.find("whole frame replayed: ");
  ASSERT_NE(whole_at, std::string::npos) << r.out;
  double whole_ms = 0, whole_mpx = 0;
  ASSERT_EQ(std::sscanf(r.out.c_str() + whole_at, "whole frame replayed: %lf ms, %lf Mpx", &whole_ms, &whole_mpx), 2);
  EXPECT_GT(whole_ms, 0.0);
  EXPECT_GT(whole_mpx, 0.0);
  double lists_mpx = 0;
  int lists = 0;
  std::istringstream lines(r.out);
  for (std::string line; std::getline(lines, line);) {
    const auto at = line.find("    list ");
    if (at != 0) continue;
    const auto mpx_at = line.rfind(" Mpx");
    const auto num_at = line.rfind(' ', mpx_at - 1);
    ASSERT_NE(num_at, std::string::npos) << line;
    lists_mpx += std::stod(line.substr(num_at + 1, mpx_at - num_at - 1));
    ++lists;
  }
  EXPECT_GE(lists, 2) << r.out;  // the parameter panel and the view at least
  EXPECT_NE(r.out.find("list pe-viz/##views"), std::string::npos) << r.out;
  // Each list's figure is rounded to 0.001 Mpx.
  EXPECT_NEAR(lists_mpx, whole_mpx, 0.0005 * (lists + 1) + 0.005) << r.out;
}

// The default run ends with the budget's own case (L = 10^6, d = 1024 in a 1080p window,
// every view unless --views names some) and says whether each median kept the margin.
TEST_F(CliTest, BenchReportsTheBudgetCase) {
  const CommandResult r = run("bench --views layers --frames 10");
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_NE(r.out.find("L=1000000, d=1024, 1920x1080 layers"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("every median within 15.0 ms (the budget's margin): "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("slowest layers, "), std::string::npos) << r.out;
  // A custom --length/--dim run is that row alone, at --width × --height.
  const CommandResult custom = run("bench --views layers --frames 10 --length 128 --dim 64 --width 800 --height 600");
  ASSERT_EQ(custom.exit_code, 0) << describe(custom);
  EXPECT_EQ(custom.out.find("1920x1080"), std::string::npos) << custom.out;
  EXPECT_EQ(custom.out.find("budget's margin"), std::string::npos) << custom.out;
}

// A PNG cannot scroll. An export whose plots do not fit at the GUI's readable height
// squeezes them, as a window would not (extrapolation's four plots at --ui-scale 2 in
// 1080p); one that does not fit even then (comparison's table) is written with a warning
// that says what was cut and what helps. At 1× nothing is cut and nothing is said.
TEST_F(CliTest, ExportSqueezesPlotsToFitAndWarnsWhenEvenThatIsNotEnough) {
  const fs::path squeezed = home / "squeezed.png", table = home / "table.png", fits = home / "fits.png";
  const CommandResult plots = run("export --view extrapolation --ui-scale 2 --size 1920x1080 -o " + q(squeezed));
  ASSERT_EQ(plots.exit_code, 0) << describe(plots);
  EXPECT_EQ(plots.err.find("warning"), std::string::npos) << describe(plots);
  const CommandResult cut = run("export --view comparison --ui-scale 2 --size 1920x1080 -o " + q(table));
  ASSERT_EQ(cut.exit_code, 0) << describe(cut);
  EXPECT_TRUE(fs::exists(table));
  EXPECT_NE(cut.err.find("warning: comparison does not fit 1920x1080"), std::string::npos) << describe(cut);
  EXPECT_NE(cut.err.find("--ui-scale"), std::string::npos) << describe(cut);
  const CommandResult whole = run("export --view comparison --size 1920x1080 -o " + q(fits));
  ASSERT_EQ(whole.exit_code, 0) << describe(whole);
  EXPECT_EQ(whole.err.find("warning"), std::string::npos) << describe(whole);
}

}  // namespace
