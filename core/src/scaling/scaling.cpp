// RoPE context-extension scaling. Every method reproduces Hugging Face transformers'
// `modeling_rope_utils.py` (the behaviour users get from a model's config.json); where
// HF and the method's paper differ, the comment at the formula says how.
#include "pe/scaling/scaling.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <numbers>
#include <string>

#include "pe/base/errors.hpp"
#include "pe/base/text.hpp"

namespace pe {
namespace {

// Shortest round-trip text (pe::format_double), so a message shows exactly the rejected value.
std::string fmt(double v) { return format_double(v); }

[[noreturn]] void reject(const std::string& key, const std::string& value, const std::string& allowed) {
  throw InvalidArgument(key, value, allowed);
}

void require_finite_at_least(const char* key, double v, double minimum) {
  if (!std::isfinite(v) || v < minimum) reject(key, fmt(v), "a finite number >= " + fmt(minimum));
}

void require_finite_above(const char* key, double v, double minimum) {
  if (!std::isfinite(v) || v <= minimum) reject(key, fmt(v), "a finite number > " + fmt(minimum));
}

// θ_i = base^(-2i/d), i < d/2: Su et al. 2021, eq. 15; HF computes 1 / base^(2i/d) the
// same way (`_compute_default_rope_parameters`), with d the rotary dim.
Eigen::ArrayXd base_inv_freq(long long d, double base) {
  Eigen::ArrayXd out(d / 2);
  for (long long i = 0; i < d / 2; ++i) out[i] = 1.0 / std::pow(base, static_cast<double>(2 * i) / static_cast<double>(d));
  return out;
}

bool needs_factor_at_least_one(RopeType t) {
  return t == RopeType::Linear || t == RopeType::NtkAware || t == RopeType::Dynamic || t == RopeType::Yarn ||
         t == RopeType::Llama3;
}

}  // namespace

const char* to_string(RopeType t) {
  switch (t) {
    case RopeType::Default: return "default";
    case RopeType::Linear: return "linear";
    case RopeType::NtkAware: return "ntk";
    case RopeType::Dynamic: return "dynamic";
    case RopeType::Yarn: return "yarn";
    case RopeType::Llama3: return "llama3";
    case RopeType::LongRope: return "longrope";
    case RopeType::Proportional: return "proportional";
  }
  return "default";
}

std::vector<RopeType> all_rope_types() {
  return {RopeType::Default, RopeType::Linear, RopeType::NtkAware, RopeType::Dynamic,
          RopeType::Yarn,    RopeType::Llama3, RopeType::LongRope, RopeType::Proportional};
}

RopeType rope_type_from_string(const std::string& s) {
  const std::string k = ascii_lower(s);
  for (RopeType t : all_rope_types())
    if (k == to_string(t)) return t;
  // Old or foreign spellings seen in real config.json files:
  if (k == "su") return RopeType::LongRope;  // Phi-3's first release, renamed "longrope" in HF
  if (k == "mrope") return RopeType::Default;  // Qwen2-VL: HF rewrites it to "default" (same θ_i)
  if (k == "ntk-aware" || k == "ntk_aware") return RopeType::NtkAware;
  reject("rope_type", "\"" + s + "\"",
         "one of default, linear, ntk, dynamic, yarn, llama3, longrope, proportional (aliases: su = longrope, mrope = "
         "default)");
}

long long RopeConfig::rotary_dim() const {
  const double f = partial_rotary_factor;
  if (!(f > 0.0 && f <= 1.0) || head_dim < 1 || head_dim > kMaxDim) return 0;
  // transformers' _compute_proportional_rope_parameters: head_dim // 2 frequencies always.
  if (scaling.type == RopeType::Proportional) return head_dim - (head_dim % 2);
  // HF: int(head_dim * partial_rotary_factor). The 1e-9 guards against a product like
  // 80·0.4 landing a hair below an integer; HF's values (0.25, 0.4, 0.5) are not affected.
  long long r = static_cast<long long>(std::floor(static_cast<double>(head_dim) * f + 1e-9));
  r = std::min(r, head_dim);
  return r - (r % 2);  // pairs only: round down to even
}

double query_scale(const QueryScaling& q, long long position) {
  if (!q.active()) return 1.0;
  const long long steps = (position + q.position_offset) / q.period;  // ⌊·⌋ for p >= 0
  return 1.0 + q.beta * std::log1p(static_cast<double>(std::max<long long>(steps, 0)));
}

long long RopeConfig::rotating_pairs() const {
  if (scaling.type != RopeType::Proportional) return rotary_dim() / 2;
  const double f = partial_rotary_factor;
  if (!(f > 0.0 && f <= 1.0) || head_dim < 1 || head_dim > kMaxDim) return 0;
  // Python's int(p * head_dim // 2), exactly: the same double product, floor-divided by 2.
  return std::min(static_cast<long long>(std::floor(f * static_cast<double>(head_dim) / 2.0)), head_dim / 2);
}

long long RopeConfig::original_max_position_embeddings() const {
  return scaling.original_max_position_embeddings > 0 ? scaling.original_max_position_embeddings
                                                      : max_position_embeddings;
}

void validate(const RopeConfig& c) {
  require_theta("rope_theta", c.theta);
  require_dim("head_dim", c.head_dim);
  // A fully rotary head pairs every dimension, so it must be even (a partial rotary head
  // may be odd: only its first rotary_dim dims are paired).
  if (c.partial_rotary_factor == 1.0) require_even_dim("head_dim", c.head_dim, "RoPE");
  if (!std::isfinite(c.partial_rotary_factor) || c.partial_rotary_factor <= 0.0 || c.partial_rotary_factor > 1.0)
    reject("partial_rotary_factor", fmt(c.partial_rotary_factor), "0 < partial_rotary_factor <= 1");
  const long long d = c.rotary_dim();
  if (d < 2 || c.rotating_pairs() < 1)
    reject("partial_rotary_factor", fmt(c.partial_rotary_factor),
           "a value giving at least 2 rotating dims (head_dim = " + std::to_string(c.head_dim) + ")");
  require_length("max_position_embeddings", c.max_position_embeddings);

  if (c.query_scaling.beta != 0.0) {
    require_finite("query_scaling.beta", c.query_scaling.beta);
    require_length("query_scaling.period", c.query_scaling.period);
  }

  const RopeScaling& s = c.scaling;
  if (s.original_max_position_embeddings != 0)
    require_length("rope_scaling.original_max_position_embeddings", s.original_max_position_embeddings);

  if (!std::isfinite(s.factor)) reject("rope_scaling.factor", fmt(s.factor), "a finite number >= 1");
  // HF's validators require factor >= 1 for these (a factor < 1 would compress context).
  if (needs_factor_at_least_one(s.type)) require_finite_at_least("rope_scaling.factor", s.factor, 1.0);
  if (s.type == RopeType::LongRope && s.original_max_position_embeddings == 0)
    require_finite_at_least("rope_scaling.factor", s.factor, 1.0);  // used only when not derived

  if ((s.type == RopeType::NtkAware || s.type == RopeType::Dynamic) && d < 4)
    reject("head_dim", std::to_string(d) + " rotating dims",
           "at least 4 rotating dims for NTK scaling (its exponent is d/(d-2))");

  if (s.attention_factor) require_finite_above("rope_scaling.attention_factor", *s.attention_factor, 0.0);
  // transformers divides by it without a check; a zero or negative factor has no meaning.
  if (s.type == RopeType::Proportional) require_finite_above("rope_scaling.factor", s.factor, 0.0);

  if (s.type == RopeType::Yarn) {
    require_finite_above("rope_scaling.beta_fast", s.beta_fast, 0.0);
    require_finite_above("rope_scaling.beta_slow", s.beta_slow, 0.0);
    // Equal bounds are accepted (Kimi K2 ships beta_fast = beta_slow = 1): HF then widens the
    // zero-width ramp by 0.001. An inverted ramp is refused (HF only warns).
    if (!(s.beta_fast >= s.beta_slow))
      reject("rope_scaling.beta_fast", fmt(s.beta_fast), "at least beta_slow = " + fmt(s.beta_slow));
    if (s.mscale) require_finite_at_least("rope_scaling.mscale", *s.mscale, 0.0);
    if (s.mscale_all_dim) require_finite_at_least("rope_scaling.mscale_all_dim", *s.mscale_all_dim, 0.0);
  }
  if (s.type == RopeType::Llama3) {
    // transformers only warns when high_freq_factor <= low_freq_factor and computes (Llama 4
    // Scout ships low == high): accepted here too; the config inspector says so.
    require_finite_above("rope_scaling.low_freq_factor", s.low_freq_factor, 0.0);
    require_finite_above("rope_scaling.high_freq_factor", s.high_freq_factor, 0.0);
  }
  if (s.type == RopeType::LongRope) {
    const auto check_list = [&](const char* key, const std::vector<double>& v) {
      if (static_cast<long long>(v.size()) != d / 2)
        reject(key, std::to_string(v.size()) + " values",
               std::to_string(d / 2) + " values (rotary_dim / 2, rotary_dim = " + std::to_string(d) + ")");
      for (std::size_t i = 0; i < v.size(); ++i)
        if (!std::isfinite(v[i]) || v[i] <= 0.0)
          reject(std::string(key) + "[" + std::to_string(i) + "]", fmt(v[i]), "a finite number > 0");
    };
    check_list("rope_scaling.short_factor", s.short_factor);
    check_list("rope_scaling.long_factor", s.long_factor);
  }
}

long long pairs_kept(long long pairs, double p) {
  return std::min(pairs, static_cast<long long>(std::floor(p * static_cast<double>(2 * pairs) / 2.0)));
}

void keep_fastest_pairs(ScaledFrequencies& f, double p) {
  if (!std::isfinite(p) || p <= 0.0 || p > 1.0) reject("p_rope", fmt(p), "0 < p_rope <= 1 (the fraction of pairs kept)");
  if (p == 1.0) return;
  const long long n = f.inv_freq.size();
  const long long kept = pairs_kept(n, p);
  if (kept < 1) reject("p_rope", fmt(p), "a fraction keeping at least one of the " + std::to_string(n) + " pairs");
  // By frequency, not index: a scaled ladder stays monotone, but the rule should not depend on it.
  std::vector<long long> order(static_cast<std::size_t>(n));
  for (long long i = 0; i < n; ++i) order[static_cast<std::size_t>(i)] = i;
  std::stable_sort(order.begin(), order.end(), [&](long long a, long long b) { return f.inv_freq[a] > f.inv_freq[b]; });
  for (long long r = kept; r < n; ++r) f.inv_freq[order[static_cast<std::size_t>(r)]] = 0.0;
}

double yarn_correction_dim(double num_rotations, long long dim, double theta, long long original_max_pos) {
  // YaRN (Peng et al. 2023, §3.2 / reference code `find_correction_dim`): pair i has
  // wavelength λ_i = 2π·θ^(2i/d); it makes r = L/λ_i turns over L tokens. Solving for i:
  // i = d·ln(L / (2π r)) / (2 ln θ).
  return static_cast<double>(dim) *
         std::log(static_cast<double>(original_max_pos) / (num_rotations * 2.0 * std::numbers::pi)) /
         (2.0 * std::log(theta));
}

double yarn_get_mscale(double scale, double mscale) {
  // YaRN's attention temperature: sqrt(1/t) = 0.1·ln(s) + 1 (Peng et al. 2023, eq. 22);
  // DeepSeek-V2/V3 weight the log term by `mscale`. HF `get_mscale`: 1 when s <= 1.
  if (scale <= 1.0) return 1.0;
  return 0.1 * mscale * std::log(scale) + 1.0;
}

namespace {

// Each method below starts from out.inv_freq = out.original_inv_freq (the plain θ_i).

void apply_yarn(const RopeConfig& c, ScaledFrequencies& out) {
  const RopeScaling& s = c.scaling;
  const long long d = out.rotary_dim;
  const long long half = d / 2;
  const double dd = static_cast<double>(d);
  const long long l_orig = out.original_max_position_embeddings;
  // YaRN (Peng et al. 2023) as HF `_compute_yarn_parameters` implements it, which
  // follows the authors' reference code rather than the paper's text: the paper ramps
  // γ linearly in r = L/λ (rotations) between α = beta_slow and β = beta_fast, the code
  // ramps linearly in the pair index between the (floored/ceiled) dims where r = β and
  // r = α. The factor is rope_scaling.factor (HF ≥ 4.5x; one 2025 release briefly used
  // max_position_embeddings / original instead, which equals it for DeepSeek-V3).
  double low = yarn_correction_dim(s.beta_fast, d, c.theta, l_orig);
  double high = yarn_correction_dim(s.beta_slow, d, c.theta, l_orig);
  if (s.truncate) {
    low = std::floor(low);
    high = std::ceil(high);
  }
  low = std::max(low, 0.0);
  high = std::min(high, dd - 1.0);  // HF clamps to dim−1 (not d/2−1); kept for parity
  if (low == high) high += 0.001;   // HF: avoid a zero-width ramp
  out.yarn_low = low;
  out.yarn_high = high;
  for (long long i = 0; i < half; ++i) {
    // ramp = 0 → keep θ_i (extrapolate, fast pairs); ramp = 1 → θ_i/s (interpolate).
    const double ramp = std::clamp((static_cast<double>(i) - low) / (high - low), 0.0, 1.0);
    const double extrap = out.original_inv_freq[i];
    const double interp = extrap / s.factor;
    out.inv_freq[i] = interp * ramp + extrap * (1.0 - ramp);
  }
  // Attention factor (HF): explicit value; else DeepSeek's ratio
  // get_mscale(s, mscale)/get_mscale(s, mscale_all_dim) when both are set and non-zero;
  // else the paper's 0.1·ln(s) + 1.
  if (s.attention_factor) {
    out.attention_factor = *s.attention_factor;
  } else if (s.mscale && s.mscale_all_dim && *s.mscale != 0.0 && *s.mscale_all_dim != 0.0) {
    out.attention_factor = yarn_get_mscale(s.factor, *s.mscale) / yarn_get_mscale(s.factor, *s.mscale_all_dim);
  } else {
    out.attention_factor = yarn_get_mscale(s.factor, 1.0);
  }
}

void apply_llama3(const RopeConfig& c, ScaledFrequencies& out) {
  const RopeScaling& s = c.scaling;
  const long long half = out.rotary_dim / 2;
  const long long l_orig = out.original_max_position_embeddings;
  // Llama 3.1 (Meta reference `apply_scaling`, HF `_compute_llama3_parameters`):
  // wavelength λ = 2π/θ_i; λ < L_orig/high_freq_factor: unchanged; λ > L_orig/low_freq_factor:
  // θ_i/s; in between blend with smooth = (L_orig/λ − low)/(high − low):
  // θ' = (1 − smooth)·θ_i/s + smooth·θ_i.
  // Tested in transformers' order (torch.where(wavelen > low_freq_wavelen, …), then the
  // band ~(wavelen < high) & ~(wavelen > low)), which matters only when high_freq_factor
  // <= low_freq_factor: the band is then empty (or one wavelength), smooth is taken as 0.
  const double lo = static_cast<double>(l_orig);
  const double low_freq_wavelen = lo / s.low_freq_factor;
  const double high_freq_wavelen = lo / s.high_freq_factor;
  for (long long i = 0; i < half; ++i) {
    const double f = out.original_inv_freq[i];
    const double wavelen = 2.0 * std::numbers::pi / f;
    if (wavelen > low_freq_wavelen) {
      out.inv_freq[i] = f / s.factor;
    } else if (wavelen < high_freq_wavelen) {
      out.inv_freq[i] = f;
    } else {
      const double span = s.high_freq_factor - s.low_freq_factor;
      const double smooth = span != 0.0 ? (lo / wavelen - s.low_freq_factor) / span : 0.0;
      out.inv_freq[i] = (1.0 - smooth) * f / s.factor + smooth * f;
    }
  }
}

void apply_longrope(const RopeConfig& c, long long current_length, ScaledFrequencies& out) {
  const RopeScaling& s = c.scaling;
  const long long half = out.rotary_dim / 2;
  // LongRoPE (Ding et al. 2024; Phi-3), HF `_compute_longrope_parameters`: θ'_i =
  // θ_i / ext_i with ext = long_factor when the current length exceeds L_orig, else
  // short_factor. When original_max_position_embeddings is given (Phi-3 puts it at the
  // top level of config.json), HF derives factor = max_position_embeddings / L_orig and
  // ignores rope_scaling.factor; otherwise factor is used and L_orig = max_position_embeddings.
  double factor = s.factor;
  long long lo = c.max_position_embeddings;
  if (s.original_max_position_embeddings > 0) {
    lo = s.original_max_position_embeddings;
    factor = static_cast<double>(c.max_position_embeddings) / static_cast<double>(lo);
  }
  out.factor = factor;
  out.original_max_position_embeddings = lo;
  out.uses_long_factor = current_length > lo;
  const std::vector<double>& ext = out.uses_long_factor ? s.long_factor : s.short_factor;
  for (long long i = 0; i < half; ++i) out.inv_freq[i] = out.original_inv_freq[i] / ext[static_cast<std::size_t>(i)];
  // Attention factor (LongRoPE / Phi-3 code): sqrt(1 + ln(s)/ln(L_orig)), 1 for s <= 1,
  // applied for short and long factors alike.
  if (s.attention_factor) {
    out.attention_factor = *s.attention_factor;
  } else if (factor <= 1.0) {
    out.attention_factor = 1.0;
  } else {
    out.attention_factor = std::sqrt(1.0 + std::log(factor) / std::log(static_cast<double>(lo)));
  }
}

// p-RoPE (Barbero et al., "Round and Round We Go! What makes Rotary Positional Encodings
// useful?", ICLR 2025), as transformers v5 `_compute_proportional_rope_parameters` computes it:
// rope_angles = int(p·head_dim // 2) frequencies θ^(−2i/head_dim) — the exponent over the full
// head_dim — then zeros up to head_dim // 2, all divided by `factor` (default 1); attention
// factor 1. original_inv_freq keeps the plain ladder, so a view shows what p-RoPE dropped.
void apply_proportional(const RopeConfig& c, ScaledFrequencies& out) {
  const long long kept = c.rotating_pairs();
  for (Eigen::Index i = 0; i < out.inv_freq.size(); ++i)
    out.inv_freq[i] = i < kept ? out.original_inv_freq[i] / c.scaling.factor : 0.0;
}

}  // namespace

ScaledFrequencies scaled_frequencies(const RopeConfig& c, long long current_length) {
  validate(c);
  require_length("length", current_length);

  const RopeScaling& s = c.scaling;
  const long long d = c.rotary_dim();
  const double dd = static_cast<double>(d);
  const long long l_orig = c.original_max_position_embeddings();

  ScaledFrequencies out;
  out.rotary_dim = d;
  out.original_inv_freq = base_inv_freq(d, c.theta);
  out.inv_freq = out.original_inv_freq;
  out.effective_theta = c.theta;
  out.factor = s.type == RopeType::Default ? 1.0 : s.factor;
  out.original_max_position_embeddings = l_orig;

  switch (s.type) {
    case RopeType::Default:
      break;

    case RopeType::Linear:
      // Position Interpolation (Chen et al. 2023): positions p → p/s, equivalently θ_i/s
      // (HF `_compute_linear_scaling_rope_parameters` divides inv_freq by factor).
      out.inv_freq = out.original_inv_freq / s.factor;
      break;

    case RopeType::NtkAware: {
      // NTK-aware scaling (bloc97, r/LocalLLaMA 2023): change the base so the slowest pair
      // is interpolated by s while the fastest is untouched: base' = base·s^(d/(d-2)).
      // Not an HF rope_type in current releases; static counterpart of "dynamic".
      out.effective_theta = c.theta * std::pow(s.factor, dd / (dd - 2.0));
      out.inv_freq = base_inv_freq(d, out.effective_theta);
      break;
    }

    case RopeType::Dynamic: {
      // Dynamic NTK (emozilla / HF `_compute_dynamic_ntk_parameters`): for L > L_orig,
      // base' = base·((s·L/L_orig) − (s − 1))^(d/(d−2)); below L_orig HF uses L = L_orig,
      // which makes the bracket 1, i.e. the unscaled frequencies.
      const double l = static_cast<double>(std::max(current_length, l_orig));
      const double lo = static_cast<double>(l_orig);
      out.effective_theta = c.theta * std::pow(s.factor * l / lo - (s.factor - 1.0), dd / (dd - 2.0));
      out.inv_freq = base_inv_freq(d, out.effective_theta);
      break;
    }

    case RopeType::Yarn:
      apply_yarn(c, out);
      break;

    case RopeType::Llama3:
      apply_llama3(c, out);
      break;

    case RopeType::LongRope:
      apply_longrope(c, current_length, out);
      break;

    case RopeType::Proportional:
      apply_proportional(c, out);
      break;
  }

  out.logit_scale = out.attention_factor * out.attention_factor;
  // DeepSeek-V2/V3 attention (HF DeepseekV3Attention) multiplies its softmax scale by
  // get_mscale(factor, mscale_all_dim)² on top of the rotary attention factor.
  if (c.softmax_mscale && s.type == RopeType::Yarn && s.mscale_all_dim && *s.mscale_all_dim != 0.0) {
    const double m = yarn_get_mscale(s.factor, *s.mscale_all_dim);
    out.logit_scale *= m * m;
  }
  return out;
}

}  // namespace pe
