// `pe-viz dump` for multimodal configs (issue 12), run as a child process (PE_VIZ_BINARY).
// Expected numbers are written out here from the reference code, not taken from core:
//  - M-RoPE (modeling_qwen2_vl.py): pair i keeps theta^(−2i/128), sections t | h | w;
//  - interleaved M-RoPE (modular_qwen3_vl.py apply_interleaved_mrope): t h w t h w ..., tail t;
//  - Qwen2-VL vision (VisionRotaryEmbedding(head_dim/2)): 10000^(−2j/40), rows then columns;
//  - Pixtral (PixtralRotaryEmbedding): rows freqs[::2], columns freqs[1::2] of 10000^(−2k/64);
//  - FLUX (FluxPosEmbed): 10000^(−2j/16), then 10000^(−2j/56) twice;
//  - position ids from get_rope_index, by hand.
#include <nlohmann/json.hpp>

#include "test_support.hpp"

namespace {

using namespace pe_test;
using nlohmann::json;

class DumpMultimodalTest : public ::testing::Test {
 protected:
  TempDir home;
  CommandResult run(const std::string& args) { return run_pe_viz("dump " + args, home.path()); }
  json run_json(const std::string& args) {
    const CommandResult r = run(args);
    EXPECT_EQ(r.exit_code, 0) << describe(r);
    try {
      return json::parse(r.out);
    } catch (const std::exception& e) {
      ADD_FAILURE() << "dump " << args << " printed no valid JSON: " << e.what() << "\n" << describe(r);
      return json::object();
    }
  }
};

double rel_diff(double a, double b) { return std::abs(a - b) / std::max(std::abs(a), std::abs(b)); }

std::vector<long long> ints(const json& j) { return j.get<std::vector<long long>>(); }

void expect_frequencies(const json& mrope, const std::vector<int>& axes, const std::vector<double>& freqs) {
  const auto axis = ints(mrope.at("axis_of_pair"));
  const auto inv = mrope.at("inv_freq_of_pair").get<std::vector<double>>();
  ASSERT_EQ(axis.size(), axes.size());
  ASSERT_EQ(inv.size(), freqs.size());
  for (std::size_t i = 0; i < axes.size(); ++i) {
    EXPECT_EQ(axis[i], axes[i]) << "pair " << i;
    EXPECT_LE(rel_diff(inv[i], freqs[i]), 1e-12) << "pair " << i;
  }
}

TEST_F(DumpMultimodalTest, Qwen2VLMrope) {
  const json j = run_json("--preset qwen2-vl-7b");
  const json& m = j.at("mrope");
  EXPECT_EQ(m.at("scheme"), "mrope");
  EXPECT_EQ(ints(m.at("sections")), (std::vector<long long>{16, 24, 24}));
  std::vector<int> axes;
  std::vector<double> freqs;
  for (int i = 0; i < 64; ++i) {
    axes.push_back(i < 16 ? 0 : (i < 40 ? 1 : 2));
    freqs.push_back(std::pow(1e6, -2.0 * i / 128));
  }
  expect_frequencies(m, axes, freqs);
  EXPECT_EQ(m.at("rope_index").at("family"), "qwen2-vl");
  EXPECT_EQ(j.at("vision_tower").at("head_dim"), 80);
}

TEST_F(DumpMultimodalTest, Qwen3VLInterleaved) {
  const json m = run_json("--preset qwen3-vl-8b").at("mrope");
  EXPECT_EQ(m.at("scheme"), "mrope-interleaved");
  std::vector<int> axes;
  std::vector<double> freqs;
  for (int i = 0; i < 64; ++i) {
    axes.push_back(i < 60 ? i % 3 : 0);
    freqs.push_back(std::pow(5e6, -2.0 * i / 128));
  }
  expect_frequencies(m, axes, freqs);
}

TEST_F(DumpMultimodalTest, VisionTowers) {
  std::vector<int> axes;
  std::vector<double> freqs;
  for (int i = 0; i < 40; ++i) {
    axes.push_back(i < 20 ? 1 : 2);
    freqs.push_back(std::pow(1e4, -2.0 * (i % 20) / 40));
  }
  for (const char* args : {"--preset qwen2-vl-vision", "--preset qwen2-vl-7b --tower vision",
                           "--preset qwen2-vl-vision --tower vision"}) {
    SCOPED_TRACE(args);
    const json j = run_json(args);
    EXPECT_EQ(j.at("head_dim"), 80);
    EXPECT_EQ(j.at("theta").get<double>(), 1e4);
    EXPECT_EQ(j.at("mrope").at("scheme"), "vision-2d");
    EXPECT_EQ(j.at("mrope").at("variant"), "qwen2-vl");
    expect_frequencies(j.at("mrope"), axes, freqs);
  }
  axes.clear();
  freqs.clear();
  for (int i = 0; i < 32; ++i) {
    axes.push_back(i < 16 ? 1 : 2);
    freqs.push_back(std::pow(1e4, -2.0 * (i < 16 ? 2 * i : 2 * (i - 16) + 1) / 64));
  }
  const json p = run_json("--preset pixtral-12b-vision");
  EXPECT_EQ(p.at("mrope").at("variant"), "pixtral");
  expect_frequencies(p.at("mrope"), axes, freqs);
}

TEST_F(DumpMultimodalTest, FluxAxial) {
  const json j = run_json("--preset flux.1-dev");
  EXPECT_EQ(j.at("convention"), "interleaved");
  const json& m = j.at("mrope");
  EXPECT_EQ(m.at("scheme"), "axial");
  std::vector<int> axes;
  std::vector<double> freqs;
  for (int i = 0; i < 8; ++i) axes.push_back(0), freqs.push_back(std::pow(1e4, -2.0 * i / 16));
  for (int a = 1; a <= 2; ++a)
    for (int i = 0; i < 28; ++i) axes.push_back(a), freqs.push_back(std::pow(1e4, -2.0 * i / 56));
  expect_frequencies(m, axes, freqs);
}

TEST_F(DumpMultimodalTest, PositionIdsByHand) {
  // text:2 → 0 1; image 1×4×4 (merge 2: 2×2) at 2; text after at max + 1 = 4.
  const json p = run_json("--preset qwen2-vl-7b --prompt \"text:2,image:1x4x4,text:3\"").at("position_ids");
  EXPECT_EQ(ints(p.at("t")), (std::vector<long long>{0, 1, 2, 2, 2, 2, 4, 5, 6}));
  EXPECT_EQ(ints(p.at("h")), (std::vector<long long>{0, 1, 2, 2, 3, 3, 4, 5, 6}));
  EXPECT_EQ(ints(p.at("w")), (std::vector<long long>{0, 1, 2, 3, 2, 3, 4, 5, 6}));
  EXPECT_EQ(p.at("rope_delta"), -2);

  // The issue's example on Qwen2.5-VL (tokens_per_second 2): text 0-4, image 4×6 at 5,
  // text 11-13, video 4 × (4×4) at 14 with t stepping by tokens_per_second · 2 / sample_fps.
  const std::string prompt = "--prompt \"text:5,image:1x8x12,text:3,video:4x8x8\"";
  const json d = run_json("--preset qwen2.5-vl-7b " + prompt).at("position_ids");  // sample_fps 2 (default)
  ASSERT_EQ(d.at("tokens"), 96);
  const auto t = ints(d.at("t"));
  EXPECT_EQ(t[32], 14);
  EXPECT_EQ(t[48], 16);  // second temporal patch: 1 s later, 2 tokens per second
  EXPECT_EQ(t.back(), 20);
  EXPECT_EQ(ints(d.at("w"))[10], 10);
  const json slow = run_json("--preset qwen2.5-vl-7b " + prompt + " --sample-fps 1").at("position_ids");
  EXPECT_EQ(ints(slow.at("t"))[48], 18);  // 2 s per temporal patch
  // Issue 12 spells the option --fps: in dump (which writes no video) it is the same one.
  EXPECT_EQ(run_json("--preset qwen2.5-vl-7b " + prompt + " --fps 1").at("position_ids"), slow);
  // Qwen2-VL has no time scaling.
  EXPECT_EQ(ints(run_json("--preset qwen2-vl-7b " + prompt).at("position_ids").at("t"))[48], 15);
  // Text after a 3-frame 2×2 video: max + 1 = 3 (transformers 4), start + 4 / 2 = 2 (transformers 5).
  const std::string video = "--preset qwen2-vl-7b --prompt \"video:3x4x4,text:5\"";
  EXPECT_EQ(ints(run_json(video).at("position_ids").at("t"))[12], 3);
  EXPECT_EQ(ints(run_json(video + " --rope-index transformers-5").at("position_ids").at("t"))[12], 2);
}

TEST_F(DumpMultimodalTest, ConfigFileWithTextConfigAndDefaultType) {
  const fs::path file = home / "qwen3vl" / "config.json";
  fs::create_directories(file.parent_path());
  std::ofstream(file) << R"({"model_type": "qwen3_vl",
    "text_config": {"head_dim": 128, "hidden_size": 4096, "num_attention_heads": 32,
      "max_position_embeddings": 262144, "rope_theta": 5000000,
      "rope_scaling": {"mrope_interleaved": true, "mrope_section": [24, 20, 20], "rope_type": "default"}},
    "vision_config": {"hidden_size": 1152, "num_heads": 16, "patch_size": 16, "spatial_merge_size": 2}})";
  const json j = run_json("--config " + shell_quote(file.string()) + " --prompt video:2x4x4");
  EXPECT_EQ(j.at("name"), "qwen3vl");
  EXPECT_EQ(j.at("mrope").at("scheme"), "mrope-interleaved");
  // Qwen3-VL: each temporal patch its own block, the second at the first's max + 1.
  EXPECT_EQ(ints(j.at("position_ids").at("t")), (std::vector<long long>{0, 0, 0, 0, 2, 2, 2, 2}));
  const json v = run_json("--config " + shell_quote(file.string()) + " --tower vision");
  EXPECT_EQ(v.at("head_dim"), 72);
}

TEST_F(DumpMultimodalTest, BadValuesNameTheOption) {
  struct Bad {
    std::string args;
    const char* names;
    int exit_code;
  };
  const Bad cases[] = {
      {"--preset qwen2-vl-7b --prompt image:1x8", "--prompt", 1},
      {"--preset qwen2-vl-7b --prompt text:0", "--prompt", 1},
      {"--preset qwen2-vl-7b --prompt image:1x7x8", "--prompt", 1},
      {"--preset qwen2-vl-7b --prompt video:64x2048x2048", "--prompt", 1},
      {"--preset llama-3.1-8b --prompt text:3", "--prompt", 1},
      {"--preset flux.1-dev --prompt text:3", "--prompt", 1},
      {"--preset llama-3.1-8b --tower vision", "--tower", 1},
      {"--preset qwen2-vl-7b --tower eyes", "--tower", 2},
      {"--preset qwen2.5-vl-7b --prompt video:2x2x2 --sample-fps 0", "--sample-fps", 2},
      {"--preset qwen2.5-vl-7b --prompt video:2x2x2 --sample-fps nan", "--sample-fps", 2},
      {"--preset qwen2-vl-7b --rope-index transformers-6", "--rope-index", 2},
      {"--preset qwen2-vl-7b --dim 64", "sections", 1},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE("dump " + c.args);
    const CommandResult r = run(c.args);
    EXPECT_EQ(r.exit_code, c.exit_code) << describe(r);
    EXPECT_NE(r.err.find(c.names), std::string::npos) << describe(r);
    EXPECT_EQ(r.out, "") << "errors must not print JSON to stdout";
  }
}

}  // namespace
