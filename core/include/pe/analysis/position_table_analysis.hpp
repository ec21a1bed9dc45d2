#pragma once
// What a learned absolute position table (GPT-2's wpe, BERT's position_embeddings, OPT's
// embed_positions, ...) holds, measured three ways — the pictures of Wang & Chen 2020, "What
// Do Position Embeddings Learn?" (EMNLP), and of every blog post that plots GPT-2's wpe:
//
//  1. the cosine similarity of every pair of positions,
//       S(p, q) = e_p · e_q / (‖e_p‖ ‖e_q‖)                (0 where a row is all zeros),
//     whose bright band along the diagonal says how far apart positions still look alike;
//  2. the leading principal components of the rows (positions as samples, dimensions as
//     features): the eigenvectors of the sample covariance (1/(P − 1)) X̃ᵀX̃ of the centred
//     table X̃ = X − mean over positions, computed as a self-adjoint eigenproblem on whichever
//     of X̃ᵀX̃ (d × d) and X̃X̃ᵀ (P × P) is smaller (they share their non-zero eigenvalues);
//     each position's score on a component is its centred row dotted with the component;
//  3. each dimension's frequency content over positions: the discrete Fourier transform of
//     the dimension's centred column, evaluated directly (no FFT, see dimension_spectra).
//
// Everything takes the table as positions × dims (row p = position p) and is pure.
#include "pe/analysis/module_guard.hpp"

#include "pe/base/types.hpp"

namespace pe {

// P × P cosine similarities of the rows, as floats (entries in [−1, 1], the diagonal 1 for a
// non-zero row). Computed in double from the float table. Budget-checked (P² floats):
// MemoryBudgetExceeded names the table. Throws InvalidArgument for an empty table.
TableF position_cosine_similarity(const Eigen::Ref<const MatrixF>& table);

// The band of a similarity matrix as one curve: entry δ is the mean of S(p, p + δ) over
// p = 0 ... P − 1 − δ (δ = 0 ... P − 1), the average similarity of positions δ apart.
Eigen::VectorXd mean_similarity_by_distance(const TableF& similarity);

struct PositionComponents {
  // The k leading components, largest variance first.
  Eigen::VectorXd variance;        // [k] eigenvalue of the sample covariance (divisor P − 1)
  Eigen::VectorXd variance_share;  // [k] variance / total_variance (0 when the total is 0)
  double total_variance = 0.0;     // trace of the covariance: Σ over dims of each column's variance
  MatrixD loadings;                // d × k: unit component vectors, one per column
  MatrixD scores;                  // P × k: (e_p − mean) · loading_c
  Eigen::VectorXd mean;            // [d] the mean row that was removed
};

// The `components` leading principal components (1 ... min(P, d); more are cut to that).
// Signs are fixed so pictures are stable across runs and libraries: each component is
// oriented so its scores rise with position on average (Σ_p (p − p̄) · score_p > 0); a
// component whose scores have no trend (that sum within 1e−9 of the sum of |…| terms) is
// oriented so its largest |score| (the first, on ties) is positive. Needs P >= 2 (throws
// InvalidArgument naming "positions"); the eigenproblem's side, min(P, d), is at most 8192.
PositionComponents position_principal_components(const Eigen::Ref<const MatrixF>& table, long long components);

struct DimensionSpectra {
  // Frequencies in cycles per position, 0 ... 0.5 ascending: the DFT bins k / P for
  // k = 0 ... ⌊P/2⌋ when there are at most max_frequencies of them (exact_bins), else
  // max_frequencies evenly spaced from 0 to 0.5 (the transform evaluated between bins).
  Eigen::VectorXd frequency;
  bool exact_bins = true;
  // F × d amplitudes: for dimension j, 2·|Σ_p (x_pj − mean_j) · e^(−2πi f p)| / P — the
  // amplitude A of a column A·cos(2π f p + φ) when f is a bin strictly between 0 and 0.5
  // (twice that at f = 0.5, where the sine part vanishes; 0 at f = 0, the mean being removed).
  MatrixD amplitude;
  // [d] the frequency of each dimension's largest amplitude above f = 0 (the lowest on ties;
  // 0 for a constant column).
  Eigen::VectorXd dominant_frequency;
  Eigen::VectorXd mean;  // [d] the column means removed
};

// The DFT of every column, evaluated directly as two real matrix products (cos and sin
// tables of F × P times the P × d table, in chunks of frequencies so the tables stay small):
// exact at any P, with no padding to a power of two (ViT's 197 rows, Whisper's 448) and no
// FFT library in core; cost F·P·d multiply-adds, ~2·10^8 for GPT-2's 1024 × 768 table.
// max_frequencies 2 ... 65536 (default 1025: every bin of a table of up to 2048 positions).
// Throws InvalidArgument for an empty table or max_frequencies out of range.
DimensionSpectra dimension_spectra(const Eigen::Ref<const MatrixF>& table, long long max_frequencies = 1025);

}  // namespace pe
