#pragma once
// A weight matrix as stored in a file: rows × columns of one element format, each row
// `row_bytes` long, row r at offset + r·row_bytes of its ByteSource. For a Hugging Face
// Linear weight the rows are the output features (shape [out, in]); for GGUF they are ne[1]
// (ne[0], the fastest dimension, is the row). Only the rows asked for are read.
//
// An FP8 checkpoint's matrix also carries block scales (DeepSeek-V3/R1, Kimi K2; transformers
// FineGrainedFP8): a second tensor `<name>_scale_inv` of ceil(rows / block_rows) ×
// ceil(cols / block_cols) factors, and the value of element (r, c) is
//   stored(r, c) · scale_inv(r / block_rows, c / block_cols),
// multiplied in float as DeepSeek's inference/kernel.py weight_dequant and transformers'
// Fp8Dequantize do (the fp8 value converted to float32 first). The last block of a row or
// column may be partial (DeepSeek-V3's kv_a_proj_with_mqa has 576 rows: 4.5 blocks).
#include "pe/weights/module_guard.hpp"
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "pe/weights/byte_source.hpp"
#include "pe/weights/ggml_blocks.hpp"

namespace pe {

// The scale tensor of a block-scaled matrix: a grid of rows × cols factors stored in `format`
// (F32 as DeepSeek and transformers write them; BF16 or F16), or E8M0 powers of two (the
// "ue8m0" scale format transformers writes as float8_e8m0fnu).
struct BlockScales {
  std::shared_ptr<const ByteSource> source;  // may be another shard than the weight's
  std::string file, tensor;                  // for messages
  StoredFormat format = StoredFormat::F32;
  bool e8m0 = false;  // bytes are F8_E8M0 (2^(e − 127)); `format` is then ignored
  std::uint64_t offset = 0;  // of grid row 0 in source
  long long rows = 0, cols = 0;              // the grid
  long long block_rows = 0, block_cols = 0;  // matrix rows / columns per scale
  std::uint64_t row_bytes() const;
  // The grid rows the matrix rows [first, first + count) use, as a byte range of `source`.
  std::uint64_t byte_offset_of_rows(long long first) const;
  std::uint64_t bytes_of_rows(long long first, long long count) const;
};

struct StoredMatrix {
  std::shared_ptr<const ByteSource> source;
  std::string file;    // for messages
  std::string tensor;  // the tensor's name in the file
  StoredFormat format = StoredFormat::F32;
  std::uint64_t offset = 0;  // of row 0 in source
  long long rows = 0, cols = 0;
  std::uint64_t row_bytes = 0;
  std::optional<BlockScales> scales;  // FP8 block scales; none for the other formats

  std::uint64_t bytes() const { return static_cast<std::uint64_t>(rows) * row_bytes; }
};

// Row bytes of `cols` elements of `format`; throws WeightsError (naming file and tensor) when
// cols is not a whole number of blocks. Checks that rows × row_bytes from `offset` lies inside
// the source ("past the end of the file" otherwise).
StoredMatrix make_stored_matrix(std::shared_ptr<const ByteSource> source, std::string tensor, StoredFormat format,
                                std::uint64_t offset, long long rows, long long cols);

// Attaches `scales` to `m` after checking them: the grid must be ceil(rows / block_rows) ×
// ceil(cols / block_cols) (block sizes ≥ 1) and lie inside its source. Throws WeightsError
// naming both tensors otherwise.
void attach_block_scales(StoredMatrix& m, BlockScales scales);

// out[k] = Σ_c x[first_row + k][c]², in double from the stored values (decoded to float as
// the format defines, then squared and summed in double). Precondition: the rows exist.
void row_sum_squares(const StoredMatrix& m, long long first_row, long long count, double* out);
// One row's values as floats (cols of them), block scales applied.
std::vector<float> read_row(const StoredMatrix& m, long long row);

// A checkpoint as the q/k measure sees it: tensor names, and a tensor as a matrix.
class TensorSource {
 public:
  virtual ~TensorSource() = default;
  // What was opened, for FrequencyUsage::source and messages ("model.safetensors",
  // "DIR/model.safetensors.index.json (4 shards)", "model.gguf").
  virtual std::string description() const = 0;
  virtual const std::vector<std::string>& tensor_names() const = 0;
  virtual bool has_tensor(const std::string& name) const = 0;
  // The tensor's shape in the file's own order (safetensors: row-major [out, in]; GGUF:
  // ne[0] first). Throws WeightsError (missing tensor or shard).
  virtual std::vector<std::uint64_t> tensor_shape(const std::string& name) const = 0;
  // The file holding the tensor, as messages name it (a shard's path; opens the shard).
  virtual std::string file_of(const std::string& name) const = 0;
  // A 2-D tensor as rows × columns (Hugging Face [out, in]; GGUF ne[1] × ne[0]). Throws
  // WeightsError naming file and tensor: missing, not 2-D, a format it cannot decode, data
  // past the end of the file.
  virtual StoredMatrix matrix(const std::string& name) const = 0;
  // A tensor read as a table of rows (the position tensors, pe/weights/position_tensors.hpp):
  // what matrix() gives, and where the format has them, tensors whose leading dimensions are 1
  // (ViT's position_embeddings Parameter [1, patches + 1, hidden]) and vectors (one row).
  virtual StoredMatrix table(const std::string& name) const { return matrix(name); }
  // True for llama.cpp's names (blk.N.attn_q.weight), false for Hugging Face's.
  virtual bool gguf_names() const = 0;
};

}  // namespace pe
