// `pe-viz weights` on models that do not rotate (issue 33), run as a child process on tiny
// checkpoints written here with transformers' tensor names and values chosen by hand: the
// JSON keys are exactly the documented ones for each family, the tables are the values
// written (offset rows dropped), no frequency usage appears, and a shape the config
// contradicts exits 1 with the key, the tensor and both shapes.
#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>

#include "../unit/weights_test_writer.hpp"
#include "test_support.hpp"

namespace {

using namespace pe_test;
using nlohmann::json;

double cell(long long r, long long c, double base = 0.0) { return base + double(r) + double(c) / 8.0; }

std::vector<double> values(long long rows, long long cols, double base = 0.0) {
  std::vector<double> v;
  for (long long r = 0; r < rows; ++r)
    for (long long c = 0; c < cols; ++c) v.push_back(cell(r, c, base));
  return v;
}

void add(SafetensorsWriter& w, const std::string& name, long long rows, long long cols, double base = 0.0) {
  w.values(name, "F32", {std::uint64_t(rows), std::uint64_t(cols)}, values(rows, cols, base));
}

std::set<std::string> keys_of(const json& j) {
  std::set<std::string> k;
  for (const auto& [key, v] : j.items()) k.insert(key);
  return k;
}

void expect_rows(const json& t, long long rows, long long cols, long long first_row, double base = 0.0) {
  ASSERT_EQ(t.size(), std::size_t(rows));
  for (long long r = 0; r < rows; ++r) {
    ASSERT_EQ(t[r].size(), std::size_t(cols));
    for (long long c = 0; c < cols; ++c) ASSERT_EQ(t[r][c].get<double>(), cell(r + first_row, c, base)) << r << ", " << c;
  }
}

// Keys every reading of a model without rotation has.
const std::set<std::string> kCommon = {"source", "config", "model_type", "position_encoding", "tensors", "bytes_read", "bytes_moved", "bytes_cached", "notes"};

std::set<std::string> with(std::set<std::string> a, std::initializer_list<std::string> more) {
  a.insert(more);
  return a;
}

class WeightsPositionsCliTest : public ::testing::Test {
 protected:
  TempDir home;
  CommandResult run(const std::string& args) { return run_pe_viz(args, home.path()); }
  fs::path folder(const std::string& name, const SafetensorsWriter& w, const std::string& config) {
    const fs::path dir = home.path() / name;
    fs::create_directories(dir);
    write_bytes(dir / "model.safetensors", w.bytes());
    std::ofstream(dir / "config.json") << config;
    return dir;
  }
  json read_json(const fs::path& dir) {
    const CommandResult r = run("weights --json --model " + shell_quote(dir.string()));
    EXPECT_EQ(r.exit_code, 0) << describe(r);
    return r.exit_code == 0 ? json::parse(r.out) : json::object();
  }
};

TEST_F(WeightsPositionsCliTest, Gpt2TableItsAnalysisAndNoFrequencyUsage) {
  SafetensorsWriter w;
  add(w, "transformer.wpe.weight", 6, 4);
  add(w, "transformer.wte.weight", 5, 4, 50.0);
  const fs::path dir = folder("gpt2", w, R"({"model_type": "gpt2", "n_positions": 6, "n_embd": 4, "n_head": 2, "n_layer": 1})");
  const json j = read_json(dir);
  EXPECT_EQ(keys_of(j), with(kCommon, {"position_embeddings", "analysis"}));
  EXPECT_EQ(j.at("position_encoding"), "learned-absolute");
  EXPECT_EQ(j.at("model_type"), "gpt2");
  expect_rows(j.at("position_embeddings"), 6, 4, 0);
  EXPECT_EQ(j.at("bytes_read"), 6 * 4 * 4);
  EXPECT_EQ(j.at("tensors")[0].at("tensor"), "transformer.wpe.weight");
  EXPECT_EQ(j.at("tensors")[0].at("shape"), json::parse("[6, 4]"));
  const json& a = j.at("analysis");
  EXPECT_EQ(keys_of(a), (std::set<std::string>{"table", "similarity_stride", "similarity_by_distance", "principal_components", "spectra"}));
  ASSERT_EQ(a.at("similarity_by_distance").size(), 6u);
  EXPECT_NEAR(a.at("similarity_by_distance")[0].get<double>(), 1.0, 1e-6);
  EXPECT_EQ(a.at("spectra").at("dominant_frequency").size(), 4u);
  // The text says why there is no frequency usage, and --csv / --layer are refused by name.
  const CommandResult t = run("weights --model " + shell_quote(dir.string()));
  EXPECT_EQ(t.exit_code, 0) << describe(t);
  EXPECT_NE(t.out.find("does not rotate"), std::string::npos) << t.out;
  EXPECT_NE(t.out.find("transformer.wpe.weight [6, 4] f32: 6 positions × 4"), std::string::npos) << t.out;
  EXPECT_EQ(t.out.find("fastest"), std::string::npos) << t.out;
  const CommandResult c = run("weights --csv x.csv --model " + shell_quote(dir.string()));
  EXPECT_EQ(c.exit_code, 2);
  EXPECT_NE(c.err.find("--csv"), std::string::npos) << c.err;
  const CommandResult l = run("weights --layer 0 --model " + shell_quote(dir.string()));
  EXPECT_EQ(l.exit_code, 2);
  EXPECT_NE(l.err.find("--layer"), std::string::npos) << l.err;
}

TEST_F(WeightsPositionsCliTest, RobertaAndOptDropTheirOffsetRowsAndSaySo) {
  SafetensorsWriter r;
  add(r, "roberta.embeddings.position_embeddings.weight", 8, 4);
  const json jr = read_json(folder("roberta", r, R"({"model_type": "roberta", "hidden_size": 4, "num_attention_heads": 2,
    "num_hidden_layers": 1, "max_position_embeddings": 8, "pad_token_id": 1})"));
  expect_rows(jr.at("position_embeddings"), 6, 4, 2);
  EXPECT_EQ(jr.at("tensors")[0].at("offset_rows"), 2);
  ASSERT_FALSE(jr.at("notes").empty());
  EXPECT_NE(jr.at("notes")[0].at("message").get<std::string>().find("first 2 rows"), std::string::npos) << jr.at("notes");

  SafetensorsWriter o;
  add(o, "model.decoder.embed_positions.weight", 8, 4);
  const json jo = read_json(folder("opt", o, R"({"model_type": "opt", "hidden_size": 4, "num_attention_heads": 2,
    "num_hidden_layers": 1, "max_position_embeddings": 6})"));
  expect_rows(jo.at("position_embeddings"), 6, 4, 2);
}

TEST_F(WeightsPositionsCliTest, WhisperBothStacksAndBartLearnedEncoder) {
  SafetensorsWriter w;
  add(w, "model.decoder.embed_positions.weight", 5, 4);
  add(w, "model.encoder.embed_positions.weight", 7, 4, 20.0);
  const json j = read_json(folder("whisper", w, R"({"model_type": "whisper", "d_model": 4, "encoder_attention_heads": 2,
    "encoder_layers": 1, "decoder_layers": 1, "max_target_positions": 5, "max_source_positions": 7})"));
  EXPECT_EQ(keys_of(j), with(kCommon, {"encoder_position_encoding", "position_embeddings", "encoder_position_embeddings", "analysis"}));
  EXPECT_EQ(j.at("position_encoding"), "learned-absolute");
  EXPECT_EQ(j.at("encoder_position_encoding"), "sinusoidal");
  expect_rows(j.at("position_embeddings"), 5, 4, 0);
  expect_rows(j.at("encoder_position_embeddings"), 7, 4, 0, 20.0);
}

TEST_F(WeightsPositionsCliTest, VitPatchTable) {
  SafetensorsWriter w;
  w.values("vit.embeddings.position_embeddings", "F32", {1, 5, 4}, values(5, 4));
  const json j = read_json(folder("vit", w, R"({"model_type": "vit", "hidden_size": 4, "num_attention_heads": 2,
    "num_hidden_layers": 1, "image_size": 8, "patch_size": 4})"));
  expect_rows(j.at("position_embeddings"), 5, 4, 0);  // 2 × 2 patches + the class token
}

TEST_F(WeightsPositionsCliTest, T5BothStacksEncoderOnlyAndUmt5PerLayer) {
  const std::string t5 = R"({"model_type": "t5", "d_model": 8, "d_kv": 4, "num_heads": 3, "num_layers": 2,
    "relative_attention_num_buckets": 8})";
  const std::set<std::string> keys = with(kCommon, {"encoder_position_encoding", "relative_attention_bias",
                                                    "relative_attention_num_buckets", "relative_attention_max_distance"});
  SafetensorsWriter w;
  add(w, "encoder.block.0.layer.0.SelfAttention.relative_attention_bias.weight", 8, 3);
  add(w, "decoder.block.0.layer.0.SelfAttention.relative_attention_bias.weight", 8, 3, -30.0);
  const json j = read_json(folder("t5", w, t5));
  EXPECT_EQ(keys_of(j), keys);
  EXPECT_EQ(keys_of(j.at("relative_attention_bias")), (std::set<std::string>{"encoder", "decoder"}));
  expect_rows(j.at("relative_attention_bias").at("encoder"), 8, 3, 0);
  expect_rows(j.at("relative_attention_bias").at("decoder"), 8, 3, 0, -30.0);
  EXPECT_EQ(j.at("relative_attention_num_buckets"), 8);
  EXPECT_EQ(j.at("relative_attention_max_distance"), 128);

  SafetensorsWriter e;  // T5EncoderModel: no decoder stack, so no "decoder" key
  add(e, "encoder.block.0.layer.0.SelfAttention.relative_attention_bias.weight", 8, 3);
  const json je = read_json(folder("t5-encoder", e, t5));
  EXPECT_EQ(keys_of(je.at("relative_attention_bias")), (std::set<std::string>{"encoder"}));

  SafetensorsWriter u;
  for (int l = 0; l < 3; ++l) {
    add(u, "encoder.block." + std::to_string(l) + ".layer.0.SelfAttention.relative_attention_bias.weight", 8, 3, 10.0 * l);
    add(u, "decoder.block." + std::to_string(l) + ".layer.0.SelfAttention.relative_attention_bias.weight", 8, 3, -10.0 * l);
  }
  const json ju = read_json(folder("umt5", u, R"({"model_type": "umt5", "d_model": 8, "d_kv": 4, "num_heads": 3,
    "num_layers": 3, "relative_attention_num_buckets": 8})"));
  EXPECT_EQ(keys_of(ju), with(keys, {"relative_attention_bias_per_layer"}));
  expect_rows(ju.at("relative_attention_bias").at("encoder"), 8, 3, 0);  // layer 0's, as T5's key holds
  const json& per = ju.at("relative_attention_bias_per_layer");
  EXPECT_EQ(keys_of(per), (std::set<std::string>{"encoder", "decoder"}));
  ASSERT_EQ(per.at("encoder").size(), 3u);
  for (int l = 0; l < 3; ++l) {
    expect_rows(per.at("encoder")[l], 8, 3, 0, 10.0 * l);
    expect_rows(per.at("decoder")[l], 8, 3, 0, -10.0 * l);
  }
}

TEST_F(WeightsPositionsCliTest, DebertaRelEmbeddings) {
  SafetensorsWriter w;
  add(w, "deberta.encoder.rel_embeddings.weight", 8, 4);
  w.values("deberta.encoder.LayerNorm.weight", "F32", {4}, {1, 1, 1, 1}).values("deberta.encoder.LayerNorm.bias", "F32", {4}, {0, 0, 0, 0});
  const json j = read_json(folder("deberta", w, R"({"model_type": "deberta-v2", "hidden_size": 4, "num_attention_heads": 2,
    "num_hidden_layers": 1, "max_position_embeddings": 16, "relative_attention": true, "position_buckets": 4,
    "norm_rel_ebd": "layer_norm", "position_biased_input": false, "layer_norm_eps": 1e-7})"));
  EXPECT_EQ(keys_of(j), with(kCommon, {"rel_embeddings", "rel_embeddings_att_span", "rel_embeddings_layer_norm"}));
  EXPECT_EQ(j.at("position_encoding"), "deberta-relative");
  EXPECT_EQ(j.at("rel_embeddings_att_span"), 4);
  EXPECT_EQ(j.at("rel_embeddings_layer_norm"), true);
  // Each row r + c/8, c = 0..3, normalised with γ = 1, β = 0: (c/8 − 3/16) / √(5/256 + 1e−7).
  const json& t = j.at("rel_embeddings");
  ASSERT_EQ(t.size(), 8u);
  for (int r = 0; r < 8; ++r)
    for (int c = 0; c < 4; ++c) EXPECT_NEAR(t[r][c].get<double>(), (c / 8.0 - 3.0 / 16.0) / std::sqrt(5.0 / 256.0 + 1e-7), 1e-5);
}

TEST_F(WeightsPositionsCliTest, ShapesTheConfigContradictsExitOneNamingKeyTensorAndShapes) {
  SafetensorsWriter w;
  add(w, "wpe.weight", 4, 4);
  const CommandResult r = run("weights --model " + shell_quote(folder("short", w, R"({"model_type": "gpt2", "n_positions": 6,
    "n_embd": 4, "n_head": 2, "n_layer": 1})").string()));
  EXPECT_EQ(r.exit_code, 1) << describe(r);
  for (const char* part : {"model.safetensors", "tensor wpe.weight", "[4, 4]", "n_positions = 6", "needs [6, 4]"})
    EXPECT_NE(r.err.find(part), std::string::npos) << part << ": " << r.err;

  SafetensorsWriter b;
  add(b, "encoder.block.0.layer.0.SelfAttention.relative_attention_bias.weight", 8, 3);
  const CommandResult t = run("weights --model " + shell_quote(folder("t5-32", b, R"({"model_type": "t5", "d_model": 8, "d_kv": 4,
    "num_heads": 3, "num_layers": 2, "relative_attention_num_buckets": 32})").string()));
  EXPECT_EQ(t.exit_code, 1) << describe(t);
  for (const char* part : {"tensor encoder.block.0.layer.0.SelfAttention.relative_attention_bias.weight", "[8, 3]",
                           "relative_attention_num_buckets = 32", "needs [32, 3]"})
    EXPECT_NE(t.err.find(part), std::string::npos) << part << ": " << t.err;
}

TEST_F(WeightsPositionsCliTest, Gpt2Gguf) {
  GgufBuilder g;
  g.str("general.architecture", "gpt2").u32("gpt2.context_length", 6).u32("gpt2.embedding_length", 4).u32("gpt2.block_count", 1)
      .u32("gpt2.attention.head_count", 2);
  const Bytes data = encode(values(6, 4), "F32");
  g.tensor("position_embd.weight", {4, 6}, 0, data.size(), data);
  const fs::path p = home.path() / "gpt2.gguf";
  write_bytes(p, g.bytes());
  const CommandResult r = run("weights --json --gguf " + shell_quote(p.string()));
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  const json j = json::parse(r.out);
  EXPECT_EQ(j.at("position_encoding"), "learned-absolute");
  expect_rows(j.at("position_embeddings"), 6, 4, 0);
}

}  // namespace
