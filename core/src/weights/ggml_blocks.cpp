// The format table, the plain formats and ggml's blocks of 32 (Q4_0, Q4_1, Q5_0, Q5_1, Q8_0,
// IQ4_NL), written from the block layouts (ggml/src/ggml-common.h, the block_* structs and
// their static_asserts on the sizes) and the dequantisation formulas (ggml-quants.c
// dequantize_row_*); no ggml code is used. The super-blocks of 256 are in ggml_k_blocks.cpp.
// Within a block, element k is the k-th value along the row.
#include "pe/weights/ggml_blocks.hpp"

#include <array>
#include <cmath>
#include <cstring>

#include "ggml_block_decoders.hpp"
#include "pe/weights/float8.hpp"

namespace pe {

namespace {

using detail::half_le;
using detail::u16_le;

// ggml.h enum ggml_type numbers; block sizes as ggml-common.h static_asserts them.
constexpr std::array<StoredFormatInfo, 17> kFormats = {{
    {StoredFormat::F32, "f32", 0, 1, 4},
    {StoredFormat::F16, "f16", 1, 1, 2},
    {StoredFormat::BF16, "bf16", 30, 1, 2},
    {StoredFormat::Q8_0, "q8_0", 8, 32, 34},
    {StoredFormat::Q4_0, "q4_0", 2, 32, 18},
    {StoredFormat::Q4_1, "q4_1", 3, 32, 20},
    {StoredFormat::Q5_0, "q5_0", 6, 32, 22},
    {StoredFormat::Q5_1, "q5_1", 7, 32, 24},
    {StoredFormat::IQ4_NL, "iq4_nl", 20, 32, 18},
    {StoredFormat::Q2_K, "q2_K", 10, 256, 84},
    {StoredFormat::Q3_K, "q3_K", 11, 256, 110},
    {StoredFormat::Q4_K, "q4_K", 12, 256, 144},
    {StoredFormat::Q5_K, "q5_K", 13, 256, 176},
    {StoredFormat::Q6_K, "q6_K", 14, 256, 210},
    {StoredFormat::IQ4_XS, "iq4_xs", 23, 256, 136},
    {StoredFormat::F8_E4M3, "f8_e4m3", kNoGgmlType, 1, 1},
    {StoredFormat::F8_E5M2, "f8_e5m2", kNoGgmlType, 1, 1},
}};

float bits_to_float(std::uint32_t bits) {
  float f;
  std::memcpy(&f, &bits, sizeof f);  // std::bit_cast is missing from the browser build's libc++
  return f;
}

void decode_f32(const std::uint8_t* src, std::size_t n, float* out) { std::memcpy(out, src, n * sizeof(float)); }

void decode_f16(const std::uint8_t* src, std::size_t n, float* out) {
  for (std::size_t k = 0; k < n; ++k) out[k] = half_le(src + 2 * k);
}

void decode_bf16(const std::uint8_t* src, std::size_t n, float* out) {
  for (std::size_t k = 0; k < n; ++k) out[k] = bf16_to_float(u16_le(src + 2 * k));
}

void decode_f8(const std::array<float, 256>& table, const std::uint8_t* src, std::size_t n, float* out) {
  for (std::size_t k = 0; k < n; ++k) out[k] = table[src[k]];
}

// block_q8_0: d (f16) at 0, 32 int8 quants at 2.
void decode_q8_0(const std::uint8_t* b, float* y) {
  const float d = half_le(b);
  for (int k = 0; k < 32; ++k) y[k] = static_cast<float>(static_cast<std::int8_t>(b[2 + k])) * d;
}

// The 32 quants of a block of 32 as nibble pairs: byte j of `qs` holds element j in its low
// nibble and element j + 16 in its high nibble. `qh`, when given, is the 4-byte little-endian
// word whose bit k is the fifth bit of element k (Q5_0 / Q5_1).
void nibble_pairs(const std::uint8_t* qs, const std::uint8_t* qh, int* q) {
  const std::uint32_t high = qh ? static_cast<std::uint32_t>(qh[0] | (qh[1] << 8) | (qh[2] << 16)) | (std::uint32_t{qh[3]} << 24) : 0;
  for (int j = 0; j < 16; ++j) {
    q[j] = (qs[j] & 0x0F) | static_cast<int>(((high >> j) & 1u) << 4);
    q[j + 16] = (qs[j] >> 4) | static_cast<int>(((high >> (j + 16)) & 1u) << 4);
  }
}

// block_q4_0: d at 0, qs[16] at 2, each quant stored with an offset of 8.
// block_q5_0: d at 0, qh[4] at 2, qs[16] at 6, offset 16.
void decode_offset_block(const std::uint8_t* b, float* y, bool five_bits) {
  const float d = half_le(b);
  int q[32];
  nibble_pairs(b + (five_bits ? 6 : 2), five_bits ? b + 2 : nullptr, q);
  const int offset = five_bits ? 16 : 8;
  for (int k = 0; k < 32; ++k) y[k] = static_cast<float>(q[k] - offset) * d;
}

// block_q4_1: d at 0, m at 2, qs[16] at 4. block_q5_1: d, m, qh[4] at 4, qs[16] at 8.
// y = q·d + m (a scale and a minimum, no offset).
void decode_min_block(const std::uint8_t* b, float* y, bool five_bits) {
  const float d = half_le(b), m = half_le(b + 2);
  int q[32];
  nibble_pairs(b + (five_bits ? 8 : 4), five_bits ? b + 4 : nullptr, q);
  for (int k = 0; k < 32; ++k) y[k] = static_cast<float>(q[k]) * d + m;
}

// block_iq4_nl: d at 0, qs[16] at 2; each nibble indexes kvalues_iq4nl.
void decode_iq4_nl(const std::uint8_t* b, float* y) {
  const float d = half_le(b);
  int q[32];
  nibble_pairs(b + 2, nullptr, q);
  for (int k = 0; k < 32; ++k) y[k] = d * static_cast<float>(detail::kIq4nlLevels[static_cast<std::size_t>(q[k])]);
}

void decode_block(StoredFormat format, const std::uint8_t* block, float* y) {
  switch (format) {
    case StoredFormat::Q8_0: return decode_q8_0(block, y);
    case StoredFormat::Q4_0: return decode_offset_block(block, y, false);
    case StoredFormat::Q5_0: return decode_offset_block(block, y, true);
    case StoredFormat::Q4_1: return decode_min_block(block, y, false);
    case StoredFormat::Q5_1: return decode_min_block(block, y, true);
    case StoredFormat::IQ4_NL: return decode_iq4_nl(block, y);
    case StoredFormat::Q2_K: return detail::decode_q2_k(block, y);
    case StoredFormat::Q3_K: return detail::decode_q3_k(block, y);
    case StoredFormat::Q4_K: return detail::decode_q4_k(block, y);
    case StoredFormat::Q5_K: return detail::decode_q5_k(block, y);
    case StoredFormat::Q6_K: return detail::decode_q6_k(block, y);
    case StoredFormat::IQ4_XS: return detail::decode_iq4_xs(block, y);
    default: return;
  }
}

}  // namespace

const StoredFormatInfo& format_info(StoredFormat format) {
  for (const auto& f : kFormats)
    if (f.format == format) return f;
  return kFormats[0];
}

const char* to_string(StoredFormat format) { return format_info(format).name; }

std::optional<StoredFormat> stored_format_of_ggml_type(std::uint32_t ggml_type) {
  if (ggml_type == kNoGgmlType) return std::nullopt;
  for (const auto& f : kFormats)
    if (f.ggml_type == ggml_type) return f.format;
  return std::nullopt;
}

std::string stored_format_list() {
  std::string out;
  for (const auto& f : kFormats)
    if (f.ggml_type != kNoGgmlType) out += (out.empty() ? "" : ", ") + std::string(f.name);
  return out;
}

float half_to_float(std::uint16_t h) {
  const std::uint32_t sign = static_cast<std::uint32_t>(h & 0x8000u) << 16;
  const std::uint32_t exponent = (h >> 10) & 0x1Fu;
  const std::uint32_t mantissa = h & 0x3FFu;
  if (exponent == 0) {  // zero and subnormals: mantissa · 2^-24, exact in float
    const float m = std::ldexp(static_cast<float>(mantissa), -24);
    return sign ? -m : m;
  }
  if (exponent == 31) return bits_to_float(sign | 0x7F800000u | (mantissa << 13));  // inf, NaN
  return bits_to_float(sign | ((exponent + 112) << 23) | (mantissa << 13));  // rebias 15 → 127
}

// bfloat16 is the upper half of a binary32 (ggml-impl.h ggml_compute_bf16_to_fp32).
float bf16_to_float(std::uint16_t bits) { return bits_to_float(static_cast<std::uint32_t>(bits) << 16); }

void decode_blocks(StoredFormat format, const std::uint8_t* src, std::size_t blocks, float* out) {
  const StoredFormatInfo& f = format_info(format);
  switch (format) {
    case StoredFormat::F32: return decode_f32(src, blocks, out);
    case StoredFormat::F16: return decode_f16(src, blocks, out);
    case StoredFormat::BF16: return decode_bf16(src, blocks, out);
    case StoredFormat::F8_E4M3: return decode_f8(e4m3_table(), src, blocks, out);
    case StoredFormat::F8_E5M2: return decode_f8(e5m2_table(), src, blocks, out);
    default: break;
  }
  for (std::size_t b = 0; b < blocks; ++b) decode_block(format, src + b * f.block_bytes, out + b * f.block_elements);
}

}  // namespace pe
