// Config-class defaults per model_type. Each value is the default argument of the class's
// __init__ in huggingface/transformers (src/transformers/models/<model>/configuration_<model>.py,
// v5 RotaryEmbeddingConfigMixin era, read at zucchini-nlp/transformers@26892c16 which tracks
// main), or of the model's remote code where transformers has none (named in config_class).
// Conventions: the rotary application in modeling_<model>.py.
#include "pe/models/model_defaults.hpp"

#include <algorithm>
#include <array>
#include <string_view>

namespace pe {
namespace {

constexpr const char* kRotateHalf = "rotate_half (modeling_llama.py apply_rotary_pos_emb): pairs (i, i + d/2)";
constexpr const char* kInterleavedHalf =
    "rotate_half on interleaved pairs, cos/sin repeat_interleave(2) (Cohere / GLM modeling code)";

using PC = PairConvention;
using LR = LayerRule;

// The gpt-oss class default: GptOssConfig.__init__ rope_scaling (configuration_gpt_oss.py).
constexpr const char* kGptOssYarn =
    R"({"rope_type": "yarn", "factor": 32.0, "beta_fast": 32.0, "beta_slow": 1.0, "truncate": false,
        "original_max_position_embeddings": 4096})";

// Ministral3Config.__post_init__'s rope_parameters when config.json has none.
constexpr const char* kMinistral3Yarn =
    R"({"type": "yarn", "rope_theta": 1000000.0, "factor": 16.0, "original_max_position_embeddings": 16384,
        "beta_fast": 32.0, "beta_slow": 1.0, "mscale_all_dim": 1.0, "mscale": 1.0, "llama_4_scaling_beta": 0.1})";

const std::array<ModelDefaults, 37> kDefaults = {{
    {"llama", "LlamaConfig (configuration_llama.py)", 10000.0, std::nullopt, std::nullopt, 4096, 32, 32, 2048, 1.0,
     std::nullopt, std::nullopt, PC::HalfSplit, kRotateHalf, LR::Uniform, 0, std::nullopt, false, 0, nullptr},
    {"llama4_text", "Llama4TextConfig (configuration_llama4.py; default_theta 500000)", 500000.0, std::nullopt, 128,
     5120, 40, 48, 131072, 1.0, std::nullopt, std::nullopt, PC::Interleaved,
     "Llama4TextRotaryEmbedding + apply_rotary_emb: complex multiplication on (2i, 2i+1) pairs (modeling_llama4.py)",
     LR::NoRopeEveryNth, 4, std::nullopt, false, 8192, nullptr},
    {"mistral", "MistralConfig (configuration_mistral.py)", 10000.0, std::nullopt, std::nullopt, 4096, 32, 32, 131072,
     1.0, std::nullopt, std::nullopt, PC::HalfSplit, kRotateHalf, LR::Uniform, 0, 4096, false, 0, nullptr},
    {"qwen2", "Qwen2Config (configuration_qwen2.py)", 10000.0, std::nullopt, std::nullopt, 4096, 32, 32, 32768, 1.0,
     std::nullopt, std::nullopt, PC::HalfSplit, kRotateHalf, LR::SlidingFromMaxWindowLayers, 28, 4096, false, 0,
     nullptr},
    {"qwen3", "Qwen3Config (configuration_qwen3.py)", 10000.0, std::nullopt, 128, 4096, 32, 32, 32768, 1.0,
     std::nullopt, std::nullopt, PC::HalfSplit, kRotateHalf, LR::SlidingFromMaxWindowLayers, 28, 4096, false, 0,
     nullptr},
    {"gemma", "GemmaConfig (configuration_gemma.py)", 10000.0, std::nullopt, 256, 3072, 16, 28, 8192, 1.0,
     std::nullopt, std::nullopt, PC::HalfSplit, kRotateHalf, LR::Uniform, 0, std::nullopt, false, 0, nullptr},
    {"gemma2", "Gemma2Config (configuration_gemma2.py)", 10000.0, std::nullopt, 256, 2304, 8, 26, 8192, 1.0,
     std::nullopt, std::nullopt, PC::HalfSplit, kRotateHalf, LR::AlternateSlidingFirst, 2, 4096, false, 0, nullptr},
    {"gemma3_text",
     "Gemma3TextConfig (configuration_gemma3.py; default_theta global 1000000, local 10000)", 1000000.0, 10000.0,
     256, 2304, 8, 26, 131072, 1.0, std::nullopt, std::nullopt, PC::HalfSplit, kRotateHalf, LR::SlidingUnlessNth, 6,
     4096, false, 0, nullptr},
    {"gpt_oss", "GptOssConfig (configuration_gpt_oss.py)", 150000.0, std::nullopt, 64, 2880, 64, 36, 131072, 1.0,
     std::nullopt, std::nullopt, PC::HalfSplit, "_apply_rotary_emb: first/second half (modeling_gpt_oss.py)",
     LR::AlternateSlidingFirst, 2, 128, false, 0, kGptOssYarn},
    {"glm", "GlmConfig (configuration_glm.py)", 10000.0, std::nullopt, 128, 4096, 32, 40, 131072, 0.5, std::nullopt,
     std::nullopt, PC::Interleaved, kInterleavedHalf, LR::Uniform, 0, std::nullopt, false, 0, nullptr},
    {"glm4", "Glm4Config (configuration_glm4.py)", 10000.0, std::nullopt, 128, 4096, 32, 40, 32768, 0.5, std::nullopt,
     std::nullopt, PC::Interleaved, kInterleavedHalf, LR::Uniform, 0, std::nullopt, false, 0, nullptr},
    {"phi3", "Phi3Config (configuration_phi3.py)", 10000.0, std::nullopt, std::nullopt, 3072, 32, 32, 4096, 1.0,
     std::nullopt, std::nullopt, PC::HalfSplit, kRotateHalf, LR::Uniform, 0, std::nullopt, false, 0, nullptr},
    {"phi", "PhiConfig (configuration_phi.py)", 10000.0, std::nullopt, std::nullopt, 2048, 32, 24, 2048, 0.5,
     std::nullopt, std::nullopt, PC::HalfSplit, kRotateHalf, LR::Uniform, 0, std::nullopt, false, 0, nullptr},
    {"minicpm3", "MiniCPM3Config (openbmb/MiniCPM3-4B remote code configuration_minicpm.py)", 10000.0, std::nullopt,
     std::nullopt, 2560, 40, 62, 32768, 1.0, 32, 64, PC::HalfSplit,
     "rotate_half on the q_pe/k_pe part (modeling_minicpm.py)", LR::Uniform, 0, std::nullopt, false, 0, nullptr},
    {"cohere", "CohereConfig (configuration_cohere.py)", 10000.0, std::nullopt, std::nullopt, 8192, 64, 40, 8192,
     1.0, std::nullopt, std::nullopt, PC::Interleaved, kInterleavedHalf, LR::Uniform, 0, std::nullopt, false, 0,
     nullptr},
    {"cohere2", "Cohere2Config (configuration_cohere2.py)", 10000.0, std::nullopt, std::nullopt, 8192, 64, 40, 8192,
     1.0, std::nullopt, std::nullopt, PC::Interleaved, kInterleavedHalf, LR::SlidingUnlessNth, 4, 4096, true, 0,
     nullptr},
    {"stablelm", "StableLmConfig (configuration_stablelm.py)", 10000.0, std::nullopt, std::nullopt, 2560, 32, 32,
     4096, 0.25, std::nullopt, std::nullopt, PC::HalfSplit, kRotateHalf, LR::Uniform, 0, std::nullopt, false, 0,
     nullptr},
    {"deepseek_v2", "DeepseekV2Config (configuration_deepseek_v2.py)", 10000.0, std::nullopt, std::nullopt, 5120, 128,
     60, 2048, 1.0, 64, 128, PC::Interleaved,
     "apply_rotary_emb: complex multiplication on (2i, 2i+1) pairs (modeling_deepseek_v2.py)", LR::Uniform, 0,
     std::nullopt, false, 0, nullptr},
    {"deepseek_v3", "DeepseekV3Config (configuration_deepseek_v3.py; rope_interleave default true)", 10000.0,
     std::nullopt, std::nullopt, 7168, 128, 61, 4096, 1.0, 64, 128, PC::Interleaved,
     "apply_rotary_pos_emb_interleave (modeling_deepseek_v3.py): (2i, 2i+1) pairs", LR::Uniform, 0, std::nullopt,
     false, 0, nullptr},
    {"olmo2", "Olmo2Config (configuration_olmo2.py)", 10000.0, std::nullopt, std::nullopt, 4096, 32, 32, 2048, 1.0,
     std::nullopt, std::nullopt, PC::HalfSplit, kRotateHalf, LR::Uniform, 0, std::nullopt, false, 0, nullptr},
    {"granite", "GraniteConfig (configuration_granite.py)", 10000.0, std::nullopt, std::nullopt, 4096, 32, 32, 2048,
     1.0, std::nullopt, std::nullopt, PC::HalfSplit, kRotateHalf, LR::Uniform, 0, std::nullopt, false, 0, nullptr},
    {"gpt_neox", "GPTNeoXConfig (configuration_gpt_neox.py; rotary_pct 0.25, rotary_emb_base 10000)", 10000.0,
     std::nullopt, std::nullopt, 6144, 64, 44, 2048, 0.25, std::nullopt, std::nullopt, PC::HalfSplit,
     "rotate_half (modeling_gpt_neox.py), the layout's origin", LR::Uniform, 0, std::nullopt, false, 0, nullptr},
    {"gptj", "GPTJConfig (configuration_gptj.py; rotary_dim 64, n_positions 2048)", 10000.0, std::nullopt,
     std::nullopt, 4096, 16, 28, 2048, 1.0, std::nullopt, std::nullopt, PC::Interleaved,
     "rotate_every_two (modeling_gptj.py): (2i, 2i+1) pairs", LR::Uniform, 0, std::nullopt, false, 0, nullptr},
    {"qwen2_moe", "Qwen2MoeConfig (configuration_qwen2_moe.py)", 10000.0, std::nullopt, std::nullopt, 2048, 16, 24,
     32768, 1.0, std::nullopt, std::nullopt, PC::HalfSplit, kRotateHalf, LR::SlidingFromMaxWindowLayers, 21, 4096,
     false, 0, nullptr},
    // The third wave's families, read at huggingface/transformers@decba1d2 (5.16.0.dev0).
    {"gemma4_text",
     "Gemma4TextConfig (configuration_gemma4.py; rope_parameters full proportional p 0.25 theta 1e6, sliding default "
     "theta 1e4; global_head_dim 512)",
     1000000.0, 10000.0, 256, 2304, 8, 30, 131072, 1.0, std::nullopt, std::nullopt, PC::HalfSplit, kRotateHalf,
     LR::SlidingUnlessNth, 6, 512, false, 0, nullptr},
    {"gemma3n_text", "Gemma3nTextConfig (configuration_gemma3n.py; default_theta global 1000000, local 10000)",
     1000000.0, 10000.0, 256, 2048, 8, 35, 32768, 1.0, std::nullopt, std::nullopt, PC::HalfSplit, kRotateHalf,
     LR::SlidingUnlessNth, 5, 512, false, 0, nullptr},
    {"qwen3_5_text", "Qwen3_5TextConfig (configuration_qwen3_5.py; partial_rotary_factor 0.25 set at the top level)",
     10000.0, std::nullopt, 256, 4096, 16, 32, 32768, 0.25, std::nullopt, std::nullopt, PC::HalfSplit, kRotateHalf,
     LR::LinearUnlessNth, 4, std::nullopt, false, 0, nullptr, true},
    {"qwen3_5_moe_text",
     "Qwen3_5MoeTextConfig (configuration_qwen3_5_moe.py; partial_rotary_factor 0.25 set at the top level)", 10000.0,
     std::nullopt, 256, 2048, 16, 40, 32768, 0.25, std::nullopt, std::nullopt, PC::HalfSplit, kRotateHalf,
     LR::LinearUnlessNth, 4, std::nullopt, false, 0, nullptr, true},
    {"qwen3_next", "Qwen3NextConfig (configuration_qwen3_next.py; partial_rotary_factor 0.25 set at the top level)",
     10000.0, std::nullopt, 256, 2048, 16, 48, 32768, 0.25, std::nullopt, std::nullopt, PC::HalfSplit, kRotateHalf,
     LR::LinearUnlessNth, 4, std::nullopt, false, 0, nullptr, true},
    {"smollm3", "SmolLM3Config (configuration_smollm3.py; default_theta 2000000)", 2000000.0, std::nullopt,
     std::nullopt, 2048, 16, 36, 32768, 1.0, std::nullopt, std::nullopt, PC::HalfSplit, kRotateHalf,
     LR::NoRopeEveryNthDense, 4, std::nullopt, false, 0, nullptr},
    {"exaone4", "Exaone4Config (configuration_exaone4.py; global layers NoPE when sliding_window is set)", 10000.0,
     std::nullopt, std::nullopt, 4096, 32, 32, 2048, 1.0, std::nullopt, std::nullopt, PC::HalfSplit, kRotateHalf,
     LR::SlidingUnlessNth, 4, 4096, true, 0, nullptr},
    {"ministral3", "Ministral3Config (configuration_ministral3.py; yarn x16 from 16384, llama_4_scaling_beta 0.1)",
     1000000.0, std::nullopt, 128, 4096, 32, 34, 262144, 1.0, std::nullopt, std::nullopt, PC::HalfSplit, kRotateHalf,
     LR::Uniform, 0, std::nullopt, false, 0, kMinistral3Yarn},
    {"glm4v_moe_text", "Glm4vMoeTextConfig (configuration_glm4v_moe.py; partial_rotary_factor 0.5 set at the top level)",
     10000.0, std::nullopt, std::nullopt, 4096, 96, 46, 65536, 0.5, std::nullopt, std::nullopt, PC::HalfSplit,
     "apply_rotary_pos_emb on the first rotary_dim dims, rotate_half (modeling_glm4v_moe.py)", LR::Uniform, 0,
     std::nullopt, false, 0, nullptr, true},
    {"ernie4_5_vl_moe_text",
     "Ernie4_5_VLMoeTextConfig (configuration_ernie4_5_vl_moe.py; default_theta 500000, mrope_section [22, 22, 20] = h, w, t)",
     500000.0, std::nullopt, std::nullopt, 2560, 20, 28, 131072, 1.0, std::nullopt, std::nullopt, PC::Interleaved,
     "rotate_half_text on cos/sin repeat_interleave(2) (modeling_ernie4_5_vl_moe.py): adjacent pairs (2i, 2i+1)",
     LR::Uniform, 0, std::nullopt, false, 0, nullptr},
    // Falcon without alibi and CodeGen rotate; their family entries (position_families.cpp) say so.
    {"falcon", "FalconConfig (configuration_falcon.py; rope_theta 10000, max_position_embeddings 2048)", 10000.0,
     std::nullopt, std::nullopt, 4544, 71, 32, 2048, 1.0, std::nullopt, std::nullopt, PC::HalfSplit,
     "rotate_half (modeling_falcon.py apply_rotary_pos_emb)", LR::Uniform, 0, std::nullopt, false, 0, nullptr},
    {"codegen", "CodeGenConfig (configuration_codegen.py; rotary_dim 64 of head_dim 4096 / 16 = 256)", 10000.0,
     std::nullopt, std::nullopt, 4096, 16, 28, 2048, 0.25, std::nullopt, std::nullopt, PC::Interleaved,
     "rotate_every_two (modeling_codegen.py): (2i, 2i+1) pairs", LR::Uniform, 0, std::nullopt, false, 0, nullptr},
    {"glm4_moe", "Glm4MoeConfig (configuration_glm4_moe.py; partial_rotary_factor 0.5 set at the top level)", 10000.0,
     std::nullopt, std::nullopt, 4096, 96, 46, 131072, 0.5, std::nullopt, std::nullopt, PC::HalfSplit,
     "rotate_half on the first rotary_dim dims (modeling_glm4_moe.py)", LR::Uniform, 0, std::nullopt, false, 0,
     nullptr, true},
}};

}  // namespace

const ModelDefaults* model_defaults(const std::string& model_type) {
  for (const auto& d : kDefaults)
    if (model_type == d.model_type) return &d;
  return nullptr;
}

std::vector<std::string> known_model_types() {
  std::vector<std::string> out;
  for (const auto& d : kDefaults) out.emplace_back(d.model_type);
  return out;
}

bool softmax_mscale_family(const std::string& model_type) {
  static const std::array<std::string_view, 10> kTypes = {"deepseek_v2",  "deepseek_v3",    "deepseek_v32", "kimi_k2",
                                                          "minicpm3",     "mistral4",       "longcat_flash", "glm4_moe_lite",
                                                          "glm_moe_dsa", "youtu"};
  return std::find(kTypes.begin(), kTypes.end(), model_type) != kTypes.end();
}

std::string text_model_type(const std::string& model_type) {
  // The wrappers' sub_configs["text_config"] classes (Gemma3Config → Gemma3TextConfig,
  // Llama4Config → Llama4TextConfig, Mistral3Config → a MistralConfig text_config).
  if (model_type == "gemma3") return "gemma3_text";
  if (model_type == "llama4") return "llama4_text";
  if (model_type == "mistral3") return "mistral";
  if (model_type == "gemma4") return "gemma4_text";
  if (model_type == "gemma3n") return "gemma3n_text";
  if (model_type == "qwen3_5") return "qwen3_5_text";
  if (model_type == "qwen3_5_moe") return "qwen3_5_moe_text";
  if (model_type == "glm4v_moe") return "glm4v_moe_text";
  if (model_type == "ernie4_5_vl_moe") return "ernie4_5_vl_moe_text";
  return model_type;
}

}  // namespace pe
