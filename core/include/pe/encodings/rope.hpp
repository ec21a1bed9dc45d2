#pragma once
// Rotary position embedding, Su et al. 2021 (RoFormer). Pair i of a d-dim vector is
// rotated by angle p·θ_i with θ_i = theta^(-2i/d).
//
// Two pair layouts exist in real code and both are supported:
//  - Interleaved: pairs (2i, 2i+1) — RoFormer paper, Meta LLaMA reference, GPT-J.
//  - HalfSplit:   pairs (i, i + d/2) — GPT-NeoX, Hugging Face `rotate_half`.
// They give identical scores up to a fixed permutation of dimensions (pair_permutation).
//
// Partial rotary: when inv_freq has fewer than d/2 entries, only the first
// rotary_dim = 2·inv_freq.size() dims rotate (laid out by the convention inside that
// block, as Hugging Face does) and the remaining dims pass through unchanged.
#include "pe/encodings/module_guard.hpp"
#include <string>
#include <utility>
#include <vector>
#include "pe/base/types.hpp"

namespace pe {

enum class PairConvention { Interleaved, HalfSplit };

// +1: the standard rotation (y1 = x1 cos − x2 sin). −1: code that computes
// y1 = x1 cos + x2 sin (a transposed rotation matrix, seen in tutorials), i.e. a rotation by −pθ; applied to q and k alike it still encodes
// relative position, but mirrored: s(Δ) becomes s(−Δ).
enum class RotationSign { Positive = 1, Negative = -1 };

const char* to_string(PairConvention c);           // "interleaved" / "half-split"
PairConvention pair_convention_from_string(const std::string& s);  // throws InvalidArgument

// θ_i = theta^(-2i/dim), i < dim/2, in double. Requires even dim >= 2 and theta > 1.
Eigen::ArrayXd inverse_frequencies(long long dim, double theta = 10000.0);

// The two dims that form pair `pair` (0-based) in a vector with rotary_dim rotating dims.
std::pair<long long, long long> pair_dims(PairConvention c, long long rotary_dim, long long pair);

// perm[j] = index in `to` layout of dim j of the `from` layout (size dim). Applying it
// moves a vector from one convention to the other: y[perm[j]] = x[j].
std::vector<long long> pair_permutation(long long dim, PairConvention from, PairConvention to);

// Checks a frequency list as every RoPE entry point needs it: 1 ... kMaxDim/2 entries,
// each finite and >= 0 (throws InvalidArgument naming `parameter` and the bad index).
void require_frequencies(const char* parameter, const Eigen::ArrayXd& freqs);

// Angle-addition recurrence for the phasors e^{i·x·θ_k}, x = x0, x0 + h, x0 + 2h, ...:
// advance() multiplies each by e^{i·h·θ_k} (complex multiplication in double), anchor(x)
// resets them to std::cos/std::sin(x·θ_k). Re-anchoring every kAnchorInterval steps keeps
// the drift (~1e-13) far below float resolution. This is what makes the tables fast: one
// complex multiplication per entry instead of a cos and a sin.
class PhasorRecurrence {
 public:
  static constexpr long long kAnchorInterval = 1024;
  PhasorRecurrence(const Eigen::ArrayXd& freqs, double step);
  void anchor(double x);
  void advance() noexcept;
  const Eigen::ArrayXd& cos() const noexcept { return cos_; }
  const Eigen::ArrayXd& sin() const noexcept { return sin_; }
  const Eigen::ArrayXd& freqs() const noexcept { return freqs_; }

 private:
  Eigen::ArrayXd freqs_, step_cos_, step_sin_, cos_, sin_;
};

// Float rows of cos/sin(p·θ_k) for consecutive integer positions, the kernel behind
// rope_tables and sinusoidal_table. Row p0 + j of a block is e^{i·p0·θ}·e^{i·j·θ}: the block
// anchor comes from a PhasorRecurrence in double (exact every kAnchorInterval rows), the
// e^{i·j·θ}, j < kBlock, are tabulated once; one float complex multiplication per entry
// then gives |error| < 5e-7 (float rounding of four factors), not growing with p.
class PhasorRows {
 public:
  static constexpr long long kBlock = 64;
  PhasorRows(const Eigen::ArrayXd& freqs, long long first_position);
  // Writes the next `count` (1 ... kBlock) rows: row j to cos_out/sin_out + j·stride.
  void next_block(long long count, float* cos_out, float* sin_out, long long stride);
  // Same rows written as sin, cos, sin, cos, ... (the sinusoidal layout) into `columns`
  // (2·pairs or 2·pairs − 1: an odd last column is a lone sine) floats per row.
  void next_block_interleaved(long long count, float* out, long long stride, long long columns);

 private:
  long long pairs_, position_, blocks_ = 0;
  PhasorRecurrence anchors_;
  std::vector<float> step_cos_, step_sin_;  // kBlock × pairs: e^{i·j·θ_k}
  std::vector<float> anchor_cos_, anchor_sin_;
  void next_anchor();
};

struct RopeTables {
  TableF cos;  // length × inv_freq.size()
  TableF sin;
};

// cos/sin of p·θ_i for p = first_position ... first_position+length-1 (float32 output,
// computed accurate to < 1e-6 absolute against double). Refused over the memory budget.
RopeTables rope_tables(const Eigen::ArrayXd& inv_freq, long long length, long long first_position = 0);
// Same, into `out`, reusing its storage when the shape is unchanged: a view recomputing on
// every slider change then skips fresh allocation, whose page faults cost more than the
// computation itself. On error `out` is left untouched.
void rope_tables_into(RopeTables& out, const Eigen::ArrayXd& inv_freq, long long length,
                      long long first_position = 0);

// Rotates x (size dim >= 2·inv_freq.size()) to `position`.
Eigen::VectorXd apply_rope(const Eigen::Ref<const Eigen::VectorXd>& x, double position,
                           const Eigen::ArrayXd& inv_freq, PairConvention convention,
                           RotationSign sign = RotationSign::Positive);

// Rotates each row r of `rows` (n × dim) to positions[r].
MatrixD apply_rope(const Eigen::Ref<const MatrixD>& rows, const Eigen::Ref<const Eigen::ArrayXd>& positions,
                   const Eigen::ArrayXd& inv_freq, PairConvention convention,
                   RotationSign sign = RotationSign::Positive);

// The classic convention-mixing RoPE bug, reproduced on purpose for the "common mistake"
// view: code that caches cat(freqs, freqs) (the half-split layout of transformers'
// rotate_half) but pairs dims interleaved (as RoFormer and Meta's LLaMA reference do) and
// reads cos[..., ::2], sin[..., 1::2]. Pair i (dims 2i, 2i+1) then gets
//   y_2i   = x_2i·cos α − x_2i+1·sin α,   α = p·θ_{2i mod d/2}
//   y_2i+1 = x_2i·sin β + x_2i+1·cos β,   β = p·θ_{(2i+1) mod d/2}
// which is not a rotation (determinant cos(α − β)): norms change and the score depends
// on absolute position. Never use it as RoPE.
Eigen::VectorXd apply_half_split_cache_mix(const Eigen::Ref<const Eigen::VectorXd>& x, double position,
                                           const Eigen::ArrayXd& inv_freq);

}  // namespace pe
