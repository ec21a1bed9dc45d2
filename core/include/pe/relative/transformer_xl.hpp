#pragma once
// Transformer-XL's relative attention (Dai et al. 2019, §3.3), as kimiyoung/transformer-xl
// implements it (pytorch/mem_transformer.py, RelPartialLearnableMultiHeadAttn and
// PositionalEmbedding). For query position i and key position j <= i of one head:
//
//   score(i, j) = [ (a) + (b) + (c) + (d) ] / √d_head
//     (a) q_i · k_j                  content         (AC with the u part split off)
//     (b) q_i · r_{i−j}              content-dependent position bias
//     (c) u · k_j                    global content bias        (r_w_bias)
//     (d) v · r_{i−j}                global position bias       (r_r_bias)
//   q_i = W_q E_xi, k_j = W_k,E E_xj, r_{i−j} = W_k,R R_{i−j} (r_net, no bias), u, v per head.
//   The code computes AC = (q + u)·k and BD = (q + v)·r, then _rel_shift so entry (i, j)
//   uses R_{i−j}, then multiplies by scale = 1/√d_head; j > i is masked.
//
// R is the sinusoid of the distance, sines first then cosines (not interleaved):
//   R_n = [ sin(n·f_0), …, sin(n·f_{D/2−1}), cos(n·f_0), …, cos(n·f_{D/2−1}) ],
//   f_k = 1 / 10000^(2k/D),  D = d_model (demb),
// for distances n = klen − 1 … 0 (pos_seq). With clamp_len > 0 the distance is clamped to
// at most clamp_len (pos_seq.clamp_(max=clamp_len)): every farther key shares R_clamp_len.
#include "pe/relative/module_guard.hpp"
#include <cstdint>

#include "pe/base/types.hpp"

namespace pe {

// R_distance (size d_model, sines then cosines) for distance >= 0; clamp_len <= 0 means none.
// d_model even, 2 ... kMaxDim (InvalidArgument naming "d_model").
Eigen::VectorXd transformer_xl_r(long long distance, long long d_model, long long clamp_len = 0);

// The four terms of one pair (before the 1/√d_head); q, k, r (= W_k,R R_{i−j}), u, v of the
// same size d_head >= 1 (InvalidArgument otherwise).
struct TransformerXlTerms {
  double a = 0, b = 0, c = 0, d = 0;
  double d_head = 1;
  double logit() const noexcept;  // (a + b + c + d) / √d_head
};
TransformerXlTerms transformer_xl_terms(const Eigen::Ref<const Eigen::VectorXd>& q,
                                        const Eigen::Ref<const Eigen::VectorXd>& k,
                                        const Eigen::Ref<const Eigen::VectorXd>& r,
                                        const Eigen::Ref<const Eigen::VectorXd>& u,
                                        const Eigen::Ref<const Eigen::VectorXd>& v);

// ILLUSTRATIVE (seeded, untrained) maps of the four terms over length × length pairs of one
// head with d_model = d_head = `dim`: q_i, k_j, u, v are seeded N(0, 1) vectors, W_k,R a
// seeded N(0, 1/dim) matrix (independent streams, mix_seed). Entries with j > i (masked in
// the model) are 0; `causal_mask` says so. Each term is already divided by √dim. Budget-checked
// (four tables); dim even 2 ... 4096.
struct TransformerXlMaps {
  TableD a, b, c, d;
  bool causal_mask = true;
};
TransformerXlMaps transformer_xl_term_maps(long long length, long long dim, long long clamp_len = 0,
                                           std::uint64_t seed = 0);

}  // namespace pe
