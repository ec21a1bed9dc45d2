// `pe-viz dump --config / --preset` and `pe-viz inspect --json` report a model's positional
// encoding family with issue 33's keys ("position_encoding", "encoder_position_encoding",
// max_position_embeddings, position_offset, relative_attention_num_buckets,
// relative_attention_max_distance, position_buckets, max_relative_positions, alibi_slopes),
// `inv_freq` only where the model rotates. Run as a child process; expected values are the
// published config.json files' numbers (tests/data/configs) and the slopes' formula.
#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "test_support.hpp"

namespace {

using namespace pe_test;
using nlohmann::json;

std::string data_config(const std::string& model) {
  return shell_quote((std::filesystem::path(PE_SOURCE_DIR) / "tests" / "data" / "configs" / (model + ".json")).string());
}

class FamilyCli : public ::testing::Test {
 protected:
  TempDir home;
  CommandResult run(const std::string& args) { return run_pe_viz(args, home.path()); }
  json run_json(const std::string& args) {
    const CommandResult r = run(args);
    EXPECT_EQ(r.exit_code, 0) << describe(r);
    try {
      return json::parse(r.out);
    } catch (const std::exception& e) {
      ADD_FAILURE() << args << " printed no valid JSON: " << e.what() << "\n" << describe(r);
      return json::object();
    }
  }
  std::string write(const std::string& name, const std::string& text) {
    const std::filesystem::path p = home.path() / name;
    std::ofstream(p) << text;
    return shell_quote(p.string());
  }
};

TEST_F(FamilyCli, DumpGpt2IsItsLearnedTableWithoutInvFreq) {
  const json j = run_json("dump --config " + data_config("gpt2"));
  EXPECT_EQ(j.at("position_encoding"), "learned-absolute");
  EXPECT_FALSE(j.contains("encoder_position_encoding"));
  EXPECT_EQ(j.at("max_position_embeddings"), 1024);
  EXPECT_EQ(j.at("position_offset"), 0);
  EXPECT_EQ(j.at("hidden_size"), 768);
  EXPECT_EQ(j.at("num_attention_heads"), 12);
  EXPECT_EQ(j.at("keys").at("max_position_embeddings"), "n_positions");
  EXPECT_FALSE(j.contains("inv_freq"));
  EXPECT_FALSE(j.contains("theta"));
  EXPECT_FALSE(j.contains("alibi_slopes"));
  // The preset reads the same numbers.
  const json p = run_json("dump --preset gpt2");
  EXPECT_EQ(p.at("max_position_embeddings"), 1024);
  EXPECT_EQ(p.at("name"), "gpt2");
}

TEST_F(FamilyCli, DumpOffsetsT5DebertaWhisper) {
  const json opt = run_json("dump --config " + data_config("opt-125m"));
  EXPECT_EQ(opt.at("position_offset"), 2);
  EXPECT_EQ(opt.at("max_position_embeddings"), 2048);
  const json roberta = run_json("dump --config " + data_config("roberta-base"));
  EXPECT_EQ(roberta.at("position_offset"), 2);  // padding_idx 1 + 1
  EXPECT_EQ(roberta.at("max_position_embeddings"), 514);
  const json t5 = run_json("dump --config " + data_config("t5-base"));
  EXPECT_EQ(t5.at("position_encoding"), "t5-relative-bias");
  EXPECT_EQ(t5.at("encoder_position_encoding"), "t5-relative-bias");
  EXPECT_EQ(t5.at("relative_attention_num_buckets"), 32);
  EXPECT_EQ(t5.at("relative_attention_max_distance"), 128);
  EXPECT_FALSE(t5.contains("inv_freq"));
  const json deberta = run_json("dump --config " + data_config("deberta-v3-base"));
  EXPECT_EQ(deberta.at("position_encoding"), "deberta-relative");
  EXPECT_EQ(deberta.at("position_buckets"), 256);
  EXPECT_EQ(deberta.at("max_relative_positions"), 512);
  const json whisper = run_json("dump --config " + data_config("whisper-small"));
  EXPECT_EQ(whisper.at("position_encoding"), "learned-absolute");
  EXPECT_EQ(whisper.at("encoder_position_encoding"), "sinusoidal");
  EXPECT_EQ(whisper.at("max_position_embeddings"), 448);
  EXPECT_EQ(whisper.at("encoder_max_position_embeddings"), 1500);
}

TEST_F(FamilyCli, DumpBloomHasItsSlopes) {
  const json j = run_json("dump --config " + data_config("bloom-560m"));
  EXPECT_EQ(j.at("position_encoding"), "alibi");
  const json& slopes = j.at("alibi_slopes");
  ASSERT_EQ(slopes.size(), 16u);
  for (std::size_t h = 0; h < 16; ++h)
    EXPECT_NEAR(slopes[h].get<double>() / std::pow(2.0, -8.0 * double(h + 1) / 16.0), 1.0, 1e-6) << "head " << h + 1;
  // 12 heads, not a power of two: 2^-1 … 2^-8, then 2^-0.5, 2^-1.5, 2^-2.5, 2^-3.5 (Press et al.'s rule).
  const json twelve = run_json("dump --config " + write("bloom12.json", R"({"model_type": "bloom", "hidden_size": 768, "n_head": 12})"));
  const double expected[] = {0.5, 0.25, 0.125, 0.0625, 0.03125, 0.015625, 0.0078125, 0.00390625,
                             std::pow(2.0, -0.5), std::pow(2.0, -1.5), std::pow(2.0, -2.5), std::pow(2.0, -3.5)};
  ASSERT_EQ(twelve.at("alibi_slopes").size(), 12u);
  for (std::size_t h = 0; h < 12; ++h) EXPECT_NEAR(twelve.at("alibi_slopes")[h].get<double>(), expected[h], 1e-7) << h;
}

TEST_F(FamilyCli, RopeModelsKeepTodaysOutputPlusTheirFamily) {
  const json j = run_json("dump --preset llama-3.1-8b");
  EXPECT_EQ(j.at("position_encoding"), "rope");
  EXPECT_EQ(j.at("theta"), 500000.0);
  EXPECT_EQ(j.at("inv_freq").size(), 64u);
  const json in = run_json("inspect --json --preset llama-3.1-8b");
  EXPECT_EQ(in.at("position_encoding"), "rope");
  EXPECT_EQ(in.at("frameworks").at("results").size(), 3u);
}

TEST_F(FamilyCli, InspectReportsTheFamily) {
  const json j = run_json("inspect --json --config " + data_config("t5-base"));
  EXPECT_TRUE(j.at("valid").get<bool>());
  EXPECT_EQ(j.at("position_encoding"), "t5-relative-bias");
  EXPECT_EQ(j.at("relative_attention_max_distance"), 128);
  EXPECT_FALSE(j.contains("frameworks"));
  EXPECT_FALSE(j.contains("config"));
  EXPECT_EQ(j.at("layers").at("count"), 24);
  const CommandResult text = run("inspect --preset bloom-560m");
  ASSERT_EQ(text.exit_code, 0) << describe(text);
  EXPECT_NE(text.out.find("position_encoding alibi"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("alibi_slopes ["), std::string::npos) << text.out;
  EXPECT_EQ(text.out.find("Frameworks at length"), std::string::npos) << text.out;
}

TEST_F(FamilyCli, BadInputNamesTheKeyOrOption) {
  const CommandResult unknown = run("dump --config " + write("mystery.json", R"({"model_type": "mystery", "hidden_size": 64})"));
  EXPECT_EQ(unknown.exit_code, 1);
  EXPECT_NE(unknown.err.find("model_type"), std::string::npos) << unknown.err;
  EXPECT_NE(unknown.err.find("no positional encoding recognised"), std::string::npos) << unknown.err;
  EXPECT_TRUE(unknown.out.empty());
  const CommandResult both = run("dump --config " + write("both.json", R"({"model_type": "falcon", "alibi": true, "rotary_dim": 32})"));
  EXPECT_EQ(both.exit_code, 1);
  EXPECT_NE(both.err.find("alibi"), std::string::npos) << both.err;
  const CommandResult theta = run("dump --preset gpt2 --theta 500000");
  EXPECT_EQ(theta.exit_code, 2);
  EXPECT_NE(theta.err.find("--theta"), std::string::npos) << theta.err;
  EXPECT_NE(theta.err.find("does not rotate"), std::string::npos) << theta.err;
  const CommandResult emit = run("dump --preset t5-base --emit-config v5");
  EXPECT_EQ(emit.exit_code, 1);
  EXPECT_NE(emit.err.find("does not rotate"), std::string::npos) << emit.err;
}

TEST_F(FamilyCli, ListPresetsNamesEachFamily) {
  const json list = run_json("dump --list-presets");
  bool gpt2 = false, teaching = false;
  for (const auto& p : list) {
    if (p.at("key") == "gpt2") gpt2 = p.at("position_encoding") == "learned-absolute";
    if (p.at("key") == "teaching") teaching = p.at("position_encoding") == "rope";
  }
  EXPECT_TRUE(gpt2);
  EXPECT_TRUE(teaching);
}

}  // namespace
