// ggml block decoders, written from the block layouts (ggml/src/ggml-common.h, the
// block_q* structs and their static_asserts on the sizes) and the dequantisation formulas
// as described in the project's research notes; no ggml code is used. Within a block,
// element k is the k-th value along the row.
#include "pe/weights/ggml_blocks.hpp"

#include <array>
#include <cmath>
#include <cstring>

namespace pe {

namespace {

constexpr std::array<StoredFormatInfo, 8> kFormats = {{
    {StoredFormat::F32, "f32", 0, 1, 4},
    {StoredFormat::F16, "f16", 1, 1, 2},
    {StoredFormat::BF16, "bf16", 30, 1, 2},
    {StoredFormat::Q8_0, "q8_0", 8, 32, 34},
    {StoredFormat::Q4_0, "q4_0", 2, 32, 18},
    {StoredFormat::Q4_K, "q4_K", 12, 256, 144},
    {StoredFormat::Q5_K, "q5_K", 13, 256, 176},
    {StoredFormat::Q6_K, "q6_K", 14, 256, 210},
}};

std::uint16_t u16_at(const std::uint8_t* p) { return static_cast<std::uint16_t>(p[0] | (p[1] << 8)); }
float half_at(const std::uint8_t* p) { return half_to_float(u16_at(p)); }

float bits_to_float(std::uint32_t bits) {
  float f;
  std::memcpy(&f, &bits, sizeof f);  // std::bit_cast is missing from the browser build's libc++
  return f;
}

void decode_f32(const std::uint8_t* src, std::size_t n, float* out) { std::memcpy(out, src, n * sizeof(float)); }

void decode_f16(const std::uint8_t* src, std::size_t n, float* out) {
  for (std::size_t k = 0; k < n; ++k) out[k] = half_at(src + 2 * k);
}

void decode_bf16(const std::uint8_t* src, std::size_t n, float* out) {
  for (std::size_t k = 0; k < n; ++k) out[k] = bf16_to_float(u16_at(src + 2 * k));
}

// block_q8_0: d (f16) at 0, 32 int8 quants at 2.
void decode_q8_0(const std::uint8_t* b, float* y) {
  const float d = half_at(b);
  for (int k = 0; k < 32; ++k) y[k] = static_cast<float>(static_cast<std::int8_t>(b[2 + k])) * d;
}

// block_q4_0: d (f16) at 0, 16 bytes at 2; byte k holds element k in its low nibble and
// element k + 16 in its high nibble, each stored with an offset of 8.
void decode_q4_0(const std::uint8_t* b, float* y) {
  const float d = half_at(b);
  const std::uint8_t* qs = b + 2;
  for (int k = 0; k < 16; ++k) {
    y[k] = static_cast<float>((qs[k] & 0x0F) - 8) * d;
    y[k + 16] = static_cast<float>((qs[k] >> 4) - 8) * d;
  }
}

// The 12 scale bytes of Q4_K / Q5_K hold eight 6-bit scales and eight 6-bit mins. Bytes 0-3:
// scales 0-3 in their low 6 bits, the top 2 bits of scales 4-7 above them; bytes 4-7: the
// same for the mins; bytes 8-11: the low 4 bits of scale 4+j (low nibble) and of min 4+j
// (high nibble).
void scale_and_min(const std::uint8_t* s, int j, int& scale, int& min) {
  if (j < 4) {
    scale = s[j] & 63;
    min = s[j + 4] & 63;
  } else {
    scale = (s[j + 4] & 0x0F) | ((s[j - 4] >> 6) << 4);
    min = (s[j + 4] >> 4) | ((s[j] >> 6) << 4);
  }
}

// block_q4_K: d at 0, dmin at 2, scales[12] at 4, qs[128] at 16. Sub-block j (32 elements)
// takes its 4-bit values from qs[32·(j/2) ...]: low nibbles for even j, high for odd j.
// block_q5_K: d, dmin, scales[12], then qh[32] at 16 and qs[128] at 48; bit j of qh[l] is
// the fifth bit of element 32·j + l.
void decode_k4_or_k5(const std::uint8_t* b, float* y, bool five_bits) {
  const float d = half_at(b), dmin = half_at(b + 2);
  const std::uint8_t* scales = b + 4;
  const std::uint8_t* qh = b + 16;
  const std::uint8_t* qs = b + (five_bits ? 48 : 16);
  for (int j = 0; j < 8; ++j) {
    int sc = 0, m = 0;
    scale_and_min(scales, j, sc, m);
    const float d1 = d * static_cast<float>(sc), m1 = dmin * static_cast<float>(m);
    const std::uint8_t* q = qs + 32 * (j / 2);
    const int shift = (j % 2) * 4;
    for (int l = 0; l < 32; ++l) {
      int v = (q[l] >> shift) & 0x0F;
      if (five_bits) v |= ((qh[l] >> j) & 1) << 4;
      y[32 * j + l] = d1 * static_cast<float>(v) - m1;
    }
  }
}

// block_q6_K: ql[128] at 0, qh[64] at 128, int8 scales[16] at 192, d at 208. The block is two
// halves of 128; in half h, element 32·c + l (c = 0..3, l = 0..31) takes its low 4 bits from
// ql[64h + 32·(c & 1) + l] (low nibble for c < 2, high for c ≥ 2) and its top 2 bits from
// bits 2c, 2c+1 of qh[32h + l]; the 6-bit value is stored with an offset of 32, and element
// k is scaled by scales[k / 16].
void decode_q6_k(const std::uint8_t* b, float* y) {
  const std::uint8_t* ql = b;
  const std::uint8_t* qh = b + 128;
  const std::uint8_t* scales = b + 192;
  const float d = half_at(b + 208);
  for (int h = 0; h < 2; ++h) {
    for (int c = 0; c < 4; ++c) {
      for (int l = 0; l < 32; ++l) {
        const int k = 128 * h + 32 * c + l;
        const std::uint8_t low_byte = ql[64 * h + 32 * (c & 1) + l];
        const int low = c < 2 ? (low_byte & 0x0F) : (low_byte >> 4);
        const int high = (qh[32 * h + l] >> (2 * c)) & 3;
        const float ds = d * static_cast<float>(static_cast<std::int8_t>(scales[k / 16]));
        y[k] = ds * static_cast<float>((low | (high << 4)) - 32);
      }
    }
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
  for (const auto& f : kFormats)
    if (f.ggml_type == ggml_type) return f.format;
  return std::nullopt;
}

std::string stored_format_list() {
  std::string out;
  for (const auto& f : kFormats) out += (out.empty() ? "" : ", ") + std::string(f.name);
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
    default: break;
  }
  for (std::size_t b = 0; b < blocks; ++b) {
    const std::uint8_t* block = src + b * f.block_bytes;
    float* y = out + b * f.block_elements;
    switch (format) {
      case StoredFormat::Q8_0: decode_q8_0(block, y); break;
      case StoredFormat::Q4_0: decode_q4_0(block, y); break;
      case StoredFormat::Q4_K: decode_k4_or_k5(block, y, false); break;
      case StoredFormat::Q5_K: decode_k4_or_k5(block, y, true); break;
      case StoredFormat::Q6_K: decode_q6_k(block, y); break;
      default: break;
    }
  }
}

}  // namespace pe
