// ggml block decoding (pe/weights/ggml_blocks.hpp). Two independent checks per format:
//  1. hand-checkable blocks whose outputs were produced by ggml's own dequantize_row_*
//     functions (the project's research notes, "Hand-checkable vectors"), built here byte by
//     byte exactly as described there (Q4_1, Q5_0, Q5_1, IQ4_NL, Q2_K, Q3_K and IQ4_XS: worked
//     out by hand from the layout and formula, the arithmetic beside each test);
//  2. random blocks packed by weights_test_writer.hpp from their parts, against the values
//     the documented formula gives in double.
// And every binary16 bit pattern against the IEEE 754 formula, bfloat16 as a float's top half.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "pe/weights/ggml_blocks.hpp"
#include "weights_test_writer.hpp"

namespace {

using namespace pe_test;

std::vector<float> decode(pe::StoredFormat f, const Bytes& b, std::size_t blocks) {
  std::vector<float> out(blocks * pe::format_info(f).block_elements);
  pe::decode_blocks(f, b.data(), blocks, out.data());
  return out;
}

void expect_at(const std::vector<float>& y, const std::vector<int>& idx, const std::vector<double>& expected) {
  ASSERT_EQ(idx.size(), expected.size());
  for (std::size_t k = 0; k < idx.size(); ++k) EXPECT_EQ(y[static_cast<std::size_t>(idx[k])], expected[k]) << "element " << idx[k];
}

TEST(GgmlBlocks, FormatTableMatchesGgml) {
  // ggml.h enum ggml_type numbers; ggml-common.h block sizes (static_assert'ed there).
  for (const auto& t : ggml_types()) {
    const auto f = pe::stored_format_of_ggml_type(t.id);
    ASSERT_TRUE(f) << t.name;
    EXPECT_STREQ(pe::to_string(*f), t.name);
    EXPECT_EQ(pe::format_info(*f).block_elements, static_cast<std::uint32_t>(t.block_elements)) << t.name;
    EXPECT_EQ(pe::format_info(*f).block_bytes, static_cast<std::uint32_t>(t.block_bytes)) << t.name;
  }
  // q8_1, q8_K, the IQ2/IQ3/IQ1 grids, integers, f64, the ternary and FP4 types, removed numbers:
  for (std::uint32_t other : {4u, 5u, 9u, 15u, 16u, 17u, 18u, 19u, 21u, 22u, 24u, 28u, 29u, 31u, 34u, 35u, 36u, 39u, 40u, 41u, 1000u,
                              pe::kNoGgmlType})
    EXPECT_FALSE(pe::stored_format_of_ggml_type(other)) << other;
  EXPECT_EQ(pe::stored_format_list(), "f32, f16, bf16, q8_0, q4_0, q4_1, q5_0, q5_1, iq4_nl, q2_K, q3_K, q4_K, q5_K, q6_K, iq4_xs");
  // FP8 is a safetensors format: one byte an element, no ggml type.
  for (const auto f : {pe::StoredFormat::F8_E4M3, pe::StoredFormat::F8_E5M2}) {
    EXPECT_EQ(pe::format_info(f).ggml_type, pe::kNoGgmlType);
    EXPECT_EQ(pe::format_info(f).block_bytes, 1u);
  }
}

TEST(GgmlBlocks, EveryHalfPatternMatchesTheFormula) {
  for (std::uint32_t h = 0; h < 0x10000; ++h) {
    const double want = half_value(static_cast<std::uint16_t>(h));
    const float got = pe::half_to_float(static_cast<std::uint16_t>(h));
    if (std::isnan(want)) {
      EXPECT_TRUE(std::isnan(got)) << std::hex << h;
    } else {
      ASSERT_EQ(static_cast<double>(got), want) << std::hex << h;
      EXPECT_EQ(std::signbit(got), (h & 0x8000) != 0) << std::hex << h;
    }
  }
}

TEST(GgmlBlocks, Bf16IsTheTopHalfOfAFloat) {
  EXPECT_EQ(pe::bf16_to_float(0x3F80), 1.0f);
  EXPECT_EQ(pe::bf16_to_float(0xC040), -3.0f);
  EXPECT_EQ(pe::bf16_to_float(0x4049), 3.140625f);  // 0x40490000
  EXPECT_EQ(pe::bf16_to_float(0x0001), std::ldexp(1.0f, -133));  // smallest subnormal
  EXPECT_TRUE(std::isinf(pe::bf16_to_float(0x7F80)));
  EXPECT_TRUE(std::isnan(pe::bf16_to_float(0x7FC0)));
}

// The research notes' Q4_0 block: d = 0x3800 (0.5), qs[j] = j | (15 − j) << 4.
TEST(GgmlBlocks, Q4_0HandCheckedBlock) {
  Bytes b = {0x00, 0x38};
  for (int j = 0; j < 16; ++j) b.push_back(static_cast<std::uint8_t>(j | ((15 - j) << 4)));
  const auto y = decode(pe::StoredFormat::Q4_0, b, 1);
  for (int j = 0; j < 16; ++j) {
    EXPECT_EQ(y[j], -4.0 + 0.5 * j) << j;         // low nibbles: elements 0-15
    EXPECT_EQ(y[j + 16], 3.5 - 0.5 * j) << j + 16;  // high nibbles: elements 16-31
  }
}

// Q8_0: d = 0x3400 (0.25), qs[j] = int8(9j − 128).
TEST(GgmlBlocks, Q8_0HandCheckedBlock) {
  Bytes b = {0x00, 0x34};
  for (int j = 0; j < 32; ++j) b.push_back(static_cast<std::uint8_t>((9 * j - 128) & 255));
  const auto y = decode(pe::StoredFormat::Q8_0, b, 1);
  expect_at(y, {0, 1, 2, 3, 4, 5, 31}, {-32, -29.75, -27.5, -25.25, -23, -20.75, -26.25});
}

// Q4_K: d = 1, dmin = 0.5, scales bytes packing sc = [1,2,3,4,17,33,49,63], m = [0,1,2,3,16,32,48,5],
// qs[i] = (i % 16) | (15 − i % 16) << 4.
Bytes k_quant_head() {
  Bytes b = {0x00, 0x3C, 0x00, 0x38};
  for (int s : {65, 130, 195, 196, 64, 129, 194, 3, 1, 1, 1, 95}) b.push_back(static_cast<std::uint8_t>(s));
  return b;
}

TEST(GgmlBlocks, Q4_KHandCheckedBlock) {
  Bytes b = k_quant_head();
  for (int i = 0; i < 128; ++i) b.push_back(static_cast<std::uint8_t>((i % 16) | ((15 - i % 16) << 4)));
  ASSERT_EQ(b.size(), 144u);
  const auto y = decode(pe::StoredFormat::Q4_K, b, 1);
  expect_at(y, {0, 1, 31, 32, 33, 63, 64, 96, 128, 160, 192, 224, 255}, {0, 1, 15, 29.5, 27.5, -0.5, -1, 58.5, -8, 479, -24, 942.5, -2.5});
}

// Q5_K: the same, with qh[l] = l.
TEST(GgmlBlocks, Q5_KHandCheckedBlock) {
  Bytes b = k_quant_head();
  for (int l = 0; l < 32; ++l) b.push_back(static_cast<std::uint8_t>(l));
  for (int i = 0; i < 128; ++i) b.push_back(static_cast<std::uint8_t>((i % 16) | ((15 - i % 16) << 4)));
  ASSERT_EQ(b.size(), 176u);
  const auto y = decode(pe::StoredFormat::Q5_K, b, 1);
  expect_at(y, {0, 1, 31, 32, 33, 63, 64, 96, 128, 160, 192, 224, 255}, {0, 17, 31, 29.5, 27.5, 31.5, -1, 58.5, -8, 479, -24, 942.5, -2.5});
}

// Q6_K: ql[i] = i, qh[i] = 37i mod 256, scales = [1, −1, 2, −2, ..., 8, −8], d = 0x3400 (0.25).
TEST(GgmlBlocks, Q6_KHandCheckedBlock) {
  Bytes b;
  for (int i = 0; i < 128; ++i) b.push_back(static_cast<std::uint8_t>(i));
  for (int i = 0; i < 64; ++i) b.push_back(static_cast<std::uint8_t>((37 * i) % 256));
  for (int k = 0; k < 16; ++k) b.push_back(static_cast<std::uint8_t>((k / 2 + 1) * (k % 2 ? -1 : 1)));
  b.push_back(0x00);
  b.push_back(0x34);
  ASSERT_EQ(b.size(), 210u);
  const auto y = decode(pe::StoredFormat::Q6_K, b, 1);
  expect_at(y, {0, 1, 15, 16, 31, 32, 63, 64, 95, 96, 127, 128, 159, 160, 191, 192, 223, 224, 255},
            {-8, -3.75, 7.75, 8, -7.75, -16, -7.5, -24, -12.75, -30, 13, -40, -38.75, -48, -22.5, 7, 19.25, 12, 50});
}

// Hand-built blocks of the types added for 2025–26 checkpoints. Each byte is written out
// here and the expected elements worked out by hand from ggml-common.h's layout and
// ggml-quants.c's formula (the arithmetic in the comments).
//
// The nibble bytes shared by the blocks of 32: qs[j] = j | (15 − j) << 4, so element j has
// 4-bit value j and element j + 16 has 15 − j.
Bytes ramp_nibbles() {
  Bytes b;
  for (int j = 0; j < 16; ++j) b.push_back(static_cast<std::uint8_t>(j | ((15 - j) << 4)));
  return b;
}

// Q4_1: d = 0.5 (0x3800), m = −1 (0xBC00): y[j] = 0.5·j − 1, y[j+16] = 0.5·(15 − j) − 1.
TEST(GgmlBlocks, Q4_1HandCheckedBlock) {
  Bytes b = {0x00, 0x38, 0x00, 0xBC};
  const Bytes q = ramp_nibbles();
  b.insert(b.end(), q.begin(), q.end());
  ASSERT_EQ(b.size(), 20u);
  const auto y = decode(pe::StoredFormat::Q4_1, b, 1);
  expect_at(y, {0, 1, 15, 16, 17, 31}, {-1, -0.5, 6.5, 6.5, 6, -1});
}

// Q5_0: d = 1, qh = FF 00 0F F0 (u32 0xF00F00FF: bits 0–7, 16–19 and 28–31 set). y = q − 16:
//   element 0: 0 + 16 → 0;  7: 7 + 16 → 7;  8: 8 → −8;  15: 15 → −1;  16 (j 0 high): 15 + 16 → 15;
//   19: 12 + 16 → 12;  20: 11 → −5;  27: 4 → −12;  28: 3 + 16 → 3;  31: 0 + 16 → 0.
Bytes q5_head(bool with_min) {
  Bytes b = {0x00, 0x3C};
  if (with_min) b = {0x00, 0x38, 0x00, 0x40};  // d = 0.5, m = 2
  for (int v : {0xFF, 0x00, 0x0F, 0xF0}) b.push_back(static_cast<std::uint8_t>(v));
  const Bytes q = ramp_nibbles();
  b.insert(b.end(), q.begin(), q.end());
  return b;
}

TEST(GgmlBlocks, Q5_0HandCheckedBlock) {
  const Bytes b = q5_head(false);
  ASSERT_EQ(b.size(), 22u);
  const auto y = decode(pe::StoredFormat::Q5_0, b, 1);
  expect_at(y, {0, 7, 8, 15, 16, 19, 20, 27, 28, 31}, {0, 7, -8, -1, 15, 12, -5, -12, 3, 0});
}

// Q5_1: the same quants (q = 16, 23, 8, 15, 31, 28, 11, 4, 19, 16) with d = 0.5, m = 2: y = 0.5·q + 2.
TEST(GgmlBlocks, Q5_1HandCheckedBlock) {
  const Bytes b = q5_head(true);
  ASSERT_EQ(b.size(), 24u);
  const auto y = decode(pe::StoredFormat::Q5_1, b, 1);
  expect_at(y, {0, 7, 8, 15, 16, 19, 20, 27, 28, 31}, {10, 13.5, 6, 9.5, 17.5, 16, 7.5, 4, 11.5, 10});
}

// IQ4_NL: d = 0.5; element j is 0.5·kvalues[j], element j + 16 is 0.5·kvalues[15 − j], with
// kvalues = −127, −104, −83, −65, −49, −35, −22, −10, 1, 13, 25, 38, 53, 69, 89, 113.
TEST(GgmlBlocks, Iq4NlHandCheckedBlock) {
  Bytes b = {0x00, 0x38};
  const Bytes q = ramp_nibbles();
  b.insert(b.end(), q.begin(), q.end());
  ASSERT_EQ(b.size(), 18u);
  const auto y = decode(pe::StoredFormat::IQ4_NL, b, 1);
  expect_at(y, {0, 1, 7, 8, 15, 16, 23, 24, 31}, {-63.5, -52, -5, 0.5, 56.5, 56.5, 0.5, -5, -63.5});
}

// Q2_K: scales[s] = s | (15 − s) << 4 (scale s, min 15 − s), qs[i] = i, d = 1, dmin = 0.5.
// Element k = 128h + 32c + l has q = (qs[32h + l] >> 2c) & 3 and y = sc·q − 0.5·m of sub-block k/16:
//   0: q 0, s 0 → −7.5;  1: q 1, s 0 → 0 − 7.5;  17: q 1, s 1 → 1 − 7;  35: q (3>>2)&3 = 0, s 2 → −6.5;
//   47: q (15>>2)&3 = 3, s 2 → 6 − 6.5;  127: q (31>>6) = 0, s 7 → −4;  128: q 32&3 = 0, s 8 → −3.5;
//   131: q 3, s 8 → 24 − 3.5;  180: q (52>>2)&3 = 1, s 11 → 11 − 2;  200: q (40>>4)&3 = 2, s 12 → 24 − 1.5;  255: s 15 → 0.
TEST(GgmlBlocks, Q2_KHandCheckedBlock) {
  Bytes b;
  for (int s = 0; s < 16; ++s) b.push_back(static_cast<std::uint8_t>(s | ((15 - s) << 4)));
  for (int i = 0; i < 64; ++i) b.push_back(static_cast<std::uint8_t>(i));
  for (int v : {0x00, 0x3C, 0x00, 0x38}) b.push_back(static_cast<std::uint8_t>(v));
  ASSERT_EQ(b.size(), 84u);
  const auto y = decode(pe::StoredFormat::Q2_K, b, 1);
  expect_at(y, {0, 1, 17, 35, 47, 127, 128, 131, 180, 200, 255}, {-7.5, -7.5, -6, -6.5, -0.5, -4, -3.5, 20.5, 9, 22.5, 0});
}

// Q3_K: hmask[l] = 0x0F for even l, 0xF0 for odd l (element k's high bit is bit 4h + c:
// set for even l in the first half and odd l in the second); qs[i] = i; scales bytes
// 21 43 65 87 A9 CB ED 0F 00 55 AA FF, which hold the 6-bit scales (minus 32)
//   −31 −13 5 23 −23 −5 13 31 −30 −12 6 24 −22 −4 14 16   (low 4 bits 1 3 5 … 15, 2 4 … 14 0;
//   top 2 bits from bytes 8–11: 0, 1, 2, 3 by j % 4); d = 0.5. y = 0.5·sc·(low − (high ? 0 : 4)):
//   1: low 1, no high → −3, sc −31 → 46.5;  2: low 2, high → 2 → −31;  19: low 3 → −1, sc −13 → 6.5;
//   36: low 1, high, sc 5 → 2.5;  63: low 3 → −1, sc 23 → −11.5;  101: low 0 → −4, sc 13 → −26;
//   128: low 0, no high → −4, sc −30 → 60;  129: low 1, high, sc −30 → −15;  170: low 2 → −2, sc 6 → −6;
//   200: low 2 → −2, sc −22 → 22;  254: low 0 → −4, sc 16 → −32;  255: low 0, high → 0.
TEST(GgmlBlocks, Q3_KHandCheckedBlock) {
  Bytes b;
  for (int l = 0; l < 32; ++l) b.push_back(l % 2 ? 0xF0 : 0x0F);
  for (int i = 0; i < 64; ++i) b.push_back(static_cast<std::uint8_t>(i));
  for (int v : {0x21, 0x43, 0x65, 0x87, 0xA9, 0xCB, 0xED, 0x0F, 0x00, 0x55, 0xAA, 0xFF}) b.push_back(static_cast<std::uint8_t>(v));
  b.push_back(0x00);
  b.push_back(0x38);
  ASSERT_EQ(b.size(), 110u);
  const auto y = decode(pe::StoredFormat::Q3_K, b, 1);
  expect_at(y, {1, 2, 19, 36, 63, 101, 128, 129, 170, 200, 254, 255}, {46.5, -31, 6.5, 2.5, -11.5, -26, 60, -15, -6, 22, -32, 0});
}

// IQ4_XS: d = 1, scales_h = E4 1B (u16 0x1BE4: 2-bit pairs 0 1 2 3 3 2 1 0), scales_l = 10 32 54 76
// (nibbles 0 … 7): 6-bit scales minus 32 = −32 −15 2 19 20 5 −10 −25. qs[i] = (i & 15) | (15 − (i & 15)) << 4:
// in each sub-block element l is sc·kvalues[l] and element 16 + l is sc·kvalues[15 − l].
//   0: −32·−127;  15: −32·113;  16: −32·113;  31: −32·−127;  32: −15·−127;  40: −15·1;  56: −15·−10;
//   100: 19·−49;  140: 20·53;  175: 5·113;  200: −10·1;  240: −25·113;  255: −25·−127.
TEST(GgmlBlocks, Iq4XsHandCheckedBlock) {
  Bytes b = {0x00, 0x3C, 0xE4, 0x1B, 0x10, 0x32, 0x54, 0x76};
  for (int i = 0; i < 128; ++i) b.push_back(static_cast<std::uint8_t>((i & 15) | ((15 - (i & 15)) << 4)));
  ASSERT_EQ(b.size(), 136u);
  const auto y = decode(pe::StoredFormat::IQ4_XS, b, 1);
  expect_at(y, {0, 15, 16, 31, 32, 40, 56, 100, 140, 175, 200, 240, 255},
            {4064, -3616, -3616, 4064, 1905, -15, 150, -931, 1060, 565, -10, -2825, 3175});
}

// Random blocks packed from their parts decode to the formula's values, several blocks in a row.
TEST(GgmlBlocks, RandomBlocksDecodeToTheFormula) {
  std::mt19937 rng(26);
  for (const std::string type : {"q8_0", "q4_0", "q4_1", "q5_0", "q5_1", "iq4_nl", "q2_K", "q3_K", "q4_K", "q5_K", "q6_K", "iq4_xs"}) {
    Bytes bytes;
    std::vector<double> want;
    for (int k = 0; k < 40; ++k) {
      const Block b = random_block(type, rng);
      bytes.insert(bytes.end(), b.bytes.begin(), b.bytes.end());
      want.insert(want.end(), b.values.begin(), b.values.end());
    }
    const auto f = *pe::stored_format_of_ggml_type(ggml_type(type).id);
    ASSERT_EQ(bytes.size(), 40u * pe::format_info(f).block_bytes) << type;
    const auto y = decode(f, bytes, 40);
    ASSERT_EQ(y.size(), want.size());
    int wrong = 0;
    for (std::size_t i = 0; i < y.size(); ++i)
      if (static_cast<double>(y[i]) != want[i] && ++wrong < 5) ADD_FAILURE() << type << " element " << i << ": " << y[i] << " vs " << want[i];
    EXPECT_EQ(wrong, 0) << type;
  }
}

TEST(GgmlBlocks, PlainFormatsDecodeInPlace) {
  const std::vector<double> v = {1.5, -2.25, 0.0, 1024.0, -0.0009765625};
  for (const auto& [dtype, f] : {std::pair{"F32", pe::StoredFormat::F32}, std::pair{"F16", pe::StoredFormat::F16},
                                 std::pair{"BF16", pe::StoredFormat::BF16}}) {
    const Bytes b = encode(v, dtype);
    const auto y = decode(f, b, v.size());
    for (std::size_t k = 0; k < v.size(); ++k) EXPECT_EQ(static_cast<double>(y[k]), v[k]) << dtype << " " << k;
  }
}

}  // namespace
