// `pe-viz weights` (issue 26), run as a child process (PE_VIZ_BINARY) on checkpoints written
// here with known weights (tests/unit/weights_test_writer.hpp: values k/16, exact in F32,
// BF16 and double). The expected norms are computed in this test from the logical matrices
// and the family's row order written out by hand — Hugging Face half-split pairs (j,
// j + rot/2), llama.cpp's interleaved pairs (2j, 2j+1) — never by the code under test:
//  - --json has exactly the documented keys, and its norms, frequencies and summary equal the
//    ones computed here, from safetensors (F32, BF16) and from the GGUF of the same weights;
//  - the text gives each layer's quarter shares and the pairs beyond the training context;
//  - --csv is one tidy row per (layer, kind, head, pair) with the same numbers; --layer;
//  - an FP8 checkpoint with block scales reads as its dequantised values;
//  - bad options exit 2 naming the option; bad files exit 1 naming the file and the tensor.
#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <numbers>
#include <random>
#include <set>

#include "../unit/weights_test_writer.hpp"
#include "test_support.hpp"

namespace {

using namespace pe_test;
using nlohmann::json;

constexpr long long kHeads = 4, kKv = 2, kHd = 8, kHidden = 32, kLayers = 2, kPairs = kHd / 2, kContext = 64;

const char* kConfig = R"({"architectures": ["LlamaForCausalLM"], "model_type": "llama", "hidden_size": 32,
  "num_attention_heads": 4, "num_key_value_heads": 2, "head_dim": 8, "num_hidden_layers": 2,
  "max_position_embeddings": 64, "rope_theta": 10000.0})";

// Two layers of q (4 heads × 8 rows) and k (2 heads × 8 rows), Hugging Face row order.
struct Model {
  std::vector<Rows> q, k;
  Model() {
    std::mt19937 rng(26);
    for (long long l = 0; l < kLayers; ++l) {
      q.push_back(random_rows(kHeads * kHd, kHidden, rng));
      k.push_back(random_rows(kKv * kHd, kHidden, rng));
    }
  }
  // ‖pair j of head h‖ in half-split order: rows h·hd + j and h·hd + j + hd/2.
  double q_norm(long long l, long long h, long long j) const { return pair_norm(q[l], h * kHd + j, h * kHd + j + kHd / 2); }
  double k_norm(long long l, long long h, long long j) const { return pair_norm(k[l], h * kHd + j, h * kHd + j + kHd / 2); }
  // w_j = Σ_h ‖q_h,j‖·‖k_{h/2},j‖ (two query heads share a key head).
  double w(long long l, long long j) const {
    double s = 0;
    for (long long h = 0; h < kHeads; ++h) s += q_norm(l, h, j) * k_norm(l, h / (kHeads / kKv), j);
    return s;
  }
  Bytes safetensors(const std::string& dtype) const {
    SafetensorsWriter st;
    for (long long l = 0; l < kLayers; ++l) {
      const std::string p = "model.layers." + std::to_string(l) + ".self_attn.";
      st.values(p + "q_proj.weight", dtype, {kHeads * kHd, kHidden}, flat(q[l]));
      st.values(p + "k_proj.weight", dtype, {kKv * kHd, kHidden}, flat(k[l]));
      st.values(p + "v_proj.weight", dtype, {kKv * kHd, kHidden}, flat(k[l]));
    }
    st.metadata("format", "pt");
    return st.bytes();
  }
  // llama.cpp's GGUF of the same model: q/k rows permuted to interleaved pairs, F32.
  Bytes gguf() const {
    GgufBuilder g;
    g.str("general.architecture", "llama").u32("llama.block_count", kLayers).u32("llama.context_length", kContext);
    g.u32("llama.embedding_length", kHidden).u32("llama.attention.head_count", kHeads).u32("llama.attention.head_count_kv", kKv);
    g.u32("llama.attention.key_length", kHd).u32("llama.rope.dimension_count", kHd).f32("llama.rope.freq_base", 10000.0f);
    for (long long l = 0; l < kLayers; ++l)
      for (const auto& [kind, rows, heads] : {std::tuple{"attn_q", &q[l], kHeads}, std::tuple{"attn_k", &k[l], kKv}}) {
        const Bytes b = encode(flat(hf_to_interleaved(*rows, heads)), "F32");
        g.tensor("blk." + std::to_string(l) + "." + kind + ".weight", {kHidden, heads * kHd}, 0, b.size(), b);
      }
    return g.bytes();
  }
};

class WeightsCommandTest : public ::testing::Test {
 protected:
  TempDir home;
  Model m;
  CommandResult run(const std::string& args) { return run_pe_viz(args, home.path()); }
  fs::path model_dir(const std::string& dtype = "F32", const std::string& name = "model") {
    const fs::path dir = home.path() / (name + "-" + dtype);
    fs::create_directories(dir);
    write_bytes(dir / "model.safetensors", m.safetensors(dtype));
    std::ofstream(dir / "config.json") << kConfig;
    return dir;
  }
  fs::path gguf_file() {
    const fs::path p = home.path() / "model.gguf";
    write_bytes(p, m.gguf());
    return p;
  }
  json run_json(const std::string& args) {
    const CommandResult r = run("weights --json " + args);
    EXPECT_EQ(r.exit_code, 0) << describe(r);
    return r.exit_code == 0 ? json::parse(r.out) : json();
  }
  void expect_norms(const json& j) {
    ASSERT_EQ(j.at("q_pair_norms").size(), std::size_t(kLayers));
    for (long long l = 0; l < kLayers; ++l) {
      const json& q = j.at("q_pair_norms")[l];
      const json& k = j.at("k_pair_norms")[l];
      ASSERT_EQ(q.size(), std::size_t(kHeads));
      ASSERT_EQ(k.size(), std::size_t(kKv));
      for (long long h = 0; h < kHeads; ++h) {
        ASSERT_EQ(q[h].size(), std::size_t(kPairs));
        for (long long p = 0; p < kPairs; ++p) EXPECT_EQ(q[h][p].get<double>(), m.q_norm(l, h, p)) << l << " " << h << " " << p;
      }
      for (long long h = 0; h < kKv; ++h)
        for (long long p = 0; p < kPairs; ++p) EXPECT_EQ(k[h][p].get<double>(), m.k_norm(l, h, p)) << l << " " << h << " " << p;
    }
  }
};

// The documented key set (pe-viz weights --help), exactly: a renamed or dropped key fails here.
const std::set<std::string> kJsonKeys = {"source",         "config",      "dtype",          "convention",       "convention_reason",
                                         "family",         "layers",      "heads",          "kv_heads",         "training_context",
                                         "inv_freq",       "original_inv_freq", "layer_index", "layer_attention", "layer_rotary",
                                         "layer_inv_freq", "q_pair_norms", "k_pair_norms",  "q_nonrotary_norms", "k_nonrotary_norms",
                                         "summary",        "bytes_read",  "bytes_moved",    "bytes_cached",     "notes"};

TEST_F(WeightsCommandTest, JsonHasTheDocumentedKeysAndTheNormsComputedHere) {
  for (const std::string dtype : {"F32", "BF16"}) {
    SCOPED_TRACE(dtype);
    const fs::path dir = model_dir(dtype);
    const json j = run_json("--model " + shell_quote(dir.string()));
    ASSERT_TRUE(j.is_object());
    std::set<std::string> keys;
    for (const auto& [key, value] : j.items()) keys.insert(key);
    EXPECT_EQ(keys, kJsonKeys);
    // The keys issue 26 names, with their shapes and meanings.
    EXPECT_NE(j.at("source").get<std::string>().find("model.safetensors"), std::string::npos) << j.at("source");
    EXPECT_EQ(j.at("dtype"), dtype == "F32" ? "f32" : "bf16");
    EXPECT_EQ(j.at("convention"), "half-split");
    EXPECT_EQ(j.at("layers"), kLayers);
    EXPECT_EQ(j.at("heads"), kHeads);
    EXPECT_EQ(j.at("kv_heads"), kKv);
    EXPECT_EQ(j.at("training_context"), kContext);
    ASSERT_EQ(j.at("inv_freq").size(), std::size_t(kPairs));
    for (long long p = 0; p < kPairs; ++p) EXPECT_DOUBLE_EQ(j.at("inv_freq")[p].get<double>(), std::pow(10000.0, -2.0 * p / kHd));
    expect_norms(j);
    // q and k of two layers: (32 + 16) rows × 32 values × bytes per value, v never read.
    EXPECT_EQ(j.at("bytes_read"), 2 * 48 * kHidden * (dtype == "F32" ? 4 : 2));
    EXPECT_EQ(j.at("bytes_moved"), 0);  // a folder on disk: mapped, nothing moved over a network
    EXPECT_EQ(j.at("bytes_cached"), 0);
    // The summary: w_j and the quarter shares (4 pairs: one a quarter) from the norms here.
    ASSERT_EQ(j.at("summary").size(), std::size_t(kLayers));
    for (long long l = 0; l < kLayers; ++l) {
      const json& s = j.at("summary")[l];
      double total = 0;
      for (long long p = 0; p < kPairs; ++p) {
        EXPECT_NEAR(s.at("qk")[p].get<double>(), m.w(l, p), 1e-12 * m.w(l, p));
        total += m.w(l, p);
      }
      EXPECT_NEAR(s.at("share_fastest").get<double>(), m.w(l, 0) / total, 1e-12);
      EXPECT_NEAR(s.at("share_middle").get<double>(), (m.w(l, 1) + m.w(l, 2)) / total, 1e-12);
      EXPECT_NEAR(s.at("share_slowest").get<double>(), m.w(l, 3) / total, 1e-12);
      // λ_j = 2π·10^(j): 6.3, 63 fit in 64 positions; 628 and 6283 do not.
      EXPECT_EQ(s.at("pairs_beyond_context"), json::array({2, 3}));
    }
  }
}

TEST_F(WeightsCommandTest, GgufOfTheSameWeightsGivesTheSameNorms) {
  const json st = run_json("--model " + shell_quote(model_dir().string()));
  const json g = run_json("--gguf " + shell_quote(gguf_file().string()));
  ASSERT_TRUE(g.is_object());
  EXPECT_EQ(g.at("convention"), "interleaved");
  EXPECT_EQ(g.at("dtype"), "f32");
  EXPECT_EQ(g.at("family"), "attn_q/attn_k (GGUF)");
  expect_norms(g);
  EXPECT_EQ(g.at("q_pair_norms"), st.at("q_pair_norms"));
  EXPECT_EQ(g.at("k_pair_norms"), st.at("k_pair_norms"));
}

// An FP8 checkpoint as DeepSeek-V3 ships one (F8_E4M3 and a …weight_scale_inv per block, the
// block size in config.json): the model's values quantised here to E4M3 with power-of-two
// block scales 2^-4, so each stored value is code·2^-4 exactly. Its norms are those of those
// values — computed here, and read back from the same values stored F32.
TEST_F(WeightsCommandTest, Fp8CheckpointWithBlockScalesReadsAsItsDequantisedValues) {
  SafetensorsWriter fp8, f32;
  std::vector<Rows> q;
  for (long long l = 0; l < kLayers; ++l)
    for (const auto& [kind, rows, heads] : {std::tuple{"q", &m.q[l], kHeads}, std::tuple{"k", &m.k[l], kKv}}) {
      const long long n = heads * kHd;
      std::vector<std::uint8_t> codes;
      for (double v : flat(*rows)) codes.push_back(fp8_nearest(v * 16, true));
      const std::vector<float> scales(static_cast<std::size_t>(((n + 15) / 16) * ((kHidden + 15) / 16)), 0.0625f);
      const Fp8Encoded e = fp8_matrix(codes, scales, n, kHidden, 16, 16, true);
      const std::string name = "model.layers." + std::to_string(l) + ".self_attn." + kind + "_proj.weight";
      put_fp8(fp8, name, n, kHidden, e, true);
      f32.values(name, "F32", {static_cast<std::uint64_t>(n), kHidden}, e.values);
      if (std::string(kind) == "q") q.push_back(unflat(e.values, n, kHidden));
    }
  std::string config = kConfig;
  config.insert(config.rfind('}'), R"(, "quantization_config": {"quant_method": "fp8", "fmt": "e4m3", "weight_block_size": [16, 16]})");
  for (const auto& [dir, w] : {std::pair{home.path() / "fp8", &fp8}, std::pair{home.path() / "fp8-as-f32", &f32}}) {
    fs::create_directories(dir);
    write_bytes(dir / "model.safetensors", w->bytes());
    std::ofstream(dir / "config.json") << config;
  }
  const json a = run_json("--model " + shell_quote((home.path() / "fp8").string()));
  const json b = run_json("--model " + shell_quote((home.path() / "fp8-as-f32").string()));
  EXPECT_EQ(a.at("dtype"), "f8_e4m3");
  EXPECT_EQ(b.at("dtype"), "f32");
  EXPECT_EQ(a.at("q_pair_norms"), b.at("q_pair_norms"));
  EXPECT_EQ(a.at("k_pair_norms"), b.at("k_pair_norms"));
  for (long long l = 0; l < kLayers; ++l)
    for (long long h = 0; h < kHeads; ++h)
      for (long long p = 0; p < kPairs; ++p)
        EXPECT_EQ(a.at("q_pair_norms")[l][h][p].get<double>(), pair_norm(q[l], h * kHd + p, h * kHd + p + kHd / 2)) << l << h << p;
  // The quantisation moved the values (the norms are not the F32 model's).
  EXPECT_NE(a.at("q_pair_norms")[0][0][0].get<double>(), m.q_norm(0, 0, 0));
  // Without its scales the checkpoint is refused, naming both tensors.
  const fs::path bare = home.path() / "fp8-bare";
  fs::create_directories(bare);
  SafetensorsWriter none;
  std::ofstream(bare / "config.json") << config;
  for (long long l = 0; l < kLayers; ++l)
    for (const auto& [kind, n] : {std::pair{"q", kHeads * kHd}, std::pair{"k", kKv * kHd}})
      none.tensor("model.layers." + std::to_string(l) + ".self_attn." + kind + "_proj.weight", "F8_E4M3",
                  {static_cast<std::uint64_t>(n), kHidden}, Bytes(static_cast<std::size_t>(n * kHidden), 0x38));
  write_bytes(bare / "model.safetensors", none.bytes());
  const CommandResult r = run("weights --model " + shell_quote(bare.string()));
  EXPECT_EQ(r.exit_code, 1) << describe(r);
  EXPECT_NE(r.err.find("tensor model.layers.0.self_attn.q_proj.weight: an F8_E4M3 weight needs its block scales, the tensor "
                       "model.layers.0.self_attn.q_proj.weight_scale_inv"),
            std::string::npos)
      << describe(r);
}

TEST_F(WeightsCommandTest, TextGivesEachLayersQuarterSharesAndThePairsBeyondTheContext) {
  const CommandResult r = run("weights --model " + shell_quote(model_dir().string()));
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_NE(r.out.find("pairs stored half-split"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("fastest quarter pair 0, middle pairs 1, 2, slowest pair 3"), std::string::npos) << r.out;
  for (long long l = 0; l < kLayers; ++l) {
    double total = 0;
    for (long long p = 0; p < kPairs; ++p) total += m.w(l, p);
    char line[160];
    std::snprintf(line, sizeof line, "  %5lld  %6.1f%%  %6.1f%%  %6.1f%%  pairs 2, 3: %.1f%%", l, 100 * m.w(l, 0) / total,
                  100 * (m.w(l, 1) + m.w(l, 2)) / total, 100 * m.w(l, 3) / total, 100 * (m.w(l, 2) + m.w(l, 3)) / total);
    EXPECT_NE(r.out.find(line), std::string::npos) << "missing: " << line << "\n" << r.out;
  }
  EXPECT_EQ(r.err, "");  // no progress line: stderr is not a terminal here
}

TEST_F(WeightsCommandTest, CsvIsOneTidyRowPerLayerKindHeadAndPair) {
  const fs::path csv = home.path() / "usage.csv";
  const CommandResult r = run("weights --model " + shell_quote(model_dir().string()) + " --csv " + shell_quote(csv.string()));
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  std::ifstream in(csv);
  std::stringstream text;
  text << in.rdbuf();
  EXPECT_EQ(text.str().substr(0, text.str().find('\n')),
            "layer,kind,head,kv_head,pair,inv_freq,original_inv_freq,wavelength,beyond_context,norm");
  const auto rows = parse_csv(text.str());
  ASSERT_EQ(rows.size(), std::size_t(1 + kLayers * (kHeads + kKv) * kPairs));
  const auto& h = rows[0];
  int checked = 0;
  for (std::size_t i = 1; i < rows.size(); ++i) {
    const auto& row = rows[i];
    const long long l = std::stoll(row[column(h, "layer")]), head = std::stoll(row[column(h, "head")]),
                    p = std::stoll(row[column(h, "pair")]);
    const std::string kind = row[column(h, "kind")];
    const double norm = std::stod(row[column(h, "norm")]);
    if (kind == "q") {
      EXPECT_EQ(norm, m.q_norm(l, head, p));
      EXPECT_EQ(std::stoll(row[column(h, "kv_head")]), head / 2);
    } else {
      ASSERT_EQ(kind, "k");
      EXPECT_EQ(norm, m.k_norm(l, head, p));
    }
    const double wavelength = 2 * std::numbers::pi * std::pow(10000.0, 2.0 * p / kHd);
    EXPECT_NEAR(std::stod(row[column(h, "wavelength")]), wavelength, 1e-9 * wavelength);
    EXPECT_EQ(row[column(h, "beyond_context")], wavelength > kContext ? "true" : "false");
    ++checked;
  }
  EXPECT_EQ(checked, kLayers * (kHeads + kKv) * kPairs);
}

TEST_F(WeightsCommandTest, LayerReadsOneLayerAndPrintsItsHeads) {
  const std::string dir = shell_quote(model_dir().string());
  const json j = run_json("--layer 1 --model " + dir);
  ASSERT_TRUE(j.is_object());
  EXPECT_EQ(j.at("layer_index"), json::array({1}));
  EXPECT_EQ(j.at("layers"), kLayers);  // the model's layers; one was read
  ASSERT_EQ(j.at("q_pair_norms").size(), 1u);
  for (long long h = 0; h < kHeads; ++h)
    for (long long p = 0; p < kPairs; ++p) EXPECT_EQ(j.at("q_pair_norms")[0][h][p].get<double>(), m.q_norm(1, h, p));
  EXPECT_EQ(j.at("bytes_read"), 48 * kHidden * 4);
  const CommandResult text = run("weights --layer 1 --model " + dir);
  ASSERT_EQ(text.exit_code, 0) << describe(text);
  EXPECT_NE(text.out.find("Layer 1, ‖q_h,j‖ per query head"), std::string::npos) << text.out;
  char cell[32];
  std::snprintf(cell, sizeof cell, " %9.4g", m.q_norm(1, 3, 2));
  EXPECT_NE(text.out.find(cell), std::string::npos) << cell << "\n" << text.out;
}

TEST_F(WeightsCommandTest, BadOptionsExit2NamingTheOption) {
  const std::string dir = shell_quote(model_dir().string());
  struct Case {
    std::string args, message;
  };
  for (const Case& c : {Case{"weights", "--model"}, Case{"weights --json", "--model"},
                        Case{"weights --model " + dir + " --gguf x.gguf", "--gguf"}, Case{"weights --model " + dir + " --layer 2", "--layer"},
                        Case{"weights --model " + dir + " --layer -1", "--layer"}, Case{"weights --model " + dir + " --threads 999", "--threads"},
                        Case{"weights --model " + dir + " --frobnicate", "frobnicate"}, Case{"weights --model", "--model"}}) {
    SCOPED_TRACE(c.args);
    const CommandResult r = run(c.args);
    EXPECT_EQ(r.exit_code, 2) << describe(r);
    EXPECT_NE(r.err.find(c.message), std::string::npos) << describe(r);
    EXPECT_EQ(r.out, "");
  }
  const CommandResult help = run("weights --help");
  EXPECT_EQ(help.exit_code, 0) << describe(help);
  for (const char* documented : {"--model", "--gguf", "--json", "--csv", "--layer", "--threads", "q_pair_norms [layer][head][pair]",
                                 "k_pair_norms [layer][kv_head][pair]", "inv_freq [pair]", "half-split", "interleaved", "pd.read_csv",
                                 "F8_E4M3", "weight_scale_inv", "weight_block_size", "Q3_K", "IQ4_XS"})
    EXPECT_NE(help.out.find(documented), std::string::npos) << documented << "\n" << help.out;
}

TEST_F(WeightsCommandTest, BadFilesExit1NamingTheFileAndTheTensor) {
  // q_proj one row short: the plan names the file, the tensor and both shapes.
  {
    std::mt19937 rng(1);
    const fs::path dir = home.path() / "short-q";
    fs::create_directories(dir);
    SafetensorsWriter st;
    st.values("model.layers.0.self_attn.q_proj.weight", "F32", {kHeads * kHd - 1, kHidden}, flat(random_rows(kHeads * kHd - 1, kHidden, rng)));
    st.values("model.layers.0.self_attn.k_proj.weight", "F32", {kKv * kHd, kHidden}, flat(m.k[0]));
    st.values("model.layers.1.self_attn.q_proj.weight", "F32", {kHeads * kHd, kHidden}, flat(m.q[1]));
    st.values("model.layers.1.self_attn.k_proj.weight", "F32", {kKv * kHd, kHidden}, flat(m.k[1]));
    write_bytes(dir / "model.safetensors", st.bytes());
    std::ofstream(dir / "config.json") << kConfig;
    const CommandResult r = run("weights --model " + shell_quote(dir.string()));
    EXPECT_EQ(r.exit_code, 1) << describe(r);
    EXPECT_NE(r.err.find((dir / "model.safetensors").string()), std::string::npos) << describe(r);
    EXPECT_NE(r.err.find("model.layers.0.self_attn.q_proj.weight"), std::string::npos) << describe(r);
    EXPECT_EQ(r.out, "");
  }
  // A header that claims more data than the file holds: nothing past the end is read.
  {
    const fs::path dir = model_dir("F32", "truncated");
    Bytes b = m.safetensors("F32");
    b.resize(b.size() - 100);
    write_bytes(dir / "model.safetensors", b);
    const CommandResult r = run("weights --model " + shell_quote(dir.string()));
    EXPECT_EQ(r.exit_code, 1) << describe(r);
    EXPECT_NE(r.err.find((dir / "model.safetensors").string()), std::string::npos) << describe(r);
  }
  // A GGUF whose attn_k is cut short of its data.
  {
    const fs::path p = home.path() / "cut.gguf";
    Bytes b = m.gguf();
    b.resize(b.size() - 64);
    write_bytes(p, b);
    const CommandResult r = run("weights --gguf " + shell_quote(p.string()));
    EXPECT_EQ(r.exit_code, 1) << describe(r);
    EXPECT_NE(r.err.find(p.string()), std::string::npos) << describe(r);
    EXPECT_NE(r.err.find("blk.1.attn_k.weight"), std::string::npos) << describe(r);
  }
  // No config.json beside the weights; no such path; no such model in the (empty) cache.
  {
    const fs::path dir = model_dir("F32", "no-config");
    fs::remove(dir / "config.json");
    const CommandResult r = run("weights --model " + shell_quote(dir.string()));
    EXPECT_EQ(r.exit_code, 1) << describe(r);
    EXPECT_NE(r.err.find("config.json"), std::string::npos) << describe(r);
    const CommandResult missing = run("weights --model " + shell_quote((home.path() / "nowhere").string()));
    EXPECT_EQ(missing.exit_code, 1) << describe(missing);
    EXPECT_NE(missing.err.find("nowhere"), std::string::npos) << describe(missing);
    const CommandResult cache = run("weights --model no-such-org/no-such-model");
    EXPECT_EQ(cache.exit_code, 1) << describe(cache);
    EXPECT_NE(cache.err.find("no-such-org/no-such-model"), std::string::npos) << describe(cache);
  }
}

TEST_F(WeightsCommandTest, ExportDrawsTheViewOfTheWeightsHeadless) {
  const fs::path png = home.path() / "usage.png", csv = home.path() / "usage.csv";
  const CommandResult r = run("export --view frequency-usage --weights " + shell_quote(model_dir().string()) +
                              " --size 1200x800 -o " + shell_quote(png.string()) + " --csv " + shell_quote(csv.string()));
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  const PngHeader header = read_png_header(png);
  ASSERT_TRUE(header.ok) << header.error;
  EXPECT_EQ(header.width, 1200u);
  EXPECT_EQ(header.height, 800u);
  const Image image = decode_png(png);
  ASSERT_TRUE(image.valid());
  EXPECT_TRUE(is_not_blank(image, whole(image)));
  EXPECT_EQ(parse_csv(read_file(csv)).size(), std::size_t(1 + kLayers * (kHeads + kKv) * kPairs));
  // The weights go with the session.
  const CommandResult bad = run("export --view frequency-usage --weights " + shell_quote((home.path() / "nowhere").string()) +
                                " --size 800x600 -o " + shell_quote((home.path() / "bad.png").string()) + " --csv " +
                                shell_quote((home.path() / "bad.csv").string()));
  EXPECT_NE(bad.exit_code, 0) << describe(bad);
  EXPECT_NE(bad.err.find("nowhere"), std::string::npos) << describe(bad);
}

}  // namespace
