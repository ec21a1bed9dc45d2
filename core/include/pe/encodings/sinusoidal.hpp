#pragma once
// Sinusoidal position encoding, Vaswani et al. 2017 ("Attention Is All You Need", §3.5):
//   PE(p, 2i) = sin(p / theta^(2i/d)),  PE(p, 2i+1) = cos(p / theta^(2i/d)).
// For odd d the last column (index d-1, even) is a sine.
#include "pe/encodings/module_guard.hpp"
#include "pe/base/types.hpp"

namespace pe {

// Angular frequency of column pair i: theta^(-2i/d), i < ceil(d/2). Computed in double.
Eigen::ArrayXd sinusoidal_frequencies(long long dim, double theta = 10000.0);

// One entry, in double precision (reference for tests and hover read-outs).
double sinusoidal_value(long long position, long long column, long long dim, double theta = 10000.0);

// length × dim table for positions first_position ... first_position+length-1 (float32).
TableF sinusoidal_table(long long length, long long dim, double theta = 10000.0,
                        long long first_position = 0);
// Same, into `out`, reusing its storage when the shape is unchanged (see rope_tables_into).
void sinusoidal_table_into(TableF& out, long long length, long long dim, double theta = 10000.0,
                           long long first_position = 0);

}  // namespace pe
