// One body per kernel (always inlined), compiled three times: plain (the portable x86-64 /
// ARM build), target("avx2") and target("avx512f"); the best the CPU has is chosen once.
// This file is compiled with -ffp-contract=off (core/CMakeLists.txt): no level fuses a
// multiply and an add, so every level rounds exactly as the portable one does.
#include "pe/encodings/simd_kernels.hpp"

#include <atomic>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <string>

#include "pe/encodings/simd.hpp"

#if defined(__GNUC__)
#define PE_INLINE inline __attribute__((always_inline))
#else
#define PE_INLINE inline
#endif

#if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__)
#define PE_X86_DISPATCH 1
#endif

namespace pe::simd {
namespace {

// (cos, sin)(A + B) from (cos, sin) A and B: the one place this arithmetic is written, so
// every row path of every kernel rounds alike.
PE_INLINE void rotate(float ca, float sa, float cb, float sb, float& c, float& s) {
  c = ca * cb - sa * sb;
  s = sa * cb + ca * sb;
}

PE_INLINE void rotate_rows_body(long long count, long long n, const float* __restrict ac, const float* __restrict as,
                                const float* __restrict tc0, const float* __restrict ts0, float* __restrict oc0,
                                float* __restrict os0, long long stride) {
  // Two rows per pass: one load of the anchor serves both, and the loop overhead of short
  // rows (n = 64 for d = 128) is paid half as often (131072 x 128 tables: ~5 % faster).
  long long j = 0;
  for (; j + 2 <= count; j += 2) {
    const float* __restrict tc = tc0 + j * n;
    const float* __restrict ts = ts0 + j * n;
    float* __restrict oc = oc0 + j * stride;
    float* __restrict os = os0 + j * stride;
    for (long long k = 0; k < n; ++k) {
      rotate(ac[k], as[k], tc[k], ts[k], oc[k], os[k]);
      rotate(ac[k], as[k], tc[k + n], ts[k + n], oc[k + stride], os[k + stride]);
    }
  }
  for (; j < count; ++j) {
    const float* __restrict tc = tc0 + j * n;
    const float* __restrict ts = ts0 + j * n;
    float* __restrict oc = oc0 + j * stride;
    float* __restrict os = os0 + j * stride;
    for (long long k = 0; k < n; ++k) rotate(ac[k], as[k], tc[k], ts[k], oc[k], os[k]);
  }
}

PE_INLINE void rotate_rows_interleaved_body(long long count, long long n, long long full, bool odd, const float* __restrict ac,
                                            const float* __restrict as, const float* __restrict tc0, const float* __restrict ts0,
                                            float* __restrict out, long long stride) {
  for (long long j = 0; j < count; ++j) {
    const float* __restrict tc = tc0 + j * n;
    const float* __restrict ts = ts0 + j * n;
    float* __restrict o = out + j * stride;
    for (long long k = 0; k < full; ++k) rotate(ac[k], as[k], tc[k], ts[k], o[2 * k + 1], o[2 * k]);  // sin, cos
    if (odd) o[2 * full] = as[full] * tc[full] + ac[full] * ts[full];
  }
}

PE_INLINE void advance_body(long long n, double* __restrict c, double* __restrict s, const double* __restrict hc,
                            const double* __restrict hs) {
  // e^{i(a+h)} = e^{ia}·e^{ih}.
  for (long long k = 0; k < n; ++k) {
    const double c0 = c[k], s0 = s[k];
    c[k] = c0 * hc[k] - s0 * hs[k];
    s[k] = s0 * hc[k] + c0 * hs[k];
  }
}

constexpr int kLanes = 8;  // partial sums: the same grouping at every level

PE_INLINE double dot2_body(long long n, const double* __restrict a, const double* __restrict c, const double* __restrict b,
                           const double* __restrict s) {
  double acc[kLanes] = {};
  long long k = 0;
  for (; k + kLanes <= n; k += kLanes)
    for (int l = 0; l < kLanes; ++l) acc[l] += a[k + l] * c[k + l] + b[k + l] * s[k + l];
  for (int l = 0; k < n; ++k, ++l) acc[l] += a[k] * c[k] + b[k] * s[k];
  return ((acc[0] + acc[1]) + (acc[2] + acc[3])) + ((acc[4] + acc[5]) + (acc[6] + acc[7]));
}

PE_INLINE void score_run_body(long long n, long long steps, double* __restrict c, double* __restrict s,
                              const double* __restrict hc, const double* __restrict hs, const double* __restrict a,
                              const double* __restrict b, double passthrough, double* __restrict out) {
  for (long long t = 0; t < steps; ++t) {
    if (t > 0) advance_body(n, c, s, hc, hs);
    out[t] = passthrough + dot2_body(n, a, c, b, s);
  }
}

PE_INLINE void score_chains_body(long long n, long long groups, double* __restrict c8, double* __restrict s8,
                                 const double* __restrict hc, const double* __restrict hs, const double* __restrict a,
                                 const double* __restrict b, double passthrough, double* __restrict out) {
  for (long long g = 0; g < groups; ++g) {
    double acc[kChains];
    for (int m = 0; m < kChains; ++m) acc[m] = passthrough;
    for (long long k = 0; k < n; ++k) {
      double* __restrict c = c8 + k * kChains;
      double* __restrict s = s8 + k * kChains;
      const double ak = a[k], bk = b[k], hck = hc[k], hsk = hs[k];
      for (int m = 0; m < kChains; ++m) {  // the value, then the step to the next group
        const double c0 = c[m], s0 = s[m];
        acc[m] += ak * c0 + bk * s0;
        c[m] = c0 * hck - s0 * hsk;
        s[m] = s0 * hck + c0 * hsk;
      }
    }
    for (int m = 0; m < kChains; ++m) out[g * kChains + m] = acc[m];
  }
}

// π/2 in three parts of 33, 33 and 53 bits (fdlibm's pio2_1, pio2_2, pio2_2t): k·P1 and
// k·P2 are exact for |k| < 2^20, i.e. |x| < 1.6·10^6.
constexpr double kTwoOverPi = 0.6366197723675814;
constexpr double kP1 = 0x1.921fb54400000p+0;
constexpr double kP2 = 0x1.0b4611a600000p-34;
constexpr double kP3 = 0x1.3198a2e037073p-69;
constexpr double kReducible = 1.6e6;
constexpr double kRound = 6755399441055744.0;  // 1.5·2^52

// Taylor coefficients (−1)^m / n! : on |r| ≤ π/4 the first omitted terms, r^19/19! and
// r^20/20!, are below 1e-19.
constexpr double kSin[] = {-1.0 / 6, 1.0 / 120, -1.0 / 5040, 1.0 / 362880, -1.0 / 39916800, 1.0 / 6227020800.0,
                           -1.0 / 1307674368000.0, 1.0 / 355687428096000.0};
constexpr double kCos[] = {-1.0 / 2, 1.0 / 24, -1.0 / 720, 1.0 / 40320, -1.0 / 3628800, 1.0 / 479001600.0,
                           -1.0 / 87178291200.0, 1.0 / 20922789888000.0, -1.0 / 6402373705728000.0};

PE_INLINE void sincos_body(const double* __restrict x, double* __restrict so, double* __restrict co, long long n) {
  for (long long i = 0; i < n; ++i) {
    const double v = x[i];
    // Round to nearest (ties to even, as nearbyint) by the 1.5·2^52 trick: plain arithmetic,
    // so the loop vectorizes at every level.
    const double k = (v * kTwoOverPi + kRound) - kRound;
    const double r = ((v - k * kP1) - k * kP2) - k * kP3;
    const double r2 = r * r;
    double ps = kSin[7];
    for (int m = 6; m >= 0; --m) ps = ps * r2 + kSin[m];
    const double sr = r + r * r2 * ps;
    double pc = kCos[8];
    for (int m = 7; m >= 0; --m) pc = pc * r2 + kCos[m];
    const double cr = 1.0 + r2 * pc;
    // Quadrant q = k mod 4: sin x = (sin r, cos r, −sin r, −cos r)[q], cos x = (cos r, −sin r, −cos r, sin r)[q].
    // Kept in double (exact for these k) so every step vectorizes without integer lanes.
    const double q = k - 4.0 * (((k * 0.25 - 0.375) + kRound) - kRound);  // k·¼ − ⅜ never ties: its round is floor(k/4)
    const bool odd = q == 1.0 || q == 3.0;
    const double sv = odd ? cr : sr, cv = odd ? sr : cr;
    so[i] = q >= 2.0 ? -sv : sv;
    co[i] = (q == 1.0 || q == 2.0) ? -cv : cv;
  }
}

// Angles the reduction cannot take exactly go through libm, one by one.
template <void (*Body)(const double*, double*, double*, long long)>
void sincos_checked(const double* x, double* s, double* c, long long n) {
  Body(x, s, c, n);
  for (long long i = 0; i < n; ++i)
    if (!(std::fabs(x[i]) <= kReducible)) {
      s[i] = std::sin(x[i]);
      c[i] = std::cos(x[i]);
    }
}

#define PE_KERNEL_SET(ATTR, SUFFIX)                                                                                        \
  ATTR void rotate_rows_##SUFFIX(long long count, long long n, const float* ac, const float* as, const float* tc,          \
                                 const float* ts, float* oc, float* os, long long stride) {                              \
    rotate_rows_body(count, n, ac, as, tc, ts, oc, os, stride);                                                           \
  }                                                                                                                       \
  ATTR void rotate_rows_interleaved_##SUFFIX(long long count, long long n, long long full, bool odd, const float* ac,     \
                                             const float* as, const float* tc, const float* ts, float* out,              \
                                             long long stride) {                                                         \
    rotate_rows_interleaved_body(count, n, full, odd, ac, as, tc, ts, out, stride);                                      \
  }                                                                                                                       \
  ATTR void advance_##SUFFIX(long long n, double* c, double* s, const double* hc, const double* hs) {                     \
    advance_body(n, c, s, hc, hs);                                                                                        \
  }                                                                                                                       \
  ATTR double dot2_##SUFFIX(long long n, const double* a, const double* c, const double* b, const double* s) {            \
    return dot2_body(n, a, c, b, s);                                                                                      \
  }                                                                                                                       \
  ATTR void sincos_raw_##SUFFIX(const double* x, double* s, double* c, long long n) { sincos_body(x, s, c, n); }         \
  ATTR void score_run_##SUFFIX(long long n, long long steps, double* c, double* s, const double* hc, const double* hs,      \
                               const double* a, const double* b, double passthrough, double* out) {                      \
    score_run_body(n, steps, c, s, hc, hs, a, b, passthrough, out);                                                      \
  }                                                                                                                       \
  ATTR void score_chains_##SUFFIX(long long n, long long groups, double* c8, double* s8, const double* hc,             \
                                  const double* hs, const double* a, const double* b, double passthrough, double* out) {  \
    score_chains_body(n, groups, c8, s8, hc, hs, a, b, passthrough, out);                                               \
  }                                                                                                                       \
  const Kernels kKernels_##SUFFIX = {rotate_rows_##SUFFIX, rotate_rows_interleaved_##SUFFIX, advance_##SUFFIX,            \
                                     dot2_##SUFFIX, sincos_checked<sincos_raw_##SUFFIX>, score_run_##SUFFIX,              \
                                     score_chains_##SUFFIX};

PE_KERNEL_SET(, portable)
#if PE_X86_DISPATCH
PE_KERNEL_SET(__attribute__((target("avx2"))), avx2)
PE_KERNEL_SET(__attribute__((target("avx512f"))), avx512)
#endif

enum class Level { Portable, Avx2, Avx512 };

Level best_level() {
#if PE_X86_DISPATCH
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f")) return Level::Avx512;
  if (__builtin_cpu_supports("avx2")) return Level::Avx2;
#endif
  return Level::Portable;
}

const char* name_of(Level l) { return l == Level::Avx512 ? "avx512" : l == Level::Avx2 ? "avx2" : "portable"; }

const Kernels& kernels_of(Level l) {
#if PE_X86_DISPATCH
  if (l == Level::Avx512) return kKernels_avx512;
  if (l == Level::Avx2) return kKernels_avx2;
#endif
  (void)l;
  return kKernels_portable;
}

bool parse_level(const std::string& name, Level& out) {
  for (Level l : {Level::Portable, Level::Avx2, Level::Avx512})
    if (name == name_of(l)) {
      out = l;
      return true;
    }
  return false;
}

// The best level, lowered by PE_VIZ_SIMD when that names one the CPU has.
Level initial_level() {
  Level l = best_level();
  if (const char* env = std::getenv("PE_VIZ_SIMD")) {
    Level asked;
    if (parse_level(env, asked) && asked <= l) l = asked;
  }
  return l;
}

std::atomic<Level>& level() {
  static std::atomic<Level> current{initial_level()};
  return current;
}

}  // namespace

const Kernels& kernels() { return kernels_of(level().load(std::memory_order_relaxed)); }

}  // namespace pe::simd

namespace pe {

const char* simd_level_name() { return simd::name_of(simd::level().load()); }

bool set_simd_level(const std::string& name) {
  simd::Level l;
  if (!simd::parse_level(name, l) || l > simd::best_level()) return false;
  simd::level().store(l);
  return true;
}

void sincos_batch(const double* x, double* sin_out, double* cos_out, long long n) {
  simd::kernels().sincos(x, sin_out, cos_out, n);
}

}  // namespace pe
