#pragma once
// KERPLE (Chi et al. 2022, "KERPLE: Kernelized Relative Positional Embedding for Length
// Extrapolation"), as chijames/KERPLE implements it (megatron/mpu/layers.py,
// ParallelKerpleLog and ParallelKerplePower with pos_emb "kerple_power_ap_"): a bias added
// to the attention logit of query m and key n <= m, one (r1, r2) pair per head:
//
//   log:    bias = −r1 · log(1 + r2 · |m − n|)       (bias_p = r1, bias_a = r2)
//   power:  bias = −r1 · |m − n|^r2,  0 < r2 <= 2    (bias_a = r1, bias_p = r2)
//
// Both are conditionally positive definite kernels shifted to a bias (the paper's §3);
// power with r2 = 1 is ALiBi with slope r1. The reference learns r1, r2 and clamps them
// after each step to >= 0.01 (and r2 <= 2 for power), initialised uniformly: log r1 in
// (0, 2), r2 in (0, 1); power r1 in (0, 1), r2 in (0, 2). Its distance matrix is
// tril(m − n): keys after the query are masked anyway.
//
// Refused (InvalidArgument naming the parameter): r1 not finite and > 0; log: r2 not finite
// and > 0 (r2 <= 0 makes 1 + r2·|m − n| reach log(<= 0)); power: r2 outside (0, 2].
#include "pe/relative/module_guard.hpp"

#include "pe/base/types.hpp"

namespace pe {

struct KerpleParams {
  double r1 = 1.0;
  double r2 = 1.0;
  bool operator==(const KerpleParams&) const = default;
};

void require_kerple_log(const KerpleParams& params);
void require_kerple_power(const KerpleParams& params);

// Bias at distance |m − n| (distance >= 0, finite).
double kerple_log_bias(double distance, const KerpleParams& params);
double kerple_power_bias(double distance, const KerpleParams& params);

// The same over many distances (each >= 0): what `pe-viz dump --encoding kerple-log` prints.
Eigen::ArrayXd kerple_log_curve(const Eigen::Ref<const Eigen::ArrayXd>& distances, const KerpleParams& params);
Eigen::ArrayXd kerple_power_curve(const Eigen::Ref<const Eigen::ArrayXd>& distances, const KerpleParams& params);

}  // namespace pe
