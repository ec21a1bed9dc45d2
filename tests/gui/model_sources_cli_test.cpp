// --model (the Hugging Face cache, offline) and --gguf on the real binary: `dump` and
// `export` (which shares the GUI's options, app/export/state_options). The cache is a temp tree
// laid out as huggingface_hub writes it, found through HF_HUB_CACHE; GGUF files are written
// by tests/unit/gguf_test_writer.hpp. Numbers are checked against formulas written here.
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>

#include "../unit/gguf_test_writer.hpp"
#include "state/app_state.hpp"
#include "test_support.hpp"
#include "ui/file_actions.hpp"

namespace {

using namespace pe_test;
using nlohmann::json;

constexpr const char* kLlama32Config =
    R"({"architectures": ["LlamaForCausalLM"], "hidden_size": 2048, "num_attention_heads": 32,
        "max_position_embeddings": 131072, "rope_theta": 500000.0,
        "rope_scaling": {"rope_type": "llama3", "factor": 32.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0,
                         "original_max_position_embeddings": 8192}})";

class ModelSourcesCli : public ::testing::Test {
 protected:
  void SetUp() override {
    hub_ = home.path() / "hub";
    const fs::path repo = hub_ / "models--meta-llama--Llama-3.2-1B";
    fs::create_directories(repo / "refs");
    fs::create_directories(repo / "snapshots" / "4e20de3");
    std::ofstream(repo / "refs" / "main") << "4e20de3";
    std::ofstream(repo / "snapshots" / "4e20de3" / "config.json") << kLlama32Config;
    fs::create_directories(hub_ / "models--Qwen--Qwen2.5-7B");
    // The child inherits the environment: point the cache at the temp tree.
    const char* old = std::getenv("HF_HUB_CACHE");
    saved_ = old ? std::optional<std::string>(old) : std::nullopt;
    ::setenv("HF_HUB_CACHE", hub_.c_str(), 1);
  }
  void TearDown() override {
    if (saved_) ::setenv("HF_HUB_CACHE", saved_->c_str(), 1);
    else ::unsetenv("HF_HUB_CACHE");
  }
  CommandResult run(const std::string& args) { return run_pe_viz(args, home.path()); }
  std::string q(const fs::path& p) { return shell_quote(p.string()); }
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
  fs::path write_gguf(const std::string& name, const GgufBuilder& g) {
    const fs::path p = home.path() / name;
    write_bytes(p, g.bytes());
    return p;
  }

  TempDir home;
  fs::path hub_;
  std::optional<std::string> saved_;
};

TEST_F(ModelSourcesCli, DumpModelReadsConfigJsonFromTheCache) {
  const json j = run_json("dump --model meta-llama/Llama-3.2-1B");
  EXPECT_EQ(j.at("name"), "meta-llama/Llama-3.2-1B");
  EXPECT_EQ(j.at("theta").get<double>(), 500000.0);
  EXPECT_EQ(j.at("head_dim").get<long long>(), 64);
  EXPECT_EQ(j.at("convention"), "half-split");
  EXPECT_EQ(j.at("scaling").at("type"), "llama3");
  EXPECT_EQ(j.at("scaling").at("factor").get<double>(), 32.0);
  EXPECT_EQ(j.at("origin").at("kind"), "model");
  EXPECT_NE(j.at("origin").at("path").get<std::string>().find("snapshots/4e20de3/config.json"), std::string::npos);
  EXPECT_FALSE(j.contains("rope_mode"));  // llama.cpp's mode belongs to GGUF files
  // An explicit revision, here the commit itself.
  EXPECT_EQ(run_json("dump --model meta-llama/Llama-3.2-1B@4e20de3").at("theta").get<double>(), 500000.0);
}

TEST_F(ModelSourcesCli, MissingModelSaysWhereItLookedAndWhatIsCached) {
  const CommandResult r = run("dump --model meta-llama/Llama-3.1-8B");
  EXPECT_EQ(r.exit_code, 1) << describe(r);
  EXPECT_EQ(r.out, "");
  EXPECT_NE(r.err.find("not in the Hugging Face cache"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find((hub_ / "models--meta-llama--Llama-3.1-8B").string()), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("from HF_HUB_CACHE"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("closest first: meta-llama/Llama-3.2-1B, Qwen/Qwen2.5-7B"), std::string::npos) << r.err;

  const CommandResult bad = run("dump --model 'not a/model'");
  EXPECT_EQ(bad.exit_code, 1) << describe(bad);
  EXPECT_NE(bad.err.find("is not a model name"), std::string::npos) << bad.err;
}

TEST_F(ModelSourcesCli, DumpGgufReportsLlamaCppsRopeModeAndFrequencies) {
  const GgufBuilder g = llama31_builder(2);
  const fs::path file = write_gguf("Llama-3.1-8B-Q4_K_M.gguf", g);
  const json j = run_json("dump --gguf " + q(file));
  EXPECT_EQ(j.at("name"), "Llama-3.1-8B-Q4_K_M");
  EXPECT_EQ(j.at("rope_mode"), "norm");
  EXPECT_EQ(j.at("convention"), "interleaved");
  EXPECT_EQ(j.at("origin").at("kind"), "gguf");
  EXPECT_EQ(j.at("origin").at("architecture"), "llama");
  EXPECT_EQ(j.at("theta").get<double>(), 500000.0);
  EXPECT_EQ(j.at("max_position_embeddings").get<long long>(), 131072);
  EXPECT_EQ(j.at("scaling").at("type"), "llama3");
  // llama.cpp: θ_i = 500000^(−2i/128) / rope_freqs[i]; the factors as the converter writes them.
  const auto& inv = j.at("inv_freq");
  ASSERT_EQ(inv.size(), 64u);
  const double pi = 3.14159265358979323846;
  for (int i = 0; i < 64; ++i) {
    const double f = std::pow(500000.0, -2.0 * i / 128.0), wavelen = 2 * pi / f;
    double r = 1.0;
    if (wavelen > 8192.0) r = 8.0;
    else if (wavelen >= 2048.0) {
      const double s = (8192.0 / wavelen - 1.0) / 3.0;
      r = static_cast<float>(1.0 / ((1.0 - s) / 8.0 + s));
    }
    EXPECT_NEAR(inv[static_cast<std::size_t>(i)].get<double>() / (f / r), 1.0, 1e-6) << "pair " << i;
  }
  bool said_how = false;
  for (const auto& d : j.at("origin").at("diagnostics"))
    said_how = said_how || (d.at("key") == "rope_freqs.weight" && d.at("message").get<std::string>().find("θ_i / rope_freqs[i]") != std::string::npos);
  EXPECT_TRUE(said_how) << j.at("origin").dump(2);

  GgufBuilder qwen;
  qwen.str("general.architecture", "qwen2").u32("qwen2.context_length", 32768).u32("qwen2.embedding_length", 3584);
  qwen.u32("qwen2.attention.head_count", 28).f32("qwen2.rope.freq_base", 1000000.0f);
  const json jq = run_json("dump --gguf " + q(write_gguf("qwen.gguf", qwen)));
  EXPECT_EQ(jq.at("rope_mode"), "neox");
  EXPECT_EQ(jq.at("convention"), "half-split");
  EXPECT_EQ(jq.at("head_dim").get<long long>(), 128);
}

TEST_F(ModelSourcesCli, BrokenGgufFilesAreNamedWithKeyAndOffset) {
  const GgufBuilder g = llama31_builder(1);
  const Bytes full = g.bytes();
  const fs::path cut = home.path() / "cut.gguf";
  // Cut 4 bytes into the last tensor info's u64 data offset (output.weight).
  const std::uint64_t at = g.header_end() - 4;
  write_bytes(cut, Bytes(full.begin(), full.begin() + static_cast<std::ptrdiff_t>(at)));
  const CommandResult r = run("dump --gguf " + q(cut));
  EXPECT_EQ(r.exit_code, 1) << describe(r);
  EXPECT_EQ(r.out, "");
  EXPECT_NE(r.err.find(cut.string() + ": output.weight: the file ends inside this value"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("(at byte " + std::to_string(at - 4) + ")"), std::string::npos) << r.err;

  // Cut early: the declared counts no longer fit the bytes left.
  write_bytes(cut, Bytes(full.begin(), full.begin() + 100));
  const CommandResult early = run("dump --gguf " + q(cut));
  EXPECT_EQ(early.exit_code, 1) << describe(early);
  EXPECT_NE(early.err.find("metadata_kv_count: "), std::string::npos) << early.err;
  EXPECT_NE(early.err.find("cannot fit in the 76 bytes"), std::string::npos) << early.err;

  const fs::path json_file = home.path() / "config.gguf";
  std::ofstream(json_file) << kLlama32Config;
  const CommandResult m = run("dump --gguf " + q(json_file));
  EXPECT_EQ(m.exit_code, 1) << describe(m);
  EXPECT_NE(m.err.find("magic: not a GGUF file"), std::string::npos) << m.err;

  const CommandResult missing = run("dump --gguf " + q(home.path() / "nope.gguf"));
  EXPECT_EQ(missing.exit_code, 1) << describe(missing);
  EXPECT_NE(missing.err.find("nope.gguf"), std::string::npos) << missing.err;
}

TEST_F(ModelSourcesCli, ModelSourcesExcludeEachOther) {
  const fs::path file = write_gguf("m.gguf", llama31_builder(1));
  const CommandResult d = run("dump --gguf " + q(file) + " --model meta-llama/Llama-3.2-1B");
  EXPECT_EQ(d.exit_code, 2) << describe(d);
  EXPECT_NE(d.err.find("--model and --gguf"), std::string::npos) << d.err;
  EXPECT_NE(d.err.find("one of --preset, --config, --model, --gguf"), std::string::npos) << d.err;
  const CommandResult e = run("export --view rope-cos --preset teaching --model meta-llama/Llama-3.2-1B -o " + q(home / "x.png"));
  EXPECT_EQ(e.exit_code, 2) << describe(e);
  EXPECT_NE(e.err.find("--preset and --model"), std::string::npos) << e.err;
  EXPECT_FALSE(fs::exists(home / "x.png"));
}

TEST_F(ModelSourcesCli, ExportTakesModelAndGgufLikeConfig) {
  const fs::path file = write_gguf("m.gguf", llama31_builder(1));
  const fs::path a = home / "gguf.png", b = home / "model.png";
  const CommandResult rg = run("export --view rope-spectrum --gguf " + q(file) + " --size 320x240 -o " + q(a));
  ASSERT_EQ(rg.exit_code, 0) << describe(rg);
  EXPECT_TRUE(read_png_header(a).ok);
  const CommandResult rm = run("export --view rope-spectrum --model meta-llama/Llama-3.2-1B --size 320x240 -o " + q(b));
  ASSERT_EQ(rm.exit_code, 0) << describe(rm);
  EXPECT_TRUE(read_png_header(b).ok);
  const CommandResult bad = run("export --view rope-cos --model org/absent -o " + q(home / "y.png"));
  EXPECT_EQ(bad.exit_code, 2) << describe(bad);
  EXPECT_NE(bad.err.find("org/absent"), std::string::npos) << bad.err;
}

TEST_F(ModelSourcesCli, DroppedGgufLoadsAndABrokenOneKeepsTheConfig) {
  // The GUI's drop handler (no window needed): a .gguf goes through load_gguf_file.
  const fs::path good = write_gguf("Dropped.GGUF", llama31_builder(1));
  const Bytes full = llama31_builder(1).bytes();
  const fs::path bad = home.path() / "broken.gguf";
  write_bytes(bad, Bytes(full.begin(), full.begin() + 40));

  app::AppState state = app::default_state();
  app::apply_preset(state, "qwen2.5-7b");
  const pe::RopeConfig before = state.rope;
  app::StatusLine status;
  app::load_dropped_files(state, {bad.string()}, status, 1.0);
  EXPECT_TRUE(status.error);
  EXPECT_NE(state.config_error.find("at byte"), std::string::npos) << state.config_error;
  EXPECT_EQ(state.rope.theta, before.theta);
  EXPECT_EQ(state.rope.convention, before.convention);

  app::load_dropped_files(state, {good.string()}, status, 2.0);
  EXPECT_FALSE(status.error) << status.text;
  EXPECT_TRUE(state.config_error.empty());
  EXPECT_EQ(state.rope.theta, 500000.0);
  EXPECT_EQ(state.rope.convention, pe::PairConvention::Interleaved);  // llama.cpp's NORM mode
  EXPECT_EQ(state.rope.scaling.type, pe::RopeType::Llama3);
  EXPECT_EQ(state.length, 8192);  // the training window
  ASSERT_FALSE(state.recent_configs.empty());
  EXPECT_EQ(state.recent_configs.front(), good.string());
  // The recent list opens it again through load_config_file.
  app::apply_preset(state, "teaching");
  app::load_config_file(state, good.string());
  EXPECT_EQ(state.rope.theta, 500000.0);
}

}  // namespace

namespace {

TEST_F(ModelSourcesCli, InspectReadsModelsAndGgufsAndChecksTheConversion) {
  // --model: the cached snapshot's config.json, with its whole inspection (file path named).
  const json m = run_json("inspect --model meta-llama/Llama-3.2-1B --json");
  EXPECT_NE(m.at("source").get<std::string>().find("snapshots/4e20de3/config.json"), std::string::npos) << m.at("source");
  EXPECT_EQ(m.at("config").at("scaling"), "llama3");
  EXPECT_FALSE(m.contains("conversion"));
  // --gguf alone: llama.cpp's view and the GGUF's positional keys.
  const fs::path file = write_gguf("Llama-3.1-8B.gguf", llama31_builder(2));
  const json g = run_json("inspect --gguf " + q(file) + " --json");
  EXPECT_EQ(g.at("gguf").at("architecture"), "llama");
  EXPECT_EQ(g.at("gguf").at("rope_mode"), "norm");
  bool base = false;
  for (const auto& e : g.at("gguf").at("positional")) base = base || e.at("key") == "llama.rope.freq_base";
  EXPECT_TRUE(base) << g.at("gguf").dump(2);
  // --gguf with the config.json it came from: half-split checkpoint, NORM rope mode → the
  // converter permuted q/k (LlamaModel.permute), and the two sides agree.
  const fs::path config = home / "config.json";
  std::ofstream(config) << R"({"architectures": ["LlamaForCausalLM"], "model_type": "llama", "hidden_size": 4096,
      "num_attention_heads": 32, "max_position_embeddings": 131072, "rope_theta": 500000.0,
      "rope_scaling": {"rope_type": "llama3", "factor": 8.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0,
                       "original_max_position_embeddings": 8192}})";
  const json c = run_json("inspect --gguf " + q(file) + " --config " + q(config) + " --json");
  EXPECT_EQ(c.at("conversion").at("checkpoint_convention"), "half-split");
  EXPECT_EQ(c.at("conversion").at("gguf_convention"), "interleaved");
  EXPECT_EQ(c.at("conversion").at("qk_permuted"), true);
  EXPECT_EQ(c.at("conversion").at("consistent"), true);
  const CommandResult text = run("inspect --gguf " + q(file) + " --model meta-llama/Llama-3.2-1B");
  EXPECT_EQ(text.exit_code, 0) << describe(text);
  EXPECT_NE(text.out.find("Conversion from"), std::string::npos) << text.out;
  // The sources that cannot go together are refused, naming them.
  const CommandResult both = run("inspect --preset teaching --gguf " + q(file));
  EXPECT_EQ(both.exit_code, 2) << describe(both);
  EXPECT_NE(both.err.find("excludes"), std::string::npos) << both.err;
  const CommandResult missing = run("inspect --gguf " + q(home / "absent.gguf"));
  EXPECT_EQ(missing.exit_code, 1) << describe(missing);
  EXPECT_NE(missing.err.find("absent.gguf"), std::string::npos) << missing.err;
}

}  // namespace
