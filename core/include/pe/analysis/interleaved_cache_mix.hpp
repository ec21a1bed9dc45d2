#pragma once
// A convention-mixing RoPE bug, reproduced on purpose for the "common mistake" view: code
// that builds its cache with freqs.repeat_interleave(2) (the interleaved layout of RoFormer,
// Su et al. 2021, and Meta's LLaMA reference: θ₀, θ₀, θ₁, θ₁, …) but rotates with a rotate_half
// that splits the vector in halves, cat([−x2, x1]) (the half-split pairing of transformers'
// rotate_half). Dim j is then turned with θ_{j//2} and its partner j ± d/2 with θ_{(j±d/2)//2}:
//   y_j       = x_j·cos(p·θ_{j//2}) − x_{j+d/2}·sin(p·θ_{j//2})        j < d/2
//   y_{j+d/2} = x_{j+d/2}·cos(p·θ_{(j+d/2)//2}) + x_j·sin(p·θ_{(j+d/2)//2})
// which is not a rotation: norms change and the score depends on absolute position. It is
// the mirror image of the half-split cache mix (rope.hpp, apply_half_split_cache_mix). Never use it
// as RoPE. Either fix makes it a rotation: cat(freqs, freqs) keeps rotate_half (half-split
// pairs, as Hugging Face does); an interleaved rotate_half keeps the cache.
#include "pe/analysis/module_guard.hpp"
#include "pe/base/types.hpp"

namespace pe {

// x has 2·inv_freq.size() entries (the mix rotates every dim).
Eigen::VectorXd apply_interleaved_cache_mix(const Eigen::Ref<const Eigen::VectorXd>& x, double position,
                                           const Eigen::ArrayXd& inv_freq);

}  // namespace pe
