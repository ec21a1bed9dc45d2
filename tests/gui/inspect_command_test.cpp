// `pe-viz inspect` (issue 15) and the command line's range/effect rule, run as child
// processes (PE_VIZ_BINARY):
//  - every bundled preset inspects with no warning and no error, text and --json;
//  - a config seeded with mistakes gets each one named, with the key;
//  - an invalid config exits 1 naming the key; no source is a usage error (2);
//  - dump and the state options refuse options outside their documented range even where
//    the configuration would not use them, and note options that have no effect.
#include <nlohmann/json.hpp>

#include "test_support.hpp"

namespace {

using namespace pe_test;
using nlohmann::json;

class InspectTest : public ::testing::Test {
 protected:
  TempDir home;
  CommandResult run(const std::string& args) { return run_pe_viz(args, home.path()); }
  fs::path write(const std::string& name, const std::string& text) {
    const fs::path p = home.path() / name;
    std::ofstream(p) << text;
    return p;
  }
};

TEST_F(InspectTest, EveryPresetInspectsWithoutWarnings) {
  const CommandResult list = run("dump --list-presets");
  ASSERT_EQ(list.exit_code, 0) << describe(list);
  const json presets = json::parse(list.out);
  ASSERT_GE(presets.size(), 25u);
  for (const auto& p : presets) {
    const std::string key = p.at("key").get<std::string>();
    SCOPED_TRACE(key);
    const CommandResult r = run("inspect --json --preset " + shell_quote(key));
    ASSERT_EQ(r.exit_code, 0) << describe(r);
    const json j = json::parse(r.out);
    EXPECT_TRUE(j.at("valid").get<bool>());
    for (const auto& d : j.at("diagnostics")) {
      EXPECT_EQ(d.at("severity"), "info") << d.dump();
    }
    EXPECT_GE(j.at("layers").at("count").get<long long>(), 1);
    EXPECT_EQ(j.at("position_encoding"), p.at("position_encoding"));
    // A model that does not rotate (issue 33) has no RoPE frameworks to compare.
    if (p.at("position_encoding") != "rope") {
      EXPECT_FALSE(j.contains("frameworks"));
      continue;
    }
    ASSERT_EQ(j.at("frameworks").at("results").size(), 3u);
    EXPECT_EQ(j.at("frameworks").at("results")[0].at("framework"), "transformers");
    EXPECT_EQ(j.at("frameworks").at("results")[0].at("inv_freq").size(),
              std::size_t(j.at("config").at("rotary_dim").get<long long>() / 2));
    const CommandResult text = run("inspect --preset " + shell_quote(key));
    ASSERT_EQ(text.exit_code, 0) << describe(text);
    EXPECT_NE(text.out.find("0 errors, 0 warnings"), std::string::npos) << text.out;
    EXPECT_NE(text.out.find("Frameworks at length"), std::string::npos);
  }
}

TEST_F(InspectTest, TextShowsLayersAndFrameworks) {
  const CommandResult r = run("inspect --preset gemma-3-27b");
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_NE(r.out.find("10 × layers 5, 11, 17, 23, 29, 35, 41, 47, 53, 59: full_attention"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("text_config.rope_theta: absent; 1000000"), std::string::npos) << r.out;
  const CommandResult oss = run("inspect --preset gpt-oss-20b");
  ASSERT_EQ(oss.exit_code, 0) << describe(oss);
  EXPECT_NE(oss.out.find("largest difference"), std::string::npos) << oss.out;
  EXPECT_NE(oss.out.find("llama.cpp differs"), std::string::npos) << oss.out;
  const CommandResult layers = run("inspect --preset llama-4-scout --layers");
  ASSERT_EQ(layers.exit_code, 0) << describe(layers);
  EXPECT_NE(layers.out.find("  3  full_attention, no positional encoding (NoPE)"), std::string::npos) << layers.out;
}

TEST_F(InspectTest, SeededMistakesAreEachNamed) {
  const fs::path cfg = write("config.json", R"({
    "model_type": "qwen3", "head_dim": 80, "hidden_size": 4096, "num_attention_heads": 32,
    "max_position_embeddings": 40960, "partial_rotary_factor": 0.3125, "rope_thetta": 1000000,
    "rope_scaling": {"rope_type": "yarn", "factor": 4.0, "attn_factor": 0.9, "beta_fsat": 16,
                     "original_max_position_embeddings": 32768, "low_freq_factor": 1.0}})");
  const CommandResult r = run("inspect --json --config " + shell_quote(cfg.string()));
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  const json j = json::parse(r.out);
  std::set<std::string> warned;
  for (const auto& d : j.at("diagnostics"))
    if (d.at("severity") == "warning") warned.insert(d.at("key").get<std::string>());
  for (const char* key : {"rope_scaling.attn_factor", "rope_thetta", "rope_scaling.beta_fsat",
                          "rope_scaling.low_freq_factor", "rope_scaling.factor", "partial_rotary_factor"})
    EXPECT_TRUE(warned.count(key)) << key << "\n" << r.out;
  // The llama3 equal-bands case is named too (as transformers' note, not a warning).
  const fs::path bands = write("bands.json", R"({"head_dim": 128, "max_position_embeddings": 131072,
    "rope_scaling": {"rope_type": "llama3", "factor": 8.0, "low_freq_factor": 2.0, "high_freq_factor": 2.0,
                     "original_max_position_embeddings": 8192}})");
  const CommandResult b = run("inspect --config " + shell_quote(bands.string()));
  ASSERT_EQ(b.exit_code, 0) << describe(b);
  EXPECT_NE(b.out.find("rope_scaling.high_freq_factor = low_freq_factor"), std::string::npos) << b.out;
}

TEST_F(InspectTest, InvalidConfigAndUsage) {
  const fs::path cfg = write("bad.json", R"({"head_dim": 64, "max_position_embeddings": 4096,
    "rope_scaling": {"rope_type": "linear", "factor": 0.5}})");
  const CommandResult r = run("inspect --config " + shell_quote(cfg.string()));
  EXPECT_EQ(r.exit_code, 1) << describe(r);
  EXPECT_NE(r.err.find("rope_scaling.factor"), std::string::npos) << describe(r);
  EXPECT_NE(r.out.find("1 error"), std::string::npos) << describe(r);
  const CommandResult none = run("inspect");
  EXPECT_EQ(none.exit_code, 2) << describe(none);
  EXPECT_NE(none.err.find("--config"), std::string::npos) << describe(none);
  const CommandResult missing = run("inspect --config " + shell_quote((home.path() / "nope.json").string()));
  EXPECT_EQ(missing.exit_code, 1) << describe(missing);
  EXPECT_NE(missing.err.find("nope.json"), std::string::npos) << describe(missing);
  const CommandResult unknown = run("inspect --preset llama-9");
  EXPECT_EQ(unknown.exit_code, 1) << describe(unknown);
  EXPECT_NE(unknown.err.find("preset"), std::string::npos) << describe(unknown);
}

TEST_F(InspectTest, DumpRefusesOutOfRangeOptionsEvenWithoutEffect) {
  // The default rope type does not use --factor, but -3 is outside its range: refused.
  CommandResult r = run("dump --factor -3");
  EXPECT_EQ(r.exit_code, 1) << describe(r);
  EXPECT_NE(r.err.find("factor"), std::string::npos) << describe(r);
  EXPECT_NE(r.err.find("-3"), std::string::npos) << describe(r);
  EXPECT_TRUE(r.out.empty());
  r = run("dump --original-max-position-embeddings 0");
  EXPECT_EQ(r.exit_code, 1) << describe(r);
  EXPECT_NE(r.err.find("original-max-position-embeddings"), std::string::npos) << describe(r);
  // In range but unused: accepted, with a note on stderr.
  r = run("dump --factor 2");
  EXPECT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_NE(r.err.find("--factor has no effect"), std::string::npos) << describe(r);
  r = run("dump --scaling linear --factor 2");
  EXPECT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_EQ(r.err.find("no effect"), std::string::npos) << describe(r);
  r = run("dump --preset llama-3.1-8b --length 1000");
  EXPECT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_NE(r.err.find("--length does not change"), std::string::npos) << describe(r);
}

TEST_F(InspectTest, StateOptionsRefuseAndNoteLikewise) {
  CommandResult r = run("export --view rope-cos --original-max-position-embeddings 0 --size 320x240 -o " +
                        shell_quote((home.path() / "x.png").string()));
  EXPECT_NE(r.exit_code, 0) << describe(r);
  EXPECT_NE(r.err.find("original-max-position-embeddings"), std::string::npos) << describe(r);
  r = run("export --view rope-cos --factor 3 --size 320x240 -o " + shell_quote((home.path() / "y.png").string()));
  EXPECT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_NE(r.err.find("--factor has no effect"), std::string::npos) << describe(r);
}

}  // namespace
