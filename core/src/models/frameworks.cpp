// What transformers, vLLM and llama.cpp each compute for one RoPE configuration. Every rule
// cites the file it was read from (versions in pe/models/frameworks.hpp). All three are evaluated
// here in double precision; the frameworks themselves compute θ_i in float32 (transformers
// and vLLM: torch float32 pow; llama.cpp: powf and a running product), which differs from
// these values by ~1e-7 relative — far below the differences reported.
#include "pe/models/frameworks.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numbers>
#include <string>

#include "pe/base/errors.hpp"

namespace pe {
namespace {

// Integral values in plain digits ("500000", not to_chars' shorter "5e+05"), others shortest round-trip.
std::string fmt(double v) {
  if (std::isfinite(v) && v == std::floor(v) && std::abs(v) < 1e15) return std::to_string(static_cast<long long>(v));
  return format_double(v);
}
std::string short_fmt(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}
std::string fmtl(long long v) { return std::to_string(v); }

Eigen::ArrayXd base_inv_freq(long long d, double base) {
  Eigen::ArrayXd out(d / 2);
  for (long long i = 0; i < d / 2; ++i) out[i] = 1.0 / std::pow(base, static_cast<double>(2 * i) / static_cast<double>(d));
  return out;
}

double get_mscale(double scale, double mscale) { return scale <= 1.0 ? 1.0 : 0.1 * mscale * std::log(scale) + 1.0; }

// YaRN's blend, shared by the three (HF _compute_yarn_parameters, vLLM yarn_find_correction_range
// + yarn_linear_ramp_mask, ggml rope_yarn_ramp + ggml_rope_yarn_corr_dims): only the rounding
// of the ramp bounds (`truncate`) differs between them.
Eigen::ArrayXd yarn_inv_freq(long long d, double theta, double factor, double beta_fast, double beta_slow,
                             long long l_orig, bool truncate) {
  const Eigen::ArrayXd extrap = base_inv_freq(d, theta);
  double low = yarn_correction_dim(beta_fast, d, theta, l_orig);
  double high = yarn_correction_dim(beta_slow, d, theta, l_orig);
  if (truncate) {
    low = std::floor(low);
    high = std::ceil(high);
  }
  low = std::max(low, 0.0);
  high = std::min(high, static_cast<double>(d - 1));
  if (low == high) high += 0.001;
  Eigen::ArrayXd out(d / 2);
  for (long long i = 0; i < d / 2; ++i) {
    const double ramp = std::clamp((static_cast<double>(i) - low) / (high - low), 0.0, 1.0);
    out[i] = extrap[i] / factor * ramp + extrap[i] * (1.0 - ramp);
  }
  return out;
}

// Llama 3.1's bands in the order vLLM (llama3_rope.py) and llama.cpp's converter
// (generate_extra_tensors) test them: short wavelengths first. smooth is 0 when the two
// band factors are equal (vLLM; llama.cpp's converter computes the same ratios).
Eigen::ArrayXd llama3_short_first(long long d, double theta, double factor, double low, double high, double l_orig) {
  const Eigen::ArrayXd f = base_inv_freq(d, theta);
  Eigen::ArrayXd out(f.size());
  for (Eigen::Index i = 0; i < f.size(); ++i) {
    const double wavelen = 2.0 * std::numbers::pi / f[i];
    if (wavelen < l_orig / high) {
      out[i] = f[i];
    } else if (wavelen > l_orig / low) {
      out[i] = f[i] / factor;
    } else {
      const double smooth = high != low ? (l_orig / wavelen - low) / (high - low) : 0.0;
      out[i] = (1.0 - smooth) * f[i] / factor + smooth * f[i];
    }
  }
  return out;
}

struct Partial {
  FrameworkResult r;
  std::string freq_cause;       // why inv_freq differs from transformers (if it does)
  std::string magnitude_cause;  // why the attention factor / logit scale differs
};

// LongRoPE as both serving frameworks run it: the factor list is picked once from the length
// they are configured for (`chosen`: vLLM's max_model_len, llama.cpp's n_ctx), not from the
// current length; the magnitude sqrt(1 + ln(max/orig)/ln(orig)) from max_position_embeddings.
// Returns the original length.
long long apply_chosen_longrope(const RopeConfig& c, long long chosen, FrameworkResult& r) {
  const RopeScaling& s = c.scaling;
  const long long orig = s.original_max_position_embeddings > 0 ? s.original_max_position_embeddings : c.max_position_embeddings;
  r.uses_long_factor = chosen > orig;
  r.scaling_length = orig;
  const std::vector<double>& ext = r.uses_long_factor ? s.long_factor : s.short_factor;
  for (Eigen::Index i = 0; i < r.inv_freq.size(); ++i) r.inv_freq[i] /= ext[static_cast<std::size_t>(i)];
  const double scale = static_cast<double>(c.max_position_embeddings) / static_cast<double>(orig);
  r.attention_factor = scale <= 1.0 ? 1.0 : std::sqrt(1.0 + std::log(scale) / std::log(static_cast<double>(orig)));
  r.logit_scale = r.attention_factor * r.attention_factor;
  return orig;
}

Partial transformers_side(const RopeConfig& c, long long length) {
  Partial p;
  FrameworkResult& r = p.r;
  r.framework = Framework::Transformers;
  RopeConfig hc = c;
  // _compute_dynamic_ntk_parameters scales from config.max_position_embeddings only.
  if (c.scaling.type == RopeType::Dynamic) hc.scaling.original_max_position_embeddings = 0;
  const ScaledFrequencies sf = scaled_frequencies(hc, length);
  r.inv_freq = sf.inv_freq;
  r.attention_factor = sf.attention_factor;
  r.logit_scale = sf.logit_scale;
  r.uses_long_factor = sf.uses_long_factor;
  r.scaling_length = sf.original_max_position_embeddings;
  switch (c.scaling.type) {
    case RopeType::Default: r.method = "_compute_default_rope_parameters"; break;
    case RopeType::Linear: r.method = "_compute_linear_scaling_rope_parameters"; break;
    case RopeType::NtkAware:
      r.method = "(none: \"ntk\" has no ROPE_INIT_FUNCTIONS entry)";
      r.supported = false;
      r.notes.push_back("transformers has no static \"ntk\" rope type: loading the model fails; shown: bloc97's "
                        "NTK-aware base θ·factor^(d/(d−2)) as pe-viz computes it");
      break;
    case RopeType::Dynamic:
      r.method = "_compute_dynamic_ntk_parameters";
      r.scaling_length = std::max(length, c.max_position_embeddings);
      r.notes.push_back("dynamic_rope_update recomputes θ for the current length " + fmtl(length) +
                        " (no scaling up to max_position_embeddings = " + fmtl(c.max_position_embeddings) + ")");
      break;
    case RopeType::Yarn: {
      r.method = "_compute_yarn_parameters";
      const double implicit = static_cast<double>(c.max_position_embeddings) /
                              static_cast<double>(c.original_max_position_embeddings());
      if (implicit != c.scaling.factor && implicit != 1.0)
        r.notes.push_back("uses the explicit factor " + fmt(c.scaling.factor) + " (since #40320); releases between "
                          "May and August 2025 used max_position_embeddings / original = " + fmt(implicit) +
                          " instead (issue #38224)");
      break;
    }
    case RopeType::Llama3: r.method = "_compute_llama3_parameters"; break;
    case RopeType::Proportional: r.method = "_compute_proportional_rope_parameters"; break;
    case RopeType::LongRope:
      r.method = "_compute_longrope_parameters";
      r.notes.push_back(std::string("longrope_frequency_update: ") + (sf.uses_long_factor ? "long" : "short") +
                        "_factor for the current length " + fmtl(length) + " (long past " +
                        fmtl(sf.original_max_position_embeddings) + ")");
      break;
  }
  // The logit scale is scaled_frequencies' own: DeepSeek's extra softmax mscale² only where
  // the model's attention applies it (RopeConfig::softmax_mscale, set from the model type).
  return p;
}

Partial vllm_side(const RopeConfig& c, long long /*length*/, const FrameworkContext& ctx) {
  Partial p;
  FrameworkResult& r = p.r;
  r.framework = Framework::Vllm;
  const RopeScaling& s = c.scaling;
  const long long d = c.rotary_dim();
  const double dd = static_cast<double>(d);
  r.inv_freq = base_inv_freq(d, c.theta);
  r.scaling_length = c.original_max_position_embeddings();
  switch (s.type) {
    case RopeType::Default:
      r.method = "RotaryEmbedding";
      break;
    case RopeType::Linear:
      r.method = "LinearScalingRotaryEmbedding";
      r.inv_freq /= s.factor;
      break;
    case RopeType::NtkAware: {
      // ntk_scaling_rope.py (mixed_b unset): base·factor, then every θ_i divided by factor^(2/d).
      r.method = "NTKScalingRotaryEmbedding";
      r.inv_freq = base_inv_freq(d, c.theta * s.factor) / std::pow(s.factor, 2.0 / dd);
      p.freq_cause = "vLLM's NTKScalingRotaryEmbedding uses base·factor and divides every θ_i by factor^(2/d) "
                     "(ntk_scaling_rope.py), not base·factor^(d/(d−2))";
      break;
    }
    case RopeType::Dynamic: {
      // dynamic_ntk_scaling_rope.py: one cos/sin cache for max_len = max_position·factor, so
      // the base is fixed at that length whatever the current length is.
      r.method = "DynamicNTKScalingRotaryEmbedding";
      const double max_pos = static_cast<double>(c.max_position_embeddings);
      const double max_len = max_pos * s.factor;
      const double base = c.theta * std::pow(s.factor * max_len / max_pos - (s.factor - 1.0), dd / (dd - 2.0));
      r.inv_freq = base_inv_freq(d, base);
      r.scaling_length = static_cast<long long>(std::llround(max_len));
      p.freq_cause = "vLLM's dynamic NTK computes one cache at max_position_embeddings·factor = " + fmt(max_len) +
                     " tokens (base " + fmt(base) + "), not at the current length";
      r.notes.push_back("static: the base is fixed at length max_position_embeddings × factor = " + fmt(max_len));
      break;
    }
    case RopeType::Yarn: {
      const long long orig = c.original_max_position_embeddings();
      const double attn = ctx.attn_factor.value_or(1.0);
      if (ctx.deepseek_attention) {
        // deepseek_scaling_rope.py: no `truncate`; mscale defaults 1, mscale_all_dim 0;
        // deepseek_v2.py multiplies the softmax scale by yarn_get_mscale(factor, mscale_all_dim)².
        r.method = "DeepseekScalingRotaryEmbedding (deepseek_yarn)";
        r.inv_freq = yarn_inv_freq(d, c.theta, s.factor, s.beta_fast, s.beta_slow, orig, true);
        const double m = s.mscale.value_or(1.0), mad = s.mscale_all_dim.value_or(0.0);
        r.attention_factor = get_mscale(s.factor, m) / get_mscale(s.factor, mad) * attn;
        const double kq = mad != 0.0 ? get_mscale(s.factor, mad) : 1.0;
        r.logit_scale = r.attention_factor * r.attention_factor * kq * kq;
        if (!s.truncate) p.freq_cause = "DeepseekScalingRotaryEmbedding has no truncate option: ramp bounds rounded";
        if (s.attention_factor)
          p.magnitude_cause = "vLLM's DeepSeek YaRN ignores attention_factor (it reads attn_factor)";
      } else {
        // yarn_scaling_rope.py: mscale = yarn_get_mscale(factor) · attn_factor; HF's
        // attention_factor, mscale and mscale_all_dim are not forwarded by get_rope
        // (vLLM issue #48621, v0.25.0; PR #46280 closed unmerged).
        r.method = "YaRNScalingRotaryEmbedding";
        r.inv_freq = yarn_inv_freq(d, c.theta, s.factor, s.beta_fast, s.beta_slow, orig, s.truncate);
        r.attention_factor = get_mscale(s.factor, 1.0) * attn;
        r.logit_scale = r.attention_factor * r.attention_factor;
        if (s.attention_factor)
          p.magnitude_cause = "vLLM's YaRN ignores attention_factor = " + fmt(*s.attention_factor) +
                              " and uses 0.1·ln(factor) + 1 (get_rope forwards attn_factor, not attention_factor)";
        else if (s.mscale && s.mscale_all_dim && *s.mscale != 0.0 && *s.mscale_all_dim != 0.0)
          p.magnitude_cause = "vLLM's generic YaRN ignores mscale / mscale_all_dim (issue #48621) and uses "
                              "0.1·ln(factor) + 1";
        if (ctx.attn_factor)
          p.magnitude_cause = "vLLM multiplies its mscale by rope_scaling.attn_factor = " + fmt(*ctx.attn_factor) +
                              ", which transformers ignores";
      }
      break;
    }
    case RopeType::Llama3:
      r.method = "Llama3RotaryEmbedding";
      r.inv_freq = llama3_short_first(d, c.theta, s.factor, s.low_freq_factor, s.high_freq_factor,
                                      static_cast<double>(c.original_max_position_embeddings()));
      if (s.high_freq_factor < s.low_freq_factor)
        p.freq_cause = "with high_freq_factor < low_freq_factor vLLM keeps θ_i up to L_orig/high_freq_factor "
                       "(it tests short wavelengths first); transformers divides everything past L_orig/low_freq_factor";
      break;
    case RopeType::Proportional:
      // rotary_embedding get_rope → Gemma4RotaryEmbedding: θ^(−2i/head_dim) for the first
      // int(p·head_dim // 2) pairs, zeros after, split-half over the whole head; no `factor`.
      r.method = "Gemma4RotaryEmbedding (proportional)";
      for (long long i = c.rotating_pairs(); i < d / 2; ++i) r.inv_freq[i] = 0.0;
      if (s.factor != 1.0)
        p.freq_cause = "vLLM's Gemma4RotaryEmbedding does not divide by factor = " + fmt(s.factor);
      break;
    case RopeType::LongRope: {
      // phi3_long_rope_scaled_rope.py: long factors when max_model_len > original (decided
      // once, at load); magnitude from max_position_embeddings / original only.
      r.method = "Phi3LongRoPEScaledRotaryEmbedding";
      const long long max_model_len = ctx.vllm_max_model_len.value_or(c.max_position_embeddings);
      const long long orig = apply_chosen_longrope(c, max_model_len, r);
      r.notes.push_back(std::string(r.uses_long_factor ? "long" : "short") + "_factor for every length: max_model_len = " +
                        fmtl(max_model_len) + (r.uses_long_factor ? " > " : " <= ") + fmtl(orig) +
                        " (chosen at load so the KV cache stays valid)");
      p.freq_cause = "vLLM picks LongRoPE's factors from max_model_len = " + fmtl(max_model_len) +
                     " once, not from the current length";
      if (s.attention_factor)
        p.magnitude_cause = "vLLM's LongRoPE ignores attention_factor (it reads short_mscale / long_mscale) and "
                            "uses sqrt(1 + ln(max/orig)/ln(orig))";
      break;
    }
  }
  // Query scaling beside RoPE (QueryScaling): vLLM issue #48621 and its Llama 4 model code.
  if (c.query_scaling.active()) {
    if (c.query_scaling.nope_layers_only)
      r.notes.push_back("Llama 4 query temperature as transformers (p + 1), but vLLM takes the switch from "
                        "generation_config, else turns it on only when max_model_len > 32768");
    else
      r.notes.push_back("llama_4_scaling_beta is applied only for Mistral-format params.json; with this config.json "
                        "vLLM scales no queries (issue #48621)");
  }
  return p;
}

Partial llamacpp_side(const RopeConfig& c, long long /*length*/, const FrameworkContext& ctx) {
  Partial p;
  FrameworkResult& r = p.r;
  r.framework = Framework::LlamaCpp;
  const RopeScaling& s = c.scaling;
  const long long d = c.rotary_dim();
  r.inv_freq = base_inv_freq(d, c.theta);
  r.scaling_length = c.original_max_position_embeddings();
  switch (s.type) {
    case RopeType::Default:
      r.method = "ggml_rope_ext (no scaling)";
      break;
    case RopeType::Linear:
      r.method = "LINEAR: freq_scale = 1/factor";
      r.inv_freq /= s.factor;
      break;
    case RopeType::NtkAware:
    case RopeType::Dynamic:
      // convert_hf_to_gguf set_gguf_parameters writes no scaling for these ("dynamic" only
      // for HunYuan's own class; anything else: "Unknown RoPE type").
      r.method = "none (the converter writes no scaling for this type)";
      r.supported = false;
      r.scaling_length = 0;
      p.freq_cause = std::string("llama.cpp has no ") + to_string(s.type) +
                     " scaling: the GGUF converter writes none, so the model runs with plain θ_i";
      break;
    case RopeType::Yarn: {
      // Frequencies: ggml rope_yarn with ggml_rope_yarn_corr_dims (always floor/ceil).
      // Magnitude: llama_context's constructor — get_mscale(factor[, mscale]) / get_mscale(factor,
      // yarn_log_multiplier) for converters that write the multiplier (DeepSeek family), else
      // get_mscale(factor); ggml's internal (1 + 0.1 ln factor) is cancelled there.
      r.method = "YARN: rope_yarn + ggml_rope_yarn_corr_dims";
      const long long orig = c.original_max_position_embeddings();
      r.inv_freq = yarn_inv_freq(d, c.theta, s.factor, s.beta_fast, s.beta_slow, orig, true);
      if (!s.truncate)
        p.freq_cause = "llama.cpp always rounds YaRN's ramp bounds (ggml_rope_yarn_corr_dims floors/ceils; the "
                       "converter drops truncate = false)";
      const double mad = ctx.deepseek_attention ? s.mscale_all_dim.value_or(0.0) : 0.0;
      if (ctx.model_type == "ministral3" && s.mscale_all_dim && *s.mscale_all_dim != 0.0) {
        // conversion/mistral3.py writes rope.scaling.yarn_log_multiplier = mscale_all_dim: the
        // magnitude ratio as transformers', and no DeepSeek softmax factor.
        r.attention_factor = get_mscale(s.factor, s.mscale.value_or(1.0)) / get_mscale(s.factor, *s.mscale_all_dim);
        r.logit_scale = r.attention_factor * r.attention_factor;
      } else if (mad != 0.0) {
        // [TAG_DEEPSEEK2_YARN_LOG_MUL_FIX]: mscale is assumed 1, except for the DEEPSEEK2 architecture
        // (DeepSeek-V2 and V3) with mscale_all_dim ≠ 1, where mscale = mscale_all_dim: the ratio is 1.
        const double m = mad;
        r.attention_factor = get_mscale(s.factor, m) / get_mscale(s.factor, mad);
        // deepseek2 graph: kq_scale = (attn_factor_org · get_mscale(factor, mscale_all_dim))² / sqrt(d).
        const double kq = r.attention_factor * get_mscale(s.factor, mad);
        r.logit_scale = r.attention_factor * r.attention_factor * kq * kq;
        if (s.mscale && *s.mscale != m)
          p.magnitude_cause = "llama.cpp does not read mscale = " + fmt(*s.mscale) + " (assumes " + fmt(m) + ")";
      } else {
        r.attention_factor = get_mscale(s.factor, 1.0);
        r.logit_scale = r.attention_factor * r.attention_factor;
        if (s.attention_factor)
          p.magnitude_cause = "llama.cpp's YaRN magnitude is recomputed from the factor; attention_factor = " +
                              fmt(*s.attention_factor) + " is written as rope.scaling.yarn_attn_factor, which only "
                              "a few architectures read";
        else if (s.mscale && s.mscale_all_dim && *s.mscale != 0.0 && *s.mscale_all_dim != 0.0)
          p.magnitude_cause = "the generic converter does not write mscale_all_dim: llama.cpp uses 0.1·ln(factor) + 1";
      }
      break;
    }
    case RopeType::Llama3: {
      // convert_hf_to_gguf LlamaModel.generate_extra_tensors: rope_freqs factors, with
      // old_context_len = hparams.get("original_max_position_embeddings", 8192) — the TOP-LEVEL key.
      r.method = "rope_freqs tensor (factors from the converter)";
      const long long old_ctx = ctx.top_level_original_max_position_embeddings.value_or(8192);
      r.scaling_length = old_ctx;
      r.inv_freq = llama3_short_first(d, c.theta, s.factor, s.low_freq_factor, s.high_freq_factor,
                                      static_cast<double>(old_ctx));
      if (old_ctx != c.original_max_position_embeddings())
        p.freq_cause = "llama.cpp's converter reads the top-level original_max_position_embeddings (default 8192 = " +
                       fmtl(old_ctx) + "), not rope_scaling's " + fmtl(c.original_max_position_embeddings());
      else if (s.high_freq_factor < s.low_freq_factor)
        p.freq_cause = "with high_freq_factor < low_freq_factor llama.cpp keeps θ_i up to L_orig/high_freq_factor";
      if (s.high_freq_factor == s.low_freq_factor)
        r.notes.push_back("older converters assert low_freq_wavelen != high_freq_wavelen and refuse this config; "
                          "newer ones comment the assert out (\"Errors for Llama4\")");
      break;
    }
    case RopeType::Proportional:
      // The Gemma 4 converter writes rope.dimension_count = head_dim and a rope_freqs tensor of
      // 1 for the kept pairs and 1e30 for the dropped ones (NEOX mode): the dropped pairs turn
      // by ~1e-27 rad per position, an identity in float32 — HF's zeros, numerically.
      r.method = "NEOX + rope_freqs (1 kept, 1e30 dropped)";
      for (long long i = c.rotating_pairs(); i < d / 2; ++i) r.inv_freq[i] = 0.0;
      r.notes.push_back("the dropped pairs turn at θ_i / 1e30 (under 1e-25 rad after 10^6 positions): shown as 0, "
                        "as in transformers");
      if (s.factor != 1.0)
        p.freq_cause = "the converter's rope_freqs carry no factor = " + fmt(s.factor);
      break;
    case RopeType::LongRope: {
      // Phi3MiniModel.generate_extra_tensors: rope_factors_long/short and
      // rope.scaling.attn_factor = sqrt(1 + ln(max/orig)/ln(orig)); llama_model picks the long
      // factors when the context size n_ctx exceeds the original length.
      r.method = "LONGROPE: rope_factors_long / rope_factors_short";
      const long long n_ctx = ctx.llamacpp_n_ctx.value_or(c.max_position_embeddings);
      const long long orig = apply_chosen_longrope(c, n_ctx, r);
      r.notes.push_back(std::string(r.uses_long_factor ? "long" : "short") + "_factor: context size n_ctx = " +
                        fmtl(n_ctx) + (r.uses_long_factor ? " > " : " <= ") + fmtl(orig));
      p.freq_cause = "llama.cpp picks LongRoPE's factors from the context size n_ctx = " + fmtl(n_ctx) +
                     ", not from the current length";
      if (s.attention_factor)
        p.magnitude_cause = "llama.cpp's converter computes the LongRoPE magnitude from max/orig and ignores "
                            "attention_factor";
      break;
    }
  }
  if (c.query_scaling.active()) {
    if (c.query_scaling.nope_layers_only)
      r.notes.push_back("Llama 4 query temperature with 8192 / 0.1 / p + 1 hard-coded and every 4th layer NoPE; the "
                        "config's values are not read");
    else
      r.notes.push_back("llama_4_scaling_beta written as attention.temperature_scale (length: "
                        "rope.scaling.original_context_length): queries scaled as in transformers");
  }
  return p;
}

double rel_diff(double a, double b) {
  const double m = std::max(std::abs(a), std::abs(b));
  return m == 0.0 ? 0.0 : std::abs(a - b) / m;
}

void compare_to(Partial& p, const FrameworkResult& hf) {
  FrameworkResult& r = p.r;
  r.max_rel_diff_inv_freq = 0.0;
  r.worst_pair = -1;
  for (Eigen::Index i = 0; i < r.inv_freq.size() && i < hf.inv_freq.size(); ++i) {
    const double e = rel_diff(r.inv_freq[i], hf.inv_freq[i]);
    if (e > r.max_rel_diff_inv_freq) {
      r.max_rel_diff_inv_freq = e;
      r.worst_pair = i;
    }
  }
  r.rel_diff_attention = rel_diff(r.attention_factor, hf.attention_factor);
  r.rel_diff_logit_scale = rel_diff(r.logit_scale, hf.logit_scale);
  constexpr double kSame = 1e-12;
  const double mag = std::max(r.rel_diff_attention, r.rel_diff_logit_scale);
  if (r.max_rel_diff_inv_freq <= kSame && mag <= kSame) return;
  if (r.max_rel_diff_inv_freq >= mag) {
    r.cause = p.freq_cause.empty() ? "θ differs (largest at pair " + std::to_string(r.worst_pair) + ")" : p.freq_cause;
    if (r.worst_pair >= 0)
      r.cause += " — largest at pair " + std::to_string(r.worst_pair) + ": θ " + short_fmt(r.inv_freq[r.worst_pair]) +
                 " vs " + short_fmt(hf.inv_freq[r.worst_pair]) + " in transformers";
  } else {
    r.cause = p.magnitude_cause.empty() ? "the cos/sin magnitude or softmax scale differs" : p.magnitude_cause;
    r.cause += " — attention factor " + short_fmt(r.attention_factor) + " vs " + short_fmt(hf.attention_factor) +
               ", logit scale " + short_fmt(r.logit_scale) + " vs " + short_fmt(hf.logit_scale);
  }
  if (!p.freq_cause.empty() && r.max_rel_diff_inv_freq > kSame && r.cause.find(p.freq_cause) == std::string::npos)
    r.notes.push_back(p.freq_cause);
  if (!p.magnitude_cause.empty() && mag > kSame && r.cause.find(p.magnitude_cause) == std::string::npos)
    r.notes.push_back(p.magnitude_cause);
}

}  // namespace

const char* to_string(Framework f) {
  switch (f) {
    case Framework::Transformers: return "transformers";
    case Framework::Vllm: return "vllm";
    case Framework::LlamaCpp: return "llama.cpp";
  }
  return "transformers";
}

FrameworkComparison compare_frameworks(const RopeConfig& config, long long current_length,
                                       const FrameworkContext& context) {
  validate(config);
  require_length("length", current_length);
  FrameworkComparison out;
  out.current_length = current_length;
  Partial hf = transformers_side(config, current_length);
  Partial vl = vllm_side(config, current_length, context);
  Partial lc = llamacpp_side(config, current_length, context);
  compare_to(vl, hf.r);
  compare_to(lc, hf.r);
  out.results = {std::move(hf.r), std::move(vl.r), std::move(lc.r)};
  for (const auto& r : out.results) {
    const double worst = std::max({r.max_rel_diff_inv_freq, r.rel_diff_attention, r.rel_diff_logit_scale});
    if (worst > out.max_rel_diff) {
      out.max_rel_diff = worst;
      out.worst = r.framework;
      out.cause = r.cause;
    }
  }
  return out;
}

}  // namespace pe
