#pragma once
// The worked example with d = 4 ("trace RoPE with a tiny model": q = [0.8, 0.3, −0.5, 0.2],
// θ = 10000, p = 1) as numbers: every quantity the walkthrough view prints, computed once
// here so it can be tested without a GUI.
//
// Pairs are interleaved (dims 2i, 2i+1), as in RoFormer (Su et al. 2021). Besides the exact
// result, the hand arithmetic such tutorials print is reproduced: it gives 0.179 and 0.836
// where the exact values are 0.17980 and 0.83527. Measured: those printed
// numbers come out only with sin 1 = 0.84147 taken as 0.842 — rounded twice (0.8415, then
// 0.842); rounded once it is 0.841 — and every product rounded to 3 decimals before the
// sum. Rounding the exact result once gives [0.180, 0.835, −0.502, 0.195].
#include "pe/analysis/module_guard.hpp"
#include <string>
#include <vector>

#include "pe/base/types.hpp"

namespace pe {

struct WalkthroughInput {
  std::vector<double> q = {0.8, 0.3, -0.5, 0.2};  // d = q.size(): even, 2 ... kMaxDim
  double theta = 10000.0;
  long long position = 1;    // p
  long long position_b = 3;  // the second position of step 4
  long long shift = 10;      // step 5 also scores (p + shift, p_b + shift)
};

struct WalkthroughPair {
  long long index = 0;        // i
  long long dim_a = 0, dim_b = 0;  // 2i, 2i+1
  double exponent = 0;        // 2i/d
  double theta_power = 0;     // θ^(2i/d)
  double freq = 0;            // 1/θ^(2i/d) (rad per position)
  double angle = 0;           // p·freq (rad); tutorials often call it θ_i
  double angle_deg = 0;
  double cos = 0, sin = 0;    // of angle
  double x = 0, y = 0;        // q's pair before rotation
  double x_rot = 0, y_rot = 0;  // after, exact (double)
  // The printed hand arithmetic: cos/sin as printed (4 decimals, then 3: 0.84147 →
  // 0.8415 → 0.842), products rounded to 3 decimals, their sum.
  double cos_printed = 0, sin_printed = 0;
  double x_terms3[2] = {0, 0}, y_terms3[2] = {0, 0};  // x·cos, −y·sin and x·sin, y·cos rounded
  double x_rot_printed = 0, y_rot_printed = 0;
  double angle_b = 0;          // p_b·freq
  double delta_angle = 0;      // (p_b − p)·freq
  // Step 5 with k = q: this pair's share of ⟨R(p)q, R(p_b)q⟩ = |pair|²·cos(Δangle).
  double score_term = 0;
  double score_term_shifted = 0;  // the same at (p + shift, p_b + shift), rotated directly
};

struct WalkthroughResult {
  long long dim = 0;
  WalkthroughInput input;
  std::vector<WalkthroughPair> pairs;
  std::vector<double> rotated;       // q' at p, exact
  std::vector<double> rotated_printed;  // q' with the printed hand rounding
  // Step 5, key k = q (the same vector, so every pair's share is |pair|²·cos(Δangle_i)):
  // q rotated to p and k to p_b, dotted; then both shifted by `shift`; then a pair one
  // position further apart (p, p_b + 1) to show the score does change with the distance.
  double score = 0, score_shifted = 0, score_other_distance = 0;
  double score_closed_form = 0;  // Σ |pair_i|²·cos((p_b − p)·freq_i)
};

// Throws InvalidArgument (naming walkthrough_q, walkthrough_theta, walkthrough_position,
// walkthrough_position_b) for odd or empty q, non-finite entries, θ <= 1, negative positions.
WalkthroughResult compute_walkthrough(const WalkthroughInput& input);

// Rounds half away from zero to `decimals` places (as by hand).
double round_to(double value, int decimals);
// The printed 3-decimal cos/sin: rounded to 4 decimals first, then to 3.
double printed_rounding(double value);

// Short number text for the formulas: up to 4 significant digits, no trailing zeros
// ("1", "0.01", "0.5403", "57.3", "3162", "0.0003162").
std::string short_number(double value);

// The formula lines of each step, with the numbers substituted (what the view prints):
//  frequency_formula: "1 / 10000^(2/4) = 1 / 100 = 0.01"
//  angle_formula:     "1 · 0.01 = 0.01 rad = 0.573°"
//  rotation_formulas: {"0.8·cos(1) − 0.3·sin(1) = 0.8·0.5403 − 0.3·0.8415 = 0.4322 − 0.2524 = 0.1798", "...y'..."}
std::string frequency_formula(const WalkthroughResult& r, const WalkthroughPair& pair);
std::string angle_formula(const WalkthroughResult& r, const WalkthroughPair& pair);
std::vector<std::string> rotation_formulas(const WalkthroughPair& pair);

}  // namespace pe
