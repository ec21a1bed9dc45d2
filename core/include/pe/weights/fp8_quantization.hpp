#pragma once
// config.json's quantization_config for checkpoints stored in FP8 with block scales, as
// DeepSeek-V3/R1 and Kimi K2 publish it:
//   "quantization_config": {"quant_method": "fp8", "fmt": "e4m3", "weight_block_size": [128, 128],
//                           "activation_scheme": "dynamic"}
// and transformers reads it (utils/quantization_config.py FineGrainedFP8Config: weight_block_size
// defaults to (128, 128); integrations/finegrained_fp8.py Fp8Dequantize takes the whole matrix
// as one block when it is null). Each FP8 weight `W` comes with `W_scale_inv` (for
// "…weight": "…weight_scale_inv"), one factor per block (stored_matrix.hpp BlockScales).
//
// Reading it never fails: a checkpoint that declares another method (gptq, awq, …) or a
// malformed block size still opens, and `problem` says what was wrong; only reading an FP8
// tensor with it is an error (SafetensorsCheckpoint::matrix), so a bf16 checkpoint is never
// refused for a key it does not use.
#include "pe/weights/module_guard.hpp"
#include <string>

namespace pe {

struct Fp8Quantization {
  std::string config;            // the config.json named in messages ("" : none was read)
  bool declared = false;         // config.json has a quantization_config object
  std::string quant_method;      // as given ("fp8"; "" when absent)
  std::string fmt;               // as given ("e4m3", "e5m2"; "" when absent)
  long long block_rows = 128, block_cols = 128;  // weight_block_size; 0 × 0: one block per matrix (null)
  std::string problem_key;       // "quantization_config.weight_block_size", … ("" : none)
  std::string problem;           // why that key cannot be used

  // Rows and columns per scale of a rows × cols matrix (the whole matrix for 0 × 0).
  long long rows_per_block(long long rows) const { return block_rows > 0 ? block_rows : rows; }
  long long cols_per_block(long long cols) const { return block_cols > 0 ? block_cols : cols; }
};

// From config.json text (the quantization_config at the top level, or in text_config for a
// wrapper). Throws nothing for a bad quantization_config (see above); malformed JSON gives a
// default (no declaration), the config readers report it.
Fp8Quantization fp8_quantization_of(const std::string& config_json, const std::string& config_name);

inline constexpr const char* kScaleInvSuffix = "_scale_inv";

}  // namespace pe
