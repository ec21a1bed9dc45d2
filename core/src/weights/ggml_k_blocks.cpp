// ggml's super-block formats (256 elements a block): the K-quants and IQ4_XS, written from the
// block layouts (ggml/src/ggml-common.h block_q2_K ... block_iq4_xs) and the dequantisation
// formulas (ggml-quants.c dequantize_row_*); no ggml code is used. Within a block, element k
// is the k-th value along the row. Several formats walk a block as two halves of 128, each
// four groups of 32 sharing a byte per element: element k = 128·h + 32·c + l (h = 0, 1;
// c = 0 ... 3; l = 0 ... 31) takes bits 2c and 2c + 1 of byte 32·h + l of its 2-bit array.
#include "ggml_block_decoders.hpp"

namespace pe::detail {

namespace {

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
  const float d = half_le(b), dmin = half_le(b + 2);
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

// Q3_K's sixteen 6-bit scales in 12 bytes: the low 4 bits of scale s in byte s (s < 8, low
// nibble) or byte s − 8 (s ≥ 8, high nibble); its top 2 bits in bits 2·(s/4), 2·(s/4) + 1 of
// byte 8 + s % 4. The scale is stored with an offset of 32.
int q3_k_scale(const std::uint8_t* s, int j) {
  const int low = j < 8 ? (s[j] & 0x0F) : (s[j - 8] >> 4);
  const int high = (s[8 + j % 4] >> (2 * (j / 4))) & 3;
  return (low | (high << 4)) - 32;
}

}  // namespace

// block_q2_K: scales[16] at 0, qs[64] at 16, d at 80, dmin at 82. Element k's 2 bits lie as
// the file header says (byte 32·h + l of qs, bits 2c); sub-block k/16's byte holds its 4-bit
// scale (low nibble) and 4-bit min (high nibble). Walked by sub-block so each scale is
// computed once: sub-block 8h + 2c + half covers l = 16·half ... 16·half + 15.
void decode_q2_k(const std::uint8_t* b, float* y) {
  const std::uint8_t* scales = b;
  const std::uint8_t* qs = b + 16;
  const float d = half_le(b + 80), dmin = half_le(b + 82);
  for (int s = 0; s < 16; ++s) {
    const int h = s / 8, c = (s % 8) / 2, first = 16 * (s % 2);
    const float dl = d * static_cast<float>(scales[s] & 0x0F), ml = dmin * static_cast<float>(scales[s] >> 4);
    const std::uint8_t* q = qs + 32 * h + first;
    float* out = y + 16 * s;
    for (int l = 0; l < 16; ++l) out[l] = dl * static_cast<float>((q[l] >> (2 * c)) & 3) - ml;
  }
}

// block_q3_K: hmask[32] at 0, qs[64] at 32, scales[12] at 96, d at 108. Element k's low 2
// bits lie as the file header says; its high bit is bit 4·h + c of hmask[l] and, when clear,
// 4 is subtracted (the quant is −4 ... 3). Sub-block k/16 scales it by d·(scale − 32).
void decode_q3_k(const std::uint8_t* b, float* y) {
  const std::uint8_t* hmask = b;
  const std::uint8_t* qs = b + 32;
  const std::uint8_t* scales = b + 96;
  const float d = half_le(b + 108);
  for (int s = 0; s < 16; ++s) {
    const int h = s / 8, c = (s % 8) / 2, first = 16 * (s % 2);
    const float dl = d * static_cast<float>(q3_k_scale(scales, s));
    const std::uint8_t* q = qs + 32 * h + first;
    const std::uint8_t* hm = hmask + first;
    const int bit = 4 * h + c;
    float* out = y + 16 * s;
    for (int l = 0; l < 16; ++l) out[l] = dl * static_cast<float>(((q[l] >> (2 * c)) & 3) - (((hm[l] >> bit) & 1) ? 0 : 4));
  }
}

void decode_q4_k(const std::uint8_t* b, float* y) { decode_k4_or_k5(b, y, false); }
void decode_q5_k(const std::uint8_t* b, float* y) { decode_k4_or_k5(b, y, true); }

// block_q6_K: ql[128] at 0, qh[64] at 128, int8 scales[16] at 192, d at 208. The block is two
// halves of 128; in half h, element 32·c + l (c = 0..3, l = 0..31) takes its low 4 bits from
// ql[64h + 32·(c & 1) + l] (low nibble for c < 2, high for c ≥ 2) and its top 2 bits from
// bits 2c, 2c+1 of qh[32h + l]; the 6-bit value is stored with an offset of 32, and element
// k is scaled by scales[k / 16].
void decode_q6_k(const std::uint8_t* b, float* y) {
  const std::uint8_t* ql = b;
  const std::uint8_t* qh = b + 128;
  const std::uint8_t* scales = b + 192;
  const float d = half_le(b + 208);
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

// block_iq4_xs: d at 0, scales_h (u16) at 2, scales_l[4] at 4, qs[128] at 8. Sub-block j (32
// elements): its 6-bit scale has the low 4 bits in scales_l[j/2] (low nibble for even j, high
// for odd) and the top 2 in bits 2j, 2j + 1 of scales_h, stored with an offset of 32; its
// quants are the nibble pairs of qs[16·j ...], each an index into kvalues_iq4nl.
void decode_iq4_xs(const std::uint8_t* b, float* y) {
  const float d = half_le(b);
  const unsigned scales_h = u16_le(b + 2);
  const std::uint8_t* scales_l = b + 4;
  const std::uint8_t* qs = b + 8;
  for (int j = 0; j < 8; ++j) {
    const int low = (scales_l[j / 2] >> (4 * (j % 2))) & 0x0F;
    const int high = static_cast<int>((scales_h >> (2 * j)) & 3u);
    const float dl = d * static_cast<float>((low | (high << 4)) - 32);
    const std::uint8_t* q = qs + 16 * j;
    for (int l = 0; l < 16; ++l) {
      y[32 * j + l] = dl * static_cast<float>(kIq4nlLevels[q[l] & 0x0F]);
      y[32 * j + l + 16] = dl * static_cast<float>(kIq4nlLevels[q[l] >> 4]);
    }
  }
}

}  // namespace pe::detail
