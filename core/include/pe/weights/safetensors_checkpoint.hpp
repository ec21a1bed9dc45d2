#pragma once
// A Hugging Face checkpoint in safetensors: one file, or shards listed by
// model.safetensors.index.json ({"metadata": {...}, "weight_map": {tensor: shard file}};
// huggingface_hub split_torch_state_dict_into_shards). Each shard is a complete safetensors
// file with offsets of its own. Shards are opened (mapped, header parsed) the first time one
// of their tensors is asked for, so a tensor in a missing shard is an error naming both, and
// shards that hold no q/k weights are never read.
#include "pe/weights/module_guard.hpp"
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "pe/weights/byte_source.hpp"
#include "pe/weights/fp8_quantization.hpp"
#include "pe/weights/safetensors.hpp"
#include "pe/weights/stored_matrix.hpp"

namespace pe {

inline constexpr const char* kSafetensorsIndexName = "model.safetensors.index.json";
inline constexpr const char* kSafetensorsSingleName = "model.safetensors";

class SafetensorsCheckpoint final : public TensorSource {
 public:
  // `path` is a .safetensors file, a *.safetensors.index.json, or a folder holding
  // model.safetensors.index.json or model.safetensors (else the one *.safetensors file in
  // it). Throws WeightsError naming the path.
  static SafetensorsCheckpoint open(const std::filesystem::path& path);
  // One file already in memory (or mapped by the caller).
  static SafetensorsCheckpoint single(std::shared_ptr<const ByteSource> file);
  // Sharded, from the index's text; `open_shard` returns a shard's bytes by the name the
  // weight_map gives (nullptr: missing). `index_name` names the index in messages.
  using ShardOpener = std::function<std::shared_ptr<const ByteSource>(const std::string& shard)>;
  static SafetensorsCheckpoint sharded(const std::string& index_json, const std::string& index_name, ShardOpener open_shard);

  std::string description() const override { return description_; }
  const std::vector<std::string>& tensor_names() const override { return names_; }
  bool has_tensor(const std::string& name) const override;
  std::vector<std::uint64_t> tensor_shape(const std::string& name) const override;
  std::string file_of(const std::string& name) const override;
  // F32, F16 and BF16 tensors, and F8_E4M3 / F8_E5M2 ones with their block scales
  // (`name` + "_scale_inv", in any shard; fp8_quantization.hpp). Others (I8, I32, F8_E4M3FNUZ,
  // ...) are a WeightsError naming the dtype; so is an FP8 tensor whose scales are missing or
  // misshapen (naming both tensors), or whose config's quantization_config does not fit it.
  StoredMatrix matrix(const std::string& name) const override;
  // matrix(), also for [1, ..., 1, rows, cols] and a vector [n] (one row of n).
  StoredMatrix table(const std::string& name) const override;
  bool gguf_names() const override { return false; }

  // The config.json's quantization_config, for FP8 tensors (default: none declared, blocks
  // of 128 × 128).
  void set_fp8_quantization(Fp8Quantization q) { fp8_ = std::move(q); }
  const Fp8Quantization& fp8_quantization() const { return fp8_; }

  // The header of the file holding `name` (opening its shard). Throws WeightsError.
  const SafetensorsHeader& header_of(const std::string& name) const;
  // Shard file names, in weight_map order of first appearance (one entry for a single file).
  std::vector<std::string> files() const;
  // Opens shard `shard` (a position in files()) and returns its header. Throws WeightsError.
  const SafetensorsHeader& shard_header(std::size_t shard) const;
  std::size_t shards_opened() const;

 private:
  struct Shard {
    std::string name;  // as weight_map names it (or the file's name)
    std::shared_ptr<const ByteSource> bytes;
    std::optional<SafetensorsHeader> header;
  };
  const Shard& shard_of(const std::string& tensor) const;
  void attach_scales(StoredMatrix& m) const;
  StoredMatrix matrix_of(const std::string& name, bool any_table) const;
  const Shard& opened(std::size_t shard, const std::string& tensor) const;  // opens it if need be

  std::string description_;
  std::string index_name_;  // "" for a single file
  std::vector<std::string> names_;
  std::map<std::string, std::size_t> shard_index_;  // tensor → shards_ position
  // Shards open lazily (const accessors fill them); not safe to share between threads
  // while opening.
  mutable std::vector<Shard> shards_;
  ShardOpener open_shard_;
  Fp8Quantization fp8_;
};

}  // namespace pe
