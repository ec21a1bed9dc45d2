#pragma once
// FIRE (Li et al. 2023, "Functional Interpolation for Relative Positions Improves Long
// Context Transformers", §3): the bias of query i and key j <= i is a small MLP f_θ of a
// normalised, log-transformed distance
//
//   b(i, j) = f_θ( ψ(i − j) / ψ(max(L, i)) ),   ψ(x) = log(c·x + 1),
//
// with c > 0 (`fire_c`, learned in the paper) and L > 0 (`fire_threshold`, a learned
// threshold so short sequences are not normalised by a tiny i). Because the input is divided
// by ψ of the query position, every distance a query sees maps into [0, 1]: past the training
// length the MLP still gets inputs from the range it was trained on (progressive
// interpolation). The MLP itself has no published trained weights, so only the input
// transform is provided here; a view must say that the curve is the transform, not a bias.
// Positions are 0-based (i = 0 is the first token); |i − j| is used for keys after the query.
//
// Refused: fire_c not finite and > 0 ("fire_c": c <= 0 makes log(c·x + 1) undefined or 0);
// fire_threshold not finite and > 0 ("fire_threshold": with i = 0, ψ(max(L, 0)) = 0 divides by
// zero); positions outside 0 … kMaxLength.
#include "pe/relative/module_guard.hpp"

#include "pe/base/types.hpp"

namespace pe {

struct FireParams {
  double fire_c = 1.0;
  double fire_threshold = 512.0;
  bool operator==(const FireParams&) const = default;
};

void require_fire_params(const FireParams& params);

// ψ(|i − j|) / ψ(max(L, i)), in [0, 1] for j <= i.
double fire_transform(long long query, long long key, const FireParams& params);

// The transform for the query at position `query` and keys query − distances[k] … (distance
// >= 0; a distance larger than the query position is clamped to it: there is no key before 0).
Eigen::ArrayXd fire_transform_curve(long long query, const Eigen::Ref<const Eigen::ArrayXd>& distances,
                                    const FireParams& params);

// length × length transforms (row = query, column = key; keys after the query: 0, masked).
// Budget-checked.
TableD fire_transform_matrix(long long length, const FireParams& params);

}  // namespace pe
