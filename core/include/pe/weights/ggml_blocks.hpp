#pragma once
// ggml's tensor element formats that the weights reader decodes: plain F32 / F16 / BF16
// and the block quantisations Q8_0, Q4_0, Q4_K, Q5_K, Q6_K. Each format stores a row as
// blocks of `block_elements` values in `block_bytes` bytes; element k of a block is element
// k along the row (ne[0]). The layouts, written from the format description
// (ggml/src/ggml-common.h block_q*; every multi-byte field little-endian, d / dmin IEEE
// binary16):
//   Q8_0  34 B / 32:  d | qs[32] int8                   y[k] = d·qs[k]
//   Q4_0  18 B / 32:  d | qs[16]                        y[k] = d·((qs[k] & 15) − 8),
//                                                       y[k+16] = d·((qs[k] >> 4) − 8), k < 16
//   Q4_K 144 B / 256: d | dmin | scales[12] | qs[128]   8 sub-blocks of 32, each with a 6-bit
//                     scale sc and min m;  y = d·sc·q − dmin·m, q a 4-bit value
//   Q5_K 176 B / 256: d | dmin | scales[12] | qh[32] | qs[128]   as Q4_K with a 5th bit from qh
//   Q6_K 210 B / 256: ql[128] | qh[64] | scales[16] int8 | d   16 sub-blocks of 16;
//                     y = d·scales[k/16]·(q − 32), q 6 bits (4 from ql, 2 from qh)
// The exact bit positions are spelled out beside each decoder in ggml_blocks.cpp. Values
// are computed in float, in the order ggml's reference dequantisation multiplies them
// (d·sc first), so they are the values llama.cpp itself works with.
#include "pe/weights/module_guard.hpp"
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

namespace pe {

enum class StoredFormat { F32, F16, BF16, Q8_0, Q4_0, Q4_K, Q5_K, Q6_K };

struct StoredFormatInfo {
  StoredFormat format;
  const char* name;              // ggml's ("f32", "bf16", "q4_K", ...)
  std::uint32_t ggml_type;       // ggml.h enum ggml_type (0, 1, 30, 8, 2, 12, 13, 14)
  std::uint32_t block_elements;  // 1 for the plain types
  std::uint32_t block_bytes;
};
const StoredFormatInfo& format_info(StoredFormat format);
const char* to_string(StoredFormat format);
// The format of a ggml type number, nullopt for the types this reader does not decode.
std::optional<StoredFormat> stored_format_of_ggml_type(std::uint32_t ggml_type);
// "f32, f16, bf16, q8_0, q4_0, q4_K, q5_K, q6_K" for messages.
std::string stored_format_list();

// IEEE 754 binary16 and bfloat16 to float (exact: every value, subnormals, inf and NaN).
float half_to_float(std::uint16_t bits);
float bf16_to_float(std::uint16_t bits);

// Decodes `blocks` consecutive blocks starting at `src` (block_bytes each, no alignment
// needed) into blocks·block_elements floats at `out`.
void decode_blocks(StoredFormat format, const std::uint8_t* src, std::size_t blocks, float* out);

}  // namespace pe
