#pragma once
// The numbers of a model's attention beyond RoPE itself: how many heads, how wide, how many
// layers. The weights readers need them to cut W_q and W_k into heads and rotary pairs; the
// config reader fills them from config.json (with the model class's defaults), the GGUF
// reader from the file's metadata.
#include "pe/models/module_guard.hpp"
#include <string>
#include <vector>

namespace pe {

struct ModelShape {
  std::string model_type;                  // the language model's ("llama", "deepseek_v3", ...); "" unknown
  std::vector<std::string> architectures;  // config.json "architectures" ("LlamaForCausalLM", ...)
  long long hidden_size = 0;               // 0: not given
  long long num_hidden_layers = 0;         // 0: not given
  long long num_attention_heads = 0;       // query heads; 0: not given
  long long num_key_value_heads = 0;       // key/value heads (GQA); num_attention_heads when absent
  // Dims of one q/k head, rotary and not (the rotary part is RopeConfig::rotary_dim()). MLA:
  // qk_nope_head_dim + qk_rope_head_dim.
  long long head_dim = 0;
  // MLA (DeepSeek-V2/V3, Kimi K2, MiniCPM3): each q head is qk_nope_head_dim unrotated rows
  // then qk_rope_head_dim rotated ones; keys share one rotary head (kv_a_proj_with_mqa).
  long long qk_rope_head_dim = 0;
  long long qk_nope_head_dim = 0;
  long long v_head_dim = 0;
  long long kv_lora_rank = 0;
  long long q_lora_rank = 0;  // 0: q_proj, not the low-rank q_a_proj / q_b_proj

  bool is_mla() const { return qk_rope_head_dim > 0; }
};

}  // namespace pe
