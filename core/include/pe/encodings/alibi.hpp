#pragma once
// ALiBi, Press et al. 2022 ("Train Short, Test Long"). Head h (1-based) of n heads gets
// slope m_h = 2^(-8h/n) when n is a power of two. Otherwise (paper §3 / reference code):
// take the slopes of the closest lower power of two p, then append every other slope of
// the 2p-head sequence (indices 0, 2, 4, ...) until there are n.
#include "pe/encodings/module_guard.hpp"
#include "pe/base/types.hpp"

namespace pe {

Eigen::ArrayXd alibi_slopes(long long num_heads);  // num_heads >= 1

// length × length causal bias: B(m, n) = −slope·(m − n) for n <= m, −inf for n > m.
TableF alibi_bias(double slope, long long length);

}  // namespace pe
