// Multimodal config.json keys (issue 12): the shapes real VLM / diffusion configs are
// published in, and every malformed multimodal key ending in a ConfigError that names it.
#include <gtest/gtest.h>

#include <array>
#include <string>

#include "pe/encodings/rope.hpp"
#include "pe/models/config.hpp"
#include "pe/base/errors.hpp"
#include "pe/multimodal/multimodal.hpp"

namespace {

using pe::MultiAxisScheme;
using Vec = std::vector<long long>;

// Qwen2-VL-7B-Instruct's config.json as published (language-model keys at the top level,
// rope_scaling.type "mrope"), cut to the keys that matter here.
const char* kQwen2VL = R"({
  "model_type": "qwen2_vl", "hidden_size": 3584, "num_attention_heads": 28,
  "max_position_embeddings": 32768, "rope_theta": 1000000.0,
  "rope_scaling": {"type": "mrope", "mrope_section": [16, 24, 24]},
  "vision_config": {"depth": 32, "embed_dim": 1280, "num_heads": 16, "hidden_size": 3584,
                    "patch_size": 14, "spatial_merge_size": 2, "temporal_patch_size": 2}
})";

// Qwen2.5-VL-7B as transformers >= 4.53 re-saves it: text_config nested, rope_type
// "default" carrying mrope_section.
const char* kQwen25VLResaved = R"({
  "model_type": "qwen2_5_vl", "hidden_size": 3584, "num_attention_heads": 28,
  "max_position_embeddings": 128000, "rope_theta": 1000000.0,
  "rope_scaling": {"mrope_section": [16, 24, 24], "rope_type": "default", "type": "default"},
  "text_config": {"model_type": "qwen2_5_vl_text", "hidden_size": 3584, "num_attention_heads": 28,
                  "max_position_embeddings": 128000, "rope_theta": 1000000.0,
                  "rope_scaling": {"mrope_section": [16, 24, 24], "rope_type": "default", "type": "default"}},
  "vision_config": {"hidden_size": 1280, "num_heads": 16, "patch_size": 14, "spatial_merge_size": 2,
                    "temporal_patch_size": 2, "tokens_per_second": 2, "model_type": "qwen2_5_vl"}
})";

const char* kQwen3VL = R"({
  "model_type": "qwen3_vl",
  "text_config": {"head_dim": 128, "hidden_size": 4096, "num_attention_heads": 32,
                  "max_position_embeddings": 262144, "rope_theta": 5000000,
                  "rope_scaling": {"mrope_interleaved": true, "mrope_section": [24, 20, 20], "rope_type": "default"}},
  "vision_config": {"hidden_size": 1152, "num_heads": 16, "patch_size": 16, "spatial_merge_size": 2,
                    "temporal_patch_size": 2, "model_type": "qwen3_vl"}
})";

const char* kPixtral = R"({
  "model_type": "llava",
  "text_config": {"model_type": "mistral", "head_dim": 128, "hidden_size": 5120, "num_attention_heads": 32,
                  "max_position_embeddings": 1024000, "rope_theta": 1000000000.0},
  "vision_config": {"model_type": "pixtral", "head_dim": 64, "hidden_size": 1024, "num_attention_heads": 16,
                    "image_size": 1024, "patch_size": 16, "rope_theta": 10000.0}
})";

const char* kFlux = R"({
  "_class_name": "FluxTransformer2DModel", "attention_head_dim": 128, "axes_dims_rope": [16, 56, 56],
  "num_attention_heads": 24, "joint_attention_dim": 4096
})";

std::string replaced(std::string s, const std::string& from, const std::string& to) {
  const auto at = s.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) s.replace(at, from.size(), to);
  return s;
}

std::string error_key(const std::string& text, std::string* message = nullptr) {
  try {
    pe::parse_hf_config(text);
  } catch (const pe::ConfigError& e) {
    if (message) *message = e.what();
    return e.key();
  }
  return "(accepted)";
}

bool has_note(const pe::RopeConfig& c, const std::string& needle) {
  for (const auto& n : c.multimodal.notes)
    if (n.find(needle) != std::string::npos) return true;
  return false;
}

TEST(MultimodalConfig, Qwen2VLTypeMropeIsMrope) {
  // Before issue 12, "type": "mrope" silently read as a default 1D RoPE.
  const auto c = pe::parse_hf_config(kQwen2VL, "qwen2-vl");
  EXPECT_EQ(c.head_dim, 128);
  EXPECT_EQ(c.theta, 1e6);
  EXPECT_EQ(c.scaling.type, pe::RopeType::Default);  // same θ_i as default
  ASSERT_TRUE(c.multimodal.multi_axis);
  EXPECT_EQ(c.multimodal.multi_axis->scheme, MultiAxisScheme::MRope);
  EXPECT_EQ(c.multimodal.multi_axis->sections, (Vec{16, 24, 24}));
  EXPECT_EQ(c.multimodal.rope_index, pe::RopeIndexFamily::Qwen2VL);
  EXPECT_EQ(c.multimodal.spatial_merge_size, 2);
  EXPECT_EQ(c.multimodal.tokens_per_second, 0.0);
  EXPECT_TRUE(has_note(c, "rope_scaling.type"));
  ASSERT_TRUE(c.multimodal.vision_tower);
  EXPECT_EQ(c.multimodal.vision_tower->head_dim, 80);  // embed_dim 1280 / 16, not hidden_size 3584
  EXPECT_EQ(c.multimodal.vision_tower->theta, 10000.0);
  EXPECT_EQ(c.multimodal.vision_tower->variant, pe::Vision2DVariant::Qwen2VL);

  const auto layout = pe::multi_axis_layout(c, c.max_position_embeddings);
  EXPECT_EQ(layout.pairs_per_axis(), (std::array<long long, 3>{16, 24, 24}));
  const auto tower = pe::vision_tower_config(c);
  EXPECT_EQ(tower.name, "qwen2-vl-vision");
  EXPECT_EQ(tower.head_dim, 80);
  ASSERT_TRUE(tower.multimodal.multi_axis);
  EXPECT_EQ(tower.multimodal.multi_axis->scheme, MultiAxisScheme::Vision2D);
  EXPECT_EQ(pe::multi_axis_layout(tower, 1).pairs_per_axis(), (std::array<long long, 3>{0, 20, 20}));
}

TEST(MultimodalConfig, DefaultTypeCarryingSectionsIsMropeWithANote) {
  const auto c = pe::parse_hf_config(kQwen25VLResaved);
  ASSERT_TRUE(c.multimodal.multi_axis);
  EXPECT_EQ(c.multimodal.multi_axis->scheme, MultiAxisScheme::MRope);
  EXPECT_EQ(c.max_position_embeddings, 128000);
  EXPECT_EQ(c.multimodal.rope_index, pe::RopeIndexFamily::Qwen25VL);
  EXPECT_EQ(c.multimodal.tokens_per_second, 2.0);
  EXPECT_TRUE(has_note(c, "text_config.rope_scaling.rope_type: says \"default\""));
  EXPECT_EQ(c.multimodal.vision_tower->head_dim, 80);  // hidden_size 1280 / num_heads 16
}

TEST(MultimodalConfig, TextConfigWinsOverTopLevelKeys) {
  // HF's Qwen2VLConfig builds the text model from text_config when present.
  const std::string s = replaced(kQwen25VLResaved, R"("max_position_embeddings": 128000, "rope_theta": 1000000.0,
  "rope_scaling")", R"("max_position_embeddings": 7, "rope_theta": 3.0,
  "rope_scaling")");
  const auto c = pe::parse_hf_config(s);
  EXPECT_EQ(c.max_position_embeddings, 128000);
  EXPECT_EQ(c.theta, 1e6);
}

TEST(MultimodalConfig, Qwen3VLNestedInterleaved) {
  const auto c = pe::parse_hf_config(kQwen3VL);
  EXPECT_EQ(c.head_dim, 128);
  EXPECT_EQ(c.theta, 5e6);
  EXPECT_EQ(c.max_position_embeddings, 262144);
  ASSERT_TRUE(c.multimodal.multi_axis);
  EXPECT_EQ(c.multimodal.multi_axis->scheme, MultiAxisScheme::MRopeInterleaved);
  EXPECT_EQ(c.multimodal.rope_index, pe::RopeIndexFamily::Qwen3VL);
  EXPECT_EQ(c.multimodal.vision_tower->head_dim, 72);
  // mrope_interleaved without mrope_section: Qwen3-VL's default [24, 20, 20], said in a note.
  const auto d = pe::parse_hf_config(replaced(kQwen3VL, R"("mrope_section": [24, 20, 20], )", ""));
  EXPECT_EQ(d.multimodal.multi_axis->sections, (Vec{24, 20, 20}));
  EXPECT_TRUE(has_note(d, "mrope_section: missing"));
}

// ERNIE 4.5 VL as transformers v5 writes it (configuration_ernie4_5_vl_moe.py's defaults):
// mrope_section is (h, w, t) there, and its 3D RoPE alternates h and w over the fast pairs.
const char* kErnie45VL = R"({
  "model_type": "ernie4_5_vl_moe",
  "text_config": {"model_type": "ernie4_5_vl_moe_text", "hidden_size": 2560, "num_attention_heads": 20,
                  "num_key_value_heads": 4, "max_position_embeddings": 131072,
                  "rope_parameters": {"rope_type": "default", "rope_theta": 500000.0, "mrope_section": [22, 22, 20]}}
})";

TEST(MultimodalConfig, Ernie45VLSectionsAreHWTAndAlternate) {
  const auto c = pe::parse_hf_config(kErnie45VL);
  EXPECT_EQ(c.head_dim, 128);  // 2560 / 20
  EXPECT_EQ(c.theta, 5e5);
  EXPECT_EQ(c.convention, pe::PairConvention::Interleaved) << "rotate_half_text on repeat_interleave(2): adjacent dims";
  ASSERT_TRUE(c.multimodal.multi_axis);
  EXPECT_EQ(c.multimodal.multi_axis->scheme, MultiAxisScheme::Ernie3D);
  EXPECT_EQ(c.multimodal.multi_axis->sections, (Vec{20, 22, 22})) << "stored as (t, h, w)";
  EXPECT_TRUE(has_note(c, "h, w, t"));
  // recomposition_to_3d, written out: inv_freq_3d puts the even rungs of the first 44 under h
  // and the odd under w; stacking (h, w) and flattening gives pair 2k ← h, 2k+1 ← w.
  const auto l = pe::multi_axis_layout(c, c.max_position_embeddings);
  ASSERT_EQ(l.pairs(), 64);
  const Eigen::ArrayXd inv = pe::inverse_frequencies(128, 5e5);
  for (int i = 0; i < 64; ++i) {
    EXPECT_EQ(l.axis_of_pair[i], i >= 44 ? 0 : (i % 2 == 0 ? 1 : 2)) << i;
    EXPECT_DOUBLE_EQ(l.inv_freq_of_pair[i], inv[i]) << i;
  }
  EXPECT_EQ(l.pairs_per_axis(), (std::array<long long, 3>{20, 22, 22}));
  EXPECT_EQ(l.convention, pe::PairConvention::Interleaved);
  // h and w must pair up; the message names the key.
  EXPECT_EQ(error_key(replaced(kErnie45VL, "[22, 22, 20]", "[24, 20, 20]")), "text_config.rope_parameters.mrope_section");
}

TEST(MultimodalConfig, PixtralLanguageModelIsOneDimensional) {
  const auto c = pe::parse_hf_config(kPixtral, "pixtral");
  EXPECT_EQ(c.head_dim, 128);
  EXPECT_EQ(c.theta, 1e9);
  EXPECT_FALSE(c.multimodal.multi_axis);  // text (and flattened image tokens) rotate in 1D
  ASSERT_TRUE(c.multimodal.vision_tower);
  EXPECT_EQ(c.multimodal.vision_tower->variant, pe::Vision2DVariant::Pixtral);
  EXPECT_EQ(c.multimodal.vision_tower->max_patches_per_side, 64);
  EXPECT_EQ(pe::vision_tower_config(c).max_position_embeddings, 64);
  try {
    pe::multi_axis_layout(c, 1);
    FAIL() << "a 1D language model has no multi-axis layout";
  } catch (const pe::InvalidArgument& e) {
    EXPECT_EQ(e.parameter(), "multimodal");
    EXPECT_NE(e.allowed().find("vision tower"), std::string::npos) << e.what();
  }
}

TEST(MultimodalConfig, DiffusersFluxIsAxial) {
  const auto c = pe::parse_hf_config(kFlux, "flux");
  EXPECT_EQ(c.head_dim, 128);
  EXPECT_EQ(c.theta, 10000.0);
  EXPECT_EQ(c.convention, pe::PairConvention::Interleaved);
  ASSERT_TRUE(c.multimodal.multi_axis);
  EXPECT_EQ(c.multimodal.multi_axis->scheme, MultiAxisScheme::Axial);
  EXPECT_EQ(c.multimodal.multi_axis->sections, (Vec{8, 28, 28}));
  EXPECT_TRUE(has_note(c, "max_position_embeddings"));
}

TEST(MultimodalConfig, BadMultimodalKeysNameTheKey) {
  std::string message;
  EXPECT_EQ(error_key(replaced(kQwen3VL, "[24, 20, 20]", "[24, 20, 16]"), &message),
            "text_config.rope_scaling.mrope_section");
  EXPECT_NE(message.find("64"), std::string::npos) << message;  // says how many pairs there are
  EXPECT_EQ(error_key(replaced(kQwen2VL, R"(, "mrope_section": [16, 24, 24])", "")), "rope_scaling.mrope_section");
  EXPECT_EQ(error_key(replaced(kQwen2VL, "[16, 24, 24]", "[16, 48]")), "rope_scaling.mrope_section");
  EXPECT_EQ(error_key(replaced(kQwen2VL, "[16, 24, 24]", "[16, 24.5, 23.5]")), "rope_scaling.mrope_section[1]");
  EXPECT_EQ(error_key(replaced(kQwen2VL, "[16, 24, 24]", "\"16,24,24\"")), "rope_scaling.mrope_section");
  EXPECT_EQ(error_key(replaced(kQwen3VL, "\"mrope_interleaved\": true", "\"mrope_interleaved\": 1")),
            "text_config.rope_scaling.mrope_interleaved");
  EXPECT_EQ(error_key(replaced(kQwen3VL, R"("max_position_embeddings": 262144, )", "")),
            "text_config.max_position_embeddings");
  EXPECT_EQ(error_key(replaced(kQwen3VL, R"("text_config": {)", R"("text_config": [], "x": {)")), "text_config");
  EXPECT_EQ(error_key(replaced(kQwen2VL, "\"spatial_merge_size\": 2", "\"spatial_merge_size\": 0")),
            "vision_config.spatial_merge_size");
  EXPECT_EQ(error_key(replaced(kPixtral, "\"head_dim\": 64", "\"head_dim\": 66")), "vision_config.head_dim");
  // A vision_config without the tower's size leaves the language model usable.
  const auto no_heads = pe::parse_hf_config(replaced(kQwen2VL, "\"num_heads\": 16, ", ""));
  EXPECT_TRUE(no_heads.multimodal.multi_axis);
  EXPECT_FALSE(no_heads.multimodal.vision_tower);
  EXPECT_TRUE(has_note(no_heads, "vision_config.num_heads / num_attention_heads: missing"));
  EXPECT_EQ(error_key(replaced(kFlux, "[16, 56, 56]", "[16, 55, 57]")), "axes_dims_rope[1]");
  EXPECT_EQ(error_key(replaced(kFlux, "[16, 56, 56]", "[16, 56, 50]")), "axes_dims_rope");
  EXPECT_EQ(error_key(replaced(kFlux, "\"attention_head_dim\": 128, ", "")), "attention_head_dim");
  EXPECT_EQ(error_key(replaced(kQwen2VL, "{\n  \"model_type\"", "{\"pe_viz_tower\": \"audio\", \"model_type\"")),
            "pe_viz_tower");
}

TEST(MultimodalConfig, PresetsOfTheIssue) {
  const auto q2 = pe::load_preset("qwen2-vl-7b");
  EXPECT_EQ(q2.multimodal.multi_axis->sections, (Vec{16, 24, 24}));
  const auto q25 = pe::load_preset("qwen2.5-vl-7b");
  EXPECT_EQ(q25.multimodal.tokens_per_second, 2.0);
  EXPECT_EQ(q25.multimodal.rope_index, pe::RopeIndexFamily::Qwen25VL);
  EXPECT_EQ(q25.max_position_embeddings, 128000);
  const auto q3 = pe::load_preset("qwen3-vl-8b");
  EXPECT_EQ(q3.multimodal.multi_axis->scheme, MultiAxisScheme::MRopeInterleaved);
  EXPECT_EQ(q3.theta, 5e6);

  const auto qv = pe::load_preset("qwen2-vl-vision");  // pe_viz_tower: vision
  EXPECT_EQ(qv.name, "qwen2-vl-vision");
  EXPECT_EQ(qv.head_dim, 80);
  EXPECT_EQ(qv.theta, 10000.0);
  EXPECT_EQ(qv.multimodal.multi_axis->scheme, MultiAxisScheme::Vision2D);
  EXPECT_EQ(qv.multimodal.multi_axis->vision_variant, pe::Vision2DVariant::Qwen2VL);

  const auto px = pe::load_preset("pixtral-12b-vision");
  EXPECT_EQ(px.head_dim, 64);
  EXPECT_EQ(px.multimodal.multi_axis->vision_variant, pe::Vision2DVariant::Pixtral);
  EXPECT_EQ(px.max_position_embeddings, 64);

  const auto fx = pe::load_preset("flux.1-dev");
  EXPECT_EQ(fx.head_dim, 128);
  EXPECT_EQ(fx.multimodal.multi_axis->sections, (Vec{8, 28, 28}));

  // Text-only presets stay text-only.
  EXPECT_TRUE(pe::load_preset("llama-3.1-8b").multimodal.empty());
}

}  // namespace
