// The multimodal views (issue 12): mrope-layout, mrope-positions and rope-2d. Their state
// keys, session keys and options; the numbers behind each picture against independent
// hand computations (HF's mrope_section rule, get_rope_index worked by hand, the closed-form
// score with the pair layout written out here); clicks and arrow keys; every multimodal
// preset and awkward head sizes drawn without GL errors.
#include <cmath>
#include <cstdio>
#include <functional>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "export/state_options.hpp"
#include "export/view_data.hpp"
#include "pe/analysis/analysis.hpp"
#include "plot/plot.hpp"
#include "state/session_file.hpp"
#include "test_support.hpp"
#include "ui/formula_strip.hpp"
#include "views/multimodal_common.hpp"
#include "views/view.hpp"

namespace {

using namespace pe_test;

const bool kRegistered = register_session_environment();

app::AppState with_preset(const std::string& preset, const std::string& view) {
  app::AppState s = app::default_state();
  app::apply_preset(s, preset);
  s.view = view;
  return s;
}

std::vector<std::vector<std::string>> csv_rows(const app::AppState& s) {
  app::Derived d;
  app::update_derived(s, d);
  EXPECT_EQ(d.error, "");
  return parse_csv(app::view_csv(s.view, s, d));
}

// ---- state, sessions, command line ------------------------------------------------------

TEST(MultimodalStateTest, DefaultsAreValidAndTheDefaultPromptHas97Tokens) {
  // text 4 + image 1 × (8/2) × (12/2) = 24 + text 3 + video 4 × (8/2) × (8/2) = 64 + text 2.
  EXPECT_EQ(app::prompt_tokens(app::AppState{}.prompt, 2), 97);
  EXPECT_EQ(app::validate_state(app::default_state()), "");
}

TEST(MultimodalStateTest, BadValuesNameTheirParameterAndRange) {
  struct Case {
    std::function<void(app::AppState&)> set;
    std::vector<std::string> words;
  };
  const std::vector<Case> cases = {
      {[](app::AppState& s) { s.scheme = "helix"; }, {"scheme", "helix", "mrope-interleaved"}},
      {[](app::AppState& s) { s.qk = "orthogonal"; }, {"qk", "orthogonal", "mean-identical"}},
      {[](app::AppState& s) { s.rope_index = "transformers-3"; }, {"rope_index", "transformers-5"}},
      {[](app::AppState& s) { s.sections = {16, 16}; }, {"sections", "three"}},
      {[](app::AppState& s) { s.sections = {-1, 16, 17}; }, {"sections", "-1"}},
      {[](app::AppState& s) { s.merge_size = 0; }, {"merge_size", "0"}},
      {[](app::AppState& s) { s.sample_fps = -2.0; }, {"sample_fps", "-2"}},
      {[](app::AppState& s) { s.prompt = "text:3,image:1x7x12"; }, {"prompt", "image:1x7x12", "merge_size = 2"}},
      {[](app::AppState& s) { s.prompt = "text:0"; }, {"prompt", "text:0"}},
      {[](app::AppState& s) { s.prompt = "image:1x1024x1024"; }, {"prompt", "262144", "65536"}},
      {[](app::AppState& s) { s.prompt_token = 97; }, {"prompt_token", "97", "96"}},
      {[](app::AppState& s) { s.grid_rows = -3; }, {"grid_rows", "-3"}},
      {[](app::AppState& s) { s.grid_rows = s.grid_cols = 1000; }, {"grid_rows × grid_cols", "1000 × 1000", "262144"}},
      {[](app::AppState& s) { s.patch_row = 24; }, {"patch_row", "24", "23"}},
      {[](app::AppState& s) { s.patch_col = -1; }, {"patch_col", "-1"}},
  };
  for (const Case& c : cases) {
    app::AppState s = app::default_state();
    c.set(s);
    const std::string error = app::validate_state(s);
    SCOPED_TRACE(error);
    ASSERT_NE(error, "");
    for (const std::string& w : c.words) EXPECT_NE(error.find(w), std::string::npos) << "missing \"" << w << "\"";
  }
}

TEST(MultimodalStateTest, SessionsKeepEveryMultimodalKey) {
  app::AppState s = with_preset("qwen2.5-vl-7b", "rope-2d");
  s.scheme = "mrope-interleaved";
  s.sections = {8, 28, 28};
  s.prompt = "text:2,video:2x4x6";
  s.merge_size = 2;
  s.sample_fps = 1.5;
  s.rope_index = "transformers-5";
  s.prompt_token = 7;
  s.grid_rows = 40;
  s.grid_cols = 50;
  s.patch_row = 39;
  s.patch_col = 1;
  s.qk = "random";
  std::vector<std::string> warnings;
  const app::AppState back = app::session_from_json(app::session_to_json(s), app::default_state(), warnings);
  EXPECT_TRUE(warnings.empty());
  EXPECT_EQ(back.scheme, s.scheme);
  EXPECT_EQ(back.sections, s.sections);
  EXPECT_EQ(back.prompt, s.prompt);
  EXPECT_EQ(back.merge_size, s.merge_size);
  EXPECT_EQ(back.sample_fps, s.sample_fps);
  EXPECT_EQ(back.rope_index, s.rope_index);
  EXPECT_EQ(back.prompt_token, s.prompt_token);
  EXPECT_EQ(back.grid_rows, s.grid_rows);
  EXPECT_EQ(back.grid_cols, s.grid_cols);
  EXPECT_EQ(back.patch_row, s.patch_row);
  EXPECT_EQ(back.patch_col, s.patch_col);
  EXPECT_EQ(back.qk, s.qk);

  // A hand-written session naming only the preset keeps its sections (the preset is
  // applied after the keys are read, and a preset load clears sections).
  const app::AppState named = app::session_from_json(
      R"({"pe_viz_session": 1, "preset": "qwen2-vl-7b", "sections": [32, 16, 16], "view": "mrope-layout"})", app::default_state(),
      warnings);
  EXPECT_EQ(named.sections, (std::vector<long long>{32, 16, 16}));
  EXPECT_THROW(app::session_from_json(R"({"pe_viz_session": 1, "grid_rows": 0})", app::default_state(), warnings),
               app::SessionError);
}

app::AppState with_options(std::vector<std::string> args, app::AppState s = app::default_state()) {
  CLI::App cli;
  app::StateOverrides o;
  app::add_state_options(cli, o);
  args.insert(args.begin(), "pe-viz");
  std::vector<const char*> argv;
  for (const auto& a : args) argv.push_back(a.c_str());
  cli.parse(int(argv.size()), argv.data());
  app::apply_overrides(s, o);
  return s;
}

TEST(MultimodalStateTest, CommandLineOptionsAreTheSessionKeys) {
  const app::AppState s = with_options({"--scheme", "mrope-interleaved", "--sections", "8,12,12", "--prompt", "text:2,image:1x4x4",
                                        "--merge-size", "2", "--rope-index", "transformers-5", "--prompt-token", "5", "--grid-rows",
                                        "8", "--grid-cols", "10", "--patch-row", "7", "--patch-col", "9", "--qk", "identical",
                                        "--sample-fps", "4"});
  EXPECT_EQ(s.scheme, "mrope-interleaved");
  EXPECT_EQ(s.sections, (std::vector<long long>{8, 12, 12}));
  EXPECT_EQ(s.prompt, "text:2,image:1x4x4");
  EXPECT_EQ(s.rope_index, "transformers-5");
  EXPECT_EQ(s.prompt_token, 5);
  EXPECT_EQ(s.grid_rows, 8);
  EXPECT_EQ(s.grid_cols, 10);
  EXPECT_EQ(s.patch_row, 7);
  EXPECT_EQ(s.patch_col, 9);
  EXPECT_EQ(s.qk, "identical");
  EXPECT_EQ(s.sample_fps, 4.0);
  // One name everywhere: each option is a session key with '-' for '_'.
  const nlohmann::json j = nlohmann::json::parse(app::session_to_json(s));
  for (const char* key : {"scheme", "sections", "prompt", "merge_size", "rope_index", "prompt_token", "grid_rows", "grid_cols",
                          "patch_row", "patch_col", "qk", "sample_fps"})
    EXPECT_TRUE(j.contains(key)) << key;
  EXPECT_EQ(with_options({"--sections", "auto"}, s).sections, std::vector<long long>{});
}

TEST(MultimodalStateTest, CommandLineRejectsSectionsThatDoNotFitTheHead) {
  try {
    with_options({"--sections", "8,12,13"});  // the teaching head has 32 rotary pairs
    ADD_FAILURE() << "accepted sections summing to 33";
  } catch (const std::exception& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("sections"), std::string::npos) << what;
    EXPECT_NE(what.find("32"), std::string::npos) << what;
  }
  EXPECT_THROW(with_options({"--sections", "16,48"}), std::exception);
  EXPECT_THROW(with_options({"--sections", "a,b,c"}), std::exception);
  EXPECT_NO_THROW(with_options({"--preset", "qwen2-vl-7b", "--sections", "16,24,24"}));
}

TEST(MultimodalStateTest, ANewGridOrPromptMovesTheSelectionInside) {
  const app::AppState grid = with_options({"--grid-rows", "4", "--grid-cols", "5"});
  EXPECT_EQ(grid.patch_row, 3);
  EXPECT_EQ(grid.patch_col, 4);
  EXPECT_EQ(with_options({"--prompt", "text:3"}).prompt_token, 2);
  EXPECT_THROW(with_options({"--prompt", "text:3", "--prompt-token", "3"}), std::exception);
}

TEST(MultimodalStateTest, SectionsLeftBehindByDAreReportedAndReplaced) {
  app::AppState s = app::default_state();
  s.sections = {8, 12, 12};
  s.rope.head_dim = 66;  // 33 pairs: the panel's d slider moved after the sections were set
  app::Derived d;
  app::update_derived(s, d);
  const app::MultimodalSetup m = app::multimodal_setup(s, d);
  EXPECT_NE(m.sections_error.find("sections"), std::string::npos) << m.sections_error;
  EXPECT_NE(m.sections_error.find("33"), std::string::npos) << m.sections_error;
  EXPECT_EQ(m.sections, (std::vector<long long>{8, 12, 13}));  // 33/4 = 8, (33 − 8)/2 = 12, rest 13
  EXPECT_EQ(app::validate_state(s), "");  // not an invalid state: the views say it
}

// ---- the numbers behind the pictures ------------------------------------------------------

double ladder(double theta, long long j, long long dim) { return std::pow(theta, -2.0 * double(j) / double(dim)); }

TEST(MultimodalDataTest, LayoutCsvFollowsEachSchemesRule) {
  // Qwen2-VL 7B: θ = 1e6, d = 128, mrope_section [16, 24, 24] (its config.json).
  const auto rows = csv_rows(with_preset("qwen2-vl-7b", "mrope-layout"));
  ASSERT_FALSE(rows.empty());
  EXPECT_EQ(rows[0], (std::vector<std::string>{"scheme", "pair", "axis", "inv_freq", "wavelength", "cover_length", "turns_over_cover"}));
  std::map<std::string, std::array<int, 3>> counts;
  int checked = 0;
  for (std::size_t k = 1; k < rows.size(); ++k) {
    const auto& r = rows[k];
    const long long i = std::stoll(r[1]);
    std::string axis;
    double freq = 0;
    if (r[0] == "mrope") {  // apply_multimodal_rotary_pos_emb: consecutive chunks t | h | w
      axis = i < 16 ? "t" : i < 40 ? "h" : "w";
      freq = ladder(1e6, i, 128);
    } else if (r[0] == "mrope-interleaved") {  // apply_interleaved_mrope: h at 1, 4, ... < 72; w at 2, 5, ... < 72
      axis = (i % 3 == 1 && i < 72) ? "h" : (i % 3 == 2 && i < 72) ? "w" : "t";
      freq = ladder(1e6, i, 128);
    } else if (r[0] == "ernie-3d") {  // recomposition_to_3d: h at even, w at odd pairs < 24 + 24, then t
      axis = i < 48 ? (i % 2 == 0 ? "h" : "w") : "t";
      freq = ladder(1e6, i, 128);
    } else if (r[0] == "vision-2d") {  // Qwen2-VL VisionRotaryEmbedding(head_dim/2): h ladder, then the same for w
      axis = i < 32 ? "h" : "w";
      freq = ladder(1e6, i % 32, 64);
    } else if (r[0] == "axial") {  // one ladder per axis over its own dims: 32, 48, 48
      axis = i < 16 ? "t" : i < 40 ? "h" : "w";
      freq = i < 16 ? ladder(1e6, i, 32) : i < 40 ? ladder(1e6, i - 16, 48) : ladder(1e6, i - 40, 48);
    }
    SCOPED_TRACE(r[0] + " pair " + r[1]);
    EXPECT_EQ(r[2], axis);
    EXPECT_NEAR(std::stod(r[3]) / freq, 1.0, 1e-8);
    EXPECT_NEAR(std::stod(r[4]) * freq / (2.0 * M_PI), 1.0, 1e-8);
    // t covers the context (32768), h and w the patch grid's side (max(24, 32)).
    if (r[0] == "mrope" || r[0] == "mrope-interleaved") {
      EXPECT_EQ(std::stod(r[5]), axis == "t" ? 32768.0 : 32.0);
    }
    ++counts[r[0]][axis == "t" ? 0 : axis == "h" ? 1 : 2];
    ++checked;
  }
  EXPECT_EQ(checked, 5 * 64);
  EXPECT_EQ(counts["ernie-3d"], (std::array<int, 3>{16, 24, 24}));
  EXPECT_EQ(counts["mrope"], (std::array<int, 3>{16, 24, 24}));
  EXPECT_EQ(counts["mrope-interleaved"], (std::array<int, 3>{22, 21, 21}));
  EXPECT_EQ(counts["vision-2d"], (std::array<int, 3>{0, 32, 32}));
}

TEST(MultimodalDataTest, PositionsCsvIsTheHandWorkedPrompt) {
  // text:4, image 1×8×12 → 4 × 6 merged, text:3, video 4×8×8 → 4 frames of 4 × 4, text:2.
  // Text counts up; the image starts at 4: (4, 4 + r, 4 + c); its largest id is 4 + 5 = 9,
  // so the text goes on at 10, 11, 12; the video starts at 13 with t = 13 + frame; its
  // largest id is 16, so the last text gets 17, 18 (transformers 4, Qwen2-VL).
  const auto rows = csv_rows(with_preset("teaching", "mrope-positions"));
  ASSERT_EQ(rows.size(), 98u);
  EXPECT_EQ(rows[0], (std::vector<std::string>{"token", "kind", "item", "t", "h", "w", "index_1d"}));
  auto ids = [&](int token) {
    const auto& r = rows[std::size_t(token) + 1];
    EXPECT_EQ(std::stoi(r[6]), token);
    return std::array<int, 3>{std::stoi(r[3]), std::stoi(r[4]), std::stoi(r[5])};
  };
  EXPECT_EQ(ids(0), (std::array<int, 3>{0, 0, 0}));
  EXPECT_EQ(ids(3), (std::array<int, 3>{3, 3, 3}));
  EXPECT_EQ(ids(4), (std::array<int, 3>{4, 4, 4}));
  EXPECT_EQ(ids(12), (std::array<int, 3>{4, 5, 6}));   // row 1, col 2
  EXPECT_EQ(ids(18), (std::array<int, 3>{4, 6, 6}));   // the patch below: 6 = 12 / 2 tokens later
  EXPECT_EQ(ids(27), (std::array<int, 3>{4, 7, 9}));   // last patch
  EXPECT_EQ(ids(28), (std::array<int, 3>{10, 10, 10}));
  EXPECT_EQ(ids(31), (std::array<int, 3>{13, 13, 13}));
  EXPECT_EQ(ids(47), (std::array<int, 3>{14, 13, 13}));  // frame 1
  EXPECT_EQ(ids(94), (std::array<int, 3>{16, 16, 16}));
  EXPECT_EQ(ids(96), (std::array<int, 3>{18, 18, 18}));
  EXPECT_EQ(rows[13][1], "image");
  EXPECT_EQ(rows[13][2], "2");

  // A video longer in t than in h/merge, w/merge: transformers 4 continues after its
  // largest id (2 + 3 + 1 = 6), transformers 5 at start + max(H, W) / merge = 2 + 2 = 4.
  app::AppState s = with_preset("teaching", "mrope-positions");
  s.prompt = "text:2,video:4x4x4,text:1";
  s.prompt_token = 0;
  EXPECT_EQ(csv_rows(s)[19][3], "6");
  s.rope_index = "transformers-5";
  EXPECT_EQ(csv_rows(s)[19][3], "4");
}

TEST(MultimodalDataTest, Rope2dScoresAreTheClosedFormOfTheLayout) {
  // Teaching head (θ = 1e4, d = 64) has no mrope_section: automatic [8, 12, 12], contiguous.
  // A random pair (q ≠ k: the sine terms count too) and identical vectors (cosines only).
  for (const auto& [qk, choice] : {std::pair{"random", pe::VectorChoice::RandomPair}, {"identical", pe::VectorChoice::Identical}}) {
    SCOPED_TRACE(qk);
    app::AppState s = with_preset("teaching", "rope-2d");
    s.grid_rows = 3;
    s.grid_cols = 4;
    s.patch_row = 1;
    s.patch_col = 2;
    s.qk = qk;
    s.seed = 5;
    const pe::RelativeScoreCoefficients c = pe::choice_coefficients(choice, 32, 5);
    auto score = [&](long long dh, long long dw, bool flat) {
      double sum = c.passthrough;
      for (long long i = 0; i < 32; ++i) {
        const double delta = flat ? double(dh * 4 + dw) : i < 8 ? 0.0 : i < 20 ? double(dh) : double(dw);
        const double angle = delta * ladder(1e4, i, 64);
        sum += c.a[i] * std::cos(angle) + c.b[i] * std::sin(angle);
      }
      return sum / 64.0;
    };
    const auto rows = csv_rows(s);
    ASSERT_EQ(rows.size(), 13u);
    EXPECT_EQ(rows[0], (std::vector<std::string>{"row", "col", "delta_h", "delta_w", "delta_p", "score", "score_flattened"}));
    for (std::size_t k = 1; k < rows.size(); ++k) {
      const auto& r = rows[k];
      const long long dh = std::stoll(r[2]), dw = std::stoll(r[3]);
      EXPECT_EQ(std::stoll(r[4]), dh * 4 + dw);
      EXPECT_NEAR(std::stod(r[5]), score(dh, dw, false), 1e-8) << "patch " << r[0] << ", " << r[1];
      EXPECT_NEAR(std::stod(r[6]), score(dh, dw, true), 1e-8) << "patch " << r[0] << ", " << r[1];
    }
  }
}

double csv_score(const std::vector<std::vector<std::string>>& rows, long long cols, long long r, long long c, int column) {
  return std::stod(rows[std::size_t(r * cols + c) + 1][std::size_t(column)]);
}

TEST(MultimodalDataTest, Rope2dFormulaNumbersAreTheGridsScores) {
  // The strip evaluates four scores on its own (2-row grids) instead of the whole grid;
  // they must be the grid's values below and right of the query (the query itself at an edge).
  // θ changes between calls with the same vectors: the strip keeps its seeded vectors then.
  for (const auto& [row, col] : {std::pair{1LL, 2LL}, {2LL, 3LL}, {0LL, 0LL}}) {
    for (const auto& [qk, theta] : {std::pair{"random", 1e4}, {"random", 5e5}, {"mean-identical", 1e4}, {"mean-identical", 5e5}}) {
      SCOPED_TRACE(std::string(qk) + " query " + std::to_string(row) + "," + std::to_string(col) + " theta " + std::to_string(theta));
      app::AppState s = with_preset("teaching", "rope-2d");
      s.rope.theta = theta;
      s.grid_rows = 3;
      s.grid_cols = 4;
      s.patch_row = row;
      s.patch_col = col;
      s.qk = qk;
      s.seed = 9;
      app::Derived d;
      app::update_derived(s, d);
      const auto lines = app::view_formula("rope-2d", s, d);
      ASSERT_EQ(lines.size(), 2u);
      const std::size_t at = lines[1].find(": below ");
      ASSERT_NE(at, std::string::npos) << lines[1];
      double below = 0, right = 0, flat_below = 0, flat_right = 0;
      long long dp = -1;
      ASSERT_EQ(std::sscanf(lines[1].c_str() + at, ": below %lf, right %lf;  1D: below (Δp %lld) %lf, right %lf", &below, &right, &dp,
                            &flat_below, &flat_right),
                5)
          << lines[1];
      const auto rows = csv_rows(s);
      const long long down = std::min(row + 1, 2LL), next = std::min(col + 1, 3LL);
      EXPECT_NEAR(below, csv_score(rows, 4, down, col, 5), 6e-5);
      EXPECT_NEAR(right, csv_score(rows, 4, row, next, 5), 6e-5);
      EXPECT_EQ(dp, (down - row) * 4);
      EXPECT_NEAR(flat_below, csv_score(rows, 4, down, col, 6), 6e-5);
      EXPECT_NEAR(flat_right, csv_score(rows, 4, row, next, 6), 6e-5);
    }
  }
}

TEST(MultimodalDataTest, ContiguousMRopeIsAnisotropicInterleavedIsNot) {
  // Qwen2-VL: h rotates with pairs 16–39, w only with 40–63 (slower): 8 rows away the score
  // falls far more than 8 columns away. Qwen3-VL interleaves: both axes have fast pairs.
  for (const auto& [preset, anisotropic] : {std::pair{"qwen2-vl-7b", true}, {"qwen3-vl-8b", false}}) {
    SCOPED_TRACE(preset);
    app::AppState s = with_preset(preset, "rope-2d");
    s.grid_rows = s.grid_cols = 16;
    s.patch_row = s.patch_col = 4;
    const auto rows = csv_rows(s);
    const double q = csv_score(rows, 16, 4, 4, 5);
    const double drop_h = q - csv_score(rows, 16, 12, 4, 5), drop_w = q - csv_score(rows, 16, 4, 12, 5);
    EXPECT_GT(drop_h, 0.0);
    if (anisotropic) {
      EXPECT_GT(drop_h, 100.0 * std::abs(drop_w));
    } else {
      EXPECT_LT(std::max(drop_h, drop_w) / std::min(drop_h, drop_w), 5.0);
    }
  }
}

TEST(MultimodalDataTest, FlatteningMakesTheRowEndANeighbour) {
  // Query at the start of row 2: in 1D the last patch of row 1 is Δp = −1 away and scores
  // exactly as the patch to the right (Δp = +1; mean-identical scores are even in Δ). In
  // 2D it is a row up and the whole width away.
  app::AppState s = with_preset("qwen3-vl-8b", "rope-2d");
  s.grid_rows = 6;
  s.grid_cols = 8;
  s.patch_row = 2;
  s.patch_col = 0;
  const auto rows = csv_rows(s);
  EXPECT_NEAR(csv_score(rows, 8, 1, 7, 6), csv_score(rows, 8, 2, 1, 6), 1e-8);
  EXPECT_GT(csv_score(rows, 8, 2, 1, 5) - csv_score(rows, 8, 1, 7, 5), 1e-3);
}

// ---- the views in the window ----------------------------------------------------------------

class MultimodalViewsTest : public SessionTest {
 protected:
  void TearDown() override { session().window().set_input_hook(nullptr); }
  // Presses and releases the left button at `at` (window pixels) over two frames.
  void click(ImVec2 at) {
    bool down = true;
    session().window().set_input_hook([&](ImGuiIO& io) {
      io.MousePos = at;
      io.MouseDown[0] = down;
    });
    session().frame(0.0);
    down = false;
    session().frame(0.0);
    session().window().set_input_hook([](ImGuiIO& io) { io.MousePos = {-FLT_MAX, -FLT_MAX}; });
    session().frame(0.0);
  }
  // The data area of the plot whose title starts with `title`, as drawn in the last frame.
  plot::DrawnPlot drawn(const std::string& title) {
    plot::set_record_drawn_plots(true);
    plot::take_drawn_plots();
    session().frame(0.0);
    const auto plots = plot::take_drawn_plots();
    plot::set_record_drawn_plots(false);
    for (const auto& p : plots)
      if (p.title.rfind(title, 0) == 0) return p;
    ADD_FAILURE() << "no plot titled " << title;
    return {};
  }
  // Centre of cell (r, c) of a rows × cols grid drawn with equal aspect, row 0 on top.
  static ImVec2 cell_centre(const plot::DrawnPlot& p, long long rows, long long cols, long long r, long long c) {
    const float w = p.max.x - p.min.x, h = p.max.y - p.min.y;
    const float units_per_px = std::max(float(cols) / w, float(rows) / h);
    return {(p.min.x + p.max.x) * 0.5f + (float(c) - float(cols - 1) * 0.5f) / units_per_px,
            (p.min.y + p.max.y) * 0.5f + (float(r) - float(rows - 1) * 0.5f) / units_per_px};
  }
};

TEST_F(MultimodalViewsTest, EveryMultimodalPresetAndAwkwardHeadsDrawWithoutGlErrors) {
  plot::set_record_drawn_plots(true);
  for (const char* preset : {"teaching", "qwen2-vl-7b", "qwen2.5-vl-7b", "qwen3-vl-8b", "qwen2-vl-vision", "pixtral-12b-vision",
                             "flux.1-dev"}) {
    for (const char* view : {"mrope-layout", "mrope-positions", "rope-2d"}) {
      SCOPED_TRACE(std::string(preset) + " " + view);
      session().state() = with_preset(preset, view);
      plot::take_drawn_plots();
      window_frames(3);
      EXPECT_TRUE(render::drain_gl_errors().empty());
      bool varied = false;
      for (const auto& p : plot::take_drawn_plots()) varied = varied || p.varied;
      EXPECT_TRUE(varied);
    }
  }
  plot::set_record_drawn_plots(false);
  // d = 2 (one pair), 6 (vision 2D needs d divisible by 4: that row and rope-2d say so) and
  // the views' largest d; every scheme.
  for (long long dim : {2LL, 6LL, app::kMaxViewDim}) {
    for (const char* scheme : {"mrope", "mrope-interleaved", "vision-2d", "axial"}) {
      for (const char* view : {"mrope-layout", "rope-2d"}) {
        SCOPED_TRACE(std::to_string(dim) + " " + scheme + " " + view);
        app::AppState s = known_state(view);
        s.rope.head_dim = dim;
        s.pair = 0;
        s.scheme = scheme;
        session().state() = s;
        window_frames(2);
        EXPECT_TRUE(render::drain_gl_errors().empty());
      }
    }
  }
}

TEST_F(MultimodalViewsTest, ClickingAPatchMakesItTheQuery) {
  session().state() = known_state("rope-2d");
  window_frames(2);
  const plot::DrawnPlot grid = drawn("mrope: s(query");
  click(cell_centre(grid, 24, 32, 3, 5));
  EXPECT_EQ(session().state().patch_row, 3);
  EXPECT_EQ(session().state().patch_col, 5);
  // The flattened grid beside it picks too.
  click(cell_centre(drawn("flattened 1D"), 24, 32, 20, 30));
  EXPECT_EQ(session().state().patch_row, 20);
  EXPECT_EQ(session().state().patch_col, 30);
}

TEST_F(MultimodalViewsTest, ClickingAGridCellOrATokenSelectsIt) {
  session().state() = known_state("mrope-positions");
  window_frames(2);
  // The default token (12) is in the image: 4 × 6 merged patches from token 4.
  click(cell_centre(drawn("M-RoPE ids"), 4, 6, 3, 5));
  EXPECT_EQ(session().state().prompt_token, 4 + 3 * 6 + 5);
  const plot::DrawnPlot ids = drawn("Position ids per token");
  // Token k sits at x = k on an axis from −0.5 to 96.5.
  const float x = ids.min.x + (ids.max.x - ids.min.x) * float((60.0 + 0.5) / 97.0);
  click({x, (ids.min.y + ids.max.y) * 0.5f});
  EXPECT_EQ(session().state().prompt_token, 60);
}

TEST_F(MultimodalViewsTest, ArrowsStepThroughPatchesTokensAndSchemes) {
  app::AppState s = known_state("rope-2d");
  s.patch_row = 0;
  s.patch_col = s.grid_cols - 1;
  app::step_view(s, +1);  // reading order: the row's end goes on at the next row's start
  EXPECT_EQ(s.patch_row, 1);
  EXPECT_EQ(s.patch_col, 0);
  app::step_view(s, -1);
  EXPECT_EQ(s.patch_col, s.grid_cols - 1);

  s.view = "mrope-positions";
  s.prompt_token = 96;
  app::step_view(s, +1);
  EXPECT_EQ(s.prompt_token, 96);  // the last token stays
  app::step_view(s, -1);
  EXPECT_EQ(s.prompt_token, 95);

  s.view = "mrope-layout";
  s.scheme = "auto";  // the teaching config has none: mrope
  std::vector<std::string> seen;
  for (int k = 0; k < 5; ++k) {
    app::step_view(s, +1);
    seen.push_back(s.scheme);
  }
  EXPECT_EQ(seen, (std::vector<std::string>{"mrope-interleaved", "ernie-3d", "vision-2d", "axial", "mrope"}));
}

}  // namespace
