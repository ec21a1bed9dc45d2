#pragma once
// Pair conventions across a Hugging Face → GGUF conversion. A checkpoint's q/k projection
// rows are laid out for the rotation its modeling code applies (half-split rotate_half for
// most; interleaved for a few); llama.cpp rotates by the architecture's rope mode. Where the
// two differ, llama.cpp's convert_hf_to_gguf.py reorders the q/k rows (LlamaModel.permute,
// applied in LlamaModel.modify_tensors when `undo_permute` is true — LLaMA/Mistral/Mixtral,
// Granite, Arcee, SmolLM3 and the other LlamaModel subclasses; Llama 4 and Mistral's native
// format set it false because their weights are already interleaved).
#include "pe/models/module_guard.hpp"
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "pe/models/diagnostics.hpp"
#include "pe/models/gguf_rope.hpp"
#include "pe/scaling/scaling.hpp"

namespace pe {

// How a config.json's checkpoint pairs q/k dimensions, with the evidence.
struct HfCheckpointLayout {
  PairConvention convention = PairConvention::HalfSplit;
  std::string architecture;  // config.json "architectures"[0]; "" when absent
  std::string model_type;    // config.json "model_type"; "" when absent
  std::string reason;        // e.g. "rope_interleave = true", "modeling_cohere.py rotate_half pairs (2i, 2i+1)"
};
// From config.json text / a config.json file. Throws ConfigError on malformed JSON.
HfCheckpointLayout hf_checkpoint_layout(const std::string& config_json_text);
HfCheckpointLayout hf_checkpoint_layout_file(const std::filesystem::path& config_json);

struct ConversionConventions {
  PairConvention hf = PairConvention::HalfSplit;  // the checkpoint's pairing
  std::optional<PairConvention> gguf;             // llama.cpp's pairing (nullopt: rope mode unknown)
  GgufRopeMode rope_mode = GgufRopeMode::Unknown;
  // The converter must have reordered q/k rows (half-split checkpoint, interleaved rope
  // mode): convert_hf_to_gguf.py LlamaModel.permute.
  bool qk_permuted = false;
  // Both sides rotate the same pairs of the same vectors (after the permutation, if any).
  bool consistent = true;
  // The conventions, the permutation and every number compared (theta, dims, context,
  // scaling, the frequencies themselves): Info when they agree, Warning when not.
  std::vector<Diagnostic> diagnostics;
};

// Compares a GGUF file's configuration with the config.json it was converted from.
ConversionConventions compare_conversion(const GgufModelConfig& gguf, const RopeConfig& hf, const HfCheckpointLayout& layout);

// convert_hf_to_gguf.py LlamaModel.permute for one head of `head_dim` rows:
// weights.reshape(n_head, 2, head_dim/2, ...).swapaxes(1, 2). Row r of the permuted weight
// is row result[r] of the Hugging Face weight: result[2j + t] = t·head_dim/2 + j. Throws
// InvalidArgument for an odd or non-positive head_dim.
std::vector<long long> llama_qk_permutation(long long head_dim);

}  // namespace pe
