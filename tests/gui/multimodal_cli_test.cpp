// The multimodal views from the command line (issue 12): bad values of their options are
// refused with exit 2 and a message naming the option and what is allowed, and no file is
// written; good ones export, write their CSV and run in `pe-viz bench`.
#include "test_support.hpp"

namespace {

using namespace pe_test;

class MultimodalCliTest : public ::testing::Test {
 protected:
  TempDir home;
  CommandResult run(const std::string& args) { return run_pe_viz(args, home.path()); }
  std::string q(const fs::path& p) { return shell_quote(p.string()); }
};

TEST_F(MultimodalCliTest, BadValuesAreRefusedWithTheirNameAndNoFile) {
  struct Case {
    std::string view, options;
    std::vector<std::string> words;
  };
  const std::vector<Case> cases = {
      {"mrope-layout", "--sections 8,12,13", {"sections", "32"}},
      {"mrope-layout", "--sections 8,12", {"sections", "three"}},
      {"mrope-layout", "--sections=-8,20,20", {"sections"}},
      {"mrope-layout", "--scheme spiral", {"scheme", "spiral", "axial"}},
      {"rope-2d", "--grid-rows -4", {"grid_rows", "-4"}},
      {"rope-2d", "--grid-rows 1000 --grid-cols 1000", {"grid_rows × grid_cols", "262144"}},
      {"rope-2d", "--patch-row 24", {"patch_row", "24", "23"}},
      {"rope-2d", "--qk orthogonal", {"qk", "orthogonal"}},
      {"mrope-positions", "--prompt image:1x7x12", {"prompt", "image:1x7x12", "merge_size = 2"}},
      {"mrope-positions", "--prompt image:1x8x12 --merge-size 3", {"prompt", "merge_size = 3"}},
      {"mrope-positions", "--merge-size 0", {"merge_size", "0"}},
      {"mrope-positions", "--prompt 'text:2,movie:1x2x2'", {"prompt", "movie"}},
      {"mrope-positions", "--prompt-token 97", {"prompt_token", "97"}},
      {"mrope-positions", "--rope-index transformers-3", {"rope_index", "transformers-3"}},
      {"mrope-positions", "--sample-fps 0", {"sample_fps", "0"}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.view + " " + c.options);
    const fs::path out = home / "out.png";
    const CommandResult r = run("export --view " + c.view + " --size 320x240 -o " + q(out) + " " + c.options);
    EXPECT_EQ(r.exit_code, 2) << describe(r);
    for (const auto& w : c.words) EXPECT_NE(r.err.find(w), std::string::npos) << "missing \"" << w << "\" in: " << r.err;
    EXPECT_FALSE(fs::exists(out));
  }
}

TEST_F(MultimodalCliTest, ExportWritesEachViewAndItsCsv) {
  for (const std::string view : {"mrope-layout", "mrope-positions", "rope-2d"}) {
    SCOPED_TRACE(view);
    const fs::path png = home / (view + ".png"), csv = home / (view + ".csv");
    const CommandResult r =
        run("export --view " + view + " --preset qwen3-vl-8b --grid-rows 16 --grid-cols 20 --patch-row 15 --patch-col 0 "
            "--prompt text:3,image:1x4x8,text:1 --size 640x400 -o " + q(png) + " --csv " + q(csv));
    ASSERT_EQ(r.exit_code, 0) << describe(r);
    EXPECT_TRUE(fs::exists(png));
    const auto rows = parse_csv(read_file(csv));
    EXPECT_GE(rows.size(), 2u);
  }
  // rope-2d's CSV: 16 × 20 patches, the query at (15, 0).
  const auto rows = parse_csv(read_file(home / "rope-2d.csv"));
  ASSERT_EQ(rows.size(), 16u * 20u + 1u);
  EXPECT_EQ(rows[1][2], "-15");  // delta_h of patch (0, 0)
  EXPECT_EQ(rows[1][4], "-300");  // delta_p = −15 · 20
}

TEST_F(MultimodalCliTest, BenchTimesRope2dWhileThePatchMoves) {
  const CommandResult r = run("bench --views rope-2d --frames 10 --length 4096 --dim 128 --width 800 --height 600");
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_NE(r.out.find("64×64"), std::string::npos) << r.out;  // the custom row's patch grid
  EXPECT_NE(r.out.find("rope-2d"), std::string::npos) << r.out;
}

}  // namespace
