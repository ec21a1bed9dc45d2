#pragma once
// The weights readers' errors. Every one names the file and, where there is one, the tensor
// (and the JSON key path inside a header or index), so a message about a 60-shard checkpoint
// says which shard and which tensor to look at.
#include "pe/weights/module_guard.hpp"
#include <stdexcept>
#include <string>

#include "pe/models/config.hpp"

namespace pe {

// A malformed, truncated or unsupported weights file, or tensors that disagree with the
// configuration. what() reads "FILE: tensor NAME: message" ("FILE: KEY: message" when the
// problem is a header key rather than a tensor). ConfigError::key() stays "" (what() is laid
// out here); tensor() and key_path() say where, "" when the whole file is meant.
class WeightsError : public ConfigError {
 public:
  WeightsError(std::string file, std::string tensor, std::string message);
  // A problem at a key path of a JSON header or index ("weight_map", "__metadata__.format",
  // "model.layers.0.self_attn.q_proj.weight.data_offsets"), with the tensor it belongs to ("" if none).
  WeightsError(std::string file, std::string tensor, std::string key_path, std::string message);
  const std::string& file() const noexcept { return file_; }
  const std::string& tensor() const noexcept { return tensor_; }
  const std::string& key_path() const noexcept { return key_path_; }

 private:
  std::string file_, tensor_, key_path_;
};

// The progress callback asked to stop. Not a ConfigError: nothing is wrong with the input.
class WeightsCancelled : public std::runtime_error {
 public:
  WeightsCancelled() : std::runtime_error("reading the weights was cancelled") {}
};

}  // namespace pe
