// Family names, the models' own ALiBi slope rules and the one-line summary.
#include "pe/models/position_encoding.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <string>

#include "pe/base/errors.hpp"

namespace pe {
namespace {

constexpr long long kMaxAlibiHeads = 65536;

struct FamilyName {
  PositionEncodingFamily family;
  const char* name;
};

constexpr std::array<FamilyName, 10> kNames = {{
    {PositionEncodingFamily::Rope, "rope"},
    {PositionEncodingFamily::LearnedAbsolute, "learned-absolute"},
    {PositionEncodingFamily::Sinusoidal, "sinusoidal"},
    {PositionEncodingFamily::Alibi, "alibi"},
    {PositionEncodingFamily::T5RelativeBias, "t5-relative-bias"},
    {PositionEncodingFamily::DebertaRelative, "deberta-relative"},
    {PositionEncodingFamily::RelativeKey, "relative-key"},
    {PositionEncodingFamily::RelativeKeyQuery, "relative-key-query"},
    {PositionEncodingFamily::TransformerXl, "transformer-xl"},
    {PositionEncodingFamily::None, "none"},
}};

}  // namespace

const char* to_string(PositionEncodingFamily family) {
  for (const auto& n : kNames)
    if (n.family == family) return n.name;
  return "rope";
}

std::optional<PositionEncodingFamily> position_encoding_family_from_string(std::string_view name) {
  for (const auto& n : kNames)
    if (name == n.name) return n.family;
  return std::nullopt;
}

const std::vector<PositionEncodingFamily>& all_position_encoding_families() {
  static const std::vector<PositionEncodingFamily> all = [] {
    std::vector<PositionEncodingFamily> out;
    for (const auto& n : kNames) out.push_back(n.family);
    return out;
  }();
  return all;
}

// transformers' modeling_bloom.py build_alibi_tensor (Falcon's is "Copied from" it):
//   closest_power_of_2 = 2 ** floor(log2(n_head))
//   base = torch.tensor(2 ** (-(2 ** -(log2(closest_power_of_2) - 3))), dtype=float32)
//   slopes = torch.pow(base, arange(1, 1 + closest_power_of_2))
//   extra_base = 2 ** (-(2 ** -(log2(2 * closest_power_of_2) - 3)))   (float32 too)
//   slopes += torch.pow(extra_base, arange(1, 1 + 2 * min(p, n − p), 2))
// The base is rounded to float32 before the powers, so even powers are not exact powers of
// two (head 2 of 16 gets 0.49999997, not 0.5); pow of a float32 base, rounded to float32.
std::vector<double> bloom_alibi_slopes(long long heads) {
  require_in_range("num_attention_heads", heads, 1, kMaxAlibiHeads);
  long long p = 1;
  while (p * 2 <= heads) p *= 2;
  // 2^(−(2^−(log2 p − 3))) = 2^(−8/p): p is a power of two, so the exponent is exact.
  const float base = static_cast<float>(std::exp2(-8.0 / static_cast<double>(p)));
  std::vector<double> out;
  out.reserve(static_cast<std::size_t>(heads));
  for (long long k = 1; k <= p; ++k)
    out.push_back(static_cast<float>(std::pow(static_cast<double>(base), static_cast<double>(k))));
  if (p != heads) {
    const float extra_base = static_cast<float>(std::exp2(-4.0 / static_cast<double>(p)));
    for (long long k = 1; k < 2 * std::min(p, heads - p); k += 2)
      out.push_back(static_cast<float>(std::pow(static_cast<double>(extra_base), static_cast<double>(k))));
  }
  return out;
}

// transformers' modeling_mpt.py build_mpt_alibi_tensor (from MosaicML's attention.py):
//   num_heads_power_of_2 = 2 ** ceil(log2(num_heads))
//   base = arange(1, P + 1).float() * (alibi_bias_max / P)      (float32)
//   slopes = 1.0 / torch.pow(2, base)                           (float32)
//   if P != num_heads: slopes = cat([slopes[1::2], slopes[::2]])[:num_heads]
// Note the reordering: for 12 heads MPT's first slope is BLOOM's second.
std::vector<double> mpt_alibi_slopes(long long heads, double alibi_bias_max) {
  require_in_range("n_heads", heads, 1, kMaxAlibiHeads);
  require_in_range("attn_config.alibi_bias_max", alibi_bias_max, 1e-6, 1e6);
  long long P = 1;
  while (P < heads) P *= 2;
  const float step = static_cast<float>(alibi_bias_max / static_cast<double>(P));
  std::vector<double> all;
  all.reserve(static_cast<std::size_t>(P));
  for (long long k = 1; k <= P; ++k) {
    const float exponent = static_cast<float>(k) * step;
    const float power = static_cast<float>(std::exp2(static_cast<double>(exponent)));
    all.push_back(static_cast<float>(1.0f / power));
  }
  if (P == heads) return all;
  std::vector<double> out;
  out.reserve(static_cast<std::size_t>(heads));
  for (long long k = 1; k < P && static_cast<long long>(out.size()) < heads; k += 2) out.push_back(all[std::size_t(k)]);
  for (long long k = 0; k < P && static_cast<long long>(out.size()) < heads; k += 2) out.push_back(all[std::size_t(k)]);
  return out;
}

namespace {

bool has_key(const PositionEncodingInfo& info, const std::string& param) {
  for (const auto& kv : info.keys)
    if (kv.first == param) return true;
  return false;
}

std::string key_of(const PositionEncodingInfo& info, const std::string& param) {
  for (const auto& [p, k] : info.keys)
    if (p == param) return k;
  return param;
}

}  // namespace

std::string describe_position_encoding(const PositionEncodingInfo& i) {
  using F = PositionEncodingFamily;
  std::string s = to_string(i.family);
  switch (i.family) {
    case F::Rope: break;
    case F::LearnedAbsolute:
    case F::Sinusoidal:
      if (i.num_patches > 0)
        s += ": " + std::to_string(i.positions) + " positions (" + std::to_string(i.num_patches) +
             " patches" + (i.class_token ? " + the class token" : "") + ") × " + std::to_string(i.embedding_width);
      else if (i.positions > 0)
        s += ": " + std::to_string(i.positions) + " positions × " + std::to_string(i.embedding_width) + " (" +
             key_of(i, "max_position_embeddings") + ", " +
             (has_key(i, "embedding_size") ? key_of(i, "embedding_size") : key_of(i, "hidden_size")) + ")";
      if (i.position_offset > 0)
        s += "; position p is row p + " + std::to_string(i.position_offset) + " of " + std::to_string(i.table_rows);
      break;
    case F::Alibi:
      s += ": " + std::to_string(i.alibi_slopes.size()) + " heads, slopes by " + i.alibi_rule;
      break;
    case F::T5RelativeBias:
      s += ": " + std::to_string(i.relative_attention_num_buckets) + " buckets up to distance " +
           std::to_string(i.relative_attention_max_distance) + " × " + std::to_string(i.num_attention_heads) + " heads";
      break;
    case F::DebertaRelative:
      s += ": position_buckets " + std::to_string(i.position_buckets) + ", max_relative_positions " +
           std::to_string(i.max_relative_positions);
      break;
    case F::RelativeKey:
    case F::RelativeKeyQuery:
      s += ": distances clipped to ±" + std::to_string(i.max_position_embeddings - 1) + ", " +
           std::to_string(2 * i.max_position_embeddings - 1) + " rows × " + std::to_string(i.head_dim);
      break;
    case F::TransformerXl:
      s += ": sinusoidal R over relative distances, mem_len " + std::to_string(i.mem_len);
      break;
    case F::None: break;
  }
  if (i.encoder_family) s += std::string("; encoder: ") + to_string(*i.encoder_family);
  return s;
}

const char* to_string(LayerPositionRole role) {
  switch (role) {
    case LayerPositionRole::OwnsTable: return "owns position parameters";
    case LayerPositionRole::SharesTable: return "uses its stack's shared table";
    case LayerPositionRole::SameBias: return "adds the same fixed bias";
    case LayerPositionRole::NoPositions: return "no position parameters";
  }
  return "";
}

namespace {

StackPositions stack_of(const PositionEncodingInfo& e, PositionEncodingFamily f, const std::string& name, long long layers) {
  using F = PositionEncodingFamily;
  using R = LayerPositionRole;
  StackPositions s{name, f, "", {}};
  const long long n = std::max<long long>(layers, 0);
  s.layers.assign(static_cast<std::size_t>(n), R::NoPositions);
  switch (f) {
    case F::LearnedAbsolute: s.input = "learned table"; break;
    case F::Sinusoidal: s.input = "fixed sinusoidal table"; break;
    case F::Alibi: std::fill(s.layers.begin(), s.layers.end(), R::SameBias); break;
    case F::T5RelativeBias:
      // T5Stack: only block 0 has_relative_attention_bias; the later blocks reuse its position_bias.
      std::fill(s.layers.begin(), s.layers.end(), e.bias_per_layer ? R::OwnsTable : R::SharesTable);
      if (!s.layers.empty()) s.layers.front() = R::OwnsTable;
      break;
    case F::RelativeKey:
    case F::RelativeKeyQuery: std::fill(s.layers.begin(), s.layers.end(), R::OwnsTable); break;
    case F::DebertaRelative:
    case F::TransformerXl:
      std::fill(s.layers.begin(), s.layers.end(), R::SharesTable);
      if (e.position_biased_input) s.input = "learned table";
      break;
    case F::Rope:
    case F::None: break;
  }
  return s;
}

}  // namespace

std::vector<StackPositions> position_layer_roles(const PositionEncodingInfo& e) {
  if (e.rotates()) return {};
  if (e.encoder_family)
    return {stack_of(e, *e.encoder_family, "encoder", e.num_hidden_layers),
            stack_of(e, e.family, "decoder", e.num_decoder_layers)};
  return {stack_of(e, e.family, "", e.num_hidden_layers)};
}

}  // namespace pe
