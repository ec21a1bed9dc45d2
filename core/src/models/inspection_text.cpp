#include "pe/models/inspection_text.hpp"

#include <cmath>

#include "pe/base/errors.hpp"

namespace pe {

std::string plain_number(double v) {
  if (std::isfinite(v) && v == std::floor(v) && std::abs(v) < 1e15) return std::to_string(static_cast<long long>(v));
  return format_double(v);
}

std::string describe_scaling(const RopeConfig& c) {
  const RopeScaling& s = c.scaling;
  std::string out = to_string(s.type);
  switch (s.type) {
    case RopeType::Default: break;
    case RopeType::Linear:
    case RopeType::NtkAware:
    case RopeType::Dynamic: out += " factor " + plain_number(s.factor); break;
    case RopeType::Yarn:
      out += " factor " + plain_number(s.factor) + ", L_orig " + std::to_string(c.original_max_position_embeddings()) +
             ", beta_fast " + plain_number(s.beta_fast) + ", beta_slow " + plain_number(s.beta_slow);
      if (s.mscale) out += ", mscale " + plain_number(*s.mscale);
      if (s.mscale_all_dim) out += ", mscale_all_dim " + plain_number(*s.mscale_all_dim);
      if (s.attention_factor) out += ", attention_factor " + plain_number(*s.attention_factor);
      if (!s.truncate) out += ", truncate false";
      break;
    case RopeType::Llama3:
      out += " factor " + plain_number(s.factor) + ", low_freq_factor " + plain_number(s.low_freq_factor) + ", high_freq_factor " +
             plain_number(s.high_freq_factor) + ", L_orig " + std::to_string(c.original_max_position_embeddings());
      break;
    case RopeType::LongRope:
      out += " " + std::to_string(s.short_factor.size()) + " short / " + std::to_string(s.long_factor.size()) +
             " long factors, L_orig " + std::to_string(c.original_max_position_embeddings());
      if (s.attention_factor) out += ", attention_factor " + plain_number(*s.attention_factor);
      break;
    case RopeType::Proportional:
      out += " p " + plain_number(c.partial_rotary_factor) + " (" + std::to_string(c.rotating_pairs()) + " of " +
             std::to_string(c.rotary_dim() / 2) + " pairs rotate)";
      if (s.factor != 1.0) out += ", factor " + plain_number(s.factor);
      break;
  }
  return out;
}

std::string describe_layer(const LayerRow& r) {
  std::string out = r.attention;
  if (r.window > 0) out += " (window " + std::to_string(r.window) + ")";
  if (!r.rotary) return out + ", no positional encoding (NoPE)";
  out += ", RoPE θ " + plain_number(r.theta) + ", " + to_string(r.scaling);
  out += ", " + std::to_string(r.rotary_dims) + " of " + std::to_string(r.qk_dims) + " q/k dims rotate";
  return out;
}

}  // namespace pe
