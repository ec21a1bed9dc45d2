// An FP8 safetensors tensor and its block scales, paired as DeepSeek-V3/R1 and Kimi K2 store
// them (and transformers' FineGrainedFP8 reads them, integrations/finegrained_fp8.py): the
// scales of `W` are the tensor `W_scale_inv` ("…weight" → "…weight_scale_inv"), F32, of
// ceil(out / block_rows) × ceil(in / block_cols) factors, the block size from config.json's
// quantization_config.weight_block_size.
#include <algorithm>
#include <cctype>

#include "pe/weights/safetensors_checkpoint.hpp"
#include "pe/weights/weights_error.hpp"

namespace pe {

namespace {

std::string shape_text(const std::vector<std::uint64_t>& shape) {
  std::string s = "[";
  for (std::size_t k = 0; k < shape.size(); ++k) s += (k ? ", " : "") + std::to_string(shape[k]);
  return s + "]";
}

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

// The tensor's format must be the one the configuration declares (when it declares one):
// quant_method "fp8", fmt "e4m3" (also "e4m3fn") or "e5m2".
void check_declaration(const Fp8Quantization& q, const StoredMatrix& m) {
  const std::string config = q.config.empty() ? std::string("config.json") : q.config;
  const std::string dtype = m.format == StoredFormat::F8_E4M3 ? "F8_E4M3" : "F8_E5M2";
  if (!q.problem.empty())
    throw WeightsError(config, m.tensor, q.problem_key, q.problem + " (needed to read the " + dtype + " tensor " + m.tensor + ")");
  if (!q.declared) return;  // no quantization_config: DeepSeek's defaults
  if (!q.quant_method.empty() && q.quant_method != "fp8")
    throw WeightsError(config, m.tensor, "quantization_config.quant_method",
                       "\"" + q.quant_method + "\": the " + dtype + " tensor " + m.tensor +
                           " is read with block scales as quant_method \"fp8\" defines them; this method is not supported");
  if (q.fmt.empty()) return;
  const std::string fmt = lower(q.fmt);
  const bool e4m3 = fmt == "e4m3" || fmt == "e4m3fn", e5m2 = fmt == "e5m2";
  if (!e4m3 && !e5m2)
    throw WeightsError(config, m.tensor, "quantization_config.fmt", "\"" + q.fmt + "\" is not an FP8 format pe-viz reads (e4m3 or e5m2)");
  if (e4m3 != (m.format == StoredFormat::F8_E4M3))
    throw WeightsError(m.file, m.tensor,
                       "dtype " + dtype + " disagrees with the configuration's quantization_config.fmt \"" + q.fmt + "\" (" + config + ")");
}

}  // namespace

void SafetensorsCheckpoint::attach_scales(StoredMatrix& m) const {
  check_declaration(fp8_, m);
  const std::string dtype = m.format == StoredFormat::F8_E4M3 ? "F8_E4M3" : "F8_E5M2";
  const std::string scale_name = m.tensor + kScaleInvSuffix;
  if (!has_tensor(scale_name)) {
    std::string hint;
    const std::string stem = m.tensor.size() > 7 && m.tensor.compare(m.tensor.size() - 7, 7, ".weight") == 0
                                 ? m.tensor.substr(0, m.tensor.size() - 7)
                                 : m.tensor;
    for (const char* other : {".weight_scale", ".input_scale", ".scale"})
      if (hint.empty() && has_tensor(stem + other))
        hint = "; it has " + stem + other + " (a per-tensor scale as compressed-tensors and ModelOpt write them, not read)";
    throw WeightsError(m.file, m.tensor,
                       "an " + dtype + " weight needs its block scales, the tensor " + scale_name + ", which this checkpoint does not have" + hint);
  }
  const Shard& s = shard_of(scale_name);
  const SafetensorsTensor& t = *s.header->find(scale_name);
  BlockScales b;
  b.source = s.bytes;
  b.file = s.bytes->name();
  b.tensor = scale_name;
  b.offset = s.header->data_offset() + t.begin;
  switch (t.dtype) {
    case SafetensorsDtype::F32: b.format = StoredFormat::F32; break;
    case SafetensorsDtype::BF16: b.format = StoredFormat::BF16; break;
    case SafetensorsDtype::F16: b.format = StoredFormat::F16; break;
    case SafetensorsDtype::F8_E8M0: b.e8m0 = true; break;
    default:
      throw WeightsError(m.file, m.tensor,
                         "its scale tensor " + scale_name + " has dtype " + to_string(t.dtype) + " (scales are read as F32, BF16, F16 or F8_E8M0)");
  }
  // One factor per block; a whole-matrix block (weight_block_size null) may be stored as a scalar.
  const bool scalar = t.shape.empty() || (t.shape.size() == 1 && t.shape[0] == 1);
  if (t.shape.size() != 2 && !scalar)
    throw WeightsError(m.file, m.tensor, "its scale tensor " + scale_name + " has shape " + shape_text(t.shape) +
                                             ", not a 2-D grid of block scales [ceil(rows / block), ceil(columns / block)]");
  b.rows = scalar ? 1 : static_cast<long long>(std::min<std::uint64_t>(t.shape[0], std::uint64_t{1} << 40));
  b.cols = scalar ? 1 : static_cast<long long>(std::min<std::uint64_t>(t.shape[1], std::uint64_t{1} << 40));
  b.block_rows = fp8_.rows_per_block(m.rows);
  b.block_cols = fp8_.cols_per_block(m.cols);
  attach_block_scales(m, std::move(b));
}

}  // namespace pe
