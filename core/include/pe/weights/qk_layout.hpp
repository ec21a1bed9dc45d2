#pragma once
// Where each head's rotary pairs lie among the rows of a checkpoint's W_q and W_k, per
// family (rows are output features; "rot" is a layer's rotary dims, pair j turns with
// inv_freq[j]):
//   Hugging Face q_proj / k_proj (Llama, Mistral, Qwen, Gemma, ...): head h is rows
//     [h·hd, (h+1)·hd); its rotary block is the first rot rows, stored half-split (pair j =
//     rows j and j + rot/2) or, for the checkpoints whose modeling code rotates adjacent
//     dims (DeepSeek, Cohere, GLM, Llama 4 — hf_checkpoint_layout), interleaved (rows 2j, 2j+1).
//   Phi-3 qkv_proj: all q heads, then all k heads, then v (modeling_phi3.py); half-split.
//   GPT-NeoX query_key_value: per head h, q rows, then k rows, then v rows
//     ([h·3hd, h·3hd + hd) is q_h, the next hd rows k_h; modeling_gpt_neox.py); the first
//     rot = rotary_pct·hd dims rotate, half-split within them.
//   GGUF attn_q / attn_k: as Hugging Face's, in llama.cpp's order for the architecture's rope
//     mode: NORM interleaved (arch llama and the other converters that permute), NEOX
//     half-split. attn_qkv (gptneox, phi3): all q, then all k, then v (the GPT-NeoX converter
//     regroups the per-head blocks).
//   MLA (DeepSeek-V2/V3, Kimi K2): q_b_proj (or q_proj without q_lora_rank; GGUF attn_q_b /
//     attn_q): head h is qk_nope + qk_rope rows, the last qk_rope rotate. kv_a_proj_with_mqa
//     (GGUF attn_kv_a_mqa): kv_lora_rank latent rows, then the qk_rope rows of the one rotary
//     key head all q heads share. The rope rows are interleaved with rope_interleave (the
//     default) and in every GGUF.
// Rows outside a head's rotary block are its non-rotary dims (partial rotary, MLA's nope part,
// every row of a NoPE layer); for MLA's shared key they are the kv_lora_rank latent rows.
#include "pe/weights/module_guard.hpp"
#include <string>
#include <utility>
#include <vector>

#include "pe/models/diagnostics.hpp"
#include "pe/weights/stored_matrix.hpp"
#include "pe/weights/weights_model.hpp"

namespace pe {

// One projection's heads among a tensor's rows.
struct HeadRows {
  long long first_row = 0;      // head 0's first row
  long long head_stride = 0;    // rows from one head's first row to the next's
  long long heads = 0;
  long long head_dim = 0;       // rows per head
  long long rotary_offset = 0;  // first rotary row within a head
  long long rotary_dims = 0;    // rotary rows per head (even; 0: none rotate)
  PairConvention order = PairConvention::HalfSplit;

  long long pairs() const { return rotary_dims / 2; }
  long long head_first_row(long long head) const { return first_row + head * head_stride; }
  // The two rows (of the tensor) that produce pair j of head h.
  std::pair<long long, long long> pair_rows(long long head, long long pair) const;
  // Whether row `r` of head h's block (0 ≤ r < head_dim) rotates.
  bool rotary_row(long long r) const { return r >= rotary_offset && r < rotary_offset + rotary_dims; }
};

struct ProjectionRows {
  std::string tensor;
  HeadRows rows;
};

struct LayerQkPlan {
  long long layer = 0;
  bool attention = true;  // false: the layer has no q/k tensors (a hybrid model's other layers)
  bool rotary = true;     // false: NoPE, every row is non-rotary
  ProjectionRows q, k;
};

struct QkPlan {
  std::string family;  // "q_proj/k_proj", "qkv_proj (Phi-3)", "query_key_value (GPT-NeoX)", "attn_q/attn_k (GGUF)", ...
  std::string tensor_prefix;  // "model.", "model.language_model.", "gpt_neox.", "" (GGUF)
  PairConvention stored_order = PairConvention::HalfSplit;
  std::vector<LayerQkPlan> layers;
  std::vector<Diagnostic> notes;
};

// Finds the family in `source`'s tensor names and checks every needed tensor's shape against
// `model` (2-D, rows and columns as the heads, widths and hidden size imply). `layers`: the
// layers to plan (empty: all). Throws WeightsError naming the file and tensor, with expected
// and actual shapes; for a family not supported, the message names the attention tensors found.
QkPlan plan_qk(const TensorSource& source, const WeightsModel& model, const std::vector<long long>& layers = {});

}  // namespace pe
