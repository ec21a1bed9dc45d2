#pragma once
// The 8-bit floating-point formats of FP8 checkpoints (safetensors dtypes F8_E4M3, F8_E5M2 and
// the scale format F8_E8M0), as the OCP 8-bit Floating Point Specification (OFP8, 2023) and
// the OCP Microscaling Formats spec (MX v1.0, E8M0) define them and PyTorch implements them
// (torch.float8_e4m3fn, torch.float8_e5m2, torch.float8_e8m0fnu):
//   E4M3 ("FN"): s eeee mmm, bias 7. e = 0: (−1)^s · m/8 · 2^−6 (subnormal); otherwise
//                (−1)^s · (1 + m/8) · 2^(e−7). No infinities: only S.1111.111 (0x7F, 0xFF)
//                is NaN, so S.1111.110 = ±448 is the largest value.
//   E5M2:        s eeeee mm, bias 15, IEEE 754-like: e = 0 subnormal m/4 · 2^−14; e = 31
//                is ±infinity (m = 0) or NaN (m ≠ 0); largest finite ±57344.
//   E8M0:        eeeeeeee, no sign or mantissa: 2^(e−127); 0xFF is NaN (MX v1.0 §5.4.1).
// Every value is exact in float (the decoders are tables of all 256 codes).
#include "pe/weights/module_guard.hpp"
#include <array>
#include <cstdint>

namespace pe {

float e4m3_to_float(std::uint8_t bits);
float e5m2_to_float(std::uint8_t bits);
float e8m0_to_float(std::uint8_t bits);

// All 256 codes, for decoders that look values up in a loop.
const std::array<float, 256>& e4m3_table();
const std::array<float, 256>& e5m2_table();

}  // namespace pe
