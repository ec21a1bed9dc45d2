#pragma once
// Which vector instructions core's table and curve kernels use: chosen once at run time
// from what the CPU has (AVX-512, else AVX2, else the portable build, which is also what
// runs on ARM), or lowered by the environment variable PE_VIZ_SIMD=portable|avx2|avx512.
// Every level computes the same numbers: the kernels do elementwise arithmetic in a fixed
// order (no fused multiply-add, sums in fixed lanes), so only the speed differs.
#include "pe/encodings/module_guard.hpp"
#include <string>

namespace pe {

// "avx512", "avx2" or "portable".
const char* simd_level_name();
// For tests and benchmarks: use `name` ("portable", "avx2", "avx512") if the CPU has it.
// Returns false (and changes nothing) for an unknown name or a level the CPU lacks.
bool set_simd_level(const std::string& name);

// sin and cos of n angles (out arrays may not alias x). Accurate to 4e-16 absolute for
// |x| ≤ 1.6·10^6 (Cody–Waite reduction by π/2 in three parts, Taylor polynomials to x^17 /
// x^18 on [−π/4, π/4]); larger angles go through std::sin/std::cos.
void sincos_batch(const double* x, double* sin_out, double* cos_out, long long n);

}  // namespace pe
