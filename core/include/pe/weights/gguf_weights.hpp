#pragma once
// A GGUF file's tensors as weight matrices: the header read by pe::parse_gguf (pe/models/gguf.hpp)
// over the mapped bytes, its configuration by pe::parse_gguf_config, and each tensor a
// StoredMatrix of ne[1] rows of ne[0] values (ggml's row order: ne[0] is the fastest
// dimension, the input features of a weight). Decodes f32, f16, bf16, q8_0, q4_0, q4_1, q5_0,
// q5_1, iq4_nl, q2_K, q3_K, q4_K, q5_K, q6_K and iq4_xs (pe/weights/ggml_blocks.hpp); any
// other ggml type is refused naming the type (name and number) and the tensor.
#include "pe/weights/module_guard.hpp"
#include <filesystem>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "pe/models/gguf_rope.hpp"
#include "pe/weights/byte_source.hpp"
#include "pe/weights/stored_matrix.hpp"

namespace pe {

class GgufWeights final : public TensorSource {
 public:
  // Maps and parses the file. Throws WeightsError naming the file (GgufError's message inside);
  // an architecture without RoPE is opened (rotary() false), not refused.
  static GgufWeights open(const std::filesystem::path& path);
  static GgufWeights from_source(std::shared_ptr<const ByteSource> bytes);

  // False for an architecture llama.cpp runs without RoPE (gpt2, bert, t5, bloom, ...): its
  // header is read (tensors, metadata) but config() has no RoPE configuration.
  bool rotary() const { return rotary_; }
  const GgufModelConfig& config() const { return config_; }
  const GgufFile& file() const { return config_.file; }

  std::string description() const override { return bytes_->name(); }
  const std::vector<std::string>& tensor_names() const override { return names_; }
  bool has_tensor(const std::string& name) const override;
  std::vector<std::uint64_t> tensor_shape(const std::string& name) const override;  // ne[0] first
  std::string file_of(const std::string&) const override { return bytes_->name(); }
  StoredMatrix matrix(const std::string& name) const override;
  bool gguf_names() const override { return true; }

 private:
  const GgufTensorInfo* find(const std::string& name) const;

  std::shared_ptr<const ByteSource> bytes_;
  GgufModelConfig config_;
  bool rotary_ = true;
  std::vector<std::string> names_;
  std::unordered_map<std::string, std::size_t> index_;  // name → position in file().tensors
};

}  // namespace pe
