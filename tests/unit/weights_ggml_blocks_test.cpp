// ggml block decoding (pe/weights/ggml_blocks.hpp). Two independent checks per format:
//  1. hand-checkable blocks whose outputs were produced by ggml's own dequantize_row_*
//     functions (the project's research notes, "Hand-checkable vectors"), built here byte by
//     byte exactly as described there;
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
  for (std::uint32_t other : {3u, 6u, 7u, 9u, 10u, 11u, 15u, 16u, 23u, 24u, 28u, 39u, 1000u})
    EXPECT_FALSE(pe::stored_format_of_ggml_type(other)) << other;
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

// Random blocks packed from their parts decode to the formula's values, several blocks in a row.
TEST(GgmlBlocks, RandomBlocksDecodeToTheFormula) {
  std::mt19937 rng(26);
  for (const std::string type : {"q8_0", "q4_0", "q4_K", "q5_K", "q6_K"}) {
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
