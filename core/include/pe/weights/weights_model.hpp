#pragma once
// What the q/k measure needs to know about a model besides its tensors: heads, widths and
// layers (ModelShape), its RoPE and per-layer plan (which layers rotate, how many dims, with
// which frequencies), and how the checkpoint stores each head's rotary rows. From config.json
// for a Hugging Face checkpoint, from the metadata for a GGUF file.
#include "pe/weights/module_guard.hpp"
#include <filesystem>
#include <string>
#include <vector>

#include "pe/models/config_diagnostics.hpp"
#include "pe/models/gguf_conversion.hpp"
#include "pe/models/gguf_rope.hpp"
#include "pe/models/model_shape.hpp"
#include "pe/weights/fp8_quantization.hpp"

namespace pe {

struct WeightsModel {
  std::string source;  // the configuration's file ("DIR/config.json", "model.gguf")
  ModelShape shape;
  RopeConfig rope;     // the main (full-attention) RoPE
  LayerPlan plan;      // a row per layer, or one row standing for every layer
  // How each head's rotated rows are stored: HalfSplit pairs rows (j, j + rot/2), Interleaved
  // pairs rows (2j, 2j + 1), both within the head's rotary block.
  PairConvention stored_order = PairConvention::HalfSplit;
  std::string stored_order_reason;
  // Per-layer head counts where a GGUF file gives them as arrays; empty: shape's everywhere.
  std::vector<long long> heads_per_layer, kv_heads_per_layer;
  // config.json's quantization_config, for FP8 checkpoints (SafetensorsCheckpoint takes it).
  Fp8Quantization fp8;
  std::vector<Diagnostic> notes;

  long long heads_of(long long layer) const;
  long long kv_heads_of(long long layer) const;
  // The plan's row for `layer` (row 0 when one row stands for all).
  const LayerRow& row_of(long long layer) const;
};

// From an inspected config.json and the checkpoint's layout (hf_checkpoint_layout). Throws
// WeightsError naming the source when the config was invalid.
WeightsModel hf_weights_model(const InspectedConfig& config, const HfCheckpointLayout& layout);
// From a config.json file (inspect_hf_config_file + hf_checkpoint_layout_file +
// fp8_quantization_of).
WeightsModel hf_weights_model_file(const std::filesystem::path& config_json);
// From a GGUF file's metadata: general.architecture; {arch}.block_count, .embedding_length,
// .attention.head_count, .attention.head_count_kv (numbers or per-layer arrays),
// .attention.key_length (default embedding_length / head_count), .rope.dimension_count; MLA's
// .attention.key_length_mla, .attention.kv_lora_rank, .attention.q_lora_rank. The stored
// order is llama.cpp's rope mode for the architecture (NORM: interleaved, which for arch
// llama means its converter permuted Hugging Face's half-split rows; NEOX: half-split, rows
// as Hugging Face stored them). Throws WeightsError naming the file and key.
WeightsModel gguf_weights_model(const GgufModelConfig& gguf);

}  // namespace pe
