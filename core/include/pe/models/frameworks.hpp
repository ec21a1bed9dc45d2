#pragma once
// The same config.json, three implementations: what Hugging Face transformers, vLLM and
// llama.cpp each rotate with — inverse frequencies, the cos/sin magnitude (attention factor,
// "mscale"), the net scale on q·k, the length a dynamic method scales from, LongRoPE's
// short/long choice — side by side, with the largest difference from transformers and why.
//
// Versions followed (read from their sources; see frameworks.cpp for each rule's file):
//   transformers  modeling_rope_utils.py, v5 RotaryEmbeddingConfigMixin (explicit YaRN factor
//                 since #40320), read at zucchini-nlp/transformers@26892c16 (tracks main)
//   vLLM          model_executor/layers/rotary_embedding/ at 926c71f6 (__init__ get_rope),
//                 yarn_scaling_rope ffdc9857, deepseek_scaling_rope 00d678e1, dynamic_ntk 50feac95,
//                 llama3_rope 045d7575, ntk_scaling_rope 03587f55, phi3_long_rope 17d618b0
//   llama.cpp     llama-context.cpp YaRN attn_factor block (PR #17945/#18006), llama-hparams.cpp
//                 01b77b57, ggml-cpu rope_yarn / ggml_rope_yarn_corr_dims, convert_hf_to_gguf.py
//                 (set_gguf_parameters, LlamaModel.generate_extra_tensors, Phi3MiniModel)
#include "pe/models/module_guard.hpp"
#include <optional>
#include <string>
#include <vector>

#include "pe/scaling/scaling.hpp"

namespace pe {

enum class Framework { Transformers, Vllm, LlamaCpp };
const char* to_string(Framework f);  // "transformers", "vllm", "llama.cpp"

// What a framework needs beyond RopeConfig, from the config.json the RopeConfig came from.
struct FrameworkContext {
  std::string model_type;             // "" unknown
  // vLLM routes DeepSeek-V2/V3's yarn to DeepseekScalingRotaryEmbedding ("deepseek_yarn") and
  // llama.cpp's DeepSeek converters write mscale_all_dim as rope.scaling.yarn_log_multiplier.
  bool deepseek_attention = false;
  // config.json's top-level original_max_position_embeddings: llama.cpp's llama3 rope_freqs
  // are computed from it (default 8192), not from rope_scaling's.
  std::optional<long long> top_level_original_max_position_embeddings;
  // vLLM's serving length (max_model_len; default max_position_embeddings) and llama.cpp's
  // context size (n_ctx; default n_ctx_train = max_position_embeddings): both pick LongRoPE's
  // factors from them, not from the current length.
  std::optional<long long> vllm_max_model_len;
  std::optional<long long> llamacpp_n_ctx;
  // rope_scaling.attn_factor: vLLM's YaRN multiplies its mscale by it; transformers ignores it.
  std::optional<double> attn_factor;
};

struct FrameworkResult {
  Framework framework = Framework::Transformers;
  bool supported = true;            // false: the framework does not implement this rope type
  std::string method;               // what it runs, e.g. "YaRNScalingRotaryEmbedding"
  Eigen::ArrayXd inv_freq;          // rotary_dim / 2 entries
  double attention_factor = 1.0;    // multiplies cos and sin
  double logit_scale = 1.0;         // net factor on q·k logits (attention_factor² × softmax pre-scale)
  long long scaling_length = 0;     // length the method scales from (dynamic: the length in its formula; YaRN/llama3/LongRoPE: L_orig)
  bool uses_long_factor = false;    // LongRoPE
  std::vector<std::string> notes;   // each rule that differs from transformers, with its source
  // Against transformers (0 for transformers itself):
  double max_rel_diff_inv_freq = 0.0;
  long long worst_pair = -1;
  double rel_diff_attention = 0.0;
  double rel_diff_logit_scale = 0.0;
  std::string cause;                // the largest difference's reason ("" when equal)
};

struct FrameworkComparison {
  long long current_length = 0;
  std::vector<FrameworkResult> results;  // transformers, vLLM, llama.cpp
  double max_rel_diff = 0.0;             // largest of every framework's differences
  Framework worst = Framework::Transformers;
  std::string cause;                     // its reason
};

// current_length: the sequence length being processed (dynamic NTK, LongRoPE's switch in
// transformers). Throws InvalidArgument on an invalid config.
FrameworkComparison compare_frameworks(const RopeConfig& config, long long current_length,
                                       const FrameworkContext& context = {});

}  // namespace pe
