#pragma once
// The block decoders of ggml_blocks.cpp (blocks of 32) and ggml_k_blocks.cpp (super-blocks of
// 256), each decoding one block at `b` into its elements at `y`. Layouts: ggml_blocks.hpp.
#include <array>
#include <cstdint>

#include "pe/weights/ggml_blocks.hpp"

namespace pe::detail {

inline std::uint16_t u16_le(const std::uint8_t* p) { return static_cast<std::uint16_t>(p[0] | (p[1] << 8)); }
inline float half_le(const std::uint8_t* p) { return half_to_float(u16_le(p)); }

// ggml-common.h kvalues_iq4nl: the 16 levels of IQ4_NL and IQ4_XS, as published.
inline constexpr std::array<std::int8_t, 16> kIq4nlLevels = {-127, -104, -83, -65, -49, -35, -22, -10,
                                                            1,    13,   25,  38,  53,  69,  89,  113};

void decode_q2_k(const std::uint8_t* b, float* y);
void decode_q3_k(const std::uint8_t* b, float* y);
void decode_q4_k(const std::uint8_t* b, float* y);
void decode_q5_k(const std::uint8_t* b, float* y);
void decode_q6_k(const std::uint8_t* b, float* y);
void decode_iq4_xs(const std::uint8_t* b, float* y);

}  // namespace pe::detail
