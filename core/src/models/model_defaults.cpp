// Config-class defaults per model_type. Each value is the default argument of the class's
// __init__ in huggingface/transformers (src/transformers/models/<model>/configuration_<model>.py,
// v5 RotaryEmbeddingConfigMixin era, read at zucchini-nlp/transformers@26892c16 which tracks
// main), or of the model's remote code where transformers has none (named in config_class).
// Conventions: the rotary application in modeling_<model>.py.
#include "pe/models/model_defaults.hpp"

#include <array>

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

const std::array<ModelDefaults, 24> kDefaults = {{
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

std::string text_model_type(const std::string& model_type) {
  // The wrappers' sub_configs["text_config"] classes (Gemma3Config → Gemma3TextConfig,
  // Llama4Config → Llama4TextConfig, Mistral3Config → a MistralConfig text_config).
  if (model_type == "gemma3") return "gemma3_text";
  if (model_type == "llama4") return "llama4_text";
  if (model_type == "mistral3") return "mistral";
  return model_type;
}

}  // namespace pe
