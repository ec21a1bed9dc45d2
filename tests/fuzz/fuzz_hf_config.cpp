// bytes → pe::parse_hf_config. A model that does not rotate (GPT-2, T5, BLOOM …) is refused
// with NotRotaryError and its family's numbers are checked instead (issue 33).
// Refusal must be a ConfigError (never another exception or a
// crash); an accepted config must pass validate() and give usable frequencies at the
// lengths the app asks for (1, the training window, past it: dynamic/longrope switch there).
// The inspector reads the same bytes: it must agree on validity, never throw for a value
// (only for JSON syntax), and its layer plan and framework comparison must compute.
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz_common.hpp"
#include "pe/models/config.hpp"
#include "pe/models/config_diagnostics.hpp"
#include "pe/models/config_emit.hpp"
#include "pe/models/inspection_text.hpp"
#include "pe/base/errors.hpp"
#include "pe/multimodal/multimodal.hpp"

namespace {

// A model that does not rotate (issue 33): its family's numbers are consistent and usable,
// and no RoPE entry point takes it.
void check_family(const pe::PositionEncodingInfo& e, const std::string& text) {
  using F = pe::PositionEncodingFamily;
  PE_FUZZ_CHECK(!e.rotates(), "NotRotaryError for a rotary model");
  PE_FUZZ_CHECK(e.hidden_size >= 1 && e.num_attention_heads >= 1 && e.head_dim >= 1, e.model_type);
  PE_FUZZ_CHECK(e.positions >= 0 && e.table_rows >= 0 && e.position_offset >= 0, e.model_type);
  if (e.family == F::Alibi) {
    PE_FUZZ_CHECK(static_cast<long long>(e.alibi_slopes.size()) == e.num_attention_heads, "one slope per head");
    for (double m : e.alibi_slopes) PE_FUZZ_CHECK(std::isfinite(m) && m > 0.0 && m <= 1.0, std::to_string(m));
  }
  if (e.family == F::T5RelativeBias)
    PE_FUZZ_CHECK(e.relative_attention_num_buckets >= 4 && e.relative_attention_max_distance > e.relative_attention_num_buckets / 2,
                  "T5 buckets");
  if (e.family == F::LearnedAbsolute && e.num_patches == 0 && e.positions > 0)
    PE_FUZZ_CHECK(e.table_rows >= e.positions, "a learned table holds its positions");
  std::size_t layers = 0;
  for (const auto& stack : pe::position_layer_roles(e)) layers += stack.layers.size();
  PE_FUZZ_CHECK(static_cast<long long>(layers) == e.num_hidden_layers + e.num_decoder_layers, "a role per layer");
  PE_FUZZ_CHECK(!pe::position_encoding_fields(e).empty() && !pe::describe_position_encoding(e).empty(), "texts");
  try {
    (void)pe::emit_config(text, pe::ConfigShape::V5, "fuzz.json");
    PE_FUZZ_CHECK(false, "emit_config wrote a rope block for a model that does not rotate");
  } catch (const pe::ConfigError& e) {
    PE_FUZZ_CHECK(e.what()[0] != '\0', "empty ConfigError message");
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  pe::InspectedConfig inspected;
  bool syntax_ok = true;
  try {
    inspected = pe::inspect_hf_config(text, "fuzz.json");
  } catch (const pe::ConfigError& e) {
    PE_FUZZ_CHECK(e.what()[0] != '\0', "empty ConfigError message");
    syntax_ok = false;
  }
  pe::RopeConfig c;
  try {
    c = pe::parse_hf_config(text, "fuzz.json");
  } catch (const pe::NotRotaryError& e) {
    PE_FUZZ_CHECK(syntax_ok && inspected.valid && !inspected.loaded.encoding.rotates(), "the inspector disagrees on the family");
    check_family(e.info(), text);
    return 0;
  } catch (const pe::ConfigError& e) {
    PE_FUZZ_CHECK(e.what()[0] != '\0', "empty ConfigError message");
    PE_FUZZ_CHECK(!syntax_ok || !inspected.valid, "inspector accepts what the loader refuses");
    return 0;
  }
  PE_FUZZ_CHECK(syntax_ok && inspected.valid, "inspector refuses what the loader accepts");
  PE_FUZZ_CHECK(!inspected.plan.rows.empty() && inspected.plan.rows.size() <= static_cast<std::size_t>(pe::kMaxLayers), "layer plan size");
  (void)inspected.plan.groups();
  const pe::FrameworkComparison cmp = pe::compare_frameworks(c, c.max_position_embeddings, inspected.frameworks);
  PE_FUZZ_CHECK(cmp.results.size() == 3, "three frameworks");
  pe::validate(c);  // parse_hf_config promises a validated config: a throw here is a crash
  const long long l_orig = c.original_max_position_embeddings();
  for (long long length : {1LL, l_orig}) pe_fuzz::check_frequencies(pe::scaled_frequencies(c, length), c);
  pe_fuzz::exercise_rope(c, std::min(l_orig + 1, pe::kMaxLength), static_cast<std::uint64_t>(size));
  // Multimodal (issue 12): an accepted config's layout, vision tower and a small grid work.
  if (c.multimodal.multi_axis) {
    const pe::MultiAxisLayout l = pe::multi_axis_layout(c, 1);
    PE_FUZZ_CHECK(l.rotary_dim() == c.rotary_dim(), std::to_string(l.rotary_dim()));
    const auto coefficients = pe::multi_axis_coefficients(pe::VectorChoice::Identical, l, size, 1);
    const pe::TableD g = pe::grid_scores(coefficients, l, 4, 4, 1, 2);
    PE_FUZZ_CHECK(g.allFinite(), "grid scores");
  }
  if (c.multimodal.vision_tower) {
    const pe::RopeConfig v = pe::vision_tower_config(c);
    PE_FUZZ_CHECK(pe::multi_axis_layout(v, 1).pairs() == v.head_dim / 2, v.name);
  }
  // The other config.json shape (dump --emit-config): v5 of an accepted config reads back as
  // the same frequencies; v4 may refuse (proportional, per-type blocks) but only with a ConfigError.
  const std::string v5 = pe::emit_config(text, pe::ConfigShape::V5, "fuzz.json");
  const pe::RopeConfig back = pe::parse_hf_config(v5, "fuzz.json");
  PE_FUZZ_CHECK(back.theta == c.theta && back.rotary_dim() == c.rotary_dim() && back.scaling.type == c.scaling.type,
                "v5 emission changed the model");
  try {
    (void)pe::parse_hf_config(pe::emit_config(v5, pe::ConfigShape::V4, "fuzz.json"), "fuzz.json");
  } catch (const pe::ConfigError& e) {
    PE_FUZZ_CHECK(e.what()[0] != '\0', "empty ConfigError message");
  }
  return 0;
}
