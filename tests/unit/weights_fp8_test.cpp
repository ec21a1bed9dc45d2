// FP8 checkpoints as DeepSeek-V3/R1 and Kimi K2 ship them: 8-bit float weights (F8_E4M3,
// also F8_E5M2) with an F32 `…weight_scale_inv` per 128 × 128 block (config.json's
// quantization_config.weight_block_size). Checked here:
//   - every one of the 256 codes of E4M3, E5M2 (and the E8M0 scale format) against the OCP
//     formula evaluated in the test (weights_test_writer.hpp fp8_value);
//   - checkpoints written by the test, read through the public reader (open_hf_weights,
//     open_weights): their norms equal those of the dequantised values (codes × block
//     scales, computed in double here) exactly, and those of the unquantised F32 weights
//     within the quantisation error; partial blocks, blocks of any size, scales in another
//     shard, an MLA model whose rope rows cross block boundaries;
//   - every refusal names what to look at (both tensors for a missing or misshapen scale).
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <functional>
#include <random>

#include "pe/weights/float8.hpp"
#include "pe/weights/frequency_usage.hpp"
#include "pe/weights/ggml_blocks.hpp"
#include "pe/weights/open_weights.hpp"
#include "pe/weights/safetensors_checkpoint.hpp"
#include "pe/weights/weights_error.hpp"
#include "weights_test_writer.hpp"

namespace {

using namespace pe_test;
namespace fs = std::filesystem;

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const pe::WeightsError& e) {
    return e.what();
  } catch (const std::exception& e) {
    return std::string("another exception: ") + e.what();
  }
  return "accepted";
}

#define EXPECT_MENTIONS(msg, ...) \
  for (const std::string part : std::initializer_list<std::string>{__VA_ARGS__}) EXPECT_TRUE(contains((msg), part)) << "lacks \"" << part << "\": " << (msg)

// ---- the 8-bit float formats ----------------------------------------------------------------

void expect_every_code(float (*decode)(std::uint8_t), bool e4m3) {
  int nans = 0;
  for (int b = 0; b < 256; ++b) {
    const double want = fp8_value(static_cast<std::uint8_t>(b), e4m3);
    const float got = decode(static_cast<std::uint8_t>(b));
    if (std::isnan(want)) {
      EXPECT_TRUE(std::isnan(got)) << std::hex << b;
      ++nans;
      continue;
    }
    EXPECT_EQ(static_cast<double>(got), want) << std::hex << b;
    EXPECT_EQ(std::signbit(got), (b & 0x80) != 0) << std::hex << b;
  }
  EXPECT_EQ(nans, e4m3 ? 2 : 6);  // E4M3: S.1111.111; E5M2: S.11111.{01,10,11}
}

TEST(Float8, EveryE4M3CodeMatchesTheFormula) {
  expect_every_code(pe::e4m3_to_float, true);
  // Landmarks of the "FN" variant: 448 the largest, no infinity, 2^-9 the smallest subnormal.
  EXPECT_EQ(pe::e4m3_to_float(0x7E), 448.0f);
  EXPECT_EQ(pe::e4m3_to_float(0xFE), -448.0f);
  EXPECT_TRUE(std::isnan(pe::e4m3_to_float(0x7F)));
  EXPECT_TRUE(std::isnan(pe::e4m3_to_float(0xFF)));
  EXPECT_EQ(pe::e4m3_to_float(0x78), 256.0f);  // 0.1111.000: not infinity
  EXPECT_EQ(pe::e4m3_to_float(0x38), 1.0f);
  EXPECT_EQ(pe::e4m3_to_float(0x01), std::ldexp(1.0f, -9));
  EXPECT_EQ(pe::e4m3_to_float(0x08), std::ldexp(1.0f, -6));  // smallest normal
  EXPECT_EQ(pe::e4m3_to_float(0x07), 7.0f / 8.0f * std::ldexp(1.0f, -6));
}

TEST(Float8, EveryE5M2CodeMatchesTheFormula) {
  expect_every_code(pe::e5m2_to_float, false);
  EXPECT_EQ(pe::e5m2_to_float(0x7B), 57344.0f);
  EXPECT_EQ(pe::e5m2_to_float(0x7C), INFINITY);
  EXPECT_EQ(pe::e5m2_to_float(0xFC), -INFINITY);
  EXPECT_EQ(pe::e5m2_to_float(0x3C), 1.0f);
  EXPECT_EQ(pe::e5m2_to_float(0x01), std::ldexp(1.0f, -16));
}

TEST(Float8, E8M0ScalesArePowersOfTwo) {
  for (int b = 0; b < 255; ++b) EXPECT_EQ(pe::e8m0_to_float(static_cast<std::uint8_t>(b)), std::ldexp(1.0, b - 127)) << b;
  EXPECT_EQ(pe::e8m0_to_float(127), 1.0f);
  EXPECT_TRUE(std::isnan(pe::e8m0_to_float(0xFF)));
}

TEST(Float8, DecodeBlocksUsesTheTables) {
  Bytes all(256);
  for (int b = 0; b < 256; ++b) all[static_cast<std::size_t>(b)] = static_cast<std::uint8_t>(b);
  for (const bool e4m3 : {true, false}) {
    std::vector<float> y(256);
    pe::decode_blocks(e4m3 ? pe::StoredFormat::F8_E4M3 : pe::StoredFormat::F8_E5M2, all.data(), 256, y.data());
    for (int b = 0; b < 256; ++b) {
      const double want = fp8_value(static_cast<std::uint8_t>(b), e4m3);
      if (std::isnan(want)) EXPECT_TRUE(std::isnan(y[static_cast<std::size_t>(b)]));
      else EXPECT_EQ(static_cast<double>(y[static_cast<std::size_t>(b)]), want) << b;
    }
  }
}

// ---- a Llama-shaped FP8 checkpoint ----------------------------------------------------------

// 4 query heads and 2 key/value heads of 8 dims, hidden 256, 2 layers; blocks of 8 × 96, so q
// has 4 × 3 blocks and k 2 × 3, the last column block 64 wide (a partial block).
constexpr long long kHeads = 4, kKv = 2, kHd = 8, kHidden = 256, kLayers = 2, kBr = 8, kBc = 96;

std::string llama_config(const std::string& quantization) {
  return R"({"architectures": ["LlamaForCausalLM"], "model_type": "llama", "hidden_size": 256,
    "num_attention_heads": 4, "num_key_value_heads": 2, "head_dim": 8, "num_hidden_layers": 2,
    "max_position_embeddings": 64, "rope_theta": 10000.0)" +
         (quantization.empty() ? std::string() : ", \"quantization_config\": " + quantization) + "}";
}
const std::string kBlocks8x96 = R"({"quant_method": "fp8", "fmt": "e4m3", "weight_block_size": [8, 96], "activation_scheme": "dynamic"})";

std::string name(long long l, const char* kind) { return "model.layers." + std::to_string(l) + ".self_attn." + kind + "_proj.weight"; }

struct Fp8Llama {
  std::vector<Rows> q, k;  // the values the checkpoint stands for
  SafetensorsWriter fp8;   // F8 weights and their scales
  SafetensorsWriter f32;   // the same values as F32
  Fp8Llama(bool e4m3, long long br, long long bc, unsigned seed = 3) {
    std::mt19937 rng(seed);
    for (long long l = 0; l < kLayers; ++l)
      for (const auto& [kind, rows] : {std::pair{"q", kHeads * kHd}, std::pair{"k", kKv * kHd}}) {
        const Fp8Encoded e = random_fp8_matrix(rows, kHidden, br, bc, e4m3, rng);
        put_fp8(fp8, name(l, kind), rows, kHidden, e, e4m3);
        f32.values(name(l, kind), "F32", {static_cast<std::uint64_t>(rows), kHidden}, e.values);
        (std::string(kind) == "q" ? q : k).push_back(unflat(e.values, rows, kHidden));
      }
  }
};

pe::FrequencyUsage usage_of(const SafetensorsWriter& w, const std::string& config, const std::string& file = "model.safetensors") {
  const pe::OpenedWeights o =
      pe::open_hf_weights(pe::SafetensorsCheckpoint::single(pe::memory_source(w.bytes(), file)), config, "config.json");
  return pe::measure_frequency_usage(*o.tensors, o.model);
}

// Half-split pair j of head h (Llama's rotate_half): rows h·hd + j and h·hd + j + hd/2.
void expect_norms(const pe::FrequencyUsage& u, const std::vector<Rows>& q, const std::vector<Rows>& k) {
  ASSERT_EQ(u.q_pair_norms.size(), static_cast<std::size_t>(kLayers));
  for (long long l = 0; l < kLayers; ++l) {
    for (long long h = 0; h < kHeads; ++h)
      for (long long j = 0; j < kHd / 2; ++j)
        EXPECT_EQ(u.q_pair_norms[l](h, j), pair_norm(q[l], h * kHd + j, h * kHd + j + kHd / 2)) << l << " " << h << " " << j;
    for (long long h = 0; h < kKv; ++h)
      for (long long j = 0; j < kHd / 2; ++j)
        EXPECT_EQ(u.k_pair_norms[l](h, j), pair_norm(k[l], h * kHd + j, h * kHd + j + kHd / 2)) << l << " " << h << " " << j;
  }
}

TEST(Fp8Checkpoint, NormsAreThoseOfCodesTimesTheirBlockScales) {
  for (const bool e4m3 : {true, false}) {
    SCOPED_TRACE(e4m3 ? "E4M3" : "E5M2");
    const Fp8Llama m(e4m3, kBr, kBc);
    const std::string quantization = R"({"quant_method": "fp8", "fmt": ")" + std::string(e4m3 ? "e4m3" : "e5m2") +
                                     R"(", "weight_block_size": [8, 96]})";
    const pe::FrequencyUsage u = usage_of(m.fp8, llama_config(quantization));
    EXPECT_EQ(u.dtype, e4m3 ? "f8_e4m3" : "f8_e5m2");
    expect_norms(u, m.q, m.k);
    // The same values stored F32 give the same numbers, bit for bit.
    const pe::FrequencyUsage f = usage_of(m.f32, llama_config(""));
    for (std::size_t l = 0; l < 2; ++l) {
      EXPECT_TRUE((u.q_pair_norms[l] == f.q_pair_norms[l]).all());
      EXPECT_TRUE((u.k_pair_norms[l] == f.k_pair_norms[l]).all());
    }
    EXPECT_EQ(u.bytes_read, static_cast<std::uint64_t>(kLayers * (kHeads + kKv) * kHd * kHidden));  // a byte a weight
    bool noted = false;
    for (const auto& n : u.notes) noted = noted || contains(n.message, "block scales") && contains(n.message, "8 × 96");
    EXPECT_TRUE(noted);
  }
}

TEST(Fp8Checkpoint, EveryElementIsItsCodeTimesItsBlockScale) {
  // A 20 × 200 matrix in blocks of 8 × 96: 3 × 3 scales, the last row and column blocks partial.
  std::mt19937 rng(4);
  const Fp8Encoded e = random_fp8_matrix(20, 200, 8, 96, true, rng);
  SafetensorsWriter w;
  put_fp8(w, "w.weight", 20, 200, e, true);
  pe::SafetensorsCheckpoint c = pe::SafetensorsCheckpoint::single(pe::memory_source(w.bytes(), "m.safetensors"));
  c.set_fp8_quantization(pe::fp8_quantization_of(llama_config(kBlocks8x96), "config.json"));
  const pe::StoredMatrix m = c.matrix("w.weight");
  ASSERT_TRUE(m.scales);
  EXPECT_EQ(m.scales->rows, 3);
  EXPECT_EQ(m.scales->cols, 3);
  EXPECT_EQ(m.scales->tensor, "w.weight_scale_inv");
  std::vector<double> sums(20);
  pe::row_sum_squares(m, 0, 20, sums.data());
  for (long long r = 0; r < 20; ++r) {
    const std::vector<float> row = pe::read_row(m, r);
    double ss = 0;
    for (long long col = 0; col < 200; ++col) {
      const double want = e.values[static_cast<std::size_t>(r * 200 + col)];
      EXPECT_EQ(static_cast<double>(row[static_cast<std::size_t>(col)]), want) << r << " " << col;
      ss += want * want;
    }
    EXPECT_EQ(sums[static_cast<std::size_t>(r)], ss) << r;
  }
}

TEST(Fp8Checkpoint, MatchesTheUnquantisedWeightsWithinTheQuantisationError) {
  // k/16 weights quantised per 128 × 128 block (the default: no weight_block_size) as
  // transformers' Fp8Quantize does. Every |v / s| is at least (1/16)·448/4 = 7, a normal
  // E4M3 number, so each value is off by at most half a unit of its 3-bit mantissa: 2^-4
  // of itself (and a float rounding of the product), so each norm by at most 2^-4 too.
  std::mt19937 rng(5);
  SafetensorsWriter fp8, f32;
  for (long long l = 0; l < kLayers; ++l)
    for (const auto& [kind, rows] : {std::pair{"q", kHeads * kHd}, std::pair{"k", kKv * kHd}}) {
      const std::vector<double> v = flat(random_rows(rows, kHidden, rng));
      put_fp8(fp8, name(l, kind), rows, kHidden, quantise_fp8(v, rows, kHidden, 128, 128, true), true);
      f32.values(name(l, kind), "F32", {static_cast<std::uint64_t>(rows), kHidden}, v);
    }
  const pe::FrequencyUsage q8 = usage_of(fp8, llama_config(R"({"quant_method": "fp8", "fmt": "e4m3"})"));
  const pe::FrequencyUsage exact = usage_of(f32, llama_config(""));
  double worst = 0;
  for (std::size_t l = 0; l < 2; ++l)
    for (const auto* pair : {&q8.q_pair_norms[l], &q8.k_pair_norms[l]}) {
      const auto& ref = pair == &q8.q_pair_norms[l] ? exact.q_pair_norms[l] : exact.k_pair_norms[l];
      for (Eigen::Index i = 0; i < pair->size(); ++i) {
        const double rel = std::fabs(pair->data()[i] - ref.data()[i]) / ref.data()[i];
        EXPECT_LE(rel, 0.0625 * (1 + 1e-6)) << l << " " << i;
        worst = std::max(worst, rel);
      }
    }
  EXPECT_GT(worst, 0.0);  // it did quantise
  const auto a = pe::summarize_usage(q8), b = pe::summarize_usage(exact);
  for (std::size_t l = 0; l < 2; ++l) EXPECT_NEAR(a[l].share_fastest, b[l].share_fastest, 0.13);
}

TEST(Fp8Checkpoint, FromAFolderOnDiskWithItsConfigAndShardedScales) {
  // Two shards: the weights in one, the scales in the other, and the config.json beside them.
  const Fp8Llama m(true, kBr, kBc);
  TempPath dir("fp8");
  fs::create_directories(dir.path());
  SafetensorsWriter weights, scales;
  std::string map;
  const Bytes all = m.fp8.bytes();
  const pe::SafetensorsHeader h = pe::parse_safetensors_header(all, "all");
  for (const auto& t : h.tensors) {
    const bool scale = contains(t.name, "_scale_inv");
    Bytes data(all.begin() + static_cast<std::ptrdiff_t>(h.data_offset() + t.begin), all.begin() + static_cast<std::ptrdiff_t>(h.data_offset() + t.end));
    (scale ? scales : weights).tensor(t.name, pe::to_string(t.dtype), t.shape, data);
    map += (map.empty() ? "" : ",") + SafetensorsWriter::quote(t.name) + ":" +
           SafetensorsWriter::quote(scale ? "model-00002-of-00002.safetensors" : "model-00001-of-00002.safetensors");
  }
  write_bytes(dir.path() / "model-00001-of-00002.safetensors", weights.bytes());
  write_bytes(dir.path() / "model-00002-of-00002.safetensors", scales.bytes());
  std::ofstream(dir.path() / "model.safetensors.index.json") << "{\"metadata\": {}, \"weight_map\": {" << map << "}}";
  std::ofstream(dir.path() / "config.json") << llama_config(kBlocks8x96);
  const pe::OpenedWeights o = pe::open_weights(dir.path());
  EXPECT_EQ(o.model.fp8.block_rows, 8);
  EXPECT_EQ(o.model.fp8.block_cols, 96);
  expect_norms(pe::measure_frequency_usage(*o.tensors, o.model), m.q, m.k);
  // Without the config's block size (128 × 128) the 4 × 3 grid of q is misshapen: both tensors named.
  std::ofstream(dir.path() / "config.json") << llama_config("");
  const pe::OpenedWeights d = pe::open_weights(dir.path());
  const std::string msg = error_of([&] { pe::measure_frequency_usage(*d.tensors, d.model); });
  EXPECT_MENTIONS(msg, "model-00001-of-00002.safetensors: tensor " + name(0, "q"), "scale tensor " + name(0, "q") + "_scale_inv",
                  "model-00002-of-00002.safetensors", "4 × 3 scales", "32 × 256", "128 × 128", "needs 1 × 2");
}

TEST(Fp8Checkpoint, OneScaleForTheWholeMatrixWhenTheBlockSizeIsNull) {
  // transformers Fp8Dequantize: weight_block_size None = one block as large as the matrix.
  std::mt19937 rng(9);
  SafetensorsWriter w;
  std::vector<Rows> q, k;
  for (long long l = 0; l < kLayers; ++l)
    for (const auto& [kind, rows] : {std::pair{"q", kHeads * kHd}, std::pair{"k", kKv * kHd}}) {
      const Fp8Encoded e = random_fp8_matrix(rows, kHidden, rows, kHidden, true, rng);
      put_fp8(w, name(l, kind), rows, kHidden, e, true);
      (std::string(kind) == "q" ? q : k).push_back(unflat(e.values, rows, kHidden));
    }
  expect_norms(usage_of(w, llama_config(R"({"quant_method": "fp8", "weight_block_size": null})")), q, k);
}

TEST(Fp8Checkpoint, E8M0AndBf16Scales) {
  // The same codes with their power-of-two scales stored as F8_E8M0 bytes (2^(e − 127)) and as BF16.
  const Fp8Llama m(true, kBr, kBc);
  const Bytes all = m.fp8.bytes();
  const pe::SafetensorsHeader h = pe::parse_safetensors_header(all, "all");
  for (const std::string dtype : {"F8_E8M0", "BF16"}) {
    SCOPED_TRACE(dtype);
    SafetensorsWriter w;
    for (const auto& t : h.tensors) {
      Bytes data(all.begin() + static_cast<std::ptrdiff_t>(h.data_offset() + t.begin), all.begin() + static_cast<std::ptrdiff_t>(h.data_offset() + t.end));
      if (!contains(t.name, "_scale_inv")) {
        w.tensor(t.name, pe::to_string(t.dtype), t.shape, data);
        continue;
      }
      Bytes converted;
      for (std::size_t k = 0; k < data.size(); k += 4) {
        float f;
        std::memcpy(&f, data.data() + k, 4);
        int exponent = 0;
        std::frexp(f, &exponent);  // f = 0.5 · 2^exponent
        if (dtype == "F8_E8M0") converted.push_back(static_cast<std::uint8_t>(exponent - 1 + 127));
        else put_le(converted, bf16_bits(f), 2);
      }
      w.tensor(t.name, dtype, t.shape, converted);
    }
    expect_norms(usage_of(w, llama_config(kBlocks8x96)), m.q, m.k);
  }
}

// ---- MLA (DeepSeek-V3, Kimi K2) ---------------------------------------------------------------

// 2 heads of qk_nope 4 + qk_rope 4, q_lora_rank 16, kv_lora_rank 8, hidden 32; blocks of 3 × 8:
// q_b_proj's 16 rows are 6 row blocks (the last one row), so every head's rope rows (8h + 4
// ... 8h + 7) straddle a block boundary; kv_a_proj_with_mqa's 12 rows are 4 blocks.
TEST(Fp8Checkpoint, MlaRopeRowsAcrossBlockBoundaries) {
  constexpr long long heads = 2, nope = 4, rope = 4, qlora = 16, lora = 8, hidden = 32;
  const std::string config = R"({"architectures": ["DeepseekV3ForCausalLM"], "model_type": "deepseek_v3", "hidden_size": 32,
    "num_attention_heads": 2, "num_key_value_heads": 2, "num_hidden_layers": 2, "q_lora_rank": 16, "kv_lora_rank": 8,
    "qk_nope_head_dim": 4, "qk_rope_head_dim": 4, "v_head_dim": 4, "max_position_embeddings": 4096, "rope_theta": 10000,
    "quantization_config": {"activation_scheme": "dynamic", "fmt": "e4m3", "quant_method": "fp8", "weight_block_size": [3, 8]}})";
  std::mt19937 rng(17);
  SafetensorsWriter w;
  std::vector<Rows> qb, kva;
  for (int l = 0; l < 2; ++l) {
    const std::string p = "model.layers." + std::to_string(l) + ".self_attn.";
    const Fp8Encoded q = random_fp8_matrix(heads * (nope + rope), qlora, 3, 8, true, rng);
    const Fp8Encoded k = random_fp8_matrix(lora + rope, hidden, 3, 8, true, rng);
    ASSERT_EQ(q.grid_rows, 6u);
    put_fp8(w, p + "q_b_proj.weight", heads * (nope + rope), qlora, q, true);
    put_fp8(w, p + "kv_a_proj_with_mqa.weight", lora + rope, hidden, k, true);
    qb.push_back(unflat(q.values, heads * (nope + rope), qlora));
    kva.push_back(unflat(k.values, lora + rope, hidden));
  }
  const pe::FrequencyUsage u = usage_of(w, config);
  EXPECT_EQ(u.family, "q_b_proj/kv_a_proj_with_mqa (MLA)");
  EXPECT_EQ(u.convention, "interleaved");
  const long long hd = nope + rope;
  for (int l = 0; l < 2; ++l) {
    for (long long h = 0; h < heads; ++h) {
      for (long long j = 0; j < rope / 2; ++j)
        EXPECT_EQ(u.q_pair_norms[l](h, j), pair_norm(qb[l], h * hd + nope + 2 * j, h * hd + nope + 2 * j + 1)) << l << h << j;
      EXPECT_EQ(u.q_nonrotary_norms[l](h), rows_norm(qb[l], h * hd, nope));
    }
    for (long long j = 0; j < rope / 2; ++j) EXPECT_EQ(u.k_pair_norms[l](0, j), pair_norm(kva[l], lora + 2 * j, lora + 2 * j + 1));
    EXPECT_EQ(u.k_nonrotary_norms[l](0), rows_norm(kva[l], 0, lora));
  }
}

// ---- refusals -------------------------------------------------------------------------------

TEST(Fp8Errors, MissingScalesNameBothTensors) {
  std::mt19937 rng(1);
  SafetensorsWriter w;
  const Fp8Encoded e = random_fp8_matrix(kHeads * kHd, kHidden, 128, 128, true, rng);
  for (long long l = 0; l < kLayers; ++l) {
    w.tensor(name(l, "q"), "F8_E4M3", {kHeads * kHd, kHidden}, e.weight);
    w.values(name(l, "k"), "F32", {kKv * kHd, kHidden}, std::vector<double>(kKv * kHd * kHidden, 0.5));
  }
  std::string msg = error_of([&] { usage_of(w, llama_config(""), "fp8.safetensors"); });
  EXPECT_MENTIONS(msg, "fp8.safetensors: tensor " + name(0, "q") + ": an F8_E4M3 weight needs its block scales, the tensor " + name(0, "q") +
                           "_scale_inv, which this checkpoint does not have");
  // A per-tensor scale (compressed-tensors, ModelOpt) is named as what it is.
  w.tensor("model.layers.0.self_attn.q_proj.weight_scale", "F32", {}, Bytes(4, 0));
  msg = error_of([&] { usage_of(w, llama_config(""), "fp8.safetensors"); });
  EXPECT_MENTIONS(msg, "it has model.layers.0.self_attn.q_proj.weight_scale (a per-tensor scale");
}

TEST(Fp8Errors, MisshapenOrUnreadableScales) {
  std::mt19937 rng(2);
  const Fp8Encoded e = random_fp8_matrix(kHeads * kHd, kHidden, kBr, kBc, true, rng);  // a 4 × 3 grid
  const auto with_scale = [&](const std::string& dtype, const std::vector<std::uint64_t>& shape, const Bytes& data) {
    SafetensorsWriter w;
    for (long long l = 0; l < kLayers; ++l) {
      w.tensor(name(l, "q"), "F8_E4M3", {kHeads * kHd, kHidden}, e.weight);
      w.values(name(l, "k"), "F32", {kKv * kHd, kHidden}, std::vector<double>(kKv * kHd * kHidden, 0.5));
    }
    w.tensor(name(0, "q") + "_scale_inv", dtype, shape, data);
    w.tensor(name(1, "q") + "_scale_inv", "F32", {e.grid_rows, e.grid_cols}, e.scales);
    return error_of([&] { usage_of(w, llama_config(kBlocks8x96), "fp8.safetensors"); });
  };
  const std::string head = "fp8.safetensors: tensor " + name(0, "q") + ": its scale tensor " + name(0, "q") + "_scale_inv";
  EXPECT_MENTIONS(with_scale("F32", {3, 4}, Bytes(48, 0)), head, "3 × 4 scales", "32 × 256 matrix in blocks of 8 × 96 needs 4 × 3");
  EXPECT_MENTIONS(with_scale("F32", {12}, Bytes(48, 0)), head, "shape [12]", "not a 2-D grid");
  EXPECT_MENTIONS(with_scale("I32", {4, 3}, Bytes(48, 0)), head, "dtype I32");
  EXPECT_EQ(with_scale("F32", {4, 3}, e.scales), "accepted");
}

TEST(Fp8Errors, ConfigurationsThatDoNotFitTheTensors) {
  const Fp8Llama m(true, kBr, kBc);
  const auto msg = [&](const std::string& quantization) { return error_of([&] { usage_of(m.fp8, llama_config(quantization)); }); };
  EXPECT_MENTIONS(msg(R"({"quant_method": "compressed-tensors"})"), "config.json: tensor " + name(0, "q"),
                  "quantization_config.quant_method", "\"compressed-tensors\"");
  EXPECT_MENTIONS(msg(R"({"quant_method": "fp8", "fmt": "e5m2", "weight_block_size": [8, 96]})"),
                  "model.safetensors: tensor " + name(0, "q") + ": dtype F8_E4M3 disagrees with the configuration's quantization_config.fmt \"e5m2\"");
  EXPECT_MENTIONS(msg(R"({"quant_method": "fp8", "fmt": "int4"})"), "quantization_config.fmt", "\"int4\"");
  EXPECT_MENTIONS(msg(R"({"quant_method": "fp8", "weight_block_size": [128]})"), "config.json: tensor " + name(0, "q"),
                  "quantization_config.weight_block_size", "expected [rows, columns]", "[128]");
  EXPECT_MENTIONS(msg(R"({"quant_method": "fp8", "weight_block_size": [0, 128]})"), "quantization_config.weight_block_size");
  EXPECT_EQ(msg(R"({"quant_method": "fp8", "fmt": "e4m3fn", "weight_block_size": [8, 96]})"), "accepted");
  // A bf16 checkpoint is not refused for a quantization_config it does not use.
  EXPECT_EQ(error_of([&] { usage_of(m.f32, llama_config(R"({"quant_method": "fp8", "weight_block_size": "128"})")); }), "accepted");
}

TEST(Fp8Errors, OtherEightBitFloatsAreRefusedByName) {
  SafetensorsWriter w;
  for (long long l = 0; l < kLayers; ++l) {
    w.tensor(name(l, "q"), "F8_E4M3FNUZ", {kHeads * kHd, kHidden}, Bytes(kHeads * kHd * kHidden, 0x38));
    w.values(name(l, "k"), "F32", {kKv * kHd, kHidden}, std::vector<double>(kKv * kHd * kHidden, 0.5));
  }
  EXPECT_MENTIONS(error_of([&] { usage_of(w, llama_config(""), "amd.safetensors"); }),
                  "amd.safetensors: tensor " + name(0, "q") + ": dtype F8_E4M3FNUZ cannot be read as weights", "F8_E4M3 and F8_E5M2");
}

}  // namespace
