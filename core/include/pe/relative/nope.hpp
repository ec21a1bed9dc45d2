#pragma once
// NoPE: no positional encoding, with a causal mask (Kazemnejad et al. 2023, "The Impact of
// Positional Encoding on Length Generalization in Transformers", §5, Theorem 1). Nothing is
// added to any logit, yet the mask alone carries position: a head attending uniformly to
// the visible prefix 0 … t (e.g. all-equal logits) reads a start token that has a marker
// value 1 (all other tokens 0) with weight 1/(t + 1), so its output is 1/(t + 1) — an absolute
// position, which later layers can turn into relative ones (their Theorem 2).
// What the curve of the comparison draws for NoPE is the bias itself: 0 at every distance.
//
// Past the training length the signal keeps its form but its steps shrink: neighbouring
// positions t, t + 1 differ by 1/((t + 1)(t + 2)), smaller than any difference seen in training.
#include "pe/relative/module_guard.hpp"

#include "pe/base/types.hpp"

namespace pe {

// 1/(position + 1): the start token's share of a uniform causal head at `position` (0-based).
double nope_start_token_share(long long position);
// The same for positions 0 … length − 1 (budget-checked).
Eigen::ArrayXd nope_position_signal(long long length);
// |share(t) − share(t + 1)| = 1/((t + 1)(t + 2)): how far apart position t and t + 1 are.
double nope_signal_step(long long position);

}  // namespace pe
