#pragma once
// cos and sin of p·ω_i for consecutive positions p, in double, for views that rotate one
// vector to hundreds of positions per frame (common-mistake at d = 1024: ~10⁶ sincos calls
// a frame through apply_rope). Rows come from the angle-addition recurrence, re-anchored
// with exact sincos every kAngleTableAnchor rows, so each entry is within ~1e-14 of
// cos/sin(p·ω) (tests compare with apply_rope and the two convention mixes).
#include "pe/encodings/module_guard.hpp"
#include <Eigen/Core>
#include <vector>

#include "pe/encodings/rope.hpp"

namespace pe {

inline constexpr long long kAngleTableAnchor = 16;

struct AngleTable {
  long long positions = 0;
  Eigen::Index pairs = 0;
  std::vector<double> cos, sin;  // row-major: row p holds cos/sin(p·ω_i), i < pairs
  const double* cos_row(long long p) const { return cos.data() + p * pairs; }
  const double* sin_row(long long p) const { return sin.data() + p * pairs; }
};

// Rows p = 0 … positions−1 for `inv_freq`, reusing `out`'s storage. Throws InvalidArgument
// for non-finite frequencies or a negative count.
void angle_table_into(AngleTable& out, const Eigen::ArrayXd& inv_freq, long long positions);

// apply_rope(x, p, inv_freq, convention) with the angles of table row p (x and y: 2·pairs).
void rotate_with_angles(const AngleTable& t, long long p, const double* x, double* y, PairConvention convention);
// apply_half_split_cache_mix(x, p, inv_freq) with table row p.
void half_split_cache_mix_with_angles(const AngleTable& t, long long p, const double* x, double* y);
// apply_interleaved_cache_mix(x, p, inv_freq) with table row p.
void interleaved_cache_mix_with_angles(const AngleTable& t, long long p, const double* x, double* y);

}  // namespace pe
