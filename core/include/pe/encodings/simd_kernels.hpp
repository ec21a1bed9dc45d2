#pragma once
// The inner loops behind rope_tables, sinusoidal_table, the phasor recurrences and the
// relative-score curves, compiled once per instruction set (portable, AVX2, AVX-512) and
// picked at run time (pe/encodings/simd.hpp). Internal to core.
#include "pe/encodings/module_guard.hpp"

namespace pe::simd {

struct Kernels {
  // Rows j < count of cos/sin(A + B_j): oc/os + j·stride (n pairs) from the anchor (ac, as)
  // and the per-row steps tc/ts + j·n.
  void (*rotate_rows)(long long count, long long n, const float* ac, const float* as, const float* tc, const float* ts,
                      float* oc, float* os, long long stride);
  // The same written sin, cos, sin, cos, … (`full` pairs; an odd last column is a lone sine).
  void (*rotate_rows_interleaved)(long long count, long long n, long long full, bool odd, const float* ac, const float* as,
                                  const float* tc, const float* ts, float* out, long long stride);
  // (c, s) ← (c, s)·(hc, hs), elementwise complex multiplication in double.
  void (*advance)(long long n, double* c, double* s, const double* hc, const double* hs);
  // Σ a_k c_k + b_k s_k in eight fixed lanes.
  double (*dot2)(long long n, const double* a, const double* c, const double* b, const double* s);
  void (*sincos)(const double* x, double* s, double* c, long long n);
  // `steps` values of passthrough + Σ a_k c_k + b_k s_k, advancing (c, s) by (hc, hs) between
  // them (the first value is at the current phasors): one relative-score run between anchors.
  void (*score_run)(long long n, long long steps, double* c, double* s, const double* hc, const double* hs, const double* a,
                    const double* b, double passthrough, double* out);
  // kChains interleaved chains (16: two vectors of accumulators hide the add latency): c8/s8 hold n × kChains phasors (chain m at k·kChains + m), each
  // advanced by (hc, hs) per group; out gets groups × kChains values, chain m's value of
  // group g at g·kChains + m. Vectorizes across the chains, no horizontal sums.
  void (*score_chains)(long long n, long long groups, double* c8, double* s8, const double* hc, const double* hs,
                       const double* a, const double* b, double passthrough, double* out);
};

inline constexpr int kChains = 16;

const Kernels& kernels();

}  // namespace pe::simd
