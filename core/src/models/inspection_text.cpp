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

std::vector<EncodingField> position_encoding_fields(const PositionEncodingInfo& e) {
  using F = PositionEncodingFamily;
  std::vector<EncodingField> out;
  auto add = [&](const char* k, std::string v) { out.push_back({k, std::move(v)}); };
  auto num = [&](const char* k, long long v) { add(k, std::to_string(v)); };
  auto flag = [&](const char* k, bool v) { add(k, v ? "true" : "false"); };
  add("position_encoding", to_string(e.family));
  if (e.encoder_family) add("encoder_position_encoding", to_string(*e.encoder_family));
  if (!e.model_type.empty()) add("model_type", e.model_type);
  if (e.hidden_size) num("hidden_size", e.hidden_size);
  if (e.num_attention_heads) num("num_attention_heads", e.num_attention_heads);
  if (e.head_dim) num("head_dim", e.head_dim);
  if (e.num_hidden_layers) num("num_hidden_layers", e.num_hidden_layers);
  if (e.num_decoder_layers) num("num_decoder_layers", e.num_decoder_layers);
  const bool table = e.family == F::LearnedAbsolute || e.family == F::Sinusoidal ||
                     (e.family == F::DebertaRelative && e.position_biased_input);
  if (e.max_position_embeddings) num("max_position_embeddings", e.max_position_embeddings);
  if (table) {
    num("position_offset", e.position_offset);
    num("table_rows", e.table_rows);
    num("positions", e.positions);
    num("embedding_width", e.embedding_width);
  }
  if (e.encoder_max_position_embeddings) num("encoder_max_position_embeddings", e.encoder_max_position_embeddings);
  if (e.num_patches) {
    num("image_size", e.image_size);
    num("patch_size", e.patch_size);
    num("num_patches", e.num_patches);
    flag("class_token", e.class_token);
  }
  switch (e.family) {
    case F::T5RelativeBias:
      num("relative_attention_num_buckets", e.relative_attention_num_buckets);
      num("relative_attention_max_distance", e.relative_attention_max_distance);
      flag("bias_per_layer", e.bias_per_layer);
      break;
    case F::DebertaRelative: {
      num("position_buckets", e.position_buckets);
      num("max_relative_positions", e.max_relative_positions);
      flag("position_biased_input", e.position_biased_input);
      std::string types;
      for (const auto& t : e.pos_att_type) types += (types.empty() ? "" : "|") + t;
      add("pos_att_type", types.empty() ? "(none)" : types);
      break;
    }
    case F::RelativeKey:
    case F::RelativeKeyQuery:
      num("table_rows", e.table_rows);
      num("embedding_width", e.embedding_width);
      break;
    case F::Alibi: {
      add("alibi_rule", e.alibi_rule);
      if (e.alibi_bias_max > 0) add("alibi_bias_max", plain_number(e.alibi_bias_max));
      std::string s;
      const std::size_t n = e.alibi_slopes.size();
      for (std::size_t h = 0; h < n; ++h) {
        if (n > 8 && h == 4) {
          s += ", … (" + std::to_string(n - 8) + " more)";
          h = n - 4;
        }
        s += (s.empty() ? "" : ", ") + format_double(e.alibi_slopes[h]);
      }
      add("alibi_slopes", "[" + s + "]");
      break;
    }
    case F::TransformerXl:
      num("mem_len", e.mem_len);
      num("clamp_len", e.clamp_len);
      break;
    default: break;
  }
  if (!e.shared.empty()) add("shared", e.shared);
  if (!e.config_class.empty()) add("config_class", e.config_class);
  if (!e.modeling.empty()) add("modeling", e.modeling);
  return out;
}

}  // namespace pe
