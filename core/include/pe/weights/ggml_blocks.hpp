#pragma once
// The tensor element formats the weights reader decodes: plain F32 / F16 / BF16, ggml's block
// quantisations, and the 8-bit floats of FP8 safetensors checkpoints. Each format stores a row
// as blocks of `block_elements` values in `block_bytes` bytes; element k of a block is element
// k along the row (ne[0]). The ggml layouts, written from the format description
// (ggml/src/ggml-common.h block_* structs and their static_asserts; the formulas of
// ggml-quants.c dequantize_row_*). Every multi-byte field is little-endian; d, dmin and m are
// IEEE binary16. "Nibble pairs" below: byte j of the quants holds element j in its low nibble
// and element j + 16 in its high nibble.
//   Q4_0    18 B / 32:  d | qs[16]                       y = d·(q − 8), q 4 bits (nibble pairs)
//   Q4_1    20 B / 32:  d | m | qs[16]                   y = d·q + m,   q 4 bits (nibble pairs)
//   Q5_0    22 B / 32:  d | qh[4] | qs[16]               y = d·(q − 16), q 5 bits: nibble pairs,
//                                                        the 5th bit of element k is bit k of qh (u32)
//   Q5_1    24 B / 32:  d | m | qh[4] | qs[16]           y = d·q + m,   q as Q5_0's
//   Q8_0    34 B / 32:  d | qs[32] int8                  y = d·q
//   IQ4_NL  18 B / 32:  d | qs[16]                       y = d·kvalues_iq4nl[q], q 4 bits (nibble pairs)
//   Q2_K    84 B / 256: scales[16] | qs[64] | d | dmin   16 sub-blocks of 16, scales[k/16] = sc | m << 4
//                                                        (4 bits each); y = d·sc·q − dmin·m, q 2 bits
//   Q3_K   110 B / 256: hmask[32] | qs[64] | scales[12] | d   16 sub-blocks of 16 with 6-bit scales;
//                                                        y = d·(sc − 32)·q, q = 2 low bits + a high
//                                                        bit, minus 4 when that bit is clear (−4 ... 3)
//   Q4_K   144 B / 256: d | dmin | scales[12] | qs[128]  8 sub-blocks of 32, each with a 6-bit
//                                                        scale sc and min m;  y = d·sc·q − dmin·m, q 4 bits
//   Q5_K   176 B / 256: d | dmin | scales[12] | qh[32] | qs[128]   as Q4_K with a 5th bit from qh
//   Q6_K   210 B / 256: ql[128] | qh[64] | scales[16] int8 | d   16 sub-blocks of 16;
//                                                        y = d·scales[k/16]·(q − 32), q 6 bits (4 from ql, 2 from qh)
//   IQ4_XS 136 B / 256: d | scales_h (u16) | scales_l[4] | qs[128]   8 sub-blocks of 32 with 6-bit
//                                                        scales; y = d·(sc − 32)·kvalues_iq4nl[q] (nibble pairs)
// kvalues_iq4nl, the non-linear 4-bit codebook of IQ4_NL and IQ4_XS as ggml publishes it:
// −127, −104, −83, −65, −49, −35, −22, −10, 1, 13, 25, 38, 53, 69, 89, 113.
// The exact bit positions are spelled out beside each decoder. Values are computed in float,
// in the order ggml's reference dequantisation multiplies them (d·sc first), so they are the
// values llama.cpp itself works with.
//   F8_E4M3, F8_E5M2  1 B / 1: pe/weights/float8.hpp. Safetensors only (no ggml type); their
//                     block scales are the StoredMatrix's, not the format's.
#include "pe/weights/module_guard.hpp"
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

namespace pe {

enum class StoredFormat {
  F32, F16, BF16, Q8_0, Q4_0, Q4_1, Q5_0, Q5_1, IQ4_NL, Q2_K, Q3_K, Q4_K, Q5_K, Q6_K, IQ4_XS, F8_E4M3, F8_E5M2,
};

inline constexpr std::uint32_t kNoGgmlType = 0xFFFFFFFFu;  // a format GGUF files do not use

struct StoredFormatInfo {
  StoredFormat format;
  const char* name;              // ggml's ("f32", "bf16", "q4_K", "iq4_xs", ...; "f8_e4m3" for FP8)
  std::uint32_t ggml_type;       // ggml.h enum ggml_type (0, 1, 30, 8, 2, 3, 6, ...); kNoGgmlType for FP8
  std::uint32_t block_elements;  // 1 for the plain types
  std::uint32_t block_bytes;
};
const StoredFormatInfo& format_info(StoredFormat format);
const char* to_string(StoredFormat format);
// The format of a ggml type number, nullopt for the types this reader does not decode.
std::optional<StoredFormat> stored_format_of_ggml_type(std::uint32_t ggml_type);
// The ggml types decoded, for messages: "f32, f16, bf16, q8_0, q4_0, q4_1, ...".
std::string stored_format_list();

// IEEE 754 binary16 and bfloat16 to float (exact: every value, subnormals, inf and NaN).
float half_to_float(std::uint16_t bits);
float bf16_to_float(std::uint16_t bits);

// Decodes `blocks` consecutive blocks starting at `src` (block_bytes each, no alignment
// needed) into blocks·block_elements floats at `out`.
void decode_blocks(StoredFormat format, const std::uint8_t* src, std::size_t blocks, float* out);

}  // namespace pe
