// transformers, vLLM and llama.cpp side by side. The transformers column is checked against
// the Python formulas of modeling_rope_utils.py written out again here in double precision
// (independently of scaling.cpp), on real configs' values taken from their config.json
// files; vLLM's and llama.cpp's known differences are checked against their rules as read
// from their sources (file named at each test), and against published numbers where there
// are some (vLLM PR #28244's gpt-oss correction range, the Phi-3 GGUF attn_factor).
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <vector>

#include "pe/models/config.hpp"
#include "pe/models/config_diagnostics.hpp"
#include "pe/models/frameworks.hpp"

namespace {

using pe::Framework;

double rel(double a, double b) { return std::abs(a - b) / std::max(std::abs(a), std::abs(b)); }

// --- transformers' formulas, written out (modeling_rope_utils.py) -------------------------

std::vector<double> hf_default(double base, int dim) {
  std::vector<double> f;
  for (int i = 0; i < dim; i += 2) f.push_back(1.0 / std::pow(base, static_cast<double>(i) / dim));
  return f;
}

// _compute_llama3_parameters: torch.where(wavelen > low_wavelen, f/factor, f), then the
// medium band ~(wavelen < high_wavelen) & ~(wavelen > low_wavelen) gets the blend.
std::vector<double> hf_llama3(double base, int dim, double factor, double low, double high, double old_ctx) {
  std::vector<double> out;
  for (double f : hf_default(base, dim)) {
    const double wavelen = 2 * std::numbers::pi / f;
    double v = wavelen > old_ctx / low ? f / factor : f;
    const bool medium = !(wavelen < old_ctx / high) && !(wavelen > old_ctx / low);
    if (medium) {
      const double smooth = (old_ctx / wavelen - low) / (high - low);
      v = (1 - smooth) * v / factor + smooth * v;
    }
    out.push_back(v);
  }
  return out;
}

// _compute_yarn_parameters with find_correction_range(truncate) and linear_ramp_factor.
std::vector<double> hf_yarn(double base, int dim, double factor, double beta_fast, double beta_slow, double orig,
                            bool truncate) {
  auto corr = [&](double rot) { return dim * std::log(orig / (rot * 2 * std::numbers::pi)) / (2 * std::log(base)); };
  double low = corr(beta_fast), high = corr(beta_slow);
  if (truncate) low = std::floor(low), high = std::ceil(high);
  low = std::max(low, 0.0);
  high = std::min(high, static_cast<double>(dim - 1));
  if (low == high) high += 0.001;
  std::vector<double> out;
  int i = 0;
  for (double f : hf_default(base, dim)) {
    const double ramp = std::clamp((i++ - low) / (high - low), 0.0, 1.0);
    const double extrapolation_factor = 1 - ramp;
    out.push_back(f / factor * (1 - extrapolation_factor) + f * extrapolation_factor);
  }
  return out;
}

double hf_get_mscale(double scale, double mscale) { return scale <= 1 ? 1.0 : 0.1 * mscale * std::log(scale) + 1.0; }

void expect_close(const Eigen::ArrayXd& got, const std::vector<double>& want, double tol, const std::string& what) {
  ASSERT_EQ(got.size(), static_cast<Eigen::Index>(want.size())) << what;
  for (std::size_t i = 0; i < want.size(); ++i) EXPECT_LE(rel(got[i], want[i]), tol) << what << " pair " << i;
}

const pe::FrameworkResult& result(const pe::FrameworkComparison& c, Framework f) {
  for (const auto& r : c.results)
    if (r.framework == f) return r;
  throw std::runtime_error("framework missing");
}

pe::FrameworkComparison compare_preset(const std::string& key, long long length) {
  const pe::InspectedConfig in = pe::inspect_preset(key);
  EXPECT_TRUE(in.valid) << key;
  return pe::compare_frameworks(in.loaded.config, length, in.frameworks);
}

// Every rope type's transformers column equals the Python formula on a real config.
TEST(Frameworks, TransformersColumnMatchesHfFormulasOnPublishedConfigs) {
  // Qwen3 8B: plain RoPE, θ 10⁶, head_dim 128 (Qwen/Qwen3-8B config.json).
  auto c = compare_preset("qwen3-8b", 40960);
  expect_close(result(c, Framework::Transformers).inv_freq, hf_default(1e6, 128), 1e-12, "default");
  // StableLM 2: partial rotary 0.25 of head_dim 64 → 16 dims, θ 10000.
  c = compare_preset("stablelm-2-1.6b", 4096);
  expect_close(result(c, Framework::Transformers).inv_freq, hf_default(10000, 16), 1e-12, "partial");
  // Llama 3.1 8B: llama3 factor 8, bands 1/4, L_orig 8192 (meta-llama/Llama-3.1-8B config.json).
  c = compare_preset("llama-3.1-8b", 131072);
  expect_close(result(c, Framework::Transformers).inv_freq, hf_llama3(500000, 128, 8, 1, 4, 8192), 1e-12, "llama3.1");
  // Llama 4 Scout: low == high = 1, factor 16.
  c = compare_preset("llama-4-scout", 8192);
  expect_close(result(c, Framework::Transformers).inv_freq, hf_llama3(500000, 128, 16, 1, 1, 8192), 1e-12, "llama4");
  // Qwen2.5 7B + YaRN ×4 from 32768 (model card recipe).
  c = compare_preset("qwen2.5-7b-yarn", 131072);
  expect_close(result(c, Framework::Transformers).inv_freq, hf_yarn(1e6, 128, 4, 32, 1, 32768, true), 1e-12, "qwen yarn");
  EXPECT_NEAR(result(c, Framework::Transformers).attention_factor, hf_get_mscale(4, 1), 1e-15);
  // gpt-oss-20b: YaRN ×32, truncate false, θ 150000, head_dim 64.
  c = compare_preset("gpt-oss-20b", 131072);
  expect_close(result(c, Framework::Transformers).inv_freq, hf_yarn(150000, 64, 32, 32, 1, 4096, false), 1e-12, "gpt-oss");
  // DeepSeek-V2-Lite: mscale / mscale_all_dim both 0.707 → attention factor 1; DeepSeek
  // attention multiplies its softmax scale by get_mscale(40, 0.707)².
  c = compare_preset("deepseek-v2-lite", 163840);
  const auto& ds = result(c, Framework::Transformers);
  expect_close(ds.inv_freq, hf_yarn(10000, 64, 40, 32, 1, 4096, true), 1e-12, "deepseek v2 lite");
  EXPECT_NEAR(ds.attention_factor, 1.0, 1e-15);
  EXPECT_NEAR(ds.logit_scale, std::pow(0.1 * 0.707 * std::log(40.0) + 1, 2), 1e-12);
  // Gemma 3 27B global layers: linear ×8 of θ 10⁶ (the class default), head_dim 128.
  c = compare_preset("gemma-3-27b", 1000);
  std::vector<double> lin = hf_default(1e6, 128);
  for (double& v : lin) v /= 8;
  expect_close(result(c, Framework::Transformers).inv_freq, lin, 1e-12, "gemma3 linear");
  // Phi-3.5 mini LongRoPE: short factors up to 4096 tokens, long beyond; attention factor
  // sqrt(1 + ln(131072/4096)/ln(4096)).
  const pe::RopeConfig phi = pe::load_preset("phi-3.5-mini");
  for (long long len : {4096LL, 4097LL}) {
    c = pe::compare_frameworks(phi, len);
    const auto& ext = len > 4096 ? phi.scaling.long_factor : phi.scaling.short_factor;
    std::vector<double> want = hf_default(10000, 96);
    for (std::size_t i = 0; i < want.size(); ++i) want[i] /= ext[i];
    expect_close(result(c, Framework::Transformers).inv_freq, want, 1e-12, "phi-3.5 len " + std::to_string(len));
    EXPECT_NEAR(result(c, Framework::Transformers).attention_factor,
                std::sqrt(1 + std::log(131072.0 / 4096) / std::log(4096.0)), 1e-12);
  }
  // Dynamic NTK (HF docs' example rope_scaling {"type": "dynamic", "factor": 2.0} on Llama 2
  // 7B's values): base·((factor·L/max_pos) − (factor − 1))^(d/(d−2)) past max_position_embeddings.
  const pe::RopeConfig dyn = pe::parse_hf_config(
      R"({"hidden_size": 4096, "num_attention_heads": 32, "max_position_embeddings": 4096, "rope_theta": 10000.0,
          "rope_scaling": {"type": "dynamic", "factor": 2.0}})");
  for (long long len : {1000LL, 4096LL, 10000LL}) {
    c = pe::compare_frameworks(dyn, len);
    const double seq = std::max<double>(len, 4096);
    const double base = 10000.0 * std::pow(2.0 * seq / 4096 - 1.0, 128.0 / 126.0);
    expect_close(result(c, Framework::Transformers).inv_freq, hf_default(base, 128), 1e-12, "dynamic");
    EXPECT_EQ(result(c, Framework::Transformers).scaling_length, static_cast<long long>(seq));
  }
}

// vLLM PR #28244 quotes gpt-oss's untruncated correction range: low 8.092779115512402,
// high 17.39802450158856. transformers (truncate false) uses exactly these; llama.cpp rounds
// them (ggml_rope_yarn_corr_dims: floor/ceil always) to 8 and 18.
TEST(Frameworks, GptOssTruncateFalseMatchesThePublishedRangeAndLlamaCppRounds) {
  const pe::RopeConfig c = pe::load_preset("gpt-oss-20b");
  const pe::ScaledFrequencies sf = pe::scaled_frequencies(c, 4096);
  EXPECT_NEAR(sf.yarn_low, 8.092779115512402, 1e-12);
  EXPECT_NEAR(sf.yarn_high, 17.39802450158856, 1e-12);
  const auto cmp = pe::compare_frameworks(c, 4096, pe::inspect_preset("gpt-oss-20b").frameworks);
  const auto& lc = result(cmp, Framework::LlamaCpp);
  expect_close(lc.inv_freq, hf_yarn(150000, 64, 32, 32, 1, 4096, true), 1e-12, "llama.cpp rounded ramp");
  EXPECT_GT(lc.max_rel_diff_inv_freq, 1e-3);
  EXPECT_NE(lc.cause.find("rounds"), std::string::npos) << lc.cause;
  // vLLM forwards truncate since PR #28244: same as transformers.
  EXPECT_LT(result(cmp, Framework::Vllm).max_rel_diff_inv_freq, 1e-15);
  EXPECT_EQ(cmp.worst, Framework::LlamaCpp);
}

// vLLM's DynamicNTKScalingRotaryEmbedding (dynamic_ntk_scaling_rope.py) builds one cache for
// max_len = max_position·factor: base·(factor·max_len/max_position − (factor − 1))^(d/(d−2)),
// whatever the current length. llama.cpp has no dynamic NTK at all (the converter writes none).
TEST(Frameworks, DynamicNtkScalesFromDifferentLengths) {
  const pe::RopeConfig c = pe::parse_hf_config(
      R"({"hidden_size": 4096, "num_attention_heads": 32, "max_position_embeddings": 4096,
          "rope_scaling": {"type": "dynamic", "factor": 2.0}})");
  const auto cmp = pe::compare_frameworks(c, 1000);
  const auto& vl = result(cmp, Framework::Vllm);
  const double base = 10000.0 * std::pow(2.0 * (4096.0 * 2) / 4096 - 1.0, 128.0 / 126.0);
  expect_close(vl.inv_freq, hf_default(base, 128), 1e-12, "vllm dynamic");
  EXPECT_EQ(vl.scaling_length, 8192);
  EXPECT_GT(vl.max_rel_diff_inv_freq, 0.1);
  const auto& lc = result(cmp, Framework::LlamaCpp);
  EXPECT_FALSE(lc.supported);
  expect_close(lc.inv_freq, hf_default(10000, 128), 1e-12, "llama.cpp plain");
  // At 1000 tokens transformers does not scale either: llama.cpp agrees there.
  EXPECT_LT(lc.max_rel_diff_inv_freq, 1e-15);
  EXPECT_EQ(cmp.worst, Framework::Vllm);
}

// vLLM's generic YaRN takes its magnitude from the factor (yarn_scaling_rope.py: mscale =
// yarn_get_mscale(factor) · attn_factor); an explicit attention_factor is not forwarded by
// get_rope (vLLM issue #48621 / PR #46280), and llama.cpp recomputes it too.
TEST(Frameworks, ExplicitAttentionFactorIsTransformersOnly) {
  const pe::InspectedConfig in = pe::inspect_hf_config(
      R"({"head_dim": 128, "max_position_embeddings": 262144, "rope_theta": 1e6,
          "rope_scaling": {"rope_type": "yarn", "factor": 64.0, "attention_factor": 1.0,
                           "original_max_position_embeddings": 4096}})");
  ASSERT_TRUE(in.valid);
  const auto cmp = pe::compare_frameworks(in.loaded.config, 262144, in.frameworks);
  EXPECT_DOUBLE_EQ(result(cmp, Framework::Transformers).attention_factor, 1.0);
  EXPECT_NEAR(result(cmp, Framework::Vllm).attention_factor, hf_get_mscale(64, 1), 1e-15);  // 1.4158883…
  EXPECT_NEAR(result(cmp, Framework::Vllm).attention_factor, 1.4158883, 1e-7);  // PR #46280's number
  EXPECT_NEAR(result(cmp, Framework::LlamaCpp).attention_factor, hf_get_mscale(64, 1), 1e-15);
  EXPECT_NE(result(cmp, Framework::Vllm).cause.find("attention_factor"), std::string::npos);
  EXPECT_NEAR(result(cmp, Framework::Vllm).rel_diff_attention, 1 - 1 / 1.4158883, 1e-6);
  EXPECT_NEAR(cmp.max_rel_diff, 1 - 1 / (1.4158883 * 1.4158883), 1e-6);  // on q·k: the square
}

// vLLM's attn_factor key (rope_scaling.attn_factor) multiplies its YaRN magnitude; transformers ignores it.
TEST(Frameworks, VllmAttnFactorMultiplies) {
  const pe::InspectedConfig in = pe::inspect_hf_config(
      R"({"head_dim": 64, "max_position_embeddings": 16384, "rope_scaling": {"type": "yarn", "factor": 4,
          "attn_factor": 0.5, "original_max_position_embeddings": 4096}})");
  ASSERT_TRUE(in.valid);
  const auto cmp = pe::compare_frameworks(in.loaded.config, 100, in.frameworks);
  EXPECT_NEAR(result(cmp, Framework::Transformers).attention_factor, hf_get_mscale(4, 1), 1e-15);
  EXPECT_NEAR(result(cmp, Framework::Vllm).attention_factor, 0.5 * hf_get_mscale(4, 1), 1e-15);
}

// DeepSeek-V2-Lite: vLLM's deepseek_yarn (deepseek_scaling_rope.py) and llama.cpp's DEEPSEEK2
// ([TAG_DEEPSEEK2_YARN_LOG_MUL_FIX]) both reach attention factor 1 and the same softmax scale.
TEST(Frameworks, DeepSeekMscaleAgreesAcrossFrameworks) {
  const auto cmp = compare_preset("deepseek-v2-lite", 163840);
  for (const auto& r : cmp.results) {
    SCOPED_TRACE(pe::to_string(r.framework));
    EXPECT_NEAR(r.attention_factor, 1.0, 1e-12);
    EXPECT_NEAR(r.logit_scale, std::pow(hf_get_mscale(40, 0.707), 2), 1e-12);
    expect_close(r.inv_freq, hf_yarn(10000, 64, 40, 32, 1, 4096, true), 1e-12, "deepseek");
  }
  EXPECT_LT(cmp.max_rel_diff, 1e-12);
  EXPECT_NE(result(cmp, Framework::Vllm).method.find("Deepseek"), std::string::npos);
}

// LongRoPE: transformers switches on the current length; vLLM on max_model_len (default
// max_position_embeddings) and llama.cpp on the context size — both long at 100 tokens.
TEST(Frameworks, LongRopeShortLongSwitch) {
  const pe::RopeConfig phi = pe::load_preset("phi-3.5-mini");
  auto cmp = pe::compare_frameworks(phi, 100);
  EXPECT_FALSE(result(cmp, Framework::Transformers).uses_long_factor);
  EXPECT_TRUE(result(cmp, Framework::Vllm).uses_long_factor);
  EXPECT_TRUE(result(cmp, Framework::LlamaCpp).uses_long_factor);
  // θ_i/short vs θ_i/long: the largest relative gap is 1 − short/long over the pairs.
  double gap = 0;
  for (std::size_t i = 0; i < phi.scaling.long_factor.size(); ++i)
    gap = std::max(gap, 1 - phi.scaling.short_factor[i] / phi.scaling.long_factor[i]);
  EXPECT_NEAR(result(cmp, Framework::Vllm).max_rel_diff_inv_freq, gap, 1e-12);
  // A serving length within 4096 gives vLLM the short factors too.
  pe::FrameworkContext ctx;
  ctx.vllm_max_model_len = 4096;
  ctx.llamacpp_n_ctx = 4096;
  cmp = pe::compare_frameworks(phi, 100, ctx);
  EXPECT_LT(cmp.max_rel_diff, 1e-12);
  // The magnitudes agree: all three use sqrt(1 + ln 32 / ln 4096) (Phi-3 GGUF: 1.1902…).
  for (const auto& r : cmp.results) EXPECT_NEAR(r.attention_factor, 1.190238, 1e-6);
}

// llama.cpp's converter computes llama3 rope_freqs from the TOP-LEVEL original_max_position_embeddings
// (default 8192): a config with rope_scaling's 4096 gets different bands there.
TEST(Frameworks, LlamaCppLlama3ReadsTheTopLevelOriginalLength) {
  const pe::InspectedConfig in = pe::inspect_hf_config(
      R"({"hidden_size": 2048, "num_attention_heads": 32, "max_position_embeddings": 131072, "rope_theta": 500000,
          "rope_scaling": {"rope_type": "llama3", "factor": 32.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0,
                           "original_max_position_embeddings": 4096}})");
  ASSERT_TRUE(in.valid);
  const auto cmp = pe::compare_frameworks(in.loaded.config, 1000, in.frameworks);
  const auto& lc = result(cmp, Framework::LlamaCpp);
  expect_close(lc.inv_freq, hf_llama3(500000, 64, 32, 1, 4, 8192), 1e-12, "llama.cpp 8192 bands");
  EXPECT_EQ(lc.scaling_length, 8192);
  EXPECT_NE(lc.cause.find("8192"), std::string::npos) << lc.cause;
  EXPECT_LT(result(cmp, Framework::Vllm).max_rel_diff_inv_freq, 1e-15);  // vLLM reads rope_scaling's
}

// With high_freq_factor < low_freq_factor transformers divides everything past L_orig/low;
// vLLM and llama.cpp test the short band first and keep θ_i up to L_orig/high.
TEST(Frameworks, Llama3InvertedBandsDiffer) {
  const pe::InspectedConfig in = pe::inspect_hf_config(
      R"({"head_dim": 128, "max_position_embeddings": 131072, "rope_theta": 500000,
          "rope_scaling": {"rope_type": "llama3", "factor": 8.0, "low_freq_factor": 4.0, "high_freq_factor": 1.0,
                           "original_max_position_embeddings": 8192}})");
  ASSERT_TRUE(in.valid);
  const auto cmp = pe::compare_frameworks(in.loaded.config, 1000, in.frameworks);
  expect_close(result(cmp, Framework::Transformers).inv_freq, hf_llama3(500000, 128, 8, 4, 1, 8192), 1e-12, "hf");
  EXPECT_GT(result(cmp, Framework::Vllm).max_rel_diff_inv_freq, 0.5);
}

TEST(Frameworks, EqualWhereNothingDiffers) {
  for (const char* key : {"llama-2-7b", "qwen3-8b", "mistral-nemo", "olmo-2-7b", "llama-3.1-8b"}) {
    SCOPED_TRACE(key);
    const auto cmp = compare_preset(key, 4096);
    EXPECT_LT(cmp.max_rel_diff, 1e-15);
    EXPECT_TRUE(cmp.cause.empty()) << cmp.cause;
  }
}

}  // namespace
