#pragma once
// One entry point for what `pe-viz weights` and a file dropped on the window open: a GGUF
// file, or a Hugging Face checkpoint (a model folder, a .safetensors file or an index) with
// the config.json beside it. The result measures as it is:
//   const OpenedWeights w = open_weights(path);
//   FrequencyUsage u = measure_frequency_usage(*w.tensors, w.model, options);
#include "pe/weights/module_guard.hpp"
#include <filesystem>
#include <memory>
#include <string>

#include "pe/models/position_encoding.hpp"
#include "pe/weights/byte_source.hpp"
#include "pe/weights/position_tensors.hpp"
#include "pe/weights/safetensors_checkpoint.hpp"
#include "pe/weights/stored_matrix.hpp"
#include "pe/weights/weights_model.hpp"

namespace pe {

struct OpenedWeights {
  std::shared_ptr<const TensorSource> tensors;
  WeightsModel model;  // empty when the model does not rotate: there are no q/k pairs to measure
  std::filesystem::path config_path;  // the config.json read ("" for GGUF)
  // The model's positional encoding (config.json's family; a GGUF file's architecture) and,
  // when it does not rotate (GPT-2, BERT, T5, DeBERTa, ...), what its position tensors must
  // hold (pe/weights/position_tensors.hpp).
  PositionEncodingInfo encoding;
  PositionTablesSpec position_spec;
  bool rotary() const { return encoding.rotates(); }
};

// A path ending in .gguf (any case) is GGUF; anything else is a safetensors checkpoint whose
// config.json is in the folder (or beside the file). Throws WeightsError naming the path
// (and the config.json when it is missing or unusable). A model that does not rotate opens
// with an empty `model` and its position spec (measure_frequency_usage is not for it).
OpenedWeights open_weights(const std::filesystem::path& path);
// From memory (the browser, tests): a GGUF file's bytes, or a safetensors checkpoint and its
// config.json text (`config_name` names it in messages).
OpenedWeights open_gguf_weights(std::shared_ptr<const ByteSource> gguf);
OpenedWeights open_hf_weights(SafetensorsCheckpoint checkpoint, const std::string& config_json,
                              const std::string& config_name = "config.json");

}  // namespace pe
